//! Failed checks that share one driver error: one cause (a query parser's
//! syntax error) often fails many checks, and the summary says so.

use tinymemory_conformance::report::Report;

/// `5 checks failed on the same error: backend failure: fts5: syntax error
/// near """ (recall.plain_text_query, properties.across_ordering, ..)`,
/// one line per driver error that at least two failed checks share, in
/// order of first appearance, the checks in run order: the report's
/// [`shared_errors`](Report::shared_errors), grouped by each failure's
/// driver error (kind, rule and message, the error as the driver returned
/// it), never by its message's text.
pub(crate) fn lines(report: &Report) -> Vec<String> {
    report.shared_errors.iter().map(|g| g.line()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::Arc;
    use std::time::SystemTime;

    use tinymemory_api::{MemoryError, MemoryProvider};
    use tinymemory_conformance::report::{CheckEntry, OutcomeKind, SharedError};
    use tinymemory_conformance::{DriverError, FnFactory, Registry, RunConfig, Runner};
    use tinymemory_doubles::{FaultHandle, FaultKind, Faults, Method};
    use tinymemory_reference::ReferenceDriver;

    /// The report of running `ids` against a reference driver whose every
    /// recall fails with `fault`.
    fn run_with_failing_recall(ids: &[&str], fault: FaultKind) -> Report {
        let registry = Registry::standard().filter(|c| ids.contains(&c.id));
        let factory = Arc::new(FnFactory::new("failing-recall", move || {
            let store = Faults::new(
                ReferenceDriver::new(),
                FaultHandle::new().with_method(Method::Recall, fault.clone()),
            );
            Ok(Box::new(store) as Box<dyn MemoryProvider>)
        }));
        let runner = Runner::new(registry).with_config(RunConfig {
            cases: 4,
            ..RunConfig::default()
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let summary = runtime.block_on(runner.run(factory, None, |_| {}));
        Report::from_summary(&summary, SystemTime::UNIX_EPOCH)
    }

    /// A driver's own text that looks like what the suite wraps around it
    /// (` [case `, ` in namespace "NS" failed: `) is part of its error:
    /// seen by a direct recall, through `across_section`'s fan-out and by
    /// the model, it is one error, named whole.
    #[test]
    fn a_driver_message_that_looks_like_a_wrapping_is_grouped_whole() {
        let text = "segment 3 in namespace \"x\" failed: corrupt [case 2]";
        let report = run_with_failing_recall(
            &[
                "recall.plain_text_query",
                "properties.cap_determinism",
                "model.differential",
            ],
            FaultKind::backend(text),
        );
        assert_eq!(report.failures().count(), 3, "{report:#?}");
        assert_eq!(
            lines(&report),
            [format!(
                "3 checks failed on the same error: backend failure: {text} \
                 (recall.plain_text_query, properties.cap_determinism, model.differential)"
            )]
        );
    }

    /// A report of failed checks `(id, message, driver error)`, in order.
    fn report_of(failures: &[(&str, &str, Option<MemoryError>)]) -> Report {
        let mut report = run_with_failing_recall(&[], FaultKind::backend("unused"));
        report.checks = failures
            .iter()
            .map(|(id, message, error)| CheckEntry {
                id: (*id).to_owned(),
                family: "contract".to_owned(),
                description: String::new(),
                outcome: OutcomeKind::Fail,
                duration_ms: 0.0,
                message: Some((*message).to_owned()),
                reason: None,
                counterexample: None,
                driver_error: error.as_ref().map(DriverError::from),
                notes: Vec::new(),
                score_noise: None,
                not_served: None,
            })
            .collect();
        report.shared_errors = SharedError::of(&report.checks);
        report
    }

    #[test]
    fn two_checks_sharing_an_error_make_one_line() {
        let fts = || Some(MemoryError::fault("fts5: syntax error near \"\"\""));
        let report = report_of(&[
            ("recall.plain_text_query", "query failed", fts()),
            (
                "recall.limit",
                "recall with limit 3: expected 3, got 4",
                None,
            ),
            ("properties.truncation", "across failed", fts()),
        ]);
        assert_eq!(
            lines(&report),
            ["2 checks failed on the same error: backend failure: fts5: syntax error near \"\"\" \
              (recall.plain_text_query, properties.truncation)"]
        );
    }

    #[test]
    fn errors_of_different_rules_or_kinds_are_different_groups() {
        let charset = || Some(MemoryError::invalid("namespace.charset", "bad byte"));
        let empty = || Some(MemoryError::invalid("namespace.empty", "bad byte"));
        let report = report_of(&[
            ("a.one", "x", charset()),
            ("a.two", "x", empty()),
            ("a.three", "x", charset()),
            ("a.four", "x", empty()),
            ("a.five", "x", Some(MemoryError::unavailable("bad byte"))),
            ("a.six", "x", Some(MemoryError::fault("bad byte"))),
        ]);
        assert_eq!(
            lines(&report),
            [
                "2 checks failed on the same error: invalid input (namespace.charset): bad byte \
                 (a.one, a.three)",
                "2 checks failed on the same error: invalid input (namespace.empty): bad byte \
                 (a.two, a.four)",
            ]
        );
    }

    #[test]
    fn one_check_or_no_driver_error_makes_no_line() {
        let report = report_of(&[
            ("a.one", "x", Some(MemoryError::fault("disk full"))),
            ("a.two", "backend failure: disk full", None),
            ("a.three", "backend failure: disk full", None),
        ]);
        assert_eq!(lines(&report), Vec::<String>::new());
    }

    /// What the old parser got wrong: a message quoting a query that holds
    /// a kind's prefix (`unavailable: `) before the driver's error. The
    /// group is the error the data names, whatever the message quotes.
    #[test]
    fn a_kind_prefix_quoted_before_the_error_is_not_the_error() {
        let fts = || Some(MemoryError::fault("fts5: syntax error near \":\""));
        let report = report_of(&[
            (
                "recall.plain_text_query",
                "query \"unavailable: x\" is plain text but recall failed: backend failure: fts5: \
                 syntax error near \":\"",
                fts(),
            ),
            (
                "properties.cap_determinism",
                "query \"invalid input (y\" failed: backend failure: fts5: syntax error near \":\"",
                fts(),
            ),
        ]);
        assert_eq!(
            lines(&report),
            ["2 checks failed on the same error: backend failure: fts5: syntax error near \":\" \
              (recall.plain_text_query, properties.cap_determinism)"]
        );
    }

    /// The line shows the driver's text as every report does: escaped
    /// control characters.
    #[test]
    fn the_error_is_shown_escaped() {
        let bell = || Some(MemoryError::fault("bell \u{7}"));
        let report = report_of(&[("a.one", "x", bell()), ("a.two", "x", bell())]);
        assert_eq!(lines(&report).len(), 1);
        assert!(!lines(&report)[0].contains('\u{7}'), "{:?}", lines(&report));
    }
}
