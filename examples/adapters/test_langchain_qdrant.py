"""Qdrant's embedded engine (qdrant-client local mode) through
langchain-qdrant's QdrantVectorStore, cosine distance, one collection per
store."""

from langchain_qdrant import QdrantVectorStore
from qdrant_client import QdrantClient, models

from tinymemory.testing import VectorStoreConformance


class TestQdrantVectorStore(VectorStoreConformance):
    independent_stores = True  # each driver process holds its own engine
    def make_store(self, embeddings):
        client = QdrantClient(":memory:")
        client.create_collection(
            "tinymemory", vectors_config=models.VectorParams(size=embeddings.dims, distance=models.Distance.COSINE)
        )
        return QdrantVectorStore(client, "tinymemory", embeddings)

    def cleanup_store(self, store):
        store.client.close()
