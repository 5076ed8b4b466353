"""LangChain's InMemoryVectorStore through the LangChain adapter: the reference row of
docs/benchmarks.md ("Through the adapters"); a reset is a new store, which costs nothing."""

from langchain_core.vectorstores import InMemoryVectorStore

from tinymemory.adapters.langchain import VectorStoreAdapter


def Store():
    return VectorStoreAdapter(InMemoryVectorStore, score="similarity")
