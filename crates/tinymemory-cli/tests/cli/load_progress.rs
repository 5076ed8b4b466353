//! Progress while the corpus loads, on a terminal (emulated with
//! util-linux `script`; the test is skipped where it is missing).

use std::process::Command;

/// Runs the binary with `args` under a pseudo-terminal; `None` without
/// `script`.
fn on_a_terminal(args: &str) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_tinymemory-conformance");
    let out = Command::new("script")
        .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
        .env_remove("NO_COLOR")
        .env("TERM", "xterm")
        .output()
        .ok()?;
    assert!(out.status.success(), "{out:?}");
    Some(String::from_utf8(out.stdout).expect("utf-8"))
}

/// The entry counts of every `loading the corpus: N of 22688 entries, R
/// entries/s` status, in order.
fn load_statuses(out: &str) -> Vec<u64> {
    out.split("\x1b[2K")
        .filter_map(|s| s.strip_prefix("loading the corpus: "))
        .map(|s| {
            let s = s.trim_end_matches(['\r', '\n']);
            let (done, rest) = s.split_once(" of 22688 entries, ").expect(s);
            let rate = rest.strip_suffix(" entries/s").expect(s);
            rate.parse::<u64>().expect(s);
            done.parse().expect(s)
        })
        .collect()
}

#[test]
fn the_load_shows_entries_of_total_and_rate_in_place() {
    let Some(out) = on_a_terminal("run --driver sqlite --check corpus.namespace_counts") else {
        eprintln!("skipped: no `script` to emulate a terminal");
        return;
    };
    let done = load_statuses(&out);
    assert!(!done.is_empty(), "a sqlite load takes over 100ms: {out:?}");
    assert!(done.windows(2).all(|w| w[0] < w[1]), "{done:?}");
    assert!(done.iter().all(|&d| d > 0 && d <= 22_688), "{done:?}");
    // The status is redrawn in place and erased by the `loaded` line.
    assert!(out.contains("entries/s\r\x1b[2Kloaded "), "{out:?}");
}

#[test]
fn quiet_shows_no_load_progress() {
    let Some(out) = on_a_terminal("run --driver sqlite --check corpus.namespace_counts --quiet")
    else {
        eprintln!("skipped: no `script` to emulate a terminal");
        return;
    };
    assert_eq!(load_statuses(&out), Vec::<u64>::new());
    assert!(out.contains("1 passed, 0 failed"), "{out:?}");
}
