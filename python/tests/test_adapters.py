"""tinymemory.adapters: the namespace encoding, the hashed embedding, the tie
order, and stores wrapped to break one rule failing the check named for it
through the adapter (the conformance binary over `adapter_doubles`)."""

import json
import math
import os
import re
import subprocess
import sys

import pytest

import tinymemory.protocol as tp
from tinymemory.adapters import _common as c
from tinymemory.adapters.embeddings import BIAS, HashedEmbedding
from conftest import needing_interface

HERE = os.path.dirname(os.path.abspath(__file__))
# CI installs the frameworks (examples/adapters/requirements.txt); a
# checkout without them skips the framework tests, CI never does.
if not os.environ.get("CI"):
    pytest.importorskip("langgraph.store.memory")
from tinymemory.adapters.langgraph import namespace_label, namespace_of  # noqa: E402


# The one table of encodings both languages' adapters are held to.
with open(os.path.join(HERE, "..", "..", "fixtures", "adapter-encodings.json"), encoding="utf-8") as _f:
    ENCODINGS = json.load(_f)


@pytest.mark.parametrize("case", ENCODINGS["cases"], ids=lambda case: repr((case["namespace"], case["key"]))[:60])
def test_every_encoding_of_the_shared_table(case):
    from tinymemory.adapters.langchain import document_id

    label = namespace_label(case["namespace"])
    assert label == case["label"]
    assert namespace_of(label) == case["namespace"]
    # What one store or another refuses in a label (LangGraph: '.' and the
    # root 'langgraph'; LangGraph.js: ':', '%', '_').
    assert not set(label) & set(".:%_\\") and label != "langgraph"
    assert document_id(case["namespace"], case["key"]) == case["document_id"]


@pytest.mark.parametrize("label", ENCODINGS["labels_refused"])
def test_a_label_the_adapter_never_writes_is_refused(label):
    with pytest.raises(tp.DriverError) as e:
        namespace_of(label)
    assert e.value.kind == "backend"
    assert str(e.value) == f"the store returned namespace label {label!r}, which the adapter never writes"


def test_every_namespace_character_is_encoded_one_to_one():
    # Each character a namespace may hold, alone and between letters.
    for ch in sorted(set("-_./:@+") | set("azAZ09")):
        namespace = f"x{ch}y"
        label = namespace_label(namespace)
        assert namespace_of(label) == namespace
    assert namespace_label("a-b") != namespace_label("a_b") != namespace_label("a.b")
    assert namespace_label("learning:a-2eb") == "learning-3aa-2d2eb"
    assert namespace_of("learning-3aa-2d2eb") == "learning:a-2eb"


@pytest.mark.parametrize("text", ["", "?!", '"', " ", "\x00", "((( )))", "comet", "ते नमस्ते", "a" * 10000])
def test_no_text_embeds_to_a_zero_or_nan_vector(text):
    vector = HashedEmbedding(64).embed_query(text)
    assert len(vector) == 64
    assert all(math.isfinite(x) for x in vector)
    assert math.isclose(math.fsum(x * x for x in vector), 1.0, rel_tol=1e-12)
    assert vector[0] > 0.0


def test_the_empty_text_is_the_bias_alone_and_wordless_texts_differ():
    e = HashedEmbedding(8)
    assert e.embed_query("") == [1.0] + [0.0] * 7
    assert e.embed_query("?!") != e.embed_query('"')
    assert e.embed_query("Comet, dust!") == e.embed_query("comet dust")
    assert e(["comet", ""]) == [e.embed_query("comet"), e.embed_query("")]
    assert BIAS == 0.5


def test_the_embedding_is_the_same_in_another_process():
    code = "from tinymemory.adapters.embeddings import HashedEmbedding as H; print(repr(H(16).embed_query('comet dust')))"
    env = dict(os.environ, PYTHONHASHSEED="123", PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == repr(HashedEmbedding(16).embed_query("comet dust"))


def test_bad_dims_and_non_text_are_refused():
    with pytest.raises(ValueError, match=r"^dims is 1; expected a whole number of at least 2$"):
        HashedEmbedding(1)
    with pytest.raises(TypeError, match=r"^HashedEmbedding embeds str, got int$"):
        HashedEmbedding().embed_query(3)


def test_ties_are_ordered_by_key_and_nothing_else_moves():
    hits = [("d", 0.9), ("c", 0.5), ("a", 0.5), ("b", 0.7), ("e", 0.5)]
    ordered = c.in_contract_tie_order(hits, lambda h: h[1], lambda h: h[0])
    # ("b", 0.7) stays below the 0.5 run before it: an engine's own
    # misordering is the suite's to find, never repaired here.
    assert ordered == [("d", 0.9), ("a", 0.5), ("c", 0.5), ("b", 0.7), ("e", 0.5)]


def test_a_tie_at_the_cut_asks_for_more_only_when_the_answer_was_full():
    def s(h):
        return h

    assert c.tie_may_continue([0.9, 0.5, 0.5], 3, 2, s) is True
    assert c.tie_may_continue([0.9, 0.5, 0.4], 3, 2, s) is False
    assert c.tie_may_continue([0.9, 0.5], 3, 2, s) is False
    assert c.tie_may_continue([0.5, 0.5, 0.5], 3, 0, s) is False


def test_the_engine_limit_is_the_widest_signed_64_bit_number():
    assert c.engine_limit(2**64 - 1) == 2**63 - 1
    assert c.engine_limit(10) == 10


def test_naive_times_are_utc_and_aware_ones_keep_their_offset():
    import datetime as dt

    assert c.rfc3339(dt.datetime(2026, 1, 2, 3, 4, 5)) == "2026-01-02T03:04:05Z"
    aware = dt.datetime(2026, 1, 2, 3, 4, 5, 600000, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert c.rfc3339(aware) == "2026-01-02T03:04:05.600000+02:00"
    assert c.rfc3339("2026-01-02 03:04:05") == "2026-01-02T03:04:05Z"


def run_checks(factory, checks):
    """Outcome by check id of the binary's run of `checks` over
    adapter_doubles:`factory`."""
    from tinymemory.testing._binary import find_binary

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HERE] + [p for p in sys.path if p]))
    argv = [find_binary(), "run", "--driver", f"exec:{sys.executable} -m tinymemory.serve adapter_doubles:{factory}"]
    argv += ["--profile", "semantic", "--no-corpus", "--cases", "8", "--format", "json", "--quiet"]
    for check in checks:
        argv += ["--check", check]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    return {x["id"]: (x["outcome"], (x["message"] or "").split("\n")[0]) for x in report["checks"]}


def test_a_namespace_filter_after_the_limit_fails_recall_limit():
    faithful = run_checks("faithful", ["recall.limit"])
    assert faithful == {"recall.limit": ("pass", "")}
    broken = run_checks("filter_after_limit", ["recall.limit"])
    outcome, message = broken["recall.limit"]
    assert outcome == "fail"
    assert message.startswith('hits for "needle" in learning:limit with limit 10 and no other filter (5 entries pass): expected 5, got 0; filters (the namespace too) must apply before the limit')


def test_ties_in_insertion_order_fail_cap_determinism():
    faithful = run_checks("faithful", ["properties.cap_determinism"])
    assert faithful == {"properties.cap_determinism": ("pass", "")}
    broken = run_checks("insertion_order_ties", ["properties.cap_determinism"])
    outcome, message = broken["properties.cap_determinism"]
    assert outcome == "fail"
    assert "on the same data stored in reverse order" in message


def test_inmemorystore_s_batch_fault_fails_the_batch_property_only():
    # InMemoryStore.batch raises on two puts of one text
    # (examples/adapters/repro_langgraph_inmemory_duplicate_texts.py). A
    # property case writes its data by store_many (a repeated key starting
    # a new batch), and by one store each when a batch is refused, so the
    # fault is the batch property's alone; export_round_trip's import is a
    # batch of the store's too.
    got = run_checks("faithful", ["properties.*"])
    outcomes = {check: outcome for check, (outcome, _) in got.items()}
    assert outcomes == {
        "properties.across_ordering": "pass",
        "properties.cap_determinism": "pass",
        "properties.custom_spelling": "pass",
        "properties.namespace_round_trip": "pass",
        "properties.pinning_cost": "pass",
        "properties.truncation": "pass",
        "properties.concurrent_equals_sequential": "pass",
        "properties.export_partition": "pass",
        "properties.export_round_trip": "fail",
        "properties.store_many_matches_store": "fail",
    }
    assert got["properties.export_round_trip"][1].startswith(
        "import of page 1 failed: backend failure: ValueError: Number of embeddings (1) does not match number of indices (2)"
    )
    assert got["properties.store_many_matches_store"][1].startswith(
        "store_many of the case's 2 entries failed: backend failure: ValueError: Number of embeddings (1) does not match "
        "number of indices (2)"
    )


def test_a_store_without_an_index_names_the_mapping_limit():
    outcome, message = run_checks("without_index", ["recall.limit"])["recall.limit"]
    assert outcome == "fail"
    assert message == (
        "unexpected driver error: backend failure: mapping limit (docs/adapters.md): this InMemoryStore has no "
        "index (IndexConfig), so its search ignores the query and ranks nothing: give the factory's store an "
        "index to run the recall checks"
    )


@pytest.mark.parametrize("declared", [False, True])
def test_an_adapter_declares_independent_stores_only_when_told(declared):
    from langchain_core.vectorstores import InMemoryVectorStore
    from langgraph.store.memory import InMemoryStore

    from tinymemory.adapters.langchain import VectorStoreAdapter
    from tinymemory.adapters.langgraph import LangGraphStore

    graph = LangGraphStore(lambda: InMemoryStore(index={"dims": 256, "embed": HashedEmbedding()}), independent_stores=declared)
    chain = VectorStoreAdapter(InMemoryVectorStore, independent_stores=declared)
    for adapter in (graph, chain):
        hello = tp.handle(adapter, adapter.driver_id, {"id": 1, "op": "hello", "protocol": tp.PROTOCOL_VERSION})
        assert hello["id"] == 1
        assert hello["result"].get("independent_stores", False) is declared


def test_the_vector_store_adapter_declares_its_interface_and_answers_the_op():
    from langchain_core.vectorstores import InMemoryVectorStore

    from tinymemory.adapters.langchain import VectorStoreAdapter

    chain = VectorStoreAdapter(InMemoryVectorStore)
    hello = tp.handle(chain, chain.driver_id, {"id": 1, "op": "hello", "protocol": tp.PROTOCOL_VERSION})
    assert hello["result"]["interface"] == "langchain.vectorstore"
    missing = ["3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a11", "3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a12"]
    given = [{"id": None, "page_content": "meadow", "metadata": {"id": 1}}]
    ids = ["3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a01"]
    inputs = {"missing_ids": missing, "given": given, "given_ids": ids,
              "queries": {"before": "meadow", "after": "meadow"}}
    for use_async in (False, True):
        chain.reset()
        answer = tp.handle(
            chain, chain.driver_id,
            {"id": 2, "op": "interface", "check": "interface.langchain.delete_missing", "async": use_async,
             "inputs": inputs},
        )
        assert answer == {
            "id": 2,
            "result": {**inputs, "delete_one": {"ok": None}, "delete_many": {"ok": None}, "ids": {"ok": ids},
                       "before": {"ok": [dict(given[0], id=ids[0])]}, "delete_mixed": {"ok": None},
                       "after": {"ok": []}},
        }
    unknown = tp.handle(
        chain, chain.driver_id, {"id": 3, "op": "interface", "check": "interface.nope", "async": False, "inputs": {}}
    )
    assert unknown["error"]["kind"] == "backend"
    assert unknown["error"]["message"].startswith("no scenario for check 'interface.nope' of langchain.vectorstore")
    # A store without an interface neither declares one nor answers the op.
    plain = object()
    hello = tp.handle(plain, "plain", {"id": 1, "op": "hello", "protocol": tp.PROTOCOL_VERSION})
    assert "interface" not in hello["result"]
    answer = tp.handle(plain, "plain", {"id": 4, "op": "interface", "check": "x", "async": False})
    assert answer["error"] == {"kind": "backend", "message": "unknown op 'interface'"}


def test_use_async_serves_the_vector_store_through_its_async_methods():
    from langchain_core.vectorstores import InMemoryVectorStore

    from tinymemory.adapters.langchain import VectorStoreAdapter

    class AsyncSearchFails(InMemoryVectorStore):
        async def asimilarity_search_with_score(self, *args, **kwargs):
            raise RuntimeError("the async search")

    sync = VectorStoreAdapter(AsyncSearchFails, score="similarity")
    asynchronous = VectorStoreAdapter(AsyncSearchFails, score="similarity", use_async=True)
    assert asynchronous.driver_id.endswith("via tinymemory.adapters.langchain (async)")
    for adapter in (sync, asynchronous):
        adapter.store("learning:a", "k", "comet", "core", None, "internal")
        assert adapter.get("learning:a", "k")["content"] == "comet"
    assert [h["key"] for h in sync.recall("comet", 1, "learning:a", None, None, None)] == ["k"]
    with pytest.raises(RuntimeError, match="the async search"):
        asynchronous.recall("comet", 1, "learning:a", None, None, None)


def test_the_langgraph_adapter_declares_its_interface_and_skips_a_path_the_store_lacks():
    import sqlite3

    from langgraph.store.memory import InMemoryStore
    from langgraph.store.sqlite import SqliteStore

    from tinymemory.adapters.langgraph import LangGraphStore

    graph = LangGraphStore(InMemoryStore)
    hello = tp.handle(graph, graph.driver_id, {"id": 1, "op": "hello", "protocol": tp.PROTOCOL_VERSION})
    assert hello["result"]["interface"] == "langgraph.basestore"
    inputs = {"namespace": ["meadow"], "key": "lantern", "value": {"v": 41}}
    request = {"id": 2, "op": "interface", "check": "interface.langgraph.put_none_deletes", "async": True,
               "inputs": inputs}
    result = tp.handle(graph, graph.driver_id, request)["result"]
    before = result.pop("before")["ok"]
    assert {k: before[k] for k in ("namespace", "key", "value")} == inputs
    assert result == {
        **inputs, "put": {"ok": None}, "delete": {"ok": None}, "get": {"ok": None}, "search": {"ok": []},
    }

    def sqlite_store():
        store = SqliteStore(sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None))
        store.setup()
        return store

    sync_only = LangGraphStore(sqlite_store)
    answer = tp.handle(sync_only, sync_only.driver_id, request)["result"]
    assert list(answer) == ["not_implemented"]
    assert answer["not_implemented"].startswith("NotImplementedError: The SqliteStore does not support async methods")


def test_the_sync_path_of_an_async_batched_store_runs_beside_its_event_loop():
    # AsyncPostgresStore (an AsyncBatchedBaseStore) made on the adapter's
    # loop: its batch hands abatch to that loop and waits for it, as a
    # sync node does from LangGraph's worker threads. Called on the loop's
    # own thread while the loop is stopped, it waited forever, and the
    # interface family's sync path reported the driver as hung.
    import threading

    from langgraph.store.base.batch import AsyncBatchedBaseStore
    from langgraph.store.memory import InMemoryStore

    from tinymemory.adapters.langgraph import LangGraphStore

    class AsyncOnly(AsyncBatchedBaseStore):
        def __init__(self):
            super().__init__()
            self.inner = InMemoryStore()

        async def abatch(self, ops):
            return self.inner.batch(ops)

    async def make():
        return AsyncOnly()

    graph = LangGraphStore(make, use_async=True)
    inputs = {"namespace": ["meadow"], "key": "lantern", "value": {"v": 41}}
    request = {"id": 2, "op": "interface", "check": "interface.langgraph.put_none_deletes", "async": False,
               "inputs": inputs}
    answers = []
    # A guard against the hang, not a measure of speed: the daemon thread
    # is left behind when the call never returns.
    caller = threading.Thread(target=lambda: answers.append(tp.handle(graph, graph.driver_id, request)), daemon=True)
    caller.start()
    caller.join(60)
    assert answers, "the sync path of an AsyncBatchedBaseStore never returned"
    result = dict(answers[0]["result"])
    # The item read back between the put and the delete (its timestamps are
    # the store's clock).
    before = dict(result.pop("before")["ok"])
    assert sorted(before) == ["created_at", "key", "namespace", "updated_at", "value"]
    assert {k: before[k] for k in ("key", "namespace", "value")} == {
        "key": "lantern", "namespace": ["meadow"], "value": {"v": 41},
    }
    assert result == {
        **inputs, "put": {"ok": None}, "delete": {"ok": None}, "get": {"ok": None}, "search": {"ok": []},
    }


def test_the_conformance_classes_pass_independent_stores_to_their_adapters():
    from tinymemory.testing import LangGraphStoreConformance, VectorStoreConformance

    class Graph(LangGraphStoreConformance):
        independent_stores = True

        def make_store(self):
            from langgraph.store.memory import InMemoryStore

            return InMemoryStore(index={"dims": 256, "embed": HashedEmbedding()})

    class Chain(VectorStoreConformance):
        def make_store(self, embeddings):
            from langchain_core.vectorstores import InMemoryVectorStore

            return InMemoryVectorStore(embeddings)

    assert Graph.tinymemory_store().independent_stores is True
    assert Chain.tinymemory_store().independent_stores is False

    class AsyncChain(Chain):
        use_async = True

    assert AsyncChain.tinymemory_store().driver_id.endswith("via tinymemory.adapters.langchain (async)")
    assert Chain.tinymemory_store().driver_id.endswith("via tinymemory.adapters.langchain")


def test_a_vector_store_that_strips_nul_fails_the_round_trips_through_the_adapter():
    # The content of get, list and recall is the store's, never the
    # adapter's memory of what it wrote.
    outcomes = run_checks("nul_stripping", ["store.big_content_round_trip", "store.hostile_text_round_trip"])
    assert outcomes == {
        "store.big_content_round_trip": (
            "fail",
            "a 1048606 byte content did not come back byte for byte from get (got 1014780 bytes)",
        ),
        "store.hostile_text_round_trip": (
            "fail",
            'get of the entry keyed by the nul inside text: expected Some(("before\\0after", "nul inside")), '
            'got Some(("beforeafter", "nul inside"))',
        ),
    }


STRING_IDS_RULE = (
    "LangChain's standard tests give ids that are plain strings (`add_documents(documents, ids=[\"1\", "
    "\"2\"])`, then `assert ids == [\"1\", \"2\"]`, test_deleting_documents), as VectorStore.add_documents "
    "types them (`ids: list[str]`)"
)


def test_a_vector_store_refusing_ids_that_are_not_uuids_fails_string_ids_only():
    # The other scenarios give UUIDs, which such a store takes (Qdrant's
    # fault, docs/adapters.md, "Side by side with the standard tests").
    langchain = [c for c in needing_interface("semantic") if c.startswith("interface.langchain.")]
    assert "interface.langchain.string_ids" in langchain
    broken = run_checks("uuid_ids_only", langchain)
    # The ids are the suite's, drawn from the seed: two numbers from 1 to 99.
    outcome, message = broken.pop("interface.langchain.string_ids")
    ids = re.match(r'through the sync methods \(add_documents, similarity_search, get_by_ids, delete\): '
                   r'add_documents\(documents, ids=\["(\d+)","(\d+)"\]\)', message)
    assert outcome == "fail" and ids, message
    add = (f'add_documents(documents, ids=["{ids[1]}","{ids[2]}"]) raised ValueError: Point id {ids[1]} is not a '
           "valid UUID")
    assert message == (
        f"through the sync methods (add_documents, similarity_search, get_by_ids, delete): {add}; {STRING_IDS_RULE}; "
        f"through the async methods (aadd_documents, asimilarity_search, aget_by_ids, adelete): {add}; "
        f"{STRING_IDS_RULE}"
    )
    assert broken == {check: ("pass", "") for check in langchain if check != "interface.langchain.string_ids"}


def test_in_memory_vector_store_keeps_plain_string_ids():
    assert run_checks("in_memory", ["interface.langchain.string_ids"]) == {
        "interface.langchain.string_ids": ("pass", "")
    }


# Keys the contract refuses, with the rule each refusal names (contract
# sentence 12, key.invalid_refused).
REFUSED_KEYS = [("", "key.empty"), ("k" * 1025, "key.too_long"), ("\u00e9" * 513, "key.too_long")]


@pytest.mark.parametrize("framework", ["langgraph", "langchain"])
def test_a_get_or_forget_of_a_key_the_contract_refuses_is_invalid_naming_the_rule(framework):
    if framework == "langgraph":
        from langgraph.store.memory import InMemoryStore

        from tinymemory.adapters.langgraph import LangGraphStore

        store = LangGraphStore(InMemoryStore)
    else:
        from langchain_core.vectorstores import InMemoryVectorStore

        from tinymemory.adapters.langchain import VectorStoreAdapter

        store = VectorStoreAdapter(InMemoryVectorStore)
    store.store("global", "kept", "stored before", "core", None, "internal")
    for key, rule in REFUSED_KEYS:
        for method in (store.get, store.forget):
            with pytest.raises(tp.DriverError) as e:
                method("global", key)
            assert (e.value.kind, e.value.rule) == ("invalid", rule), (method.__name__, len(key))
    assert store.get("global", "kept")["content"] == "stored before"


READS = ["store.upsert", "forget.idempotent", "list.filters", "namespaces.exact_counts", "recall.limit"]


@pytest.mark.parametrize("factory", ["plain_without_get_by_ids", "plain_with_get_by_ids", "own_ids"])
def test_vector_stores_with_less_of_the_interface_are_served(factory):
    # No get_by_ids: read through a search filtered on the key; a store
    # that makes its own ids: those are used, the replaced document
    # deleted; an unknown class: LangChain's dict filter form.
    checks = READS + ["store.hostile_text_round_trip", "store.upsert_replaces_metadata"]
    assert run_checks(factory, checks) == {check: ("pass", "") for check in checks}


FILTER_IGNORED = (
    "unexpected driver error: backend failure: mapping limit (docs/adapters.md): {cls} answered "
    "recall('needle') with 11 of 11 documents outside the filter {{'namespace': {{'$eq': 'learning:limit'}}}} "
    "the adapter built for {{'namespace': 'learning:limit'}} (the first: key 'e6' of namespace "
    "'learning:limit-elsewhere'): the store ignored that filter or reads another form; give the adapter "
    "make_filter, a function from those fields to the store's own filter (docs/adapters.md, Filters){more}"
)


def test_a_filter_the_store_ignores_is_a_mapping_limit_naming_make_filter():
    assert run_checks("filterless", ["recall.limit"]) == {
        "recall.limit": ("fail", FILTER_IGNORED.format(cls="FilterlessStore", more=""))
    }


def test_a_guessed_filter_form_the_store_reads_as_matching_nothing_is_a_mapping_limit():
    # A store of no dialect the adapter knows gets LangChain's dict form;
    # one reading {field: value} answers nothing under it. That empty
    # answer is the adapter's guess, not the store's loss: the same search
    # without the filter shows documents the filter allows.
    message = (
        "unexpected driver error: backend failure: mapping limit (docs/adapters.md): EqualityFilterStore "
        "answered recall('needle') with no document under the filter {'namespace': {'$eq': 'global'}} "
        "the adapter built for {'namespace': 'global'} in LangChain's dict form (the adapter knows no "
        "dialect of this store), where the same search without a filter answered 4 documents that filter "
        "allows (the first: key 'k4' of namespace 'global'): the store reads another filter form, or "
        "its filtered search loses documents the filter allows; give the adapter make_filter, a function from "
        "those fields to the store's own filter (docs/adapters.md, Filters)"
    )
    assert run_checks("equality_filter", ["recall.limit"]) == {"recall.limit": ("fail", message)}


def test_a_store_with_neither_get_by_ids_nor_a_filter_is_named_once():
    more = (
        "; this store has no get_by_ids either, so get and list read through this filter: a store that "
        "filters by neither id nor metadata cannot be served"
    )
    assert run_checks("filterless_without_get_by_ids", ["recall.limit"]) == {
        "recall.limit": ("fail", FILTER_IGNORED.format(cls="FilterlessStoreWithoutIds", more=more))
    }


def test_a_listed_entry_the_store_lost_says_the_list_rests_on_the_catalog():
    from langchain_core.vectorstores import InMemoryVectorStore

    from tinymemory.adapters.langchain import VectorStoreAdapter, document_id

    adapter = VectorStoreAdapter(InMemoryVectorStore)
    adapter.store("learning:a", "k1", "comet", "core", None, "internal")
    adapter.store("learning:a", "k2", "dust", "core", None, "internal")
    # Gone behind the adapter's back, as a store that loses a write would.
    adapter._engine.delete([document_id("learning:a", "k1")])
    assert adapter.get("learning:a", "k1") is None
    with pytest.raises(tp.DriverError) as e:
        adapter.list(None, None, None)
    assert e.value.kind == "backend"
    assert str(e.value) == (
        "the store no longer holds key 'k1' of 'learning:a' (1 of the 2 entries asked), which add_documents "
        "accepted and no forget removed: VectorStore cannot enumerate, so list and namespaces ask the store "
        "for the ids the adapter wrote (its catalog), and this one is not there"
    )


def test_a_lost_entry_among_documents_without_ids_is_named_by_its_key():
    # get_by_ids answering id=None (Qdrant's form): the adapter matches the
    # documents by its own metadata keys, so the key it names is the one
    # missing, not the last one asked.
    from adapter_doubles import IdlessGetStore

    from tinymemory.adapters.langchain import VectorStoreAdapter, document_id

    adapter = VectorStoreAdapter(IdlessGetStore, score="similarity")
    for key in ("k1", "k2", "k3"):
        adapter.store("learning:a", key, f"text {key}", "core", None, "internal")
    adapter._engine.delete([document_id("learning:a", "k1")])
    with pytest.raises(tp.DriverError) as e:
        adapter.list(None, None, None)
    assert str(e.value).startswith("the store no longer holds key 'k1' of 'learning:a' (1 of the 3 entries asked)")


def test_an_entry_a_filtered_search_misses_is_a_mapping_limit_not_a_miss():
    # Without get_by_ids, get is a search filtered on the key: a store that
    # filters after its nearest k misses an entry it holds. That is not
    # "absent" (which the checks would read as a lost write), but what was
    # observed, resting on the adapter's catalog.
    from adapter_doubles import FilterAfterTopKStore

    from tinymemory.adapters.langchain import VectorStoreAdapter

    adapter = VectorStoreAdapter(FilterAfterTopKStore, score="similarity")
    for i in range(5):
        adapter.store("learning:b", f"b{i}", "k7", "core", None, "internal")
    adapter.store("learning:a", "k7", "comet", "core", None, "internal")
    expected = (
        "mapping limit (docs/adapters.md): the store's search filtered on namespace 'learning:a' and key 'k7' "
        "did not return the entry, which the adapter wrote and did not forget (a store without get_by_ids is "
        "read through a search filtered on the key): either the store lost it or it applies its filter after "
        "its nearest k (recall.limit shows which)"
    )
    for call in (lambda: adapter.get("learning:a", "k7"), lambda: adapter.list("learning:a", None, None)):
        with pytest.raises(tp.DriverError) as e:
            call()
        assert (e.value.kind, str(e.value)) == ("backend", expected)
    # A key the adapter never wrote is a plain miss.
    assert adapter.get("learning:a", "never") is None


def test_a_store_over_an_imported_key_writes_a_whole_value():
    # A store that merges a put into the value it holds (as some
    # BaseStores do) must not keep the imported timestamp past a store.
    from langgraph.store.base import PutOp
    from langgraph.store.memory import InMemoryStore

    from tinymemory.adapters.langgraph import LangGraphStore

    class MergingStore(InMemoryStore):
        def batch(self, ops):
            merged = []
            for op in ops:
                if isinstance(op, PutOp) and op.value is not None:
                    old = self.get(op.namespace, op.key)
                    if old is not None:
                        op = op._replace(value={**old.value, **op.value})
                merged.append(op)
            return super().batch(merged)

    adapter = LangGraphStore(lambda: MergingStore(index={"dims": 64, "embed": HashedEmbedding(64)}))
    record = tp.record("global", "k", "old", "core", None, "internal", "2001-01-01T00:00:00Z")
    assert adapter.import_records([record]) == {"imported": 1, "failures": []}
    assert adapter.get("global", "k")["timestamp"] == "2001-01-01T00:00:00Z"
    adapter.store("global", "k", "new", "core", None, "internal")
    entry = adapter.get("global", "k")
    assert entry["content"] == "new"
    assert entry["timestamp"] == c.rfc3339(adapter._engine.get(("global",), "k").updated_at)
    assert not entry["timestamp"].startswith("2001")


def test_a_store_whose_search_takes_no_filter_and_has_no_get_by_ids_cannot_be_served():
    message = (
        "unexpected driver error: backend failure: mapping limit (docs/adapters.md): NoFilterStore cannot be "
        "served: it has no get_by_ids and its similarity_search takes no filter, so the adapter can read an entry "
        "neither by its id nor by a search on its key, nor pin a recall to a namespace; give the adapter "
        "make_filter if it takes a filter through **kwargs (docs/adapters.md)"
    )
    assert run_checks("no_filter", ["store.upsert", "recall.limit"]) == {
        "store.upsert": ("fail", message),
        "recall.limit": ("fail", message),
    }


def test_the_answers_of_a_filter_given_by_make_filter_go_to_the_checks_as_they_are():
    # The author's filter is the author's: a store that ignores it fails
    # the checks as a store, not as a mapping limit.
    sys.path.insert(0, HERE)
    from adapter_doubles import FilterlessStore

    from tinymemory.adapters.langchain import VectorStoreAdapter, dict_filter

    adapter = VectorStoreAdapter(FilterlessStore, make_filter=dict_filter, score="similarity")
    adapter.store("learning:a", "k1", "comet", "core", None, "internal")
    adapter.store("learning:b", "k2", "comet", "core", None, "internal")
    hits = adapter.recall("comet", 10, "learning:a", None, None, None)
    assert sorted((h["namespace"], h["key"]) for h in hits) == [("learning:a", "k1"), ("learning:b", "k2")]


def test_a_milvus_store_is_filtered_through_expr_with_its_string_literals():
    # langchain-milvus's Milvus has no get_by_ids and takes its filter as
    # expr; filter= reached MilvusClient.search beside its own and raised
    # TypeError, reported as the store's failure on every read.
    assert run_checks("milvus_like", ["store.upsert", "recall.limit", "store.hostile_text_round_trip"]) == {
        "store.upsert": ("pass", ""),
        "recall.limit": ("pass", ""),
        "store.hostile_text_round_trip": ("pass", ""),
    }


def test_a_filter_given_by_make_filter_reaches_milvus_as_expr_too():
    from adapter_doubles import MilvusLikeStore

    from tinymemory.adapters.langchain import VectorStoreAdapter, milvus_expr

    adapter = VectorStoreAdapter(MilvusLikeStore, make_filter=milvus_expr, score="similarity")
    adapter.store("learning:a", 'k"1', "comet", "core", None, "internal")
    adapter.store("learning:b", "k2", "comet", "core", None, "internal")
    assert adapter.get("learning:a", 'k"1')["content"] == "comet"
    hits = adapter.recall("comet", 10, "learning:a", None, None, None)
    assert [(h["namespace"], h["key"]) for h in hits] == [("learning:a", 'k"1')]


def test_a_milvus_string_literal_escapes_quote_backslash_and_line_ends_only():
    # Milvus Lite 3.2.2 refuses \x00, \u0000 and \000 ("unknown escape
    # sequence") and matches a NUL or any control character given as it is.
    from tinymemory.adapters.langchain import milvus_expr

    assert milvus_expr({"namespace": "global"}) == 'namespace == "global"'
    assert milvus_expr({"namespace": "a:b", "key": 'q"\\\n\r\t\x00\x7fé'}) == (
        'namespace == "a:b" and key == "q\\"\\\\\\n\\r\\t\x00\x7fé"'
    )


def test_the_dict_filter_form_is_one_term_or_an_and_of_terms():
    from tinymemory.adapters.langchain import dict_filter

    assert dict_filter({"namespace": "global"}) == {"namespace": {"$eq": "global"}}
    assert dict_filter({"namespace": "global", "key": "k"}) == {
        "$and": [{"namespace": {"$eq": "global"}}, {"key": {"$eq": "k"}}]
    }


def test_a_forget_whose_delete_failed_leaves_the_entry_listed():
    # The store still holds the entry when its delete raises: the catalog
    # the adapter lists from must keep it, or list and namespaces leave out
    # an entry the store holds and the next checks blame the store.
    from langchain_core.vectorstores import InMemoryVectorStore

    from tinymemory.adapters.langchain import VectorStoreAdapter

    class RefusesDelete(InMemoryVectorStore):
        def delete(self, ids=None, **kwargs):
            raise RuntimeError("delete refused")

    adapter = VectorStoreAdapter(RefusesDelete)
    adapter.store("learning:a", "k1", "comet", "core", None, "internal")
    # The store's error reaches the protocol as it is (a backend failure).
    with pytest.raises(RuntimeError, match="^delete refused$"):
        adapter.forget("learning:a", "k1")
    assert [entry["key"] for entry in adapter.list("learning:a", None, None)] == ["k1"]
    assert adapter.get("learning:a", "k1")["content"] == "comet"
    assert [s["count"] for s in adapter.namespaces()] == [1]


def test_an_import_repeating_a_key_counts_every_record_and_keeps_the_last():
    # The protocol's `imported` counts the records imported, a repeated
    # key's earlier one too (an upsert the later one replaced): with
    # `imported` the distinct keys, the binary refused the answer ("imported
    # 1 plus 0 failures is not the 2 records sent") and portability.taint_kept
    # failed on every Python adapter as the store's.
    from langchain_core.vectorstores import InMemoryVectorStore

    from tinymemory.adapters.langchain import VectorStoreAdapter

    adapter = VectorStoreAdapter(InMemoryVectorStore)
    first = {
        "namespace": "learning:a", "key": "k", "content": "first", "category": "core",
        "session_id": None, "taint": "internal", "timestamp": "2026-12-01T00:00:00Z",
    }
    later = {**first, "content": "later", "taint": "external_sync"}
    invalid = {**first, "key": ""}
    answer = adapter.import_records([first, invalid, later])
    assert answer["imported"] == 2
    assert [f["index"] for f in answer["failures"]] == [1]
    got = adapter.get("learning:a", "k")
    assert (got["content"], got["taint"]) == ("later", "external_sync")
