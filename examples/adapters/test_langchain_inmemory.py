from langchain_core.vectorstores import InMemoryVectorStore
from tinymemory.testing import VectorStoreConformance
class TestInMemoryVectorStore(VectorStoreConformance):
    def make_store(self, embeddings):
        return InMemoryVectorStore(embeddings)
