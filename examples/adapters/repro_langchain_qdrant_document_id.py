"""langchain-qdrant's QdrantVectorStore returns documents without their id,
with keys added to their metadata, refuses a batch mixing a Document with
an id and one without, and refuses ids that are not UUIDs.

langchain-qdrant 1.1.0 (qdrant-client 1.20.0, local mode): similarity_search
and get_by_ids return Document(id=None) with metadata["_id"] (the point id,
in Qdrant's spelling) and metadata["_collection_name"] added to the
metadata stored; add_documents of [Document(id=UUID), Document()] raises
pydantic's "ValidationError: 3 validation errors for PointStruct"
(langchain-core passes the ids [UUID, None] to add_texts); add_documents
with ids=["1"] raises "ValueError: Point id 1 is not a valid UUID", where
LangChain's standard tests give the ids "1", "2" (test_deleting_documents:
`assert ids == ["1", "2"]`) and VectorStore types them `list[str]`. LangChain's
standard tests (langchain-tests 1.1.9) compare every document returned with
Document(page_content=.., metadata=<as given>, id=<the id added>)
(test_add_documents, test_get_by_ids, ...), the get_by_ids docstring says
"The returned documents are expected to have the ID field set to the ID of
the document in the vector store", and test_add_documents_with_existing_ids
states "If some documents include IDs and others don't string IDs are
generated for the latter". Found by tinymemory's interface.langchain.*
(add_documents, delete, upsert, get_by_ids, generated_ids, document_ids,
string_ids)
through tinymemory.adapters.langchain.

    pip install langchain-qdrant qdrant-client
    python repro_langchain_qdrant_document_id.py   # exits 1 while a fault is there
"""

import sys

from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_qdrant import QdrantVectorStore
from qdrant_client import QdrantClient, models

A = "7c9e6679-7425-40de-944b-e07fc1f90a01"
client = QdrantClient(":memory:")
client.create_collection("t", vectors_config=models.VectorParams(size=8, distance=models.Distance.COSINE))
store = QdrantVectorStore(client, "t", DeterministicFakeEmbedding(size=8))
faults = []
store.add_documents([Document(page_content="foo", metadata={"n": 1})], ids=[A])
(got,) = store.get_by_ids([A])
if got.id != A or got.metadata != {"n": 1}:
    faults.append(f"get_by_ids([{A!r}]) returned {got!r} for Document(id={A!r}, metadata={{'n': 1}})")
try:
    store.add_documents([Document(id=A, page_content="foo"), Document(page_content="bar")])
except Exception as e:  # noqa: BLE001 - pydantic's ValidationError
    faults.append(f"add_documents of a batch mixing a Document.id and none raised {type(e).__name__}: {str(e).splitlines()[0]}")
try:
    store.add_documents([Document(page_content="baz")], ids=["1"])
except ValueError as e:
    faults.append(f"add_documents(.., ids=['1']) raised ValueError: {e}")
for f in faults:
    print("FAULT:", f)
sys.exit(1 if faults else 0)
