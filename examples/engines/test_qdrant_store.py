"""Qdrant (local mode) through the conformance suite: FULL under semantic."""

from tinymemory.testing import DriverConformance


class TestQdrantStore(DriverConformance):
    driver = "qdrant_store:QdrantStore"
    profile = "semantic"
