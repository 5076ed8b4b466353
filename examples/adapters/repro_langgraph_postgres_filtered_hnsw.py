"""PostgresStore.search misses items of the namespace asked once other
namespaces hold more items.

langgraph-checkpoint-postgres 3.2.0 indexes the vectors with pgvector's
HNSW by default (`ann_index_config` kind "hnsw") and filters by namespace
in the WHERE clause of an `ORDER BY distance LIMIT n` query, sent as a
prepared statement (`prepare_threshold=0`, as `from_conn_string`
connects). Once PostgreSQL takes the prepared statement's generic plan,
that plan scans the HNSW index, which gives the nearest `hnsw.ef_search`
(40) vectors of every namespace, and filters them afterwards: a search in
a namespace beside larger ones returns fewer items than it holds. Found by
tinymemory's recall.namespace_isolation through
tinymemory.adapters.langgraph (9 hits of 10 after 84 entries were stored
in other namespaces). Expected: every item of the namespace, up to the
limit.

    pip install langgraph-checkpoint-postgres psycopg-binary pgserver
    TINYMEMORY_POSTGRES_URL=postgres://... python repro_langgraph_postgres_filtered_hnsw.py   # exits 1 while the fault is there
"""

import os
import random
import sys

import psycopg
from langgraph.store.postgres import PostgresStore
from psycopg.rows import dict_row

rng = random.Random(7)
vectors = {"comet": [1.0] + [0.0] * 15}


def embed(texts):
    return [vectors.setdefault(t, [rng.uniform(-1, 1) for _ in range(16)]) for t in texts]


url = os.environ["TINYMEMORY_POSTGRES_URL"]
with psycopg.connect(url, autocommit=True) as admin:
    admin.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
    admin.execute("DROP SCHEMA IF EXISTS repro_hnsw CASCADE")
    admin.execute("CREATE SCHEMA repro_hnsw")
with psycopg.connect(
    url, autocommit=True, prepare_threshold=0, row_factory=dict_row, options="-c search_path=repro_hnsw,public"
) as conn:
    store = PostgresStore(conn, index={"dims": 16, "embed": embed, "fields": ["text"]})
    store.setup()
    for i in range(10):
        store.put(("a",), f"a{i}", {"text": f"a {i}"})
    counts = []
    for i in range(200):
        store.put(("b",), f"b{i}", {"text": f"b {i}"})
        if i % 20 == 19:
            counts.append(len(store.search(("a",), query="comet", limit=10)))
    conn.execute("DROP SCHEMA repro_hnsw CASCADE")
print(f"items of ('a',) found by search(limit=10) as ('b',) grows by 20: {counts}")
if min(counts) < 10:
    print("FAULT: a search filtered by namespace lost items it holds (an HNSW scan, then the filter)")
    sys.exit(1)
