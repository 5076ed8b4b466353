//! No driver process outlives its use: each runs in a process group of its
//! own, killed whole when the process is stopped, so a `sh -c` wrapper's
//! child or a forked helper goes with it; a process that exits is noticed
//! at once, however long its children hold stdout; and a check that gives
//! up on a hung request takes the process with it, so the next check gets
//! a fresh one. Each test finds its own processes by a marker word in
//! their command line, never by looking at the machine's other processes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tinymemory_api::{MemoryError, MemoryProvider, RecallOptions};
use tinymemory_conformance::{Family, Registry, Runner};
use tinymemory_exec::{ExecCommand, ExecConfig, ExecDriver, ExecFactory};

use crate::support::{config, failures, left_after, marker, misbehave_marked, processes_with};

/// Time for a stopped process group to be reaped and leave /proc.
const REAPED: Duration = Duration::from_secs(1);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hang_past_the_check_timeout_fails_that_check_only_and_leaves_no_process() {
    // recall.limit is the one check querying `needle`; the runner's
    // per-call limit (2 s, and its 1 s grace) runs out long before the
    // process's request timeout (60 s) and the check's budget (4 s plus
    // 1 s per request).
    let m = marker("hang-check");
    let command = misbehave_marked("hang", "needle", &m);
    let config_exec = ExecConfig::default().with_request_timeout(Duration::from_secs(60));
    let factory = ExecFactory::connect(command, config_exec)
        .await
        .expect("the driver starts");
    let factory = Arc::new(factory);
    let started = Instant::now();
    let summary = Runner::new(Registry::standard().family(Family::Contract))
        .with_config(config())
        .with_timeout(Duration::from_secs(4))
        .with_call_timeout(Duration::from_secs(2))
        .run(Arc::clone(&factory) as _, None, |_| {})
        .await;
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
        .unwrap();
    assert!(
        message
            .outcome
            .message()
            .unwrap()
            .starts_with("the driver hung: `recall` got no answer in 3."),
        "{}",
        failures(&summary)
    );
    assert!(
        started.elapsed() < Duration::from_secs(50),
        "the run waited for the request timeout: {:?}",
        started.elapsed()
    );
    drop(summary);
    drop(factory);
    // Dropped, the idle processes get 2 s to exit after their stdin closes.
    let left = left_after(&m, Duration::from_secs(2) + REAPED);
    assert!(left.is_empty(), "driver processes left running: {left:?}");
}

#[tokio::test]
async fn an_exit_is_noticed_at_once_though_a_child_holds_stdout_and_the_child_is_stopped() {
    let m = marker("fork-exit");
    let d = ExecDriver::spawn(
        &misbehave_marked("fork-exit", "zebra", &m),
        ExecConfig::default(),
    )
    .await
    .expect("the driver starts");
    assert_eq!(
        processes_with(&m).len(),
        2,
        "the driver and its forked child"
    );
    let t0 = Instant::now();
    let e = d
        .recall("zebra", 10, &RecallOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
    assert!(e.to_string().contains("exit status: 7"), "{e}");
    assert!(
        t0.elapsed() < Duration::from_secs(3),
        "the exit took {:?} to notice (the request timeout is 10 s)",
        t0.elapsed()
    );
    let left = left_after(&m, REAPED);
    assert!(
        left.is_empty(),
        "the forked child is still running: {left:?}"
    );
}

#[tokio::test]
async fn a_driver_behind_sh_c_is_stopped_with_everything_it_started() {
    let m = marker("sh-c");
    let script = misbehave_marked("hang", "needle", &m);
    // `; exit $?` keeps the shell as the parent instead of exec'ing python.
    let line = format!("{} ; exit $?", shlex_join(&script));
    let command = ExecCommand::new("sh", ["-c".to_owned(), line, m.clone()]);
    let d = ExecDriver::spawn(
        &command,
        ExecConfig::default().with_request_timeout(Duration::from_secs(1)),
    )
    .await
    .expect("the driver starts");
    assert_eq!(processes_with(&m).len(), 2, "sh and python");
    let e = d
        .recall("needle", 10, &RecallOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(e, MemoryError::Unavailable { .. }), "{e}");
    let left = left_after(&m, REAPED);
    assert!(left.is_empty(), "processes left running: {left:?}");
}

#[tokio::test]
async fn a_dropped_driver_ignoring_end_of_stdin_is_stopped() {
    let m = marker("ignore-eof");
    let d = ExecDriver::spawn(
        &misbehave_marked("ignore-eof", "-", &m),
        ExecConfig::default(),
    )
    .await
    .expect("the driver starts");
    d.namespaces().await.expect("it answers");
    drop(d);
    let left = left_after(&m, Duration::from_secs(2) + REAPED);
    assert!(left.is_empty(), "the driver outlived its store: {left:?}");
}

fn shlex_join(command: &ExecCommand) -> String {
    std::iter::once(command.program())
        .chain(command.args().iter().map(String::as_str))
        .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
        .collect::<Vec<_>>()
        .join(" ")
}
