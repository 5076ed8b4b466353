"""InMemoryStore rewrites an item's created_at on every put over it.

langgraph-checkpoint 4.3.2, langgraph/store/memory/__init__.py:
_apply_put_ops builds a new Item with `created_at=datetime.now(...)` for
every PutOp, the key held or not, so an updated item reads as created at
its last update. langgraph.store.base documents `Item.created_at` as
"Timestamp of item creation" (SearchItem: "When the item was first
created") and `BaseStore.put` as "Store or update an item"; PostgresStore
keeps it (its upsert is `ON CONFLICT (prefix, key) DO UPDATE SET value =
.., updated_at = CURRENT_TIMESTAMP`, created_at untouched). LangGraph's own
store tests never compare created_at across an update. Found by
tinymemory's interface.langgraph.item_timestamps through
tinymemory.adapters.langgraph (batch and abatch). Expected: created_at
unchanged, updated_at later.

    pip install langgraph-checkpoint
    python repro_langgraph_inmemory_created_at.py   # exits 1 while the fault is there
"""

import sys
import time

from langgraph.store.memory import InMemoryStore

store = InMemoryStore()
store.put(("docs",), "k", {"v": 1})
first = store.get(("docs",), "k")
time.sleep(0.05)
store.put(("docs",), "k", {"v": 2})
second = store.get(("docs",), "k")
print(f"created_at {first.created_at} -> {second.created_at}; updated_at {first.updated_at} -> {second.updated_at}")
if second.created_at != first.created_at:
    print("FAULT: the update moved created_at")
    sys.exit(1)
print("fixed")
