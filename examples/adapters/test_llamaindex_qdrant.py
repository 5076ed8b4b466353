"""Qdrant's embedded engine (qdrant-client local mode, in memory) through
llama-index-vector-stores-qdrant's QdrantVectorStore, one collection per
store."""

import offline  # noqa: F401  (first: no network but loopback)
from llama_index.vector_stores.qdrant import QdrantVectorStore
from qdrant_client import QdrantClient

from tinymemory.testing import LlamaIndexConformance


class TestLlamaIndexQdrant(LlamaIndexConformance):
    independent_stores = True  # each driver process holds its own engine

    def make_store(self):
        return QdrantVectorStore(collection_name="tinymemory", client=QdrantClient(":memory:"))

    def cleanup_store(self, store):
        store.client.close()
