"""langchain-postgres's PGVectorStore (langchain_postgres.v2) with metadata
columns and an HNSW index: a filtered search loses the documents it
allows, and a document comes back with every metadata column added.

langchain-postgres 0.0.19 over PostgreSQL 16 with pgvector (the
``pgserver`` 0.1.4 wheel), a table made by ``init_vectorstore_table`` with
``metadata_columns`` and ``apply_vector_index(HNSWIndex())`` before the
first add:

1. A search with a ``filter`` is one ``SELECT ... WHERE <filter> ORDER
   BY embedding <=> :q LIMIT k``; pgvector walks the HNSW index for its
   nearest ``hnsw.ef_search`` (40) candidates and applies the ``WHERE`` to
   those alone, so beside 3,000 documents of another namespace close to
   the query, a search filtered on a namespace holding 10 documents
   answers fewer than 10, or none. Without the index the scan is exact
   and answers all 10. Found by tinymemory's recall.namespace_isolation.
2. A document whose metadata lacks a metadata column comes back with
   that column's key set to None (``{"id": 1}`` added, ``{"id": 1,
   "namespace": None}`` read back), where LangChain's standard tests
   compare the document read back with the one added. Found by the ten
   ``interface.langchain.*`` checks that read a document back, each
   naming the keys added.

Both through tinymemory.adapters.langchain (tried outside CI,
docs/adapters.md). Expected: the k nearest documents the filter allows;
a document read back as it was added.

    pip install langchain-postgres==0.0.19 psycopg-binary==3.3.9 pgserver==0.1.4
    TINYMEMORY_POSTGRES_URL=postgres://... python repro_langchain_pgvectorstore_columns.py   # exits 1 while a fault is there
"""

import os
import sys
import uuid

from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_postgres import Column, PGEngine, PGVectorStore
from langchain_postgres.v2.indexes import HNSWIndex

engine = PGEngine.from_connection_string(
    url="postgresql+psycopg://" + os.environ["TINYMEMORY_POSTGRES_URL"].split("://", 1)[1]
)
embeddings = DeterministicFakeEmbedding(size=256)
faults = []


def make(indexed):
    table = "repro_pgvs_cols_" + uuid.uuid4().hex[:8]
    engine.init_vectorstore_table(table_name=table, vector_size=256, metadata_columns=[Column("namespace", "TEXT")])
    store = PGVectorStore.create_sync(
        engine=engine, table_name=table, embedding_service=embeddings, metadata_columns=["namespace"]
    )
    if indexed:
        store.apply_vector_index(HNSWIndex(name=table + "_hnsw"))
    return table, store


tenant = [Document(page_content=f"comet {i}", metadata={"namespace": "a"}) for i in range(10)]
others = [Document(page_content=f"comet {i % 3}", metadata={"namespace": "b"}) for i in range(3000)]
for indexed in (False, True):
    table, store = make(indexed)
    store.add_documents(tenant)
    store.add_documents(others)
    hits = store.similarity_search("comet 0", k=10, filter={"namespace": {"$eq": "a"}})
    print(f"{'HNSW index' if indexed else 'no index (exact)'}: 10 documents of namespace a among 3,010; "
          f"a search filtered on a with k=10 answered {len(hits)}")
    if len(hits) < 10:
        faults.append(f"with the HNSW index the filtered search answered {len(hits)} of the 10 documents it allows")
    engine.drop_table(table)

table, store = make(False)
added = Document(id=str(uuid.uuid4()), page_content="foo", metadata={"id": 1})
store.add_documents([added])
back = store.get_by_ids([added.id])
print(f"added metadata {added.metadata}, get_by_ids read back {[d.metadata for d in back]}")
if [d.metadata for d in back] != [added.metadata]:
    faults.append(f"a document added with metadata {added.metadata} came back with {back[0].metadata}")
engine.drop_table(table)
for fault in faults:
    print("FAULT:", fault)
sys.exit(1 if faults else 0)
