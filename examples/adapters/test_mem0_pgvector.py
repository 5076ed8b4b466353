"""Mem0's Memory over PostgreSQL with pgvector (Mem0's pgvector store, a
table of its own per store, exact scans: hnsw off), the server on loopback
(TINYMEMORY_POSTGRES_URL: .ci/python.sh starts the pgserver wheel's
PostgreSQL 16), offline: the hashed embedding through Mem0's LangChain
embedder, add(infer=False), no LLM, no telemetry, and no network but
loopback for the whole run (offline.py)."""

import os
import uuid

import offline  # noqa: F401  (first: the guard holds for every import below)

os.environ.setdefault("MEM0_TELEMETRY", "false")

from tinymemory.testing import Mem0Conformance  # noqa: E402

URL = os.environ.get("TINYMEMORY_POSTGRES_URL", "")


class TestMem0Pgvector(Mem0Conformance):
    # One transaction per add: the 3,000 adds of recall.namespace_isolation
    # (one store_many) took 19 s alone and past the 30 s request timeout on
    # a loaded machine, a failure of the machine's load, not of a rule (the
    # contract says nothing of speed; .ci/js.sh gives its rows 300 s too).
    call_timeout = 300
    timeout = 600

    def vector_store(self, dims):
        return {
            "provider": "pgvector",
            "config": {
                "connection_string": URL,
                "collection_name": "tm_" + uuid.uuid4().hex[:16],
                "hnsw": False,
                "diskann": False,
            },
        }

    def cleanup_store(self, memory):
        store = memory.vector_store
        store.delete_col()
        memory.close()
