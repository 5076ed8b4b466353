"""The Python examples through pytest: every check is one test item.

    pip install tinymemory-conformance pytest
    pytest examples/python/test_examples.py

pytest puts this directory on sys.path, and the plugin hands sys.path to
the driver processes, so ``memory_driver:MemoryStore`` imports in both.
"""

from tinymemory.testing import DriverConformance


class TestMemoryDriver(DriverConformance):
    driver = "memory_driver:MemoryStore"


class TestSqliteDriver(DriverConformance):
    driver = "sqlite_driver:SqliteStore"


class TestSemanticDriver(DriverConformance):
    driver = "semantic_driver:SemanticStore"
    profile = "semantic"
