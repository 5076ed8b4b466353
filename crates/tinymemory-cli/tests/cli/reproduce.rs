//! A printed reproduce command carries every option that changes an
//! outcome: a failure from a call slower than `--call-timeout 1` once
//! printed a command without it, which, as printed, waited the default
//! 30 s for the call instead.

use std::process::Command;

use serde_json::Value;

use crate::support::bin::{repo, run, scratch};

/// The message of the only check of the JSON report `text`.
fn message(text: &[u8]) -> String {
    failure(text).0
}

/// The message of the only check of the JSON report `text` and the
/// command of its rerun note, when it has one.
fn failure(text: &[u8]) -> (String, Option<String>) {
    let report: Value = serde_json::from_slice(text).expect("a JSON report");
    let check = &report["checks"][0];
    assert_eq!(check["outcome"], "fail", "{report}");
    let reproduce = check["notes"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|n| n["kind"] == "rerun")
        .and_then(|n| {
            let command = n["reproduce"].as_str()?;
            let text = n["text"].as_str().unwrap();
            assert!(text.ends_with(&format!("; reproduce: {command}")), "{n}");
            Some(command.to_owned())
        });
    (check["message"].as_str().unwrap().to_owned(), reproduce)
}

/// The command the failure of `recall.limit` on a driver that never
/// answers `recall("needle")` prints, run with `limits`, and the message.
fn printed(limits: &[&str]) -> (String, String) {
    let driver = format!(
        "exec:python3 {} hang needle",
        repo("crates/tinymemory-exec/tests/drivers/misbehave.py").display()
    );
    let mut args = vec!["run", "--driver", &driver, "--no-corpus"];
    args.extend_from_slice(limits);
    args.extend(["--check", "recall.limit", "--format", "json"]);
    // Every driver process must answer hello within the call timeout
    // too; on a loaded machine a Python start-up may not within 1 s (the
    // run cannot open the driver, exit 3, or its rerun says it could not
    // start): tried again.
    let mut said = String::new();
    let mut command = None;
    for _ in 0..5 {
        let ran = run(&args);
        if ran.code == 3 {
            continue;
        }
        assert_eq!(ran.code, 1, "{}", ran.dump());
        (said, command) = failure(ran.stdout.as_bytes());
        if command.is_some() {
            break;
        }
    }
    let command = command.unwrap_or_else(|| panic!("no rerun command: {said}"));
    assert!(
        command.ends_with(&format!(
            " run --driver '{driver}' --no-corpus --jobs 1 --seed 8388357248759721216 --cases 64 \
             {} --check recall.limit",
            limits.join(" ")
        )),
        "{command}"
    );
    (command, said)
}

#[test]
fn the_rerun_command_carries_the_time_limits() {
    printed(&["--timeout", "7", "--call-timeout", "1"]);
}

#[test]
fn the_rerun_command_fails_as_printed() {
    // A call timeout a driver's start-up meets on a loaded machine too
    // (hello is held to it as well).
    let (command, said) = printed(&["--timeout", "7", "--call-timeout", "3"]);
    let dir = scratch();
    let again = Command::new("sh")
        .args(["-c", &format!("{command} --no-rerun --format json")])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1), "{again:?}");
    // The check's own message: the verdict of the rerun alone is a note.
    let first = said.as_str();
    assert_eq!(message(&again.stdout), first);
    assert!(
        first.contains("no answer within 3s (the request timeout, --call-timeout SECS)"),
        "{first}"
    );
}
