"""SKLearnVectorStore can read a document neither by id nor by a metadata
filter, and keeps no id.

langchain-community 0.4.2, langchain_community/vectorstores/sklearn.py:
SKLearnVectorStore defines no get_by_ids and no delete (VectorStore's raise
NotImplementedError), its similarity_search takes `**kwargs` and drops a
`filter` given there, add_texts appends every call (a second add of one id
is a second document), a search before the first add raises, and the
documents it answers carry no id (`Document.id` None; the id is put in
the metadata as "id", under a metadata "id" of the caller's). Through
tinymemory.adapters.langchain every check that reads fails with one
mapping limit, "SKLearnVectorStore cannot be served: it has no get_by_ids
and its similarity_search takes no filter"; the interface family's
checks fail on the rest. Expected of a VectorStore that serves the
contract: get_by_ids, or a filter its searches apply.

    pip install langchain-community==0.4.2 scikit-learn==1.9.1 numpy==2.4.6
    python repro_langchain_sklearn.py   # exits 1 while the store lacks them
"""

import sys

from langchain_community.vectorstores import SKLearnVectorStore
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding

store = SKLearnVectorStore(DeterministicFakeEmbedding(size=8), metric="cosine")
faults = []
try:
    store.similarity_search("a", k=1)
except Exception as e:  # noqa: BLE001 (the store's own exception class)
    faults.append(f"a search of the empty store raised {type(e).__name__}: {e}")
docs = [Document(page_content=t, metadata={"key": t}) for t in ("a", "b", "c")]
ids = store.add_documents(docs, ids=["id-a", "id-b", "id-c"])
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
store.add_documents([Document(page_content="a", metadata={"key": "a"})], ids=["id-a"])
again = [d.metadata.get("key") for d in store.similarity_search("a", k=4)]
if again.count("a") > 1:
    faults.append(f"add_documents of id-a again added a second document: a search answers keys {again}")
mixed = store.add_documents([Document(page_content="d"), Document(page_content="e", id="id-e")])
if None in mixed:
    faults.append(f"add_documents of one document without an id and one with id-e returned {mixed}")
for fault in faults:
    print("FAULT:", fault)
sys.exit(1 if faults else 0)
