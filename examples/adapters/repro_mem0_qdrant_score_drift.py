"""Mem0 over Qdrant's embedded engine: the same search, asked again with
nothing written between, answers other scores.

mem0ai 2.2.1's qdrant store on qdrant-client 1.20.0's local mode (a
``path``, as Mem0's default qdrant config uses) inherits the engine's
fault (repro_llamaindex_qdrant_score_drift.py shows it through LlamaIndex
too): a cosine search divides the stored float32 vectors by their norms in
place, which rewrites their last bits, so the next search scores them
differently. ``Memory.search`` documents its results' ``score`` as the
memory's relevance; two equal searches of an unchanged Memory answer
different ones (tinymemory's recall.limit, recall.deterministic,
properties.custom_spelling, properties.concurrent_equals_sequential
through tinymemory.adapters.mem0, Memory over qdrant). The embedding here
gives a text of k words k equal components, as a hashed embedding does.

    MEM0_TELEMETRY=false python repro_mem0_qdrant_score_drift.py   # exits 1 while the fault is there
"""

import os
import shutil
import sys
import tempfile

os.environ.setdefault("MEM0_TELEMETRY", "false")

from langchain_core.embeddings import Embeddings  # noqa: E402
from langchain_core.language_models.fake_chat_models import FakeListChatModel  # noqa: E402
from mem0 import Memory  # noqa: E402

DIMS = 16


class WordCount(Embeddings):
    """A text of k words as k equal components (then a 2 for texts ending
    in "!"), the rest 0."""

    def embed_query(self, text):
        words = text.rstrip("!").split()
        vector = [1.0] * len(words) + [0.0] * (DIMS - len(words))
        if text.endswith("!"):
            vector[len(words)] = 2.0
        return vector

    def embed_documents(self, texts):
        return [self.embed_query(t) for t in texts]


path = tempfile.mkdtemp()
try:
    memory = Memory.from_config(
        {
            "vector_store": {"provider": "qdrant", "config": {"path": path, "on_disk": True, "collection_name": "repro", "embedding_model_dims": DIMS}},
            "embedder": {"provider": "langchain", "config": {"model": WordCount(), "embedding_dims": DIMS}},
            "llm": {"provider": "langchain", "config": {"model": FakeListChatModel(responses=["unused"])}},
            "history_db_path": ":memory:",
        }
    )
    texts = [" ".join(["w"] * k) for k in range(1, DIMS + 1)] + [" ".join(["w"] * k) + "!" for k in range(1, DIMS)]
    for text in texts:
        memory.add(text, user_id="me", infer=False)
    query = " ".join(["w"] * DIMS)

    def ask():
        answer = memory.search(query, filters={"user_id": "me"}, top_k=len(texts), threshold=0.0)
        return {r["id"]: r["score"] for r in answer["results"]}

    first = ask()
    second = ask()
    memory.close()
    del memory  # its Qdrant client closes now, not during interpreter shutdown
finally:
    shutil.rmtree(path, ignore_errors=True)
moved = sorted((first[i], second[i]) for i in first if i in second and first[i] != second[i])
print(f"{len(moved)} of {len(first)} scores differ between two equal searches, e.g. {moved[:2]}")
if moved:
    print("FAULT: equal searches of an unchanged Memory answer different scores")
    sys.exit(1)
print("fixed: equal searches answer equal scores")
