"""llama-index-vector-stores-qdrant's QdrantVectorStore: a query before the
first add raises instead of answering nothing.

llama-index-vector-stores-qdrant 0.10.4 creates its collection at the
first add (it needs the vectors' size), so a store made over a client
without that collection, queried first, raises ``ValueError: Collection
tinymemory not found``: an empty store is an error, not an empty answer.
Found by tinymemory's store.opens_empty and model.differential (a recall
first) through tinymemory.adapters.llamaindex.

    python repro_llamaindex_qdrant_query_before_add.py   # exits 1 while the fault is there
"""

import sys

from llama_index.core.vector_stores.types import VectorStoreQuery
from llama_index.vector_stores.qdrant import QdrantVectorStore
from qdrant_client import QdrantClient

store = QdrantVectorStore(collection_name="tinymemory", client=QdrantClient(":memory:"))
try:
    result = store.query(VectorStoreQuery(query_embedding=[1.0, 0.0, 0.0], similarity_top_k=3))
except ValueError as e:
    print(f"FAULT: a query of the empty store raised ValueError: {e}")
    sys.exit(1)
print("fixed:", result.ids)
