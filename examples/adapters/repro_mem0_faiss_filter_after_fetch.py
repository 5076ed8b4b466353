"""Mem0's FAISS store applies a search's filters after its nearest k.

mem0ai 2.2.1, vector_stores/faiss.py: search() asks the index for
``top_k * 2`` vectors when filters are given, then drops those outside the
filters, so a user's memory that is not among the index's nearest
``2 * top_k`` (Memory.search asks ``max(4 * top_k, 60)``) is never found,
whatever ``top_k``. Found by tinymemory's namespace.reserved_words (a
namespace, Mem0's user_id, beside the others' entries) through
tinymemory.adapters.mem0.

    MEM0_TELEMETRY=false python repro_mem0_faiss_filter_after_fetch.py   # exits 1 while the fault is there
"""

import os
import sys
import tempfile

os.environ.setdefault("MEM0_TELEMETRY", "false")

from langchain_core.embeddings import DeterministicFakeEmbedding  # noqa: E402
from langchain_core.language_models.fake_chat_models import FakeListChatModel  # noqa: E402
from mem0 import Memory  # noqa: E402

memory = Memory.from_config(
    {
        "vector_store": {"provider": "faiss", "config": {"path": tempfile.mkdtemp(), "embedding_model_dims": 16}},
        "embedder": {"provider": "langchain", "config": {"model": DeterministicFakeEmbedding(size=16), "embedding_dims": 16}},
        "llm": {"provider": "langchain", "config": {"model": FakeListChatModel(responses=["unused"])}},
        "history_db_path": ":memory:",
    }
)
# 200 memories of another user, each the query's very text (distance 0),
# then one of ours.
for i in range(200):
    memory.add("comet", user_id="others", infer=False)
memory.add("kept", user_id="me", infer=False)
print("get_all:", [m["memory"] for m in memory.get_all(filters={"user_id": "me"})["results"]])
hits = memory.search("comet", filters={"user_id": "me"}, top_k=10, threshold=0.0)["results"]
print("search:", [h["memory"] for h in hits])
if not hits:
    print("FAULT: the search filtered on user_id 'me' found none of its one memory: the filter applied after the nearest k")
    sys.exit(1)
print("fixed")
