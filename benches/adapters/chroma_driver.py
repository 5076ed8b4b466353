"""Chroma in the driver process (an ephemeral client) through langchain-chroma and the
LangChain adapter, a collection per store, for the figures of docs/benchmarks.md
("Through the adapters").

    Store               a reset is Chroma.reset_collection (the adapter's `clear`)
    StoreWithoutClear   a reset makes a new Chroma over a new collection (before issue 46)
    IndependentStore    Store, declaring `independent_stores`: each driver process has
                        its own ephemeral client, so two processes are two stores (the
                        run's jobs, and its reruns' processes started ahead)
    IndependentStoreWithoutClear
                        StoreWithoutClear, declaring `independent_stores` (the before
                        side of a pair of IndependentStore runs)
"""

import uuid

import chromadb
from langchain_chroma import Chroma

from tinymemory.adapters.langchain import VectorStoreAdapter

CLIENT = chromadb.EphemeralClient()


def factory(embeddings):
    return Chroma(collection_name="tm_" + uuid.uuid4().hex[:16], embedding_function=embeddings, client=CLIENT)


def cleanup(store):
    store.delete_collection()


def Store():
    return VectorStoreAdapter(factory, cleanup=cleanup, clear=lambda store: store.reset_collection())


def StoreWithoutClear():
    return VectorStoreAdapter(factory, cleanup=cleanup)


def IndependentStore():
    return VectorStoreAdapter(
        factory, cleanup=cleanup, clear=lambda store: store.reset_collection(), independent_stores=True
    )


def IndependentStoreWithoutClear():
    return VectorStoreAdapter(factory, cleanup=cleanup, independent_stores=True)
