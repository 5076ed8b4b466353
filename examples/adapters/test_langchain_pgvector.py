"""PGVector of langchain-postgres, through tinymemory.adapters.langchain,
against the server at $TINYMEMORY_POSTGRES_URL (.ci/python.sh starts one
from the `pgserver` wheel, PostgreSQL 16 with pgvector): a collection per
store, deleted when the adapter is done with it, and the store's own
SQLAlchemy engine disposed of."""

import os
import uuid

import pytest
from langchain_postgres import PGVector

from tinymemory.testing import VectorStoreConformance

URL = os.environ.get("TINYMEMORY_POSTGRES_URL")


def sqlalchemy_url(url):
    """postgres://... as SQLAlchemy names the psycopg 3 driver."""
    return "postgresql+psycopg://" + url.split("://", 1)[1]


@pytest.mark.skipif(URL is None and not os.environ.get("CI"), reason="TINYMEMORY_POSTGRES_URL is not set")
class TestPGVector(VectorStoreConformance):
    # Made with a connection string, PGVector is sync only: "For an async
    # version, use `PGVector.acreate()` instead" (its __init__), and
    # langchain-postgres runs LangChain's standard tests on it with
    # has_async False. The interface family judges its sync path.
    has_async = False

    def make_store(self, embeddings):
        if URL is None:
            raise RuntimeError("TINYMEMORY_POSTGRES_URL is not set (CI must start the server: .ci/python.sh)")
        return PGVector(
            embeddings,
            connection=sqlalchemy_url(URL),
            collection_name="tm_" + uuid.uuid4().hex[:16],
            use_jsonb=True,
        )

    def cleanup_store(self, store):
        store.delete_collection()
        store._engine.dispose()
