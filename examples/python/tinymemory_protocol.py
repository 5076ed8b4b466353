"""The driver side of the tinymemory exec protocol, version 1.

Standard library only. A driver is a class with the seven store methods
(see ``Store`` below); ``serve(store, driver_id)`` reads one JSON request per
line from stdin and writes one JSON answer per line to stdout until stdin
ends. The specification is docs/protocol.md; the JSON Schemas are in
fixtures/protocol/.

A driver declares its recall profile with the ``recall_profile`` attribute
of its store class (or ``serve(..., recall_profile=...)``): ``LEXICAL``, the
default (every hit shares a word with the query, and every entry sharing
one is a hit, up to limit), or ``SEMANTIC`` (a ranking engine such as a
vector store: the hits are the ``limit`` best-ranked entries passing the
filters, whatever words they share). ``hello`` reports a semantic one (a
lexical one goes without saying: absent means lexical).

The validation helpers mirror the Rust contract (tinymemory-api) so that a
driver refuses exactly what every other driver refuses, with the same rule
ids: namespaces in ``validate_namespace``, keys in ``validate_key``.
"""

import json
import math
import sys
import traceback
import unicodedata
from datetime import datetime, timezone

PROTOCOL_VERSION = 1
LEXICAL = "lexical"
SEMANTIC = "semantic"
RECALL_PROFILES = (LEXICAL, SEMANTIC)
GLOBAL_NAMESPACE = "global"
MAX_NAMESPACE_LEN = 200
MAX_KEY_LEN = 1024

_NAMESPACE_PUNCTUATION = set("-_./:@+")
_PREFIX_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789_-")


class DriverError(Exception):
    """An error answer: kind is "invalid", "unavailable" or "backend"."""

    def __init__(self, kind, message, rule=None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.rule = rule

    def to_wire(self):
        wire = {"kind": self.kind, "message": self.message}
        if self.rule is not None:
            wire["rule"] = self.rule
        return wire


def invalid(rule, message):
    """A DriverError of kind "invalid" for a rule id of tinymemory_api::rules."""
    return DriverError("invalid", message, rule)


def validate_namespace(name):
    """Raises invalid(...) naming the first rule `name` breaks.

    Rules, in the order tinymemory-api checks them: 1..=200 bytes; only ASCII
    letters, digits and - _ . / : @ +; no leading or trailing '/', in the
    name or next to a ':'; no '..' segment (segments separated by '/' and
    ':'); a sectioned name (a prefix of [a-z0-9_-]+ before the first
    colon) needs a non-empty scope after it.
    """
    if name == "":
        raise invalid("namespace.empty", "namespace must not be empty")
    size = len(name.encode("utf-8", "surrogatepass"))
    if size > MAX_NAMESPACE_LEN:
        raise invalid(
            "namespace.too_long",
            f"namespace is {size} bytes, the limit is {MAX_NAMESPACE_LEN}",
        )
    for c in name:
        if not (c.isascii() and (c.isalnum() or c in _NAMESPACE_PUNCTUATION)):
            raise invalid(
                "namespace.charset",
                f"namespace {name!r} holds {c!r}; allowed are ASCII letters, digits and - _ . / : @ +",
            )
    # A colon bounds a path as a slash does: "learning:../x" escapes its scope.
    parts = name.split(":")
    if any(p.startswith("/") or p.endswith("/") for p in parts):
        raise invalid(
            "namespace.edge_slash",
            f"namespace {name!r} must not start or end with '/', before or after a ':'",
        )
    if any(".." in p.split("/") for p in parts):
        raise invalid("namespace.dot_dot_segment", f"namespace {name!r} must not contain a '..' path segment")
    prefix, colon, scope = name.partition(":")
    if colon and prefix and set(prefix) <= _PREFIX_CHARS and scope == "":
        raise invalid(
            "namespace.scope_empty",
            f"namespace {name!r} has section {prefix!r} but an empty scope",
        )


def validate_key(key):
    """Raises invalid(...) for an empty key or one over 1024 UTF-8 bytes."""
    if key == "":
        raise invalid("key.empty", "key must not be empty")
    size = len(key.encode("utf-8", "surrogatepass"))
    if size > MAX_KEY_LEN:
        raise invalid("key.too_long", f"key is {size} bytes, the limit is {MAX_KEY_LEN}")


def validate_min_score(min_score):
    """Raises invalid(...) for a non-finite min_score (None is fine)."""
    if min_score is not None and not math.isfinite(min_score):
        raise invalid("recall.min_score_not_finite", f"min_score must be finite, got {min_score}")


def now_rfc3339():
    """The time now, RFC 3339 UTC with microseconds: 2026-11-30T00:47:42.123456Z."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _is_word_char(c):
    # The contract's word characters (tinymemory_api::text::is_word_char):
    # letters, numbers and combining marks. Marks matter: without them a
    # Hindi or Bengali word would split at every vowel sign and virama.
    return unicodedata.category(c)[0] in "LNM"


def split_words(text):
    """The maximal runs of letters, numbers and combining marks (Unicode
    categories L*, N*, M*) in `text`, in order, as written: the contract's
    words. Everything else (spaces, punctuation, operators, emoji, control
    characters) separates words. Queries are plain text: this is the only
    thing done to them."""
    out, run = [], []
    for c in text:
        if _is_word_char(c):
            run.append(c)
        elif run:
            out.append("".join(run))
            run = []
    if run:
        out.append("".join(run))
    return out


def words(text):
    """split_words(text), lowercased."""
    return [w.lower() for w in split_words(text)]


def entry(id, namespace, key, content, category, timestamp, session_id, taint, score=None):
    """An entry in wire form (every field present, None for null)."""
    return {
        "id": str(id),
        "key": key,
        "content": content,
        "namespace": namespace,
        "category": category,
        "timestamp": timestamp,
        "session_id": session_id,
        "score": score,
        "taint": taint,
    }


class Store:
    """The interface `serve` drives. Subclass it or write the same methods.

    Every method gets arguments exactly as the request carries them (None
    for null) and returns the result in wire form, or raises DriverError.
    Any other exception becomes a "backend" error answer, with its traceback
    on stderr.

    ``recall_profile`` is the profile the driver declares: LEXICAL (the
    default) or SEMANTIC. Set it on the class of a ranking engine.
    """

    recall_profile = LEXICAL

    def reset(self):
        """Empty the store."""
        raise NotImplementedError

    def store(self, namespace, key, content, category, session_id, taint):
        """Upsert on (namespace, key); return None."""
        raise NotImplementedError

    def get(self, namespace, key):
        """The entry (score None) or None."""
        raise NotImplementedError

    def forget(self, namespace, key):
        """True when an entry was removed."""
        raise NotImplementedError

    def list(self, namespace, category, session_id):
        """Entries matching every filter given, ordered by (namespace, key).
        namespace None lists every namespace."""
        raise NotImplementedError

    def namespaces(self):
        """[{"namespace", "count", "last_updated"}] for each non-empty namespace."""
        raise NotImplementedError

    def recall(self, query, limit, namespace, category, session_id, min_score):
        """At most `limit` entries of ONE namespace (None means "global"),
        best first, each with its namespace and a finite higher-is-better
        score."""
        raise NotImplementedError


def profile_of(store, recall_profile=None):
    """The recall profile to declare: `recall_profile` when given, else the
    store's ``recall_profile`` attribute, else LEXICAL. Raises ValueError
    for anything but LEXICAL or SEMANTIC, so a typo fails at start-up, on
    stderr, rather than as a refused hello."""
    profile = recall_profile if recall_profile is not None else getattr(store, "recall_profile", LEXICAL)
    if profile not in RECALL_PROFILES:
        raise ValueError(f"unknown recall profile {profile!r}: expected {LEXICAL!r} or {SEMANTIC!r}")
    return profile


def handle(store, driver_id, request, recall_profile=None):
    """The answer object for one decoded request. `recall_profile`
    overrides the store's for ``hello`` (see profile_of).

    Every exception but KeyboardInterrupt and SystemExit becomes an answer,
    BaseExceptions included: a native engine's panic (pyo3's PanicException)
    derives from BaseException, and the request must still be answered."""
    rid = request.get("id")
    try:
        return {"id": rid, "result": _dispatch(store, driver_id, request, recall_profile)}
    except DriverError as e:
        return {"id": rid, "error": e.to_wire()}
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - every failure must become an answer
        traceback.print_exc(file=sys.stderr)
        return {"id": rid, "error": {"kind": "backend", "message": f"{type(e).__name__}: {e}"}}


def _dispatch(store, driver_id, r, recall_profile):
    op = r.get("op")
    if op == "hello":
        hello = {"protocol": PROTOCOL_VERSION, "driver": driver_id}
        profile = profile_of(store, recall_profile)
        # Absent means lexical; leaving it out keeps a lexical driver's
        # hello readable by suites older than recall profiles.
        if profile != LEXICAL:
            hello["recall_profile"] = profile
        return hello
    if op == "reset":
        store.reset()
        return None
    if op == "store":
        store.store(r["namespace"], r["key"], r["content"], r["category"], r["session_id"], r["taint"])
        return None
    if op == "get":
        return store.get(r["namespace"], r["key"])
    if op == "forget":
        return store.forget(r["namespace"], r["key"])
    if op == "list":
        return store.list(r["namespace"], r["category"], r["session_id"])
    if op == "namespaces":
        return store.namespaces()
    if op == "recall":
        return store.recall(
            r["query"], r["limit"], r["namespace"], r["category"], r["session_id"], r["min_score"]
        )
    raise DriverError("backend", f"unknown op {op!r}")


def encode(answer):
    """One answer line. NaN and infinities are refused (they are not JSON),
    and so are values JSON cannot hold (a set, bytes), turning the answer
    into a "backend" error rather than a garbled line or a dead process."""
    try:
        return json.dumps(answer, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    except (ValueError, TypeError) as e:
        traceback.print_exc(file=sys.stderr)
        error = {"kind": "backend", "message": f"failed to encode the answer: {e}"}
        return json.dumps({"id": answer.get("id"), "error": error}, separators=(",", ":"))


def serve(store, driver_id, stdin=None, stdout=None, recall_profile=None):
    """Answer requests until stdin ends. Only answers go to stdout; log to
    stderr. Each answer is flushed at once: the suite waits for it.
    `recall_profile` (LEXICAL or SEMANTIC) overrides the store's
    ``recall_profile`` attribute; an unknown one raises ValueError before
    any request is read."""
    recall_profile = profile_of(store, recall_profile)
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    for raw in stdin:
        request = json.loads(raw.decode("utf-8"))
        line = encode(handle(store, driver_id, request, recall_profile))
        stdout.write(line.encode("ascii") + b"\n")
        stdout.flush()
