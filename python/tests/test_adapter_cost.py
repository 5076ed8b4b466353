"""What the adapters cost a driver process besides the store's own work
(issue 46, docs/benchmarks.md "Chroma's driver process, sampled"): the
driver id found without reading every installed distribution, and the
calls a reset and a write make of the store."""

import importlib.metadata as metadata
import json
import os
import subprocess
import sys
import uuid

import pytest
from conftest import EXAMPLES

from tinymemory.adapters import _common as c

if not os.environ.get("CI"):
    pytest.importorskip("langgraph.store.memory")


def test_the_driver_id_names_the_distribution_holding_the_class():
    from langchain_core.vectorstores import InMemoryVectorStore
    from langgraph.store.memory import InMemoryStore

    from tinymemory.adapters.embeddings import HashedEmbedding

    # langchain_core is its distribution's own name; langgraph is a
    # namespace package, langgraph.store.memory in langgraph-checkpoint,
    # not in the distribution named langgraph.
    assert c.engine_id(InMemoryVectorStore(HashedEmbedding(16))) == (
        f"langchain-core=={metadata.version('langchain-core')} "
        "langchain_core.vectorstores.in_memory:InMemoryVectorStore via tinymemory.adapters.adapter"
    )
    assert c.engine_id(InMemoryStore()) == (
        f"langgraph-checkpoint=={metadata.version('langgraph-checkpoint')} "
        "langgraph.store.memory:InMemoryStore via tinymemory.adapters.adapter"
    )


def test_a_text_embedded_again_is_hashed_once_and_gives_the_same_vector(monkeypatch):
    from tinymemory.adapters import embeddings

    calls = []
    features = embeddings._features
    monkeypatch.setattr(embeddings, "_features", lambda text: calls.append(text) or features(text))
    text = f"comet harbour dawn {uuid.uuid4()}"
    e = embeddings.HashedEmbedding(16)
    first = e.embed_query(text)
    assert e.embed_documents([text, text]) == [first, first]
    assert calls == [text]
    # Another size is another vector.
    assert len(embeddings.HashedEmbedding(8).embed_query(text)) == 8
    assert calls == [text, text]


def test_a_vector_its_caller_changes_does_not_change_the_next_one():
    from tinymemory.adapters.embeddings import HashedEmbedding

    text = f"lantern {uuid.uuid4()}"
    e = HashedEmbedding(16)
    first = e.embed_query(text)
    kept = list(first)
    first[0] = 99.0
    assert e.embed_query(text) == kept


def test_the_remembered_vectors_are_bounded_by_texts_and_characters():
    from tinymemory.adapters.embeddings import _Remembered

    r = _Remembered(texts=2, chars=10)
    r.put("a", 4, (1.0,))
    r.put("b", 4, (2.0,))
    assert r.get("a", 4) == (1.0,)  # now the most recent
    r.put("c", 4, (3.0,))
    assert (r.get("a", 4), r.get("b", 4), r.get("c", 4)) == ((1.0,), None, (3.0,))
    r.put("x" * 11, 4, (4.0,))  # longer than every character allowed: not kept
    assert r.get("x" * 11, 4) is None
    r.put("y" * 10, 4, (5.0,))  # 10 characters: "a" and "c" (2) leave
    assert (r.get("a", 4), r.get("c", 4), r.get("y" * 10, 4)) == (None, None, (5.0,))


FROZEN_STORE = """
import gc

import semantic_driver


class Store(semantic_driver.SemanticStore):
    def reset(self):
        with open("frozen.txt", "w") as f:
            f.write(str(gc.get_freeze_count()))
        return super().reset()
"""


def test_the_serve_loop_leaves_the_start_ups_objects_to_no_collection(tmp_path):
    # The engine's imports are millions of objects that live as long as
    # the process: a full collection walks them all, and the interpreter's
    # collections at exit took 2 s of each Chroma driver process.
    (tmp_path / "frozen_store.py").write_text(FROZEN_STORE, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "tinymemory.serve", "frozen_store:Store"],
        input=json.dumps({"id": 1, "op": "reset"}) + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": f"{tmp_path}:{EXAMPLES}:{':'.join(p for p in sys.path if p)}", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"id": 1, "result": None}
    assert int((tmp_path / "frozen.txt").read_text()) > 0
