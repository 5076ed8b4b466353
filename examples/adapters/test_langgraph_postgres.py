"""LangGraph's PostgresStore (langgraph-checkpoint-postgres) with pgvector
and an index of HashedEmbedding, against the server at
$TINYMEMORY_POSTGRES_URL (.ci/python.sh starts one from the `pgserver`
wheel, PostgreSQL 16 with pgvector): a fresh schema per store, dropped when
the adapter is done with it. The `vector` extension is made once, in
`public`, which every store's search_path ends with: an extension made in a
store's own schema would go with that schema's DROP ... CASCADE.

The vectors are searched by an exact scan (`ann_index_config` kind
"flat"). With the default HNSW index, a search filtered by namespace loses
items once PostgreSQL takes the prepared statement's generic plan
(repro_langgraph_postgres_filtered_hnsw.py): recall.namespace_isolation
and namespace.reserved_words then fail in some runs and pass in others,
as the planner's statistics go, and CI's matrix must not depend on that."""

import os
import uuid

import psycopg
import pytest
from langgraph.store.postgres import PostgresStore
from psycopg.rows import dict_row

from tinymemory.adapters.embeddings import HashedEmbedding
from tinymemory.testing import LangGraphStoreConformance

URL = os.environ.get("TINYMEMORY_POSTGRES_URL")


@pytest.mark.skipif(URL is None and not os.environ.get("CI"), reason="TINYMEMORY_POSTGRES_URL is not set")
class TestPostgresStore(LangGraphStoreConformance):
    def make_store(self):
        if URL is None:
            raise RuntimeError("TINYMEMORY_POSTGRES_URL is not set (CI must start the server: .ci/python.sh)")
        schema = "tm_" + uuid.uuid4().hex[:16]
        with psycopg.connect(URL, autocommit=True) as admin:
            admin.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
            admin.execute(f'CREATE SCHEMA "{schema}"')
        # As PostgresStore.from_conn_string connects, in the schema alone
        # (and public, for the vector type).
        conn = psycopg.connect(
            URL,
            autocommit=True,
            prepare_threshold=0,
            row_factory=dict_row,
            options=f"-c search_path={schema},public",
        )
        index = {"dims": 256, "embed": HashedEmbedding(), "fields": ["content"], "ann_index_config": {"kind": "flat"}}
        store = PostgresStore(conn, index=index)
        store.setup()
        store.tinymemory_schema = schema
        return store

    def clear_store(self, store):
        # A reset empties the two tables instead of a new schema and its
        # migrations (about 0.2 s each; docs/benchmarks.md, "Through the
        # adapters").
        store.conn.execute("TRUNCATE store, store_vectors")

    def cleanup_store(self, store):
        store.conn.close()
        with psycopg.connect(URL, autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA "{store.tinymemory_schema}" CASCADE')
