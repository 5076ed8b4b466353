"""Exec drivers whose failures the reruns alone must not misread (the
CLI's tests of docs/cli.md, "Order-dependent failures", tests/cli/alone.rs).

    rerun_driver.py MODE STATE_DIR [P]

Each process numbers itself from a counter in STATE_DIR (the run's first
process is 1); none declares independent stores, so a run's processes
come one after another. MODE is one of:

- `slow-rerun`: examples/python/broken_driver.py (recall.limit fails),
  whose processes after the first take 20 s over their first recall: a
  rerun longer than any small rerun budget.
- `slow-hello`: broken_driver.py, whose processes after the first
  sleep 15 s before they answer `hello` and then write
  STATE_DIR/hello-N: a rerun whose driver start outlasts any small
  rerun budget, and a file that says whether it was waited for.
- `reset-fails`: broken_driver.py, whose processes after the first fail
  every `reset` with a backend error: a rerun that cannot start its
  store, unlike the failure the run saw (a wrong answer).
- `locked`: tests/drivers/plan_drift_driver.py (fails
  sections.across_merge_order after store.concurrent_writes in one
  process) over a database one process may hold, as LMDB, RocksDB or
  DuckDB: the first `reset` takes an exclusive `flock` on STATE_DIR/lock
  (a backend error when another process holds it), and the process takes
  1 s to close after its stdin ends.
- `flaky-get`: examples/python/memory_driver.py, whose `get` misses (answers
  null) with probability P (0.1 when not given), drawn from a generator
  seeded by the process's number: random, yet the same in every run.
- `exclusive`: broken_driver.py (three checks fail alone), each process
  holding an exclusive `flock` on STATE_DIR/alive from its start to its
  end: a process that starts while another is alive creates
  STATE_DIR/overlapped, then waits for the lock.
- `shared-file`: memory_driver.py over one file, STATE_DIR/shared.pickle,
  that every process reads at start and writes after each change; only
  `reset` empties it, and only when its process wrote since its last one
  (as an adapter that makes a fresh store from its factory only when the
  last one was written to), so a fresh process sees what others left.
"""

import fcntl
import os
import pickle
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "examples", "python"))
sys.path.insert(0, HERE)
import broken_driver  # noqa: E402
import memory_driver  # noqa: E402
import plan_drift_driver  # noqa: E402

tp = memory_driver.tp


def number(state_dir):
    """This process's number, one more than the last process's."""
    path = os.path.join(state_dir, "processes")
    with open(path, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        n = int(f.read() or 0) + 1
        f.seek(0)
        f.truncate()
        f.write(str(n))
    return n


class SlowRerun(broken_driver.BrokenStore):
    independent_stores = False

    def __init__(self, n):
        super().__init__()
        self.slow = n > 1

    def recall(self, query, limit, namespace, category, session_id, min_score):
        if self.slow:
            self.slow = False
            time.sleep(20)
        return super().recall(query, limit, namespace, category, session_id, min_score)


class ResetFails(broken_driver.BrokenStore):
    independent_stores = False

    def __init__(self, n):
        super().__init__()
        self.refuse = n > 1

    def reset(self):
        if self.refuse:
            raise tp.DriverError("backend", "the store's files are held by a backup")
        super().reset()


class Locked(plan_drift_driver.PlanDrift):
    independent_stores = False

    def __init__(self, state_dir):
        super().__init__()
        self.path = os.path.join(state_dir, "lock")
        self.lock = None

    def reset(self):
        if self.lock is None:
            f = open(self.path, "a")
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                f.close()
                raise tp.DriverError("backend", f"{self.path} is locked by another process") from None
            self.lock = f
        super().reset()


class FlakyGet(memory_driver.MemoryStore):
    independent_stores = False

    def __init__(self, n, p):
        super().__init__()
        self.random = random.Random(n)
        self.p = p

    def get(self, namespace, key):
        found = super().get(namespace, key)
        return None if self.random.random() < self.p else found


class Exclusive(broken_driver.BrokenStore):
    independent_stores = False

    def __init__(self, state_dir):
        super().__init__()
        self.alive = open(os.path.join(state_dir, "alive"), "a")
        try:
            fcntl.flock(self.alive, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            open(os.path.join(state_dir, "overlapped"), "a").close()
            fcntl.flock(self.alive, fcntl.LOCK_EX)


class SharedFile(memory_driver.MemoryStore):
    independent_stores = False

    def __init__(self, state_dir):
        super().__init__()
        self.path = os.path.join(state_dir, "shared.pickle")
        if os.path.exists(self.path):
            with open(self.path, "rb") as f:
                self.spaces = pickle.load(f)
        self.written = False

    def save(self):
        self.written = True
        with open(self.path, "wb") as f:
            pickle.dump(self.spaces, f)

    def reset(self):
        if self.written:
            super().reset()
            self.save()
            self.written = False

    def store(self, *args):
        super().store(*args)
        self.save()

    def store_many(self, entries):
        super().store_many(entries)
        self.save()

    def forget(self, namespace, key):
        gone = super().forget(namespace, key)
        self.save()
        return gone

    def import_records(self, records):
        result = super().import_records(records)
        self.save()
        return result


def main():
    mode, state_dir = sys.argv[1], sys.argv[2]
    n = number(state_dir)
    store = {
        "slow-rerun": lambda: SlowRerun(n),
        "slow-hello": lambda: SlowRerun(1),
        "reset-fails": lambda: ResetFails(n),
        "locked": lambda: Locked(state_dir),
        "flaky-get": lambda: FlakyGet(n, float(sys.argv[3]) if len(sys.argv) > 3 else 0.1),
        "exclusive": lambda: Exclusive(state_dir),
        "shared-file": lambda: SharedFile(state_dir),
    }[mode]()
    if mode == "slow-hello" and n > 1:
        time.sleep(15)
        with open(os.path.join(state_dir, f"hello-{n}"), "w") as f:
            f.write("answered")
    tp.serve(store, f"python-{mode}")
    if mode == "locked":
        # Closing the database takes a while; the lock goes with the process.
        time.sleep(1)


if __name__ == "__main__":
    main()
