//! The interface family: a framework interface's own contract, checked
//! through the adapter that serves a store of it.
//!
//! Each check asks a fresh store for its scenario twice
//! ([`MemoryProvider::interface`](tinymemory_api::MemoryProvider::interface)),
//! through the interface's sync methods and then its async twins, and
//! judges what the adapter observed (the JSON of docs/protocol.md, "The
//! interface op") against the rule the framework states, quoted in the
//! check's module. A driver that declares no interface, or another one,
//! answers [`MemoryError::Unsupported`](tinymemory_api::MemoryError) and the
//! check is skipped naming why.

mod draw;
mod langchain;
mod langgraph;
#[cfg(test)]
mod observing;
#[cfg(test)]
mod ran_nothing;

pub(crate) use langchain::{
    add_documents, delete, delete_missing, document_ids, empty_store, generated_ids, get_by_ids,
    search_with_score, string_ids, upsert,
};
pub(crate) use langgraph::{item_timestamps, list_namespaces, put_none_deletes, search_paging};

use serde_json::Value;
use tinymemory_api::interface::Scenario;

use super::support;
use crate::failure::{Step, Stop};
use crate::CheckContext;

/// The message of [`Outcome::NotServed`](crate::Outcome::NotServed): the
/// driver's hello declares no interface, or another one (the driver's own
/// words stay out, so a skip reads alike for every driver and profile).
/// Words only: whether a skip is this one is the outcome's variant.
pub(crate) const NOT_SERVED: &str =
    "the driver serves no framework interface, or not this check's (its hello declares none or another)";

/// What a judge says of one observation: `Err` names the rule broken and
/// what the store did.
type Verdict = Result<(), String>;

/// A check's judge: the inputs the suite sent, then the observation.
type Judge = fn(&Value, &Value) -> Verdict;

/// The framework interface a module's checks are of, and its two paths
/// as a message names them (sync, then async).
struct Served {
    /// As a driver declares it (`langchain.vectorstore`).
    interface: &'static str,
    /// The sync path and the async one.
    paths: [&'static str; 2],
}

/// Runs `check`'s scenario of `interface` on two fresh stores, sync then
/// async, with the inputs `inputs` draws from the run's seed (the same
/// on both paths), and fails with every path whose observation `judge`
/// refuses given those inputs. An observation echoing an input (a field
/// named as one of the inputs') must echo what was sent: another value
/// means the adapter ran other inputs. A
/// path the store does not implement (`{"not_implemented": ..}`: a
/// LangGraph `SqliteStore` has no `abatch`) is not judged; with neither
/// path implemented the check is skipped, and the skip holds back the
/// interface family's level (only a skip for an interface the driver does
/// not serve, [`Stop::NotServed`], leaves the family out).
async fn judged(
    ctx: &CheckContext,
    served: &Served,
    check: &str,
    inputs: fn(&mut draw::Draw) -> Value,
    judge: Judge,
) -> Step {
    let (interface, paths) = (served.interface, served.paths);
    let inputs = inputs(&mut draw::Draw::new(ctx.config.seed, check));
    let mut failures = Vec::new();
    let mut unimplemented = Vec::new();
    for (use_async, path) in [(false, paths[0]), (true, paths[1])] {
        let d = support::fresh(ctx).await?;
        let scenario = Scenario {
            interface,
            check,
            use_async,
            inputs: &inputs,
        };
        let text = match d.interface(&scenario).await {
            Ok(text) => text,
            Err(e) if e.is_unsupported() => return Err(Stop::NotServed),
            Err(e) => {
                return Err(Stop::caused_by(
                    format!("the scenario of {check} through {path} failed: {e}"),
                    &e,
                ))
            }
        };
        let observed: Value = serde_json::from_str(&text).map_err(|e| {
            Stop::fail(format!(
                "the {path} scenario of {check} answered text that is not JSON ({e}): {}",
                tinymemory_api::shown::capped(&text)
            ))
        })?;
        if let Some(why) = observed.get("not_implemented") {
            unimplemented.push(format!("{path}: {}", json(why)));
            continue;
        }
        if let Err(why) = echoed(&inputs, &observed).and_then(|()| judge(&inputs, &observed)) {
            failures.push(format!("through {path}: {why}"));
        }
    }
    // A store may lack what a scenario needs (an optional method of the
    // framework): not a fault, but nothing is shown, so the skip keeps the
    // interface family from passing (Conformance::of), which a level of
    // FULL would otherwise claim with the interface never checked.
    if unimplemented.len() == 2 {
        return Err(Stop::Skip(format!(
            "the store implements neither path of its scenario: {}",
            unimplemented.join("; ")
        )));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Stop::fail(failures.join("; ")))
    }
}

/// Every input the observation echoes is the one sent: an adapter that
/// reports other inputs ran the scenario on them, and its results say
/// nothing of the inputs the suite judges by.
fn echoed(inputs: &Value, observed: &Value) -> Verdict {
    for (name, sent) in inputs.as_object().into_iter().flatten() {
        match observed.get(name) {
            Some(echo) if echo != sent => {
                return Err(format!(
                    "the adapter ran other inputs than the suite sent: its `{name}` is {} where \
                     the request's inputs give {} (docs/protocol.md, \"The interface op\")",
                    json(echo),
                    json(sent)
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The value of call `name` of an observation (`{"ok": value}`), or the
/// rule's failure naming what the call raised.
fn ok<'a>(observed: &'a Value, name: &str, call: &str) -> Result<&'a Value, String> {
    match observed.get(name) {
        Some(Value::Object(step)) if step.contains_key("ok") => Ok(&step["ok"]),
        Some(Value::Object(step)) => Err(format!(
            "{call} raised {}",
            step.get("error")
                .and_then(Value::as_str)
                .map_or_else(|| Value::Object(step.clone()).to_string(), shown)
        )),
        _ => Err(format!(
            "the observation has no `{name}` (the adapter's scenario is not this suite's: \
             docs/protocol.md, \"The interface op\")"
        )),
    }
}

/// A value the observation must hold (a list of calls' results).
fn field<'a>(observed: &'a Value, name: &str) -> Result<&'a Value, String> {
    observed.get(name).ok_or_else(|| {
        format!(
            "the observation has no `{name}` (the adapter's scenario is not this suite's: \
             docs/protocol.md, \"The interface op\")"
        )
    })
}

/// Text from the store, as a message shows it.
fn shown(text: &str) -> String {
    tinymemory_api::shown::capped(text).to_string()
}

/// A JSON value, as a message shows it.
fn json(value: &Value) -> String {
    shown(&value.to_string())
}
