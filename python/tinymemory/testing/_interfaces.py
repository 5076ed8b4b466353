"""The conformance classes of the Mem0 and LlamaIndex adapters (docs/adapters.md)."""

from . import _EmbeddingConformance


class Mem0Conformance(_EmbeddingConformance):
    """The conformance suite over Mem0's ``Memory``, with no driver code.

        from tinymemory.testing import Mem0Conformance

        class TestMem0Faiss(Mem0Conformance):
            def vector_store(self, dims):
                return {"provider": "faiss", "config": {"path": tempfile.mkdtemp()}}

    ``vector_store(self, dims)`` returns the ``vector_store`` part of a
    ``Memory.from_config`` dictionary for a fresh, empty store (a
    directory, collection or table of its own); the default
    ``make_memory(self, embeddings)`` builds the ``Memory`` over it with
    tinymemory.adapters.mem0.memory_config (the LangChain embedder over
    `embeddings`, an LLM that raises when called, the history in memory).
    Override ``make_memory`` instead to build the ``Memory`` yourself.
    ``cleanup_store(self, memory)``, optional, gets each ``Memory`` the
    adapter is done with. ``profile`` is semantic; ``independent_stores``
    as for VectorStoreConformance. Set ``MEM0_TELEMETRY=false`` before
    Mem0 is imported (the test module's top) or Mem0 sends usage events
    over the network.
    """

    def vector_store(self, dims):
        """The ``{"provider": ..., "config": {...}}`` of a fresh, empty vector store."""
        raise NotImplementedError(f"{type(self).__name__} must define vector_store(self, dims) or make_memory")

    def make_memory(self, embeddings):
        """A fresh, empty ``Memory`` over vector_store(embeddings.dims)."""
        from mem0 import Memory

        from ..adapters.mem0 import memory_config

        return Memory.from_config(memory_config(self.vector_store(embeddings.dims), embeddings))

    def tinymemory_adapter(self, **common):
        from ..adapters.mem0 import Mem0Adapter

        return Mem0Adapter(self.make_memory, embeddings=self.embeddings(), cleanup=self.cleanup_store, **common)


class LlamaIndexConformance(_EmbeddingConformance):
    """The conformance suite over a LlamaIndex vector store, with no driver code.

        from llama_index.core.vector_stores import SimpleVectorStore
        from tinymemory.testing import LlamaIndexConformance

        class TestSimpleVectorStore(LlamaIndexConformance):
            def make_store(self):
                return SimpleVectorStore()

    ``make_store(self)`` returns a fresh, empty ``BasePydanticVectorStore``
    (a collection or table of its own); ``cleanup_store(self, store)``,
    optional, gets each store the adapter is done with; ``embeddings(self)``
    what embeds contents and queries (default ``HashedEmbedding()``);
    ``make_docstore(self)``, optional, the docstore beside a store that
    keeps no text (default ``SimpleDocumentStore``). ``profile`` is
    semantic; ``independent_stores`` as for VectorStoreConformance.
    """

    make_docstore = None

    def make_store(self):
        """A fresh, empty LlamaIndex vector store."""
        raise NotImplementedError(f"{type(self).__name__} must define make_store(self)")

    def tinymemory_adapter(self, **common):
        from ..adapters.llamaindex import LlamaIndexAdapter

        return LlamaIndexAdapter(
            self.make_store,
            embeddings=self.embeddings(),
            cleanup=self.cleanup_store,
            docstore=self.make_docstore,
            **common,
        )
