"""docs/adapters.md's coverage table names every test of LangChain's
standard VectorStore suite (the installed langchain-tests, pinned in
python/requirements-ci.txt), each with a check of the interface family
that the binary lists."""

import json
import os
import re
import subprocess

import pytest

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "adapters.md")


def coverage_rows():
    """{standard test name: cell} of the table under "the standard tests"."""
    with open(DOCS, encoding="utf-8") as f:
        text = f.read()
    section = text.split("### LangChain `VectorStore`: the standard tests", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^\| `(test_\w+)` \| (.+) \|$", section, re.M))


def test_every_standard_vectorstore_test_has_a_row():
    integration = pytest.importorskip("langchain_tests.integration_tests.vectorstores")
    names = sorted(n for n in dir(integration.VectorStoreIntegrationTests) if n.startswith("test_"))
    rows = coverage_rows()
    missing = [n for n in names if n not in rows]
    assert names and not missing, f"docs/adapters.md has no coverage row for {missing}"
    stale = sorted(set(rows) - set(names))
    assert not stale, f"docs/adapters.md has rows for tests the installed class lacks: {stale}"


def test_every_check_a_row_names_is_one_the_binary_lists():
    from tinymemory.testing._binary import find_binary

    listed = json.loads(subprocess.run([find_binary(), "list", "--format", "json"], capture_output=True,
                                       check=True, text=True).stdout)
    families = {c["id"]: c["family"] for c in listed["checks"]}
    named = {c for cell in coverage_rows().values() for c in re.findall(r"`(interface\.[\w.]+)`", cell)}
    assert named, "no row names a check"
    assert {c: families.get(c) for c in named} == {c: "interface" for c in named}
