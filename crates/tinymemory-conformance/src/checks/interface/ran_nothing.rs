//! No interface check passes a driver that ran nothing.
//!
//! The double answers every scenario with the observation of a store that
//! stores nothing: the inputs echoed, each write answered `{"ok": null}`,
//! each read finding nothing (`{"ok": null}` or `{"ok": []}`) and each
//! call returning ids answering with the ids sent (or nothing). Such an
//! answer is made from the request alone, so a check it passes shows
//! nothing of the store: each scenario holds a positive control, a call
//! whose answer only a store that ran the scenario can give (the document
//! just added, found; the item just put, read back).

use serde_json::{json, Value};

use super::observing;
use crate::{Outcome, Registry};

/// What an observed call is, for the answers a store that ran nothing
/// gives it.
#[derive(Clone, Copy)]
enum Call {
    /// A write: `{"ok": null}`.
    Write,
    /// A read: `{"ok": null}` or `{"ok": []}`.
    Read,
    /// A call returning ids: nothing, or the ids the inputs hold under
    /// this name (`given_ids`), echoed.
    Ids(&'static str),
    /// A list of `n` writes (LangGraph's puts).
    Writes(usize),
    /// A list of `n` reads (LangGraph's pages).
    Reads(usize),
}

/// A check: its interface, its id, and the calls its observation holds,
/// by name.
type Row = (&'static str, &'static str, &'static [(&'static str, Call)]);

/// Every interface check and the calls its observation holds, by name.
const CHECKS: [Row; 14] = {
    use Call::{Ids, Read, Reads, Write, Writes};
    const LC: &str = tinymemory_api::interface::LANGCHAIN_VECTORSTORE;
    const LG: &str = tinymemory_api::interface::LANGGRAPH_BASESTORE;
    [
        (
            LC,
            "interface.langchain.empty_store",
            &[
                ("search", Read),
                ("ids", Ids("given_ids")),
                ("after_add", Read),
            ],
        ),
        (
            LC,
            "interface.langchain.add_documents",
            &[("ids", Ids("given_ids")), ("search", Read)],
        ),
        (
            LC,
            "interface.langchain.delete",
            &[
                ("ids", Ids("given_ids")),
                ("delete_one", Write),
                ("after_one", Read),
                ("delete_bulk", Write),
                ("after_bulk", Read),
            ],
        ),
        (
            LC,
            "interface.langchain.delete_missing",
            &[
                ("delete_one", Write),
                ("delete_many", Write),
                ("ids", Ids("given_ids")),
                ("before", Read),
                ("delete_mixed", Write),
                ("after", Read),
            ],
        ),
        (
            LC,
            "interface.langchain.upsert",
            &[
                ("first", Ids("given_ids")),
                ("second", Ids("given_ids")),
                ("after_twice", Read),
                ("third", Write),
                ("after_replace", Read),
            ],
        ),
        (
            LC,
            "interface.langchain.get_by_ids",
            &[
                ("ids", Ids("given_ids")),
                ("get", Read),
                ("missing", Read),
                ("mixed", Read),
            ],
        ),
        (
            LC,
            "interface.langchain.generated_ids",
            &[("ids", Ids("given_ids")), ("get", Read)],
        ),
        (
            LC,
            "interface.langchain.document_ids",
            &[("ids", Ids("given_ids")), ("get", Read)],
        ),
        (
            LC,
            "interface.langchain.string_ids",
            &[
                ("ids", Ids("given_ids")),
                ("get", Read),
                ("search", Read),
                ("delete", Write),
                ("after_delete", Read),
            ],
        ),
        (
            LC,
            "interface.langchain.search_with_score",
            &[
                ("ids", Ids("given_ids")),
                ("search", Read),
                ("scored", Read),
            ],
        ),
        (
            LG,
            "interface.langgraph.item_timestamps",
            &[
                ("first_put", Write),
                ("first", Read),
                ("second_put", Write),
                ("second", Read),
            ],
        ),
        (
            LG,
            "interface.langgraph.put_none_deletes",
            &[
                ("put", Write),
                ("before", Read),
                ("delete", Write),
                ("get", Read),
                ("search", Read),
            ],
        ),
        (
            LG,
            "interface.langgraph.list_namespaces",
            &[
                ("puts", Writes(5)),
                ("prefix_depth", Read),
                ("suffix", Read),
                ("depth", Read),
            ],
        ),
        (
            LG,
            "interface.langgraph.search_paging",
            &[("puts", Writes(6)), ("pages", Reads(3)), ("whole", Read)],
        ),
    ]
};

/// The answers a store that ran nothing may give `call`, given `inputs`.
fn answers(call: Call, inputs: &Value) -> Vec<Value> {
    let nothing = [json!({"ok": null}), json!({"ok": []})];
    match call {
        Call::Write => vec![json!({"ok": null})],
        Call::Read => nothing.to_vec(),
        Call::Ids(echoed) => {
            let mut all = nothing.to_vec();
            if let Some(ids) = inputs.get(echoed) {
                all.push(json!({ "ok": ids }));
            }
            all
        }
        Call::Writes(n) => vec![Value::Array(vec![json!({"ok": null}); n])],
        Call::Reads(n) => nothing
            .iter()
            .map(|a| Value::Array(vec![a.clone(); n]))
            .collect(),
    }
}

/// Every observation of `calls` a store that ran nothing gives for
/// `inputs`: the inputs echoed, and each combination of the calls'
/// answers.
fn observations(calls: &[(&str, Call)], inputs: &Value) -> Vec<Value> {
    let mut all = vec![inputs.clone()];
    for (name, call) in calls {
        all = all
            .into_iter()
            .flat_map(|o| {
                answers(*call, inputs).into_iter().map(move |a| {
                    let mut o = o.clone();
                    o[*name] = a;
                    o
                })
            })
            .collect();
    }
    all
}

#[test]
fn the_table_names_every_interface_check() {
    let registered: Vec<&str> = Registry::standard()
        .checks()
        .iter()
        .filter(|c| c.family.needs_interface())
        .map(|c| c.id)
        .collect();
    let table: Vec<&str> = CHECKS.iter().map(|(_, id, _)| *id).collect();
    assert_eq!(table, registered);
}

/// Each check, over every observation a store that ran nothing could
/// give for the inputs the suite sends: none passes.
#[test]
fn no_interface_check_passes_a_store_that_ran_nothing() {
    let mut passed = Vec::new();
    for (interface, id, calls) in CHECKS {
        // The inputs the suite sends for this check (the same on both
        // paths and in every run of a seed).
        let (_, sent) = observing::outcome(interface, id, |_, _| json!({}));
        let inputs = sent[0].clone();
        for (i, observation) in observations(calls, &inputs).into_iter().enumerate() {
            let answer = observation.clone();
            let (outcome, _) = observing::outcome(interface, id, move |_, _| answer.clone());
            assert!(
                matches!(outcome, Outcome::Fail(_) | Outcome::Pass),
                "{id}: {outcome:?}"
            );
            if outcome == Outcome::Pass {
                passed.push(format!("{id} (observation {i}: {observation})"));
            }
        }
    }
    assert!(
        passed.is_empty(),
        "passed by a store that ran nothing:\n{}",
        passed.join("\n")
    );
}
