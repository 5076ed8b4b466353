"""Adapters: the contract over a framework's store interface, with no driver code.

- ``tinymemory.adapters.langgraph.LangGraphStore``: over any LangGraph
  ``BaseStore`` (``batch``, or ``abatch`` with ``use_async=True``).
- ``tinymemory.adapters.langchain.VectorStoreAdapter``: over any LangChain
  ``VectorStore``.
- ``tinymemory.adapters.mem0.Mem0Adapter``: over Mem0's ``Memory``
  (``add(..., infer=False)``, no LLM call; ``memory_config`` builds an
  offline one).
- ``tinymemory.adapters.llamaindex.LlamaIndexAdapter``: over any
  LlamaIndex vector store (``BasePydanticVectorStore``).
- ``tinymemory.adapters.embeddings.HashedEmbedding``: an offline,
  deterministic embedding for conformance runs (a test tool, not a model).

Each module imports its framework only when used, so ``tinymemory`` itself
keeps no dependency. The mapping, operation by operation, and what each
adapter does itself are in docs/adapters.md; the pytest classes are
``tinymemory.testing.LangGraphStoreConformance``,
``tinymemory.testing.VectorStoreConformance``,
``tinymemory.testing.Mem0Conformance`` and
``tinymemory.testing.LlamaIndexConformance``.
"""
