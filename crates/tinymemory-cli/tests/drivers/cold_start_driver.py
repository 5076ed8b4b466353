"""An exec driver with a cold start: the first `store` call of each
process fails once with the error given as its argument (an index still
loading, a connection pool not yet up), and every later call works, as
examples/python/memory_driver.py does.

    cold_start_driver.py MESSAGE

The run makes no call of its own before the checks (docs/cli.md, "A broken
environment"), so the first check to store meets the fault and reports it:
the CLI's tests of that (tests/cli/environment.rs)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "examples", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "python"))
import memory_driver  # noqa: E402


class ColdStart(memory_driver.MemoryStore):
    def __init__(self, message):
        super().__init__()
        self.cold = message

    def store(self, namespace, key, content, category, session_id, taint):
        if self.cold is not None:
            message, self.cold = self.cold, None
            raise RuntimeError(message)
        super().store(namespace, key, content, category, session_id, taint)


if __name__ == "__main__":
    memory_driver.tp.serve(ColdStart(sys.argv[1]), "python-cold-start")
