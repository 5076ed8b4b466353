from langchain_core.vectorstores import InMemoryVectorStore
from tinymemory.testing import VectorStoreConformance
class TestInMemoryVectorStore(VectorStoreConformance):
    independent_stores = True  # each driver process holds its own engine
    def make_store(self, embeddings):
        return InMemoryVectorStore(embeddings)
