"""LangGraph's PostgresStore (langgraph-checkpoint-postgres) against the
server at $TINYMEMORY_POSTGRES_URL (.ci/run starts one), a fresh schema per
store, dropped when the adapter is done with it. Without pgvector on the
server the store has no index, so every recall check fails as a mapping
limit saying so; the other checks judge the store."""

import os
import uuid

import psycopg
import pytest
from langgraph.store.postgres import PostgresStore
from psycopg.rows import dict_row

from tinymemory.testing import LangGraphStoreConformance

URL = os.environ.get("TINYMEMORY_POSTGRES_URL")


@pytest.mark.skipif(URL is None and not os.environ.get("CI"), reason="TINYMEMORY_POSTGRES_URL is not set")
class TestPostgresStore(LangGraphStoreConformance):
    def make_store(self):
        if URL is None:
            raise RuntimeError("TINYMEMORY_POSTGRES_URL is not set (CI must start the server: .ci/postgres.sh)")
        schema = "tm_" + uuid.uuid4().hex[:16]
        with psycopg.connect(URL, autocommit=True) as admin:
            admin.execute(f'CREATE SCHEMA "{schema}"')
        # As PostgresStore.from_conn_string connects, in the schema alone.
        conn = psycopg.connect(
            URL, autocommit=True, prepare_threshold=0, row_factory=dict_row, options=f"-c search_path={schema}"
        )
        store = PostgresStore(conn)
        store.setup()
        store.tinymemory_schema = schema
        return store

    def cleanup_store(self, store):
        store.conn.close()
        with psycopg.connect(URL, autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA "{store.tinymemory_schema}" CASCADE')
