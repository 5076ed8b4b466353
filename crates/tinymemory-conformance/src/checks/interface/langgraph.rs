//! LangGraph's `BaseStore` (`langgraph.basestore`): what
//! `langgraph.store.base` documents of `batch` and `abatch` (langgraph
//! 1.2.24's `Item`, `PutOp`, `SearchOp`, `ListNamespacesOp` and
//! `BaseStore.list_namespaces`), one check per scenario of
//! `tinymemory.adapters.langgraph_interface`.

use serde_json::Value;

use super::{field, json, judged, ok, Served, Verdict};
use crate::failure::Step;
use crate::CheckContext;

/// The interface these checks are of, as a driver declares it.
const INTERFACE: &str = tinymemory_api::interface::LANGGRAPH_BASESTORE;

/// The sync path and the async one, as a message names them.
const PATHS: [&str; 2] = ["batch", "abatch"];

/// This module's interface and paths, as [`judged`] takes them.
const SERVED: Served = Served {
    interface: INTERFACE,
    paths: PATHS,
};

/// Every call of a list of observed calls answered.
fn all_ok(observed: &Value, name: &str, call: &str) -> Verdict {
    for step in field(observed, name)?.as_array().into_iter().flatten() {
        ok(&serde_json::json!({ "step": step }), "step", call)?;
    }
    Ok(())
}

fn number(item: &Value, name: &str) -> Result<f64, String> {
    item.get(name)
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("the item {} has no {name}", json(item)))
}

/// `Item`: "created_at: Timestamp of item creation. updated_at: Timestamp
/// of last update." (`SearchItem`: "When the item was first created"). A
/// put over an existing key is an update (`BaseStore.put`: "Store or
/// update an item"): its `created_at` stays, its `updated_at` moves on, as
/// PostgresStore's upsert does (it sets `value` and `updated_at` only).
/// LangGraph's own store tests compare `updated_at` across an update and
/// never `created_at`, so this check is the only one that holds it.
pub(crate) async fn item_timestamps(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langgraph.item_timestamps",
        |d| {
            let first = d.number(0);
            let second = d.number(first);
            serde_json::json!({"namespace": [d.word()], "key": d.word(),
                "values": [{"v": first}, {"v": second}]})
        },
        |inputs, o| {
            let values = &inputs["values"];
            ok(o, "first_put", "PutOp")?;
            ok(o, "second_put", "PutOp over the same key")?;
            let first = ok(o, "first", "GetOp")?;
            let second = ok(o, "second", "GetOp after the update")?;
            if first.get("value") != Some(&values[0]) {
                return Err(format!(
                    "GetOp after a PutOp of {} returned {}",
                    json(&values[0]),
                    json(first)
                ));
            }
            if second.get("value") != Some(&values[1]) {
                return Err(format!(
                    "GetOp after a PutOp of {} over {} returned {}",
                    json(&values[1]),
                    json(&values[0]),
                    json(second)
                ));
            }
            let (created, recreated) =
                (number(first, "created_at")?, number(second, "created_at")?);
            if created.to_bits() != recreated.to_bits() {
                return Err(format!(
                    "an update moved created_at from {created} to {recreated} (seconds since \
                     the epoch): Item's \"created_at: Timestamp of item creation\" (SearchItem: \
                     \"When the item was first created\"), and put is \"Store or update an \
                     item\""
                ));
            }
            let (updated, moved) = (number(first, "updated_at")?, number(second, "updated_at")?);
            if moved <= updated {
                return Err(format!(
                    "an update 1.1 s after the first put left updated_at at {moved} (was \
                     {updated}): \"updated_at: Timestamp of last update\""
                ));
            }
            Ok(())
        },
    )
    .await
}

/// `PutOp.value`: "The data to store, or `None` to mark the item for
/// deletion. [..] Setting this to `None` signals that the item should be
/// deleted." An item found by neither a get nor a search is also what a
/// store that ran nothing shows, so the scenario reads the item back
/// between the put and the delete (as LangGraph's own store tests do,
/// `test_basic_store_ops`): only a store that stored it returns its value.
pub(crate) async fn put_none_deletes(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langgraph.put_none_deletes",
        |d| {
            serde_json::json!({"namespace": [d.word()], "key": d.word(),
                "value": {"v": d.number(0)}})
        },
        |inputs, o| {
            ok(o, "put", "PutOp")?;
            let before = ok(o, "before", "GetOp after the PutOp")?;
            if before.get("value") != Some(&inputs["value"])
                || before.get("key") != Some(&inputs["key"])
                || before.get("namespace") != Some(&inputs["namespace"])
            {
                return Err(format!(
                    "GetOp({}, {}) after a PutOp of {} returned {}: \"Retrieve a single item\", \
                     the one just put",
                    json(&inputs["namespace"]),
                    json(&inputs["key"]),
                    json(&inputs["value"]),
                    json(before)
                ));
            }
            ok(o, "delete", "PutOp with value None")?;
            let got = ok(o, "get", "GetOp")?;
            let found = ok(o, "search", "SearchOp")?;
            if !got.is_null() || found.as_array().is_none_or(|a| !a.is_empty()) {
                return Err(format!(
                    "after a PutOp with value None, GetOp returned {} and SearchOp {}: \
                     \"Setting this to `None` signals that the item should be deleted\"",
                    json(got),
                    json(found)
                ));
            }
            Ok(())
        },
    )
    .await
}

/// Namespaces as sorted lists of labels: the docs promise no order.
fn namespaces(value: &Value, what: &str) -> Result<Vec<Value>, String> {
    let mut list = value
        .as_array()
        .cloned()
        .ok_or_else(|| format!("{what} returned {}, not a list", json(value)))?;
    list.sort_by_key(ToString::to_string);
    Ok(list)
}

/// The labels of the docstring's example (`a`, `b`, `c`, `d`, `e`, `f`,
/// `i`), each a word the suite drew, in that order.
const LABELS: usize = 7;

/// `BaseStore.list_namespaces`: "prefix: Filter namespaces that start
/// with this path. suffix: Filter namespaces that end with this path.
/// max_depth: Return namespaces up to this depth in the hierarchy.
/// Namespaces deeper than this level will be truncated", with the
/// docstring's example: of `("a", "b", "c")`, `("a", "b", "d", "e")`,
/// `("a", "b", "d", "i")`, `("a", "b", "f")` and `("a", "c", "f")`,
/// `list_namespaces(prefix=("a", "b"), max_depth=3)` is `[("a", "b",
/// "c"), ("a", "b", "d"), ("a", "b", "f")]`. The suite sends the example
/// with each label a drawn word.
pub(crate) async fn list_namespaces(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langgraph.list_namespaces",
        |d| {
            let l: Vec<String> = (0..LABELS).map(|_| d.word()).collect();
            let (a, b, c, dd, e, f, i) = (&l[0], &l[1], &l[2], &l[3], &l[4], &l[5], &l[6]);
            serde_json::json!({
                "namespaces": [[a, b, c], [a, b, dd, e], [a, b, dd, i], [a, b, f], [a, c, f]],
                "with_prefix": [a, b],
                "with_suffix": [f],
            })
        },
        |inputs, o| {
            all_ok(o, "puts", "PutOp")?;
            let ns = &inputs["namespaces"];
            let (a, b, c, dd, f) = (&ns[0][0], &ns[0][1], &ns[0][2], &ns[1][2], &ns[3][2]);
            let cases = [
                (
                    "prefix_depth",
                    format!(
                        "list_namespaces(prefix={}, max_depth=3)",
                        json(&inputs["with_prefix"])
                    ),
                    serde_json::json!([[a, b, c], [a, b, dd], [a, b, f]]),
                ),
                (
                    "suffix",
                    format!("list_namespaces(suffix={})", json(&inputs["with_suffix"])),
                    serde_json::json!([[a, b, f], [a, c, f]]),
                ),
                (
                    "depth",
                    "list_namespaces(max_depth=2)".to_owned(),
                    serde_json::json!([[a, b], [a, c]]),
                ),
            ];
            for (name, call, want) in cases {
                let got = namespaces(ok(o, name, &call)?, &call)?;
                let want = namespaces(&want, &call)?;
                if got != want {
                    return Err(format!(
                        "{call} over the namespaces of its docstring's example ({}) returned \
                         {}, where the docs give {}",
                        json(ns),
                        json(&Value::Array(got)),
                        json(&Value::Array(want))
                    ));
                }
            }
            Ok(())
        },
    )
    .await
}

/// `SearchOp`: "namespace_prefix: Hierarchical path prefix to search
/// within. limit: Maximum number of items to return. offset: Number of
/// items to skip before returning results." Pages of 2 at offsets 0, 2
/// and 4 hold each item under the prefix once, and nothing outside it.
pub(crate) async fn search_paging(ctx: CheckContext) -> Step {
    judged(
        &ctx,
        &SERVED,
        "interface.langgraph.search_paging",
        |d| {
            let (prefix, one, two, other) = (d.word(), d.word(), d.word(), d.word());
            let inside: Vec<Value> = [&one, &one, &one, &two, &two]
                .into_iter()
                .map(|label| serde_json::json!([[&prefix, label], d.word()]))
                .collect();
            serde_json::json!({"prefix": [prefix], "inside": inside,
                "outside": [[other], d.word()]})
        },
        |inputs, o| {
            all_ok(o, "puts", "PutOp")?;
            let prefix = json(&inputs["prefix"]);
            let inside = inputs["inside"].as_array().cloned().unwrap_or_default();
            let address = |item: &Value| serde_json::json!([item["namespace"], item["key"]]);
            let whole = ok(o, "whole", &format!("SearchOp({prefix}, limit=10)"))?;
            let mut found: Vec<Value> = whole
                .as_array()
                .into_iter()
                .flatten()
                .map(address)
                .collect();
            let mut want = inside.clone();
            found.sort_by_key(ToString::to_string);
            want.sort_by_key(ToString::to_string);
            if found != want {
                return Err(format!(
                    "SearchOp with namespace prefix {prefix} returned the items {}, where the \
                     store holds {} under it (and {} outside)",
                    json(&Value::Array(found)),
                    json(&Value::Array(want)),
                    json(&inputs["outside"])
                ));
            }
            let mut paged = Vec::new();
            for (i, page) in field(o, "pages")?
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                let step = serde_json::json!({ "page": page });
                let items = ok(&step, "page", "SearchOp with limit and offset")?;
                let items = items.as_array().cloned().unwrap_or_default();
                let most = if i < 2 { 2 } else { 1 };
                if items.len() != most {
                    return Err(format!(
                        "SearchOp({prefix}, limit=2, offset={}) returned {} items where \
                         {most} of the 5 remain: {}",
                        2 * i,
                        items.len(),
                        json(&Value::Array(items))
                    ));
                }
                paged.extend(items.iter().map(address));
            }
            paged.sort_by_key(ToString::to_string);
            if paged != want {
                return Err(format!(
                    "pages of 2 at offsets 0, 2 and 4 held {}, not each of {} once",
                    json(&Value::Array(paged)),
                    json(&Value::Array(want))
                ));
            }
            Ok(())
        },
    )
    .await
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::observing;
    use super::*;
    use crate::Outcome;

    /// An observation of item_timestamps for `inputs`: the item read
    /// after the first put, then after the second.
    fn timestamps(inputs: &Value, first: (f64, f64), second: (f64, f64)) -> Value {
        let item = |i: usize, (created, updated): (f64, f64)| {
            json!({"ok": {"namespace": inputs["namespace"], "key": inputs["key"],
                "value": inputs["values"][i], "created_at": created, "updated_at": updated}})
        };
        json!({"first_put": {"ok": null}, "first": item(0, first),
            "second_put": {"ok": null}, "second": item(1, second)})
    }

    fn outcome(
        id: &str,
        answer: impl Fn(&Value, bool) -> Value + Send + Sync + 'static,
    ) -> Outcome {
        observing::outcome(INTERFACE, id, answer).0
    }

    #[test]
    fn an_update_keeping_created_at_passes_at_any_clock_resolution() {
        // PostgresStore's microseconds, and SQLite's whole seconds.
        for times in [
            ((10.25, 10.25), (10.25, 11.375)),
            ((10.0, 10.0), (10.0, 11.0)),
        ] {
            assert_eq!(
                outcome("interface.langgraph.item_timestamps", move |inputs, _| {
                    timestamps(inputs, times.0, times.1)
                }),
                Outcome::Pass
            );
        }
    }

    #[test]
    fn an_update_rewriting_created_at_fails_quoting_the_item_docs() {
        let Outcome::Fail(f) = outcome("interface.langgraph.item_timestamps", |inputs, _| {
            timestamps(inputs, (10.25, 10.25), (11.5, 11.5))
        }) else {
            panic!("expected a failure");
        };
        let why = "an update moved created_at from 10.25 to 11.5 (seconds since the epoch): \
                   Item's \"created_at: Timestamp of item creation\" (SearchItem: \"When the item \
                   was first created\"), and put is \"Store or update an item\"";
        assert_eq!(
            f.message,
            format!("through batch: {why}; through abatch: {why}")
        );
    }

    /// The observation of put_none_deletes a faithful store gives for
    /// `inputs`.
    fn put_none_observed(inputs: &Value) -> Value {
        let item = json!({"namespace": inputs["namespace"], "key": inputs["key"],
            "value": inputs["value"], "created_at": 10.0, "updated_at": 10.0});
        json!({"namespace": inputs["namespace"], "key": inputs["key"], "value": inputs["value"],
            "put": {"ok": null}, "before": {"ok": item}, "delete": {"ok": null},
            "get": {"ok": null}, "search": {"ok": []}})
    }

    #[test]
    fn a_faithful_put_none_passes_and_one_that_never_stored_the_item_fails() {
        assert_eq!(
            outcome("interface.langgraph.put_none_deletes", |inputs, _| {
                put_none_observed(inputs)
            }),
            Outcome::Pass
        );
        let (outcome, sent) = observing::outcome(
            INTERFACE,
            "interface.langgraph.put_none_deletes",
            |inputs, _| {
                let mut never = put_none_observed(inputs);
                never["before"] = json!({"ok": null});
                never
            },
        );
        let Outcome::Fail(f) = outcome else {
            panic!("expected a failure");
        };
        let inputs = &sent[0];
        let why = format!(
            "GetOp({}, {}) after a PutOp of {} returned null: \"Retrieve a single item\", the \
             one just put",
            json(&inputs["namespace"]),
            json(&inputs["key"]),
            json(&inputs["value"])
        );
        assert_eq!(
            f.message,
            format!("through batch: {why}; through abatch: {why}")
        );
    }

    /// What the Python adapter answered before the suite sent inputs: the
    /// docstring's namespaces with their own labels, and the right
    /// answers for those, echoed consistently. It passed; it now fails.
    #[test]
    fn a_canned_list_namespaces_of_the_docstrings_own_labels_fails_naming_them() {
        let Outcome::Fail(f) = outcome("interface.langgraph.list_namespaces", |_, _| {
            json!({"namespaces": [["a", "b", "c"], ["a", "b", "d", "e"], ["a", "b", "d", "i"],
                    ["a", "b", "f"], ["a", "c", "f"]],
                "puts": [{"ok": null}, {"ok": null}, {"ok": null}, {"ok": null}, {"ok": null}],
                "prefix_depth": {"ok": [["a", "b", "c"], ["a", "b", "d"], ["a", "b", "f"]]},
                "suffix": {"ok": [["a", "b", "f"], ["a", "c", "f"]]},
                "depth": {"ok": [["a", "b"], ["a", "c"]]}})
        }) else {
            panic!("expected a failure");
        };
        assert!(
            f.message.starts_with(
                "through batch: the adapter ran other inputs than the suite sent: its \
                 `namespaces` is [[\"a\",\"b\",\"c\"]"
            ),
            "{}",
            f.message
        );
    }

    /// The same canned answer without its namespaces echoed: what it
    /// lists is not what the suite put.
    #[test]
    fn canned_search_pages_without_their_inputs_fail_on_the_items() {
        let Outcome::Fail(f) = outcome("interface.langgraph.search_paging", |_, _| {
            let item = |ns: &str, k: &str| json!({"namespace": ["docs", ns], "key": k});
            let all = [
                item("a", "k0"),
                item("a", "k1"),
                item("a", "k2"),
                item("b", "k3"),
                item("b", "k4"),
            ];
            json!({"puts": [], "whole": {"ok": all}, "pages": [{"ok": all[0..2]},
                {"ok": all[2..4]}, {"ok": all[4..]}]})
        }) else {
            panic!("expected a failure");
        };
        assert!(
            f.message
                .starts_with("through batch: SearchOp with namespace prefix [\""),
            "{}",
            f.message
        );
        assert!(
            f.message
                .contains("returned the items [[[\"docs\",\"a\"],\"k0\"]"),
            "{}",
            f.message
        );
    }
}
