"""Mem0's Memory over Qdrant's embedded engine on disk (qdrant-client local
mode, a directory per store), offline: the hashed embedding through Mem0's
LangChain embedder, add(infer=False), no LLM, no telemetry, and no network
but loopback for the whole run (offline.py, test_offline.py)."""

import os
import shutil
import tempfile

import offline  # noqa: F401  (first: the guard holds for every import below)

os.environ.setdefault("MEM0_TELEMETRY", "false")

from tinymemory.testing import Mem0Conformance  # noqa: E402

# On tmpfs where there is one: qdrant-client commits (and syncs) its SQLite
# file at every upsert, 25 ms a memory on a disk.
SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") else None


class TestMem0Qdrant(Mem0Conformance):
    independent_stores = True  # a directory of its own per store

    def vector_store(self, dims):
        return {
            "provider": "qdrant",
            "config": {"path": tempfile.mkdtemp(prefix="tm-mem0-qdrant-", dir=SCRATCH), "on_disk": True, "collection_name": "tm"},
        }

    def cleanup_store(self, memory):
        path = memory.config.vector_store.config.path
        memory.close()
        shutil.rmtree(path, ignore_errors=True)
