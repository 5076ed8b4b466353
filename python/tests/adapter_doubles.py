"""LangGraph stores wrapped to break one rule each, for test_adapters.py:
the check named for that rule must fail through the adapter."""

from langgraph.store.base import SearchOp
from langgraph.store.memory import InMemoryStore

from tinymemory.adapters.embeddings import HashedEmbedding
from tinymemory.adapters.langgraph import LangGraphStore


def _index():
    return {"dims": 256, "embed": HashedEmbedding()}


class FilterAfterLimitStore(InMemoryStore):
    """Searches every namespace for the best `limit` hits, then keeps those
    of the namespace asked: the namespace filter applied after the limit."""

    def batch(self, ops):
        ops = list(ops)
        wide = [
            op._replace(namespace_prefix=()) if isinstance(op, SearchOp) and op.query else op for op in ops
        ]
        results = super().batch(wide)
        for i, op in enumerate(ops):
            if isinstance(op, SearchOp) and op.query:
                n = len(op.namespace_prefix)
                results[i] = [item for item in results[i] if item.namespace[:n] == op.namespace_prefix]
        return results


class InsertionOrderTiesStore(InMemoryStore):
    """Breaks ties in insertion order by folding it into the score: each
    item's score is lowered by a hair per item stored before it, so equal
    similarities come back first-stored first, whatever their keys."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._order = {}

    def batch(self, ops):
        ops = list(ops)
        for op in ops:
            if not isinstance(op, SearchOp) and hasattr(op, "value") and op.value is not None:
                self._order.setdefault((op.namespace, op.key), len(self._order))
        results = super().batch(ops)
        for i, op in enumerate(ops):
            if isinstance(op, SearchOp) and op.query:
                for item in results[i]:
                    item.score = item.score - 1e-9 * self._order.get((item.namespace, item.key), 0)
                results[i].sort(key=lambda item: -item.score)
        return results


def filter_after_limit():
    return LangGraphStore(lambda: FilterAfterLimitStore(index=_index()))


def insertion_order_ties():
    return LangGraphStore(lambda: InsertionOrderTiesStore(index=_index()))


def faithful():
    return LangGraphStore(lambda: InMemoryStore(index=_index()))


def without_index():
    return LangGraphStore(InMemoryStore)
