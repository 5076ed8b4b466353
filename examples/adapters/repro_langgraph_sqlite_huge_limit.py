"""SqliteStore.search overflows for a limit above 2^62 - 1.

langgraph-checkpoint-sqlite 3.1.2, langgraph/store/sqlite/base.py: the
vector search binds `op.limit * 2` ("Expanded limit for better results")
as an SQLite INTEGER, so a limit past 2^62 - 1 (valid for an int, and
SQLite takes up to 2^63 - 1) raises "OverflowError: Python int too large
to convert to SQLite INTEGER". Found by tinymemory's recall.huge_limit
through tinymemory.adapters.langgraph. Expected: every hit.

    pip install langgraph-checkpoint-sqlite sqlite-vec pysqlite3-binary
    python repro_langgraph_sqlite_huge_limit.py   # exits 1 while the fault is there
"""

import sys

import pysqlite3.dbapi2 as sqlite3
from langgraph.store.sqlite import SqliteStore


def embed(texts):
    return [[1.0, float(len(t))] for t in texts]


store = SqliteStore(
    sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None),
    index={"dims": 2, "embed": embed, "fields": ["text"]},
)
store.setup()
store.put(("docs",), "a", {"text": "lantern"})
try:
    hits = store.search(("docs",), query="lantern", limit=2**63 - 1)
except OverflowError as e:
    print(f"FAULT: {e}")
    sys.exit(1)
print("fixed:", [h.key for h in hits])
