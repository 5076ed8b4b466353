"""What the plugin reads from the binary for programs (docs/reports.md):
``list --format json`` for the checks, their budgets and the exit codes."""

import json
import stat
import subprocess

import pytest

from tinymemory.testing._binary import BinaryError, checked_binary, list_checks, listing
from tinymemory.testing._run import deadline

# A `list --format json` document of two checks, one a property check.
LISTING = {
    "schema_version": 1,
    "profile": "lexical",
    "defaults": {
        "check_timeout_ms": 60000,
        "request_allowance_ms": 1000,
        "property_time_per_case_ms": 250,
        "cases": 64,
        "call_timeout_ms": 30000,
    },
    "exit_codes": {"success": 0, "failures": 1, "usage": 2, "setup": 3, "no_checks_ran": 4},
    "checks": [
        {"id": "store.upsert", "family": "contract", "rule": "a second store replaces the first",
         "budget": {"base_ms": 60000, "per_request_ms": 1000, "per_case_ms": None}},
        {"id": "property.model", "family": "property", "rule": "agrees with the model",
         "budget": {"base_ms": 60000, "per_request_ms": 1000, "per_case_ms": 250}},
    ],
}


def test_the_deadline_is_each_selected_checks_budget_from_the_listing_plus_the_overhead():
    both = {"store.upsert", "property.model"}
    # 600 s of overhead; a contract check its base; a property check the
    # larger of its base and 0.25 s per case.
    assert deadline(LISTING, both, None, None) == 600 + 60 + 60
    assert deadline(LISTING, both, None, 1000) == 600 + 60 + 250
    assert deadline(LISTING, {"store.upsert"}, 5, 1000) == 600 + 5
    assert deadline(LISTING, {"property.model"}, 5, 8) == 600 + 5
    slower = {**LISTING, "checks": [{**LISTING["checks"][0], "budget": {"base_ms": 90000, "per_case_ms": None}}]}
    assert deadline(slower, {"store.upsert"}, None, None) == 600 + 90


def fake(directory, body):
    directory.mkdir(exist_ok=True)
    path = directory / "tinymemory-conformance"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_the_checks_come_from_list_format_json(tmp_path):
    # Answers only the JSON listing: the text one would fail the test.
    path = fake(
        tmp_path,
        f"[ \"$*\" = \"list --profile lexical --format json\" ] || exit 2\ncat <<'X'\n{json.dumps(LISTING)}\nX",
    )
    assert list_checks(path, "lexical") == (
        ("store.upsert", "contract", "a second store replaces the first"),
        ("property.model", "property", "agrees with the model"),
    )
    with pytest.raises(BinaryError, match="listing no check"):
        listing(fake(tmp_path / "text", "echo 'store.upsert  contract  lexical  text'"), "lexical")


def test_the_binarys_listing_holds_the_checks_of_its_text_listing():
    path = checked_binary()
    text = subprocess.run([path, "list", "--profile", "semantic"], capture_output=True, text=True, check=True)
    ids = [line.split(" ", 1)[0] for line in text.stdout.splitlines() if "." in line.split(" ", 1)[0]]
    assert [c[0] for c in list_checks(path, "semantic")] == ids
    assert listing(path, "semantic")["exit_codes"]["setup"] == 3
