"""tinymemory.protocol against fixtures/protocol-cases.json, the table the
npm package's protocol library (js/test/protocol-cases.test.js) is held to
as well, and whose contract cases tinymemory-api evaluates
(crates/tinymemory-api/tests/protocol_cases.rs): the same answers, and
errors of the same kind and rule, on every input of it. Messages are each
library's own wording: the table keeps this library's, never compared.

TINYMEMORY_BLESS=1 fills the cases that have no "expect" from this library
(a case written with one is never rewritten), then fails so that the
change is looked at before it is committed.
"""

import json
import math
import os

import pytest

import tinymemory.protocol as tp

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.normpath(os.path.join(HERE, "..", "..", "fixtures", "protocol-cases.json"))
FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def _special_floats(obj):
    if set(obj) == {"$float"}:
        return FLOATS[obj["$float"]]
    return obj


def load():
    with open(TABLE, encoding="utf-8") as f:
        return json.load(f, object_hook=_special_floats)


def _positions(items):
    return [tuple(p) for p in items]


def _timestamp_key(text):
    rank, seconds, nanos, _ = tp.timestamp_key(text)
    return [rank, seconds, nanos]


def _page_after(positions, cursor, limit):
    page, next_cursor = tp.page_after(_positions(positions), cursor, limit)
    return {"page": [list(p) for p in page], "next_cursor": next_cursor}


def _decode_cursor(token):
    position = tp.decode_cursor(token)
    return None if position is None else list(position)


# The table's function names (the Python library's), as this library calls them.
FUNCTIONS = {
    "validate_namespace": tp.validate_namespace,
    "validate_key": tp.validate_key,
    "validate_min_score": tp.validate_min_score,
    "validate_entries": tp.validate_entries,
    "validate_record": tp.validate_record,
    "split_words": tp.split_words,
    "words": tp.words,
    "is_rfc3339": tp.is_rfc3339,
    "timestamp_key": _timestamp_key,
    "latest_timestamp": lambda ts: max(ts, key=tp.timestamp_key) if ts else None,
    "sort_bytewise": sorted,
    "encode_cursor": lambda after: tp.encode_cursor(None if after is None else tuple(after)),
    "decode_cursor": _decode_cursor,
    "page_after": _page_after,
    "entry": lambda fields: tp.entry(**fields),
    "check_scores": tp.check_scores,
}


def outcome(case):
    """What the library does with the case's arguments, as the table writes it."""
    try:
        return {"result": FUNCTIONS[case["fn"]](*case["args"])}
    except tp.DriverError as e:
        return {"error": {"kind": e.kind, "rule": e.rule, "message": e.message}}


CASES = load()["cases"]


def test_every_function_of_the_table_is_known():
    assert sorted({c["fn"] for c in CASES}) == sorted(FUNCTIONS)


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['fn']}" for i, c in enumerate(CASES)])
def test_case(case):
    if "expect" not in case:
        pytest.fail("case has no expect: run with TINYMEMORY_BLESS=1 to fill it from this library, then review it")
    assert _without_message(outcome(case)) == _without_message(case["expect"])


def _without_message(outcome):
    """`outcome` with its error's message left out: errors compare by kind and rule."""
    if "error" not in outcome:
        return outcome
    return {"error": {k: v for k, v in outcome["error"].items() if k != "message"}}


def test_bless():
    if os.environ.get("TINYMEMORY_BLESS") != "1":
        pytest.skip("TINYMEMORY_BLESS=1 fills the cases without expect")
    with open(TABLE, encoding="utf-8") as f:
        doc = json.load(f)
    filled = 0
    for raw, case in zip(doc["cases"], CASES):
        if "expect" not in raw:
            raw["expect"] = outcome(case)
            filled += 1
    with open(TABLE, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=True, indent=1)
        f.write("\n")
    pytest.fail(f"filled {filled} cases of {TABLE}: review the diff, then run without TINYMEMORY_BLESS")
