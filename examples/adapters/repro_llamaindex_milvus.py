"""Two faults of llama-index-vector-stores-milvus's MilvusVectorStore over
Milvus Lite, each with plain calls.

llama-index-vector-stores-milvus 1.2.0 with pymilvus 2.6.17 (it needs
pymilvus < 3) and milvus-lite 3.2.2, a local file, cosine. Found through
tinymemory.adapters.llamaindex (a collection per store); each fault below
fails the checks named:

1. similarity_top_k = 2^63 - 1 raises MilvusException "array is too big"
   (Milvus Lite allocates that many results: recall.huge_limit), as it
   does through langchain-milvus (repro_langchain_milvus.py).
2. A text past 65,535 characters raises MilvusException "VARCHAR field
   'text' value length ... exceeds max_length=65535" (the text field is a
   VARCHAR of 65,535, Milvus's longest: store.big_content_round_trip,
   portability.import_hostile).

    pip install llama-index-vector-stores-milvus==1.2.0 pymilvus==2.6.17 milvus-lite==3.2.2
    python repro_llamaindex_milvus.py   # exits 1 while a fault is there
"""

import logging
import os
import shutil
import sys
import tempfile

from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import VectorStoreQuery
from llama_index.vector_stores.milvus import MilvusVectorStore

# pymilvus logs each failed insert with its whole entity: the faults are printed below.
logging.disable(logging.CRITICAL)
directory = tempfile.mkdtemp(prefix="repro-milvus-")
store = MilvusVectorStore(
    uri=os.path.join(directory, "milvus.db"), collection_name="c", dim=4, similarity_metric="COSINE"
)
faults = []
store.add([TextNode(id_="a", text="lantern", embedding=[1.0, 0.0, 0.0, 0.0])])

# 1. A huge similarity_top_k.
try:
    store.query(VectorStoreQuery(query_embedding=[1.0, 0.0, 0.0, 0.0], similarity_top_k=2**63 - 1))
except Exception as e:  # noqa: BLE001 - the fault is the exception
    faults.append(f"1. similarity_top_k = 2^63 - 1: {type(e).__name__}: {e}")

# 2. A long text.
try:
    store.add([TextNode(id_="big", text="x" * 70_000, embedding=[0.0, 1.0, 0.0, 0.0])])
except Exception as e:  # noqa: BLE001
    faults.append(f"2. a text of 70,000 characters: {type(e).__name__}: {e}")

shutil.rmtree(directory)
for fault in faults:
    print("FAULT:", fault.splitlines()[0])
sys.exit(1 if faults else 0)
