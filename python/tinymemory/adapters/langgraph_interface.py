"""The scenarios of the interface family for a LangGraph ``BaseStore``
(docs/protocol.md, "The interface op"; docs/adapters.md, "The interface
family").

Each scenario runs on a fresh store through ``batch`` (or ``abatch``, the
async path) with LangGraph's own ops (``PutOp``, ``GetOp``, ``SearchOp``,
``ListNamespacesOp``) and returns what it saw; the suite judges it against
what ``langgraph.store.base`` documents. An item is observed as
``{"namespace", "key", "value", "created_at", "updated_at"}``, the times as
seconds since the epoch; a call as ``{"ok": value}`` or ``{"error": ...}``.
The suite chooses every input (namespaces, keys, values: docs/protocol.md
gives each check's); a scenario runs exactly those and echoes them.
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
                (result,) = self._batch([op])
        except NotImplementedError as e:
            # A store of one path only (SqliteStore has no abatch): the
            # scenario is not run on the other, and says so.
            raise NotImplemented_(f"{type(e).__name__}: {e}") from None
        except Exception as e:  # noqa: BLE001 - what the store raised is the observation
            return {"error": f"{type(e).__name__}: {e}"}
        if isinstance(result, list):
            return {"ok": [observed_item(r) if hasattr(r, "key") else list(r) for r in result]}
        return {"ok": observed_item(result) if hasattr(result, "key") or result is None else result}

    def _batch(self, ops):
        """``batch`` of `ops`, from a worker thread while `loop` runs for an
        ``AsyncBatchedBaseStore`` made on it (AsyncPostgresStore): its
        ``batch`` hands ``abatch`` to that loop and waits, as from
        LangGraph's threads of sync nodes, so on the loop's own thread,
        the loop stopped, it would wait forever."""
        from langgraph.store.base.batch import AsyncBatchedBaseStore

        if self.loop is None or self.loop.is_running() or not isinstance(self.store, AsyncBatchedBaseStore):
            return self.store.batch(ops)
        return self.loop.run_until_complete(asyncio.to_thread(self.store.batch, ops))

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


def item_timestamps(b, inputs):
    """An update keeps created_at and moves updated_at."""
    ns, key, (first, second) = inputs["namespace"], inputs["key"], inputs["values"]
    out = {"namespace": ns, "key": key, "values": [first, second], "first_put": b.put(ns, key, first)}
    out["first"] = b.get(ns, key)
    # Past the resolution of every clock the stores read (SQLite's
    # CURRENT_TIMESTAMP counts whole seconds).
    time.sleep(1.1)
    out["second_put"] = b.put(ns, key, second)
    out["second"] = b.get(ns, key)
    return out


def put_none_deletes(b, inputs):
    """A PutOp with value None deletes the item read back after its put."""
    ns, key = inputs["namespace"], inputs["key"]
    out = {"namespace": ns, "key": key, "value": inputs["value"]}
    out["put"] = b.put(ns, key, inputs["value"])
    out["before"] = b.get(ns, key)
    out["delete"] = b.put(ns, key, None)
    out["get"] = b.get(ns, key)
    out["search"] = b.search(ns, 10, 0)
    return out


def list_namespaces(b, inputs):
    """list_namespaces with a prefix and max_depth (the docstring's
    example, its labels the suite's words), a suffix, and a max_depth
    alone."""
    out = {"namespaces": inputs["namespaces"], "with_prefix": inputs["with_prefix"], "with_suffix": inputs["with_suffix"]}
    out["puts"] = [b.put(ns, "k", {"v": 1}) for ns in inputs["namespaces"]]
    out["prefix_depth"] = b.namespaces(prefix=inputs["with_prefix"], max_depth=3)
    out["suffix"] = b.namespaces(suffix=inputs["with_suffix"])
    out["depth"] = b.namespaces(max_depth=2)
    return out


def search_paging(b, inputs):
    """search with a namespace prefix, paged by limit and offset."""
    out = {"prefix": inputs["prefix"], "inside": inputs["inside"], "outside": inputs["outside"]}
    out["puts"] = [b.put(ns, key, {"n": i}) for i, (ns, key) in enumerate(inputs["inside"])]
    out["puts"].append(b.put(*inputs["outside"], {"n": len(inputs["inside"])}))
    out["pages"] = [b.search(inputs["prefix"], 2, offset) for offset in (0, 2, 4)]
    out["whole"] = b.search(inputs["prefix"], 10, 0)
    return out


SCENARIOS = {
    "interface.langgraph.item_timestamps": item_timestamps,
    "interface.langgraph.put_none_deletes": put_none_deletes,
    "interface.langgraph.list_namespaces": list_namespaces,
    "interface.langgraph.search_paging": search_paging,
}


def run(store, check, use_async, inputs, loop=None):
    """The observation of `check`'s scenario on `store` (fresh and empty)
    with the `inputs` the suite sent, through ``abatch`` when `use_async`
    (on `loop`, or a new one closed after). An unknown check, or inputs
    lacking one the scenario needs, is a "backend" DriverError naming
    it."""
    from .. import protocol as tp

    scenario = SCENARIOS.get(check)
    if scenario is None:
        raise tp.DriverError("backend", f"no scenario for check {check!r} of {INTERFACE}: known are {sorted(SCENARIOS)}")
    own = use_async and loop is None
    if own:
        loop = asyncio.new_event_loop()
    try:
        return scenario(_Batch(store, use_async, loop), inputs)
    except KeyError as e:
        raise tp.DriverError("backend", f"the inputs of {check!r} lack {e} (docs/protocol.md, \"The interface op\")") from None
    except NotImplemented_ as e:
        return {"not_implemented": str(e)}
    finally:
        if own:
            loop.close()
