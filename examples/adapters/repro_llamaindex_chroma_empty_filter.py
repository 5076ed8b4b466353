"""Chroma through llama-index-vector-stores-chroma: a node whose metadata
value is None is written with "" (Chroma takes no None), so a filter on ""
also answers the nodes that had None.

tinymemory's recall.filters stores entries with no session and one with
session "" and asks a recall filtered on session "": through
tinymemory.adapters.llamaindex (which gives the node ``session_id: None``)
Chroma answered the nodes without a session too, which the adapter reports
as a mapping limit ("... nodes outside the MetadataFilters ...: the store
ignored them"). The same with plain calls: four nodes of ns "a", sessions
"", "s1", "other" and None, a query filtered on ns "a" and session "".
llama-index-vector-stores-chroma 0.6.0, chromadb 1.5.9.

    python repro_llamaindex_chroma_empty_filter.py   # exits 1 while the fault is there
"""

import sys

import chromadb
from chromadb.config import Settings
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import (
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)
from llama_index.vector_stores.chroma import ChromaVectorStore

client = chromadb.EphemeralClient(Settings(anonymized_telemetry=False))
store = ChromaVectorStore(chroma_collection=client.create_collection("repro", metadata={"hnsw:space": "cosine"}))
store.add(
    [
        TextNode(id_="empty", text="lantern", metadata={"ns": "a", "session": ""}, embedding=[1.0, 0.0, 0.0]),
        TextNode(id_="s1", text="lantern", metadata={"ns": "a", "session": "s1"}, embedding=[0.9, 0.1, 0.0]),
        TextNode(id_="other", text="lantern", metadata={"ns": "a", "session": "other"}, embedding=[0.8, 0.2, 0.0]),
        TextNode(id_="none", text="lantern", metadata={"ns": "a", "session": None}, embedding=[0.7, 0.3, 0.0]),
    ]
)
only_empty = MetadataFilters(
    filters=[
        MetadataFilter(key="ns", value="a", operator=FilterOperator.EQ),
        MetadataFilter(key="session", value="", operator=FilterOperator.EQ),
    ]
)
ids = store.query(VectorStoreQuery(query_embedding=[1.0, 0.0, 0.0], similarity_top_k=4, filters=only_empty)).ids
print("a query filtered on ns 'a' and session '' answered:", ids)
if sorted(ids) != ["empty"]:
    stored = store.client.get(ids=["none"], include=["metadatas"])["metadatas"][0]["session"]
    print(f"FAULT: the filter session == '' answered {ids} (expected ['empty']); the node written with session None "
          f"holds session {stored!r} in Chroma")
    sys.exit(1)
sys.exit(0)
