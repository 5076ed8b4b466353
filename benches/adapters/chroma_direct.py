"""What Chroma's own calls cost, with no suite, protocol or adapter around
them (docs/benchmarks.md, "Through the adapters"): each call the adapter
makes during a run without the corpus, timed alone on an ephemeral client,
langchain-chroma's and chromadb's side by side, next to the embedding.

    python benches/adapters/chroma_direct.py [N]

Prints one line per call: the median and the mean of N calls (default
300), in milliseconds. The documents are shaped as the adapter writes them
(the metadata of tinymemory.adapters.langchain), eight namespaces of short
texts.
"""

import statistics
import sys
import time
import uuid

import chromadb
from langchain_chroma import Chroma
from langchain_core.documents import Document

from tinymemory.adapters.embeddings import HashedEmbedding
from tinymemory.adapters.langchain import dict_filter, document_id

N = int(sys.argv[1]) if len(sys.argv) > 1 else 300
WORDS = "the cat sat on a mat while rain fell over quiet fields and old roads".split()


def text(i):
    return " ".join(WORDS[(i * 7 + j) % len(WORDS)] for j in range(3 + i % 5))


def doc(i):
    namespace = f"learning:n{i % 8}"
    key = f"k{i}"
    metadata = {
        "namespace": namespace,
        "key": key,
        "category": "core",
        "taint": "internal",
        "session_id": None,
        "timestamp": "2026-12-06T00:00:00Z",
    }
    return Document(id=document_id(namespace, key), page_content=text(i), metadata=metadata)


def timed(label, fn, n=N, before=None):
    """Times fn(i) for i in 0..n; before(i), untimed, runs first."""
    times = []
    for i in range(n):
        if before is not None:
            before(i)
        start = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - start) * 1000)
    print(f"{label:<62} median {statistics.median(times):7.3f} ms  mean {statistics.fmean(times):7.3f} ms  (n={n})")


def main():
    embeddings = HashedEmbedding()
    client = chromadb.EphemeralClient()
    store = Chroma(collection_name="tm_" + uuid.uuid4().hex[:16], embedding_function=embeddings, client=client)
    docs = [doc(i) for i in range(N)]

    def every_8th_empty(i):
        # The suite's stores are small: a fresh one per check and per
        # property case, which writes a few entries. Chroma's write cost
        # grows with the collection, so it is emptied every 8 writes.
        if i % 8 == 0:
            store.reset_collection()

    def holding_16(i):
        if i % 16 == 0:
            store.reset_collection()
            store.add_documents(docs[:16], ids=[d.id for d in docs[:16]])

    timed("HashedEmbedding.embed_documents, 1 text", lambda i: embeddings.embed_documents([docs[i].page_content]))
    timed(
        "Chroma.add_documents, 1 document (the adapter's store)",
        lambda i: store.add_documents([docs[i]], ids=[docs[i].id]),
        before=every_8th_empty,
    )
    timed(
        "collection.upsert, 1 document, vector given (chromadb alone)",
        lambda i: store._collection.upsert(
            ids=[docs[i].id],
            documents=[docs[i].page_content],
            metadatas=[{k: v for k, v in docs[i].metadata.items() if v is not None}],
            embeddings=[embeddings.embed_query(docs[i].page_content)],
        ),
        before=every_8th_empty,
    )
    timed("Chroma.get_by_ids, 1 id, of 16 (the adapter's get)", lambda i: store.get_by_ids([docs[i % 16].id]),
          before=holding_16)
    timed(
        "Chroma.similarity_search_with_relevance_scores, k 4, of 16",
        lambda i: store.similarity_search_with_relevance_scores(
            text(i + 1), k=4, filter=dict_filter({"namespace": f"learning:n{i % 8}"})
        ),
        before=holding_16,
    )
    # A property case's data: eight entries one call each, against one call.
    eights = [[doc(N + 8 * i + j) for j in range(8)] for i in range(N // 8)]

    def empty(i):
        store.reset_collection()

    timed(
        "Chroma.add_documents x 8, 1 document each (a case's data)",
        lambda i: [store.add_documents([d], ids=[d.id]) for d in eights[i]],
        n=len(eights),
        before=empty,
    )
    timed(
        "Chroma.add_documents, the same 8 documents in one call",
        lambda i: store.add_documents(eights[i], ids=[d.id for d in eights[i]]),
        n=len(eights),
        before=empty,
    )
    timed("Chroma.reset_collection of 8 documents (the adapter's clear)", lambda i: store.reset_collection(),
          n=len(eights), before=lambda i: store.add_documents(eights[i], ids=[d.id for d in eights[i]]))
    def empty_in_place(i):
        # The collection kept (its segments stay): its ids deleted.
        ids = store._collection.get(include=[])["ids"]
        if ids:
            store._collection.delete(ids=ids)

    timed("collection.delete of its 8 ids (emptied in place)", empty_in_place, n=len(eights),
          before=lambda i: store.add_documents(eights[i], ids=[d.id for d in eights[i]]))
    timed(
        "Chroma.add_documents x 8, 1 each, into a collection emptied in place",
        lambda i: [store.add_documents([d], ids=[d.id]) for d in eights[i]],
        n=len(eights),
        before=empty_in_place,
    )
    timed(
        "Chroma(...) over a new collection, and delete_collection",
        lambda i: Chroma(
            collection_name="tm_" + uuid.uuid4().hex[:16], embedding_function=embeddings, client=client
        ).delete_collection(),
        n=min(N, 100),
    )


if __name__ == "__main__":
    main()
