"""PostgresStore cannot store a value or key holding NUL (U+0000).

langgraph-checkpoint-postgres 3.2.0 keeps values as jsonb and keys as
text; PostgreSQL refuses U+0000 in both ("unsupported Unicode escape
sequence", "PostgreSQL text fields cannot contain NUL (0x00) bytes").
BaseStore refuses NUL in namespace labels only, so a valid key or value
fails at write time. Found by tinymemory's store.hostile_text_round_trip,
store.big_content_round_trip, recall.hostile_queries and the portability
checks through tinymemory.adapters.langgraph. Expected: stored and read
back byte for byte (or a refusal documented by the interface).

    TINYMEMORY_POSTGRES_URL=postgres://... python repro_langgraph_postgres_nul.py
"""

import os
import sys

import psycopg
from langgraph.store.postgres import PostgresStore
from psycopg.rows import dict_row

url = os.environ["TINYMEMORY_POSTGRES_URL"]
with psycopg.connect(url, autocommit=True, prepare_threshold=0, row_factory=dict_row) as conn:
    conn.execute("CREATE SCHEMA IF NOT EXISTS repro_nul")
    conn.execute("SET search_path TO repro_nul")
    store = PostgresStore(conn)
    store.setup()
    failed = False
    for key, value in (("before\x00after", {"text": "x"}), ("k", {"text": "before\x00after"})):
        try:
            store.put(("docs",), key, value)
        except psycopg.Error as e:
            print(f"FAULT: put({key!r}, {value!r}): {type(e).__name__}: {e}".splitlines()[0])
            failed = True
    conn.execute("DROP SCHEMA repro_nul CASCADE")
sys.exit(1 if failed else 0)
