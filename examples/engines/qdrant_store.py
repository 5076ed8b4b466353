"""A tinymemory driver over Qdrant (qdrant-client's local mode), semantic profile.

    pip install -r examples/engines/requirements.txt
    pytest examples/engines/test_qdrant_store.py

``QdrantClient(":memory:")`` is Qdrant's embedded engine: no server, the
points in this process. Every entry is a point of its namespace's
collection (one collection per namespace, so a recall pinned to a namespace
searches that namespace alone and nothing stored elsewhere moves its
scores), its id a UUID of the key, its payload the entry's fields, its
vector an embedding of the content. Qdrant ranks by cosine similarity,
higher is better: a vector store's score, not a distance.

The embedding is this file's own, so nothing downloads a model: signed
feature hashing of the content's words (tinymemory.protocol.words: the
contract's words, lowercased) and of their character trigrams into
DIMENSIONS buckets, each feature once per text. The same text always gives
the same vector, in every process.

The two first failures of a real vector store, fixed here:

- A query that is not blank but has no word (``"``, ``?!``) embeds to the
  zero vector. Qdrant's local mode scores it 0.0 against every entry; a
  hand-written cosine divides by zero (NaN, which tinymemory.protocol then
  refuses as a backend error naming the hit). Here such a query ranks
  every entry at 0.0, ties by key; a blank query has no hits.
- Qdrant returns equal scores in insertion order; the contract orders ties
  by key. The recall asks Qdrant for every point scoring at least the
  limit-th hit's score, then sorts by (score descending, key).

And one the suite found in Qdrant itself: its float32 score of one entry
for one query differs in the last bits from call to call
(recall.deterministic, recall.namespace_isolation). Qdrant picks the
candidates, a little below any threshold (SCORE_SLACK), and the score is
the exact cosine of integer feature vectors kept in each point's payload.
"""

import functools
import hashlib
import importlib.metadata as _metadata
import math
import uuid

from qdrant_client import QdrantClient, models

import tinymemory.protocol as tp

DIMENSIONS = 512
WORD_WEIGHT = 3
# Unicode White_Space (Rust's str::trim): a query of these alone is blank.
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
# Qdrant's float32 scores are within this of the exact cosine: candidates
# are fetched this far below a threshold, then scored exactly.
SCORE_SLACK = 1e-5


def _bucket(feature):
    """The (bucket, sign) of a feature: blake2b, not hash(), which Python
    salts per process (every driver process must embed alike)."""
    h = int.from_bytes(hashlib.blake2b(feature.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")
    return h % DIMENSIONS, (-1 if (h >> 32) & 1 else 1)


def embed(text):
    """The content's vector, sparse: {bucket: non-zero integer component}
    (empty for a text with no word). Integer components keep dot products
    exact."""
    features = {}
    for word in set(tp.words(text)):
        features["w:" + word] = WORD_WEIGHT
        padded = "^" + word + "$"
        for i in range(len(padded) - 2):
            features["g:" + padded[i : i + 3]] = 1
    sparse = {}
    for feature, weight in features.items():
        bucket, sign = _bucket(feature)
        sparse[bucket] = sparse.get(bucket, 0) + sign * weight
    return {b: v for b, v in sparse.items() if v != 0}


def dense(sparse):
    """`sparse` as the DIMENSIONS floats Qdrant stores."""
    vector = [0.0] * DIMENSIONS
    for bucket, value in sparse.items():
        vector[bucket] = float(value)
    return vector


def norm2(sparse):
    """The squared norm of a sparse integer vector."""
    return sum(v * v for v in sparse.values())


def cosine(q, qq, d, dd):
    """The exact cosine of sparse integer vectors `q` and `d` of squared
    norms `qq` and `dd`: exactly 1.0 when they point the same way, 0.0 when
    either is zero."""
    if qq == 0 or dd == 0:
        return 0.0
    if len(d) < len(q):
        q, d = d, q
    qd = sum(v * d[b] for b, v in q.items() if b in d)
    if qd > 0 and qd * qd == qq * dd:
        return 1.0
    return max(-1.0, min(qd / math.sqrt(qq * dd), 1.0)) + 0.0


def _pack(sparse):
    # A string, not a list: Qdrant's local mode deep-copies every payload it
    # returns, and copying a list of pairs per hit made a recall over a
    # 100-entry namespace take 100 ms.
    return " ".join(f"{b}:{v}" for b, v in sorted(sparse.items()))


@functools.lru_cache(maxsize=1 << 16)
def _unpack(packed):
    return {int(b): int(v) for b, v in (item.split(":") for item in packed.split())}


def _collection(namespace):
    # Hex keeps every valid namespace a plain collection name.
    return "ns-" + namespace.encode().hex()


def _point_id(key):
    return str(uuid.uuid5(uuid.NAMESPACE_OID, key))


def _filter(category, session_id):
    must = [
        models.FieldCondition(key=field, match=models.MatchValue(value=value))
        for field, value in (("category", category), ("session_id", session_id))
        if value is not None
    ]
    return models.Filter(must=must) if must else None


class QdrantStore(tp.Store):
    # Each driver process holds its own engine in RAM: checks may run in
    # several processes at once.
    independent_stores = True
    recall_profile = tp.SEMANTIC
    # PACKAGE==VERSION WHAT: the compatibility matrix (tinymemory.matrix)
    # reads the engine's package and version from the driver id.
    driver_id = f"qdrant-client=={_metadata.version('qdrant-client')} QdrantClient(':memory:') (examples/engines/qdrant_store.py)"

    def __init__(self):
        self.client = QdrantClient(":memory:")
        self.names = set()

    def reset(self):
        for name in list(self.names):
            self.client.delete_collection(name)
        self.names = set()

    def _ensure(self, namespace):
        name = _collection(namespace)
        if name not in self.names:
            self.client.create_collection(
                name, vectors_config=models.VectorParams(size=DIMENSIONS, distance=models.Distance.COSINE)
            )
            self.names.add(name)
        return name

    def _point(self, namespace, key, content, category, session_id, taint, timestamp):
        payload = {
            "id": _point_id(key),
            "namespace": namespace,
            "key": key,
            "content": content,
            "category": category,
            "timestamp": timestamp,
            "session_id": session_id,
            "taint": taint,
        }
        sparse = embed(content)
        # The sparse vector rides along in the payload: the exact score is
        # computed from it (see recall).
        payload["features"] = _pack(sparse)
        payload["norm2"] = norm2(sparse)
        return models.PointStruct(id=payload["id"], vector=dense(sparse), payload=payload)

    def _write(self, points_by_namespace):
        for namespace, points in points_by_namespace.items():
            # A later entry of a key wins: a dict keeps the last point per id.
            unique = list({p.id: p for p in points}.values())
            self.client.upsert(self._ensure(namespace), points=unique)

    def store(self, namespace, key, content, category, session_id, taint):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        point = self._point(namespace, key, content, category, session_id, taint, tp.now_rfc3339())
        self._write({namespace: [point]})

    def store_many(self, entries):
        tp.validate_entries(entries)
        timestamp = tp.now_rfc3339()
        grouped = {}
        for e in entries:
            grouped.setdefault(e["namespace"], []).append(
                self._point(
                    e["namespace"], e["key"], e["content"], e["category"], e["session_id"], e["taint"], timestamp
                )
            )
        self._write(grouped)

    def _entries(self, namespace, category=None, session_id=None):
        name = _collection(namespace)
        if name not in self.names:
            return []
        out, offset = [], None
        while True:
            points, offset = self.client.scroll(
                name, scroll_filter=_filter(category, session_id), limit=10_000, offset=offset, with_vectors=False
            )
            out += [_entry(p.payload) for p in points]
            if offset is None:
                return out

    def get(self, namespace, key):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        name = _collection(namespace)
        if name not in self.names:
            return None
        found = self.client.retrieve(name, ids=[_point_id(key)])
        return _entry(found[0].payload) if found else None

    def forget(self, namespace, key):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        if self.get(namespace, key) is None:
            return False
        name = _collection(namespace)
        self.client.delete(name, points_selector=models.PointIdsList(points=[_point_id(key)]))
        if self.client.count(name).count == 0:
            self.client.delete_collection(name)
            self.names.discard(name)
        return True

    def _namespace_names(self):
        return sorted(bytes.fromhex(name[3:]).decode() for name in self.names)

    def list(self, namespace, category, session_id):
        if namespace is not None:
            tp.validate_namespace(namespace)
        names = [namespace] if namespace is not None else self._namespace_names()
        out = []
        for ns in names:
            out += sorted(self._entries(ns, category, session_id), key=lambda e: e["key"])
        return out

    def namespaces(self):
        out = []
        for ns in self._namespace_names():
            entries = self._entries(ns)
            if entries:
                newest = max((e["timestamp"] for e in entries), key=tp.timestamp_key)
                out.append({"namespace": ns, "count": len(entries), "last_updated": newest})
        return out

    def recall(self, query, limit, namespace, category, session_id, min_score):
        namespace = tp.GLOBAL_NAMESPACE if namespace is None else namespace
        tp.validate_namespace(namespace)
        tp.validate_min_score(min_score)
        name = _collection(namespace)
        if limit == 0 or all(c in WHITE_SPACE for c in query) or name not in self.names:
            return []
        sparse = embed(query)
        qq = norm2(sparse)
        vector = dense(sparse)
        total = self.client.count(name).count
        wanted = min(limit, total)

        def search(k, threshold):
            return self.client.query_points(
                name,
                query=vector,
                limit=k,
                query_filter=_filter(category, session_id),
                score_threshold=None if threshold is None else threshold - SCORE_SLACK,
                with_payload=True,
            ).points

        points = search(wanted, min_score)
        if len(points) == wanted and wanted < total:
            # Every point near the last hit's score: ties go by key, not by
            # the order Qdrant returns them in, and its float32 scores are
            # only close to the exact ones below.
            points = search(total, max(points[-1].score, -1.0 if min_score is None else min_score))
        hits = []
        for p in points:
            # Qdrant's float32 score of one point changes from call to call
            # (recall.deterministic caught 0.5388159 against 0.5388158 for
            # the same entry and query, and so did the vectors it returns):
            # the score is the exact cosine of the integer vectors, the
            # same bits every time.
            score = cosine(sparse, qq, _unpack(p.payload["features"]), p.payload["norm2"])
            if min_score is None or score >= min_score:
                hits.append((score, p.payload))
        hits.sort(key=lambda h: (-h[0], h[1]["key"]))
        return [dict(_entry(payload), score=score) for score, payload in hits[:limit]]

    def export_page(self, cursor, limit):
        every = {}
        for ns in self._namespace_names():
            for e in self._entries(ns):
                every[(ns, e["key"])] = e
        page, next_cursor = tp.page_after(sorted(every), cursor, limit)
        records = []
        for position in page:
            e = every[position]
            records.append(
                tp.record(e["namespace"], e["key"], e["content"], e["category"], e["session_id"], e["taint"], e["timestamp"])
            )
        return {"records": records, "next_cursor": next_cursor}

    def import_records(self, records):
        imported, failures, grouped = 0, [], {}
        for index, r in enumerate(records):
            try:
                tp.validate_record(r)
            except tp.DriverError as error:
                failures.append(tp.import_failure(index, r, error))
                continue
            grouped.setdefault(r["namespace"], []).append(
                self._point(
                    r["namespace"], r["key"], r["content"], r["category"], r["session_id"], r["taint"], r["timestamp"]
                )
            )
            imported += 1
        self._write(grouped)
        return {"imported": imported, "failures": failures}


def _entry(payload):
    return tp.entry(
        payload["id"],
        payload["namespace"],
        payload["key"],
        payload["content"],
        payload["category"],
        payload["timestamp"],
        payload["session_id"],
        payload["taint"],
    )
