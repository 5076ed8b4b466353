"""LlamaIndex's FAISS stores take no metadata filter, FaissVectorStore
cannot delete, and FaissMapVectorStore reuses a live FAISS id after a
delete.

llama-index-vector-stores-faiss 0.7.0 with faiss-cpu 1.15.1:

1. `query` with any `MetadataFilters` raises `ValueError: Metadata filters
   not implemented for Faiss yet.` (both classes), so no recall can be
   pinned to a namespace: through tinymemory.adapters.llamaindex every
   check that recalls fails on that one error.
2. `FaissVectorStore.delete` raises `NotImplementedError: Delete not yet
   implemented for Faiss index.`, so no entry can be replaced or
   forgotten; `FaissMapVectorStore` (over an `IndexIDMap2`) deletes.
3. `FaissMapVectorStore.add` gives each vector the FAISS id
   `index.ntotal`, the count of vectors held, which a delete lowers: after
   adding a and b (ids 0 and 1) and deleting a, c gets id 1, b's. The
   index then holds two vectors of id 1 and maps id 1 to c alone, so a
   query near b answers c, and b is never answered again. No check sees
   this: every recall fails on (1) first, and get and list read the
   docstore beside the store (a FAISS store keeps no text), not FAISS.

    pip install llama-index-core==0.14.25 llama-index-vector-stores-faiss==0.7.0 faiss-cpu==1.15.1
    python repro_llamaindex_faiss.py   # exits 1 while any of the three holds
"""

import sys

import faiss
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import (
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)
from llama_index.vector_stores.faiss import FaissMapVectorStore, FaissVectorStore


def unit(i):
    return [1.0 if j == i else 0.0 for j in range(4)]


def node(name, i):
    return TextNode(id_=name, text=name, metadata={"namespace": "n"}, embedding=unit(i))


faults = []
plain = FaissVectorStore(faiss_index=faiss.IndexFlatIP(4))
plain.add([node("a", 0)])
try:
    plain.query(
        VectorStoreQuery(
            query_embedding=unit(0),
            similarity_top_k=1,
            filters=MetadataFilters(filters=[MetadataFilter(key="namespace", value="n", operator=FilterOperator.EQ)]),
        )
    )
except ValueError as e:
    faults.append(f"query with MetadataFilters: ValueError: {e}")
try:
    plain.delete("a")
except NotImplementedError as e:
    faults.append(f"FaissVectorStore.delete: NotImplementedError: {e}")

mapped = FaissMapVectorStore(faiss_index=faiss.IndexIDMap2(faiss.IndexFlatIP(4)))
mapped.add([node("a", 0), node("b", 1)])
mapped.delete("a")
mapped.add([node("c", 2)])
near_b = mapped.query(VectorStoreQuery(query_embedding=unit(1), similarity_top_k=1))
everything = mapped.query(VectorStoreQuery(query_embedding=unit(1), similarity_top_k=3))
print(f"after add(a, b), delete(a), add(c): nearest to b's vector {near_b.ids}, all {everything.ids}")
if near_b.ids != ["b"]:
    faults.append(
        f"FaissMapVectorStore: after add(a, b), delete(a), add(c), the query at b's own vector answered "
        f"{near_b.ids} (all nodes: {everything.ids}): c was given b's FAISS id (index.ntotal after the delete)"
    )
for fault in faults:
    print("FAULT:", fault)
sys.exit(1 if faults else 0)
