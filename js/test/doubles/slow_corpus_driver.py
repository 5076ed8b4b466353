#!/usr/bin/env python3
"""The in-memory example driver (examples/python/memory_driver.py) whose
first `store_many` in each process answers after DELAY seconds: the
corpus load of a store over a slow server, for the test of
`conformance({ callTimeout })` (test/node-test.test.js). Later calls
answer at once, so only the load is slow.

    slow_corpus_driver.py DELAY_SECONDS
"""

import os
import sys
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in examples/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples", "python"))
from memory_driver import MemoryStore, tp  # noqa: E402


class SlowCorpusStore(MemoryStore):
    def __init__(self, delay):
        super().__init__()
        self.delay = delay

    def store_many(self, entries):
        if self.delay:
            time.sleep(self.delay)
            self.delay = 0
        return super().store_many(entries)


if __name__ == "__main__":
    tp.serve(SlowCorpusStore(float(sys.argv[1])), "python-slow-corpus")
