"""tinymemory.protocol: answers a driver gets wrong in ways the suite cannot name."""

import io
import json
import math

import pytest

import tinymemory.protocol as tp


class Scored(tp.Store):
    def __init__(self, score):
        self.score = score

    def recall(self, query, limit, namespace, category, session_id, min_score):
        ok = tp.entry(1, "global", "fine", "a b", "c", tp.now_rfc3339(), None, "internal", 0.5)
        bad = tp.entry(2, "global", "the-bad-one", "a", "c", tp.now_rfc3339(), None, "internal", self.score)
        return [ok, bad]


def answer(store, request):
    out = io.BytesIO()
    tp.serve(store, "test", stdin=io.BytesIO(json.dumps(request).encode() + b"\n"), stdout=out)
    return json.loads(out.getvalue())


RECALL = {"id": 7, "op": "recall", "query": "?!", "limit": 10, "namespace": None,
          "category": None, "session_id": None, "min_score": None}


@pytest.mark.parametrize("score", [math.nan, math.inf, -math.inf])
def test_a_non_finite_score_is_a_backend_error_naming_the_hit(score):
    got = answer(Scored(score), RECALL)
    assert got == {
        "id": 7,
        "error": {
            "kind": "backend",
            "message": f'recall hit 1 of 2 (namespace "global", key "the-bad-one") has score {score}: '
            "scores must be finite numbers, higher is better (a cosine over a zero vector, from a "
            "query with no word, is NaN)",
        },
    }


def test_finite_scores_are_answered_as_given():
    got = answer(Scored(0.25), RECALL)
    assert [h["score"] for h in got["result"]] == [0.5, 0.25]


def shown(token):
    """A cursor as the error quotes it: its first 60 characters, an ellipsis when cut."""
    return json.dumps(token[:60]) + ("\u2026" if len(token) > 60 else "")


def _checksummed(body):
    return f"{body}.{tp._fnv1a(body.encode()):016x}"


def test_a_cursor_naming_an_invalid_namespace_says_so():
    token = tp.encode_cursor(("bad ns", "k"))
    with pytest.raises(tp.DriverError) as e:
        tp.decode_cursor(token)
    assert e.value.rule == "export.cursor_unknown"
    assert e.value.message == (
        f"export cursor {shown(token)} has a valid checksum but names namespace \"bad ns\" that no "
        "store can hold (namespace.charset: namespace 'bad ns' holds ' '; allowed are ASCII letters, "
        "digits and - _ . / : @ +): it was encoded from a position that is not an entry's "
        "(encode_cursor takes the (namespace, key) of a stored entry)"
    )


def test_a_cursor_naming_an_empty_key_says_so():
    token = tp.encode_cursor(("global", ""))
    with pytest.raises(tp.DriverError) as e:
        tp.decode_cursor(token)
    assert e.value.message == (
        f"export cursor {shown(token)} has a valid checksum but names key \"\" that no store can hold "
        "(key.empty: key must not be empty): it was encoded from a position that is not an entry's "
        "(encode_cursor takes the (namespace, key) of a stored entry)"
    )


def test_a_cursor_of_non_utf8_bytes_says_so():
    token = _checksummed(tp.CURSOR_PREFIX + "ff." + "6b")
    with pytest.raises(tp.DriverError) as e:
        tp.decode_cursor(token)
    assert e.value.message == (
        f"export cursor {shown(token)} has a valid checksum but names a namespace that no store can hold "
        "(its bytes are not UTF-8: invalid start byte at byte 0): it was encoded from a position "
        "that is not an entry's (encode_cursor takes the (namespace, key) of a stored entry)"
    )


def test_an_edited_cursor_is_still_not_issued_by_this_driver():
    token = tp.encode_cursor(("global", "k"))
    edited = token[:-1] + ("0" if token[-1] != "0" else "1")
    with pytest.raises(tp.DriverError) as e:
        tp.decode_cursor(edited)
    assert e.value.message == f"export cursor {shown(edited)} was not issued by this driver"


def test_a_valid_cursor_round_trips():
    assert tp.decode_cursor(tp.encode_cursor(("learning:a", "k/1"))) == ("learning:a", "k/1")
    assert tp.decode_cursor(tp.encode_cursor(None)) is None


class Lone(tp.Store):
    """A store whose content, or whose error, holds a lone surrogate (a
    file name decoded with surrogateescape, a bad slice of UTF-16)."""

    def __init__(self, where):
        self.where = where

    def get(self, namespace, key):
        if self.where == "error":
            raise tp.DriverError("backend", "cannot open /data/caf\udce9.db")
        return tp.entry(1, namespace, key, "caf\udce9", "c", "2026-12-06T10:00:00Z", None, "internal", None)


GET = {"id": 3, "op": "get", "namespace": "global", "key": "k"}


def strict(line):
    """The line as a decoder refusing lone surrogates (serde_json, the suite's) reads it."""
    return json.loads(line, object_pairs_hook=lambda pairs: {k: v for k, v in pairs})


def test_a_lone_surrogate_in_an_answer_is_a_backend_error_naming_it_not_a_line_the_suite_cannot_read():
    # json.dumps wrote "\udce9", which the suite's decoder refuses: the run
    # said "the line is not JSON" and stopped the driver, every later
    # check failing on that instead of on the store's answer.
    out = io.BytesIO()
    tp.serve(Lone("content"), "test", stdin=io.BytesIO(json.dumps(GET).encode() + b"\n"), stdout=out)
    line = out.getvalue().decode("ascii").strip()
    assert "\\udc" not in line and "\\ud8" not in line
    assert strict(line) == {
        "id": 3,
        "error": {
            "kind": "backend",
            "message": "failed to encode the answer: it holds a lone surrogate (U+DCE9), which is not "
            "Unicode and no JSON line can carry",
        },
    }


def test_a_lone_surrogate_in_an_error_message_is_shown_as_a_replacement_character():
    out = io.BytesIO()
    tp.serve(Lone("error"), "test", stdin=io.BytesIO(json.dumps(GET).encode() + b"\n"), stdout=out)
    line = out.getvalue().decode("ascii").strip()
    assert "\\udc" not in line
    assert strict(line)["error"] == {"kind": "backend", "message": "cannot open /data/caf\ufffd.db"}
