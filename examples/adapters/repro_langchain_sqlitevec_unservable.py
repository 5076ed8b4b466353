"""SQLiteVec can read a document neither by id nor by a metadata filter.

langchain-community 0.4.2, langchain_community/vectorstores/sqlitevec.py:
SQLiteVec defines no get_by_ids and no delete (VectorStore's raise
NotImplementedError), its similarity_search takes `**kwargs` and drops a
`filter` given there, and add_texts ignores the ids it is given. So no
entry can be read back as itself, and no search pinned to a namespace:
through tinymemory.adapters.langchain every check that reads fails with one
mapping limit, "SQLiteVec cannot be served: it has no get_by_ids and its
similarity_search takes no filter". Expected of a VectorStore that serves
the contract: get_by_ids, or a filter its searches apply.

    pip install langchain-community sqlite-vec pysqlite3-binary
    python repro_langchain_sqlitevec_unservable.py   # exits 1 while the store lacks both
"""

import sys

import pysqlite3.dbapi2 as sqlite3
import sqlite_vec
from langchain_community.vectorstores import SQLiteVec
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding

conn = sqlite3.connect(":memory:")
conn.row_factory = sqlite3.Row
conn.enable_load_extension(True)
sqlite_vec.load(conn)
conn.enable_load_extension(False)
store = SQLiteVec("t", conn, DeterministicFakeEmbedding(size=8))
ids = store.add_documents(
    [Document(page_content=t, metadata={"key": t}) for t in ("a", "b", "c")], ids=["id-a", "id-b", "id-c"]
)
lacks = []
print(f"add_documents(ids=['id-a', 'id-b', 'id-c']) returned {ids}")
try:
    store.get_by_ids(["id-a"])
except NotImplementedError as e:
    lacks.append(f"get_by_ids: NotImplementedError: {e}")
hits = store.similarity_search("a", k=3, filter={"key": "b"})
if any(d.metadata.get("key") != "b" for d in hits):
    lacks.append(f"a filter on key 'b': the search answered keys {[d.metadata.get('key') for d in hits]}")
try:
    store.delete(["id-a"])
except NotImplementedError as e:
    lacks.append(f"delete: NotImplementedError: {e}")
for lack in lacks:
    print("FAULT:", lack)
sys.exit(1 if lacks else 0)
