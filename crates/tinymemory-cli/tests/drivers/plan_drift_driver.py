"""An exec driver whose pinned recall degrades only after many writes in
its process, as a PostgreSQL store's planner once switched to a plan that
scans an approximate index first and filters by namespace afterwards:
once a namespace has taken 150 stores since the process started (reset
does not clear the count, as it does not clear a planner's statistics),
every recall returns at most one hit. Correct in a fresh process; used by
the CLI's test of failures rerun alone (tests/cli/gate.rs)."""

import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "examples", "python"))
import memory_driver  # noqa: E402

THRESHOLD = 150


class PlanDrift(memory_driver.MemoryStore):
    independent_stores = True

    def __init__(self):
        super().__init__()
        self.writes = collections.Counter()

    def store(self, namespace, key, content, category, session_id, taint):
        self.writes[namespace] += 1
        return super().store(namespace, key, content, category, session_id, taint)

    def recall(self, query, limit, namespace, category, session_id, min_score):
        hits = super().recall(query, limit, namespace, category, session_id, min_score)
        if self.writes and max(self.writes.values()) >= THRESHOLD:
            return hits[:1]
        return hits


if __name__ == "__main__":
    memory_driver.tp.serve(PlanDrift(), "python-plan-drift")
