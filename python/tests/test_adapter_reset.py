"""The adapters' ``clear`` option (issue 46): a ``reset`` after a write
empties the store in place through ``clear`` instead of asking the factory
for a new one, and the checks that need an empty store still get one."""

import os

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("langgraph.store.memory")
    pytest.importorskip("langchain_core.vectorstores")

from langchain_core.vectorstores import InMemoryVectorStore  # noqa: E402
from langgraph.store.memory import InMemoryStore  # noqa: E402

from tinymemory import protocol as tp  # noqa: E402
from tinymemory.adapters.embeddings import HashedEmbedding  # noqa: E402
from tinymemory.adapters.langchain import VectorStoreAdapter  # noqa: E402
from tinymemory.adapters.langgraph import LangGraphStore  # noqa: E402


class Calls:
    """Counts the factory, cleanup and clear calls an adapter makes."""

    def __init__(self):
        self.made = 0
        self.cleaned = 0
        self.cleared = 0


def _langgraph(calls, with_clear):
    def factory():
        calls.made += 1
        return InMemoryStore(index={"dims": 16, "embed": HashedEmbedding(16)})

    def cleanup(store):
        calls.cleaned += 1

    def clear(store):
        calls.cleared += 1
        store._data.clear()
        store._vectors.clear()

    return LangGraphStore(factory, cleanup=cleanup, clear=clear if with_clear else None)


def _langchain(calls, with_clear):
    def factory(embeddings):
        calls.made += 1
        return InMemoryVectorStore(embeddings)

    def cleanup(store):
        calls.cleaned += 1

    def clear(store):
        calls.cleared += 1
        store.store.clear()

    return VectorStoreAdapter(
        factory, embeddings=HashedEmbedding(16), cleanup=cleanup, clear=clear if with_clear else None,
        score="similarity",
    )


@pytest.mark.parametrize("make", [_langgraph, _langchain], ids=["langgraph", "langchain"])
def test_a_reset_after_a_write_clears_the_store_in_place(make):
    calls = Calls()
    adapter = make(calls, with_clear=True)
    adapter.reset()  # nothing written yet: nothing to clear
    assert (calls.made, calls.cleaned, calls.cleared) == (1, 0, 0)
    adapter.store("learning:a", "k", "some text", "core", None, "internal")
    adapter.reset()
    assert (calls.made, calls.cleaned, calls.cleared) == (1, 0, 1)
    # As empty as a fresh store, for every check that needs one.
    assert adapter.list(None, None, None) == []
    assert adapter.namespaces() == []
    assert adapter.get("learning:a", "k") is None
    assert adapter.recall("some text", 5, "learning:a", None, None, None) == []
    adapter.reset()  # nothing written since the last clear
    assert calls.cleared == 1
    adapter.store("learning:a", "k", "other text", "core", None, "internal")
    assert adapter.get("learning:a", "k")["content"] == "other text"


@pytest.mark.parametrize("make", [_langgraph, _langchain], ids=["langgraph", "langchain"])
def test_without_clear_a_reset_after_a_write_asks_the_factory(make):
    calls = Calls()
    adapter = make(calls, with_clear=False)
    adapter.store("learning:a", "k", "some text", "core", None, "internal")
    adapter.reset()
    assert (calls.made, calls.cleaned, calls.cleared) == (2, 1, 0)
    assert adapter.list(None, None, None) == []


@pytest.mark.parametrize("adapter", [LangGraphStore, VectorStoreAdapter])
def test_a_clear_that_is_not_callable_is_refused(adapter):
    with pytest.raises(TypeError, match="clear is 'TRUNCATE'"):
        adapter(lambda *a: None, clear="TRUNCATE")


def _leaky_langgraph(calls, with_clear):
    # A clear that empties nothing: the store keeps what was written.
    def clear(store):
        calls.cleared += 1

    return LangGraphStore(lambda: InMemoryStore(index={"dims": 16, "embed": HashedEmbedding(16)}), clear=clear)


def _leaky_langchain(calls, with_clear):
    def clear(store):
        calls.cleared += 1

    return VectorStoreAdapter(
        InMemoryVectorStore, embeddings=HashedEmbedding(16), clear=clear, score="similarity"
    )


@pytest.mark.parametrize("make", [_leaky_langgraph, _leaky_langchain], ids=["langgraph", "langchain"])
def test_a_clear_that_leaves_an_entry_fails_the_reset(make):
    # An emptied store is read back, not assumed empty: a check after this
    # reset would otherwise start from the last check's data.
    calls = Calls()
    adapter = make(calls, with_clear=True)
    adapter.store("learning:a", "k", "some text", "core", None, "internal")
    with pytest.raises(tp.DriverError) as caught:
        adapter.reset()
    assert calls.cleared == 1
    assert caught.value.kind == "backend"
    assert "after clear" in caught.value.message
    assert "'k'" in caught.value.message
