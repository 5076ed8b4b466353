"""Five faults of LanceDB's LangChain vector store, each with plain calls.

langchain-community 0.4.2 (langchain_community/vectorstores/lancedb.py)
over lancedb 0.40.0, `mode="append"` (the default "overwrite" replaces the
table on every add). Found through tinymemory.adapters.langchain (a
LanceDB table per store, `make_filter` giving LanceDB's SQL filter over
the metadata struct); each fault below fails the checks named:

1. A metadata field that is None in the first document added takes
   Arrow's null type, and a later string there is refused: "cannot cast
   field 'session_id' from Utf8 to Null" (store.upsert, list.filters,
   recall.filters, ...).
2. add_documents with the id of a document the table holds adds a second
   one (no upsert), and searches return documents without their ids
   (store.upsert_replaces_metadata, store.timestamps, ...).
3. The filter is applied after the limit by default (`prefilter=False`):
   a search with k=2 filtered on one document's metadata misses it when
   two other documents are nearer (namespaces.exact_counts, store.bulk,
   the portability checks: every read of a store without get_by_ids).
4. A search before the first add raises AttributeError (the table is only
   made by the first add; store.opens_empty).
5. k = 2^63 - 1 raises OverflowError (recall.huge_limit).

    pip install langchain-community lancedb
    python repro_langchain_lancedb.py   # exits 1 while a fault is there
"""

import shutil
import sys
import tempfile

import lancedb
from langchain_community.vectorstores import LanceDB
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding

faults = []
directories = []


def store():
    directories.append(tempfile.mkdtemp(prefix="repro-lancedb-"))
    return LanceDB(
        connection=lancedb.connect(directories[-1]),
        embedding=DeterministicFakeEmbedding(size=8),
        table_name="t",
        mode="append",
    )


# 1. None, then a string, in one metadata field.
s = store()
s.add_documents([Document(page_content="a", metadata={"session_id": None})], ids=["1"])
try:
    s.add_documents([Document(page_content="b", metadata={"session_id": "s1"})], ids=["2"])
except Exception as e:  # noqa: BLE001 - the fault is the exception
    faults.append(f"1. a string after None in one metadata field: {type(e).__name__}: {e}")

# 2. The same id twice.
s = store()
s.add_documents([Document(page_content="old", metadata={"key": "k"})], ids=["k"])
s.add_documents([Document(page_content="new", metadata={"key": "k"})], ids=["k"])
docs = s.similarity_search("new", k=10)
if len(docs) != 1 or docs[0].id != "k":
    faults.append(f"2. after two adds of id 'k': {[(d.id, d.page_content) for d in docs]}")

# 3. A filter applied after the limit.
s = store()
s.add_documents([Document(page_content=t, metadata={"key": t}) for t in ("x", "y", "z")], ids=["x", "y", "z"])
nearest = [d.metadata["key"] for d in s.similarity_search("x", k=3)]
farthest = nearest[-1]
found = s.similarity_search("x", k=2, filter=f"metadata.key = '{farthest}'")
if not found:
    faults.append(f"3. similarity_search('x', k=2, filter on key {farthest!r}, the farthest of 3) found nothing")

# 4. A search on an empty store.
try:
    store().similarity_search("x", k=1)
except AttributeError as e:
    faults.append(f"4. a search before the first add: AttributeError: {e}")

# 5. A huge k.
s = store()
s.add_documents([Document(page_content="lantern", metadata={"key": "a"})], ids=["a"])
try:
    s.similarity_search("lantern", k=2**63 - 1)
except OverflowError as e:
    faults.append(f"5. k = 2^63 - 1: OverflowError: {e}")

for directory in directories:
    shutil.rmtree(directory)
for fault in faults:
    print("FAULT:", fault.splitlines()[0])
sys.exit(1 if faults else 0)
