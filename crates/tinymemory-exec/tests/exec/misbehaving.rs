//! Drivers that hang, exit, print garbage, answer malformed results or
//! another protocol version. The error kind is asserted on the variant; the
//! message is asserted on its telling parts, since a clear message is what
//! these failures exist to give.

use std::time::Duration;

use futures::future::join_all;
use tinymemory_api::{
    rules, MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, RecallOptions,
};
use tinymemory_conformance::DriverFactory;
use tinymemory_exec::{ExecCommand, ExecConfig, ExecDriver, ExecFactory};

use crate::support::{example, failures, misbehave, run_suite, short_timeout};

async fn put(d: &dyn MemoryProvider, ns: &str, key: &str, content: &str) {
    d.store(
        ns,
        key,
        content,
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
    .await
    .expect("store");
}

/// A driver misbehaving on recall of `word`, holding one entry with it.
async fn cued(mode: &str, word: &str) -> ExecDriver {
    let d = ExecDriver::spawn(&misbehave(mode, Some(word)), short_timeout())
        .await
        .expect("the driver starts");
    put(&d, "global", "k", &format!("{word} and more")).await;
    d
}

async fn recall(
    d: &ExecDriver,
    query: &str,
) -> Result<Vec<tinymemory_api::MemoryEntry>, MemoryError> {
    d.recall(query, 10, &RecallOptions::default()).await
}

fn assert_contains(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "{part:?} is not in:\n{message}");
    }
}

#[tokio::test]
async fn a_hung_request_is_unavailable_naming_the_timeout_and_stops_the_process() {
    let d = cued("hang", "needle").await;
    let e = recall(&d, "needle").await.unwrap_err();
    assert!(matches!(e, MemoryError::Unavailable { .. }), "{e}");
    assert_contains(
        &e.to_string(),
        &[
            "failed to get an answer to `recall` from `python3 ",
            "no answer within 2s (the request timeout, --call-timeout SECS), so the driver is \
             taken as hung",
        ],
    );
    assert!(!d.is_usable());
    let later = d.get("global", "k").await.unwrap_err();
    assert!(matches!(later, MemoryError::Unavailable { .. }), "{later}");
    assert_contains(
        &later.to_string(),
        &["failed to send `get`", "the process is no longer usable"],
    );
}

#[tokio::test]
async fn an_exit_is_backend_with_the_status_and_the_stderr_tail() {
    let d = cued("exit", "zebra").await;
    let e = recall(&d, "zebra").await.unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert_contains(
        &e.to_string(),
        &[
            "the process exited (exit status: 7)",
            "stderr (1 line):\n  | misbehave: segfault in the recall engine: simulated",
        ],
    );
    assert!(!d.is_usable());
}

#[tokio::test]
async fn a_line_that_is_not_json_is_backend_quoting_it() {
    let d = cued("garbage", "zebra").await;
    let e = recall(&d, "zebra").await.unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert_contains(
        &e.to_string(),
        &[
            "the line is not JSON (expected value at line 1 column 1): \"debug: recall called with zebra\"",
            "write only answers to stdout",
        ],
    );
    assert!(!d.is_usable());
}

#[tokio::test]
async fn an_answer_to_another_id_stops_the_process() {
    let d = cued("wrong-id", "zebra").await;
    // hello, reset and store were requests 1 to 3.
    let e = recall(&d, "zebra").await.unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert_contains(&e.to_string(), &["the answer's id is 104, expected 4"]);
    assert!(!d.is_usable());
}

#[tokio::test]
async fn a_nan_score_is_backend_with_a_hint() {
    let d = cued("nan", "zebra").await;
    let e = recall(&d, "zebra").await.unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert_contains(
        &e.to_string(),
        &["NaN and Infinity are not JSON", "allow_nan=False"],
    );
}

#[tokio::test]
async fn a_malformed_result_is_backend_and_keeps_the_process() {
    let d = cued("bad-entry", "zebra").await;
    let e = recall(&d, "zebra").await.unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert_contains(
        &e.to_string(),
        &[
            "failed to read the answer to `recall`",
            "missing field `timestamp`",
        ],
    );
    assert!(d.is_usable());
    assert_eq!(
        d.get("global", "k").await.unwrap().map(|e| e.key),
        Some("k".to_owned())
    );
}

#[tokio::test]
async fn an_exception_in_the_driver_is_its_backend_error() {
    let d = cued("traceback", "zebra").await;
    let e = recall(&d, "zebra").await.unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("backend failure: KeyError: 'query'"),
        "{e}"
    );
    assert!(d.is_usable());
}

#[tokio::test]
async fn a_drivers_traceback_is_quoted_whole_after_its_message() {
    let d = cued("long-traceback", "zebra").await;
    let e = recall(&d, "zebra").await.unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    let mut want =
        "backend failure: ValueError: page 7 is corrupt\n  stderr (46 lines):".to_owned();
    for frame in 0..45 {
        want.push_str(&format!("\n  | frame {frame:02} {}", "y".repeat(191)));
    }
    want.push_str(&format!(
        "\n  | ValueError: page 7 is corrupt: {}",
        "z".repeat(1200)
    ));
    assert_eq!(e.to_string(), want);
}

#[tokio::test]
async fn an_invalid_error_without_a_rule_is_backend() {
    let d = ExecDriver::spawn(&misbehave("no-rule", None), short_timeout())
        .await
        .unwrap();
    let e = d.get("has space", "k").await.unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert_contains(&e.to_string(), &["an error of kind invalid has no rule"]);
}

#[tokio::test]
async fn driver_rule_ids_come_back_as_the_contract_constants() {
    let d = ExecDriver::spawn(&example("memory_driver.py", &[]), ExecConfig::default())
        .await
        .unwrap();
    for (ns, rule) in [
        ("", rules::NAMESPACE_EMPTY),
        ("a b", rules::NAMESPACE_CHARSET),
        ("/a", rules::NAMESPACE_EDGE_SLASH),
        ("a/../b", rules::NAMESPACE_DOT_DOT),
        ("learning:", rules::SCOPE_EMPTY),
    ] {
        assert_eq!(
            d.forget(ns, "k").await.unwrap_err().rule(),
            Some(rule),
            "{ns:?}"
        );
    }
    let e = d
        .store(
            "global",
            "",
            "c",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap_err();
    assert_eq!(e.rule(), Some(rules::KEY_EMPTY));
    let nan = RecallOptions {
        min_score: Some(f64::NAN),
        ..RecallOptions::default()
    };
    let e = d.recall("x", 1, &nan).await.unwrap_err();
    assert_eq!(e.rule(), Some(rules::MIN_SCORE_NOT_FINITE));
}

#[tokio::test]
async fn another_protocol_version_fails_the_start() {
    let e = ExecFactory::connect(misbehave("version", None), short_timeout())
        .await
        .unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert_contains(
        &e.to_string(),
        &["it speaks protocol version 2, this suite speaks version 1"],
    );
}

#[tokio::test]
async fn a_crash_before_hello_fails_the_start_with_stderr() {
    let e = ExecFactory::connect(misbehave("crash", None), short_timeout())
        .await
        .unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert_contains(
        &e.to_string(),
        &[
            "failed to get an answer to `hello`",
            "exit status: 3",
            "| misbehave: cannot open the store: simulated",
        ],
    );
}

#[tokio::test]
async fn a_missing_program_fails_the_start() {
    let command = ExecCommand::new("tinymemory-no-such-program", ["x"]);
    let e = ExecFactory::connect(command, short_timeout())
        .await
        .unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert_contains(
        &e.to_string(),
        &["failed to start `tinymemory-no-such-program x`: "],
    );
}

#[test]
fn the_blocking_constructors_need_no_runtime() {
    let f = ExecFactory::connect_blocking(example("memory_driver.py", &[]), ExecConfig::default())
        .unwrap();
    assert_eq!(f.driver_id(), "python-memory");
    let d = ExecDriver::spawn_blocking(&example("sqlite_driver.py", &[]), ExecConfig::default())
        .unwrap();
    assert_eq!(d.driver_id(), "python-sqlite");
    let e = ExecFactory::connect_blocking(misbehave("version", None), short_timeout()).unwrap_err();
    assert_contains(&e.to_string(), &["it speaks protocol version 2"]);
}

#[tokio::test]
async fn stores_open_at_once_are_independent_and_processes_are_reused() {
    let f = ExecFactory::connect(example("memory_driver.py", &[]), ExecConfig::default())
        .await
        .unwrap();
    assert_eq!(f.processes_started(), 1);
    let first = f.open().await.unwrap();
    put(first.as_ref(), "global", "k", "in the first store").await;
    let second = f.open().await.unwrap();
    assert_eq!(f.processes_started(), 2);
    assert_eq!(second.list(None, None, None).await.unwrap(), Vec::new());
    assert_eq!(first.list(None, None, None).await.unwrap().len(), 1);
    drop(first);
    // The first store's process is reused, and reset.
    let third = f.open().await.unwrap();
    assert_eq!(f.processes_started(), 2);
    assert_eq!(third.list(None, None, None).await.unwrap(), Vec::new());
}

#[tokio::test]
async fn a_process_dying_on_reset_is_replaced() {
    let f = ExecFactory::connect(misbehave("exit-on-reset", None), short_timeout())
        .await
        .unwrap();
    let first = f.open().await.unwrap();
    put(first.as_ref(), "global", "k", "gone with the process").await;
    drop(first);
    // The process's second reset kills it; open starts a new one.
    let second = f.open().await.unwrap();
    assert_eq!(f.processes_started(), 2);
    put(second.as_ref(), "global", "k2", "in the new process").await;
    let keys: Vec<_> = second
        .list(None, None, None)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.key)
        .collect();
    assert_eq!(keys, ["k2"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_on_one_process_are_answered_one_by_one() {
    let d = ExecDriver::spawn(&example("memory_driver.py", &[]), ExecConfig::default())
        .await
        .unwrap();
    let keys: Vec<String> = (0..64).map(|i| format!("k{i:02}")).collect();
    let stores = keys.iter().map(|k| {
        d.store(
            "global",
            k,
            "concurrent write",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
    });
    for r in join_all(stores).await {
        r.unwrap();
    }
    let listed: Vec<_> = d
        .list(Some("global"), None, None)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.key)
        .collect();
    assert_eq!(listed, keys);
}

#[tokio::test]
async fn an_abandoned_request_does_not_shift_the_answers() {
    let d = cued("slow", "slowly").await;
    // The caller stops waiting; the request is still answered, and read.
    let abandoned = tokio::time::timeout(Duration::from_millis(20), recall(&d, "slowly")).await;
    assert!(abandoned.is_err(), "the slow recall answered within 20ms");
    let got = d.get("global", "k").await.unwrap().expect("the entry");
    assert_eq!((got.key.as_str(), got.score), ("k", None));
    assert_eq!(recall(&d, "more").await.unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hang_fails_one_check_and_the_run_goes_on() {
    // Only recall.limit queries exactly `needle`.
    let summary = run_suite(&misbehave("hang", Some("needle")), short_timeout(), false).await;
    assert_eq!(
        summary.failed_ids(),
        ["recall.limit"],
        "{}",
        failures(&summary)
    );
    let message = summary
        .reports
        .iter()
        .find(|r| r.id == "recall.limit")
        .unwrap()
        .outcome
        .message()
        .unwrap();
    assert_contains(
        message,
        &[
            "unavailable: failed to get an answer to `recall`",
            "(the request timeout, --call-timeout SECS)",
        ],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exit_fails_one_check_and_the_run_goes_on() {
    // Only recall.none_means_global queries exactly `zebra`.
    let summary = run_suite(&misbehave("exit", Some("zebra")), short_timeout(), false).await;
    assert_eq!(
        summary.failed_ids(),
        ["recall.none_means_global"],
        "{}",
        failures(&summary)
    );
    let message = summary
        .reports
        .iter()
        .find(|r| r.id == "recall.none_means_global")
        .unwrap()
        .outcome
        .message()
        .unwrap();
    assert_contains(
        message,
        &[
            "exit status: 7",
            "| misbehave: segfault in the recall engine: simulated",
        ],
    );
}

/// Contract sentence 12 over the protocol: the exec driver forwards a
/// driver's `null` for a `get` of the empty key as it came, so
/// `key.invalid_refused` fails the driver, naming what it answered.
#[tokio::test]
async fn a_driver_answering_an_invalid_key_as_absent_fails_key_invalid_refused() {
    let command = misbehave("key-unchecked", None);
    let d = ExecDriver::spawn(&command, short_timeout())
        .await
        .expect("the driver starts");
    assert_eq!(d.get("global", "").await, Ok(None));
    assert_eq!(d.forget("global", &"k".repeat(1025)).await, Ok(false));
    let factory = ExecFactory::connect(command, short_timeout())
        .await
        .expect("the driver starts");
    let registry =
        tinymemory_conformance::Registry::standard().filter(|c| c.id == "key.invalid_refused");
    let summary = tinymemory_conformance::Runner::new(registry)
        .run(std::sync::Arc::new(factory), None, |_| {})
        .await;
    assert_eq!(
        failures(&summary),
        "key.invalid_refused: get with the empty key returned Ok(None), expected \
         MemoryError::Invalid with rule key.empty: a key no store can hold is refused by every \
         method that takes a key, as an invalid namespace is, not answered as absent"
    );
}
