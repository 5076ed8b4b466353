"""The scenarios of the interface family for a LangGraph ``BaseStore``
(docs/protocol.md, "The interface op"; docs/adapters.md, "The interface
family").

Each scenario runs on a fresh store through ``batch`` (or ``abatch``, the
async path) with LangGraph's own ops (``PutOp``, ``GetOp``, ``SearchOp``,
``ListNamespacesOp``) and returns what it saw; the suite judges it against
what ``langgraph.store.base`` documents. An item is observed as
``{"namespace", "key", "value", "created_at", "updated_at"}``, the times as
seconds since the epoch; a call as ``{"ok": value}`` or ``{"error": ...}``.
A store that raises NotImplementedError on the path asked (SqliteStore's
``abatch``) answers ``{"not_implemented": "..."}``: that path is skipped.
"""

import asyncio
import time

INTERFACE = "langgraph.basestore"


def observed_item(item):
    """An Item (or None) as the observation carries it."""
    if item is None:
        return None
    return {
        "namespace": list(item.namespace),
        "key": item.key,
        "value": item.value,
        "created_at": item.created_at.timestamp(),
        "updated_at": item.updated_at.timestamp(),
    }


class NotImplemented_(Exception):
    """The store does not implement the path asked (NotImplementedError)."""


class _Batch:
    """One op through ``batch`` or ``abatch``, as ``{"ok": ...}`` or
    ``{"error": ...}``."""

    def __init__(self, store, use_async, loop):
        self.store, self.use_async, self.loop = store, use_async, loop

    def one(self, op):
        try:
            if self.use_async:
                (result,) = self.loop.run_until_complete(self.store.abatch([op]))
            else:
                (result,) = self.store.batch([op])
        except NotImplementedError as e:
            # A store of one path only (SqliteStore has no abatch): the
            # scenario is not run on the other, and says so.
            raise NotImplemented_(f"{type(e).__name__}: {e}") from None
        except Exception as e:  # noqa: BLE001 - what the store raised is the observation
            return {"error": f"{type(e).__name__}: {e}"}
        if isinstance(result, list):
            return {"ok": [observed_item(r) if hasattr(r, "key") else list(r) for r in result]}
        return {"ok": observed_item(result) if hasattr(result, "key") or result is None else result}

    def put(self, namespace, key, value):
        from langgraph.store.base import PutOp

        return self.one(PutOp(tuple(namespace), key, value, index=False))

    def get(self, namespace, key):
        from langgraph.store.base import GetOp

        return self.one(GetOp(tuple(namespace), key))

    def search(self, prefix, limit, offset):
        from langgraph.store.base import SearchOp

        return self.one(SearchOp(tuple(prefix), None, limit, offset))

    def namespaces(self, prefix=None, suffix=None, max_depth=None):
        from langgraph.store.base import ListNamespacesOp, MatchCondition

        conditions = []
        if prefix:
            conditions.append(MatchCondition("prefix", tuple(prefix)))
        if suffix:
            conditions.append(MatchCondition("suffix", tuple(suffix)))
        return self.one(ListNamespacesOp(tuple(conditions) or None, max_depth, 100, 0))


def item_timestamps(b):
    """An update keeps created_at and moves updated_at."""
    out = {"first_put": b.put(["docs"], "k", {"v": 1})}
    out["first"] = b.get(["docs"], "k")
    # Past the resolution of every clock the stores read (SQLite's
    # CURRENT_TIMESTAMP counts whole seconds).
    time.sleep(1.1)
    out["second_put"] = b.put(["docs"], "k", {"v": 2})
    out["second"] = b.get(["docs"], "k")
    return out


def put_none_deletes(b):
    """A PutOp with value None deletes the item."""
    out = {"put": b.put(["docs"], "k", {"v": 1}), "delete": b.put(["docs"], "k", None)}
    out["get"] = b.get(["docs"], "k")
    out["search"] = b.search(["docs"], 10, 0)
    return out


# The namespaces of list_namespaces' docstring example.
EXAMPLE_NAMESPACES = [["a", "b", "c"], ["a", "b", "d", "e"], ["a", "b", "d", "i"], ["a", "b", "f"], ["a", "c", "f"]]


def list_namespaces(b):
    """list_namespaces with a prefix and max_depth (the docstring's
    example), a suffix, and a max_depth alone."""
    out = {"namespaces": EXAMPLE_NAMESPACES}
    out["puts"] = [b.put(ns, "k", {"v": 1}) for ns in EXAMPLE_NAMESPACES]
    out["prefix_depth"] = b.namespaces(prefix=["a", "b"], max_depth=3)
    out["suffix"] = b.namespaces(suffix=["f"])
    out["depth"] = b.namespaces(max_depth=2)
    return out


def search_paging(b):
    """search with a namespace prefix, paged by limit and offset."""
    inside = [["docs", "a"]] * 3 + [["docs", "b"]] * 2
    out = {"inside": [[ns, f"k{i}"] for i, ns in enumerate(inside)], "outside": [["other"], "k9"]}
    out["puts"] = [b.put(ns, key, {"n": i}) for i, (ns, key) in enumerate(out["inside"])]
    out["puts"].append(b.put(*out["outside"], {"n": 9}))
    out["pages"] = [b.search(["docs"], 2, offset) for offset in (0, 2, 4)]
    out["whole"] = b.search(["docs"], 10, 0)
    return out


SCENARIOS = {
    "interface.langgraph.item_timestamps": item_timestamps,
    "interface.langgraph.put_none_deletes": put_none_deletes,
    "interface.langgraph.list_namespaces": list_namespaces,
    "interface.langgraph.search_paging": search_paging,
}


def run(store, check, use_async, loop=None):
    """The observation of `check`'s scenario on `store` (fresh and empty),
    through ``abatch`` when `use_async` (on `loop`, or a new one closed
    after). An unknown check is a "backend" DriverError naming the known
    ones."""
    from .. import protocol as tp

    scenario = SCENARIOS.get(check)
    if scenario is None:
        raise tp.DriverError("backend", f"no scenario for check {check!r} of {INTERFACE}: known are {sorted(SCENARIOS)}")
    own = use_async and loop is None
    if own:
        loop = asyncio.new_event_loop()
    try:
        return scenario(_Batch(store, use_async, loop))
    except NotImplemented_ as e:
        return {"not_implemented": str(e)}
    finally:
        if own:
            loop.close()
