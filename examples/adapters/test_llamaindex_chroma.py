"""Chroma (chromadb, in process: EphemeralClient, telemetry off) through
llama-index-vector-stores-chroma's ChromaVectorStore, one collection per
store, cosine space."""

import uuid

import offline  # noqa: F401  (first: no network but loopback)
import chromadb
from chromadb.config import Settings
from llama_index.vector_stores.chroma import ChromaVectorStore

from tinymemory.testing import LlamaIndexConformance

CLIENT = None


def client():
    global CLIENT
    if CLIENT is None:
        CLIENT = chromadb.EphemeralClient(Settings(anonymized_telemetry=False))
    return CLIENT


class TestLlamaIndexChroma(LlamaIndexConformance):
    independent_stores = True  # each driver process holds its own engine

    def make_store(self):
        name = "tm-" + uuid.uuid4().hex[:16]
        collection = client().create_collection(name, metadata={"hnsw:space": "cosine"})
        return ChromaVectorStore(chroma_collection=collection)

    def cleanup_store(self, store):
        client().delete_collection(store._collection.name)
