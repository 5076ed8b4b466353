#!/usr/bin/env python3
"""The broken example driver (examples/python/broken_driver.py: three
bugs, seven failing checks) whose recall also refuses every filter
(`min_score`, `category`) with one backend error, so several failed
checks share one driver error. The driver of the tests that hold the
front ends to one verdict (test/front-ends.test.js) and of node:test's
summary (test/node-test.test.js).
"""

import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in examples/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples", "python"))
from broken_driver import BrokenStore, tp  # noqa: E402


class FaultyStore(BrokenStore):
    def recall(self, query, limit, namespace, category, session_id, min_score):
        if min_score is not None or category is not None:
            raise tp.DriverError("backend", "filters are not supported by this index")
        return super().recall(query, limit, namespace, category, session_id, min_score)


if __name__ == "__main__":
    tp.serve(FaultyStore(), "faulty")
