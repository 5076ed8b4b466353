"""A ``tinymemory.protocol.Store`` over any LangGraph ``BaseStore``.

    from langgraph.store.memory import InMemoryStore
    from tinymemory.adapters.embeddings import HashedEmbedding
    from tinymemory.adapters.langgraph import LangGraphStore

    store = LangGraphStore(lambda: InMemoryStore(index={"dims": 256, "embed": HashedEmbedding()}))

``LangGraphStore(factory)`` serves the contract over the stores that
``factory()`` returns (a fresh, empty ``BaseStore`` per call: ``reset``
asks for a new one). Every operation is one ``BaseStore.batch`` call (or,
with ``use_async=True``, one ``abatch`` call on the adapter's own event
loop): the two methods every ``BaseStore`` implements, so any store is
served through the interface alone. docs/adapters.md has the mapping as a
table; in short:

- a namespace is one label, ``(label,)``: ASCII letters and digits as
  they are, every other character ``-`` and two lowercase hex digits of its
  code (``learning:a.b`` is ``learning-3aa-2eb``), and the name
  ``langgraph`` written ``-6canggraph`` (LangGraph refuses it as a root
  label). No label holds ``.``, ``:``, ``%``, ``_`` or ``\\``, which one
  store or another refuses; the encoding is one to one and decodes back
  (fixtures/adapter-encodings.json, shared with the TypeScript adapter).
  One label per namespace keeps ``namespace_prefix`` exact (no namespace's
  tuple is a prefix of another's);
- an entry is the item's value ``{"content", "category", "session_id",
  "taint", "timestamp"}``, indexed on ``content`` alone
  (``PutOp(index=["content"])``); its timestamp is the item's
  ``updated_at``, except after an import, whose record's timestamp the
  value keeps. Every put writes the whole value, ``"timestamp": None``
  included, so a store that merges a put into the old value cannot keep an
  imported timestamp past the next ``store``;
- recall is a ``SearchOp`` with the query, the namespace's label as the
  prefix, category and session as an equality ``filter`` and the limit; the
  score is the store's ``SearchItem.score`` (LangGraph's relevance score,
  higher is better), never recomputed.

The adapter does only what the interface cannot express: the contract's
namespace and key rules (refused before the store is asked), a blank query
(no hit), the tie order (equal scores by key; when the hits tied at the
limit may continue past the answer it asks again for more), ``min_score``
(``SearchOp`` has no threshold), the ``(namespace, key)`` order of
``list``, and the counts of ``namespaces`` (``list_namespaces`` has none).
It never re-ranks, re-filters, caches or retries: a failing check is the
store's, or a mapping limit whose message starts with ``mapping limit``.
"""

import asyncio
import atexit
import inspect
import json
import re

from .. import protocol as tp
from . import _common as c

# The root label LangGraph reserves (langgraph.store.base._validate_namespace).
_RESERVED_ROOT = "langgraph"
# Its label: the first letter escaped as any other escaped character is.
_RESERVED_ROOT_LABEL = "-6c" + _RESERVED_ROOT[1:]
# A label as namespace_label writes one: letters, digits and '-' with two
# lowercase hex digits. Nothing else decodes.
_LABEL = re.compile(r"(?:[A-Za-z0-9]|-[0-9a-f]{2})+")
_ESCAPE = re.compile(r"-([0-9a-f]{2})")


def namespace_label(namespace):
    """The LangGraph label of a valid contract namespace: ASCII letters and
    digits as they are, every other character ``-`` and two lowercase hex
    digits of its code (``:`` is ``-3a``, ``.`` ``-2e``, ``-`` ``-2d``,
    ``_`` ``-5f``), and the label ``langgraph`` written ``-6canggraph``.

    No label holds ``.`` (LangGraph refuses it), ``:`` (LangGraph.js's
    InMemoryStore refuses it), ``%`` or ``_`` (PostgresStore of
    LangGraph.js refuses both, its guard against SQL LIKE wildcards), or
    ``\\``; namespace_of inverts it (fixtures/adapter-encodings.json holds
    the cases both languages' adapters must give)."""
    label = "".join(ch if ch.isascii() and ch.isalnum() else f"-{ord(ch):02x}" for ch in namespace)
    return _RESERVED_ROOT_LABEL if label == _RESERVED_ROOT else label


def namespace_of(label):
    """The contract namespace of a label namespace_label made. Raises a
    "backend" DriverError for any other label (the store holds a namespace
    this adapter did not write, or changed one): namespace_label of the
    answer must give the label back, byte for byte."""
    namespace = None
    if isinstance(label, str) and _LABEL.fullmatch(label):
        namespace = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), label)
        try:
            tp.validate_namespace(namespace)
        except tp.DriverError:
            namespace = None
    if namespace is None or namespace_label(namespace) != label:
        raise tp.DriverError(
            "backend", f"the store returned namespace label {label!r}, which the adapter never writes"
        )
    return namespace


def _namespace_tuple(namespace):
    return (namespace_label(namespace),)


class LangGraphStore(tp.Store):
    """The contract over the LangGraph ``BaseStore`` objects `factory` returns.

    - `factory`: a callable with no argument returning a fresh, empty
      ``BaseStore`` (or an awaitable of one, with ``use_async``); called at
      start-up and at every ``reset`` after a write.
    - `cleanup`: optional, called with each store the adapter is done with
      (replaced by ``reset``, or at exit): drop the schema, close the
      connection (may be a coroutine function with ``use_async``).
    - `use_async`: serve through ``abatch`` on one event loop of the
      adapter's instead of ``batch``.
    - `clear`: optional, called with the current store at a ``reset``
      after a write instead of handing it to `cleanup` and calling
      `factory`: it must leave that store as empty as a fresh one (for
      PostgresStore, ``TRUNCATE store, store_vectors``: a new schema and
      its migrations cost about 0.2 s a reset; docs/benchmarks.md,
      "Through the adapters"). May be a coroutine function with
      ``use_async``. The store is read back after it (one search over
      every namespace), and a reset fails when it holds an item.
    - `package`, `version`: the engine's distribution and version for the
      driver id (default: found from the store's class, see
      tinymemory.adapters._common.engine_id).

    The recall profile is semantic: a ``BaseStore`` ranks by its index's
    embedding. A store without an index (``index_config`` None) ignores the
    query, so every recall is a mapping-limit error saying so.
    """

    recall_profile = tp.SEMANTIC
    # Declared in hello: the interface family's scenarios run through
    # interface() (tinymemory.adapters.langgraph_interface).
    interface_name = "langgraph.basestore"

    def __init__(
        self, factory, cleanup=None, use_async=False, package=None, version=None, independent_stores=False, clear=None
    ):
        if not callable(factory):
            raise TypeError(f"factory is {factory!r}; expected a callable returning a BaseStore")
        if clear is not None and not callable(clear):
            raise TypeError(f"clear is {clear!r}; expected a callable taking the store")
        self._clear = clear
        self._factory = factory
        self._cleanup = cleanup
        self._use_async = bool(use_async)
        # Declared in hello: each driver process's stores are its own, so
        # the suite may run checks in several processes at once.
        self.independent_stores = independent_stores is True
        self._loop = asyncio.new_event_loop() if self._use_async else None
        self._engine = self._new_engine()
        self._written = False
        self.driver_id = c.engine_id(
            self._engine, package, version, adapter="langgraph (abatch)" if self._use_async else "langgraph"
        )
        atexit.register(self.close)

    # -- the engine's life ---------------------------------------------

    def _await(self, value):
        if inspect.isawaitable(value):
            if self._loop is None:
                raise TypeError(
                    "the factory or cleanup returned an awaitable; pass use_async=True to serve an async store"
                )
            return self._loop.run_until_complete(value)
        return value

    def _new_engine(self):
        engine = self._await(self._factory())
        if not (callable(getattr(engine, "batch", None)) and callable(getattr(engine, "abatch", None))):
            raise TypeError(
                f"the factory returned a {type(engine).__name__}, not a LangGraph BaseStore "
                "(it has no batch and abatch)"
            )
        return engine

    def _dispose(self, engine):
        if self._cleanup is not None:
            self._await(self._cleanup(engine))

    def close(self):
        """Hands the current store to `cleanup` and closes the event loop;
        at most once (also registered with atexit)."""
        engine, self._engine = getattr(self, "_engine", None), None
        if engine is not None:
            self._dispose(engine)
        if self._loop is not None and not self._loop.is_closed():
            self._loop.close()

    def _batch(self, ops):
        if self._engine is None:
            raise tp.DriverError("backend", "the adapter was closed")
        if self._use_async:
            return self._loop.run_until_complete(self._engine.abatch(ops))
        return self._engine.batch(ops)

    def interface(self, check, use_async, inputs):
        """The observation of `check`'s scenario of the interface family,
        run through ``batch`` (``abatch`` when `use_async`) on the current
        store, which the suite has just reset, with the `inputs` the suite
        sent (tinymemory.adapters.langgraph_interface)."""
        from . import langgraph_interface

        if self._engine is None:
            raise tp.DriverError("backend", "the adapter was closed")
        self._written = True
        return langgraph_interface.run(self._engine, check, use_async is True, inputs, self._loop)

    # -- values ----------------------------------------------------------

    @staticmethod
    def _value(content, category, session_id, taint, timestamp=None):
        # Every field, always: a store that merges a put into the value it
        # holds would otherwise keep an imported "timestamp" past a later
        # store. Only an import sets it (BaseStore stamps updated_at
        # itself, and an import must keep the record's timestamp byte for
        # byte); None means "the item's updated_at".
        return {
            "content": content,
            "category": category,
            "session_id": session_id,
            "taint": taint,
            "timestamp": timestamp,
        }

    def _entry(self, item, score=None):
        if len(item.namespace) != 1:
            raise tp.DriverError(
                "backend", f"the store returned namespace {item.namespace!r}; the adapter writes one label"
            )
        namespace = namespace_of(item.namespace[0])
        value = item.value or {}
        missing = [f for f in c.FIELDS if f not in value]
        if missing:
            raise tp.DriverError(
                "backend",
                f"the store returned item {item.key!r} of {namespace!r} without {', '.join(missing)} in its value",
            )
        return tp.entry(
            json.dumps([namespace, item.key]),
            namespace,
            item.key,
            value["content"],
            value["category"],
            value["timestamp"] if value.get("timestamp") is not None else c.rfc3339(item.updated_at),
            value["session_id"],
            value["taint"],
            score,
        )

    @staticmethod
    def _filter(category, session_id):
        conditions = {}
        if category is not None:
            conditions["category"] = category
        if session_id is not None:
            conditions["session_id"] = session_id
        return conditions or None

    def _put(self, namespace, key, content, category, session_id, taint, timestamp=None):
        from langgraph.store.base import PutOp

        return PutOp(
            _namespace_tuple(namespace),
            key,
            self._value(content, category, session_id, taint, timestamp),
            index=["content"],
        )

    # -- the contract ----------------------------------------------------

    def reset(self):
        """A fresh store from the factory (the previous one to `cleanup`),
        or the store emptied by `clear` when given; nothing when nothing
        was written since the last one was made or emptied."""
        if self._written:
            if self._clear is not None:
                self._await(self._clear(self._engine))
                self._verify_cleared()
            else:
                old, self._engine = self._engine, None
                self._dispose(old)
                self._engine = self._new_engine()
            self._written = False

    def _verify_cleared(self):
        """Raises when the store holds an item after `clear`: the next
        check needs an empty store, which is read back (one SearchOp over
        every namespace, limit 1), not assumed."""
        from langgraph.store.base import SearchOp

        (left,) = self._batch([SearchOp((), filter=None, limit=1, offset=0, query=None, refresh_ttl=False)])
        if left:
            raise tp.DriverError(
                "backend",
                f"the store still holds items after clear (key {left[0].key!r} of namespace "
                f"{tuple(left[0].namespace)!r}): the adapter's clear option must leave the store as empty as a "
                "fresh one",
            )

    def store(self, namespace, key, content, category, session_id, taint):
        """One PutOp."""
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        self._written = True
        self._batch([self._put(namespace, key, content, category, session_id, taint)])

    def store_many(self, entries):
        """Every entry validated first, then one batch of PutOps; a key
        given twice is sent once, with its last entry (BaseStore.batch does
        not say which of two puts of one item in one batch wins)."""
        tp.validate_entries(entries)
        last = {}
        for e in entries:
            last[(e["namespace"], e["key"])] = e
        if not last:
            return None
        self._written = True
        self._batch(
            [
                self._put(e["namespace"], e["key"], e["content"], e["category"], e["session_id"], e["taint"])
                for e in last.values()
            ]
        )
        return None

    def get(self, namespace, key):
        """One GetOp."""
        from langgraph.store.base import GetOp

        tp.validate_namespace(namespace)
        tp.validate_key(key)
        (item,) = self._batch([GetOp(_namespace_tuple(namespace), key)])
        return None if item is None else self._entry(item)

    def forget(self, namespace, key):
        """A GetOp (BaseStore's delete says nothing of what it removed),
        then a PutOp with value None when the entry was there."""
        from langgraph.store.base import GetOp, PutOp

        tp.validate_namespace(namespace)
        tp.validate_key(key)
        (item,) = self._batch([GetOp(_namespace_tuple(namespace), key)])
        if item is None:
            return False
        self._written = True
        self._batch([PutOp(_namespace_tuple(namespace), key, None)])
        return True

    def _search_all(self, namespace, category, session_id):
        from langgraph.store.base import SearchOp

        prefix = () if namespace is None else _namespace_tuple(namespace)
        (items,) = self._batch(
            [
                SearchOp(
                    prefix,
                    filter=self._filter(category, session_id),
                    limit=c.MAX_ENGINE_LIMIT,
                    offset=0,
                    query=None,
                    refresh_ttl=False,
                )
            ]
        )
        return [self._entry(item) for item in items]

    def list(self, namespace, category, session_id):
        """One SearchOp without a query over the namespace's label (every
        namespace for None), the equality filter, the widest limit; sorted
        by (namespace, key), which BaseStore does not promise."""
        if namespace is not None:
            tp.validate_namespace(namespace)
        entries = self._search_all(namespace, category, session_id)
        return sorted(entries, key=lambda e: (e["namespace"], e["key"]))

    def namespaces(self):
        """Counted from one SearchOp over every namespace: list_namespaces
        gives the namespaces without counts or times."""
        found = {}
        for e in self._search_all(None, None, None):
            row = found.setdefault(e["namespace"], {"namespace": e["namespace"], "count": 0, "last_updated": None})
            row["count"] += 1
            if row["last_updated"] is None or tp.timestamp_key(e["timestamp"]) > tp.timestamp_key(row["last_updated"]):
                row["last_updated"] = e["timestamp"]
        return [found[n] for n in sorted(found)]

    def recall(self, query, limit, namespace, category, session_id, min_score):
        """One SearchOp with the query (more when hits tied at the limit
        may continue past the answer), see the module docstring."""
        from langgraph.store.base import SearchOp

        namespace = tp.GLOBAL_NAMESPACE if namespace is None else namespace
        tp.validate_namespace(namespace)
        tp.validate_min_score(min_score)
        if limit == 0 or c.is_blank(query):
            return []
        if getattr(self._engine, "index_config", True) is None:
            raise c.mapping_limit(
                f"this {type(self._engine).__name__} has no index (IndexConfig), so its search ignores the "
                "query and ranks nothing: give the factory's store an index to run the recall checks"
            )

        def search(k):
            (items,) = self._batch(
                [
                    SearchOp(
                        _namespace_tuple(namespace),
                        filter=self._filter(category, session_id),
                        limit=k,
                        offset=0,
                        query=query,
                        refresh_ttl=False,
                    )
                ]
            )
            return items

        items = c.search_with_ties(search, limit, lambda item: item.score, lambda item: item.key)
        hits = [
            self._entry(
                i,
                c.hit_score(
                    i.score,
                    f"the store's search answered item {i.key!r} of namespace {tuple(i.namespace)!r}",
                    "a BaseStore's SearchItem.score is a float, or None without an index",
                    absent_ok=True,
                ),
            )
            for i in items
        ]
        if min_score is not None:
            hits = [h for h in hits if h["score"] is not None and h["score"] >= min_score]
        return hits

    def export_page(self, cursor, limit):
        """A page of the full listing in (namespace, key) order
        (_common.export_page): BaseStore cannot page by key."""
        return c.export_page(self._search_all(None, None, None), cursor, limit)

    def import_records(self, records):
        """The valid records (the last of a repeated key) as one batch of
        PutOps, each value keeping the record's timestamp."""
        valid, failures = c.valid_records(records)
        if valid:
            self._written = True
            self._batch(
                [
                    self._put(
                        r["namespace"], r["key"], r["content"], r["category"], r["session_id"], r["taint"],
                        r["timestamp"],
                    )
                    for r in valid
                ]
            )
        # Every valid record is imported, a repeated key's earlier one too (an
        # upsert the later one replaced): the protocol counts records.
        return {"imported": len(records) - len(failures), "failures": failures}
