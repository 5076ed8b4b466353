"""langchain-community's FAISS: delete of an id it does not hold raises, and
a batch mixing a Document with an id and one without stores the second
under the id None.

langchain-community 0.4.2, vectorstores/faiss.py: delete raises
"ValueError: Some specified ids do not exist in the current store" for any
id not held. LangChain's standard tests (langchain-tests 1.1.9,
test_delete_missing_content) state "Deleting missing content should not
raise an exception". And add_documents of [Document(id="a"), Document()]
(langchain-core's VectorStore.add_documents passes ids ["a", None] to
add_texts once any is set) returns ["a", None] and keeps the second
document under None, where test_add_documents_with_existing_ids states "If
some documents include IDs and others don't string IDs are generated for
the latter" (its assertion compares with the returned ids, so None passes
it). Found by tinymemory's interface.langchain.delete_missing and
interface.langchain.document_ids through tinymemory.adapters.langchain.

    pip install langchain-community faiss-cpu
    python repro_faiss_delete_missing_and_mixed_ids.py   # exits 1 while a fault is there
"""

import sys

import faiss
from langchain_community.docstore.in_memory import InMemoryDocstore
from langchain_community.vectorstores import FAISS
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding

faults = []
store = FAISS(DeterministicFakeEmbedding(size=8), faiss.IndexFlatL2(8), InMemoryDocstore(), {})
try:
    store.delete(["never-added"])
except ValueError as e:
    faults.append(f"delete of an id not held raised ValueError: {e}")
ids = store.add_documents([Document(id="a", page_content="foo"), Document(page_content="bar")])
if not all(isinstance(i, str) for i in ids):
    found = [d.id for d in store.similarity_search("bar", k=2)]
    faults.append(f"add_documents of a mixed batch returned {ids}; the documents are found with ids {found}")
for f in faults:
    print("FAULT:", f)
sys.exit(1 if faults else 0)
