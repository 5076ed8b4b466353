from langgraph.store.memory import InMemoryStore
from tinymemory.adapters.embeddings import HashedEmbedding
from tinymemory.testing import LangGraphStoreConformance
class TestInMemoryStore(LangGraphStoreConformance):
    independent_stores = True  # each driver process holds its own engine
    def make_store(self): return InMemoryStore(index={"dims": 256, "embed": HashedEmbedding()})
