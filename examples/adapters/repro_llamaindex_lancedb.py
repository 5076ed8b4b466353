"""Six faults of LlamaIndex's LanceDBVectorStore, each with plain calls.

llama-index-vector-stores-lancedb 0.6.0
(llama_index/vector_stores/lancedb/base.py) over lancedb 0.40.0, a
directory per store, the default `mode="overwrite"` (the table is made by
the first add). Found through tinymemory.adapters.llamaindex; each fault
below fails the checks named:

1. get_nodes(node_ids=...) builds `id in ("...")` and delete(ref_doc_id)
   `doc_id = "..."`: in LanceDB's SQL a double-quoted word is a column
   name, so every read by id and every delete raises "Schema error: No
   field named ..." (store.upsert, forget.idempotent, the portability and
   property checks: every check that reads an entry back or replaces one).
2. A metadata value that is None in the first node added (LlamaIndex's
   flat metadata allows str, int, float and None) takes Arrow's null
   type, and a later string there is refused: "cannot cast field
   'session' from Utf8 to Null" (recall.limit, list.filters,
   recall.filters, sections.namespaces_listed_once).
3. A query that matches nothing raises `Warning("query results are
   empty..")` instead of answering no nodes (recall.deterministic).
4. A query before the first add raises TableNotFoundError.
5. similarity_top_k = 2^63 - 1 raises OverflowError (recall.huge_limit).
6. A filter value holding `'` is put into the SQL unescaped: "Unterminated
   string literal".
It also imports pandas without declaring it (`pip install
llama-index-vector-stores-lancedb` gives ModuleNotFoundError: No module
named 'pandas' at import).

    pip install llama-index-core==0.14.25 llama-index-vector-stores-lancedb==0.6.0 lancedb==0.40.0 pandas==3.1.1
    python repro_llamaindex_lancedb.py   # exits 1 while a fault is there
"""

import shutil
import sys
import tempfile

from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)
from llama_index.vector_stores.lancedb import LanceDBVectorStore

faults = []
directories = []


def fresh():
    directories.append(tempfile.mkdtemp(prefix="repro-lancedb-"))
    return LanceDBVectorStore(uri=directories[-1], table_name="vectors")


def node(node_id, text, vector, **metadata):
    n = TextNode(id_=node_id, text=text, metadata=metadata, embedding=vector)
    n.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id=node_id)
    return n


def equal(**fields):
    return MetadataFilters(
        filters=[MetadataFilter(key=k, value=v, operator=FilterOperator.EQ) for k, v in fields.items()],
        condition=FilterCondition.AND,
    )


def attempt(what, call):
    try:
        return call()
    except BaseException as e:  # noqa: BLE001 (Warning, lancedb's own classes)
        faults.append(f"{what} raised {type(e).__name__}: {str(e)[:200]}")
        return None


try:
    store = fresh()
    attempt(
        "a query before the first add",
        lambda: store.query(VectorStoreQuery(query_embedding=[1.0, 0.0], similarity_top_k=1)),
    )
    store.add(
        [node("a", "alpha", [1.0, 0.0], ns="x", session="s"), node("b", "beta", [0.6, 0.8], ns="y", session="s")]
    )
    attempt("get_nodes(node_ids=['a'])", lambda: store.get_nodes(node_ids=["a"]))
    attempt("delete('a')", lambda: store.delete("a"))
    attempt(
        "a query filtered on ns = 'z', which no node has",
        lambda: store.query(VectorStoreQuery(query_embedding=[1.0, 0.0], similarity_top_k=2, filters=equal(ns="z"))),
    )
    attempt(
        "a query filtered on ns = \"o'x\"",
        lambda: store.query(VectorStoreQuery(query_embedding=[1.0, 0.0], similarity_top_k=2, filters=equal(ns="o'x"))),
    )
    attempt(
        "a query with similarity_top_k 2^63 - 1",
        lambda: store.query(VectorStoreQuery(query_embedding=[1.0, 0.0], similarity_top_k=2**63 - 1)),
    )
    store = fresh()
    store.add([node("a", "alpha", [1.0, 0.0], ns="x", session=None)])
    attempt(
        "an add of session 's' after a first add of session None",
        lambda: store.add([node("b", "beta", [0.0, 1.0], ns="x", session="s")]),
    )
finally:
    for d in directories:
        shutil.rmtree(d, ignore_errors=True)
for fault in faults:
    print("FAULT:", fault)
sys.exit(1 if faults else 0)
