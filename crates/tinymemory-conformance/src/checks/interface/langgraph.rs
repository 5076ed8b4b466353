//! LangGraph's `BaseStore` (`langgraph.basestore`): what
//! `langgraph.store.base` documents of `batch` and `abatch` (langgraph
//! 1.2.24's `Item`, `PutOp`, `SearchOp`, `ListNamespacesOp` and
//! `BaseStore.list_namespaces`), one check per scenario of
//! `tinymemory.adapters.langgraph_interface`.

use serde_json::Value;

use super::{field, json, judged, ok, Verdict};
use crate::failure::Step;
use crate::CheckContext;

/// The interface these checks are of, as a driver declares it.
const INTERFACE: &str = tinymemory_api::interface::LANGGRAPH_BASESTORE;

/// The sync path and the async one, as a message names them.
const PATHS: [&str; 2] = ["batch", "abatch"];

async fn run(ctx: &CheckContext, check: &str, judge: fn(&Value) -> Verdict) -> Step {
    judged(ctx, INTERFACE, check, PATHS, judge).await
}

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
    run(&ctx, "interface.langgraph.item_timestamps", |o| {
        ok(o, "first_put", "PutOp")?;
        ok(o, "second_put", "PutOp over the same key")?;
        let first = ok(o, "first", "GetOp")?;
        let second = ok(o, "second", "GetOp after the update")?;
        if second.get("value") != Some(&serde_json::json!({"v": 2})) {
            return Err(format!(
                "GetOp after a PutOp of {{\"v\": 2}} over {{\"v\": 1}} returned {}",
                json(second)
            ));
        }
        let (created, recreated) = (number(first, "created_at")?, number(second, "created_at")?);
        if created.to_bits() != recreated.to_bits() {
            return Err(format!(
                "an update moved created_at from {created} to {recreated} (seconds since the \
                 epoch): Item's \"created_at: Timestamp of item creation\" (SearchItem: \"When \
                 the item was first created\"), and put is \"Store or update an item\""
            ));
        }
        let (updated, moved) = (number(first, "updated_at")?, number(second, "updated_at")?);
        if moved <= updated {
            return Err(format!(
                "an update 1.1 s after the first put left updated_at at {moved} (was {updated}): \
                 \"updated_at: Timestamp of last update\""
            ));
        }
        Ok(())
    })
    .await
}

/// `PutOp.value`: "The data to store, or `None` to mark the item for
/// deletion. [..] Setting this to `None` signals that the item should be
/// deleted."
pub(crate) async fn put_none_deletes(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langgraph.put_none_deletes", |o| {
        ok(o, "put", "PutOp")?;
        ok(o, "delete", "PutOp with value None")?;
        let got = ok(o, "get", "GetOp")?;
        let found = ok(o, "search", "SearchOp")?;
        if !got.is_null() || found.as_array().is_none_or(|a| !a.is_empty()) {
            return Err(format!(
                "after a PutOp with value None, GetOp returned {} and SearchOp {}: \"Setting this \
                 to `None` signals that the item should be deleted\"",
                json(got),
                json(found)
            ));
        }
        Ok(())
    })
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

/// `BaseStore.list_namespaces`: "prefix: Filter namespaces that start
/// with this path. suffix: Filter namespaces that end with this path.
/// max_depth: Return namespaces up to this depth in the hierarchy.
/// Namespaces deeper than this level will be truncated", with the
/// docstring's example: of `("a", "b", "c")`, `("a", "b", "d", "e")`,
/// `("a", "b", "d", "i")`, `("a", "b", "f")` and `("a", "c", "f")`,
/// `list_namespaces(prefix=("a", "b"), max_depth=3)` is `[("a", "b",
/// "c"), ("a", "b", "d"), ("a", "b", "f")]`.
pub(crate) async fn list_namespaces(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langgraph.list_namespaces", |o| {
        all_ok(o, "puts", "PutOp")?;
        let cases = [
            (
                "prefix_depth",
                "list_namespaces(prefix=(\"a\", \"b\"), max_depth=3)",
                serde_json::json!([["a", "b", "c"], ["a", "b", "d"], ["a", "b", "f"]]),
            ),
            (
                "suffix",
                "list_namespaces(suffix=(\"f\",))",
                serde_json::json!([["a", "b", "f"], ["a", "c", "f"]]),
            ),
            (
                "depth",
                "list_namespaces(max_depth=2)",
                serde_json::json!([["a", "b"], ["a", "c"]]),
            ),
        ];
        for (name, call, want) in cases {
            let got = namespaces(ok(o, name, call)?, call)?;
            let want = namespaces(&want, call)?;
            if got != want {
                return Err(format!(
                    "{call} over the namespaces of its docstring's example returned {}, where \
                     the docs give {}",
                    json(&Value::Array(got)),
                    json(&Value::Array(want))
                ));
            }
        }
        Ok(())
    })
    .await
}

/// `SearchOp`: "namespace_prefix: Hierarchical path prefix to search
/// within. limit: Maximum number of items to return. offset: Number of
/// items to skip before returning results." Pages of 2 at offsets 0, 2
/// and 4 hold each item under the prefix once, and nothing outside it.
pub(crate) async fn search_paging(ctx: CheckContext) -> Step {
    run(&ctx, "interface.langgraph.search_paging", |o| {
        all_ok(o, "puts", "PutOp")?;
        let inside = field(o, "inside")?.as_array().cloned().unwrap_or_default();
        let address = |item: &Value| serde_json::json!([item["namespace"], item["key"]]);
        let whole = ok(o, "whole", "SearchOp((\"docs\",), limit=10)")?;
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
                "SearchOp with namespace prefix (\"docs\",) returned the items {}, where the \
                 store holds {} under it (and [[\"other\"], \"k9\"] outside)",
                json(&Value::Array(found)),
                json(&Value::Array(want))
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
                    "SearchOp((\"docs\",), limit=2, offset={}) returned {} items where {most} \
                     of the 5 remain: {}",
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

    /// The reference driver, answering every interface scenario with one
    /// observation (as an adapter answers it) on both paths.
    struct Observing {
        inner: ReferenceDriver,
        observed: Value,
    }

    tinymemory_api::delegate_provider! {
        impl MemoryProvider for Observing {
            forward(inner): driver_id, store, get, forget, list, namespaces, recall, store_many,
                export_page, import;

            async fn interface(&self, scenario: &Scenario<'_>) -> Result<String, MemoryError> {
                assert_eq!(scenario.interface, INTERFACE);
                Ok(self.observed.to_string())
            }
        }
    }

    fn outcome(id: &str, observed: Value) -> Outcome {
        let check = Registry::standard()
            .checks()
            .iter()
            .find(|c| c.id == id)
            .copied()
            .unwrap();
        let open = move || {
            Ok(Box::new(Observing {
                inner: ReferenceDriver::new(),
                observed: observed.clone(),
            }) as Box<dyn MemoryProvider>)
        };
        let ctx = CheckContext {
            factory: Arc::new(FnFactory::new("observing", open)),
            corpus: None,
            config: RunConfig::default(),
            profile: RecallProfile::Semantic,
        };
        tokio::runtime::Runtime::new()
            .unwrap()
            .block_on((check.run)(ctx))
    }

    /// An observation of item_timestamps: the item read after the first
    /// put, then after the second.
    fn timestamps(first: (f64, f64), second: (f64, f64)) -> Value {
        let item = |v: u32, (created, updated): (f64, f64)| {
            json!({"ok": {"namespace": ["docs"], "key": "k", "value": {"v": v},
                "created_at": created, "updated_at": updated}})
        };
        json!({"first_put": {"ok": null}, "first": item(1, first),
            "second_put": {"ok": null}, "second": item(2, second)})
    }

    #[test]
    fn an_update_keeping_created_at_passes_at_any_clock_resolution() {
        // PostgresStore's microseconds, and SQLite's whole seconds.
        for observed in [
            timestamps((10.25, 10.25), (10.25, 11.375)),
            timestamps((10.0, 10.0), (10.0, 11.0)),
        ] {
            assert_eq!(
                outcome("interface.langgraph.item_timestamps", observed),
                Outcome::Pass
            );
        }
    }

    #[test]
    fn an_update_rewriting_created_at_fails_quoting_the_item_docs() {
        let observed = timestamps((10.25, 10.25), (11.5, 11.5));
        let Outcome::Fail(f) = outcome("interface.langgraph.item_timestamps", observed) else {
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
}
