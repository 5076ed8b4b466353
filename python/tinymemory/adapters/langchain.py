"""A ``tinymemory.protocol.Store`` over any LangChain ``VectorStore``.

    from langchain_core.vectorstores import InMemoryVectorStore
    from tinymemory.adapters.langchain import VectorStoreAdapter

    store = VectorStoreAdapter(InMemoryVectorStore)   # factory(embeddings) -> a fresh VectorStore

``VectorStoreAdapter(factory)`` serves the contract over the vector stores
``factory(embeddings)`` returns (fresh and empty per call; ``reset`` asks
for a new one). `embeddings` is a ``HashedEmbedding`` (offline, see
tinymemory.adapters.embeddings) unless the adapter is given another.
docs/adapters.md has the mapping as a table; in short:

- an entry is a ``Document``: ``page_content`` the content, ``metadata``
  ``{"namespace", "key", "category", "session_id" (None for none),
  "taint", "timestamp"}``, ``id`` a UUID 5 of ``[namespace, key]`` (the
  form every store accepts; Qdrant and PGVectorStore take UUIDs only).
  ``store`` and ``store_many`` are one ``add_documents(documents,
  ids=...)`` call: an upsert, as LangChain's standard tests require of
  ``add_documents`` with an existing id. The ids ``add_documents`` returns
  are the ones used afterwards: a store that makes its own ids is served,
  the document a new write replaced deleted by its old id;
- ``get`` is ``get_by_ids``; a store without ``get_by_ids`` is read
  through a search filtered on the entry's namespace and key (the content
  and metadata those of the document the store returns). ``forget`` is
  that lookup, then ``delete``;
- recall is one ``similarity_search_with_relevance_scores(query, k,
  filter=...)``: the framework's relevance score, higher is better. A store
  that defines no relevance function (``InMemoryVectorStore``) is asked
  ``similarity_search_with_score``, whose score the adapter must be told is
  a similarity (``score="similarity"``; known for InMemoryVectorStore);
- ``filter`` has no portable form in LangChain: the adapter knows the
  dialects of InMemoryVectorStore (a callable), FAISS (a dict of
  equalities), Qdrant (``models.Filter``), and Chroma, PGVector and
  PGVectorStore (``{"$and": [{field: {"$eq": value}}, ...]}``, LangChain's
  dict filter form) and Milvus (a boolean expression, passed as ``expr``),
  and tries that dict form on any other store. A hit
  outside the filter the adapter built is a mapping limit naming
  ``make_filter``, and so is an empty recall under the dict form it
  guessed when the same search without a filter answers documents the
  filter allows; ``make_filter`` is the option that gives the store's own form: a function
  from the fields asked (``{"namespace": ..., "key": ..., "category": ...,
  "session_id": ...}``, only those asked) to the store's filter.

Every value a check judges comes from the store: contents, metadata and
scores from the documents it returns, existence from its lookup.
``VectorStore`` has no way to enumerate what it holds, so the adapter keeps
the ids it wrote (never their contents): ``list`` and ``namespaces`` ask
the store for those ids and filter the documents it returns by category
and session themselves, and a listed id the store no longer holds is an
error saying the list rests on that catalog. The other things it does
itself are the contract's rules (namespace and key validity, a blank
query, the tie order by key, the widest limit, a batch's repeated key) and
the timestamp (the interface has none). It never re-ranks, re-filters a
recall, caches contents or retries: a failing check is the store's, or a
mapping limit whose message starts with ``mapping limit``.
"""

import asyncio
import atexit
import json
import uuid

from .. import protocol as tp
from . import _common as c

# The UUID namespace of entry ids (uuid5 of the JSON of [namespace, key]).
ID_NAMESPACE = uuid.UUID("5a0c3b9e-7f0f-4c55-9a53-1f0e2b9d4e61")


def document_id(namespace, key):
    """The Document id of an entry: a UUID 5 of ``[namespace, key]`` as
    JSON, so (learning:a/b, c) and (learning:a, b/c) are two ids."""
    return str(uuid.uuid5(ID_NAMESPACE, json.dumps([namespace, key], ensure_ascii=False)))


def _class_names(obj):
    return {f"{k.__module__}.{k.__qualname__}" for k in type(obj).__mro__}


def dict_filter(fields):
    """LangChain's dict filter form of `fields` (each metadata field equal
    to its value): ``{field: {"$eq": value}}`` for one field,
    ``{"$and": [...]}`` of those for several. Chroma, PGVector and
    PGVectorStore take it as documented; the adapter tries it on a store
    whose dialect it does not know."""
    terms = [{k: {"$eq": v}} for k, v in fields.items()]
    return terms[0] if len(terms) == 1 else {"$and": terms}


# The classes whose filter is LangChain's dict form, as each documents it.
_DICT_FILTER_CLASSES = (
    "langchain_chroma.vectorstores.Chroma",
    "langchain_postgres.vectorstores.PGVector",
    "langchain_postgres.v2.vectorstores.PGVectorStore",
    "langchain_community.vectorstores.pgvector.PGVector",
)


# Milvus (langchain-milvus) takes its filter as ``expr``, a boolean
# expression over the fields; the rest of its **kwargs go to
# MilvusClient.search, whose own ``filter`` is that expr, so ``filter=``
# raises TypeError there ("got multiple values for keyword argument").
_MILVUS_CLASSES = ("langchain_milvus.vectorstores.milvus.Milvus",)

# The escapes Milvus Lite 3.2.2's expressions read in a string literal;
# every other character goes as it is (it refuses \x00, \u0000 and \000
# as "unknown escape sequence", and matches a NUL given as it is).
_MILVUS_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def milvus_expr(fields):
    """Milvus's boolean expression of `fields` (each field equal to its
    string): ``namespace == "..." and key == "..."``."""
    return " and ".join(
        f'{k} == "{"".join(_MILVUS_ESCAPES.get(ch, ch) for ch in v)}"' for k, v in fields.items()
    )


def filter_keyword(store):
    """The keyword `store`'s searches take their filter by: ``expr`` for
    Milvus, ``filter`` for every other store."""
    return "expr" if _class_names(store).intersection(_MILVUS_CLASSES) else "filter"


def default_filter(store):
    """The filter maker for `store`'s dialect, or None when the adapter
    knows none: a function from the fields asked ({"namespace": ...,
    "key": ..., "category": ..., "session_id": ...}) to the store's filter,
    matching metadata equal to each."""
    names = _class_names(store)
    if "langchain_core.vectorstores.in_memory.InMemoryVectorStore" in names:
        # InMemoryVectorStore takes a predicate over a Document.
        return lambda fields: (lambda doc: all(doc.metadata.get(k) == v for k, v in fields.items()))
    if "langchain_community.vectorstores.faiss.FAISS" in names:
        # FAISS takes a dict of equalities over the metadata.
        return lambda fields: dict(fields)
    if "langchain_qdrant.qdrant.QdrantVectorStore" in names:
        def qdrant(fields):
            from qdrant_client import models

            key = getattr(store, "metadata_payload_key", "metadata")
            return models.Filter(
                must=[
                    models.FieldCondition(key=f"{key}.{k}", match=models.MatchValue(value=v))
                    for k, v in fields.items()
                ]
            )

        return qdrant
    if names.intersection(_DICT_FILTER_CLASSES):
        return dict_filter
    if names.intersection(_MILVUS_CLASSES):
        return milvus_expr
    return None


def takes_filter(store):
    """True when `store`'s class names a ``filter`` parameter of its
    ``similarity_search``. A store whose filter arrives through
    ``**kwargs`` is served when its dialect is known or given
    (``make_filter``)."""
    import inspect

    try:
        parameters = inspect.signature(type(store).similarity_search).parameters
    except (TypeError, ValueError):
        return True
    return "filter" in parameters


def implements(store, method):
    """True when `store`'s class defines `method` itself rather than
    inheriting VectorStore's default (``get_by_ids`` raises
    NotImplementedError there)."""
    from langchain_core.vectorstores import VectorStore

    own = getattr(type(store), method, None)
    return callable(own) and own is not getattr(VectorStore, method, None)


def _defines_relevance(store):
    """True when `store`'s class defines a relevance function (its own
    ``_select_relevance_score_fn`` or ``_similarity_search_with_relevance_scores``)."""
    from langchain_core.vectorstores import VectorStore

    cls = type(store)
    return (
        cls._select_relevance_score_fn is not VectorStore._select_relevance_score_fn
        or cls._similarity_search_with_relevance_scores is not VectorStore._similarity_search_with_relevance_scores
    )


def default_score(store):
    """"relevance" when `store` defines a relevance function, "similarity"
    for InMemoryVectorStore (its similarity_search_with_score is cosine
    similarity, langchain_core.vectorstores.in_memory), else None."""
    if _defines_relevance(store):
        return "relevance"
    if "langchain_core.vectorstores.in_memory.InMemoryVectorStore" in _class_names(store):
        return "similarity"
    return None


SCORES = ("relevance", "similarity")


class VectorStoreAdapter(tp.Store):
    """The contract over the LangChain ``VectorStore`` objects `factory` returns.

    - `factory`: a callable taking an ``Embeddings`` and returning a fresh,
      empty ``VectorStore``; called at start-up and at every ``reset``
      after a write.
    - `embeddings`: the ``Embeddings`` passed to it (default
      ``HashedEmbedding()``).
    - `cleanup`: optional, called with each store the adapter is done with
      (drop the collection, close the client).
    - `clear`: optional, called with the current store at a ``reset``
      after a write instead of handing it to `cleanup` and calling
      `factory`: it must leave that store as empty as a fresh one (for
      Chroma, ``Chroma.reset_collection``), for a store whose factory is
      slow (docs/benchmarks.md, "Through the adapters"). The store is read
      back after it (one search without a filter), and a reset fails when
      it returns a document.
    - `make_filter`: optional, fields -> the store's filter (see
      default_filter); for a store whose dialect the adapter does not
      know, which it otherwise asks in LangChain's dict form (dict_filter)
      and names as a mapping limit when the store ignores it.
    - `score`: "relevance" (``similarity_search_with_relevance_scores``)
      or "similarity" (``similarity_search_with_score``, for a store whose
      score is a higher-is-better similarity and which has no relevance
      function); default: default_score.
    - `package`, `version`: for the driver id (see _common.engine_id).
    """

    recall_profile = tp.SEMANTIC
    # Declared in hello: the interface family's scenarios run through
    # interface() (tinymemory.adapters.langchain_interface).
    interface_name = "langchain.vectorstore"

    def __init__(
        self,
        factory,
        embeddings=None,
        cleanup=None,
        make_filter=None,
        score=None,
        package=None,
        version=None,
        independent_stores=False,
        clear=None,
        use_async=False,
        has_sync=True,
        has_async=True,
        has_get_by_ids=True,
    ):
        if not callable(factory):
            raise TypeError(f"factory is {factory!r}; expected a callable taking an Embeddings")
        if clear is not None and not callable(clear):
            raise TypeError(f"clear is {clear!r}; expected a callable taking the store")
        self._clear = clear
        if score is not None and score not in SCORES:
            raise ValueError(f"score is {score!r}; expected one of {SCORES} or None")
        if embeddings is None:
            from .embeddings import HashedEmbedding

            embeddings = HashedEmbedding()
        self._factory = factory
        self._embeddings = embeddings
        self._cleanup = cleanup
        self._make_filter = make_filter
        self._score = score
        # Declared in hello: each driver process's stores are its own, so
        # the suite may run checks in several processes at once.
        self.independent_stores = independent_stores is True
        # With use_async, every engine call is its async twin
        # (aadd_documents, asimilarity_search, ...) on this loop, so a
        # store whose async path differs from its sync one is checked.
        self._use_async = use_async is True
        # The paths the store serves, as LangChain's standard tests let a
        # store declare them (has_sync, has_async): the interface family
        # runs no scenario through a path declared absent.
        self._has_sync, self._has_async = has_sync is not False, has_async is not False
        self._has_get_by_ids = has_get_by_ids is not False
        if self._use_async and not self._has_async:
            raise ValueError("use_async serves every operation through the async methods, which has_async = False "
                             "says the store lacks")
        if not self._use_async and not self._has_sync:
            raise ValueError("the sync methods serve every operation without use_async, which has_sync = False "
                             "says the store lacks")
        self._loop = asyncio.new_event_loop() if self._use_async else None
        self._engine = self._new_engine()
        self._ids = {}
        self._written = False
        self.driver_id = c.engine_id(
            self._engine, package, version, adapter="langchain (async)" if self._use_async else "langchain"
        )
        atexit.register(self.close)

    def _new_engine(self):
        engine = self._factory(self._embeddings)
        if not all(callable(getattr(engine, m, None)) for m in ("add_documents", "similarity_search")):
            raise TypeError(
                f"the factory returned a {type(engine).__name__}, not a LangChain VectorStore "
                "(add_documents and similarity_search)"
            )
        return engine

    def close(self):
        """Hands the current store to `cleanup`; at most once (also
        registered with atexit)."""
        engine, self._engine = getattr(self, "_engine", None), None
        if engine is not None and self._cleanup is not None:
            self._cleanup(engine)
        loop = getattr(self, "_loop", None)
        if loop is not None and not loop.is_closed():
            loop.close()

    def _engine_call(self, method, *args, **kwargs):
        """`method` of the engine, or its async twin (``a`` + method) run
        on the adapter's loop with use_async."""
        if not self._use_async:
            return getattr(self._engine, method)(*args, **kwargs)
        return self._loop.run_until_complete(getattr(self._engine, "a" + method)(*args, **kwargs))

    # -- documents -------------------------------------------------------

    def _document(self, namespace, key, content, category, session_id, taint, timestamp=None):
        from langchain_core.documents import Document

        # session_id is always written, None included: an upsert that
        # merges metadata (Chroma's) keeps an absent key's old value, so a
        # session left out would survive the write that cleared it.
        metadata = {
            "namespace": namespace,
            "key": key,
            "category": category,
            "taint": taint,
            "session_id": session_id,
        }
        # VectorStore has no time of its own: the adapter stamps the write
        # (an import keeps the record's).
        metadata["timestamp"] = timestamp if timestamp is not None else tp.now_rfc3339()
        return Document(id=document_id(namespace, key), page_content=content, metadata=metadata)

    @staticmethod
    def _entry(doc, score=None):
        m = doc.metadata or {}
        missing = [f for f in ("namespace", "key", "category", "taint", "timestamp") if f not in m]
        if missing:
            raise tp.DriverError(
                "backend", f"the store returned document {doc.id!r} without {', '.join(missing)} in its metadata"
            )
        return tp.entry(
            doc.id or document_id(m["namespace"], m["key"]),
            m["namespace"],
            m["key"],
            doc.page_content,
            m["category"],
            m["timestamp"],
            m.get("session_id"),
            m["taint"],
            score,
        )

    def _add(self, docs):
        self._written = True
        returned = self._engine_call("add_documents", docs, ids=[d.id for d in docs])
        if not isinstance(returned, (list, tuple)) or len(returned) != len(docs):
            raise tp.DriverError(
                "backend",
                f"add_documents of {len(docs)} documents returned {returned!r}; "
                f"VectorStore.add_documents returns the {len(docs)} ids it added",
            )
        # The ids the store returned are the documents' from now on: a
        # store that makes its own ids adds a new document on every write,
        # so the one a write replaced is deleted by its old id.
        replaced = []
        for d, new_id in zip(docs, returned):
            position = (d.metadata["namespace"], d.metadata["key"])
            old_id = self._ids.get(position)
            self._ids[position] = new_id
            if old_id is not None and old_id != new_id:
                replaced.append(old_id)
        if replaced:
            self._delete(replaced)

    def _unfilterable(self):
        """The mapping limit of a store whose searches the adapter cannot
        filter (no make_filter, no known dialect, no ``filter`` parameter),
        or None."""
        if self._make_filter is not None or default_filter(self._engine) is not None or takes_filter(self._engine):
            return None
        name = type(self._engine).__name__
        if implements(self._engine, "get_by_ids"):
            return c.mapping_limit(
                f"{name}.similarity_search takes no filter, so no recall can be pinned to a namespace: give the "
                "adapter make_filter if it takes one through **kwargs (docs/adapters.md, Filters)"
            )
        return c.mapping_limit(
            f"{name} cannot be served: it has no get_by_ids and its similarity_search takes no filter, so the "
            "adapter can read an entry neither by its id nor by a search on its key, nor pin a recall to a "
            "namespace; give the adapter make_filter if it takes a filter through **kwargs (docs/adapters.md)"
        )

    def _delete(self, ids):
        if not implements(self._engine, "delete"):
            raise c.mapping_limit(
                f"{type(self._engine).__name__} has no delete (VectorStore's raises NotImplementedError): forget, "
                "and the upsert of a store that makes its own ids (the replaced document), cannot be served"
            )
        self._engine_call("delete", ids)

    def _filter_for(self, fields):
        """(the store's filter for `fields`, whether the adapter built it
        (no make_filter given), so a hit outside it is a mapping limit)."""
        if self._make_filter is not None:
            return self._make_filter(fields), False
        make = default_filter(self._engine) or dict_filter
        return make(fields), True

    def _outside(self, docs, fields, made, what):
        """Raises a mapping limit naming make_filter when a document of
        `docs` has metadata outside `fields` under a filter the adapter
        built: the store ignored that filter, or reads another form."""
        if not made:
            return
        stray = [d for d in docs if any((d.metadata or {}).get(k) != v for k, v in fields.items())]
        if not stray:
            return
        m = stray[0].metadata or {}
        needs = (
            ""
            if implements(self._engine, "get_by_ids")
            else "; this store has no get_by_ids either, so get and list read through this filter: a store "
            "that filters by neither id nor metadata cannot be served"
        )
        raise c.mapping_limit(
            f"{type(self._engine).__name__} answered {what} with {len(stray)} of {len(docs)} documents outside "
            f"the filter {self._filter_for(fields)[0]!r} the adapter built for {fields!r} (the first: key "
            f"{m.get('key')!r} of namespace {m.get('namespace')!r}): the store ignored that filter or reads "
            "another form; give the adapter make_filter, a function from those fields to the store's own "
            f"filter (docs/adapters.md, Filters){needs}"
        )

    def _lookup(self, namespace, key):
        """The documents the store holds for (namespace, key): get_by_ids of
        its id, or, for a store without get_by_ids, a search filtered on
        the namespace and key."""
        if implements(self._engine, "get_by_ids"):
            doc_id = self._ids.get((namespace, key), document_id(namespace, key))
            return list(self._engine_call("get_by_ids", [doc_id]))
        unfilterable = self._unfilterable()
        if unfilterable is not None:
            raise unfilterable
        fields = {"namespace": namespace, "key": key}
        query_filter, made = self._filter_for(fields)
        # Two, so that a store holding the key twice shows it; the query
        # is any text: the filter chooses.
        docs = list(self._engine_call("similarity_search", key, k=2, **{filter_keyword(self._engine): query_filter}))
        self._outside(docs, fields, made, f"the search for key {key!r} of {namespace!r}")
        return docs

    def _one(self, namespace, key):
        docs = self._lookup(namespace, key)
        searched = not implements(self._engine, "get_by_ids")
        if len(docs) > 1 and searched:
            raise tp.DriverError(
                "backend",
                f"the store holds {len(docs)} documents for key {key!r} of {namespace!r} (ids "
                f"{[d.id for d in docs]!r}): add_documents with the id of a document it holds added another",
            )
        if not docs and searched and (namespace, key) in self._ids:
            # A search can miss what the store holds (a filter applied after
            # the nearest k): no answer here is "absent" only by the
            # catalog's word, so say what was seen rather than report a loss.
            raise c.mapping_limit(
                f"the store's search filtered on namespace {namespace!r} and key {key!r} did not return the "
                "entry, which the adapter wrote and did not forget (a store without get_by_ids is read through "
                "a search filtered on the key): either the store lost it or it applies its filter after its "
                "nearest k (recall.limit shows which)"
            )
        return docs[0] if docs else None

    def _fetch_written(self, positions):
        """The documents of `positions` (written by the adapter), as the
        store returns them. A position the store no longer holds is an
        error saying that the answer rests on the adapter's catalog."""
        if not positions:
            return []
        if implements(self._engine, "get_by_ids"):
            ids = [self._ids[p] for p in positions]
            docs = list(self._engine_call("get_by_ids", ids))
            # By the adapter's own metadata keys, not Document.id: a store
            # may answer id=None (Qdrant's get_by_ids, the id in
            # metadata["_id"]); the interface family judges the ids.
            found = {((d.metadata or {}).get("namespace"), (d.metadata or {}).get("key")) for d in docs}
            lost = [p for p in positions if p not in found]
        else:
            docs, lost = [], []
            for p in positions:
                doc = self._one(*p)
                if doc is None:
                    lost.append(p)
                else:
                    docs.append(doc)
        if lost:
            namespace, key = lost[0]
            raise tp.DriverError(
                "backend",
                f"the store no longer holds key {key!r} of {namespace!r} ({len(lost)} of the {len(positions)} "
                "entries asked), which add_documents accepted and no forget removed: VectorStore cannot "
                "enumerate, so list and namespaces ask the store for the ids the adapter wrote (its catalog), "
                "and this one is not there",
            )
        return docs

    # -- the interface family -------------------------------------------

    def interface(self, check, use_async, inputs):
        """The observation of `check`'s scenario of the interface family,
        run with LangChain's own API on the current store, which the suite
        has just reset, with the `inputs` the suite sent
        (tinymemory.adapters.langchain_interface); through the async
        methods when `use_async`."""
        from . import langchain_interface

        self._written = True
        return langchain_interface.run(
            self._engine,
            check,
            use_async is True,
            inputs,
            self._loop,
            has_sync=self._has_sync,
            has_async=self._has_async,
            has_get_by_ids=self._has_get_by_ids,
        )

    # -- the contract ----------------------------------------------------

    def reset(self):
        """A fresh store from the factory (the previous one to `cleanup`),
        or the store emptied by `clear` when given; nothing when nothing
        was written since the last one was made or emptied."""
        if self._written and self._clear is not None:
            self._clear(self._engine)
            self._verify_cleared()
        elif self._written:
            old, self._engine = self._engine, None
            if self._cleanup is not None:
                self._cleanup(old)
            self._engine = self._new_engine()
        self._ids = {}
        self._written = False

    def _verify_cleared(self):
        """Raises when the store answers a search after `clear`: the next
        check needs an empty store, which is read back, not assumed. One
        search without a filter (any text: an empty store has no nearest
        document), which also sees what the interface family wrote outside
        the adapter's catalog."""
        left = list(self._engine_call("similarity_search", "tinymemory reset", k=1))
        if left:
            m = left[0].metadata or {}
            raise tp.DriverError(
                "backend",
                f"the store still holds documents after clear (key {m.get('key')!r} of namespace "
                f"{m.get('namespace')!r}, id {left[0].id!r}): the adapter's clear option must leave the store "
                "as empty as a fresh one",
            )

    def store(self, namespace, key, content, category, session_id, taint):
        """One add_documents call with the entry's id."""
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        self._add([self._document(namespace, key, content, category, session_id, taint)])

    def store_many(self, entries):
        """Every entry validated, then one add_documents call; a key given
        twice is sent once, with its last entry (add_documents does not say
        which of two documents of one id in one call wins)."""
        tp.validate_entries(entries)
        last = {}
        for e in entries:
            last[(e["namespace"], e["key"])] = e
        if last:
            self._add(
                [
                    self._document(e["namespace"], e["key"], e["content"], e["category"], e["session_id"], e["taint"])
                    for e in last.values()
                ]
            )

    def get(self, namespace, key):
        """get_by_ids of the entry's id (or the search on its key)."""
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        doc = self._one(namespace, key)
        return None if doc is None else self._entry(doc)

    def forget(self, namespace, key):
        """The lookup of get, then delete of the id the store gave when it
        has the entry (several stores raise deleting an id they do not
        hold)."""
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        doc = self._one(namespace, key)
        doc_id = self._ids.get((namespace, key), document_id(namespace, key))
        if doc is None:
            self._ids.pop((namespace, key), None)
            return False
        self._written = True
        self._delete([doc.id or doc_id])
        # Only once the store deleted it: a delete that raised leaves the
        # entry in the store, and list and namespaces must still ask for it.
        self._ids.pop((namespace, key), None)
        return True

    def list(self, namespace, category, session_id):
        """The documents of every key the adapter wrote (in the namespace,
        for one) as the store returns them, filtered by category and
        session here (the interface cannot list), ordered by (namespace,
        key)."""
        if namespace is not None:
            tp.validate_namespace(namespace)
        positions = sorted(p for p in self._ids if namespace is None or p[0] == namespace)
        entries = [self._entry(d) for d in self._fetch_written(positions)]
        entries = [
            e
            for e in entries
            if (category is None or e["category"] == category)
            and (session_id is None or e["session_id"] == session_id)
        ]
        return sorted(entries, key=lambda e: (e["namespace"], e["key"]))

    def namespaces(self):
        """Counted from the documents of list(None, None, None)."""
        found = {}
        for e in self.list(None, None, None):
            row = found.setdefault(e["namespace"], {"namespace": e["namespace"], "count": 0, "last_updated": None})
            row["count"] += 1
            if row["last_updated"] is None or tp.timestamp_key(e["timestamp"]) > tp.timestamp_key(row["last_updated"]):
                row["last_updated"] = e["timestamp"]
        return [found[n] for n in sorted(found)]

    def _search(self, query, k, fields, min_score):
        unfilterable = self._unfilterable()
        if unfilterable is not None:
            raise unfilterable
        query_filter, made = self._filter_for(fields)
        by = {filter_keyword(self._engine): query_filter}
        score = self._score or default_score(self._engine)
        if score is None:
            raise c.mapping_limit(
                f"{type(self._engine).__name__} defines no relevance score function, so "
                "similarity_search_with_relevance_scores raises: set score='similarity' if its "
                "similarity_search_with_score is higher-is-better (a distance cannot be served)"
            )
        if score == "relevance":
            extra = {} if min_score is None else {"score_threshold": min_score}
            pairs = self._engine_call("similarity_search_with_relevance_scores", query, k=k, **by, **extra)
        else:
            pairs = self._engine_call("similarity_search_with_score", query, k=k, **by)
        self._outside([d for d, _ in pairs], fields, made, f"recall({query!r})")
        if not pairs and min_score is None:
            self._guess_matched_nothing(query, k, fields, query_filter)
        return pairs

    def _guess_matched_nothing(self, query, k, fields, query_filter):
        """Raises a mapping limit when the filter was the adapter's guess
        (LangChain's dict form, the store's dialect unknown and no
        make_filter) and matched nothing in a namespace the adapter wrote
        to, while the same search without a filter answers documents it
        allows: a store reading ``{field: value}`` (ScaNN's, TileDB's)
        matches nothing under the dict form, and the empty answer would
        fail the checks as the store's. A diagnosis only: an answer is
        never replaced."""
        if self._make_filter is not None or default_filter(self._engine) is not None:
            return
        if not any(p[0] == fields.get("namespace") for p in self._ids):
            return
        unfiltered = list(self._engine_call("similarity_search", query, k=k))
        allowed = [d for d in unfiltered if all((d.metadata or {}).get(f) == v for f, v in fields.items())]
        if not allowed:
            return
        m = allowed[0].metadata or {}
        raise c.mapping_limit(
            f"{type(self._engine).__name__} answered recall({query!r}) with no document under the filter "
            f"{query_filter!r} the adapter built for {fields!r} in LangChain's dict form (the adapter knows no "
            f"dialect of this store), where the same search without a filter answered {len(allowed)} documents "
            f"that filter allows (the first: key {m.get('key')!r} of namespace {m.get('namespace')!r}): the "
            "store reads another filter form, or its filtered search loses documents the filter allows; give "
            "the adapter make_filter, a function from those fields to the store's own filter (docs/adapters.md, "
            "Filters)"
        )

    def recall(self, query, limit, namespace, category, session_id, min_score):
        """One search with the namespace, category and session as the
        store's filter (more when hits tied at the limit may continue past
        the answer), see the module docstring."""
        fields = c.recall_fields(query, limit, namespace, category, session_id, min_score)
        if fields is None:
            return []
        pairs = c.search_with_ties(
            lambda k: self._search(query, k, fields, min_score),
            limit,
            lambda pair: pair[1],
            lambda pair: (pair[0].metadata or {}).get("key", ""),
        )
        method = {"relevance": "similarity_search_with_relevance_scores", "similarity": "similarity_search_with_score"}[
            self._score or default_score(self._engine)
        ]
        hits = [
            self._entry(
                doc,
                c.hit_score(
                    s,
                    f"the store's {method} answered document {doc.id!r}",
                    "a VectorStore answers (Document, float) pairs",
                ),
            )
            for doc, s in pairs
        ]
        if min_score is not None and (self._score or default_score(self._engine)) == "similarity":
            # similarity_search_with_score has no threshold. A relevance
            # search was given score_threshold, and what the store keeps
            # of it is its answer, not filtered again.
            hits = [h for h in hits if h["score"] is not None and h["score"] >= min_score]
        return hits

    def export_page(self, cursor, limit):
        """A page of list(None, None, None) in (namespace, key) order
        (_common.export_page): VectorStore cannot page."""
        return c.export_page(self.list(None, None, None), cursor, limit)

    def import_records(self, records):
        """The valid records (the last of a repeated key) as one
        add_documents call, each keeping its timestamp."""
        valid, failures = c.valid_records(records)
        if valid:
            self._add(
                [
                    self._document(
                        r["namespace"], r["key"], r["content"], r["category"], r["session_id"], r["taint"],
                        r["timestamp"],
                    )
                    for r in valid
                ]
            )
        # Every valid record is imported, a repeated key's earlier one too (an
        # upsert the later one replaced): the protocol counts records.
        return {"imported": len(records) - len(failures), "failures": failures}
