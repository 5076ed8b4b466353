"""Chroma through llama-index-vector-stores-chroma: a filtered query loses
entries the filter allows beside many others, and a huge top_k raises.

chromadb 1.5.9's HNSW search with a ``where`` filter (MetadataFilters of
namespace, category, session) answers fewer than the entries the filter
allows beside many entries of a few repeated vectors: 10 entries of one
namespace beside 3,000 of others (three vectors, a thousand entries each,
as the suite's bulk write of three texts) come back as fewer than 10, and
how many varies from run to run (tinymemory's recall.namespace_isolation, marked
nondeterministic in docs/compatibility.md). ``similarity_top_k`` past
Chroma's 32-bit ``n_results`` raises ``OverflowError`` (recall.huge_limit
asks 2**63 - 1: "every hit"). Both through tinymemory.adapters.llamaindex.

    python repro_llamaindex_chroma.py   # exits 1 while a fault is there
"""

import random
import sys

import chromadb
from chromadb.config import Settings
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import (
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)
from llama_index.vector_stores.chroma import ChromaVectorStore

DIMS = 32
rng = random.Random(7)


def vector(center, spread):
    return [c + rng.uniform(-spread, spread) for c in center]


client = chromadb.EphemeralClient(Settings(anonymized_telemetry=False))
only_a = MetadataFilters(filters=[MetadataFilter(key="ns", value="a", operator=FilterOperator.EQ)])
center = [1.0] * DIMS


def trial(n):
    store = ChromaVectorStore(chroma_collection=client.create_collection(f"repro{n}", metadata={"hnsw:space": "cosine"}))
    store.add([TextNode(id_=f"a{i}", text=f"a{i}", metadata={"ns": "a"}, embedding=vector(center, 1.0)) for i in range(10)])
    # The others: three vectors, a thousand entries each, one the query's own.
    texts = [center, vector(center, 1.0), vector(center, 1.0)]
    store.add([TextNode(id_=f"b{i}", text=f"b{i}", metadata={"ns": "b"}, embedding=texts[i % 3]) for i in range(3000)])
    return store, len(store.query(VectorStoreQuery(query_embedding=center, similarity_top_k=10, filters=only_a)).ids)


faults = []
counts = [trial(n)[1] for n in range(5)]
print("hits of the 10 entries of ns 'a', in 5 trials:", counts)
if any(c != 10 for c in counts):
    faults.append(f"a query filtered on ns 'a' (10 entries) with similarity_top_k 10 answered {counts} in 5 trials")
store = trial(5)[0]
try:
    store.query(VectorStoreQuery(query_embedding=center, similarity_top_k=2**63 - 1, filters=only_a))
except OverflowError as e:
    faults.append(f"similarity_top_k 2**63 - 1 raised OverflowError: {e}")
for f in faults:
    print("FAULT:", f)
sys.exit(1 if faults else 0)
