"""Stores for test_adapters.py: LangGraph stores and LangChain vector
stores wrapped to break one rule each (the check named for that rule must
fail through the adapter), and vector stores with less of the interface
(no get_by_ids, their own ids, no filter) that the adapter must serve or
name as a mapping limit."""

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
    item's score is lowered by 1e-5 per item stored before it, so equal
    similarities come back first-stored first, whatever their keys. (By
    1e-9, as this double once did, the two orders' scores would differ
    within the summation noise a correct engine shows, docs/profiles.md,
    "Score noise", and be reported as noise.)"""

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
                    item.score = item.score - 1e-5 * self._order.get((item.namespace, item.key), 0)
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


# -- LangChain vector stores ---------------------------------------------

from langchain_core.vectorstores import InMemoryVectorStore, VectorStore  # noqa: E402

from tinymemory.adapters.langchain import VectorStoreAdapter  # noqa: E402


def _strip_nul(value):
    return value.replace("\x00", "") if isinstance(value, str) else value


class NulStrippingStore(InMemoryVectorStore):
    """Drops U+0000 from every content and metadata string it is given,
    without error (as PGVectorStore of LangChain.js does)."""

    def add_documents(self, documents, ids=None, **kwargs):
        documents = [
            d.model_copy(
                update={
                    "page_content": _strip_nul(d.page_content),
                    "metadata": {k: _strip_nul(v) for k, v in d.metadata.items()},
                }
            )
            for d in documents
        ]
        return super().add_documents(documents, ids=ids, **kwargs)


def _matches(doc, query_filter):
    """LangChain's dict filter form ({"$and": [{field: {"$eq": v}}]}, or one
    such term) over a Document's metadata."""
    if "$and" in query_filter:
        return all(_matches(doc, term) for term in query_filter["$and"])
    ((field, condition),) = query_filter.items()
    return doc.metadata.get(field) == condition["$eq"]


class PlainVectorStore(VectorStore):
    """A VectorStore of no class the adapter knows, over an
    InMemoryVectorStore: it takes LangChain's dict filter (or ignores
    every filter, with ``takes_filter=False``), makes its own ids (with
    ``own_ids=True``), and has no get_by_ids (its subclass WithIds has)."""

    takes_filter = True
    own_ids = False

    def __init__(self, embeddings):
        self._inner = InMemoryVectorStore(embeddings)
        self._made = 0

    @property
    def embeddings(self):
        return self._inner.embeddings

    def add_documents(self, documents, ids=None, **kwargs):
        if self.own_ids:
            # As LibSQL of LangChain.js: the ids given are not used.
            ids = []
            for _ in documents:
                self._made += 1
                ids.append(f"own-{self._made}")
        return self._inner.add_documents(documents, ids=ids)

    def delete(self, ids=None, **kwargs):
        return self._inner.delete(ids)

    def similarity_search_with_score(self, query, k=4, filter=None, **kwargs):
        predicate = None
        if filter is not None and self.takes_filter:
            predicate = lambda doc: _matches(doc, filter)  # noqa: E731
        return self._inner.similarity_search_with_score(query, k=k, filter=predicate)

    def similarity_search(self, query, k=4, filter=None, **kwargs):
        return [d for d, _ in self.similarity_search_with_score(query, k=k, filter=filter)]

    @classmethod
    def from_texts(cls, texts, embedding, metadatas=None, **kwargs):
        raise NotImplementedError


class FilterAfterTopKStore(PlainVectorStore):
    """No get_by_ids, and a search that takes the nearest k of the whole
    store first and filters them after (as LibSQL's ``vector_top_k`` of
    LangChain.js does): an entry it holds can be missing from a search
    filtered on its own key."""

    def similarity_search_with_score(self, query, k=4, filter=None, **kwargs):
        nearest = self._inner.similarity_search_with_score(query, k=k)
        return [(d, s) for d, s in nearest if filter is None or _matches(d, filter)]


class PlainVectorStoreWithIds(PlainVectorStore):
    def get_by_ids(self, ids, /):
        return self._inner.get_by_ids(ids)


class OwnIdsStore(PlainVectorStoreWithIds):
    own_ids = True


class FilterlessStore(PlainVectorStoreWithIds):
    takes_filter = False


class FilterlessStoreWithoutIds(PlainVectorStore):
    takes_filter = False


class UuidIdsOnlyStore(InMemoryVectorStore):
    """Refuses every id that is not a UUID, as Qdrant's QdrantVectorStore
    does (langchain-qdrant 1.1.0: ``ValueError: Point id 1 is not a valid
    UUID``), where LangChain's standard tests give "1" and "2"."""

    @staticmethod
    def _refuse(documents, ids):
        import uuid

        for id_ in ids if ids is not None else [d.id for d in documents]:
            if id_ is None:
                continue
            try:
                uuid.UUID(id_)
            except ValueError:
                raise ValueError(f"Point id {id_} is not a valid UUID") from None

    def add_documents(self, documents, ids=None, **kwargs):
        self._refuse(documents, ids)
        return super().add_documents(documents, ids=ids, **kwargs)

    async def aadd_documents(self, documents, ids=None, **kwargs):
        self._refuse(documents, ids)
        return await super().aadd_documents(documents, ids=ids, **kwargs)


def _vector_store(cls):
    return lambda: VectorStoreAdapter(cls, score="similarity")


nul_stripping = _vector_store(NulStrippingStore)
plain_without_get_by_ids = _vector_store(PlainVectorStore)
plain_with_get_by_ids = _vector_store(PlainVectorStoreWithIds)
own_ids = _vector_store(OwnIdsStore)
filterless = _vector_store(FilterlessStore)
filterless_without_get_by_ids = _vector_store(FilterlessStoreWithoutIds)
in_memory = _vector_store(InMemoryVectorStore)
uuid_ids_only = _vector_store(UuidIdsOnlyStore)


class EqualityFilterStore(PlainVectorStoreWithIds):
    """A filter of plain equalities over the metadata, ``{field: value}``,
    of a class the adapter knows no dialect of (as ScaNN's and TileDB's of
    langchain-community, FAISS's form): LangChain's dict form matches
    nothing there, since no metadata value equals ``{"$eq": ...}``."""

    def similarity_search_with_score(self, query, k=4, filter=None, **kwargs):
        predicate = None
        if filter is not None:
            predicate = lambda doc: all(doc.metadata.get(f) == v for f, v in filter.items())  # noqa: E731
        return self._inner.similarity_search_with_score(query, k=k, filter=predicate)


equality_filter = _vector_store(EqualityFilterStore)


class NoFilterStore(PlainVectorStore):
    """No get_by_ids, and a similarity_search that names no filter (as
    SQLiteVec of langchain-community)."""

    def similarity_search(self, query, k=4, **kwargs):
        return [d for d, _ in self._inner.similarity_search_with_score(query, k=k)]

    def similarity_search_with_score(self, query, k=4, **kwargs):
        return self._inner.similarity_search_with_score(query, k=k)


no_filter = _vector_store(NoFilterStore)


class IdlessGetStore(PlainVectorStoreWithIds):
    """get_by_ids returns its documents with ``id=None``, as Qdrant's
    QdrantVectorStore does (the id in ``metadata["_id"]``)."""

    def get_by_ids(self, ids, /):
        from langchain_core.documents import Document

        return [
            Document(page_content=d.page_content, metadata={**d.metadata, "_id": d.id})
            for d in self._inner.get_by_ids(ids)
        ]


_MILVUS_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}


def _milvus_predicate(expr):
    """A predicate over a Document of ``field == "literal" and ...``, as
    Milvus Lite 3.2.2 parses it: the escapes \\" \\\\ \\n \\r \\t, every other
    character as it is (``\\x00``, ``\\u0000`` and ``\\000`` raise "unknown
    escape sequence")."""
    import re

    term = re.compile(r'(\w+) == "((?:[^"\\]|\\.)*)"', re.S)
    fields, at = {}, 0
    for match in term.finditer(expr):
        if expr[at : match.start()] not in ("", " and "):
            raise ValueError(f"cannot parse expression {expr!r}")
        value = re.sub(r"\\(.)", lambda m: _MILVUS_ESCAPES[m.group(1)], match.group(2), flags=re.S)
        fields[match.group(1)] = value
        at = match.end()
    if at != len(expr) or not fields:
        raise ValueError(f"cannot parse expression {expr!r}")
    return lambda doc: all(doc.metadata.get(k) == v for k, v in fields.items())


class MilvusLikeStore(PlainVectorStore):
    """No get_by_ids, and a filter taken as ``expr``, a boolean expression
    (``key == "a\\"b" and ...``), as langchain-milvus 0.4.0's Milvus takes it:
    the rest of its **kwargs go to the client's search, whose ``filter`` is
    that expr, so a ``filter=`` raises TypeError ("got multiple values for
    keyword argument 'filter'") as it does there."""

    def similarity_search_with_score(self, query, k=4, param=None, expr=None, timeout=None, **kwargs):
        return self._client_search(query, k, filter=expr, **kwargs)

    def _client_search(self, query, k, filter=None):
        predicate = None if filter is None else _milvus_predicate(filter)
        return self._inner.similarity_search_with_score(query, k=k, filter=predicate)

    def similarity_search(self, query, k=4, param=None, expr=None, timeout=None, **kwargs):
        return [d for d, _ in self.similarity_search_with_score(query, k, param, expr, timeout, **kwargs)]


# The class the adapter knows Milvus's dialect by.
MilvusLikeStore.__module__ = "langchain_milvus.vectorstores.milvus"
MilvusLikeStore.__qualname__ = "Milvus"
milvus_like = _vector_store(MilvusLikeStore)
