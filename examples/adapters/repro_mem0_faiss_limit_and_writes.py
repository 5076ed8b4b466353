"""Mem0 over its FAISS store: a search with a huge top_k raises, and every
add rewrites the whole store, so 3,000 adds take longer than 30 s.

mem0ai 2.2.1: Memory.search asks the store for ``max(top_k * 4, 60)``
vectors, and vector_stores/faiss.py passes twice that to faiss, whose
numpy result array cannot be that large (``ValueError: Maximum allowed
dimension exceeded``) for a top_k past what any store holds (tinymemory's
recall.huge_limit asks 2**63 - 1: "every hit"). Its insert() ends with
_save(), which writes the whole index and docstore to the directory: an
add's time grows with the memories held, and the 3,000 adds of
tinymemory's recall.namespace_isolation (one store_many, which the adapter
sends as one add each: Mem0 has no batch add of distinct metadata) take
longer than the suite's 30 s request timeout, on tmpfs.

    MEM0_TELEMETRY=false python repro_mem0_faiss_limit_and_writes.py   # exits 1 while a fault is there
"""

import os
import sys
import tempfile
import time

os.environ.setdefault("MEM0_TELEMETRY", "false")

from langchain_core.embeddings import DeterministicFakeEmbedding  # noqa: E402
from langchain_core.language_models.fake_chat_models import FakeListChatModel  # noqa: E402
from mem0 import Memory  # noqa: E402

memory = Memory.from_config(
    {
        "vector_store": {"provider": "faiss", "config": {"path": tempfile.mkdtemp(dir="/dev/shm"), "embedding_model_dims": 16}},
        "embedder": {"provider": "langchain", "config": {"model": DeterministicFakeEmbedding(size=16), "embedding_dims": 16}},
        "llm": {"provider": "langchain", "config": {"model": FakeListChatModel(responses=["unused"])}},
        "history_db_path": ":memory:",
    }
)
faults = []
memory.add("lantern", user_id="me", infer=False)
try:
    memory.search("lantern", filters={"user_id": "me"}, top_k=2**63 - 1, threshold=0.0)
except Exception as e:
    faults.append(f"search(top_k=2**63 - 1) raised {type(e).__name__}: {e}")
start = time.perf_counter()
for i in range(3000):
    memory.add(f"entry {i}", user_id="me", infer=False)
took = time.perf_counter() - start
print(f"3,000 adds: {took:.1f} s")
if took > 30:
    faults.append(f"3,000 adds took {took:.1f} s, past the suite's 30 s request timeout")
for f in faults:
    print("FAULT:", f)
sys.exit(1 if faults else 0)
