"""Adapters: the contract over a framework's store interface, with no driver code.

- ``tinymemory.adapters.langgraph.LangGraphStore``: over any LangGraph
  ``BaseStore`` (``batch``, or ``abatch`` with ``use_async=True``).
- ``tinymemory.adapters.langchain.VectorStoreAdapter``: over any LangChain
  ``VectorStore``.
- ``tinymemory.adapters.embeddings.HashedEmbedding``: an offline,
  deterministic embedding for conformance runs (a test tool, not a model).

Each module imports its framework only when used, so ``tinymemory`` itself
keeps no dependency. The mapping, operation by operation, and what each
adapter does itself are in docs/adapters.md; the pytest classes are
``tinymemory.testing.LangGraphStoreConformance`` and
``tinymemory.testing.VectorStoreConformance``.
"""
