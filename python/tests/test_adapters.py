"""tinymemory.adapters: the namespace encoding, the hashed embedding, the tie
order, and stores wrapped to break one rule failing the check named for it
through the adapter (the conformance binary over `adapter_doubles`)."""

import json
import math
import os
import subprocess
import sys

import pytest

import tinymemory.protocol as tp
from tinymemory.adapters import _common as c
from tinymemory.adapters.embeddings import BIAS, HashedEmbedding

HERE = os.path.dirname(os.path.abspath(__file__))
# CI installs the frameworks (examples/adapters/requirements.txt); a
# checkout without them skips the framework tests, CI never does.
if not os.environ.get("CI"):
    pytest.importorskip("langgraph.store.memory")
from tinymemory.adapters.langgraph import namespace_label, namespace_of  # noqa: E402


@pytest.mark.parametrize(
    "namespace, label",
    [
        ("global", "global"),
        ("learning:a.b", "learning:a%2Eb"),
        ("a.b.c", "a%2Eb%2Ec"),
        ("langgraph", "%6Canggraph"),
        ("langgraph:x", "langgraph:x"),
        ("learning:langgraph", "learning:langgraph"),
        (".x", "%2Ex"),
        ("x/..y", "x/%2E%2Ey"),
    ],
)
def test_a_namespace_is_one_label_without_dots_or_the_reserved_root(namespace, label):
    assert namespace_label(namespace) == label
    assert "." not in label and label != "langgraph"
    assert namespace_of(label) == namespace


def test_a_label_the_adapter_never_writes_is_refused():
    with pytest.raises(tp.DriverError) as e:
        namespace_of("%6Cang%2Egraph%41")
    assert e.value.kind == "backend"
    assert str(e.value) == "the store returned namespace label '%6Cang%2Egraph%41', which the adapter never writes"


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
