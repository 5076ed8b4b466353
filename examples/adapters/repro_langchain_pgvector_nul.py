"""PGVector cannot store a content or metadata value holding NUL (U+0000).

langchain-postgres 0.0.19 keeps the content as VARCHAR and the metadata as
jsonb; PostgreSQL refuses U+0000 in both ("PostgreSQL text fields cannot
contain NUL (0x00) bytes", "unsupported Unicode escape sequence"), and
add_documents raises. Found by tinymemory's store.hostile_text_round_trip,
store.big_content_round_trip, recall.hostile_queries and the portability
checks through tinymemory.adapters.langchain. Expected: stored and read
back byte for byte (or a refusal documented by the interface).

    pip install langchain-postgres psycopg-binary pgserver
    TINYMEMORY_POSTGRES_URL=postgres://... python repro_langchain_pgvector_nul.py   # exits 1 while the fault is there
"""

import os
import sys

from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_postgres import PGVector
from sqlalchemy.exc import DataError

url = "postgresql+psycopg://" + os.environ["TINYMEMORY_POSTGRES_URL"].split("://", 1)[1]
store = PGVector(DeterministicFakeEmbedding(size=8), connection=url, collection_name="repro_nul", use_jsonb=True)
failed = False
for content, metadata in (("before\x00after", {}), ("x", {"key": "before\x00after"})):
    try:
        store.add_documents([Document(page_content=content, metadata=metadata)])
    except DataError as e:
        print(f"FAULT: add_documents({content!r}, {metadata!r}): {e.orig}".splitlines()[0])
        failed = True
store.delete_collection()
sys.exit(1 if failed else 0)
