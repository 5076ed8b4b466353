"""InMemoryStore.batch raises when two puts of one batch embed the same text.

langgraph-checkpoint 4.3.2, langgraph/store/memory/__init__.py:
_extract_texts keys the texts to embed by text (one embedding per distinct
text), and _insertinmem_store zips those embeddings with one index per
put, so a batch holding one text twice has fewer embeddings than indices:
"ValueError: Number of embeddings (1) does not match number of indices (2)".
Found by tinymemory's recall.namespace_isolation, portability.import_failures
and properties.export_round_trip (and the corpus load) through
tinymemory.adapters.langgraph. Expected: both items stored and searchable.

    python repro_langgraph_inmemory_duplicate_texts.py   # exits 1 while the fault is there
"""

import sys

from langgraph.store.base import PutOp
from langgraph.store.memory import InMemoryStore


def embed(texts):
    return [[1.0, float(len(t))] for t in texts]


store = InMemoryStore(index={"dims": 2, "embed": embed, "fields": ["text"]})
try:
    store.batch([PutOp(("docs",), "a", {"text": "same"}), PutOp(("docs",), "b", {"text": "same"})])
except ValueError as e:
    print(f"FAULT: {e}")
    sys.exit(1)
print("fixed:", [i.key for i in store.search(("docs",), query="same")])
