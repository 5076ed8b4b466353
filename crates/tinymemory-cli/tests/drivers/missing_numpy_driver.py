"""An exec driver in a broken environment: it starts and stores, but every
recall raises ImportError("No module named 'numpy'"), as a vector store
that imports numpy on its first search does where numpy is not installed.
A run stops on it before any check with that error and its remedy, exit 5
(docs/cli.md, "A broken environment"); used by the CLI's, pytest's and
node:test's tests of that stop."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "examples", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "python"))
import memory_driver  # noqa: E402


class MissingNumpy(memory_driver.MemoryStore):
    def recall(self, query, limit, namespace, category, session_id, min_score):
        raise ImportError("No module named 'numpy'")


if __name__ == "__main__":
    memory_driver.tp.serve(MissingNumpy(), "python-missing-numpy")
