"""LangGraph's SqliteStore (langgraph-checkpoint-sqlite) with a sqlite-vec
index, one in-memory database per store.

The connection is pysqlite3-binary's: the index loads sqlite-vec as an
extension, and a CPython built without loadable extensions (pyenv's
default) has no Connection.enable_load_extension."""

import pysqlite3.dbapi2 as sqlite3

from langgraph.store.sqlite import SqliteStore

from tinymemory.adapters.embeddings import HashedEmbedding
from tinymemory.testing import LangGraphStoreConformance


class TestSqliteStore(LangGraphStoreConformance):
    independent_stores = True  # each driver process holds its own engine
    def make_store(self):
        # As SqliteStore.from_conn_string opens it: autocommit, shared
        # across the store's threads.
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        store = SqliteStore(conn, index={"dims": 256, "embed": HashedEmbedding()})
        store.setup()
        return store

    def cleanup_store(self, store):
        store.conn.close()
