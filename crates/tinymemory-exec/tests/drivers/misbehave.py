#!/usr/bin/env python3
"""The in-memory example driver, misbehaving on cue, for the exec tests.

    misbehave.py MODE [WORD [MARKER]]

MARKER is ignored: the process tests pass a unique one to find their
processes (and those the driver forks) in /proc/*/cmdline.

Modes (WORD: the query that triggers it, exactly, so that one check of a
suite run meets it; every other request is answered normally):
  hang WORD       recall of WORD never answers
  slow WORD       recall of WORD answers after 0.3 s
  exit WORD       recall of WORD writes to stderr and exits with status 7
  garbage WORD    recall of WORD prints a line that is not JSON
  wrong-id WORD   recall of WORD answers with the id of another request
  bad-entry WORD  recall of WORD answers entries without a timestamp
  nan WORD        recall of WORD answers a NaN score, as json.dumps allows
  traceback WORD  recall of WORD raises inside the driver (a backend error)
  long-traceback WORD  recall of WORD writes a 46-line traceback, then a backend error
  panic WORD      recall of WORD raises a BaseException that is no Exception,
                  as a native engine's PanicException (pyo3) is
  no-rule         invalid errors come without a rule
  key-unchecked   get and forget of a key the contract refuses (empty, over
                  1024 UTF-8 bytes) answer null and false, as absent
  version         hello answers protocol version 2
  hello JSON      hello answers JSON (an object) as its result, such as
                  '{"protocol": 1, "driver": "d", "recall_profile": "vector"}'
  crash           writes to stderr and exits with status 3 before hello
  exit-on-reset   the second reset exits with status 5
  ignore-eof      answers normally, but keeps running after stdin ends
  fork-exit WORD  forks a child holding stdout open (it sleeps an hour);
                  recall of WORD exits with status 7, the child still running
  result OP JSON  every request OP (store_many, export_page, import, ...) is
                  answered with JSON as its result, whatever it asked
"""

import json
import os
import sys
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in examples/
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "examples", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "python"))

import tinymemory.protocol as tp  # noqa: E402
from memory_driver import MemoryStore  # noqa: E402

mode = sys.argv[1]
word = sys.argv[2] if len(sys.argv) > 2 and mode not in ("hello", "result") else None
forced_op, forced_result = (sys.argv[2], json.loads(sys.argv[3])) if mode == "result" else (None, None)
hello_result = json.loads(sys.argv[2]) if mode == "hello" else None
resets = 0


class PanicException(BaseException):
    """What pyo3 raises when the Rust code under a binding panics."""


class PanickingStore(MemoryStore):
    def recall(self, query, *args):
        if query == word:
            raise PanicException("called `Option::unwrap()` on a `None` value")
        return super().recall(query, *args)


store = PanickingStore() if mode == "panic" else MemoryStore()


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


if mode == "fork-exit" and os.fork() == 0:
    time.sleep(3600)
    os._exit(0)

if mode == "crash":
    print("misbehave: cannot open the store: simulated", file=sys.stderr)
    sys.exit(3)

for raw in sys.stdin:
    r = json.loads(raw)
    op = r["op"]
    cued = op == "recall" and word is not None and r["query"] == word
    if op == "hello" and mode == "version":
        out(json.dumps({"id": r["id"], "result": {"protocol": 2, "driver": "misbehave"}}))
    elif op == "hello" and mode == "hello":
        out(json.dumps({"id": r["id"], "result": hello_result}))
    elif op == "reset" and mode == "exit-on-reset":
        resets += 1
        if resets == 2:
            print("misbehave: reset failed: simulated", file=sys.stderr)
            sys.exit(5)
        out(tp.encode(tp.handle(store, "misbehave", r)))
    elif mode == "key-unchecked" and op in ("get", "forget") and not 0 < len(r["key"].encode()) <= tp.MAX_KEY_LEN:
        out(json.dumps({"id": r["id"], "result": None if op == "get" else False}))
    elif op == forced_op:
        out(json.dumps({"id": r["id"], "result": forced_result}))
    elif cued and mode == "hang":
        time.sleep(3600)
    elif cued and mode == "slow":
        time.sleep(0.3)
        out(tp.encode(tp.handle(store, "misbehave", r)))
    elif cued and mode in ("exit", "fork-exit"):
        print("misbehave: segfault in the recall engine: simulated", file=sys.stderr)
        sys.stderr.flush()
        os._exit(7)
    elif cued and mode == "garbage":
        out("debug: recall called with " + r["query"])
    elif cued and mode == "wrong-id":
        out(json.dumps({"id": r["id"] + 100, "result": []}))
    elif cued and mode == "bad-entry":
        answer = tp.handle(store, "misbehave", r)
        for hit in answer["result"]:
            del hit["timestamp"]
        out(json.dumps(answer))
    elif cued and mode == "nan":
        answer = tp.handle(store, "misbehave", r)
        for hit in answer["result"]:
            hit["score"] = float("nan")
        out(json.dumps(answer))
    elif cued and mode == "long-traceback":
        # A deep traceback: 45 frames, and a last line longer than any cap
        # on one driver-supplied string.
        for frame in range(45):
            print(f"frame {frame:02} " + "y" * 191, file=sys.stderr)
        print("ValueError: page 7 is corrupt: " + "z" * 1200, file=sys.stderr)
        sys.stderr.flush()
        out(json.dumps({"id": r["id"], "error": {"kind": "backend", "message": "ValueError: page 7 is corrupt"}}))
    elif cued and mode == "traceback":
        answer = tp.handle(store, "misbehave", {"id": r["id"], "op": "recall"})
        out(tp.encode(answer))
    else:
        answer = tp.handle(store, "misbehave", r)
        if mode == "no-rule" and "error" in answer:
            answer["error"].pop("rule", None)
        out(tp.encode(answer))

if mode == "ignore-eof":
    time.sleep(3600)
