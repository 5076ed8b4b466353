"""What a reset costs Chroma against keeping one collection
(docs/benchmarks.md, "Chroma at two jobs, paired"): a round is a batch of
15 documents and a filtered query, either after `reset_collection` (a
fresh collection per round, as a property case gets) or into one
collection that keeps every round's documents under namespaces of their
own (no reset).

    python benches/adapters/chroma_reset.py [ROUNDS]

Prints the medians of ROUNDS rounds (default 200), in milliseconds, and a
single document's `add_documents` for comparison. The documents are
chroma_direct.py's.
"""

import statistics
import sys
import time
import uuid
import warnings

import chromadb
from langchain_chroma import Chroma

from chroma_direct import doc
from tinymemory.adapters.embeddings import HashedEmbedding
from tinymemory.adapters.langchain import dict_filter

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 200
# Chroma's relevance scores for these texts fall below 0, which LangChain
# warns about on every query; the timings are what is read here.
warnings.filterwarnings("ignore", message="Relevance scores must be between 0 and 1")

CLIENT = chromadb.EphemeralClient()
EMBEDDING = HashedEmbedding()


def collection():
    return Chroma(collection_name="tm_" + uuid.uuid4().hex[:16], embedding_function=EMBEDDING, client=CLIENT)


def ms(samples):
    return statistics.median(samples) * 1000


def fresh_each_round():
    store = collection()
    reset, batch, query = [], [], []
    for r in range(ROUNDS):
        t0 = time.perf_counter()
        store.reset_collection()
        t1 = time.perf_counter()
        docs = [doc(r * 15 + i) for i in range(15)]
        store.add_documents(docs, ids=[d.id for d in docs])
        t2 = time.perf_counter()
        store.similarity_search_with_relevance_scores("cat mat", k=5, filter=dict_filter({"namespace": "learning:n1"}))
        t3 = time.perf_counter()
        reset.append(t1 - t0)
        batch.append(t2 - t1)
        query.append(t3 - t2)
    print(f"reset each round: reset {ms(reset):.2f}  batch of 15 {ms(batch):.2f}  query {ms(query):.2f} ms")


def one_collection():
    store = collection()
    batch, query = [], []
    for r in range(ROUNDS):
        docs = [doc(r * 15 + i) for i in range(15)]
        for d in docs:
            d.metadata["namespace"] = f"learning:r{r}-{d.metadata['namespace'].split(':')[1]}"
        t1 = time.perf_counter()
        store.add_documents(docs, ids=[str(uuid.uuid4()) for _ in docs])
        t2 = time.perf_counter()
        store.similarity_search_with_relevance_scores("cat mat", k=5, filter=dict_filter({"namespace": f"learning:r{r}-n1"}))
        t3 = time.perf_counter()
        batch.append(t2 - t1)
        query.append(t3 - t2)
    print(
        f"one collection:   batch of 15 {ms(batch):.2f}  query {ms(query):.2f} ms "
        f"(it ends holding {ROUNDS * 15} documents)"
    )


def single_documents():
    store = collection()
    times = []
    for r in range(ROUNDS):
        d = doc(r)
        t = time.perf_counter()
        store.add_documents([d], ids=[str(uuid.uuid4())])
        times.append(time.perf_counter() - t)
    print(f"one document:     add_documents {ms(times):.2f} ms")


if __name__ == "__main__":
    fresh_each_round()
    one_collection()
    single_documents()
