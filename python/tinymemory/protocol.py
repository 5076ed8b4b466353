"""The driver side of the tinymemory exec protocol, version 1.

``tinymemory.protocol`` of the ``tinymemory-conformance`` distribution
(``pip install tinymemory-conformance``); ``python -m tinymemory.serve
MODULE:FACTORY`` serves a store without a ``__main__`` block. Standard
library only. A driver is a class with the seven store methods
and, optionally, the three optional ones (see ``Store`` below); ``serve(store, driver_id)`` reads one JSON request per
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

Optional ops: a store that has a ``store_many``, ``export_page`` or
``import_records`` method provides the ``store_many``, ``export_page`` or
``import`` op, and ``hello`` lists the ops it provides in ``ops`` (see
``ops_of``). Without ``store_many`` the suite stores one entry per
``store``; without ``export_page`` and ``import_records`` it reports the
portability family as not provided and skips its checks.
``validate_entries``, ``validate_record``, ``encode_cursor``,
``decode_cursor`` and ``page_after`` are the pieces a driver needs for them.

The validation helpers mirror the Rust contract (tinymemory-api) so that a
driver refuses exactly what every other driver refuses, with the same rule
ids: namespaces in ``validate_namespace``, keys in ``validate_key``.
"""

import bisect
import json
import math
import re
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


def _shorten(text, limit=80):
    """At most `limit` characters of `text`, with an ellipsis when cut, quoted
    as the Rust side quotes it ("...")."""
    shown = text if len(text) <= limit else text[:limit] + "\u2026"
    return json.dumps(shown, ensure_ascii=False)


def in_batch(error, index, length, namespace, key):
    """`error` (a DriverError) as the error of entry `index` (0-based) of a
    batch of `length`: the same kind and rule, the message prefixed as
    tinymemory_api::batch::in_batch does."""
    if error.kind != "invalid":
        return error
    return invalid(
        error.rule,
        f"entry {index} of {length} (namespace {_shorten(namespace)}, key {_shorten(key)}): {error.message}",
    )


def validate_entries(entries):
    """Checks every entry of a store_many batch before anything is written
    (namespace, then key); raises the first invalid one's error, naming its
    index (in_batch). Mirrors tinymemory_api::batch::validate_batch."""
    for index, e in enumerate(entries):
        try:
            validate_namespace(e["namespace"])
            validate_key(e["key"])
        except DriverError as error:
            raise in_batch(error, index, len(entries), e["namespace"], e["key"]) from None


_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?"
    r"(?:[Zz]|[+-](\d{2}):(\d{2}))",
    re.ASCII,
)


def is_rfc3339(text):
    """True when `text` is a timestamp tinymemory_api accepts for an import:
    RFC 3339 date-time (section 5.6) as the Rust `time` crate's
    well_known::Rfc3339 reads it: 'T' or 't', any number of fraction
    digits, 'Z', 'z' or an offset +HH:MM / -HH:MM (hours up to 23), real
    dates from year 0000, second 60 only at 23:59:60 UTC on a month's last
    day, nothing around it."""
    m = _RFC3339.fullmatch(text)
    if m is None:
        return False
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    if hour > 23 or minute > 59 or second > 60:
        return False
    if m.group(7) is not None and (int(m.group(7)) > 23 or int(m.group(8)) > 59):
        return False
    if not 1 <= month <= 12:
        return False
    if not 1 <= day <= _days_in_month(year, month):
        return False
    return second != 60 or _is_leap_second_utc(text)


def _days_in_month(year, month):
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]


def _civil_from_days(z):
    """The proleptic Gregorian (year, month, day) of a day count from
    1970-01-01 (Howard Hinnant's civil_from_days)."""
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def _is_leap_second_utc(text):
    """Second 60 is a leap second only at 23:59:60 UTC on the last day of a
    month (RFC 3339 section 5.7), which is where the Rust time crate accepts
    it: '2016-12-31T22:59:60-01:00' is one, '2016-12-31T23:59:60+01:00' and
    '2020-01-15T23:59:60Z' are not."""
    _, seconds, _, _ = timestamp_key(text, leap_checked=True)
    days, of_day = divmod(seconds, 86400)
    if of_day != 86399:
        return False
    year, month, day = _civil_from_days(days)
    return day == _days_in_month(year, month)


_TIMESTAMP_PARTS = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?"
    r"(?:[Zz]|([+-])(\d{2}):(\d{2}))",
    re.ASCII,
)


def _days_from_civil(year, month, day):
    """Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
    days_from_civil)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def timestamp_key(text, leap_checked=False):
    """A sort key ordering timestamps as tinymemory_api::timestamp_order
    does: by the instant they name (to the nanosecond; a leap second 60 is
    59.999999999, as the Rust time crate reads it), text that is not RFC 3339
    before every instant, ties bytewise. max(..., key=timestamp_key) is what
    last_updated must be: byte order is not time order once an import
    brought '+02:00', '.5Z' or a lowercase 'z'."""
    if not leap_checked and not is_rfc3339(text):
        return (0, 0, 0, text.encode())
    m = _TIMESTAMP_PARTS.fullmatch(text)
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    nanos = int(((m.group(7) or "") + "0" * 9)[:9])
    if second == 60:
        second, nanos = 59, 999_999_999
    offset = 0
    if m.group(8) is not None:
        offset = (int(m.group(9)) * 60 + int(m.group(10))) * 60
        if m.group(8) == "-":
            offset = -offset
    seconds = _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset
    return (1, seconds, nanos, text.encode())


def validate_record(record):
    """Raises invalid(...) for a record an import must refuse: its namespace,
    its key, or a timestamp that is not RFC 3339 (rule import.timestamp),
    since an import keeps the timestamp byte for byte. Mirrors
    tinymemory_api::portability::validate_record."""
    validate_namespace(record["namespace"])
    validate_key(record["key"])
    if not is_rfc3339(record["timestamp"]):
        raise invalid(
            "import.timestamp", f"timestamp {_shorten(record['timestamp'], 60)} is not RFC 3339"
        )


CURSOR_PREFIX = "tm-export-1."
_HEX16 = re.compile(r"[0-9a-fA-F]{16}")
_LOWER_HEX = re.compile(r"(?:[0-9a-f]{2})*")


def _fnv1a(data):
    """64-bit FNV-1a (Fowler, Noll, Vo)."""
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def encode_cursor(after):
    """The export cursor for the position after `after`, a (namespace, key)
    pair, or None for the start of the store. The token of
    tinymemory_api::portability::KeysetCursor: "tm-export-1.", the
    namespace and the key in lowercase hex separated by ".", then "." and
    a 64-bit FNV-1a checksum of what precedes it, so an edited or truncated
    token is refused rather than read as another position."""
    if after is None:
        body = CURSOR_PREFIX + "."
    else:
        namespace, key = after
        body = CURSOR_PREFIX + namespace.encode().hex() + "." + key.encode("utf-8", "surrogatepass").hex()
    return f"{body}.{_fnv1a(body.encode()):016x}"


def decode_cursor(token):
    """The position (a (namespace, key) pair, or None for the start) of a
    token made by encode_cursor. Raises invalid("export.cursor_unknown")
    for any other text: an export never silently restarts."""
    def unknown():
        shown = token[:60]
        more = "\u2026" if len(token) > 60 else ""
        return invalid(
            "export.cursor_unknown",
            f"export cursor {json.dumps(shown, ensure_ascii=False)}{more} was not issued by this driver",
        )

    if not isinstance(token, str):
        raise unknown()
    body, dot, checksum = token.rpartition(".")
    if not dot or not _HEX16.fullmatch(checksum):
        raise unknown()
    if int(checksum, 16) != _fnv1a(body.encode("utf-8", "surrogatepass")) or not body.startswith(CURSOR_PREFIX):
        raise unknown()
    rest = body[len(CURSOR_PREFIX) :]
    if rest == ".":
        return None
    namespace_hex, dot, key_hex = rest.partition(".")
    if not dot or not _LOWER_HEX.fullmatch(namespace_hex) or not _LOWER_HEX.fullmatch(key_hex):
        raise unknown()
    # The checksum matched, so the token is one encode_cursor made (edits
    # are refused above): past here the position itself is what is wrong,
    # and the message says so rather than "not issued by this driver".
    def unusable(what, detail):
        shown = token[:60]
        more = "\u2026" if len(token) > 60 else ""
        return invalid(
            "export.cursor_unknown",
            f"export cursor {json.dumps(shown, ensure_ascii=False)}{more} has a valid checksum but "
            f"names {what} that no store can hold ({detail}): it was encoded from a position "
            "that is not an entry's (encode_cursor takes the (namespace, key) of a stored entry)",
        )

    try:
        namespace = bytes.fromhex(namespace_hex).decode("utf-8")
    except UnicodeDecodeError as e:
        raise unusable("a namespace", f"its bytes are not UTF-8: {e.reason} at byte {e.start}") from None
    try:
        key = bytes.fromhex(key_hex).decode("utf-8")
    except UnicodeDecodeError as e:
        raise unusable("a key", f"its bytes are not UTF-8: {e.reason} at byte {e.start}") from None
    try:
        validate_namespace(namespace)
    except DriverError as e:
        raise unusable(f"namespace {_shorten(namespace, 60)}", f"{e.rule}: {e.message}") from None
    try:
        validate_key(key)
    except DriverError as e:
        raise unusable(f"key {_shorten(key, 60)}", f"{e.rule}: {e.message}") from None
    return (namespace, key)


def page_after(positions, cursor, limit):
    """One export page over `positions`, the sorted list of every
    (namespace, key) in the store: returns (the positions of the page,
    next_cursor). The page holds at most `limit` positions strictly after
    the cursor's; next_cursor is None exactly when none follows it (a
    limit of 0 with positions left gives an empty page with a cursor).
    Keyset paging: stable while entries are stored or forgotten."""
    after = None if cursor is None else decode_cursor(cursor)
    start = 0 if after is None else bisect.bisect_right(positions, after)
    page = positions[start : start + limit]
    if start + len(page) >= len(positions):
        return page, None
    return page, encode_cursor(page[-1] if page else after)


def record(namespace, key, content, category, session_id, taint, timestamp):
    """A record in wire form, as export_page answers it."""
    return {
        "namespace": namespace,
        "key": key,
        "content": content,
        "category": category,
        "session_id": session_id,
        "taint": taint,
        "timestamp": timestamp,
    }


def import_failure(index, rec, error):
    """One entry of an import answer's failures: the record's index, its
    namespace and key, and the error (a DriverError) as an error answer
    carries it."""
    return {"index": index, "namespace": rec["namespace"], "key": rec["key"], "error": error.to_wire()}


def now_rfc3339():
    """The time now, RFC 3339 UTC with microseconds: 2026-11-30T00:47:42.123456Z."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# Symbols (category So) with Unicode's Other_Alphabetic property: the
# circled and squared Latin letters. Rust's char::is_alphanumeric counts
# them as alphabetic, and so does tinymemory_api::text::is_word_char.
_ALPHABETIC_SYMBOLS = ((0x24B6, 0x24E9), (0x1F130, 0x1F149), (0x1F150, 0x1F169), (0x1F170, 0x1F189))


def _is_word_char(c):
    # The contract's word characters (tinymemory_api::text::is_word_char):
    # alphabetic characters (letters and the symbols above), numbers,
    # combining marks and private-use characters (Co). Marks matter:
    # without them a Hindi or Bengali word would split at every vowel sign
    # and virama.
    category = unicodedata.category(c)
    if category[0] in "LNM" or category == "Co":
        return True
    code = ord(c)
    return category == "So" and any(lo <= code <= hi for lo, hi in _ALPHABETIC_SYMBOLS)


def split_words(text):
    """The maximal runs of alphabetic characters, numbers, combining marks
    and private-use characters (Unicode categories L*, N*, M*, Co, and the
    circled and squared letters) in `text`, in order, as written: the
    contract's words (tinymemory_api::text::words). Everything else
    (spaces, punctuation, operators, emoji, control characters) separates
    words. Queries are plain text: this is the only
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

    ``independent_stores`` says whether two processes of the driver are two
    stores (each its own data: in memory, or a file of its own); when True,
    ``hello`` declares it and ``run --jobs N`` may run checks at once, one
    process each. Leave it False for a store backed by one shared database.
    """

    recall_profile = LEXICAL
    independent_stores = False

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

    # Optional ops: define any of these in a subclass to provide it (and
    # `hello` lists it in `ops`); set one to None to withdraw an inherited
    # one.
    #
    # def store_many(self, entries):
    #     """Store every entry ({namespace, key, content, category,
    #     session_id, taint}) in order, all or nothing: validate them all
    #     first (validate_entries), then write; return None."""
    #
    # def export_page(self, cursor, limit):
    #     """{"records": [record(...)], "next_cursor": str or None}: at most
    #     `limit` records after `cursor` (None: the start) in (namespace,
    #     key) order; page_after does the paging."""
    #
    # def import_records(self, records):
    #     """Upsert each valid record (validate_record) in order, keeping
    #     its timestamp and taint; {"imported": n, "failures":
    #     [import_failure(...)]} for the others."""


# (op name, Store method) of each optional op, in protocol order.
OPTIONAL_OPS = (("store_many", "store_many"), ("export_page", "export_page"), ("import", "import_records"))


def ops_of(store):
    """The optional ops `store` provides: those whose method it has."""
    return [op for op, method in OPTIONAL_OPS if callable(getattr(store, method, None))]


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


def check_scores(hits):
    """Raises a "backend" DriverError naming the first hit of a recall
    answer whose score is NaN or infinite: the contract wants finite scores,
    and JSON cannot carry those values. A vector store's cosine of a zero
    vector (a query with no word, such as '?!') is the usual source.
    Anything that is not a list of dicts is left to the suite to refuse."""
    if not isinstance(hits, list):
        return
    for index, hit in enumerate(hits):
        score = hit.get("score") if isinstance(hit, dict) else None
        if isinstance(score, float) and not math.isfinite(score):
            raise DriverError(
                "backend",
                f"recall hit {index} of {len(hits)} (namespace {_shorten(str(hit.get('namespace')), 60)}, "
                f"key {_shorten(str(hit.get('key')), 60)}) has score {score}: scores must be finite "
                "numbers, higher is better (a cosine over a zero vector, from a query with no word, "
                "is NaN)",
            )


def _dispatch(store, driver_id, r, recall_profile):
    op = r.get("op")
    if op == "hello":
        hello = {"protocol": PROTOCOL_VERSION, "driver": driver_id}
        profile = profile_of(store, recall_profile)
        # Absent means lexical; leaving it out keeps a lexical driver's
        # hello readable by suites older than recall profiles.
        if profile != LEXICAL:
            hello["recall_profile"] = profile
        # Absent means none, as for recall_profile.
        ops = ops_of(store)
        if ops:
            hello["ops"] = ops
        # Absent means false: never parallel by surprise.
        if getattr(store, "independent_stores", False) is True:
            hello["independent_stores"] = True
        # Absent means none: the interface family is skipped.
        interface = interface_of(store)
        if interface is not None:
            hello["interface"] = interface
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
        hits = store.recall(
            r["query"], r["limit"], r["namespace"], r["category"], r["session_id"], r["min_score"]
        )
        check_scores(hits)
        return hits
    for name, method in OPTIONAL_OPS:
        if op == name and op in ops_of(store):
            if op == "store_many":
                store.store_many(r["entries"])
                return None
            if op == "export_page":
                return store.export_page(r["cursor"], r["limit"])
            return store.import_records(r["records"])
    if op == "interface" and interface_of(store) is not None:
        inputs = r.get("inputs")
        if not isinstance(inputs, dict):
            # The suite chooses every scenario's inputs and judges the
            # answer against them: a scenario run on inputs of the
            # adapter's own would be judged against nothing it was sent.
            raise DriverError(
                "backend",
                f"the interface request for {r.get('check')!r} carries no `inputs` object (docs/protocol.md, "
                '"The interface op": the suite sends the inputs of every scenario; this adapter needs a suite '
                "of its release)",
            )
        observed = store.interface(r["check"], r["async"], inputs)
        if not isinstance(observed, dict):
            raise DriverError(
                "backend", f"the interface scenario of {r['check']!r} observed {type(observed).__name__}, not a dict"
            )
        return observed
    raise DriverError("backend", f"unknown op {op!r}")


def interface_of(store):
    """The framework interface `store` declares in hello (its ``interface``
    attribute, a string such as ``"langchain.vectorstore"``), or None when
    it has none or no ``interface`` method to run the scenarios with
    (docs/protocol.md, "The interface op")."""
    name = getattr(type(store), "interface_name", None)
    if isinstance(name, str) and callable(getattr(store, "interface", None)):
        return name
    return None


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_surrogates(value):
    """`value` with each lone surrogate of its strings made U+FFFD (for an
    error's text only: a message is for people, stored data is never
    changed)."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_surrogates(v) for v in value]
    return value


def _refuse_surrogates(answer):
    """Raise ValueError when a string of `answer` holds a lone surrogate
    (Python's str may; Unicode, hence JSON read strictly, may not:
    json.dumps would write an escape such as "\\udce9" that the suite's
    decoder refuses, and the whole line would be lost)."""
    found = _LONE_SURROGATE.search(json.dumps(answer, ensure_ascii=False, allow_nan=False))
    if found:
        raise ValueError(
            f"it holds a lone surrogate (U+{ord(found.group()):04X}), which is not Unicode and no JSON line can carry"
        )


def encode(answer):
    """One answer line. NaN and infinities are refused (they are not JSON),
    and so are values JSON cannot hold (a set, bytes) and strings holding a
    lone surrogate, turning the answer into a "backend" error rather than a
    garbled line or a dead process. An error's own text with a lone
    surrogate (a file name decoded with surrogateescape) is kept, each
    surrogate shown as U+FFFD."""
    if isinstance(answer, dict) and "error" in answer:
        answer = _without_surrogates(answer)
    try:
        line = json.dumps(answer, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
        if "\\ud" in line:  # a surrogate escape: a pair (fine) or a lone one
            _refuse_surrogates(answer)
        return line
    except (ValueError, TypeError) as e:
        traceback.print_exc(file=sys.stderr)
        error = {"kind": "backend", "message": f"failed to encode the answer: {e}"}
        return json.dumps({"id": answer.get("id"), "error": error}, separators=(",", ":"))


# Set once `serve` has returned (stdin ended, or it raised).
_serve_ended = False


def _exit_on_sigterm():
    """Turn SIGTERM into SystemExit, so ``finally`` blocks, context managers
    and ``atexit`` handlers run (a temporary directory is removed, an
    embedded database closed): the suite ends a driver by closing stdin,
    then SIGTERM, then SIGKILL (docs/protocol.md, "Transport"), and
    Python's default action for SIGTERM skips all of them. Only from the
    main thread, where Python allows a handler, and only when nothing else
    installed one."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None):
        return

    def _terminated(signum, frame):
        if _serve_ended:
            # stdin has ended and the interpreter is already on its way
            # out, waiting for the store's own threads: SystemExit raised
            # there is only printed ("Exception ignored in: <module
            # 'threading'>"), a traceback that reads as the store's crash.
            import os

            os._exit(128 + signum)
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _terminated)


def serve(store, driver_id, stdin=None, stdout=None, recall_profile=None):
    """Answer requests until stdin ends. Only answers go to stdout; log to
    stderr. Each answer is flushed at once: the suite waits for it.
    `recall_profile` (LEXICAL or SEMANTIC) overrides the store's
    ``recall_profile`` attribute; an unknown one raises ValueError before
    any request is read."""
    recall_profile = profile_of(store, recall_profile)
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    _exit_on_sigterm()
    global _serve_ended
    try:
        for raw in stdin:
            request = json.loads(raw.decode("utf-8"))
            line = encode(handle(store, driver_id, request, recall_profile))
            stdout.write(line.encode("ascii") + b"\n")
            stdout.flush()
    finally:
        _serve_ended = True


def __getattr__(name):
    """``__version__``: the release of the library, ``tinymemory.__version__`` (the ``tinymemory-conformance``
    distribution's, which is the suite's: docs/release.md, "One version"). Not ``PROTOCOL_VERSION``, the
    wire's version, which changes far less often. Computed on first use, as the package's is, so a driver
    process pays nothing for it at start-up."""
    if name == "__version__":
        from . import __version__

        return __version__
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
