"""tinymemory.adapters.mem0 over a double of Mem0's Memory: which call each
operation makes, the threshold it asks, and what it refuses. The adapter
over the real Memory is examples/adapters/test_mem0_*.py."""

import pytest

from tinymemory import matrix
from tinymemory import protocol as tp
from tinymemory.adapters.mem0 import Mem0Adapter


class FakeMemory:
    """Memory's add/get/get_all/search/update/delete over a dict, with every call recorded."""

    def __init__(self):
        self.calls = []
        self.rows = {}
        self.next = 0

    def add(self, text, *, user_id, metadata, infer):
        self.calls.append(("add", text, user_id, dict(metadata), infer))
        self.next += 1
        mid = f"m{self.next}"
        self.rows[mid] = {"id": mid, "memory": text, "user_id": user_id, "metadata": dict(metadata),
                          "created_at": "2026-12-06T10:00:00+00:00", "updated_at": "2026-12-06T10:00:00+00:00"}
        return {"results": [{"id": mid, "memory": text, "event": "ADD"}]}

    def update(self, memory_id, text=None, metadata=None):
        self.calls.append(("update", memory_id, text, dict(metadata)))
        row = self.rows[memory_id]
        row["memory"] = text
        row["metadata"].update(metadata)
        row["updated_at"] = "2026-12-06T11:00:00.250000+00:00"

    def get(self, memory_id):
        self.calls.append(("get", memory_id))
        return self.rows.get(memory_id)

    def get_all(self, *, filters, top_k):
        self.calls.append(("get_all", dict(filters), top_k))
        return {"results": [r for r in self.rows.values() if r["user_id"] == filters["user_id"]][:top_k]}

    def search(self, query, *, top_k, filters, threshold):
        self.calls.append(("search", query, top_k, dict(filters), threshold))
        hits = [dict(r, score=0.5) for r in self.rows.values() if r["user_id"] == filters["user_id"]]
        return {"results": hits[:top_k]}

    def delete(self, memory_id):
        self.calls.append(("delete", memory_id))
        del self.rows[memory_id]


def adapter():
    fake = FakeMemory()
    return Mem0Adapter(lambda embeddings: fake, package="mem0ai", version="2.2.1"), fake


def test_store_adds_a_new_key_with_infer_false_and_updates_a_key_it_wrote():
    store, fake = adapter()
    store.store("learning:a", "k1", "first", "note", None, "none")
    store.store("learning:a", "k1", "second", "note", "s1", "none")
    fields = {"key": "k1", "category": "note", "session_id": None, "taint": "none", "timestamp": None}
    assert fake.calls == [
        ("add", "first", "learning:a", fields, False),
        ("update", "m1", "second", dict(fields, session_id="s1")),
    ]
    got = store.get("learning:a", "k1")
    assert (got["content"], got["session_id"], got["timestamp"]) == ("second", "s1", "2026-12-06T11:00:00.250000Z")


def test_an_imported_timestamp_is_kept_byte_for_byte():
    store, fake = adapter()
    record = tp.record("learning:a", "k", "text", "note", None, "none", "2019-05-06T07:08:09.5Z")
    assert store.import_records([record]) == {"imported": 1, "failures": []}
    assert store.get("learning:a", "k")["timestamp"] == "2019-05-06T07:08:09.5Z"


@pytest.mark.parametrize("min_score, threshold", [(None, 0.0), (-1.0, 0.0), (0.0, 0.0), (0.25, 0.25), (1.0, 1.0)])
def test_recall_asks_the_nearest_threshold_mem0_takes(min_score, threshold):
    store, fake = adapter()
    store.store("learning:a", "k", "comet", "note", None, "none")
    store.recall("comet", 3, "learning:a", "note", None, min_score)
    assert fake.calls[-1] == ("search", "comet", 4, {"user_id": "learning:a", "category": "note"}, threshold)


def test_a_min_score_above_one_is_a_mapping_limit_and_mem0_is_not_asked():
    store, fake = adapter()
    with pytest.raises(tp.DriverError) as e:
        store.recall("comet", 3, "learning:a", None, None, 1.5)
    assert e.value.kind == "backend"
    assert str(e.value).startswith("mapping limit (docs/adapters.md): min_score 1.5 is above 1")
    assert not [c for c in fake.calls if c[0] == "search"]


def test_a_blank_query_asks_nothing_and_list_asks_one_more_than_the_keys_written():
    store, fake = adapter()
    store.store("learning:a", "k1", "one", "note", None, "none")
    store.store("learning:a", "k2", "two", "note", None, "none")
    assert store.recall(" \t", 3, "learning:a", None, None, None) == []
    assert [e["key"] for e in store.list("learning:a", None, None)] == ["k1", "k2"]
    assert fake.calls[-1] == ("get_all", {"user_id": "learning:a"}, 3)
    assert store.forget("learning:a", "k1") is True
    assert store.forget("learning:a", "k1") is False
    assert ("delete", "m1") in fake.calls


def test_the_driver_id_is_the_form_the_matrix_reads():
    store, _ = adapter()
    assert store.driver_id == "mem0ai==2.2.1 FakeMemory over ? via tinymemory.adapters.mem0"
    row = matrix.row_of({
        "run": {"driver_id": "mem0ai==2.2.1 Memory over qdrant (qdrant-client 1.20.0) via tinymemory.adapters.mem0"},
        "conformance": {"level": "partial", "families": []},
        "checks": [],
    })
    assert (row["engine"], row["package"], row["version"], row["adapter"]) == (
        "Memory over qdrant (qdrant-client 1.20.0)", "mem0ai", "2.2.1", "mem0",
    )


@pytest.mark.parametrize(
    ("provider", "config", "dims_set"),
    [
        ("qdrant", {"collection_name": "tm", "path": "/nonexistent/qdrant", "on_disk": True}, True),
        ("faiss", {"collection_name": "tm", "path": "/nonexistent/faiss"}, True),
        ("chroma", {"collection_name": "tm-chroma", "path": "/nonexistent/chroma"}, False),
    ],
)
def test_the_embedding_size_is_given_only_to_a_backend_whose_config_takes_it(provider, config, dims_set):
    # Mem0's ChromaDbConfig forbids extra fields: a config carrying
    # embedding_model_dims was refused before any check ran.
    pytest.importorskip("mem0")
    from mem0.configs.base import MemoryConfig

    from tinymemory.adapters.embeddings import HashedEmbedding
    from tinymemory.adapters.mem0 import memory_config

    embeddings = HashedEmbedding()
    before = dict(config)
    built = memory_config({"provider": provider, "config": config}, embeddings)
    assert built["vector_store"]["config"].get("embedding_model_dims") == (embeddings.dims if dims_set else None)
    assert config == before
    MemoryConfig(vector_store=built["vector_store"])


def test_a_forget_whose_delete_raises_leaves_the_memory_readable():
    # The key left the adapter's catalog before Mem0's delete ran: when
    # the delete raised, get answered "absent" while Mem0 still held it.
    store, fake = adapter()
    store.store("learning:a", "k1", "first", "note", None, "none")

    def refuse(memory_id):
        raise RuntimeError("connection reset")

    fake.delete = refuse
    with pytest.raises(RuntimeError, match="connection reset"):
        store.forget("learning:a", "k1")
    assert store.get("learning:a", "k1")["content"] == "first"


# Keys the contract refuses, with the rule each refusal names (contract
# sentence 12, key.invalid_refused): 513 two-byte characters are 1,026 UTF-8
# bytes, over the limit though fewer than 1,024 characters.
REFUSED_KEYS = [("", "key.empty"), ("k" * 1025, "key.too_long"), ("\u00e9" * 513, "key.too_long")]


@pytest.mark.parametrize("key, rule", REFUSED_KEYS, ids=["empty", "1025 bytes", "513 two-byte"])
def test_a_get_or_forget_of_a_key_the_contract_refuses_is_invalid_and_mem0_is_not_asked(key, rule):
    store, fake = adapter()
    store.store("learning:a", "k1", "one", "note", None, "none")
    asked = len(fake.calls)
    for method in (store.get, store.forget):
        with pytest.raises(tp.DriverError) as e:
            method("learning:a", key)
        assert (e.value.kind, e.value.rule) == ("invalid", rule)
    assert fake.calls[asked:] == []
    assert store.get("learning:a", "k1")["content"] == "one"
