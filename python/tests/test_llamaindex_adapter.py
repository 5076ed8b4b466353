"""tinymemory.adapters.llamaindex over SimpleVectorStore (with its docstore)
and over stores with less of the interface: one that ignores the filters,
one that keeps text but cannot read a node back. The adapter over real
stores is examples/adapters/test_llamaindex_*.py."""

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core.vector_stores import SimpleVectorStore  # noqa: E402
from llama_index.core.vector_stores.types import VectorStoreQueryResult  # noqa: E402

from tinymemory import protocol as tp  # noqa: E402
from tinymemory.adapters.llamaindex import LlamaIndexAdapter, node_id  # noqa: E402


def test_a_store_keeping_no_text_is_served_with_a_docstore_beside_it():
    store = LlamaIndexAdapter(SimpleVectorStore)
    store.store("learning:a", "k1", "the comet passed", "note", None, "none")
    store.store("learning:a", "k1", "the comet came back", "note", "s", "none")
    store.store("learning:b", "k1", "a comet elsewhere", "note", None, "none")
    assert store._engine.stores_text is False and store._docstore is not None
    got = store.get("learning:a", "k1")
    assert (got["id"], got["content"], got["session_id"]) == (node_id("learning:a", "k1"), "the comet came back", "s")
    hits = store.recall("comet", 10, "learning:a", None, None, None)
    assert [(h["namespace"], h["key"], h["content"]) for h in hits] == [("learning:a", "k1", "the comet came back")]
    assert store.forget("learning:a", "k1") is True
    assert store.get("learning:a", "k1") is None
    assert store.recall("comet", 10, "learning:a", None, None, None) == []


class IgnoresFilters(SimpleVectorStore):
    """A SimpleVectorStore whose query drops the filters it is given."""

    def query(self, query, **kwargs):
        query.filters = None
        return super().query(query, **kwargs)


def test_a_store_that_ignores_the_filters_is_a_mapping_limit():
    store = LlamaIndexAdapter(IgnoresFilters)
    store.store("learning:a", "k1", "comet", "note", None, "none")
    store.store("learning:b", "k1", "comet", "note", None, "none")
    with pytest.raises(tp.DriverError) as e:
        store.recall("comet", 10, "learning:a", None, None, None)
    assert str(e.value).startswith("mapping limit (docs/adapters.md): IgnoresFilters answered recall('comet') with 1 of 2")


class KeepsTextWithoutGetNodes(SimpleVectorStore):
    """Claims to keep text, answers queries with ids alone and has no get_nodes."""

    stores_text: bool = True

    def query(self, query, **kwargs):
        result = super().query(query, **kwargs)
        return VectorStoreQueryResult(nodes=None, similarities=result.similarities, ids=result.ids)


def test_a_store_keeping_text_without_get_nodes_is_a_mapping_limit():
    store = LlamaIndexAdapter(KeepsTextWithoutGetNodes)
    store.store("learning:a", "k1", "comet", "note", None, "none")
    with pytest.raises(tp.DriverError) as e:
        store.get("learning:a", "k1")
    assert str(e.value).startswith(
        "mapping limit (docs/adapters.md): KeepsTextWithoutGetNodes.get_nodes is not implemented"
    )


class RefusesDelete(SimpleVectorStore):
    """A SimpleVectorStore whose delete raises (a lost connection)."""

    def delete(self, ref_doc_id, **kwargs):
        raise RuntimeError("connection reset")


def test_a_forget_whose_delete_raises_leaves_the_entry_listed():
    # The key left the adapter's catalog before the store's delete ran:
    # when the delete raised, list left out an entry the store still held.
    store = LlamaIndexAdapter(RefusesDelete)
    store.store("learning:a", "k1", "the comet passed", "note", None, "none")
    with pytest.raises(RuntimeError, match="connection reset"):
        store.forget("learning:a", "k1")
    assert [e["key"] for e in store.list("learning:a", None, None)] == ["k1"]
    assert store.get("learning:a", "k1")["content"] == "the comet passed"


def test_a_get_or_forget_of_a_key_the_contract_refuses_is_invalid_naming_the_rule():
    # Contract sentence 12 (key.invalid_refused): 513 two-byte characters are
    # 1,026 UTF-8 bytes, over the limit though fewer than 1,024 characters.
    store = LlamaIndexAdapter(SimpleVectorStore)
    store.store("global", "kept", "stored before", "core", None, "internal")
    for key, rule in [("", "key.empty"), ("k" * 1025, "key.too_long"), ("\u00e9" * 513, "key.too_long")]:
        for method in (store.get, store.forget):
            with pytest.raises(tp.DriverError) as e:
                method("global", key)
            assert (e.value.kind, e.value.rule) == ("invalid", rule)
    assert store.get("global", "kept")["content"] == "stored before"
