"""LangChain's InMemoryVectorStore through the adapter's async path: every
operation is its async method (aadd_documents, asimilarity_search_with_score,
aget_by_ids, adelete) on the adapter's event loop."""

from langchain_core.vectorstores import InMemoryVectorStore

from tinymemory.testing import VectorStoreConformance


class TestInMemoryVectorStoreAsync(VectorStoreConformance):
    independent_stores = True  # each driver process holds its own engine
    use_async = True

    def make_store(self, embeddings):
        return InMemoryVectorStore(embeddings)
