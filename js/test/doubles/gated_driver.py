#!/usr/bin/env python3
"""The in-memory example driver (examples/python/memory_driver.py) whose
`list` waits until the file RELEASE exists: a run's checks that list
cannot finish before the test that started it says so, the others can
(the run's environment probe stores, recalls and forgets, and lists
nothing).
For the test that node:test reports each check as it finishes
(test/node-test.test.js).

    gated_driver.py RELEASE
"""

import os
import sys
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in examples/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples", "python"))
from memory_driver import MemoryStore, tp  # noqa: E402


class GatedStore(MemoryStore):
    def __init__(self, release):
        super().__init__()
        self.release = release

    def list(self, *args, **kwargs):
        while not os.path.exists(self.release):
            time.sleep(0.05)
        return super().list(*args, **kwargs)


if __name__ == "__main__":
    tp.serve(GatedStore(sys.argv[1]), "python-gated")
