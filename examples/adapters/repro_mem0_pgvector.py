"""Mem0 over its pgvector store: a memory or metadata holding U+0000 cannot
be added, a huge top_k overflows, and search's threshold lets through
hits scoring below it.

mem0ai 2.2.1, vector_stores/pgvector.py, on PostgreSQL 16 with pgvector:

- the payload is jsonb, which holds no U+0000: ``add`` of such a text
  raises ``UntranslatableCharacter`` (tinymemory's
  store.hostile_text_round_trip, store.big_content_round_trip,
  recall.hostile_queries, portability.round_trip,
  portability.import_hostile);
- Memory.search asks the store for ``max(top_k * 4, 60)`` rows, past
  bigint for a top_k past what any store holds: ``NumericValueOutOfRange``
  (recall.huge_limit asks 2**63 - 1);
- search's ``threshold`` is documented as "Minimum score for a memory to
  be included", but it gates the semantic score before Mem0 combines it
  with its keyword (full-text) score, which this store provides: a hit
  comes back with a score below the threshold (recall.min_score).

    TINYMEMORY_POSTGRES_URL=postgres://... MEM0_TELEMETRY=false python repro_mem0_pgvector.py   # exits 1 while a fault is there
"""

import os
import sys
import uuid

os.environ.setdefault("MEM0_TELEMETRY", "false")

from langchain_core.embeddings import DeterministicFakeEmbedding  # noqa: E402
from langchain_core.language_models.fake_chat_models import FakeListChatModel  # noqa: E402
from mem0 import Memory  # noqa: E402

memory = Memory.from_config(
    {
        "vector_store": {
            "provider": "pgvector",
            "config": {
                "connection_string": os.environ["TINYMEMORY_POSTGRES_URL"],
                "collection_name": "repro_" + uuid.uuid4().hex[:12],
                "embedding_model_dims": 16,
                "hnsw": False,
                "diskann": False,
            },
        },
        "embedder": {"provider": "langchain", "config": {"model": DeterministicFakeEmbedding(size=16), "embedding_dims": 16}},
        "llm": {"provider": "langchain", "config": {"model": FakeListChatModel(responses=["unused"])}},
        "history_db_path": ":memory:",
    }
)
faults = []
try:
    memory.add("before\0after", user_id="me", infer=False)
except Exception as e:
    faults.append(f"add of a text holding U+0000 raised {type(e).__name__}: {str(e).splitlines()[0]}")
for text in ("alpha beta gamma", "alpha beta", "alpha", "delta"):
    memory.add(text, user_id="me", infer=False)
try:
    memory.search("alpha", filters={"user_id": "me"}, top_k=2**63 - 1, threshold=0.0)
except Exception as e:
    faults.append(f"search(top_k=2**63 - 1) raised {type(e).__name__}: {str(e).splitlines()[0]}")
for threshold in (0.1, 0.2, 0.3, 0.4, 0.5):
    hits = memory.search("alpha beta gamma", filters={"user_id": "me"}, top_k=10, threshold=threshold)["results"]
    below = [(h["memory"], h["score"]) for h in hits if h["score"] < threshold]
    if below:
        faults.append(f"search with threshold {threshold} answered hits scoring below it: {below}")
        break
memory.vector_store.delete_col()
for f in faults:
    print("FAULT:", f)
sys.exit(1 if faults else 0)
