"""A ``tinymemory.protocol.Store`` over Mem0's ``Memory`` (the ``mem0ai`` package).

    from mem0 import Memory
    from tinymemory.adapters.mem0 import Mem0Adapter, memory_config

    vector_store = {"provider": "faiss", "config": {"path": "/tmp/m", "embedding_model_dims": 256}}
    store = Mem0Adapter(lambda embeddings: Memory.from_config(memory_config(vector_store, embeddings, "/tmp/h.db")))

``Mem0Adapter(factory)`` serves the contract over the ``Memory`` objects
``factory(embeddings)`` returns (fresh and empty per call; ``reset`` asks
for a new one after a write). `memory_config` builds the
``Memory.from_config`` dictionary that keeps Mem0 offline: the embedder is
LangChain's provider over `embeddings` (a ``HashedEmbedding`` unless the
adapter is given another), the LLM is ``NoLLM``, a LangChain chat model
that raises when called, and every write is ``add(..., infer=False)``, so
no LLM is ever asked: a call would fail the check that made it.
docs/adapters.md has the mapping as a table; in short:

- a namespace is Mem0's ``user_id`` (a contract namespace holds no white
  space, which Mem0 refuses in an id); an entry is one memory: its text
  the content, its metadata ``{"key", "category", "session_id", "taint",
  "timestamp"}`` (``timestamp`` None but after an import: the memory's
  ``updated_at`` is the entry's time);
- ``store`` is ``add(content, user_id=NS, metadata=..., infer=False)`` for
  a key the adapter has not written, ``update(memory_id, text=content,
  metadata=...)`` for one it has: Mem0 makes its own ids (uuid4), so the
  adapter keeps the id of each key it wrote (its catalog, never contents),
  as a Mem0 user keeps them;
- ``get`` is ``get(memory_id)``, ``forget`` that ``get`` then
  ``delete(memory_id)``; ``list`` is ``get_all(filters={"user_id": NS,
  "category": ..., "session_id": ...}, top_k=...)`` for each namespace
  the adapter wrote to (``get_all`` needs an entity id), ``top_k`` one
  more than the keys it wrote there, so a memory the store holds twice
  shows;
- recall is ``search(query, filters={"user_id": NS, ...}, top_k=limit,
  threshold=min_score, 0 at least)``: Mem0's own score (its semantic score,
  combined with BM25 and entity boosts where its vector store and spaCy
  provide them), never recomputed. Mem0's default threshold (0.1) would
  drop hits the contract keeps, so the adapter passes 0 when no
  ``min_score`` is asked or one below 0 (Mem0 refuses a negative
  threshold), and a ``min_score`` above 1 is a mapping limit.

The adapter does only what the interface cannot express: the contract's
namespace and key rules, a blank query (Mem0 raises on one), the tie order
(equal scores by key, asking again when hits tied at the limit may
continue), the widest limit, the (namespace, key) order of ``list``, the
counts of ``namespaces`` and the export pages. It never re-ranks,
re-filters, caches contents or retries: a failing check is Mem0's or its
vector store's, or a mapping limit whose message starts with
``mapping limit``.
"""

import atexit
import importlib.metadata as _metadata

from .. import protocol as tp
from . import _common as c

# The distribution of each Mem0 vector-store provider's engine, for the
# driver id (the row of the compatibility matrix names the backend).
BACKEND_PACKAGES = {
    "qdrant": "qdrant-client",
    "faiss": "faiss-cpu",
    "chroma": "chromadb",
    "pgvector": "psycopg",
    "milvus": "pymilvus",
    "redis": "redis",
    "elasticsearch": "elasticsearch",
}

# The metadata fields the adapter writes on every memory.
FIELDS = ("key", "category", "session_id", "taint", "timestamp")


def _no_llm_class():
    from langchain_core.language_models.chat_models import BaseChatModel

    class NoLLM(BaseChatModel):
        """A LangChain chat model that raises when called: the LLM of a
        Mem0 ``Memory`` that must never ask one (every add is
        ``infer=False``)."""

        @property
        def _llm_type(self):
            return "tinymemory-no-llm"

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            raise RuntimeError(
                "tinymemory's Mem0 adapter asked an LLM: every add is infer=False, so Mem0 must not call one"
            )

    return NoLLM


def no_llm():
    """A LangChain chat model whose every call raises (see memory_config)."""
    return _no_llm_class()()


def _config_takes(provider, field):
    """Whether Mem0's config class of the vector store `provider` has
    `field`: some (``ChromaDbConfig``) refuse fields they do not declare,
    so the embedding size is given only to a backend that takes it. An
    unknown provider is left for Mem0 to refuse."""
    try:
        from mem0.vector_stores.configs import VectorStoreConfig

        name = VectorStoreConfig._provider_configs.default[provider]
        module = __import__(f"mem0.configs.vector_stores.{provider}", fromlist=[name])
        return field in getattr(module, name).model_fields
    except (ImportError, KeyError, AttributeError):
        return False


def memory_config(vector_store, embeddings=None, history_db_path=":memory:"):
    """The ``Memory.from_config`` dictionary of an offline Mem0: the
    `vector_store` given (``{"provider": ..., "config": {...}}``, its
    ``embedding_model_dims`` set to the embedding's when absent and the
    provider's config class declares that field), the
    LangChain embedder over `embeddings` (default ``HashedEmbedding()``),
    the LLM ``no_llm()`` and the history database at `history_db_path`
    (default in memory: Mem0's default is a file under ``~/.mem0``)."""
    if embeddings is None:
        from .embeddings import HashedEmbedding

        embeddings = HashedEmbedding()
    dims = getattr(embeddings, "dims", None)
    vector_store = {"provider": vector_store["provider"], "config": dict(vector_store.get("config") or {})}
    if dims is not None and _config_takes(vector_store["provider"], "embedding_model_dims"):
        vector_store["config"].setdefault("embedding_model_dims", dims)
    embedder = {"provider": "langchain", "config": {"model": embeddings}}
    if dims is not None:
        embedder["config"]["embedding_dims"] = dims
    return {
        "vector_store": vector_store,
        "embedder": embedder,
        "llm": {"provider": "langchain", "config": {"model": no_llm()}},
        "history_db_path": history_db_path,
    }


def describe(memory):
    """What the driver id names: ``Memory`` and its vector store's provider
    with the engine's distribution and version (``Memory over qdrant
    (qdrant-client 1.20.0)``)."""
    provider = getattr(getattr(getattr(memory, "config", None), "vector_store", None), "provider", None) or "?"
    package = BACKEND_PACKAGES.get(provider)
    version = None
    if package is not None:
        try:
            version = _metadata.version(package)
        except _metadata.PackageNotFoundError:
            package = None
    backend = f" ({package} {version})" if package else ""
    return f"{type(memory).__name__} over {provider}{backend}"


def driver_id(memory, package=None, version=None):
    """``mem0ai==VERSION Memory over PROVIDER (PACKAGE VERSION) via
    tinymemory.adapters.mem0``: the form tinymemory.matrix reads."""
    if package is None or version is None:
        try:
            found_version = _metadata.version("mem0ai")
        except _metadata.PackageNotFoundError:
            found_version = None
        package = package or "mem0ai"
        version = version or found_version
    return f"{package}=={version or 'unknown'} {describe(memory)} via tinymemory.adapters.mem0"


class Mem0Adapter(tp.Store):
    """The contract over the Mem0 ``Memory`` objects `factory` returns.

    - `factory`: a callable taking an embedding and returning a fresh,
      empty ``Memory`` that uses it (``Memory.from_config(memory_config(
      vector_store, embeddings))``); called at start-up and at every
      ``reset`` after a write.
    - `embeddings`: passed to it (default ``HashedEmbedding()``).
    - `cleanup`: optional, called with each ``Memory`` the adapter is done
      with (remove its directory, drop its collection).
    - `package`, `version`: for the driver id (default mem0ai's).
    - `independent_stores`: True when each ``Memory`` lives in the driver
      process (a directory or collection of its own), so the suite may run
      checks in several processes at once.
    """

    recall_profile = tp.SEMANTIC

    def __init__(self, factory, embeddings=None, cleanup=None, package=None, version=None, independent_stores=False):
        if not callable(factory):
            raise TypeError(f"factory is {factory!r}; expected a callable taking an embedding")
        if embeddings is None:
            from .embeddings import HashedEmbedding

            embeddings = HashedEmbedding()
        self._factory = factory
        self._embeddings = embeddings
        self._cleanup = cleanup
        self.independent_stores = independent_stores is True
        self._memory = self._new_memory()
        self._ids = {}
        self._written = False
        self.driver_id = driver_id(self._memory, package, version)
        atexit.register(self.close)

    def _new_memory(self):
        memory = self._factory(self._embeddings)
        missing = [m for m in ("add", "get", "get_all", "search", "update", "delete") if not callable(getattr(memory, m, None))]
        if missing:
            raise TypeError(
                f"the factory returned a {type(memory).__name__}, not a Mem0 Memory (it lacks {', '.join(missing)})"
            )
        return memory

    def close(self):
        """Hands the current Memory to `cleanup`; at most once (also
        registered with atexit)."""
        memory, self._memory = getattr(self, "_memory", None), None
        if memory is not None and self._cleanup is not None:
            self._cleanup(memory)

    # -- memories --------------------------------------------------------

    @staticmethod
    def _metadata(key, category, session_id, taint, timestamp=None):
        # Every field on every write, None included: update merges the
        # metadata it is given into the memory's, so a field left out
        # would keep its old value.
        return {"key": key, "category": category, "session_id": session_id, "taint": taint, "timestamp": timestamp}

    @staticmethod
    def _entry(item, score=None):
        if not isinstance(item, dict):
            raise tp.DriverError("backend", f"Mem0 answered {item!r} for a memory; expected a dict")
        m = item.get("metadata") or {}
        missing = [f for f in ("key", "category", "taint") if f not in m]
        if "user_id" not in item:
            missing.insert(0, "user_id")
        if missing:
            raise tp.DriverError(
                "backend", f"Mem0 returned memory {item.get('id')!r} without {', '.join(missing)}: {item!r}"
            )
        # An imported record's timestamp, kept byte for byte; else the
        # memory's updated_at (Mem0's ISO form, written as RFC 3339).
        timestamp = m.get("timestamp")
        if timestamp is None:
            instant = item.get("updated_at") or item.get("created_at")
            if instant is None:
                raise tp.DriverError("backend", f"Mem0 returned memory {item.get('id')!r} with no time: {item!r}")
            timestamp = c.rfc3339(instant)
        return tp.entry(
            str(item["id"]),
            item["user_id"],
            m["key"],
            item.get("memory"),
            m["category"],
            timestamp,
            m.get("session_id"),
            m["taint"],
            score,
        )

    def _put(self, namespace, key, content, category, session_id, taint, timestamp=None):
        self._written = True
        metadata = self._metadata(key, category, session_id, taint, timestamp)
        memory_id = self._ids.get((namespace, key))
        if memory_id is not None:
            self._memory.update(memory_id, text=content, metadata=metadata)
            return
        answer = self._memory.add(content, user_id=namespace, metadata=metadata, infer=False)
        results = answer.get("results") if isinstance(answer, dict) else None
        added = [r for r in results or () if isinstance(r, dict) and r.get("event") == "ADD" and r.get("id")]
        if len(added) != 1:
            raise tp.DriverError(
                "backend",
                f"Mem0's add(infer=False) of one text answered {answer!r}; expected one memory with event ADD",
            )
        self._ids[(namespace, key)] = str(added[0]["id"])

    # -- the contract ----------------------------------------------------

    def reset(self):
        """A fresh Memory from the factory (the previous one to `cleanup`),
        unless nothing was written since the last one was made."""
        if self._written:
            old, self._memory = self._memory, None
            if self._cleanup is not None:
                self._cleanup(old)
            self._memory = self._new_memory()
        self._ids = {}
        self._written = False

    def store(self, namespace, key, content, category, session_id, taint):
        """add(infer=False) for a new key, update for one the adapter wrote."""
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        self._put(namespace, key, content, category, session_id, taint)

    def store_many(self, entries):
        """Every entry validated, then one store each (Mem0 has no batch
        write of distinct metadata); a key given twice is written once,
        with its last entry."""
        tp.validate_entries(entries)
        last = {}
        for e in entries:
            last[(e["namespace"], e["key"])] = e
        for e in last.values():
            self._put(e["namespace"], e["key"], e["content"], e["category"], e["session_id"], e["taint"])

    def get(self, namespace, key):
        """Memory.get of the key's memory id; None for a key the adapter
        did not write (or forgot)."""
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        memory_id = self._ids.get((namespace, key))
        if memory_id is None:
            return None
        item = self._memory.get(memory_id)
        return None if item is None else self._entry(item)

    def forget(self, namespace, key):
        """Memory.get, then Memory.delete when Mem0 holds the memory (its
        delete raises for an id it does not hold)."""
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        memory_id = self._ids.get((namespace, key))
        if memory_id is None:
            return False
        if self._memory.get(memory_id) is None:
            del self._ids[(namespace, key)]
            return False
        self._written = True
        # Out of the catalog only once Mem0 deleted it: a delete that
        # raises leaves the memory readable, as Mem0 still holds it.
        self._memory.delete(memory_id)
        del self._ids[(namespace, key)]
        return True

    def list(self, namespace, category, session_id):
        """get_all of each namespace (one, or every namespace the adapter
        wrote to), filtered by category and session by Mem0, ordered by
        (namespace, key)."""
        if namespace is not None:
            tp.validate_namespace(namespace)
            spaces = [namespace]
        else:
            spaces = sorted({ns for ns, _ in self._ids})
        entries = []
        for ns in spaces:
            filters = {"user_id": ns}
            if category is not None:
                filters["category"] = category
            if session_id is not None:
                filters["session_id"] = session_id
            written = sum(1 for n, _ in self._ids if n == ns)
            answer = self._memory.get_all(filters=filters, top_k=written + 1)
            entries.extend(self._entry(item) for item in answer.get("results", []))
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

    def recall(self, query, limit, namespace, category, session_id, min_score):
        """One Memory.search with the namespace as user_id and category and
        session as metadata filters (more when hits tied at the limit may
        continue past the answer)."""
        filters = c.recall_fields(
            query, limit, namespace, category, session_id, min_score, namespace_field="user_id"
        )
        if filters is None:
            return []
        if min_score is not None and min_score > 1.0:
            raise c.mapping_limit(
                f"min_score {min_score!r} is above 1, outside [0, 1], the range of Mem0's search threshold, which "
                "raises ValueError for any other"
            )
        # Mem0 has no "no threshold" (None is its default, 0.1) and refuses
        # one below 0: no min_score, or one below 0, is asked as 0, the
        # lowest it takes (docs/adapters.md, the Mem0 mapping).
        threshold = 0.0 if min_score is None else max(0.0, float(min_score))

        def search(k):
            answer = self._memory.search(query, top_k=k, filters=dict(filters), threshold=threshold)
            return list(answer.get("results", []))

        items = c.search_with_ties(
            search,
            limit,
            lambda item: item.get("score"),
            lambda item: (item.get("metadata") or {}).get("key", ""),
        )
        hits = []
        for i in items:
            hit = self._entry(i)
            hit["score"] = c.hit_score(
                i.get("score"), f"Mem0's search answered memory {i.get('id')!r}", "its search scores every memory it answers"
            )
            hits.append(hit)
        return hits

    def export_page(self, cursor, limit):
        """A page of list(None, None, None) in (namespace, key) order
        (_common.export_page): Mem0 cannot page by key."""
        return c.export_page(self.list(None, None, None), cursor, limit)

    def import_records(self, records):
        """The valid records (the last of a repeated key), each written as
        store writes it with the record's timestamp in the metadata."""
        valid, failures = c.valid_records(records)
        for r in valid:
            self._put(r["namespace"], r["key"], r["content"], r["category"], r["session_id"], r["taint"], r["timestamp"])
        # Every valid record is imported, a repeated key's earlier one too (an
        # upsert the later one replaced): the protocol counts records.
        return {"imported": len(records) - len(failures), "failures": failures}
