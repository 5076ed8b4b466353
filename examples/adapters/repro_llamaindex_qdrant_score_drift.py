"""llama-index-vector-stores-qdrant over Qdrant's embedded engine: the same
query, asked again with nothing written between, answers other scores.

qdrant-client 1.20.0's local mode (``QdrantClient(":memory:")`` or a
path) computes a cosine search in ``local/distances.py`` by dividing the
collection's stored float32 vectors by their norms *in place* (its comment
calls this "a no-op in practice", the vectors being normalized at upsert).
In float32 it is not: a unit vector's norm rounds to 0.99999994 or
1.0000001, so every search rewrites the last bits of stored vectors, and
the next search scores them differently. A read changes the stored data:
``retrieve(with_vectors=True)`` answers other vectors after a search than
before it. LlamaIndex's ``VectorStoreQuery`` returns the store's
similarities, so its answers drift with each query (tinymemory's
recall.limit, recall.deterministic, properties.custom_spelling,
properties.concurrent_equals_sequential through
tinymemory.adapters.llamaindex: equal calls, scores a few float32 ulps
apart). The vectors here have k equal components, as a hashed embedding
of k distinct words has.

    python repro_llamaindex_qdrant_score_drift.py   # exits 1 while the fault is there
"""

import sys

from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import VectorStoreQuery
from llama_index.vector_stores.qdrant import QdrantVectorStore
from qdrant_client import QdrantClient

DIMS = 16
client = QdrantClient(":memory:")
store = QdrantVectorStore(collection_name="repro", client=client)
embeddings = [[1.0] * k + [0.0] * (DIMS - k) for k in range(1, DIMS + 1)]
embeddings += [[1.0] * k + [2.0] + [0.0] * (DIMS - k - 1) for k in range(1, DIMS)]
ids = store.add([TextNode(text=f"text {i}", embedding=e) for i, e in enumerate(embeddings)])
query = VectorStoreQuery(query_embedding=[1.0] * DIMS, similarity_top_k=len(embeddings))


def ask():
    result = store.query(query)
    return dict(zip(result.ids, result.similarities))


def stored():
    return {p.id: p.vector for p in client.retrieve("repro", [str(i) for i in ids], with_vectors=True)}


vectors_before = stored()
first = ask()
second = ask()
vectors_after = stored()
moved = sorted((first[i], second[i]) for i in first if first[i] != second[i])
rewritten = sum(1 for i in vectors_before if vectors_before[i] != vectors_after[i])
print(f"{len(moved)} of {len(first)} similarities differ between two equal queries, e.g. {moved[:2]}")
print(f"{rewritten} of {len(vectors_before)} stored vectors differ after the two queries (nothing was written)")
if moved or rewritten:
    print("FAULT: a query rewrites the stored vectors, and equal queries answer different similarities")
    sys.exit(1)
print("fixed: equal queries answer equal similarities")
