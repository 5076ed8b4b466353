"""langchain-postgres's PGVectorStore (langchain_postgres.v2) over its
default table cannot store a text holding NUL (U+0000), and refuses the
plain string ids LangChain's interface types and its standard tests give.

langchain-postgres 0.0.19: ``PGEngine.init_vectorstore_table`` makes the
document's text a TEXT column and its id a UUID column (``id_column``
"langchain_id", "data type UUID"). PostgreSQL refuses U+0000 in a text
value, and ``add_documents`` raises ``DataError: PostgreSQL text fields
cannot contain NUL (0x00) bytes``; it also refuses the id ``"1"``
(``InvalidTextRepresentation: invalid input syntax for type uuid``), where
``VectorStore.add_documents`` takes ``ids: list[str]`` and LangChain's
standard tests add ``ids=["1", "2"]``. A table made with
``id_column=Column("langchain_id", "TEXT")`` takes such ids: the refusal
is the default table's. Found by tinymemory's store.hostile_text_round_trip,
store.big_content_round_trip, recall.hostile_queries,
portability.round_trip, portability.import_hostile (the NUL) and
interface.langchain.string_ids (the id) through
tinymemory.adapters.langchain (tried outside CI, docs/adapters.md).
Expected: stored and read back as given (or a refusal the interface
documents).

    pip install langchain-postgres psycopg-binary pgserver
    TINYMEMORY_POSTGRES_URL=postgres://... python repro_langchain_pgvectorstore.py   # exits 1 while a fault is there
"""

import os
import sys
import uuid

from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_postgres import Column, PGEngine, PGVectorStore

engine = PGEngine.from_connection_string(
    url="postgresql+psycopg://" + os.environ["TINYMEMORY_POSTGRES_URL"].split("://", 1)[1]
)
embeddings = DeterministicFakeEmbedding(size=8)
failed = False


def attempt(store, what, docs, ids):
    global failed
    try:
        store.add_documents(docs, ids=ids)
        back = store.get_by_ids(ids)
        if [(d.id, d.page_content) for d in back] != [(i, d.page_content) for i, d in zip(ids, docs)]:
            print(f"FAULT: {what}: get_by_ids gave {[(d.id, d.page_content) for d in back]!r}")
            failed = True
        else:
            print(f"ok: {what}")
    except Exception as e:  # noqa: BLE001  (the faults raise two types)
        print(f"FAULT: {what}: {type(e).__name__}: {e}".splitlines()[0])
        failed = True


for id_column in ("langchain_id", Column("langchain_id", "TEXT")):
    table = "repro_pgvs_" + uuid.uuid4().hex[:8]
    engine.init_vectorstore_table(table_name=table, vector_size=8, id_column=id_column)
    store = PGVectorStore.create_sync(engine=engine, table_name=table, embedding_service=embeddings)
    kind = "UUID id column (the default)" if id_column == "langchain_id" else "TEXT id column"
    attempt(store, f"{kind}: add_documents of a text holding NUL", [Document(page_content="before\x00after")],
            [str(uuid.uuid4())])
    attempt(store, f"{kind}: add_documents with ids=['1', '2']",
            [Document(page_content="foo"), Document(page_content="bar")], ["1", "2"])
    engine.drop_table(table)
sys.exit(1 if failed else 0)
