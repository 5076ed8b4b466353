"""SqliteStore rewrites an item's created_at on every put over it.

langgraph-checkpoint-sqlite 3.1.2, langgraph/store/sqlite/base.py: a put
is `INSERT OR REPLACE INTO store (prefix, key, value, created_at,
updated_at, ..)` with both times the current one, so the replaced row's
created_at is lost and an updated item reads as created at its last
update. langgraph.store.base documents `Item.created_at` as "Timestamp of
item creation" (SearchItem: "When the item was first created") and
`BaseStore.put` as "Store or update an item"; PostgresStore keeps it (`ON
CONFLICT (prefix, key) DO UPDATE SET value = .., updated_at =
CURRENT_TIMESTAMP`). LangGraph's own store tests never compare created_at
across an update. Found by tinymemory's interface.langgraph.item_timestamps
through tinymemory.adapters.langgraph. Expected: created_at unchanged,
updated_at later (SQLite's CURRENT_TIMESTAMP counts whole seconds, hence
the pause).

    pip install langgraph-checkpoint-sqlite
    python repro_langgraph_sqlite_created_at.py   # exits 1 while the fault is there
"""

import sqlite3
import sys
import time

from langgraph.store.sqlite import SqliteStore

store = SqliteStore(sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None))
store.setup()
store.put(("docs",), "k", {"v": 1})
first = store.get(("docs",), "k")
time.sleep(1.1)
store.put(("docs",), "k", {"v": 2})
second = store.get(("docs",), "k")
print(f"created_at {first.created_at} -> {second.created_at}; updated_at {first.updated_at} -> {second.updated_at}")
if second.created_at != first.created_at:
    print("FAULT: the update moved created_at")
    sys.exit(1)
print("fixed")
