"""A deterministic hashed embedding for conformance runs: a test tool, not a model.

``HashedEmbedding(dims)`` turns a text into a unit vector of ``dims``
floats with no model and no download: signed feature hashing (Weinberger
et al., "Feature Hashing for Large Scale Multitask Learning", 2009) of the
text's words (``tinymemory.protocol.words``: the contract's words,
lowercased) and of their character trigrams, each feature once per text,
with blake2b as the hash so every process and every machine gives the same
vector for the same text. Texts sharing words are near; texts sharing none
are far. It knows nothing of meaning (``car`` and ``automobile`` are as far
apart as any two words): use it to test a store's mechanics, never to judge
retrieval quality.

It is usable wherever a framework takes an embedding:

- as a LangChain ``Embeddings`` (``embed_documents``, ``embed_query`` and
  their async forms; registered as a virtual subclass of
  ``langchain_core.embeddings.Embeddings`` when langchain-core is
  installed, so ``isinstance`` checks pass);
- as a LangGraph index ``embed`` (``IndexConfig(dims=..., embed=...)``):
  the object is also a callable from a list of texts to a list of vectors.

No text embeds to the zero vector, and no component is NaN or infinite:
dimension 0 is a constant bias that no hashed feature uses, so the norm is
at least that bias's. A text with no word (``""``, ``"?!"``, ``'"'``)
hashes its characters instead, so ``"?!"`` and ``'"'`` are two vectors; the
empty text is the bias alone. Cosine similarities are therefore in (0, 1]
(every pair shares the bias), and the squared L2 distance between two
vectors is ``2 - 2 * cosine``, in [0, 2).
"""

import collections
import functools
import hashlib
import math
import threading

from .. import protocol as tp

DEFAULT_DIMS = 256
# A word counts three times a trigram: two texts sharing a whole word are
# nearer than two sharing a few trigrams of different words.
WORD_WEIGHT = 3.0
TRIGRAM_WEIGHT = 1.0
CHAR_WEIGHT = 1.0
# The bias of dimension 0: small beside a single word (3.0), so it moves
# no ranking between texts that share words, and never zero.
BIAS = 0.5


# Remembered: a run embeds the same few words and trigrams over and over,
# and embedding was 5 to 13 % of the time a driver process spent on
# requests over PostgresStore and Chroma (docs/benchmarks.md, "Through the
# adapters"). A pure function of its arguments, so the vectors are the same.
@functools.lru_cache(maxsize=1 << 16)
def _bucket(feature, dims):
    """(bucket in 1..dims-1, sign) of a feature string: blake2b, not hash(),
    which Python salts per process."""
    digest = hashlib.blake2b(feature.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return 1 + (value >> 1) % (dims - 1), (1.0 if value & 1 else -1.0)


# The vectors of the texts embedded last, by (text, dims): a run embeds
# about 20,000 texts of which 1,200 differ (the same queries and contents
# in every property case), and the embedding was the largest of the
# adapter's own shares of a Chroma driver process's time (docs/benchmarks.md,
# "Chroma's driver process, sampled"). Bounded by texts and by characters,
# so one huge content is not kept beside thousands of others.
CACHE_TEXTS = 4096
CACHE_CHARS = 1 << 22


class _Remembered:
    """A least-recently-used map from (text, dims) to a vector (a tuple),
    holding at most CACHE_TEXTS texts of CACHE_CHARS characters in all."""

    def __init__(self, texts=CACHE_TEXTS, chars=CACHE_CHARS):
        self._vectors = collections.OrderedDict()
        self._texts, self._chars, self._held = texts, chars, 0
        # An Embeddings may be called from a framework's worker threads.
        self._lock = threading.Lock()

    def get(self, text, dims):
        with self._lock:
            vector = self._vectors.get((text, dims))
            if vector is not None:
                self._vectors.move_to_end((text, dims))
            return vector

    def put(self, text, dims, vector):
        if len(text) > self._chars:
            return
        with self._lock:
            if (text, dims) in self._vectors:
                return
            self._vectors[(text, dims)] = vector
            self._held += len(text)
            while len(self._vectors) > self._texts or self._held > self._chars:
                (old, _), _ = self._vectors.popitem(last=False)
                self._held -= len(old)


_remembered = _Remembered()


def _features(text):
    """The (feature, weight) pairs of `text`, each feature once."""
    found = {}
    ws = tp.words(text)
    for w in ws:
        found.setdefault("w:" + w, WORD_WEIGHT)
        padded = f"\x02{w}\x03"
        for i in range(len(padded) - 2):
            found.setdefault("t:" + padded[i : i + 3], TRIGRAM_WEIGHT)
    if not ws:
        for c in text:
            found.setdefault("c:" + c, CHAR_WEIGHT)
    return found


class HashedEmbedding:
    """Deterministic hashed embedding of ``dims`` dimensions (at least 2).

    ``embed_query(text)`` and ``embed_documents(texts)`` return Python
    floats, unit length, the same for the same text in every process;
    calling the object with a list of texts is ``embed_documents``. Raises
    ValueError for ``dims`` below 2 and TypeError for a text that is not a
    ``str``.
    """

    def __init__(self, dims=DEFAULT_DIMS):
        if isinstance(dims, bool) or not isinstance(dims, int) or dims < 2:
            raise ValueError(f"dims is {dims!r}; expected a whole number of at least 2")
        self.dims = dims

    def __repr__(self):
        return f"HashedEmbedding(dims={self.dims})"

    def embed_query(self, text):
        """The unit vector of `text` (a list of ``dims`` floats)."""
        if not isinstance(text, str):
            raise TypeError(f"HashedEmbedding embeds str, got {type(text).__name__}")
        known = _remembered.get(text, self.dims)
        if known is None:
            known = self._embed(text)
            _remembered.put(text, self.dims, known)
        # A new list each time: a caller may change the one it gets.
        return list(known)

    def _embed(self, text):
        vector = [0.0] * self.dims
        vector[0] = BIAS
        for feature, weight in _features(text).items():
            bucket, sign = _bucket(feature, self.dims)
            vector[bucket] += sign * weight
        norm = math.sqrt(math.fsum(x * x for x in vector))
        if norm == 0.0 or not math.isfinite(norm):
            # Unreachable: dimension 0 holds BIAS and no feature lands
            # there. Kept as an assertion of the module's promise.
            raise AssertionError(f"HashedEmbedding produced a vector of norm {norm}")
        return tuple(x / norm for x in vector)

    def embed_documents(self, texts):
        """[embed_query(t) for t in texts]."""
        return [self.embed_query(t) for t in texts]

    async def aembed_query(self, text):
        """embed_query, for async callers (LangChain's ``aembed_query``)."""
        return self.embed_query(text)

    async def aembed_documents(self, texts):
        """embed_documents, for async callers."""
        return self.embed_documents(texts)

    def __call__(self, texts):
        """embed_documents: LangGraph's ``EmbeddingsFunc`` shape."""
        return self.embed_documents(list(texts))


def _register_with_langchain():
    # A virtual subclass keeps this module free of imports: the base
    # package has no dependencies, and langchain-core is only needed by
    # whoever asks `isinstance(x, Embeddings)`.
    try:
        from langchain_core.embeddings import Embeddings
    except ImportError:
        return
    Embeddings.register(HashedEmbedding)


_register_with_langchain()
