"""LangGraph's InMemoryStore through the adapter's async path: every
operation is one ``abatch`` call on the adapter's event loop."""

from langgraph.store.memory import InMemoryStore

from tinymemory.adapters.embeddings import HashedEmbedding
from tinymemory.testing import LangGraphStoreConformance


class TestInMemoryStoreAsync(LangGraphStoreConformance):
    independent_stores = True  # each driver process holds its own engine
    use_async = True

    def make_store(self):
        return InMemoryStore(index={"dims": 256, "embed": HashedEmbedding()})
