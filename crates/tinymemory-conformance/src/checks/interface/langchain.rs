//! LangChain's `VectorStore` (`langchain.vectorstore`): what its standard
//! tests (`langchain_tests.integration_tests.VectorStoreIntegrationTests`,
//! langchain-tests 1.1.9) and the `VectorStore` docstrings
//! (`langchain_core.vectorstores.base`) promise, one check per scenario of
//! `tinymemory.adapters.langchain_interface`. Every document is compared
//! whole, as the standard tests compare `Document`s: its `id`, its
//! `page_content` and its `metadata`, exactly as given (nothing added,
//! nothing dropped).

use serde_json::Value;

use super::draw::Draw;
use super::{field, json, judged, ok, shown, Served, Verdict};
use crate::failure::Step;
use crate::CheckContext;

/// The interface these checks are of, as a driver declares it.
const INTERFACE: &str = tinymemory_api::interface::LANGCHAIN_VECTORSTORE;

/// The sync path and the async one, as a message names them.
const PATHS: [&str; 2] = [
    "the sync methods (add_documents, similarity_search, get_by_ids, delete)",
    "the async methods (aadd_documents, asimilarity_search, aget_by_ids, adelete)",
];

/// This module's interface and paths, as [`judged`] takes them.
const SERVED: Served = Served {
    interface: INTERFACE,
    paths: PATHS,
};

/// The documents of an observed list, or why it is not one.
fn documents<'a>(value: &'a Value, what: &str) -> Result<&'a [Value], String> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("{what} returned {}, not a list of documents", json(value)))
}

/// `given` (a document sent) with `id`: what the store must
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

/// A document of the scenarios as the inputs carry it (and as the
/// observation shows a document): `{"id", "page_content", "metadata"}`,
/// with `n` its metadata's `id`.
fn document(content: &str, n: u64, id: Option<&str>) -> Value {
    serde_json::json!({"id": id, "page_content": content, "metadata": {"id": n}})
}

/// `n` documents of distinct words, numbered from 1.
fn documents_of(d: &mut Draw, n: u64) -> Vec<Value> {
    (1..=n).map(|i| document(&d.word(), i, None)).collect()
}

/// The text of the `i`th document sent.
fn text(inputs: &Value, i: usize) -> &Value {
    &inputs["given"][i]["page_content"]
}

/// The sent documents.
fn given(inputs: &Value) -> &[Value] {
    inputs["given"].as_array().map_or(&[], Vec::as_slice)
}

/// `similarity_search(query, k=k)` of the query sent for step `step`, as
/// a message names it.
fn search(inputs: &Value, step: &str, k: usize) -> String {
    format!(
        "similarity_search({}, k={k})",
        json(&inputs["queries"][step])
    )
}

/// What `similarity_search(queries[step], k=k)` returned (the
/// observation's `step`) is exactly `want` (in order when `ordered`), a
/// message naming the search and `after`, what the scenario did before it.
fn searched(
    inputs: &Value,
    o: &Value,
    step: &str,
    k: usize,
    after: &str,
    want: &[Value],
    ordered: bool,
) -> Verdict {
    let what = format!("{} {after}", search(inputs, step, k));
    same(
        what.trim_end(),
        ok(o, step, "similarity_search")?,
        want,
        ordered,
    )
}

/// `test_vectorstore_is_empty`, `test_vectorstore_still_empty`:
/// `assert vectorstore.similarity_search("foo", k=1) == []` on the store
/// the fixture gives, "an empty vector store for each test". An empty
/// answer is also what a store that ran nothing gives, so the scenario
/// then adds the drawn document with the drawn id and searches for its
/// text again: the store must find that document (`test_add_documents`'
/// form of a found document), which only a store that stored it can.
pub(crate) async fn empty_store(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langchain.empty_store",
        |d| {
            let given = documents_of(d, 1);
            let query = given[0]["page_content"].clone();
            serde_json::json!({"given": given, "given_ids": d.uuids(1),
                "queries": {"search": query, "after_add": query}})
        },
        |inputs, o| {
            searched(inputs, o, "search", 1, "on a fresh store", &[], true)?;
            let add = format!(
                "add_documents(documents, ids={})",
                json(&inputs["given_ids"])
            );
            ok(o, "ids", &add)?;
            searched(
                inputs,
                o,
                "after_add",
                1,
                &format!("after {add} of {} on that store", json(text(inputs, 0))),
                &[with_id(&given(inputs)[0], &inputs["given_ids"][0])],
                true,
            )
        },
    )
    .await
}

/// `test_add_documents`: the documents found carry the ids
/// `add_documents` returned (`Document(page_content="bar", metadata={"id":
/// 2}, id=ids[1])`), best first, and "We do not mutate the original
/// document object when adding it to the vector store (e.g., by adding an
/// ID)".
pub(crate) async fn add_documents(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langchain.add_documents",
        |d| {
            let given = documents_of(d, 2);
            let query = given[1]["page_content"].clone();
            serde_json::json!({"given": given, "queries": {"search": query}})
        },
        |inputs, o| {
            let given = given(inputs);
            let ids = ids(o, "ids", 2)?;
            let after = field(o, "input_after")?;
            if after.as_array().map(Vec::as_slice) != Some(given) {
                return Err(format!(
                    "add_documents changed the documents it was given: {} before, {} after; \
                     \"We do not mutate the original document object when adding it to the \
                     vector store (e.g., by adding an ID)\"",
                    json(&Value::Array(given.to_vec())),
                    json(after)
                ));
            }
            searched(
                inputs,
                o,
                "search",
                2,
                &format!(
                    "after add_documents([{}, {}])",
                    json(text(inputs, 0)),
                    json(text(inputs, 1))
                ),
                &[with_id(&given[1], &ids[1]), with_id(&given[0], &ids[0])],
                true,
            )
        },
    )
    .await
}

/// `test_deleting_documents`, `test_deleting_bulk_documents`: "check that
/// `add_documents` preserves identifiers passed in through `ids`, and that
/// `delete` correctly removes documents", "`delete` correctly removes
/// multiple documents when given a list of IDs".
pub(crate) async fn delete(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langchain.delete",
        |d| {
            let given = documents_of(d, 3);
            let query = given[0]["page_content"].clone();
            serde_json::json!({"given": given, "given_ids": d.uuids(3),
                "queries": {"after_one": query, "after_bulk": query}})
        },
        |inputs, o| {
            let given = given(inputs);
            let given_ids = &inputs["given_ids"];
            let returned = ok(o, "ids", "add_documents(documents, ids=[..])")?;
            if returned != given_ids {
                return Err(format!(
                    "add_documents(documents, ids={}) returned {}: the ids passed must be the \
                     documents' ids",
                    json(given_ids),
                    json(returned)
                ));
            }
            ok(o, "delete_one", "delete([id of the first])")?;
            searched(
                inputs,
                o,
                "after_one",
                3,
                &format!("after delete([id of {}])", json(text(inputs, 0))),
                &[
                    with_id(&given[1], &given_ids[1]),
                    with_id(&given[2], &given_ids[2]),
                ],
                false,
            )?;
            ok(
                o,
                "delete_bulk",
                "delete([id of the second, id of the third])",
            )?;
            searched(
                inputs,
                o,
                "after_bulk",
                3,
                &format!(
                    "after delete([id of {}, id of {}])",
                    json(text(inputs, 1)),
                    json(text(inputs, 2))
                ),
                &[],
                true,
            )
        },
    )
    .await
}

/// `test_delete_missing_content`: "Deleting missing content should not
/// raise an exception" (`delete(["1"])`, `delete(["1", "2", "3"])` on an
/// empty store). A delete that answers without raising is also what a
/// store that ran nothing gives, so the scenario then adds the drawn
/// document with the drawn id, finds it by its text (what only a store
/// that stored it can answer), deletes its id together with the missing
/// ones, and searches again: the delete must not raise for the missing ids
/// and must remove the present one (`test_deleting_documents`).
pub(crate) async fn delete_missing(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langchain.delete_missing",
        |d| {
            let given = documents_of(d, 1);
            let query = given[0]["page_content"].clone();
            serde_json::json!({"missing_ids": d.uuids(3), "given": given,
                "given_ids": d.uuids(1), "queries": {"before": query, "after": query}})
        },
        |inputs, o| {
            let rule = "\"Deleting missing content should not raise an exception\"";
            ok(o, "delete_one", "delete of one id the store does not hold")
                .map_err(|e| format!("{e}; {rule}"))?;
            ok(
                o,
                "delete_many",
                "delete of three ids the store does not hold",
            )
            .map_err(|e| format!("{e}; {rule}"))?;
            let given_ids = &inputs["given_ids"];
            let add = format!("add_documents(documents, ids={})", json(given_ids));
            ok(o, "ids", &add)?;
            let doc = with_id(&given(inputs)[0], &given_ids[0]);
            searched(
                inputs,
                o,
                "before",
                1,
                &format!("after {add}"),
                std::slice::from_ref(&doc),
                true,
            )?;
            let mixed = format!(
                "delete of the id added and three ids the store does not hold ({})",
                json(&given_ids[0])
            );
            ok(o, "delete_mixed", &mixed).map_err(|e| format!("{e}; {rule}"))?;
            searched(
                inputs,
                o,
                "after",
                1,
                &format!("after the {mixed}"),
                &[],
                true,
            )
        },
    )
    .await
}

/// `test_add_documents_with_ids_is_idempotent`,
/// `test_add_documents_by_id_with_mutation`: "adding the same document
/// twice with the same IDs has the same effect as adding it once", and
/// "when `add_documents` is called with an ID that already exists in the
/// vector store, the content is updated rather than duplicated" (its
/// metadata replaced, `some_other_field` included).
pub(crate) async fn upsert(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langchain.upsert",
        |d| {
            let given = documents_of(d, 2);
            let (new, other) = (d.word(), d.word());
            let content = format!("{new} {}", given[0]["page_content"].as_str().unwrap_or(""));
            let replacement = serde_json::json!({"id": null, "page_content": content,
                "metadata": {"id": 1, "some_other_field": other}});
            let after_twice = given[1]["page_content"].clone();
            serde_json::json!({"given": given, "given_ids": d.uuids(2),
                "replacement": [replacement],
                "queries": {"after_twice": after_twice, "after_replace": content}})
        },
        |inputs, o| {
            let given = given(inputs);
            let given_ids = &inputs["given_ids"];
            let replacement = &inputs["replacement"][0];
            ok(o, "first", "add_documents")?;
            ok(
                o,
                "second",
                "add_documents of the same documents and ids again",
            )?;
            searched(
                inputs,
                o,
                "after_twice",
                3,
                &format!(
                    "after adding [{}, {}] twice with the same ids",
                    json(text(inputs, 0)),
                    json(text(inputs, 1))
                ),
                &[
                    with_id(&given[1], &given_ids[1]),
                    with_id(&given[0], &given_ids[0]),
                ],
                true,
            )?;
            ok(o, "third", "add_documents over the id of the first")?;
            searched(
                inputs,
                o,
                "after_replace",
                3,
                &format!(
                    "after add_documents([{}], ids=[id of {}])",
                    json(&replacement["page_content"]),
                    json(text(inputs, 0))
                ),
                &[
                    with_id(replacement, &given_ids[0]),
                    with_id(&given[1], &given_ids[1]),
                ],
                true,
            )
        },
    )
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
    judged(
        &ctx,
        &SERVED,
        "interface.langchain.get_by_ids",
        |d| {
            let (given_ids, missing_ids) = (d.uuids(2), d.uuids(3));
            let mixed = [&given_ids[1], &missing_ids[0], &given_ids[0], &given_ids[1]];
            serde_json::json!({"given": documents_of(d, 2), "given_ids": given_ids,
                "missing_ids": missing_ids, "mixed_ids": mixed})
        },
        |inputs, o| {
            let given = given(inputs);
            let given_ids = &inputs["given_ids"];
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
                    "{e}; the get_by_ids docstring: \"Fewer documents may be returned than \
                         requested if some IDs are not found or if there are duplicated IDs\""
                )
            })?;
            let docs = documents(mixed, "get_by_ids of [bar, missing, foo, bar]")?;
            // A repeated id may come back once or twice: one of each
            // present id, compared whole, and nothing else.
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
        },
    )
    .await
}

/// `test_add_documents_documents`: "check also that `add_documents` will
/// correctly generate string IDs if none are provided", and `get_by_ids`
/// of them returns the documents with those ids.
pub(crate) async fn generated_ids(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langchain.generated_ids",
        |d| serde_json::json!({"given": documents_of(d, 2)}),
        |inputs, o| {
            let given = given(inputs);
            let ids = ids(o, "ids", 2)?;
            same(
                "get_by_ids of the ids add_documents made",
                ok(o, "get", "get_by_ids")?,
                &[with_id(&given[0], &ids[0]), with_id(&given[1], &ids[1])],
                false,
            )
        },
    )
    .await
}

/// `test_add_documents_with_existing_ids`: "1. IDs specified in the
/// `Document.id` field are assigned when adding documents. 2. If some
/// documents include IDs and others don't string IDs are generated for
/// the latter."
pub(crate) async fn document_ids(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langchain.document_ids",
        |d| {
            let id = d.uuid();
            serde_json::json!({"given": [document(&d.word(), 1, Some(&id)),
                document(&d.word(), 2, None)]})
        },
        |inputs, o| {
            let given = given(inputs);
            let ids = ids(o, "ids", 2)?;
            if ids[0] != given[0]["id"] {
                return Err(format!(
                    "add_documents of [Document(id={}, ..), Document(id=None, ..)] returned ids \
                     {}: \"IDs specified in the `Document.id` field are assigned when adding \
                     documents\"",
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
        },
    )
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
/// their kind of ids: `add_documents(documents, ids=["1", "2"])` returns
/// `["1", "2"]`, and the documents come back with them from `get_by_ids`,
/// `similarity_search` (`Document(page_content="bar", metadata={"id":
/// 2}, id="2")`) and after `delete(["1"])`. The suite sends two such ids
/// of a number from 1 to 99 (`"7"`, `"42"`). The other scenarios give
/// UUIDs, the form every store takes; this one holds a store to the ids
/// LangChain's own tests give it. (Ids missing from the store are
/// `get_by_ids`' and `delete_missing`'s: a store raising for one fails
/// those, not this.)
pub(crate) async fn string_ids(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langchain.string_ids",
        |d| {
            let given = documents_of(d, 2);
            let queries = serde_json::json!({"search": given[1]["page_content"],
                "after_delete": given[0]["page_content"]});
            serde_json::json!({"given": given, "given_ids": d.small_ids(2), "queries": queries})
        },
        |inputs, o| {
            let given = given(inputs);
            let given_ids = &inputs["given_ids"];
            let add = format!("add_documents(documents, ids={})", json(given_ids));
            let returned = ok(o, "ids", &add).map_err(|e| format!("{e}; {STRING_IDS_RULE}"))?;
            if returned != given_ids {
                return Err(format!(
                    "{add} returned {}: the ids passed must be the documents' ids; \
                     {STRING_IDS_RULE}",
                    json(returned)
                ));
            }
            let (first, second) = (
                with_id(&given[0], &given_ids[0]),
                with_id(&given[1], &given_ids[1]),
            );
            let get = format!("get_by_ids({})", json(given_ids));
            same(
                &get,
                ok(o, "get", &get)?,
                &[first.clone(), second.clone()],
                false,
            )?;
            searched(inputs, o, "search", 2, "", &[second.clone(), first], true)?;
            let delete = format!("delete([{}])", json(&given_ids[0]));
            ok(o, "delete", &delete)?;
            searched(
                inputs,
                o,
                "after_delete",
                2,
                &format!("after {delete}"),
                &[second],
                true,
            )
        },
    )
    .await
}

/// `got`, what `what` returned of a store holding exactly the documents
/// `inputs` gives, searched with `k` as large as their number: each of
/// them once, the one whose text is the query first. An empty or other
/// answer shows the search did not read the store. A document's id is not
/// compared (the scenario does not read the ids add_documents made).
fn found_all(inputs: &Value, got: &Value, what: &str) -> Verdict {
    let given = given(inputs);
    let query = &inputs["queries"]["search"];
    let what = format!(
        "{what} of a store holding only the {} documents added",
        given.len()
    );
    let docs = documents(got, &what)?;
    if let Some(first) = docs.first() {
        if first.get("page_content") != Some(query) {
            return Err(format!(
                "{what} returned {} first, not the document whose text is the query: {}",
                json(first.get("page_content").unwrap_or(&Value::Null)),
                json(got)
            ));
        }
    }
    // Each found document as sent, with the id it came back with.
    let want: Vec<Value> = given
        .iter()
        .map(|d| {
            let id = docs
                .iter()
                .find(|g| g.get("page_content") == d.get("page_content"))
                .and_then(|g| g.get("id"))
                .unwrap_or(&Value::Null);
            with_id(d, id)
        })
        .collect();
    same(&what, got, &want, false)
}

/// `similarity_search` and `similarity_search_with_score` of one query
/// return the same documents in the same order: both "Return docs most
/// similar to query" (`langchain_core.vectorstores.base`), the second
/// with their scores; a store whose two paths differ (another `k`, a
/// filter or threshold on one) answers the same question two ways.
pub(crate) async fn search_with_score(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langchain.search_with_score",
        |d| {
            let words = [d.word(), d.word(), d.word()];
            let both = format!("{} {}", words[0], words[1]);
            let given: Vec<Value> = words
                .iter()
                .chain([&both])
                .zip(1..)
                .map(|(w, n)| document(w, n, None))
                .collect();
            serde_json::json!({"given": given,
                "queries": {"search": words[0], "scored": words[0]}})
        },
        |inputs, o| {
            ok(o, "ids", "add_documents")?;
            let query = json(&inputs["queries"]["search"]);
            let plain = ok(o, "search", &format!("similarity_search({query}, k=4)"))?;
            let scored = ok(
                o,
                "scored",
                &format!("similarity_search_with_score({query}, k=4)"),
            )?;
            if plain != scored {
                return Err(format!(
                    "similarity_search({query}, k=4) returned {} but \
                     similarity_search_with_score returned {}",
                    shown(&plain.to_string()),
                    shown(&scored.to_string())
                ));
            }
            found_all(inputs, plain, &format!("similarity_search({query}, k=4)"))
        },
    )
    .await
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tinymemory_reference::ReferenceDriver;

    use super::super::observing;
    use super::*;
    use crate::Outcome;

    fn outcome(
        id: &str,
        answer: impl Fn(&Value, bool) -> Value + Send + Sync + 'static,
    ) -> (Outcome, Vec<Value>) {
        observing::outcome(INTERFACE, id, answer)
    }

    fn failure(outcome: Outcome) -> String {
        match outcome {
            Outcome::Fail(f) => f.message,
            other => panic!("expected a failure, got {other:?}"),
        }
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
        let outcome = observing::run_check("interface.langchain.delete_missing", || {
            Ok(Box::new(ReferenceDriver::new()) as Box<dyn tinymemory_api::MemoryProvider>)
        });
        assert_eq!(outcome, Outcome::NotServed);
        assert_eq!(outcome.message(), Some(super::super::NOT_SERVED));
    }

    /// A driver that declares the interface yet runs no scenario (every
    /// path "not implemented") does not earn a skip, which counts for no
    /// family: the level would be FULL with the interface never checked.
    #[test]
    fn a_declared_interface_implementing_neither_path_is_skipped_holding_the_family_back() {
        let (outcome, _) = outcome(
            "interface.langchain.empty_store",
            |_, _| json!({"not_implemented": "NotImplementedError: "}),
        );
        // The skip is not Outcome::NotServed, so it keeps the interface
        // family from passing (report::conformance's test of that).
        assert_eq!(
            outcome,
            Outcome::Skip(format!(
                "the store implements neither path of its scenario: {p0}: \"NotImplementedError: \"; \
                 {p1}: \"NotImplementedError: \"",
                p0 = PATHS[0],
                p1 = PATHS[1]
            ))
        );
    }

    /// Check `id` passes the observation `faithful` makes of the inputs
    /// sent, and fails it once `broken` has changed it: the failure's
    /// message and the inputs sent.
    fn passes_until_broken(
        id: &str,
        faithful: fn(&Value) -> Value,
        broken: fn(&mut Value),
    ) -> (String, Value) {
        let (got, _) = outcome(id, move |inputs, _| faithful(inputs));
        assert_eq!(got, Outcome::Pass, "{id}");
        let (got, sent) = outcome(id, move |inputs, _| {
            let mut observed = faithful(inputs);
            broken(&mut observed);
            observed
        });
        (failure(got), sent[0].clone())
    }

    /// The observation of `interface.langchain.delete_missing` a faithful
    /// store gives for `inputs`.
    fn delete_missing_observed(inputs: &Value) -> Value {
        let doc = with_id(&inputs["given"][0], &inputs["given_ids"][0]);
        json!({"missing_ids": inputs["missing_ids"], "delete_one": {"ok": null},
            "delete_many": {"ok": null}, "ids": {"ok": inputs["given_ids"]},
            "before": {"ok": [doc]}, "delete_mixed": {"ok": null}, "after": {"ok": []}})
    }

    #[test]
    fn a_faithful_delete_missing_passes_and_one_keeping_the_present_id_fails() {
        let (message, inputs) = passes_until_broken(
            "interface.langchain.delete_missing",
            delete_missing_observed,
            |kept| kept["after"] = kept["before"].clone(),
        );
        let why = format!(
            "similarity_search({q}, k=1) after the delete of the id added and three ids the \
             store does not hold ({id}) returned 1 documents where 0 are expected: [{doc}]",
            q = json(&inputs["given"][0]["page_content"]),
            id = json(&inputs["given_ids"][0]),
            doc = json(&with_id(&inputs["given"][0], &inputs["given_ids"][0]))
        );
        assert_eq!(
            message,
            format!("through {}: {why}; through {}: {why}", PATHS[0], PATHS[1])
        );
    }

    /// The observation of `interface.langchain.empty_store` a faithful
    /// store gives for `inputs`.
    fn empty_store_observed(inputs: &Value) -> Value {
        let doc = with_id(&inputs["given"][0], &inputs["given_ids"][0]);
        json!({"queries": inputs["queries"], "search": {"ok": []},
            "ids": {"ok": inputs["given_ids"]}, "after_add": {"ok": [doc]}})
    }

    #[test]
    fn a_faithful_empty_store_passes_and_one_finding_nothing_after_the_add_fails() {
        let (message, inputs) = passes_until_broken(
            "interface.langchain.empty_store",
            empty_store_observed,
            |blind| blind["after_add"] = json!({"ok": []}),
        );
        let why = format!(
            "similarity_search({q}, k=1) after add_documents(documents, ids={ids}) of {q} on \
             that store returned 0 documents where 1 are expected: []",
            q = json(&inputs["given"][0]["page_content"]),
            ids = json(&inputs["given_ids"]),
        );
        assert_eq!(
            message,
            format!("through {}: {why}; through {}: {why}", PATHS[0], PATHS[1])
        );
    }

    /// The observation of `interface.langchain.search_with_score` a
    /// faithful store gives for `inputs`: the documents, the query's
    /// first, with ids of its own.
    fn search_with_score_observed(inputs: &Value) -> Value {
        let given = given(inputs);
        let found: Vec<Value> = [0, 3, 1, 2]
            .into_iter()
            .map(|i| with_id(&given[i], &json!(format!("id{i}"))))
            .collect();
        json!({"given": given, "ids": {"ok": ["id0", "id1", "id2", "id3"]},
            "search": {"ok": found}, "scored": {"ok": found}})
    }

    #[test]
    fn a_faithful_search_with_score_passes_and_a_search_not_finding_the_query_first_fails() {
        let (message, inputs) = passes_until_broken(
            "interface.langchain.search_with_score",
            search_with_score_observed,
            |other| {
                other["search"]["ok"].as_array_mut().unwrap().swap(0, 2);
                other["scored"] = other["search"].clone();
            },
        );
        assert!(
            message.starts_with(&format!(
                "through {}: similarity_search({q}, k=4) of a store holding only the 4 documents \
                 added returned {w} first, not the document whose text is the query: ",
                PATHS[0],
                q = json(&inputs["queries"]["search"]),
                w = json(&inputs["given"][1]["page_content"]),
            )),
            "{message}"
        );
    }

    #[test]
    fn a_delete_raising_on_a_missing_id_fails_through_the_path_that_raised() {
        let (outcome, _) = outcome("interface.langchain.delete_missing", |inputs, r#async| {
            let one = if r#async {
                json!({"error": "ValueError: no m"})
            } else {
                json!({"ok": null})
            };
            let mut faithful = delete_missing_observed(inputs);
            faithful["delete_one"] = one;
            faithful
        });
        assert_eq!(
            failure(outcome),
            format!(
                "through {}: delete of one id the store does not hold raised ValueError: no m; \
                 \"Deleting missing content should not raise an exception\"",
                PATHS[1]
            )
        );
    }

    /// The documents sent, each with the id at the same place in `ids`.
    fn stored(inputs: &Value, ids: &Value) -> Vec<Value> {
        given(inputs)
            .iter()
            .zip(ids.as_array().unwrap())
            .map(|(d, id)| with_id(d, id))
            .collect()
    }

    #[test]
    fn get_by_ids_raising_on_repeated_ids_is_named_with_the_docstring() {
        let (outcome, _) = outcome("interface.langchain.get_by_ids", |inputs, _| {
            json!({"ids": {"ok": inputs["given_ids"]},
                "get": {"ok": stored(inputs, &inputs["given_ids"])}, "missing": {"ok": []},
                "mixed": {"error": "DuplicateIDError: Expected IDs to be unique"}})
        });
        let why = "get_by_ids of [bar, missing, foo, bar] raised DuplicateIDError: Expected IDs to be \
                   unique; the get_by_ids docstring: \"Fewer documents may be returned than requested \
                   if some IDs are not found or if there are duplicated IDs\"";
        assert_eq!(
            failure(outcome),
            format!("through {}: {why}; through {}: {why}", PATHS[0], PATHS[1])
        );
    }

    /// The observation of `interface.langchain.string_ids` a faithful
    /// store gives for `inputs`, its add_documents answering `ids`.
    fn string_ids_observed(inputs: &Value, ids: Value) -> Value {
        let docs = stored(inputs, &inputs["given_ids"]);
        let (one, two) = (docs[0].clone(), docs[1].clone());
        json!({"given": inputs["given"], "given_ids": inputs["given_ids"], "ids": ids,
            "get": {"ok": [two, one]}, "search": {"ok": [two, one]}, "delete": {"ok": null},
            "after_delete": {"ok": [two]}})
    }

    #[test]
    fn plain_string_ids_kept_and_read_back_pass() {
        let (outcome, sent) = outcome("interface.langchain.string_ids", |inputs, _| {
            string_ids_observed(inputs, json!({"ok": inputs["given_ids"]}))
        });
        assert_eq!(outcome, Outcome::Pass);
        // Both paths are sent the same seeded ids: plain numbers.
        assert_eq!(sent.len(), 2);
        assert_eq!(sent[0], sent[1]);
        for id in sent[0]["given_ids"].as_array().unwrap() {
            assert!((1..=99).contains(&id.as_str().unwrap().parse::<u32>().unwrap()));
        }
    }

    /// Qdrant (langchain-qdrant 1.1.0) refuses every id that is not a
    /// UUID, where LangChain's standard tests give "1" and "2".
    #[test]
    fn an_add_refusing_ids_that_are_not_uuids_fails_quoting_the_standard_tests() {
        let (outcome, sent) = outcome("interface.langchain.string_ids", |inputs, r#async| {
            if r#async {
                json!({"ids": {"error": "ValueError: Point id is not a valid UUID"}})
            } else {
                string_ids_observed(inputs, json!({"ok": inputs["given_ids"]}))
            }
        });
        assert_eq!(
            failure(outcome),
            format!(
                "through {}: add_documents(documents, ids={}) raised ValueError: Point id \
                 is not a valid UUID; {STRING_IDS_RULE}",
                PATHS[1],
                json(&sent[1]["given_ids"])
            )
        );
    }

    #[test]
    fn ids_passed_replaced_by_the_stores_own_fail_through_both_paths() {
        let (outcome, sent) = outcome("interface.langchain.string_ids", |inputs, _| {
            let mut own = string_ids_observed(inputs, json!({"ok": ["a1", "a2"]}));
            own["get"] = json!({"ok": []});
            own
        });
        let why = format!(
            "add_documents(documents, ids={}) returned [\"a1\",\"a2\"]: the ids passed must be \
             the documents' ids; {STRING_IDS_RULE}",
            json(&sent[0]["given_ids"])
        );
        assert_eq!(
            failure(outcome),
            format!("through {}: {why}; through {}: {why}", PATHS[0], PATHS[1])
        );
    }

    #[test]
    fn a_document_read_back_without_its_string_id_fails_naming_the_read() {
        let (outcome, sent) = outcome("interface.langchain.string_ids", |inputs, _| {
            let mut idless = string_ids_observed(inputs, json!({"ok": inputs["given_ids"]}));
            idless["get"]["ok"][1]["id"] = Value::Null;
            idless
        });
        let message = failure(outcome);
        assert!(
            message.starts_with(&format!(
                "through {}: get_by_ids({}): document {} came back with id null where \
                 the id given or returned is {}",
                PATHS[0],
                json(&sent[0]["given_ids"]),
                json(&sent[0]["given"][0]["page_content"]),
                json(&sent[0]["given_ids"][0])
            )),
            "{message}"
        );
    }

    #[test]
    fn a_mixed_batch_whose_document_id_is_ignored_fails() {
        let (outcome, sent) = outcome(
            "interface.langchain.document_ids",
            |_, _| json!({"ids": {"ok": ["X", "Y"]}, "get": {"ok": []}}),
        );
        let message = failure(outcome);
        assert!(
            message.starts_with(&format!(
                "through {}: add_documents of [Document(id={}, ..), Document(id=None, ..)] \
                 returned ids [\"X\",\"Y\"]",
                PATHS[0],
                json(&sent[0]["given"][0]["id"])
            )),
            "{message}"
        );
    }

    /// What the Python adapter answered before the suite sent inputs, for
    /// each check: its own documents ("foo", "bar", "baz") and ids,
    /// echoed consistently with faithful results. Such a canned answer
    /// passed every check; it now fails each one.
    fn canned(check: &str) -> Value {
        let given_ids = json!([
            "7c9e6679-7425-40de-944b-e07fc1f90a01",
            "7c9e6679-7425-40de-944b-e07fc1f90a02",
            "7c9e6679-7425-40de-944b-e07fc1f90a03"
        ]);
        let missing = json!([
            "7c9e6679-7425-40de-944b-e07fc1f90b01",
            "7c9e6679-7425-40de-944b-e07fc1f90b02",
            "7c9e6679-7425-40de-944b-e07fc1f90b03"
        ]);
        let doc = |t: &str, n: u64, id: Value| json!({"id": id, "page_content": t, "metadata": {"id": n}});
        let (foo, bar) = (doc("foo", 1, Value::Null), doc("bar", 2, Value::Null));
        let (foo_a, bar_b) = (
            doc("foo", 1, given_ids[0].clone()),
            doc("bar", 2, given_ids[1].clone()),
        );
        match check {
            "interface.langchain.empty_store" => {
                json!({"search": {"ok": []}, "queries": {"search": "foo"}})
            }
            "interface.langchain.delete_missing" => json!({"missing_ids": missing,
                "delete_one": {"ok": null}, "delete_many": {"ok": null}}),
            "interface.langchain.get_by_ids" => json!({"given": [foo, bar],
                "given_ids": [given_ids[0], given_ids[1]], "missing_ids": missing,
                "ids": {"ok": [given_ids[0], given_ids[1]]}, "get": {"ok": [foo_a, bar_b]},
                "missing": {"ok": []}, "mixed_ids": [given_ids[1], missing[0], given_ids[0], given_ids[1]],
                "mixed": {"ok": [bar_b, foo_a]}}),
            _ => json!({"given": [foo, bar], "ids": {"ok": [given_ids[0], given_ids[1]]},
                "input_after": [foo, bar], "search": {"ok": [bar_b, foo_a]},
                "get": {"ok": [foo_a, bar_b]}}),
        }
    }

    #[test]
    fn a_canned_observation_of_the_adapters_own_inputs_fails_naming_them() {
        for check in [
            "interface.langchain.empty_store",
            "interface.langchain.add_documents",
            "interface.langchain.delete_missing",
            "interface.langchain.get_by_ids",
            "interface.langchain.generated_ids",
        ] {
            let (outcome, _) = outcome(check, move |_, _| canned(check));
            let message = failure(outcome);
            assert!(
                message.starts_with(&format!(
                    "through {}: the adapter ran other inputs than the suite sent: its `",
                    PATHS[0]
                )),
                "{check}: {message}"
            );
        }
    }

    /// The same canned results without the inputs echoed: the documents
    /// found are not the ones the suite sent.
    #[test]
    fn canned_results_without_their_inputs_fail_on_the_documents() {
        let (outcome, sent) = outcome("interface.langchain.generated_ids", |_, _| {
            let mut answer = canned("interface.langchain.generated_ids");
            answer.as_object_mut().unwrap().remove("given");
            answer
        });
        let message = failure(outcome);
        assert!(
            message.starts_with(&format!(
                "through {}: get_by_ids of the ids add_documents made did not return document {}",
                PATHS[0],
                json(&sent[0]["given"][0]["page_content"])
            )),
            "{message}"
        );
    }
}
