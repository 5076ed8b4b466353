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


def _interface(adapter, check, use_async):
    adapter.reset()
    request = {"id": 1, "op": "interface", "check": check, "async": use_async}
    return tp.handle(adapter, adapter.driver_id, request)["result"]


def test_a_path_the_store_declares_it_lacks_is_not_run():
    from tinymemory.adapters.langchain import VectorStoreAdapter

    declared = VectorStoreAdapter(_sync_only_store, has_async=False)
    assert _interface(declared, "interface.langchain.delete_missing", True) == {
        "not_implemented": "the store declares no async path (has_async = False, as LangChain's standard "
        "tests let a store declare)"
    }
    sync = _interface(declared, "interface.langchain.delete_missing", False)
    assert sync == {"missing_ids": sync["missing_ids"], "delete_one": {"ok": None}, "delete_many": {"ok": None}}
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
