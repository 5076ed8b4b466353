"""The Mem0 adapter uses no network: every contract operation through
tinymemory.adapters.mem0 over Mem0's FAISS store, in a process where
offline.py refuses (and logs) any socket use other than loopback. The
control run, with Mem0's telemetry left on as Mem0 ships it, shows that
the guard sees what Mem0 would send: without it, the first assertion
could not fail."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

SCRIPT = r"""
import os, tempfile
import offline
from tinymemory.adapters.mem0 import Mem0Adapter, memory_config
from mem0 import Memory

def make(embeddings):
    vs = {"provider": "faiss", "config": {"path": tempfile.mkdtemp(), "collection_name": "tm"}}
    return Memory.from_config(memory_config(vs, embeddings))

store = Mem0Adapter(make)
store.store("learning:a", "k1", "the comet passed", "note", None, "none")
store.store_many([
    {"namespace": "learning:a", "key": "k2", "content": "a river at dusk", "category": "note", "session_id": "s", "taint": "none"},
])
store.store("learning:a", "k1", "the comet came back", "note", None, "none")
hits = store.recall("comet", 5, "learning:a", None, None, None)
assert [h["key"] for h in hits][:1] == ["k1"], hits
assert store.get("learning:a", "k1")["content"] == "the comet came back"
assert [e["key"] for e in store.list("learning:a", None, "s")] == ["k2"]
page = store.export_page(None, 10)
store.reset()
assert store.import_records(page["records"])["imported"] == 2
assert store.forget("learning:a", "k2") is True
assert [n["count"] for n in store.namespaces()] == [1]
print("ok")
"""


def _run(tmp_path, telemetry):
    log = tmp_path / f"refused-{telemetry}.log"
    env = dict(os.environ)
    env["TINYMEMORY_OFFLINE_LOG"] = str(log)
    env["MEM0_TELEMETRY"] = telemetry
    env["MEM0_DIR"] = str(tmp_path / "mem0")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (HERE, env.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    refused = log.read_text() if log.exists() else ""
    return done, refused


def test_mem0_adapter_uses_no_network(tmp_path):
    done, refused = _run(tmp_path, "false")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "ok"
    assert refused == ""


def test_the_guard_sees_mem0_telemetry(tmp_path):
    done, refused = _run(tmp_path, "true")
    assert "tinymemory offline guard: socket.getaddrinfo to 'us.i.posthog.com' refused" in refused, (refused, done.stderr)
