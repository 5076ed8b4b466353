"""A ``tinymemory.protocol.Store`` over any LlamaIndex vector store
(``BasePydanticVectorStore``, llama-index-core).

    from llama_index.core.vector_stores import SimpleVectorStore
    from tinymemory.adapters.llamaindex import LlamaIndexAdapter

    store = LlamaIndexAdapter(lambda: SimpleVectorStore())   # factory() -> a fresh vector store

``LlamaIndexAdapter(factory)`` serves the contract over the vector stores
``factory()`` returns (fresh and empty per call; ``reset`` asks for a new
one after a write). docs/adapters.md has the mapping as a table; in short:

- an entry is a ``TextNode``: ``text`` the content, ``metadata``
  ``{"namespace", "key", "category", "session_id", "taint",
  "timestamp"}``, ``id_`` the UUID 5 of ``[namespace, key]`` (the LangChain
  adapter's document id, docs/adapters.md "Encodings"), its source
  (``ref_doc_id``) itself, ``embedding`` the adapter's embedding of the
  content (a vector store takes nodes embedded, as VectorStoreIndex gives
  them; ``HashedEmbedding`` unless the adapter is given another);
- ``store`` is ``add([node])``; a key the adapter wrote is first
  ``delete(ref_doc_id)``, as ``VectorStoreIndex.update_ref_doc`` does
  (LlamaIndex does not say what ``add`` of an id a store holds does);
- ``get`` is ``get_nodes(node_ids=[id])``, ``forget`` that read then
  ``delete(ref_doc_id)``, ``list`` ``get_nodes`` of the ids the adapter
  wrote (a vector store cannot enumerate: the adapter keeps the ids, never
  the contents), filtered by category and session here;
- recall is one ``query(VectorStoreQuery(query_embedding,
  similarity_top_k=limit, filters=MetadataFilters(namespace, category,
  session_id: EQ, AND)))``; the score is the store's similarity.

A store that keeps no text (``stores_text`` False: SimpleVectorStore,
FAISS) is served as ``VectorStoreIndex`` serves it, with a LlamaIndex
docstore beside it (``SimpleDocumentStore`` unless given): the nodes are
written to both, a query's ids are read back from the docstore, and
``delete`` goes to both. The row is then the pair.

The adapter does only what the interface cannot express: the contract's
namespace and key rules, a blank query, the tie order (equal scores by
key, asking again when hits tied at the limit may continue), the widest
limit, the timestamp (a vector store keeps none) and ``min_score``
(``VectorStoreQuery`` has no threshold). It never re-ranks, re-filters a
recall, caches contents or retries: a failing check is the store's, or a
mapping limit whose message starts with ``mapping limit``.
"""

import atexit

from .. import protocol as tp
from . import _common as c
from .langchain import document_id


def node_id(namespace, key):
    """The node id of an entry: the LangChain adapter's document id."""
    return document_id(namespace, key)


def metadata_filters(fields):
    """``MetadataFilters`` of `fields`, each an EQ filter, under AND."""
    from llama_index.core.vector_stores.types import (
        FilterCondition,
        FilterOperator,
        MetadataFilter,
        MetadataFilters,
    )

    return MetadataFilters(
        filters=[MetadataFilter(key=k, value=v, operator=FilterOperator.EQ) for k, v in fields.items()],
        condition=FilterCondition.AND,
    )


class LlamaIndexAdapter(tp.Store):
    """The contract over the LlamaIndex vector stores `factory` returns.

    - `factory`: a callable taking no argument and returning a fresh,
      empty ``BasePydanticVectorStore``; called at start-up and at every
      ``reset`` after a write.
    - `embeddings`: embeds contents and queries (``embed_query``; default
      ``HashedEmbedding()``).
    - `cleanup`: optional, called with each store the adapter is done with.
    - `docstore`: optional, a callable returning a fresh LlamaIndex
      docstore for a store that keeps no text (default
      ``SimpleDocumentStore``).
    - `package`, `version`: for the driver id (see _common.engine_id).
    - `independent_stores`: as for the other adapters.
    """

    recall_profile = tp.SEMANTIC

    def __init__(
        self,
        factory,
        embeddings=None,
        cleanup=None,
        docstore=None,
        package=None,
        version=None,
        independent_stores=False,
    ):
        if not callable(factory):
            raise TypeError(f"factory is {factory!r}; expected a callable returning a vector store")
        if embeddings is None:
            from .embeddings import HashedEmbedding

            embeddings = HashedEmbedding()
        self._factory = factory
        self._embeddings = embeddings
        self._cleanup = cleanup
        self._make_docstore = docstore
        self.independent_stores = independent_stores is True
        self._new_engine()
        self._ids = {}
        self._written = False
        self.driver_id = c.engine_id(self._engine, package, version, adapter="llamaindex")
        atexit.register(self.close)

    def _new_engine(self):
        engine = self._factory()
        if not all(callable(getattr(engine, m, None)) for m in ("add", "delete", "query")):
            raise TypeError(
                f"the factory returned a {type(engine).__name__}, not a LlamaIndex vector store (add, delete, query)"
            )
        self._engine = engine
        self._docstore = None
        if not getattr(engine, "stores_text", True):
            if self._make_docstore is not None:
                self._docstore = self._make_docstore()
            else:
                from llama_index.core.storage.docstore import SimpleDocumentStore

                self._docstore = SimpleDocumentStore()

    def close(self):
        """Hands the current store to `cleanup`; at most once (also
        registered with atexit)."""
        engine, self._engine = getattr(self, "_engine", None), None
        if engine is not None and self._cleanup is not None:
            self._cleanup(engine)

    # -- nodes -----------------------------------------------------------

    def _node(self, namespace, key, content, category, session_id, taint, timestamp=None):
        from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode

        nid = node_id(namespace, key)
        metadata = {
            "namespace": namespace,
            "key": key,
            "category": category,
            "session_id": session_id,
            "taint": taint,
            "timestamp": timestamp if timestamp is not None else tp.now_rfc3339(),
        }
        return TextNode(
            id_=nid,
            text=content,
            metadata=metadata,
            embedding=list(self._embeddings.embed_query(content)),
            # Its own source, so delete(ref_doc_id) reaches it.
            relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=nid)},
        )

    @staticmethod
    def _entry(node, score=None):
        m = node.metadata or {}
        missing = [f for f in ("namespace", "key", "category", "taint", "timestamp") if f not in m]
        if missing:
            raise tp.DriverError(
                "backend", f"the store returned node {node.node_id!r} without {', '.join(missing)} in its metadata"
            )
        return tp.entry(
            node.node_id,
            m["namespace"],
            m["key"],
            node.get_content(),
            m["category"],
            m["timestamp"],
            m.get("session_id"),
            m["taint"],
            score,
        )

    def _delete(self, nid):
        self._engine.delete(nid)
        if self._docstore is not None:
            self._docstore.delete_document(nid, raise_error=False)

    def _add(self, nodes):
        self._written = True
        replaced = [p for p in ((n.metadata["namespace"], n.metadata["key"]) for n in nodes) if p in self._ids]
        for p in replaced:
            self._delete(self._ids[p])
        if self._docstore is not None:
            self._docstore.add_documents(nodes, allow_update=True)
        returned = self._engine.add(nodes)
        if not isinstance(returned, (list, tuple)) or len(returned) != len(nodes):
            raise tp.DriverError(
                "backend",
                f"add of {len(nodes)} nodes returned {returned!r}; BasePydanticVectorStore.add returns the ids "
                "of the nodes it added",
            )
        for n, new_id in zip(nodes, returned):
            self._ids[(n.metadata["namespace"], n.metadata["key"])] = str(new_id)

    def _get_nodes(self, ids):
        """The nodes of `ids` the store holds (get_nodes, or the docstore
        of a store that keeps no text)."""
        if not ids:
            return []
        if self._docstore is not None:
            found = [self._docstore.get_node(i, raise_error=False) for i in ids]
            return [n for n in found if n is not None]
        try:
            return list(self._engine.get_nodes(node_ids=list(ids)))
        except NotImplementedError as e:
            raise c.mapping_limit(
                f"{type(self._engine).__name__}.get_nodes is not implemented ({e}), and the store keeps text "
                "(stores_text), so nothing reads an entry back by its id"
            ) from None

    # -- the contract ----------------------------------------------------

    def reset(self):
        """A fresh store from the factory (the previous one to `cleanup`),
        unless nothing was written since the last one was made."""
        if self._written:
            old = self._engine
            if self._cleanup is not None:
                self._cleanup(old)
            self._new_engine()
        self._ids = {}
        self._written = False

    def store(self, namespace, key, content, category, session_id, taint):
        """delete of the key's node when the adapter wrote it, then add."""
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        self._add([self._node(namespace, key, content, category, session_id, taint)])

    def store_many(self, entries):
        """Every entry validated, then one add of every node (after the
        delete of those the adapter wrote); a key given twice is sent
        once, with its last entry."""
        tp.validate_entries(entries)
        last = {}
        for e in entries:
            last[(e["namespace"], e["key"])] = e
        if last:
            self._add(
                [
                    self._node(e["namespace"], e["key"], e["content"], e["category"], e["session_id"], e["taint"])
                    for e in last.values()
                ]
            )

    def get(self, namespace, key):
        """get_nodes of the entry's node id."""
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        nid = self._ids.get((namespace, key), node_id(namespace, key))
        nodes = self._get_nodes([nid])
        if len(nodes) > 1:
            raise tp.DriverError(
                "backend", f"get_nodes of one id {nid!r} returned {len(nodes)} nodes (key {key!r} of {namespace!r})"
            )
        return self._entry(nodes[0]) if nodes else None

    def forget(self, namespace, key):
        """The read of get, then delete(ref_doc_id) when the store has it."""
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        nid = self._ids.get((namespace, key), node_id(namespace, key))
        if not self._get_nodes([nid]):
            self._ids.pop((namespace, key), None)
            return False
        self._written = True
        # Out of the catalog only once the store deleted it: a delete that
        # raises leaves the entry listed, as the store still holds it.
        self._delete(nid)
        self._ids.pop((namespace, key), None)
        return True

    def list(self, namespace, category, session_id):
        """get_nodes of every id the adapter wrote (in the namespace, for
        one), filtered by category and session here, ordered by
        (namespace, key). An id the store no longer holds is an error
        saying the list rests on the adapter's catalog."""
        if namespace is not None:
            tp.validate_namespace(namespace)
        positions = sorted(p for p in self._ids if namespace is None or p[0] == namespace)
        nodes = self._get_nodes([self._ids[p] for p in positions])
        found = {n.node_id for n in nodes}
        lost = [p for p in positions if self._ids[p] not in found]
        if lost:
            ns, key = lost[0]
            raise tp.DriverError(
                "backend",
                f"the store no longer holds key {key!r} of {ns!r} ({len(lost)} of the {len(positions)} entries "
                "asked), which add accepted and no forget removed: a vector store cannot enumerate, so list and "
                "namespaces ask it for the ids the adapter wrote (its catalog), and this one is not there",
            )
        entries = [self._entry(n) for n in nodes]
        entries = [
            e
            for e in entries
            if (category is None or e["category"] == category) and (session_id is None or e["session_id"] == session_id)
        ]
        return sorted(entries, key=lambda e: (e["namespace"], e["key"]))

    def namespaces(self):
        """Counted from list(None, None, None)."""
        found = {}
        for e in self.list(None, None, None):
            row = found.setdefault(e["namespace"], {"namespace": e["namespace"], "count": 0, "last_updated": None})
            row["count"] += 1
            if row["last_updated"] is None or tp.timestamp_key(e["timestamp"]) > tp.timestamp_key(row["last_updated"]):
                row["last_updated"] = e["timestamp"]
        return [found[n] for n in sorted(found)]

    def _query(self, query, k, fields):
        from llama_index.core.vector_stores.types import VectorStoreQuery

        result = self._engine.query(
            VectorStoreQuery(
                query_embedding=list(self._embeddings.embed_query(query)),
                similarity_top_k=k,
                filters=metadata_filters(fields),
            )
        )
        ids = list(result.ids or [])
        scores = list(result.similarities or [])
        if result.nodes is not None:
            nodes = list(result.nodes)
        else:
            # A store that keeps no text answers ids: their nodes are the
            # docstore's, as VectorIndexRetriever reads them.
            nodes = self._get_nodes(ids)
            if len(nodes) != len(ids):
                held = {n.node_id for n in nodes}
                raise tp.DriverError(
                    "backend",
                    f"the query answered ids the docstore does not hold: {[i for i in ids if i not in held]!r}",
                )
        if len(scores) != len(nodes):
            raise tp.DriverError(
                "backend", f"the query answered {len(nodes)} nodes and {len(scores)} similarities; expected one each"
            )
        pairs = list(zip(nodes, scores))
        stray = [n for n, _ in pairs if any((n.metadata or {}).get(f) != v for f, v in fields.items())]
        if stray:
            m = stray[0].metadata or {}
            raise c.mapping_limit(
                f"{type(self._engine).__name__} answered recall({query!r}) with {len(stray)} of {len(pairs)} nodes "
                f"outside the MetadataFilters of {fields!r} (the first: key {m.get('key')!r} of namespace "
                f"{m.get('namespace')!r}): the store ignored them"
            )
        return pairs

    def recall(self, query, limit, namespace, category, session_id, min_score):
        """One query with the namespace, category and session as
        MetadataFilters (more when hits tied at the limit may continue past
        the answer); min_score keeps the hits scoring at least it
        (VectorStoreQuery has no threshold)."""
        fields = c.recall_fields(query, limit, namespace, category, session_id, min_score)
        if fields is None:
            return []
        pairs = c.search_with_ties(
            lambda k: self._query(query, k, fields),
            limit,
            lambda pair: pair[1],
            lambda pair: (pair[0].metadata or {}).get("key", ""),
        )
        hits = [
            self._entry(
                n,
                c.hit_score(
                    s,
                    f"the store's query answered node {n.node_id!r}",
                    "VectorStoreQueryResult.similarities holds a float a node",
                ),
            )
            for n, s in pairs
        ]
        if min_score is not None:
            hits = [h for h in hits if h["score"] is not None and h["score"] >= min_score]
        return hits

    def export_page(self, cursor, limit):
        """A page of list(None, None, None) in (namespace, key) order
        (_common.export_page): a vector store cannot page."""
        return c.export_page(self.list(None, None, None), cursor, limit)

    def import_records(self, records):
        """The valid records (the last of a repeated key) as one add, each
        keeping its timestamp."""
        valid, failures = c.valid_records(records)
        if valid:
            self._add(
                [
                    self._node(
                        r["namespace"], r["key"], r["content"], r["category"], r["session_id"], r["taint"],
                        r["timestamp"],
                    )
                    for r in valid
                ]
            )
        # Every valid record is imported, a repeated key's earlier one too (an
        # upsert the later one replaced): the protocol counts records.
        return {"imported": len(records) - len(failures), "failures": failures}
