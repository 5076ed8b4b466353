"""Mem0's Memory over FAISS (faiss-cpu, Mem0's own FAISS store saved to a
directory per store, cosine distance), offline: the hashed embedding
through Mem0's LangChain embedder, add(infer=False), no LLM, no telemetry,
and no network but loopback for the whole run (offline.py)."""

import os
import shutil
import tempfile

import offline  # noqa: F401  (first: the guard holds for every import below)

os.environ.setdefault("MEM0_TELEMETRY", "false")

from tinymemory.testing import Mem0Conformance  # noqa: E402

# On tmpfs where there is one: Mem0's FAISS store writes its files to the
# directory as it goes.
SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") else None


class TestMem0Faiss(Mem0Conformance):
    independent_stores = True  # a directory of its own per store

    def vector_store(self, dims):
        return {
            "provider": "faiss",
            "config": {
                "path": tempfile.mkdtemp(prefix="tm-mem0-faiss-", dir=SCRATCH),
                "collection_name": "tm",
                "distance_strategy": "cosine",
            },
        }

    def cleanup_store(self, memory):
        path = memory.config.vector_store.config.path
        memory.close()
        shutil.rmtree(path, ignore_errors=True)
