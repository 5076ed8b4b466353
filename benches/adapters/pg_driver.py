"""LangGraph's PostgresStore with pgvector, as examples/adapters/test_langgraph_postgres.py
makes it, served by the LangGraph adapter, for the figures of docs/benchmarks.md
("Through the adapters"). $TINYMEMORY_POSTGRES_URL names the server.

    Store               a reset truncates the store's two tables (the adapter's `clear`)
    StoreWithoutClear   a reset makes a new schema and runs the migrations (before issue 46)
"""

import os
import uuid

import psycopg
from langgraph.store.postgres import PostgresStore
from psycopg.rows import dict_row

from tinymemory.adapters.embeddings import HashedEmbedding
from tinymemory.adapters.langgraph import LangGraphStore

URL = os.environ["TINYMEMORY_POSTGRES_URL"]


def make_store():
    schema = "tm_" + uuid.uuid4().hex[:16]
    with psycopg.connect(URL, autocommit=True) as admin:
        admin.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
        admin.execute(f'CREATE SCHEMA "{schema}"')
    conn = psycopg.connect(
        URL, autocommit=True, prepare_threshold=0, row_factory=dict_row, options=f"-c search_path={schema},public"
    )
    index = {"dims": 256, "embed": HashedEmbedding(), "fields": ["content"], "ann_index_config": {"kind": "flat"}}
    store = PostgresStore(conn, index=index)
    store.setup()
    store.tinymemory_schema = schema
    return store


def cleanup(store):
    store.conn.close()
    with psycopg.connect(URL, autocommit=True) as admin:
        admin.execute(f'DROP SCHEMA "{store.tinymemory_schema}" CASCADE')


def clear(store):
    store.conn.execute("TRUNCATE store, store_vectors")


def Store():
    return LangGraphStore(make_store, cleanup=cleanup, clear=clear)


def StoreWithoutClear():
    return LangGraphStore(make_store, cleanup=cleanup)
