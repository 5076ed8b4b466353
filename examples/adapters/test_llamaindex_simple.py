"""LlamaIndex's SimpleVectorStore (llama-index-core), in memory, with the
SimpleDocumentStore beside it that VectorStoreIndex gives a store keeping
no text."""

import offline  # noqa: F401  (first: no network but loopback)
from llama_index.core.vector_stores import SimpleVectorStore

from tinymemory.testing import LlamaIndexConformance


class TestSimpleVectorStore(LlamaIndexConformance):
    independent_stores = True  # each driver process holds its own engine

    def make_store(self):
        return SimpleVectorStore()
