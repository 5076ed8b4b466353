"""PGVector made with a connection string answers none of VectorStore's async methods.

langchain-postgres 0.0.19 overrides aadd_documents, asimilarity_search,
aget_by_ids and adelete with methods that need an async engine, which a
PGVector made the usual way (a connection string, async_mode left False)
does not have: each raises "AssertionError: _async_engine not found",
where the VectorStore interface's own async twins (run the sync method in
an executor) would answer. Found by tinymemory's interface family
(interface.langchain.*, through the async methods) through
tinymemory.adapters.langchain. Expected: the async methods answer as the
sync ones do (or the class refuses them as documented).

    pip install langchain-postgres psycopg-binary pgserver
    TINYMEMORY_POSTGRES_URL=postgres://... python repro_langchain_pgvector_async_sync_mode.py   # exits 1 while the fault is there
"""

import asyncio
import os
import sys

from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_postgres import PGVector

url = "postgresql+psycopg://" + os.environ["TINYMEMORY_POSTGRES_URL"].split("://", 1)[1]
store = PGVector(DeterministicFakeEmbedding(size=8), connection=url, collection_name="repro_async", use_jsonb=True)
store.add_documents([Document(page_content="foo")], ids=["7c9e6679-7425-40de-944b-e07fc1f90a01"])
print("sync similarity_search:", [d.page_content for d in store.similarity_search("foo", k=1)])
failed = False
try:
    asyncio.run(store.asimilarity_search("foo", k=1))
except AssertionError as e:
    print(f"FAULT: asimilarity_search raised AssertionError: {e}")
    failed = True
store.delete_collection()
sys.exit(1 if failed else 0)
