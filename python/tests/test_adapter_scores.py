"""A recall hit whose score is not a finite number is the store's fault,
through each Python adapter: never an unscored hit (None was), a number
made of a string (float("0.5") was) or a hit min_score drops unseen (NaN
was). The LangGraph adapter alone keeps an absent score: a BaseStore's
SearchItem.score is optional."""

import os

import pytest

from tinymemory import protocol as tp
from tinymemory.adapters.embeddings import HashedEmbedding

if not os.environ.get("CI"):
    pytest.importorskip("langgraph.store.memory")
    pytest.importorskip("langchain_core.vectorstores")

# What a store answers as the score, and how the message shows it.
NOT_FINITE = [(None, "None"), ("0.5", "'0.5'"), (float("nan"), "nan"), (float("-inf"), "-inf"), (True, "True")]


def _refused(recall, message):
    for min_score in (None, 0.5):
        with pytest.raises(tp.DriverError) as e:
            recall(min_score)
        assert (e.value.kind, str(e.value)) == ("backend", message)


@pytest.mark.parametrize("answered,shown", NOT_FINITE)
def test_the_langchain_adapter_refuses_a_score_that_is_not_a_finite_number(answered, shown):
    from langchain_core.vectorstores import InMemoryVectorStore

    from tinymemory.adapters.langchain import VectorStoreAdapter, document_id

    class Answers(InMemoryVectorStore):
        def similarity_search_with_score(self, query, k=4, **kwargs):
            return [(doc, answered) for doc, _ in super().similarity_search_with_score(query, k, **kwargs)]

    store = VectorStoreAdapter(Answers, score="similarity")
    store.store("global", "a", "comet", "core", None, "internal")
    _refused(
        lambda m: store.recall("comet", 5, None, None, None, m),
        f"the store's similarity_search_with_score answered document {document_id('global', 'a')!r} with score "
        f"{shown}, not a finite number (a VectorStore answers (Document, float) pairs)",
    )
    assert store.get("global", "a")["content"] == "comet"


@pytest.mark.parametrize("answered,shown", NOT_FINITE[1:])
def test_the_langgraph_adapter_refuses_a_score_there_but_not_a_finite_number(answered, shown):
    from langgraph.store.memory import InMemoryStore

    from tinymemory.adapters.langgraph import LangGraphStore

    class Answers(InMemoryStore):
        def batch(self, ops):
            results = super().batch(ops)
            for items in results:
                for item in items if isinstance(items, list) else ():
                    if getattr(item, "score", None) is not None:
                        item.score = answered
            return results

    store = LangGraphStore(lambda: Answers(index={"dims": 256, "embed": HashedEmbedding()}))
    store.store("global", "a", "comet", "core", None, "internal")
    _refused(
        lambda m: store.recall("comet", 5, None, None, None, m),
        f"the store's search answered item 'a' of namespace ('global',) with score {shown}, not a finite number "
        "(a BaseStore's SearchItem.score is a float, or None without an index)",
    )


def test_the_langgraph_adapter_keeps_an_absent_score_as_an_unscored_hit():
    from langgraph.store.memory import InMemoryStore

    from tinymemory.adapters.langgraph import LangGraphStore

    class Unscored(InMemoryStore):
        def batch(self, ops):
            results = super().batch(ops)
            for items in results:
                for item in items if isinstance(items, list) else ():
                    item.score = None
            return results

    store = LangGraphStore(lambda: Unscored(index={"dims": 256, "embed": HashedEmbedding()}))
    store.store("global", "a", "comet", "core", None, "internal")
    assert [(h["key"], h["score"]) for h in store.recall("comet", 5, None, None, None, None)] == [("a", None)]


@pytest.mark.parametrize("answered,shown", NOT_FINITE)
def test_the_llamaindex_adapter_refuses_a_similarity_that_is_not_a_finite_number(answered, shown):
    pytest.importorskip("llama_index.core")
    from llama_index.core.vector_stores import SimpleVectorStore
    from llama_index.core.vector_stores.types import VectorStoreQueryResult

    from tinymemory.adapters.llamaindex import LlamaIndexAdapter, node_id

    class Answers(SimpleVectorStore):
        def query(self, query, **kwargs):
            r = super().query(query, **kwargs)
            return VectorStoreQueryResult(nodes=r.nodes, similarities=[answered for _ in r.ids or []], ids=r.ids)

    store = LlamaIndexAdapter(Answers)
    store.store("global", "a", "comet", "core", None, "internal")
    _refused(
        lambda m: store.recall("comet", 5, None, None, None, m),
        f"the store's query answered node {node_id('global', 'a')!r} with score {shown}, not a finite number "
        "(VectorStoreQueryResult.similarities holds a float a node)",
    )


@pytest.mark.parametrize("answered,shown", NOT_FINITE)
def test_the_mem0_adapter_refuses_a_score_that_is_not_a_finite_number(answered, shown):
    from test_mem0_adapter import adapter

    store, fake = adapter()
    search = fake.search
    fake.search = lambda *a, **k: {"results": [dict(r, score=answered) for r in search(*a, **k)["results"]]}
    store.store("global", "a", "comet", "core", None, "internal")
    _refused(
        lambda m: store.recall("comet", 5, None, None, None, m),
        f"Mem0's search answered memory 'm1' with score {shown}, not a finite number (its search scores every "
        "memory it answers)",
    )


def test_a_numpy_score_is_a_number():
    # FAISS answers numpy.float32 scores, which are no float subclass.
    np = pytest.importorskip("numpy")
    from langchain_core.vectorstores import InMemoryVectorStore

    from tinymemory.adapters.langchain import VectorStoreAdapter

    class Answers(InMemoryVectorStore):
        def similarity_search_with_score(self, query, k=4, **kwargs):
            return [(doc, np.float32(0.75)) for doc, _ in super().similarity_search_with_score(query, k, **kwargs)]

    store = VectorStoreAdapter(Answers, score="similarity")
    store.store("global", "a", "comet", "core", None, "internal")
    hits = store.recall("comet", 5, None, None, None, 0.5)
    assert [(h["key"], h["score"], type(h["score"])) for h in hits] == [("a", 0.75, float)]
