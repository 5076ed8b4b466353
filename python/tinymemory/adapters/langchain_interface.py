"""The scenarios of the interface family for a LangChain ``VectorStore``
(docs/protocol.md, "The interface op"; docs/adapters.md, "The interface
family").

Each scenario runs on a fresh store with the framework's own API, the
sync methods (``add_documents``, ``similarity_search``, ``get_by_ids``,
``delete``) or their async twins (``aadd_documents``, ...), and returns
what it saw: every call's result or the exception it raised, and the
inputs it gave. It judges nothing: the suite compares the observation with
the rule its check states (quoted from LangChain's standard tests,
``langchain_tests.integration_tests.VectorStoreIntegrationTests``, and the
``VectorStore`` docstrings).

A document is observed as ``{"id", "page_content", "metadata"}``; a call
as ``{"ok": value}`` or ``{"error": "Type: message"}``.
"""

import asyncio
import json

INTERFACE = "langchain.vectorstore"

# Ids the scenarios give: UUIDs, the form every store accepts (Qdrant and
# PGVectorStore take nothing else), where the standard tests use "1", "2"
# (STRING_IDS, which the string_ids scenario alone gives).
GIVEN = [f"7c9e6679-7425-40de-944b-e07fc1f90a{n:02d}" for n in range(1, 4)]
# Ids no scenario adds.
MISSING = [f"7c9e6679-7425-40de-944b-e07fc1f90b{n:02d}" for n in range(1, 4)]
# The ids LangChain's standard tests give (test_deleting_documents,
# test_get_by_ids, ...): plain strings, which one scenario holds a store to.
STRING_IDS = ["1", "2"]


def _json(value):
    """`value` as JSON can carry it: what JSON cannot hold is shown by repr."""
    return json.loads(json.dumps(value, default=repr))


def observed_document(doc):
    """A Document as the observation carries it."""
    return {"id": doc.id, "page_content": doc.page_content, "metadata": _json(dict(doc.metadata or {}))}


def _docs(value):
    return [observed_document(d) for d in value]


class _Calls:
    """The framework's methods on `store`, sync or async, each answering
    ``{"ok": ...}`` or ``{"error": ...}``."""

    def __init__(self, store, use_async, loop):
        self.store = store
        self.use_async = use_async
        self.loop = loop

    def _call(self, name, *args, **kwargs):
        method = getattr(self.store, ("a" + name) if self.use_async else name)
        try:
            result = method(*args, **kwargs)
            if self.use_async:
                result = self.loop.run_until_complete(result)
            return {"ok": result}
        except Exception as e:  # noqa: BLE001 - what the store raised is the observation
            return {"error": f"{type(e).__name__}: {e}"}

    def add(self, docs, **kwargs):
        r = self._call("add_documents", docs, **kwargs)
        return r if "error" in r else {"ok": _json(list(r["ok"]))}

    def search(self, query, k):
        r = self._call("similarity_search", query, k=k)
        return r if "error" in r else {"ok": _docs(r["ok"])}

    def search_with_score(self, query, k):
        r = self._call("similarity_search_with_score", query, k=k)
        return r if "error" in r else {"ok": [observed_document(d) for d, _ in r["ok"]]}

    def get(self, ids):
        r = self._call("get_by_ids", ids)
        return r if "error" in r else {"ok": _docs(r["ok"])}

    def delete(self, ids):
        r = self._call("delete", ids)
        return r if "error" in r else {"ok": _json(r["ok"])}


def _document(content, n, id=None, **extra):
    from langchain_core.documents import Document

    return Document(id=id, page_content=content, metadata={"id": n, **extra})


def empty_store(calls):
    """test_vectorstore_is_empty: a fresh store finds nothing."""
    return {"search": calls.search("foo", 1)}


def add_documents(calls):
    """test_add_documents: ids made for documents without any, the
    documents found with them, the input left as it was."""
    given = [_document("foo", 1), _document("bar", 2)]
    before = _docs(given)
    ids = calls.add(given)
    return {"given": before, "ids": ids, "input_after": _docs(given), "search": calls.search("bar", 2)}


def delete(calls):
    """test_deleting_documents and test_deleting_bulk_documents."""
    given = [_document("foo", 1), _document("bar", 2), _document("baz", 3)]
    out = {"given": _docs(given), "given_ids": GIVEN, "ids": calls.add(given, ids=GIVEN)}
    out["delete_one"] = calls.delete(GIVEN[:1])
    out["after_one"] = calls.search("foo", 3)
    out["delete_bulk"] = calls.delete(GIVEN[1:])
    out["after_bulk"] = calls.search("foo", 3)
    return out


def delete_missing(calls):
    """test_delete_missing_content: deleting ids the store does not hold."""
    return {"missing_ids": MISSING, "delete_one": calls.delete(MISSING[:1]), "delete_many": calls.delete(MISSING)}


def upsert(calls):
    """test_add_documents_with_ids_is_idempotent and
    test_add_documents_by_id_with_mutation."""
    given = [_document("foo", 1), _document("bar", 2)]
    replacement = [_document("new foo", 1, some_other_field="foo")]
    out = {"given": _docs(given), "given_ids": GIVEN[:2], "replacement": _docs(replacement)}
    out["first"] = calls.add(given, ids=GIVEN[:2])
    out["second"] = calls.add(given, ids=GIVEN[:2])
    out["after_twice"] = calls.search("bar", 3)
    out["third"] = calls.add(replacement, ids=GIVEN[:1])
    out["after_replace"] = calls.search("new foo", 3)
    return out


def get_by_ids(calls):
    """test_get_by_ids and test_get_by_ids_missing, with missing and
    repeated ids among present ones."""
    given = [_document("foo", 1), _document("bar", 2)]
    out = {"given": _docs(given), "given_ids": GIVEN[:2], "missing_ids": MISSING}
    out["ids"] = calls.add(given, ids=GIVEN[:2])
    out["get"] = calls.get(GIVEN[:2])
    out["missing"] = calls.get(MISSING)
    out["mixed_ids"] = [GIVEN[1], MISSING[0], GIVEN[0], GIVEN[1]]
    out["mixed"] = calls.get(out["mixed_ids"])
    return out


def generated_ids(calls):
    """test_add_documents_documents: ids made when none is given, and
    get_by_ids of them."""
    given = [_document("foo", 1), _document("bar", 2)]
    ids = calls.add(given)
    out = {"given": _docs(given), "ids": ids}
    out["get"] = calls.get(ids["ok"]) if "ok" in ids else {"error": "not run: add_documents failed"}
    return out


def document_ids(calls):
    """test_add_documents_with_existing_ids: the id of a Document is used,
    one is made for a document without, in one batch."""
    given = [_document("foo", 1, id=GIVEN[0]), _document("bar", 2)]
    ids = calls.add(given)
    out = {"given": _docs(given), "ids": ids}
    out["get"] = calls.get(ids["ok"]) if "ok" in ids else {"error": "not run: add_documents failed"}
    return out


def string_ids(calls):
    """test_deleting_documents, test_get_by_ids and the others with their
    own ids, "1" and "2": add_documents keeps them, get_by_ids, the search
    and delete use them."""
    given = [_document("foo", 1), _document("bar", 2)]
    out = {"given": _docs(given), "given_ids": STRING_IDS, "ids": calls.add(given, ids=STRING_IDS)}
    out["get"] = calls.get(STRING_IDS)
    out["search"] = calls.search("bar", 2)
    out["delete"] = calls.delete(STRING_IDS[:1])
    out["after_delete"] = calls.search("foo", 2)
    return out


def search_with_score(calls):
    """similarity_search and similarity_search_with_score agree."""
    given = [_document(t, n) for n, t in enumerate(["foo", "bar", "baz", "foo bar"], 1)]
    out = {"given": _docs(given), "ids": calls.add(given)}
    out["search"] = calls.search("foo", 4)
    out["scored"] = calls.search_with_score("foo", 4)
    return out


SCENARIOS = {
    "interface.langchain.empty_store": empty_store,
    "interface.langchain.add_documents": add_documents,
    "interface.langchain.delete": delete,
    "interface.langchain.delete_missing": delete_missing,
    "interface.langchain.upsert": upsert,
    "interface.langchain.get_by_ids": get_by_ids,
    "interface.langchain.generated_ids": generated_ids,
    "interface.langchain.document_ids": document_ids,
    "interface.langchain.string_ids": string_ids,
    "interface.langchain.search_with_score": search_with_score,
}


def run(store, check, use_async, loop=None, has_sync=True, has_async=True):
    """The observation of `check`'s scenario on `store` (fresh and empty),
    through the async methods when `use_async`. A check this module has no
    scenario for (a suite of a later release may know more) is a "backend"
    DriverError naming the ones it knows. `loop` runs the async calls (a
    new one, closed after, when None).

    A path the store is declared without (`has_sync` or `has_async` False,
    the properties of LangChain's standard tests: langchain-postgres
    declares ``has_async`` False for a PGVector made with a connection
    string, whose async methods need an engine it lacks) is not run: the
    answer is ``{"not_implemented": ...}`` and the suite judges the other
    path."""
    from .. import protocol as tp

    scenario = SCENARIOS.get(check)
    if scenario is None:
        raise tp.DriverError("backend", f"no scenario for check {check!r} of {INTERFACE}: known are {sorted(SCENARIOS)}")
    if not (has_async if use_async else has_sync):
        path, flag = ("async", "has_async") if use_async else ("sync", "has_sync")
        return {"not_implemented": f"the store declares no {path} path ({flag} = False, as LangChain's standard "
                                   "tests let a store declare)"}
    own = use_async and loop is None
    if own:
        loop = asyncio.new_event_loop()
    try:
        return scenario(_Calls(store, use_async, loop))
    finally:
        if own:
            loop.close()
