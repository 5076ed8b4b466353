"""langchain-community's FAISS filters after the nearest fetch_k (20).

vectorstores/faiss.py, similarity_search_with_score_by_vector: with a
filter, the index is searched for fetch_k=20 vectors and the filter is
applied to those, so a filtered search returns fewer than k documents
(none here) while k matching documents exist. Found by tinymemory's
recall.namespace_isolation and namespace.reserved_words through
tinymemory.adapters.langchain (the namespace is a metadata filter).
Expected: the k nearest documents that pass the filter.

    python repro_faiss_filter_after_fetch_k.py   # exits 1 while the fault is there
"""

import sys

import faiss
from langchain_community.docstore.in_memory import InMemoryDocstore
from langchain_community.vectorstores import FAISS
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding

store = FAISS(DeterministicFakeEmbedding(size=8), faiss.IndexFlatL2(8), InMemoryDocstore(), {})
store.add_documents([Document(page_content="comet", metadata={"tenant": "b"}) for _ in range(30)])
store.add_documents([Document(page_content="other words", metadata={"tenant": "a"})])
hits = store.similarity_search("comet", k=1, filter={"tenant": "a"})
if not hits:
    print("FAULT: no hit for tenant a, which holds one document: the filter ran on the 20 nearest only")
    sys.exit(1)
print("fixed:", hits)
