"""tinymemory.adapters.langchain_interface: a store serving one path only
(LangChain's standard tests let a store declare ``has_sync`` or
``has_async`` False, as langchain-postgres's own does for a PGVector made
with a connection string) is judged on the path it serves."""

import os

import pytest

import tinymemory.protocol as tp

if not os.environ.get("CI"):
    pytest.importorskip("langchain_core.vectorstores")


def _sync_only_store(embeddings):
    """An InMemoryVectorStore whose async twins fail as a sync-mode
    PGVector's do (langchain-postgres 0.0.19)."""
    from langchain_core.vectorstores import InMemoryVectorStore

    class SyncOnly(InMemoryVectorStore):
        async def aadd_documents(self, *args, **kwargs):
            raise AssertionError("_async_engine not found")

        async def adelete(self, *args, **kwargs):
            raise AssertionError("_async_engine not found")

    return SyncOnly(embeddings)


# Inputs as the suite sends them (docs/protocol.md, "The interface op").
INPUTS = {
    "interface.langchain.delete_missing": {
        "missing_ids": ["3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a11", "3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a12"],
        "given": [{"id": None, "page_content": "meadow", "metadata": {"id": 1}}],
        "given_ids": ["3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a01"],
        "queries": {"before": "meadow", "after": "meadow"},
    },
    "interface.langchain.empty_store": {
        "given": [{"id": None, "page_content": "meadow", "metadata": {"id": 1}}],
        "given_ids": ["3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a01"],
        "queries": {"search": "meadow", "after_add": "meadow"},
    },
    "interface.langchain.string_ids": {
        "given": [
            {"id": None, "page_content": "copper", "metadata": {"id": 1}},
            {"id": None, "page_content": "violin", "metadata": {"id": 2}},
        ],
        "given_ids": ["17", "4"],
        "queries": {"search": "violin", "after_delete": "copper"},
    },
}


def _interface(adapter, check, use_async, inputs=None):
    adapter.reset()
    request = {"id": 1, "op": "interface", "check": check, "async": use_async,
               "inputs": INPUTS[check] if inputs is None else inputs}
    return tp.handle(adapter, adapter.driver_id, request)["result"]


def test_the_scenario_runs_the_inputs_sent():
    from langchain_core.vectorstores import InMemoryVectorStore

    from tinymemory.adapters.langchain import VectorStoreAdapter

    adapter = VectorStoreAdapter(InMemoryVectorStore)
    inputs = INPUTS["interface.langchain.string_ids"]
    for use_async in (False, True):
        observed = _interface(adapter, "interface.langchain.string_ids", use_async)
        assert observed["given"] == inputs["given"] and observed["given_ids"] == ["17", "4"]
        assert observed["ids"] == {"ok": ["17", "4"]}
        assert observed["search"]["ok"][0] == {"id": "4", "page_content": "violin", "metadata": {"id": 2}}
        assert observed["after_delete"] == {"ok": [{"id": "4", "page_content": "violin", "metadata": {"id": 2}}]}


def test_a_request_without_inputs_is_refused_naming_the_rule():
    from langchain_core.vectorstores import InMemoryVectorStore

    from tinymemory.adapters.langchain import VectorStoreAdapter

    adapter = VectorStoreAdapter(InMemoryVectorStore)
    adapter.reset()
    request = {"id": 1, "op": "interface", "check": "interface.langchain.delete_missing", "async": False}
    assert tp.handle(adapter, adapter.driver_id, request)["error"] == {
        "kind": "backend",
        "message": "the interface request for 'interface.langchain.delete_missing' carries no `inputs` object "
        '(docs/protocol.md, "The interface op": the suite sends the inputs of every scenario; this adapter '
        "needs a suite of its release)",
    }
    request = {"id": 2, "op": "interface", "check": "interface.langchain.delete", "async": False,
               "inputs": {"given": []}}
    assert tp.handle(adapter, adapter.driver_id, request)["error"] == {
        "kind": "backend",
        "message": "the inputs of 'interface.langchain.delete' lack 'given_ids' (docs/protocol.md, "
        '"The interface op")',
    }


def test_a_path_the_store_declares_it_lacks_is_not_run():
    from tinymemory.adapters.langchain import VectorStoreAdapter

    declared = VectorStoreAdapter(_sync_only_store, has_async=False)
    assert _interface(declared, "interface.langchain.delete_missing", True) == {
        "not_implemented": "the store declares no async path (has_async = False, as LangChain's standard "
        "tests let a store declare)"
    }
    sync = _interface(declared, "interface.langchain.delete_missing", False)
    inputs = INPUTS["interface.langchain.delete_missing"]
    found = {"id": inputs["given_ids"][0], "page_content": "meadow", "metadata": {"id": 1}}
    assert sync == {
        **inputs,
        "delete_one": {"ok": None},
        "delete_many": {"ok": None},
        "ids": {"ok": inputs["given_ids"]},
        "before": {"ok": [found]},
        "delete_mixed": {"ok": None},
        "after": {"ok": []},
    }
    # Undeclared, the async path runs and its failure is observed.
    undeclared = VectorStoreAdapter(_sync_only_store)
    answer = _interface(undeclared, "interface.langchain.delete_missing", True)
    assert answer["delete_one"] == {"error": "AssertionError: _async_engine not found"}
    from langchain_core.vectorstores import InMemoryVectorStore

    no_sync = VectorStoreAdapter(InMemoryVectorStore, has_sync=False, use_async=True)
    assert _interface(no_sync, "interface.langchain.empty_store", False) == {
        "not_implemented": "the store declares no sync path (has_sync = False, as LangChain's standard "
        "tests let a store declare)"
    }


def test_a_store_declared_without_the_path_use_async_serves_is_refused():
    from tinymemory.adapters.langchain import VectorStoreAdapter

    with pytest.raises(ValueError, match=r"^use_async serves every operation through the async methods"):
        VectorStoreAdapter(_sync_only_store, has_async=False, use_async=True)
    with pytest.raises(ValueError, match=r"^the sync methods serve every operation without use_async"):
        VectorStoreAdapter(_sync_only_store, has_sync=False)


def test_vector_store_conformance_passes_its_declaration_to_the_adapter():
    from tinymemory.testing import VectorStoreConformance

    class TestSyncOnly(VectorStoreConformance):
        has_async = False

        def make_store(self, embeddings):
            return _sync_only_store(embeddings)

    assert VectorStoreConformance.has_sync is True and VectorStoreConformance.has_async is True
    adapter = TestSyncOnly.tinymemory_store()
    assert list(_interface(adapter, "interface.langchain.empty_store", True)) == ["not_implemented"]


def _store_without_get_by_ids(embeddings):
    """An InMemoryVectorStore without get_by_ids, as LangChain's base
    VectorStore leaves it (NotImplementedError), as Milvus's is."""
    from langchain_core.vectorstores import InMemoryVectorStore, VectorStore

    class NoGet(InMemoryVectorStore):
        get_by_ids = VectorStore.get_by_ids
        aget_by_ids = VectorStore.aget_by_ids

    return NoGet(embeddings)


def test_a_store_declared_without_get_by_ids_runs_no_scenario_that_needs_it():
    from tinymemory.adapters.langchain import VectorStoreAdapter
    from tinymemory.testing import VectorStoreConformance

    assert VectorStoreConformance.has_get_by_ids is True
    declared = VectorStoreAdapter(_store_without_get_by_ids, has_get_by_ids=False)
    # The four scenarios whose standard tests skip without get_by_ids
    # (test_get_by_ids, test_get_by_ids_missing, test_add_documents_documents,
    # test_add_documents_with_existing_ids) and string_ids, which reads by it.
    for check in ("get_by_ids", "generated_ids", "document_ids", "string_ids"):
        for use_async in (False, True):
            assert _interface(declared, f"interface.langchain.{check}", use_async, inputs={}) == {
                "not_implemented": "the store declares no get_by_ids (has_get_by_ids = False, as LangChain's "
                "standard tests let a store declare)"
            }
    # The others run as before.
    assert _interface(declared, "interface.langchain.delete_missing", False)["delete_one"] == {"ok": None}
    # Undeclared, the scenario runs and the store's NotImplementedError is observed.
    undeclared = VectorStoreAdapter(_store_without_get_by_ids)
    observed = _interface(undeclared, "interface.langchain.string_ids", False)
    assert observed["get"]["error"].startswith("NotImplementedError: ")

    class TestNoGet(VectorStoreConformance):
        has_get_by_ids = False

        def make_store(self, embeddings):
            return _store_without_get_by_ids(embeddings)

    adapter = TestNoGet.tinymemory_store()
    assert list(_interface(adapter, "interface.langchain.get_by_ids", False, inputs={})) == ["not_implemented"]
