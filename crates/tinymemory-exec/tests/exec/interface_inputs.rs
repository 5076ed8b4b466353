//! The interface family over the protocol, judged against the inputs the
//! suite sends: a driver that declares `langchain.vectorstore` or
//! `langgraph.basestore` and answers every scenario with a canned
//! observation (its own inputs echoed consistently, results faithful to
//! them) passed every check while the adapter chose the inputs; now it
//! fails them. A driver running the scenario on other inputs than sent
//! fails naming that, and two seeds send different inputs.

use std::sync::{Arc, Mutex};

use tinymemory_conformance::{Family, Registry, RunConfig, Runner};
use tinymemory_exec::trace::Trace;
use tinymemory_exec::{ExecCommand, ExecConfig, ExecFactory};

use crate::support::{failures, inline};

/// A driver over the in-memory example declaring `interface`, whose
/// `interface(check, use_async, inputs)` is `body` (Python, indented for a
/// method).
fn declaring(interface: &str, body: &str) -> ExecCommand {
    inline(
        &format!(
            "class Fake(MemoryStore):\n    interface_name = {interface:?}\n\
             \x20   def interface(self, check, use_async, inputs):\n{body}\n\
             tp.serve(Fake(), 'fake')\n"
        ),
        &[],
    )
}

/// The canned observations the Python adapter's scenarios made of their
/// own inputs ("foo", "bar", fixed UUIDs, the docstring's namespaces),
/// results faithful to those: what a hand-written driver could answer.
const CANNED: &str = r#"        import json
        g = ["7c9e6679-7425-40de-944b-e07fc1f90a01", "7c9e6679-7425-40de-944b-e07fc1f90a02"]
        m = ["7c9e6679-7425-40de-944b-e07fc1f90b01"]
        foo, bar = {"id": None, "page_content": "foo", "metadata": {"id": 1}}, {"id": None, "page_content": "bar", "metadata": {"id": 2}}
        fa, bb = dict(foo, id=g[0]), dict(bar, id=g[1])
        ns = [["a", "b", "c"], ["a", "b", "d", "e"], ["a", "b", "d", "i"], ["a", "b", "f"], ["a", "c", "f"]]
        return {
            "interface.langchain.empty_store": {"queries": {"search": "foo", "after_add": "foo"}, "search": {"ok": []}},
            "interface.langchain.delete_missing": {"missing_ids": m, "delete_one": {"ok": None}, "delete_many": {"ok": None}},
            "interface.langchain.generated_ids": {"given": [foo, bar], "ids": {"ok": g}, "get": {"ok": [fa, bb]}},
            "interface.langchain.add_documents": {"given": [foo, bar], "ids": {"ok": g}, "input_after": [foo, bar], "search": {"ok": [bb, fa]}},
            "interface.langgraph.list_namespaces": {"namespaces": ns, "puts": [{"ok": None}] * 5,
                "prefix_depth": {"ok": [["a", "b", "c"], ["a", "b", "d"], ["a", "b", "f"]]},
                "suffix": {"ok": [["a", "b", "f"], ["a", "c", "f"]]}, "depth": {"ok": [["a", "b"], ["a", "c"]]}},
        }[check]"#;

/// The checks the canned driver answers (a store that ran nothing is
/// the checks' own unit test: `ran_nothing`).
const CANNED_CHECKS: [&str; 5] = [
    "interface.langchain.empty_store",
    "interface.langchain.delete_missing",
    "interface.langchain.generated_ids",
    "interface.langchain.add_documents",
    "interface.langgraph.list_namespaces",
];

/// `checks` of the interface family run over `command` with `seed`, and
/// the requests the trace recorded.
async fn run(
    command: &ExecCommand,
    checks: &[&str],
    seed: u64,
) -> (tinymemory_conformance::RunSummary, Vec<serde_json::Value>) {
    let lines = Arc::new(Mutex::new(Vec::<u8>::new()));
    let trace = Trace::new(Box::new(SharedWriter(Arc::clone(&lines))));
    let exec = ExecConfig::default().with_trace(trace);
    let factory = ExecFactory::connect(command.clone(), exec)
        .await
        .expect("the driver starts");
    let registry = Registry::standard()
        .family(Family::Interface)
        .filter(|c| checks.contains(&c.id));
    let config = RunConfig {
        seed,
        ..RunConfig::default()
    };
    let summary = Runner::new(registry)
        .with_config(config)
        .run(Arc::new(factory), None, |_| {})
        .await;
    let text = String::from_utf8(lines.lock().unwrap().clone()).unwrap();
    let requests = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|l| l["request"].clone())
        .filter(|r| r["op"] == "interface")
        .collect();
    (summary, requests)
}

/// A trace's writer the test reads back.
struct SharedWriter(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for SharedWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_canned_observation_of_the_drivers_own_inputs_fails_every_check() {
    for interface in ["langchain.vectorstore", "langgraph.basestore"] {
        let checks: Vec<&str> = CANNED_CHECKS
            .into_iter()
            .filter(|c| c.starts_with(&format!("interface.{}", &interface[..9])))
            .collect();
        let (summary, _) = run(&declaring(interface, CANNED), &checks, 1).await;
        assert_eq!(summary.reports.len(), checks.len());
        for report in &summary.reports {
            let message = report.outcome.message().unwrap_or_default();
            assert!(
                report.outcome.is_fail(),
                "{} passed a canned answer: {}",
                report.id,
                failures(&summary)
            );
            assert!(
                message.contains("the adapter ran other inputs than the suite sent"),
                "{}: {message}",
                report.id
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scenario_run_on_other_ids_than_sent_fails_naming_it_and_seeds_send_others() {
    // Faithful to the store, but deletes ids of its own choosing.
    let own = "        own = ['00000000-0000-4000-8000-000000000001']\n\
               \x20       return {'missing_ids': own, 'delete_one': {'ok': None}, 'delete_many': {'ok': None}}";
    let check = "interface.langchain.delete_missing";
    let (summary, requests) = run(&declaring("langchain.vectorstore", own), &[check], 1).await;
    let message = summary.reports[0].outcome.message().unwrap_or_default();
    let sent = &requests[0]["inputs"]["missing_ids"];
    assert_eq!(
        message,
        format!(
            "through the sync methods (add_documents, similarity_search, get_by_ids, delete): the \
             adapter ran other inputs than the suite sent: its `missing_ids` is \
             [\"00000000-0000-4000-8000-000000000001\"] where the request's inputs give {sent} \
             (docs/protocol.md, \"The interface op\"); through the async methods (aadd_documents, \
             asimilarity_search, aget_by_ids, adelete): the adapter ran other inputs than the \
             suite sent: its `missing_ids` is [\"00000000-0000-4000-8000-000000000001\"] where \
             the request's inputs give {sent} (docs/protocol.md, \"The interface op\")"
        )
    );
    // Both paths are sent the same inputs; another seed sends others.
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0]["inputs"], requests[1]["inputs"]);
    assert_eq!(
        requests[0]["inputs"]["missing_ids"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let (_, again) = run(&declaring("langchain.vectorstore", own), &[check], 1).await;
    assert_eq!(again[0]["inputs"], requests[0]["inputs"]);
    let (_, other) = run(&declaring("langchain.vectorstore", own), &[check], 2).await;
    assert_ne!(other[0]["inputs"], requests[0]["inputs"]);
}
