"""Six faults of langchain-milvus's Milvus over Milvus Lite, each with plain calls.

langchain-milvus 0.4.0 (langchain_milvus/vectorstores/milvus.py) with
pymilvus 3.0.2 and milvus-lite 3.2.2, a local file, `enable_dynamic_field=True`
(the metadata schema is otherwise fixed by the first document, which
refuses a None). Found through tinymemory.adapters.langchain (a collection
per store); each fault below fails the checks named:

1. A relevance search before the first add raises "ValueError: No index
   params provided. Could not determine relevance function." (the
   collection and its index are only made by the first add, where
   similarity_search answers []: store.opens_empty, model.differential).
2. k = 2^63 - 1 raises MilvusException "array is too big" (Milvus Lite
   allocates k results: recall.huge_limit).
3. A text past 65,535 characters raises MilvusException "VARCHAR field
   'text' value length ... exceeds max_length=65535" (the text field is
   a VARCHAR of 65,535, Milvus's longest: store.big_content_round_trip,
   portability.import_hostile).
4. add_documents ignores Document.id and, given no ids, returns Milvus's
   integer keys ([1, 2]), where VectorStore.add_documents returns the
   documents' string ids (interface.langchain.add_documents; and
   generated_ids, document_ids for a store not declared without
   get_by_ids).
5. A search answers documents with id None and the key added to their
   metadata as "pk" (interface.langchain.delete, upsert).
6. get_by_ids is VectorStore's, which raises NotImplementedError: a
   test file declares has_get_by_ids = False (docs/adapters.md), and
   interface.langchain.get_by_ids, generated_ids, document_ids and
   string_ids skip; undeclared, they fail.

    pip install langchain-milvus==0.4.0 pymilvus==3.0.2 milvus-lite==3.2.2
    python repro_langchain_milvus.py   # exits 1 while a fault is there
"""

import logging
import os
import shutil
import sys
import tempfile
import uuid

from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_milvus import Milvus
from milvus_lite.server_manager import server_manager_instance

# pymilvus logs each failed insert with its whole entity: the faults are printed below.
logging.disable(logging.CRITICAL)
directory = tempfile.mkdtemp(prefix="repro-milvus-")
faults = []


def store():
    return Milvus(
        DeterministicFakeEmbedding(size=8),
        collection_name="c" + uuid.uuid4().hex[:12],
        connection_args={"uri": os.path.join(directory, "milvus.db")},
        enable_dynamic_field=True,
        auto_id=False,
    )


# 1. A relevance search on a store nothing was added to.
s = store()
assert s.similarity_search("x", k=1) == []
try:
    s.similarity_search_with_relevance_scores("x", k=1)
except ValueError as e:
    faults.append(f"1. similarity_search_with_relevance_scores before the first add: ValueError: {e}")

# 2. A huge k.
s = store()
s.add_documents([Document(page_content="lantern", metadata={"key": "a"})], ids=["a"])
try:
    s.similarity_search("lantern", k=2**63 - 1)
except Exception as e:  # noqa: BLE001 - the fault is the exception
    faults.append(f"2. k = 2^63 - 1: {type(e).__name__}: {e}")

# 3. A long text.
try:
    s.add_documents([Document(page_content="x" * 70_000, metadata={"key": "big"})], ids=["big"])
except Exception as e:  # noqa: BLE001
    faults.append(f"3. a text of 70,000 characters: {type(e).__name__}: {e}")

# 4. The ids add_documents returns.
s = store()
given = [str(uuid.uuid4()), str(uuid.uuid4())]
docs = [Document(page_content=t, metadata={"n": i}, id=given[i]) for i, t in enumerate(("foo", "bar"))]
returned = s.add_documents(docs)
if returned != given:
    faults.append(f"4. add_documents of documents with ids {given} returned {returned}")

# 5. The documents a search answers.
s = store()
s.add_documents([Document(page_content="foo", metadata={"n": 1})], ids=["7c9e6679-7425-40de-944b-e07fc1f90a02"])
(found,) = s.similarity_search("foo", k=1)
if found.id != "7c9e6679-7425-40de-944b-e07fc1f90a02" or found.metadata != {"n": 1}:
    faults.append(f"5. similarity_search answered id={found.id!r} metadata={found.metadata!r}")

# 6. get_by_ids.
try:
    s.get_by_ids(["7c9e6679-7425-40de-944b-e07fc1f90a02"])
except NotImplementedError as e:
    faults.append(f"6. get_by_ids: NotImplementedError: {e}")

# Milvus Lite serves the file from this process and closes it at exit,
# which would write it again into a removed directory: stop it first.
server_manager_instance.release_server(os.path.join(directory, "milvus.db"))
shutil.rmtree(directory)
for fault in faults:
    print("FAULT:", fault.splitlines()[0])
sys.exit(1 if faults else 0)
