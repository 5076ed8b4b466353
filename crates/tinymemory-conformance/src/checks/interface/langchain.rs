//! LangChain's `VectorStore` (`langchain.vectorstore`): what its standard
//! tests (`langchain_tests.integration_tests.VectorStoreIntegrationTests`,
//! langchain-tests 1.1.9) and the `VectorStore` docstrings
//! (`langchain_core.vectorstores.base`) promise, one check per scenario of
//! `tinymemory.adapters.langchain_interface`. Every document is compared
//! whole, as the standard tests compare `Document`s: its `id`, its
//! `page_content` and its `metadata`, exactly as given (nothing added,
//! nothing dropped).

use serde_json::Value;

use super::{field, json, judged, ok, shown, Verdict};
use crate::failure::Step;
use crate::CheckContext;

/// The interface these checks are of, as a driver declares it.
const INTERFACE: &str = tinymemory_api::interface::LANGCHAIN_VECTORSTORE;

/// The sync path and the async one, as a message names them.
const PATHS: [&str; 2] = [
    "the sync methods (add_documents, similarity_search, get_by_ids, delete)",
    "the async methods (aadd_documents, asimilarity_search, aget_by_ids, adelete)",
];

async fn run(ctx: &CheckContext, check: &str, judge: fn(&Value) -> Verdict) -> Step {
    judged(ctx, INTERFACE, check, PATHS, judge).await
}

/// The documents of an observed list, or why it is not one.
fn documents<'a>(value: &'a Value, what: &str) -> Result<&'a [Value], String> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("{what} returned {}, not a list of documents", json(value)))
}

/// `given` (an observed input document) with `id`: what the store must
/// return for it.
fn with_id(given: &Value, id: &Value) -> Value {
    let mut want = given.clone();
    if let Some(doc) = want.as_object_mut() {
        doc.insert("id".to_owned(), id.clone());
    }
    want
}

/// How document `got` differs from `want`, or `None` when it is `want`.
fn differs(got: &Value, want: &Value) -> Option<String> {
    let content = want.get("page_content").unwrap_or(&Value::Null);
    let mut why = Vec::new();
    if got.get("page_content") != Some(content) {
        why.push(format!(
            "page_content {} where {} was stored",
            json(got.get("page_content").unwrap_or(&Value::Null)),
            json(content)
        ));
    }
    let (got_id, want_id) = (got.get("id").unwrap_or(&Value::Null), &want["id"]);
    if got_id != want_id {
        why.push(format!(
            "id {} where the id given or returned is {}",
            json(got_id),
            json(want_id)
        ));
    }
    let empty = serde_json::Map::new();
    let got_meta = got
        .get("metadata")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let want_meta = want
        .get("metadata")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let added: Vec<&str> = got_meta
        .keys()
        .filter(|k| !want_meta.contains_key(*k))
        .map(String::as_str)
        .collect();
    let dropped: Vec<&str> = want_meta
        .keys()
        .filter(|k| !got_meta.contains_key(*k))
        .map(String::as_str)
        .collect();
    let changed: Vec<&str> = want_meta
        .iter()
        .filter(|(k, v)| got_meta.get(*k).is_some_and(|g| g != *v))
        .map(|(k, _)| k.as_str())
        .collect();
    if !added.is_empty() {
        why.push(format!("metadata keys added: {added:?}"));
    }
    if !dropped.is_empty() {
        why.push(format!("metadata keys dropped: {dropped:?}"));
    }
    if !changed.is_empty() {
        why.push(format!("metadata values changed: {changed:?}"));
    }
    (!why.is_empty()).then(|| {
        format!(
            "document {} came back with {} (returned: {})",
            json(content),
            why.join(", "),
            json(got)
        )
    })
}

/// `got` (what `what` returned) is exactly `want`, in order when
/// `ordered`, else matched by content.
fn same(what: &str, got: &Value, want: &[Value], ordered: bool) -> Verdict {
    let got = documents(got, what)?;
    if got.len() != want.len() {
        return Err(format!(
            "{what} returned {} documents where {} are expected: {}",
            got.len(),
            want.len(),
            json(&Value::Array(got.to_vec()))
        ));
    }
    for (i, w) in want.iter().enumerate() {
        let g = if ordered {
            &got[i]
        } else {
            // By content: the scenarios give each document its own.
            match got
                .iter()
                .find(|g| g.get("page_content") == w.get("page_content"))
            {
                Some(g) => g,
                None => {
                    return Err(format!(
                        "{what} did not return document {}: {}",
                        json(&w["page_content"]),
                        json(&Value::Array(got.to_vec()))
                    ))
                }
            }
        };
        if let Some(why) = differs(g, w) {
            let at = if ordered {
                format!(" at position {i}")
            } else {
                String::new()
            };
            return Err(format!("{what}{at}: {why}"));
        }
    }
    Ok(())
}

/// The ids `add_documents` returned: `n` distinct strings.
fn ids<'a>(observed: &'a Value, name: &str, n: usize) -> Result<&'a [Value], String> {
    let returned = ok(observed, name, "add_documents")?;
    let list = returned.as_array().map(Vec::as_slice).unwrap_or_default();
    let distinct: std::collections::BTreeSet<&str> =
        list.iter().filter_map(Value::as_str).collect();
    if list.len() != n || distinct.len() != n {
        return Err(format!(
            "add_documents of {n} documents returned {}; VectorStore.add_documents returns \
             \"List of IDs of the added texts\", one string id per document",
            json(returned)
        ));
    }
    Ok(list)
}

fn given(observed: &Value) -> Result<&[Value], String> {
    documents(field(observed, "given")?, "the scenario")
}

/// `test_vectorstore_is_empty`, `test_vectorstore_still_empty`:
/// `assert vectorstore.similarity_search("foo", k=1) == []` on the store
/// the fixture gives, "an empty vector store for each test".
pub(crate) async fn empty_store(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langchain.empty_store", |o| {
        same(
            "similarity_search(\"foo\", k=1) on a fresh store",
            ok(o, "search", "similarity_search")?,
            &[],
            true,
        )
    })
    .await
}

/// `test_add_documents`: the documents found carry the ids
/// `add_documents` returned (`Document(page_content="bar", metadata={"id":
/// 2}, id=ids[1])`), best first, and "We do not mutate the original
/// document object when adding it to the vector store (e.g., by adding an
/// ID)".
pub(crate) async fn add_documents(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langchain.add_documents", |o| {
        let given = given(o)?;
        let ids = ids(o, "ids", 2)?;
        let after = field(o, "input_after")?;
        if after.as_array().map(Vec::as_slice) != Some(given) {
            return Err(format!(
                "add_documents changed the documents it was given: {} before, {} after; \
                 \"We do not mutate the original document object when adding it to the vector \
                 store (e.g., by adding an ID)\"",
                json(&Value::Array(given.to_vec())),
                json(after)
            ));
        }
        same(
            "similarity_search(\"bar\", k=2) after add_documents([foo, bar])",
            ok(o, "search", "similarity_search")?,
            &[with_id(&given[1], &ids[1]), with_id(&given[0], &ids[0])],
            true,
        )
    })
    .await
}

/// `test_deleting_documents`, `test_deleting_bulk_documents`: "check that
/// `add_documents` preserves identifiers passed in through `ids`, and that
/// `delete` correctly removes documents", "`delete` correctly removes
/// multiple documents when given a list of IDs".
pub(crate) async fn delete(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langchain.delete", |o| {
        let given = given(o)?;
        let given_ids = field(o, "given_ids")?;
        let returned = ok(o, "ids", "add_documents(documents, ids=[..])")?;
        if returned != given_ids {
            return Err(format!(
                "add_documents(documents, ids={}) returned {}: the ids passed must be the \
                 documents' ids",
                json(given_ids),
                json(returned)
            ));
        }
        ok(o, "delete_one", "delete([id of foo])")?;
        same(
            "similarity_search(\"foo\", k=3) after delete([id of foo])",
            ok(o, "after_one", "similarity_search")?,
            &[
                with_id(&given[1], &given_ids[1]),
                with_id(&given[2], &given_ids[2]),
            ],
            false,
        )?;
        ok(o, "delete_bulk", "delete([id of bar, id of baz])")?;
        same(
            "similarity_search(\"foo\", k=3) after delete([id of bar, id of baz])",
            ok(o, "after_bulk", "similarity_search")?,
            &[],
            true,
        )
    })
    .await
}

/// `test_delete_missing_content`: "Deleting missing content should not
/// raise an exception" (`delete(["1"])`, `delete(["1", "2", "3"])` on an
/// empty store).
pub(crate) async fn delete_missing(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langchain.delete_missing", |o| {
        let rule = "\"Deleting missing content should not raise an exception\"";
        ok(o, "delete_one", "delete of one id the store does not hold")
            .map_err(|e| format!("{e}; {rule}"))?;
        ok(
            o,
            "delete_many",
            "delete of three ids the store does not hold",
        )
        .map_err(|e| format!("{e}; {rule}"))?;
        Ok(())
    })
    .await
}

/// `test_add_documents_with_ids_is_idempotent`,
/// `test_add_documents_by_id_with_mutation`: "adding the same document
/// twice with the same IDs has the same effect as adding it once", and
/// "when `add_documents` is called with an ID that already exists in the
/// vector store, the content is updated rather than duplicated" (its
/// metadata replaced, `some_other_field` included).
pub(crate) async fn upsert(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langchain.upsert", |o| {
        let given = given(o)?;
        let given_ids = field(o, "given_ids")?;
        let replacement = documents(field(o, "replacement")?, "the scenario")?;
        ok(o, "first", "add_documents")?;
        ok(
            o,
            "second",
            "add_documents of the same documents and ids again",
        )?;
        same(
            "similarity_search(\"bar\", k=3) after adding [foo, bar] twice with the same ids",
            ok(o, "after_twice", "similarity_search")?,
            &[
                with_id(&given[1], &given_ids[1]),
                with_id(&given[0], &given_ids[0]),
            ],
            true,
        )?;
        ok(o, "third", "add_documents over the id of foo")?;
        same(
            "similarity_search(\"new foo\", k=3) after add_documents([new foo], ids=[id of foo])",
            ok(o, "after_replace", "similarity_search")?,
            &[
                with_id(&replacement[0], &given_ids[0]),
                with_id(&given[1], &given_ids[1]),
            ],
            true,
        )
    })
    .await
}

/// `test_get_by_ids`, `test_get_by_ids_missing` and the `get_by_ids`
/// docstring: "The returned documents are expected to have the ID field
/// set to the ID of the document in the vector store. Fewer documents may
/// be returned than requested if some IDs are not found or if there are
/// duplicated IDs. Users should not assume that the order of the returned
/// documents matches the order of the input IDs. [..] This method should
/// **NOT** raise exceptions if no documents are found for some IDs."
pub(crate) async fn get_by_ids(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langchain.get_by_ids", |o| {
        let given = given(o)?;
        let given_ids = field(o, "given_ids")?;
        ok(o, "ids", "add_documents")?;
        let want = [
            with_id(&given[0], &given_ids[0]),
            with_id(&given[1], &given_ids[1]),
        ];
        same(
            "get_by_ids of the two ids added",
            ok(o, "get", "get_by_ids")?,
            &want,
            false,
        )?;
        same(
            "get_by_ids of three ids never added",
            ok(o, "missing", "get_by_ids of three ids never added")?,
            &[],
            true,
        )?;
        // The docstring answers repeated and missing ids with fewer
        // documents, not an exception.
        let mixed = ok(o, "mixed", "get_by_ids of [bar, missing, foo, bar]").map_err(|e| {
            format!(
                "{e}; the get_by_ids docstring: \"Fewer documents may be returned than requested \
                 if some IDs are not found or if there are duplicated IDs\""
            )
        })?;
        let docs = documents(mixed, "get_by_ids of [bar, missing, foo, bar]")?;
        // A repeated id may come back once or twice: one of each present
        // id, compared whole, and nothing else.
        let mut unique: Vec<Value> = Vec::new();
        for d in docs {
            if !unique.contains(d) {
                unique.push(d.clone());
            }
        }
        same(
            "get_by_ids of [bar, missing, foo, bar] (its distinct documents)",
            &Value::Array(unique),
            &want,
            false,
        )
    })
    .await
}

/// `test_add_documents_documents`: "check also that `add_documents` will
/// correctly generate string IDs if none are provided", and `get_by_ids`
/// of them returns the documents with those ids.
pub(crate) async fn generated_ids(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langchain.generated_ids", |o| {
        let given = given(o)?;
        let ids = ids(o, "ids", 2)?;
        same(
            "get_by_ids of the ids add_documents made",
            ok(o, "get", "get_by_ids")?,
            &[with_id(&given[0], &ids[0]), with_id(&given[1], &ids[1])],
            false,
        )
    })
    .await
}

/// `test_add_documents_with_existing_ids`: "1. IDs specified in the
/// `Document.id` field are assigned when adding documents. 2. If some
/// documents include IDs and others don't string IDs are generated for
/// the latter."
pub(crate) async fn document_ids(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langchain.document_ids", |o| {
        let given = given(o)?;
        let ids = ids(o, "ids", 2)?;
        if ids[0] != given[0]["id"] {
            return Err(format!(
                "add_documents of [Document(id={}, ..), Document(id=None, ..)] returned ids {}: \
                 \"IDs specified in the `Document.id` field are assigned when adding documents\"",
                json(&given[0]["id"]),
                json(&Value::Array(ids.to_vec()))
            ));
        }
        same(
            "get_by_ids of the ids of a batch mixing a Document.id and none",
            ok(o, "get", "get_by_ids")?,
            &[with_id(&given[0], &ids[0]), with_id(&given[1], &ids[1])],
            false,
        )
    })
    .await
}

/// What LangChain's standard tests give as ids, and the form
/// `VectorStore` types them in: "1", "2", plain strings.
const STRING_IDS_RULE: &str = "LangChain's standard tests give ids that are plain strings \
     (`add_documents(documents, ids=[\"1\", \"2\"])`, then `assert ids == [\"1\", \"2\"]`, \
     test_deleting_documents), as VectorStore.add_documents types them (`ids: list[str]`)";

/// `test_deleting_documents`, `test_deleting_bulk_documents`,
/// `test_add_documents_with_ids_is_idempotent`,
/// `test_add_documents_by_id_with_mutation` and `test_get_by_ids`, with
/// their ids: `add_documents(documents, ids=["1", "2"])` returns `["1",
/// "2"]`, and the documents come back with them from `get_by_ids`,
/// `similarity_search` (`Document(page_content="bar", metadata={"id":
/// 2}, id="2")`) and after `delete(["1"])`. The other scenarios give
/// UUIDs, the form every store takes; this one holds a store to the ids
/// LangChain's own tests give it. (Ids missing from the store are
/// `get_by_ids`' and `delete_missing`'s: a store raising for one fails
/// those, not this.)
pub(crate) async fn string_ids(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langchain.string_ids", |o| {
        let given = given(o)?;
        let given_ids = field(o, "given_ids")?;
        let add = format!("add_documents(documents, ids={})", json(given_ids));
        let returned = ok(o, "ids", &add).map_err(|e| format!("{e}; {STRING_IDS_RULE}"))?;
        if returned != given_ids {
            return Err(format!(
                "{add} returned {}: the ids passed must be the documents' ids; {STRING_IDS_RULE}",
                json(returned)
            ));
        }
        let [foo_given, bar_given] = given else {
            return Err(format!(
                "the observation gives {} documents where the scenario adds 2 (the adapter's \
                 scenario is not this suite's: docs/protocol.md, \"The interface op\")",
                given.len()
            ));
        };
        let (first, second) = (
            with_id(foo_given, &given_ids[0]),
            with_id(bar_given, &given_ids[1]),
        );
        let get = format!("get_by_ids({})", json(given_ids));
        same(
            &get,
            ok(o, "get", &get)?,
            &[first.clone(), second.clone()],
            false,
        )?;
        same(
            "similarity_search(\"bar\", k=2)",
            ok(o, "search", "similarity_search")?,
            &[second.clone(), first],
            true,
        )?;
        let delete = format!("delete([{}])", json(&given_ids[0]));
        ok(o, "delete", &delete)?;
        same(
            &format!("similarity_search(\"foo\", k=2) after {delete}"),
            ok(o, "after_delete", "similarity_search")?,
            &[second],
            true,
        )
    })
    .await
}

/// `similarity_search` and `similarity_search_with_score` of one query
/// return the same documents in the same order: both "Return docs most
/// similar to query" (`langchain_core.vectorstores.base`), the second
/// with their scores; a store whose two paths differ (another `k`, a
/// filter or threshold on one) answers the same question two ways.
pub(crate) async fn search_with_score(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langchain.search_with_score", |o| {
        ok(o, "ids", "add_documents")?;
        let plain = ok(o, "search", "similarity_search(\"foo\", k=4)")?;
        let scored = ok(o, "scored", "similarity_search_with_score(\"foo\", k=4)")?;
        if plain != scored {
            return Err(format!(
                "similarity_search(\"foo\", k=4) returned {} but similarity_search_with_score \
                 returned {}",
                shown(&plain.to_string()),
                shown(&scored.to_string())
            ));
        }
        documents(plain, "similarity_search")?;
        Ok(())
    })
    .await
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;
    use tinymemory_api::interface::Scenario;
    use tinymemory_api::{FnFactory, MemoryError, MemoryProvider, RecallProfile};
    use tinymemory_reference::ReferenceDriver;

    use super::*;
    use crate::{CheckContext, Outcome, Registry, RunConfig};

    /// The reference driver, answering every interface scenario with
    /// `sync` or `async` (an observation, as an adapter answers it).
    struct Observing {
        inner: ReferenceDriver,
        sync: Value,
        r#async: Value,
    }

    tinymemory_api::delegate_provider! {
        impl MemoryProvider for Observing {
            forward(inner): driver_id, store, get, forget, list, namespaces, recall, store_many,
                export_page, import;

            async fn interface(&self, scenario: &Scenario<'_>) -> Result<String, MemoryError> {
                assert_eq!(scenario.interface, INTERFACE);
                let observed = if scenario.use_async { &self.r#async } else { &self.sync };
                Ok(observed.to_string())
            }
        }
    }

    fn outcome(
        id: &str,
        open: impl Fn() -> Box<dyn MemoryProvider> + Send + Sync + 'static,
    ) -> Outcome {
        let check = Registry::standard()
            .checks()
            .iter()
            .find(|c| c.id == id)
            .copied()
            .unwrap();
        let ctx = CheckContext {
            factory: Arc::new(FnFactory::new("observing", move || Ok(open()))),
            corpus: None,
            config: RunConfig::default(),
            profile: RecallProfile::Semantic,
        };
        tokio::runtime::Runtime::new()
            .unwrap()
            .block_on((check.run)(ctx))
    }

    #[test]
    fn a_document_without_its_id_and_with_metadata_added_is_named_by_both() {
        let got = json!({"id": null, "page_content": "foo",
            "metadata": {"id": 1, "_id": "A", "_collection_name": "t"}});
        let want = json!({"id": "A", "page_content": "foo", "metadata": {"id": 1}});
        assert_eq!(
            differs(&got, &want).unwrap(),
            "document \"foo\" came back with id null where the id given or returned is \"A\", \
             metadata keys added: [\"_collection_name\", \"_id\"] (returned: \
             {\"id\":null,\"metadata\":{\"_collection_name\":\"t\",\"_id\":\"A\",\"id\":1},\"page_content\":\"foo\"})"
        );
        assert_eq!(differs(&want, &want), None);
    }

    #[test]
    fn a_driver_serving_no_interface_skips_the_check() {
        let outcome = outcome("interface.langchain.delete_missing", || {
            Box::new(ReferenceDriver::new())
        });
        assert_eq!(outcome, Outcome::Skip(super::super::NOT_SERVED.to_owned()));
    }

    /// A driver that declares the interface yet runs no scenario (every
    /// path "not implemented") does not earn a skip, which counts for no
    /// family: the level would be FULL with the interface never checked.
    #[test]
    fn a_declared_interface_implementing_neither_path_is_skipped_holding_the_family_back() {
        let nothing = json!({"not_implemented": "NotImplementedError: "});
        let run = move || {
            Box::new(Observing {
                inner: ReferenceDriver::new(),
                sync: nothing.clone(),
                r#async: nothing.clone(),
            }) as Box<dyn MemoryProvider>
        };
        // The skip's reason is not NOT_SERVED, so it keeps the interface
        // family from passing (report::conformance's test of that).
        match outcome("interface.langchain.empty_store", run) {
            Outcome::Skip(reason) => assert_eq!(
                reason,
                format!(
                    "the store implements neither path of its scenario: {p0}: \"NotImplementedError: \"; \
                     {p1}: \"NotImplementedError: \"",
                    p0 = PATHS[0],
                    p1 = PATHS[1]
                )
            ),
            other => panic!("expected a skip, got {other:?}"),
        }
    }

    #[test]
    fn a_delete_raising_on_a_missing_id_fails_through_the_path_that_raised() {
        let clean =
            json!({"missing_ids": ["m"], "delete_one": {"ok": null}, "delete_many": {"ok": null}});
        let raising = json!({"missing_ids": ["m"], "delete_one": {"error": "ValueError: no m"},
            "delete_many": {"ok": null}});
        let observed = move || {
            Box::new(Observing {
                inner: ReferenceDriver::new(),
                sync: clean.clone(),
                r#async: raising.clone(),
            }) as Box<dyn MemoryProvider>
        };
        match outcome("interface.langchain.delete_missing", observed) {
            Outcome::Fail(f) => assert_eq!(
                f.message,
                format!(
                    "through {}: delete of one id the store does not hold raised ValueError: no m; \
                     \"Deleting missing content should not raise an exception\"",
                    PATHS[1]
                )
            ),
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn get_by_ids_raising_on_repeated_ids_is_named_with_the_docstring() {
        let given = json!([{"id": null, "page_content": "foo", "metadata": {"id": 1}},
            {"id": null, "page_content": "bar", "metadata": {"id": 2}}]);
        let docs = json!([{"id": "A", "page_content": "foo", "metadata": {"id": 1}},
            {"id": "B", "page_content": "bar", "metadata": {"id": 2}}]);
        let observed = json!({"given": given, "given_ids": ["A", "B"], "ids": {"ok": ["A", "B"]},
            "get": {"ok": docs}, "missing": {"ok": []},
            "mixed": {"error": "DuplicateIDError: Expected IDs to be unique"}});
        let run = move || {
            Box::new(Observing {
                inner: ReferenceDriver::new(),
                sync: observed.clone(),
                r#async: observed.clone(),
            }) as Box<dyn MemoryProvider>
        };
        let Outcome::Fail(f) = outcome("interface.langchain.get_by_ids", run) else {
            panic!("expected a failure");
        };
        let why = "get_by_ids of [bar, missing, foo, bar] raised DuplicateIDError: Expected IDs to be \
                   unique; the get_by_ids docstring: \"Fewer documents may be returned than requested \
                   if some IDs are not found or if there are duplicated IDs\"";
        assert_eq!(
            f.message,
            format!("through {}: {why}; through {}: {why}", PATHS[0], PATHS[1])
        );
    }

    /// The observation of `interface.langchain.string_ids` with `ids` the
    /// answer of its add_documents: the store's documents as a faithful
    /// store returns them.
    fn string_ids_observed(ids: Value) -> Value {
        let (one, two) = (
            json!({"id": "1", "page_content": "foo", "metadata": {"id": 1}}),
            json!({"id": "2", "page_content": "bar", "metadata": {"id": 2}}),
        );
        json!({"given": [{"id": null, "page_content": "foo", "metadata": {"id": 1}},
                {"id": null, "page_content": "bar", "metadata": {"id": 2}}],
            "given_ids": ["1", "2"], "ids": ids, "get": {"ok": [two, one]},
            "search": {"ok": [two, one]}, "delete": {"ok": null}, "after_delete": {"ok": [two]}})
    }

    fn string_ids_outcome(sync: Value, r#async: Value) -> Outcome {
        outcome("interface.langchain.string_ids", move || {
            Box::new(Observing {
                inner: ReferenceDriver::new(),
                sync: sync.clone(),
                r#async: r#async.clone(),
            }) as Box<dyn MemoryProvider>
        })
    }

    #[test]
    fn plain_string_ids_kept_and_read_back_pass() {
        let faithful = string_ids_observed(json!({"ok": ["1", "2"]}));
        assert_eq!(
            string_ids_outcome(faithful.clone(), faithful),
            Outcome::Pass
        );
    }

    /// Qdrant (langchain-qdrant 1.1.0) refuses every id that is not a
    /// UUID, where LangChain's standard tests give "1" and "2".
    #[test]
    fn an_add_refusing_ids_that_are_not_uuids_fails_quoting_the_standard_tests() {
        let faithful = string_ids_observed(json!({"ok": ["1", "2"]}));
        let refused = json!({"given": faithful["given"], "given_ids": ["1", "2"],
            "ids": {"error": "ValueError: Point id 1 is not a valid UUID"},
            "get": {"ok": []}, "search": {"ok": []}, "delete": {"error": "ValueError: Point id 1 is not a valid UUID"},
            "after_delete": {"ok": []}});
        let Outcome::Fail(f) = string_ids_outcome(faithful, refused) else {
            panic!("expected a failure");
        };
        assert_eq!(
            f.message,
            format!(
                "through {}: add_documents(documents, ids=[\"1\",\"2\"]) raised ValueError: Point id \
                 1 is not a valid UUID; LangChain's standard tests give ids that are plain strings \
                 (`add_documents(documents, ids=[\"1\", \"2\"])`, then `assert ids == [\"1\", \"2\"]`, \
                 test_deleting_documents), as VectorStore.add_documents types them (`ids: list[str]`)",
                PATHS[1]
            )
        );
    }

    #[test]
    fn ids_passed_replaced_by_the_stores_own_fail_through_both_paths() {
        let mut own = string_ids_observed(json!({"ok": ["a1", "a2"]}));
        own["get"] = json!({"ok": []});
        let Outcome::Fail(f) = string_ids_outcome(own.clone(), own) else {
            panic!("expected a failure");
        };
        let why = "add_documents(documents, ids=[\"1\",\"2\"]) returned [\"a1\",\"a2\"]: the ids passed \
                   must be the documents' ids; LangChain's standard tests give ids that are plain strings \
                   (`add_documents(documents, ids=[\"1\", \"2\"])`, then `assert ids == [\"1\", \"2\"]`, \
                   test_deleting_documents), as VectorStore.add_documents types them (`ids: list[str]`)";
        assert_eq!(
            f.message,
            format!("through {}: {why}; through {}: {why}", PATHS[0], PATHS[1])
        );
    }

    #[test]
    fn an_observation_of_another_scenario_fails_naming_it_not_a_panic() {
        let mut short = string_ids_observed(json!({"ok": ["1", "2"]}));
        short["given"] = json!([{"id": null, "page_content": "foo", "metadata": {"id": 1}}]);
        let Outcome::Fail(f) = string_ids_outcome(short.clone(), short) else {
            panic!("expected a failure");
        };
        let why = "the observation gives 1 documents where the scenario adds 2 (the adapter's \
                   scenario is not this suite's: docs/protocol.md, \"The interface op\")";
        assert_eq!(
            f.message,
            format!("through {}: {why}; through {}: {why}", PATHS[0], PATHS[1])
        );
    }

    #[test]
    fn a_document_read_back_without_its_string_id_fails_naming_the_read() {
        let mut idless = string_ids_observed(json!({"ok": ["1", "2"]}));
        idless["get"] = json!({"ok": [{"id": null, "page_content": "foo", "metadata": {"id": 1}},
            {"id": "2", "page_content": "bar", "metadata": {"id": 2}}]});
        let Outcome::Fail(f) = string_ids_outcome(idless.clone(), idless) else {
            panic!("expected a failure");
        };
        assert!(
            f.message.starts_with(&format!(
                "through {}: get_by_ids([\"1\",\"2\"]): document \"foo\" came back with id null where \
                 the id given or returned is \"1\"",
                PATHS[0]
            )),
            "{}",
            f.message
        );
    }

    #[test]
    fn a_mixed_batch_whose_document_id_is_ignored_fails() {
        let given = json!([{"id": "A", "page_content": "foo", "metadata": {"id": 1}},
            {"id": null, "page_content": "bar", "metadata": {"id": 2}}]);
        let observed = json!({"given": given, "ids": {"ok": ["X", "Y"]}, "get": {"ok": []}});
        let run = move || {
            Box::new(Observing {
                inner: ReferenceDriver::new(),
                sync: observed.clone(),
                r#async: observed.clone(),
            }) as Box<dyn MemoryProvider>
        };
        let Outcome::Fail(f) = outcome("interface.langchain.document_ids", run) else {
            panic!("expected a failure");
        };
        assert!(
            f.message.starts_with(&format!(
                "through {}: add_documents of [Document(id=\"A\", ..), Document(id=None, ..)] \
                 returned ids [\"X\",\"Y\"]",
                PATHS[0]
            )),
            "{}",
            f.message
        );
    }
}
