"""FAISS (faiss-cpu) through langchain-community's FAISS vector store: an
exact flat L2 index over unit vectors, with an in-memory docstore."""

import faiss
from langchain_community.docstore.in_memory import InMemoryDocstore
from langchain_community.vectorstores import FAISS

from tinymemory.testing import VectorStoreConformance


class TestFaiss(VectorStoreConformance):
    independent_stores = True  # each driver process holds its own engine
    def make_store(self, embeddings):
        return FAISS(embeddings, faiss.IndexFlatL2(embeddings.dims), InMemoryDocstore(), {})
