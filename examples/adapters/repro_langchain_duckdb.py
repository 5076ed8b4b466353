"""LangChain's DuckDB vector store can read a document neither by id nor by
a metadata filter, cannot delete, refuses a second add of an id, and with
pandas 3 installed cannot add at all.

langchain-community 0.4.2, langchain_community/vectorstores/duckdb.py:
DuckDB defines no get_by_ids and no delete (VectorStore's raise
NotImplementedError), and its similarity_search takes `**kwargs` and
drops a `filter` given there. Its table's id is a PRIMARY KEY and
add_texts INSERTs, so add_documents of an id it holds raises a
constraint error instead of replacing the document; the documents its
searches answer carry no id (`Document.id` None) and a `_similarity_score`
added to their metadata. When pandas imports, add_texts registers a
DataFrame and INSERTs from it, which duckdb 1.3.2 refuses under pandas
3.1.1 (its default `str` dtype: "Not implemented Error: Data type 'str'
not recognized"); without pandas it INSERTs row by row and the add
works. Through tinymemory.adapters.langchain every check that reads
fails with one mapping limit, "DuckDB cannot be served: it has no
get_by_ids and its similarity_search takes no filter"; the interface
family's checks fail on the rest. Expected of a VectorStore that serves
the contract: get_by_ids, or a filter its searches apply.

    pip install langchain-community==0.4.2 duckdb==1.3.2 [pandas==3.1.1]
    python repro_langchain_duckdb.py   # exits 1 while the store lacks them
"""

import sys

import duckdb
from langchain_community.vectorstores import DuckDB
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding

faults = []
store = DuckDB(connection=duckdb.connect(":memory:"), embedding=DeterministicFakeEmbedding(size=8))
docs = [Document(page_content=t, metadata={"key": t}) for t in ("a", "b", "c")]
try:
    ids = store.add_documents(docs, ids=["id-a", "id-b", "id-c"])
except Exception as e:  # noqa: BLE001 (duckdb's own exception class)
    try:
        import pandas

        under = f"pandas {pandas.__version__} installed"
    except ImportError:
        under = "pandas absent"
    print(f"FAULT: add_documents of three documents ({under}) raised {type(e).__name__}: {e}")
    sys.exit(1)
print(f"add_documents(ids=['id-a', 'id-b', 'id-c']) returned {ids}")
try:
    store.get_by_ids(["id-a"])
except NotImplementedError as e:
    faults.append(f"get_by_ids: NotImplementedError: {e}")
hits = store.similarity_search("a", k=3, filter={"key": "b"})
if any(d.metadata.get("key") != "b" for d in hits):
    faults.append(f"a filter on key 'b': the search answered keys {[d.metadata.get('key') for d in hits]}")
if any(d.id is None for d in hits):
    faults.append(f"the search answered documents without their ids: {[(d.id, d.metadata) for d in hits]}")
try:
    store.delete(["id-a"])
except NotImplementedError as e:
    faults.append(f"delete: NotImplementedError: {e}")
try:
    store.add_documents([Document(page_content="a2", metadata={"key": "a"})], ids=["id-a"])
except Exception as e:  # noqa: BLE001 (duckdb's own exception class)
    faults.append(f"add_documents of id-a again raised {type(e).__name__}: {e}")
for fault in faults:
    print("FAULT:", fault)
sys.exit(1 if faults else 0)
