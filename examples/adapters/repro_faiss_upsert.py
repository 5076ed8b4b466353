"""langchain-community's FAISS: add_documents with an existing id raises,
and leaves an orphan vector in the index.

langchain-community 0.4.2, vectorstores/faiss.py: __add calls
index.add(vector) before docstore.add, which raises "Tried to add ids that
already exist"; the vector stays in the FAISS index with no docstore id, so
the index now holds more vectors than the store has documents. LangChain's
standard tests (langchain-tests, test_add_documents_by_id_with_mutation)
require add_documents with an existing id to overwrite. Found by
tinymemory's store.upsert (and every check that upserts) through
tinymemory.adapters.langchain.

    python repro_faiss_upsert.py   # exits 1 while the fault is there
"""

import sys

import faiss
from langchain_community.docstore.in_memory import InMemoryDocstore
from langchain_community.vectorstores import FAISS
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding

store = FAISS(DeterministicFakeEmbedding(size=8), faiss.IndexFlatL2(8), InMemoryDocstore(), {})
store.add_documents([Document(page_content="old text")], ids=["1"])
try:
    store.add_documents([Document(page_content="new text")], ids=["1"])
except ValueError as e:
    print(f"FAULT: {e}; the index holds {store.index.ntotal} vectors for {len(store.index_to_docstore_id)} id(s)")
    sys.exit(1)
print("fixed:", store.get_by_ids(["1"]))
