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

The suite chooses every input (docs/protocol.md gives each check's): the
documents (``given``, ``replacement``, each ``{"id", "page_content",
"metadata"}``), the ids (``given_ids``, ``missing_ids``, ``mixed_ids``) and
the query of each search (``queries``, by the name of the step it feeds).
A scenario runs exactly those and echoes them, so an observation shows
what it ran with. A document is observed in the same form; a call as
``{"ok": value}`` or ``{"error": "Type: message"}``.
"""

import asyncio
import json

INTERFACE = "langchain.vectorstore"

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


def _documents(values):
    """The Documents of the inputs' documents."""
    from langchain_core.documents import Document

    return [Document(id=v.get("id"), page_content=v["page_content"], metadata=dict(v.get("metadata") or {})) for v in values]


def empty_store(calls, inputs):
    """test_vectorstore_is_empty: a fresh store finds nothing; then the
    document added with its id is found by its text (what only a store
    that stored it can answer)."""
    queries = inputs["queries"]
    out = {"given": inputs["given"], "given_ids": inputs["given_ids"], "queries": queries}
    out["search"] = calls.search(queries["search"], 1)
    out["ids"] = calls.add(_documents(inputs["given"]), ids=inputs["given_ids"])
    out["after_add"] = calls.search(queries["after_add"], 1)
    return out


def add_documents(calls, inputs):
    """test_add_documents: ids made for documents without any, the
    documents found with them, the input left as it was."""
    given = _documents(inputs["given"])
    before = _docs(given)
    ids = calls.add(given)
    search = calls.search(inputs["queries"]["search"], 2)
    return {"given": before, "ids": ids, "input_after": _docs(given), "search": search}


def delete(calls, inputs):
    """test_deleting_documents and test_deleting_bulk_documents."""
    given, ids, queries = _documents(inputs["given"]), inputs["given_ids"], inputs["queries"]
    out = {"given": inputs["given"], "given_ids": ids, "ids": calls.add(given, ids=ids)}
    out["delete_one"] = calls.delete(ids[:1])
    out["after_one"] = calls.search(queries["after_one"], 3)
    out["delete_bulk"] = calls.delete(ids[1:])
    out["after_bulk"] = calls.search(queries["after_bulk"], 3)
    return out


def delete_missing(calls, inputs):
    """test_delete_missing_content: deleting ids the store does not hold;
    then a document added is found, deleted with the missing ids, and
    found no more."""
    missing, ids, queries = inputs["missing_ids"], inputs["given_ids"], inputs["queries"]
    out = {"missing_ids": missing, "given": inputs["given"], "given_ids": ids, "queries": queries}
    out["delete_one"] = calls.delete(missing[:1])
    out["delete_many"] = calls.delete(missing)
    out["ids"] = calls.add(_documents(inputs["given"]), ids=ids)
    out["before"] = calls.search(queries["before"], 1)
    out["delete_mixed"] = calls.delete(ids + missing)
    out["after"] = calls.search(queries["after"], 1)
    return out


def upsert(calls, inputs):
    """test_add_documents_with_ids_is_idempotent and
    test_add_documents_by_id_with_mutation: the replacement over the first
    id."""
    given, ids, queries = _documents(inputs["given"]), inputs["given_ids"], inputs["queries"]
    replacement = _documents(inputs["replacement"])
    out = {"given": inputs["given"], "given_ids": ids, "replacement": inputs["replacement"]}
    out["first"] = calls.add(given, ids=ids)
    out["second"] = calls.add(given, ids=ids)
    out["after_twice"] = calls.search(queries["after_twice"], 3)
    out["third"] = calls.add(replacement, ids=ids[:1])
    out["after_replace"] = calls.search(queries["after_replace"], 3)
    return out


def get_by_ids(calls, inputs):
    """test_get_by_ids and test_get_by_ids_missing, with missing and
    repeated ids among present ones."""
    given, ids = _documents(inputs["given"]), inputs["given_ids"]
    out = {"given": inputs["given"], "given_ids": ids, "missing_ids": inputs["missing_ids"]}
    out["ids"] = calls.add(given, ids=ids)
    out["get"] = calls.get(ids)
    out["missing"] = calls.get(inputs["missing_ids"])
    out["mixed_ids"] = inputs["mixed_ids"]
    out["mixed"] = calls.get(inputs["mixed_ids"])
    return out


def generated_ids(calls, inputs):
    """test_add_documents_documents: ids made when none is given, and
    get_by_ids of them."""
    given = _documents(inputs["given"])
    ids = calls.add(given)
    out = {"given": inputs["given"], "ids": ids}
    out["get"] = calls.get(ids["ok"]) if "ok" in ids else {"error": "not run: add_documents failed"}
    return out


def document_ids(calls, inputs):
    """test_add_documents_with_existing_ids: the id of a Document is used,
    one is made for a document without, in one batch."""
    given = _documents(inputs["given"])
    ids = calls.add(given)
    out = {"given": inputs["given"], "ids": ids}
    out["get"] = calls.get(ids["ok"]) if "ok" in ids else {"error": "not run: add_documents failed"}
    return out


def string_ids(calls, inputs):
    """test_deleting_documents, test_get_by_ids and the others with their
    kind of ids, plain strings ("7", "42"): add_documents keeps them,
    get_by_ids, the search and delete use them."""
    given, ids, queries = _documents(inputs["given"]), inputs["given_ids"], inputs["queries"]
    out = {"given": inputs["given"], "given_ids": ids, "ids": calls.add(given, ids=ids)}
    out["get"] = calls.get(ids)
    out["search"] = calls.search(queries["search"], 2)
    out["delete"] = calls.delete(ids[:1])
    out["after_delete"] = calls.search(queries["after_delete"], 2)
    return out


def search_with_score(calls, inputs):
    """similarity_search and similarity_search_with_score agree."""
    given, queries = _documents(inputs["given"]), inputs["queries"]
    out = {"given": inputs["given"], "ids": calls.add(given)}
    out["search"] = calls.search(queries["search"], 4)
    out["scored"] = calls.search_with_score(queries["scored"], 4)
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


# The scenarios that read by get_by_ids: those whose standard tests skip when
# a store declares has_get_by_ids False (test_get_by_ids,
# test_get_by_ids_missing, test_add_documents_documents,
# test_add_documents_with_existing_ids), and string_ids, which reads by it.
NEEDS_GET_BY_IDS = frozenset(
    f"interface.langchain.{c}" for c in ("get_by_ids", "generated_ids", "document_ids", "string_ids")
)


def run(store, check, use_async, inputs, loop=None, has_sync=True, has_async=True, has_get_by_ids=True):
    """The observation of `check`'s scenario on `store` (fresh and empty)
    with the `inputs` the suite sent, through the async methods when
    `use_async`. An input the scenario needs and `inputs` lacks is a
    "backend" DriverError naming it. A check this module has no
    scenario for (a suite of a later release may know more) is a "backend"
    DriverError naming the ones it knows. `loop` runs the async calls (a
    new one, closed after, when None).

    A path the store is declared without (`has_sync` or `has_async` False,
    the properties of LangChain's standard tests: langchain-postgres
    declares ``has_async`` False for a PGVector made with a connection
    string, whose async methods need an engine it lacks) is not run: the
    answer is ``{"not_implemented": ...}`` and the suite judges the other
    path. A store declared without ``get_by_ids`` (`has_get_by_ids` False,
    the standard tests' property; LangChain's base VectorStore raises
    NotImplementedError for it) answers the same for the scenarios of
    NEEDS_GET_BY_IDS, on both paths."""
    from .. import protocol as tp

    scenario = SCENARIOS.get(check)
    if scenario is None:
        raise tp.DriverError("backend", f"no scenario for check {check!r} of {INTERFACE}: known are {sorted(SCENARIOS)}")
    if not (has_async if use_async else has_sync):
        path, flag = ("async", "has_async") if use_async else ("sync", "has_sync")
        return {"not_implemented": f"the store declares no {path} path ({flag} = False, as LangChain's standard "
                                   "tests let a store declare)"}
    if not has_get_by_ids and check in NEEDS_GET_BY_IDS:
        return {"not_implemented": "the store declares no get_by_ids (has_get_by_ids = False, as LangChain's "
                                   "standard tests let a store declare)"}
    own = use_async and loop is None
    if own:
        loop = asyncio.new_event_loop()
    try:
        return scenario(_Calls(store, use_async, loop), inputs)
    except KeyError as e:
        raise tp.DriverError("backend", f"the inputs of {check!r} lack {e} (docs/protocol.md, \"The interface op\")") from None
    finally:
        if own:
            loop.close()
