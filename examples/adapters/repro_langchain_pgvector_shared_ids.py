"""PGVector keeps a document id in one collection only: adding it to a
second collection changes the first one's document instead.

langchain-postgres 0.0.19, langchain_postgres/vectorstores.py: every
collection's documents are rows of one table, langchain_pg_embedding,
whose primary key is the id alone; add_embeddings inserts with
`ON CONFLICT (id) DO UPDATE SET embedding, document, cmetadata`, leaving
collection_id as it was. So add_documents into collection B of an id that
collection A holds overwrites A's document and adds nothing to B, without
error: B's get_by_ids and searches never see it. Found by tinymemory's
portability.taint_kept, properties.export_round_trip and
properties.cap_determinism through tinymemory.adapters.langchain (a store
exported from one collection and imported into a fresh one). Expected:
each collection holds its own document (or an error).

    pip install langchain-postgres psycopg-binary pgserver
    TINYMEMORY_POSTGRES_URL=postgres://... python repro_langchain_pgvector_shared_ids.py   # exits 1 while the fault is there
"""

import os
import sys

from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_postgres import PGVector

url = "postgresql+psycopg://" + os.environ["TINYMEMORY_POSTGRES_URL"].split("://", 1)[1]
embeddings = DeterministicFakeEmbedding(size=8)
a = PGVector(embeddings, connection=url, collection_name="repro_shared_ids_a", use_jsonb=True)
b = PGVector(embeddings, connection=url, collection_name="repro_shared_ids_b", use_jsonb=True)
doc_id = "3f1a8f8e-5a1e-4c4e-9d6a-2d1b1f0c7e11"
a.add_documents([Document(page_content="in a", metadata={"where": "a"})], ids=[doc_id])
b.add_documents([Document(page_content="in b", metadata={"where": "b"})], ids=[doc_id])
in_a, in_b = a.get_by_ids([doc_id]), b.get_by_ids([doc_id])
a.delete_collection()
b.delete_collection()
print(f"collection a: {[d.page_content for d in in_a]}; collection b: {[d.page_content for d in in_b]}")
if not in_b:
    print("FAULT: add_documents into collection b of an id collection a holds added nothing to b")
    sys.exit(1)
