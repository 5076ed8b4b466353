"""PostgresStore.search with a query fails for a limit above 2^62 - 1.

langgraph-checkpoint-postgres 3.2.0, langgraph/store/postgres/base.py: the
vector search binds `op.limit * vectors_per_doc_estimate * 2 + 1`
("expanded_limit") as the inner LIMIT, past PostgreSQL's bigint for a
limit above about 2^62 (valid for an int, and PostgreSQL's LIMIT takes up
to 2^63 - 1): "NumericValueOutOfRange: bigint out of range". Found by
tinymemory's recall.huge_limit through tinymemory.adapters.langgraph.
Expected: every hit.

    pip install langgraph-checkpoint-postgres psycopg-binary pgserver
    TINYMEMORY_POSTGRES_URL=postgres://... python repro_langgraph_postgres_huge_limit.py   # exits 1 while the fault is there
"""

import os
import sys

import psycopg
from langgraph.store.postgres import PostgresStore
from psycopg.rows import dict_row


def embed(texts):
    return [[1.0, float(len(t))] for t in texts]


url = os.environ["TINYMEMORY_POSTGRES_URL"]
with psycopg.connect(url, autocommit=True) as admin:
    admin.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
    admin.execute("DROP SCHEMA IF EXISTS repro_huge_limit CASCADE")
    admin.execute("CREATE SCHEMA repro_huge_limit")
with psycopg.connect(
    url, autocommit=True, prepare_threshold=0, row_factory=dict_row, options="-c search_path=repro_huge_limit,public"
) as conn:
    store = PostgresStore(conn, index={"dims": 2, "embed": embed, "fields": ["text"]})
    store.setup()
    store.put(("docs",), "a", {"text": "lantern"})
    failed = False
    try:
        hits = store.search(("docs",), query="lantern", limit=2**63 - 1)
        print("fixed:", [h.key for h in hits])
    except psycopg.Error as e:
        print(f"FAULT: {type(e).__name__}: {e}".splitlines()[0])
        failed = True
    conn.execute("DROP SCHEMA repro_huge_limit CASCADE")
sys.exit(1 if failed else 0)
