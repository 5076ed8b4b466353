"""What both adapters do the same way: the contract's rules an engine
interface cannot express (blank queries, tie order, the widest limit, the
timestamp form), the entry fields kept in a framework's value, and the
engine's package and version for the driver id."""

import datetime as _dt
import importlib.metadata as _metadata
import math
import numbers
import os
import sys

from .. import protocol as tp

# The contract's limit is an unsigned 64-bit number; the engines behind
# these interfaces take a signed one at most (SQLite INTEGER, PostgreSQL
# bigint, numpy int64). A limit past 2^63 - 1 asks for more entries than
# any store holds, so it is passed as 2^63 - 1: the answer is the same.
MAX_ENGINE_LIMIT = 2**63 - 1

# Unicode White_Space (Rust's str::trim): a query of these alone is blank.
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)

# The text every failure the mapping itself causes starts with, so a
# failing check's message tells a mapping limit from a store fault.
MAPPING_LIMIT = "mapping limit (docs/adapters.md)"


def mapping_limit(message):
    """A "backend" DriverError for what the interface cannot serve, its
    message starting with MAPPING_LIMIT."""
    return tp.DriverError("backend", f"{MAPPING_LIMIT}: {message}")


def engine_limit(limit):
    """`limit` (0 to 2^64 - 1) as the engine is asked for it: at most
    MAX_ENGINE_LIMIT."""
    return min(limit, MAX_ENGINE_LIMIT)


def is_blank(query):
    """True for a query of Unicode white space alone (or empty): the
    contract answers it with no hit, whatever the engine would rank."""
    return all(c in WHITE_SPACE for c in query)


def in_contract_tie_order(hits, score_of, key_of):
    """`hits` as the engine ranked them, with each run of consecutive equal
    scores ordered by key (the contract's tie order within a namespace).

    Only equal neighbours move: a hit never passes one of another score,
    so an engine that ranks out of order still shows it (the suite checks
    the order, the adapter does not repair it). Scores compare by value
    (``0.5 == 0.5``), as the suite compares ties."""
    out, run = [], []
    for hit in hits:
        if run and score_of(hit) != score_of(run[-1]):
            out.extend(sorted(run, key=key_of))
            run = []
        run.append(hit)
    out.extend(sorted(run, key=key_of))
    return out


def tie_may_continue(hits, asked, limit, score_of):
    """True when an engine asked for `asked` hits (more than `limit`)
    answered in full and its last hit ties with hit `limit - 1`: the
    entries tied at the cut may then go on past the answer, and which of
    them the contract keeps (the smallest keys) needs every one of them,
    so the adapter asks again for more."""
    return (
        0 < limit < len(hits)
        and len(hits) >= asked
        and score_of(hits[-1]) == score_of(hits[limit - 1])
    )


def rfc3339(instant):
    """An engine's datetime as the contract's timestamp (RFC 3339).

    An aware datetime keeps its offset. A naive one is read as UTC: the
    stores this adapter serves write naive times from a UTC clock
    (SQLite's CURRENT_TIMESTAMP), and the contract's timestamp must name
    an instant."""
    if isinstance(instant, str):
        instant = _dt.datetime.fromisoformat(instant)
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=_dt.timezone.utc)
    text = instant.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def hit_score(score, answered, expected, absent_ok=False):
    """The score a store answered for a recall's hit, as a float: a real
    number (int, float, numpy's) that is finite. None is an unscored hit
    when `absent_ok` (a framework whose score is optional). Anything else,
    None included otherwise, raises a "backend" DriverError: `answered`
    (what answered which hit, "the store's search answered item 'k'"),
    then the score, then `expected` (what the framework promises). Taken
    as unscored, made a number (float("0.5")) or dropped by min_score
    (NaN >= m is false), it would hide the store's fault from the checks
    that judge scores."""
    if score is None and absent_ok:
        return None
    if isinstance(score, numbers.Real) and not isinstance(score, bool) and math.isfinite(score):
        return float(score)
    raise tp.DriverError("backend", f"{answered} with score {score!r}, not a finite number ({expected})")


# The entry's fields besides namespace and key, as every adapter keeps
# them in the framework's value or metadata.
FIELDS = ("content", "category", "session_id", "taint")


def _holding(name, path):
    """(name, version) of installed distribution `name` when its files
    hold `path` (a real path), else None."""
    try:
        dist = _metadata.distribution(name)
    except _metadata.PackageNotFoundError:
        return None
    for f in dist.files or ():
        if os.path.realpath(str(dist.locate_file(f))) == path:
            return dist.metadata["Name"], dist.version
    return None


def _distribution_of(module_name):
    """The installed distribution (name, version) holding module
    `module_name`, or None. A namespace package such as ``langgraph`` is
    spread over several distributions (langgraph, langgraph-checkpoint-
    sqlite, ...): the one whose files hold the module's file is it."""
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    top = module_name.split(".")[0]
    if path is not None:
        path = os.path.realpath(path)
        # The distribution named as the top-level package (langchain_chroma
        # is langchain-chroma's) is tried first, by its own file list:
        # packages_distributions() reads every installed distribution's,
        # 0.7 s of each driver process's start-up in a venv of the
        # adapters' engines (docs/benchmarks.md, "Chroma's driver process,
        # sampled").
        found = _holding(top, path)
        if found is not None:
            return found
    candidates = _metadata.packages_distributions().get(top, [])
    if path is not None:
        for name in candidates:
            found = _holding(name, path)
            if found is not None:
                return found
    if len(candidates) == 1:
        try:
            return candidates[0], _metadata.version(candidates[0])
        except _metadata.PackageNotFoundError:
            return None
    return None


def engine_id(engine, package=None, version=None, adapter="adapter"):
    """The driver id of an adapter over `engine` (a store instance):
    ``PACKAGE==VERSION MODULE:CLASS via tinymemory.adapters.ADAPTER``.

    `package` and `version` default to the installed distribution holding
    the engine's class (importlib.metadata); ``unknown`` when none does
    (a class defined in a test file). The compatibility matrix reads the
    package and version back from this id (tinymemory.matrix)."""
    cls = type(engine)
    if package is None or version is None:
        found = _distribution_of(cls.__module__)
        if found is not None:
            package = package or found[0]
            version = version or found[1]
    return (
        f"{package or 'unknown'}=={version or 'unknown'} {cls.__module__}:{cls.__qualname__} "
        f"via tinymemory.adapters.{adapter}"
    )


def export_page(entries, cursor, limit):
    """One export page (docs/protocol.md, export_page) over `entries`,
    every entry of the store as list(None, None, None) gives them, in
    (namespace, key) order: neither interface can page by key, so the
    adapter pages the full listing (tinymemory.protocol.page_after)."""
    by_position = {(e["namespace"], e["key"]): e for e in entries}
    page, next_cursor = tp.page_after(sorted(by_position), cursor, limit)
    records = [
        tp.record(
            e["namespace"], e["key"], e["content"], e["category"], e["session_id"], e["taint"], e["timestamp"]
        )
        for e in (by_position[p] for p in page)
    ]
    return {"records": records, "next_cursor": next_cursor}


def valid_records(records):
    """(the last valid record of each (namespace, key) in order, the
    failures of the invalid ones) of an import (tinymemory.protocol
    validate_record, import_failure)."""
    last, failures = {}, []
    for index, rec in enumerate(records):
        try:
            tp.validate_record(rec)
        except tp.DriverError as e:
            failures.append(tp.import_failure(index, rec, e))
            continue
        last.pop((rec["namespace"], rec["key"]), None)
        last[(rec["namespace"], rec["key"])] = rec
    return list(last.values()), failures


def recall_fields(query, limit, namespace, category, session_id, min_score, namespace_field="namespace"):
    """The metadata a recall is pinned to, or None when the contract
    answers it with no hit (a limit of 0, a blank query).

    Validates the namespace (None is the global one) and `min_score`
    first, so a bad one is refused whatever the query. The fields are
    ``{namespace_field: namespace}``, then ``category`` and ``session_id``
    when given: each adapter turns them into its framework's filter."""
    namespace = tp.GLOBAL_NAMESPACE if namespace is None else namespace
    tp.validate_namespace(namespace)
    tp.validate_min_score(min_score)
    if limit == 0 or is_blank(query):
        return None
    fields = {namespace_field: namespace}
    if category is not None:
        fields["category"] = category
    if session_id is not None:
        fields["session_id"] = session_id
    return fields


def search_with_ties(search, limit, score_of, key_of):
    """The first `limit` hits of `search(k)` (the engine asked for `k`
    hits) in the contract's tie order.

    The engine is asked for one more than `limit` (at most
    MAX_ENGINE_LIMIT), and again for twice as many while the hits tied at
    the cut may go on past its answer (tie_may_continue): which of them
    the contract keeps needs every one. Each answer is the engine's; only
    equal neighbours are reordered by key (in_contract_tie_order)."""
    want = engine_limit(limit)
    ask = want + 1 if want < MAX_ENGINE_LIMIT else want
    while True:
        hits = search(ask)
        if not tie_may_continue(hits, ask, want, score_of) or ask == MAX_ENGINE_LIMIT:
            break
        ask = min(ask * 2, MAX_ENGINE_LIMIT)
    return in_contract_tie_order(hits, score_of, key_of)[:want]
