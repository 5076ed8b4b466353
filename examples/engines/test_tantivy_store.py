"""tantivy through the conformance suite: FULL under lexical."""

from tinymemory.testing import DriverConformance


class TestTantivyStore(DriverConformance):
    driver = "tantivy_store:TantivyStore"
    profile = "lexical"
