"""llama-index-vector-stores-postgres's PGVectorStore cannot store a text or
metadata value holding NUL (U+0000).

llama-index-vector-stores-postgres 0.9.0 keeps a node's text in a
VARCHAR column and its metadata as jsonb; PostgreSQL refuses U+0000 in
both, and ``add`` raises: ``ValueError: A string literal cannot contain
NUL (0x00) characters.`` (psycopg2, for the text) and
``UntranslatableCharacter: unsupported Unicode escape sequence`` (for the
metadata). ``BasePydanticVectorStore.add`` takes any ``TextNode``, whose
text and metadata values are any ``str``. Found by tinymemory's
store.hostile_text_round_trip, store.big_content_round_trip,
recall.hostile_queries, portability.round_trip and
portability.import_hostile through tinymemory.adapters.llamaindex (tried
outside CI, docs/adapters.md). Expected: stored and read back byte for
byte (or a refusal documented by the interface).

    pip install llama-index-vector-stores-postgres pgserver
    TINYMEMORY_POSTGRES_URL=postgres://... python repro_llamaindex_pgvector_nul.py   # exits 1 while the fault is there
"""

import asyncio
import os
import sys
import uuid
from urllib.parse import urlparse

from llama_index.core.schema import TextNode
from llama_index.vector_stores.postgres import PGVectorStore
from sqlalchemy import create_engine, text

url = urlparse(os.environ["TINYMEMORY_POSTGRES_URL"])
store = PGVectorStore.from_params(
    host=url.hostname, port=str(url.port), database=url.path.lstrip("/"), user=url.username,
    password=url.password or "", table_name="repro_nul_" + uuid.uuid4().hex[:8], embed_dim=4,
)
failed = False
for content, metadata in (("before\x00after", {}), ("x", {"key": "before\x00after"})):
    try:
        store.add([TextNode(text=content, metadata=metadata, embedding=[1.0, 0.0, 0.0, 0.0])])
    except Exception as e:  # noqa: BLE001  (the two faults raise two types)
        print(f"FAULT: add(TextNode(text={content!r}, metadata={metadata!r})): {type(e).__name__}: {e}".splitlines()[0])
        failed = True
asyncio.run(store.close())  # a coroutine in this version
engine = create_engine(f"postgresql+psycopg2://{url.username}@{url.hostname}:{url.port}{url.path}")
with engine.begin() as connection:
    connection.execute(text(f'DROP TABLE IF EXISTS public."data_{store.table_name}"'))
engine.dispose()
sys.exit(1 if failed else 0)
