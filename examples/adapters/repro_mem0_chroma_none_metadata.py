"""Mem0 over its Chroma store cannot add a memory whose metadata holds None.

mem0ai 2.2.1, vector_stores/chroma.py, over chromadb 1.5.9: ``add``
passes the memory's metadata to Chroma's ``collection.add`` as it is, and
Chroma refuses a ``None`` value (``Cannot convert Python object to
MetadataValue``), so ``Memory.add(text, metadata={"session_id": None},
infer=False)`` raises. ``Memory.add`` takes ``metadata`` as any dict, and
Mem0's other stores (FAISS, Qdrant, pgvector) keep a None. Found through
tinymemory.adapters.mem0, which writes every field on every write
(``update`` merges metadata, so a field left out would keep its old
value): 54 of 59 checks fail on this one fault (tried outside CI,
docs/adapters.md).

    MEM0_TELEMETRY=false python repro_mem0_chroma_none_metadata.py   # exits 1 while the fault is there
"""

import os
import shutil
import sys
import tempfile

os.environ.setdefault("MEM0_TELEMETRY", "false")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")  # chromadb's own

from langchain_core.embeddings import DeterministicFakeEmbedding  # noqa: E402
from langchain_core.language_models.fake_chat_models import FakeListChatModel  # noqa: E402
from mem0 import Memory  # noqa: E402

path = tempfile.mkdtemp()
try:
    memory = Memory.from_config(
        {
            "vector_store": {"provider": "chroma", "config": {"path": path, "collection_name": "repro"}},
            "embedder": {"provider": "langchain", "config": {"model": DeterministicFakeEmbedding(size=16), "embedding_dims": 16}},
            "llm": {"provider": "langchain", "config": {"model": FakeListChatModel(responses=["unused"])}},
            "history_db_path": ":memory:",
        }
    )
    kept = memory.add("with a session", user_id="me", metadata={"session_id": "s1"}, infer=False)
    print("metadata {'session_id': 's1'}: added", [r["id"] for r in kept["results"]])
    try:
        memory.add("without a session", user_id="me", metadata={"session_id": None}, infer=False)
    except Exception as e:  # noqa: BLE001  (chromadb's error type is internal)
        print(f"FAULT: add(metadata={{'session_id': None}}) raised {type(e).__name__}: {e}")
        sys.exit(1)
    print("fixed: a memory whose metadata holds None is added")
finally:
    shutil.rmtree(path, ignore_errors=True)
