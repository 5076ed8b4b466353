#!/usr/bin/env python3
"""An in-memory, vector-store-like tinymemory driver over the exec protocol,
declaring the `semantic` recall profile. Standard library only: the
embedding is a fixed function of the text, with no model to download.

    tinymemory-conformance run --driver "exec:python3 examples/python/semantic_driver.py"

Storage is memory_driver.py's (dicts, the same validation); each entry's
vector is computed when it is stored. `recall` is what a vector store does,
by brute force over the one namespace searched (None means "global"):

1. The query's vector is computed as an entry's is (below).
2. Every entry of the namespace passing the category and session filters is
   scored by the cosine similarity of its vector with the query's, higher is
   better, in [-1, 1]; entries scoring below `min_score` are dropped.
3. The rest are ordered by score descending, then key ascending, and the
   first `limit` are the hits: min(limit, entries left), whatever words
   they share with the query. An empty or whitespace-only query, and
   `limit` 0, give no hits; any other query is ranked (a query with no word,
   such as "*", scores every entry 0.0).

Embedding (signed feature hashing into DIMENSIONS buckets):

- The features of a text are, for each distinct word (tp.words: the
  contract's words, lowercased), the word itself, weight WORD_WEIGHT, and
  each character trigram of the word padded as "^word$", weight 1. A feature
  counts once per text, however often it occurs.
- A feature is hashed with BLAKE2b (8-byte digest; the personalisation tells
  words from trigrams). The digest, read as a little-endian integer h, picks
  bucket h % DIMENSIONS and a sign from bit 32 of h; the feature adds
  sign * weight to that bucket. (hashlib, not hash(): Python salts hash() per
  process, and every process of a driver must rank alike.)
- Components are integers, so dot products are exact: two vectors pointing
  the same way (an entry's own content as the query, or texts with the same
  word set) score exactly 1.0, any others at most the float just below 1.0,
  so an entry's own content ranks it first, tied only with entries whose
  vector points the same way, and ties go by key. The same recall gives the
  same scores, to the bit.

Optional ops: all three, memory_driver.py's (the vectors follow every
write). A cosine score depends on the query and the entry only, so no
namespace's entries change another's (recall.namespace_isolation).

The Rust semantic reference (crates/tinymemory-reference/src/embedding.rs)
follows the same plan with another hash (FNV-1a), bucket count and word
weight: this is an independent implementation, not a port.
"""

import hashlib
import heapq
import math
import os
import sys
from functools import lru_cache

# Importing the sibling modules must not leave __pycache__ in examples/.
sys.dont_write_bytecode = True

try:
    import tinymemory.protocol as tp
except ImportError:  # a checkout, nothing installed: the package is in python/
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import tinymemory.protocol as tp
from memory_driver import MemoryStore  # noqa: E402

DIMENSIONS = 4096
WORD_WEIGHT = 3
# The largest float below 1.0: the ceiling of a score whose vectors differ.
BELOW_ONE = 1.0 - 2.0**-53
# Unicode White_Space, the characters Rust's str::trim removes: a query of
# these alone is blank. (Python's str.isspace also counts U+001C..U+001F.)
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


def _feature(kind, text, weight):
    """One feature: (kind, text) identifies it; it adds sign * weight to its
    bucket. kind is b"word" or b"gram"."""
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8, person=kind).digest()
    h = int.from_bytes(digest, "little")
    sign = -1 if (h >> 32) & 1 else 1
    return (kind, text), h % DIMENSIONS, sign * weight


@lru_cache(maxsize=1 << 16)
def _word_features(word):
    """The features of one (lowercased) word: itself and its trigrams."""
    padded = "^" + word + "$"
    grams = (_feature(b"gram", padded[i : i + 3], 1) for i in range(len(padded) - 2))
    return (_feature(b"word", word, WORD_WEIGHT), *grams)


def embed(text):
    """The vector of `text` as {bucket: non-zero integer component}, and its
    squared norm."""
    features = {}  # a feature counts once per text
    for word in set(tp.words(text)):
        for identity, bucket, value in _word_features(word):
            features[identity] = (bucket, value)
    vector = {}
    for bucket, value in features.values():
        vector[bucket] = vector.get(bucket, 0) + value
    vector = {b: v for b, v in vector.items() if v != 0}
    return vector, sum(v * v for v in vector.values())


def cosine(query, entry):
    """The cosine similarity of two (vector, squared norm) pairs: exactly
    1.0 when they point the same way, else at most BELOW_ONE; 0.0 when
    either is the zero vector (a text with no word)."""
    (q, qq), (d, dd) = query, entry
    if qq == 0 or dd == 0:
        return 0.0
    qd = sum(q[b] * d[b] for b in q.keys() & d.keys())
    if qd > 0 and qd * qd == qq * dd:
        return 1.0
    score = qd / math.sqrt(qq * dd)
    # `+ 0.0` turns -0.0 into 0.0, so equal scores are equal bits.
    return max(-1.0, min(score, BELOW_ONE)) + 0.0


def is_blank(query):
    return all(c in WHITE_SPACE for c in query)


class SemanticStore(MemoryStore):
    recall_profile = tp.SEMANTIC

    def __init__(self):
        super().__init__()
        # (namespace, key) -> embed(content) of the entry stored there
        self.vectors = {}

    def reset(self):
        super().reset()
        self.vectors = {}

    def store(self, namespace, key, content, category, session_id, taint):
        super().store(namespace, key, content, category, session_id, taint)  # validates
        self.vectors[(namespace, key)] = embed(content)

    def store_many(self, entries):
        super().store_many(entries)  # validates them all first
        for e in entries:
            self.vectors[(e["namespace"], e["key"])] = embed(e["content"])

    def _put(self, r):
        # import_records writes through here, after validating the record.
        super()._put(r)
        self.vectors[(r["namespace"], r["key"])] = embed(r["content"])

    def forget(self, namespace, key):
        removed = super().forget(namespace, key)
        self.vectors.pop((namespace, key), None)
        return removed

    def recall(self, query, limit, namespace, category, session_id, min_score):
        namespace = tp.GLOBAL_NAMESPACE if namespace is None else namespace
        tp.validate_namespace(namespace)
        tp.validate_min_score(min_score)
        if limit == 0 or is_blank(query):
            return []
        q = embed(query)
        scored = []
        for key, e in self.spaces.get(namespace, {}).items():
            if category is not None and e["category"] != category:
                continue
            if session_id is not None and e["session_id"] != session_id:
                continue
            score = cosine(q, self.vectors[(namespace, key)])
            if min_score is None or score >= min_score:
                scored.append((-score, key, e))
        best = heapq.nsmallest(limit, scored, key=lambda s: (s[0], s[1]))
        return [dict(e, score=-neg) for neg, _, e in best]


if __name__ == "__main__":
    tp.serve(SemanticStore(), "python-semantic")
