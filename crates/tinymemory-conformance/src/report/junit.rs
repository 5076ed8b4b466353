//! JUnit XML, the format CI test reporters read (Jenkins, GitLab, GitHub
//! test-report actions): one `<testsuite>` per family, one `<testcase>` per
//! check. The shape is pinned by `fixtures/junit/junit.xsd`.

use std::fmt::Write as _;

use super::escape::{xml_attr, xml_text};
use super::{CheckEntry, OutcomeKind, Report};

impl Report {
    /// The report as JUnit XML (UTF-8, trailing newline).
    ///
    /// - `<testsuites>` carries the totals (`tests`, `failures`, `errors`
    ///   (the timeouts), `skipped`, `time` in seconds: the run's wall
    ///   time, `run.duration_ms`) and the start time.
    /// - One `<testsuite name="DRIVER.FAMILY">` per family, in order of
    ///   first appearance, whose `time` is the sum of its checks'
    ///   durations (so above one job, the suites' times add up to more
    ///   than `<testsuites time>`, the wall time), with the run metadata as `<properties>` (tool,
    ///   driver, seed, cases, the corpus (`corpus`: its path or `none`,
    ///   with `corpus_digest`, `corpus_entries` and `corpus_namespaces`
    ///   for a loaded one), conformance level).
    /// - One `<testcase name="CHECK-ID" classname="DRIVER.FAMILY">` per
    ///   check. `fail`: a `<failure type="fail">` whose `message` is the
    ///   failure message and whose text adds the counterexample.
    ///   `unexpectedly-passing`: a `<failure type="unexpectedly-passing">`.
    ///   `skip`: `<skipped>` with the reason. `expected-failure`:
    ///   `<skipped>` (CI must not fail on it) naming the declared reason,
    ///   with the failure in `<system-out>`. `timeout`: an
    ///   `<error type="timeout">` (the check neither passed nor broke a
    ///   rule; CI reporters show errors apart from failures) whose
    ///   `message` is the timeout message.
    ///
    /// Control characters (illegal in XML 1.0) are written as `\u{..}`
    /// escapes; markup characters are escaped.
    #[must_use]
    pub fn to_junit(&self) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let c = &self.counts;
        let _ = writeln!(
            out,
            "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\" timestamp=\"{}\">",
            xml_attr(&self.run.tool),
            c.total,
            c.fail + c.unexpectedly_passing,
            c.timeout,
            c.skip + c.expected_failure,
            seconds(self.run.duration_ms),
            xml_attr(&self.run.started_at),
        );
        for family in self.families() {
            self.write_suite(&mut out, family);
        }
        out.push_str("</testsuites>\n");
        out
    }

    /// Family names in order of first appearance.
    fn families(&self) -> Vec<&str> {
        let mut seen: Vec<&str> = Vec::new();
        for c in &self.checks {
            if !seen.contains(&c.family.as_str()) {
                seen.push(&c.family);
            }
        }
        seen
    }

    fn write_suite(&self, out: &mut String, family: &str) {
        let checks: Vec<&CheckEntry> = self.checks.iter().filter(|c| c.family == family).collect();
        let failures = checks
            .iter()
            .filter(|c| c.outcome.is_rule_failure())
            .count();
        let errors = checks
            .iter()
            .filter(|c| c.outcome == OutcomeKind::Timeout)
            .count();
        let skipped = checks
            .iter()
            .filter(|c| matches!(c.outcome, OutcomeKind::Skip | OutcomeKind::ExpectedFailure))
            .count();
        let time: f64 = checks.iter().map(|c| c.duration_ms).sum();
        let classname = xml_attr(&format!("{}.{family}", self.run.driver_id));
        let _ = writeln!(
            out,
            "  <testsuite name=\"{classname}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{}\" timestamp=\"{}\">",
            checks.len(),
            seconds(time),
            xml_attr(&self.run.started_at),
        );
        self.write_properties(out);
        for check in checks {
            write_case(out, check, &classname);
        }
        out.push_str("  </testsuite>\n");
    }

    fn write_properties(&self, out: &mut String) {
        let r = &self.run;
        let mut props = vec![
            ("tool", format!("{} {}", r.tool, r.tool_version)),
            ("driver_id", r.driver_id.clone()),
        ];
        if let Some(spec) = &r.driver_spec {
            props.push(("driver_spec", spec.clone()));
        }
        if let Some(version) = &r.driver_version {
            props.push(("driver_version", version.clone()));
        }
        props.push(("recall_profile", r.recall_profile.to_string()));
        props.push(("seed", r.seed.to_string()));
        props.push(("cases", r.cases.to_string()));
        match &r.corpus {
            Some(super::RunCorpus::None) => props.push(("corpus", "none".to_owned())),
            Some(super::RunCorpus::Loaded(c)) => {
                props.push(("corpus", c.path.clone()));
                props.push(("corpus_digest", c.digest.clone()));
                props.push(("corpus_entries", c.entries.to_string()));
                props.push(("corpus_namespaces", c.namespaces.to_string()));
            }
            None => {}
        }
        props.push(("conformance", self.conformance.to_string()));
        if let Some(noise) = &self.conformance.score_noise {
            props.push((
                "score_noise",
                format!("{:e} in {}: {}", noise.difference, noise.check, noise.at),
            ));
        }
        out.push_str("    <properties>\n");
        for (name, value) in props {
            let _ = writeln!(
                out,
                "      <property name=\"{name}\" value=\"{}\"/>",
                xml_attr(&value)
            );
        }
        out.push_str("    </properties>\n");
    }
}

fn write_case(out: &mut String, check: &CheckEntry, classname: &str) {
    let _ = write!(
        out,
        "    <testcase name=\"{}\" classname=\"{classname}\" time=\"{}\"",
        xml_attr(&check.id),
        seconds(check.duration_ms)
    );
    let message = check.message_with_notes().unwrap_or_default();
    let message = message.as_ref();
    let reason = check.reason.as_deref().unwrap_or_default();
    match &check.outcome {
        OutcomeKind::Pass => {
            out.push_str("/>\n");
            return;
        }
        OutcomeKind::Fail => {
            let _ = write!(
                out,
                ">\n      <failure type=\"fail\" message=\"{}\">{}</failure>\n",
                xml_attr(message),
                xml_text(&failure_body(check))
            );
        }
        OutcomeKind::UnexpectedlyPassing => {
            let m = format!("passed, but was declared an expected failure: {reason}");
            let _ = writeln!(
                out,
                ">\n      <failure type=\"unexpectedly-passing\" message=\"{}\">{}</failure>",
                xml_attr(&m),
                xml_text(&m)
            );
        }
        OutcomeKind::Skip => {
            let _ = writeln!(out, ">\n      <skipped message=\"{}\"/>", xml_attr(message));
        }
        OutcomeKind::Timeout => {
            let _ = writeln!(
                out,
                ">\n      <error type=\"timeout\" message=\"{}\">{}</error>",
                xml_attr(message),
                xml_text(message)
            );
        }
        OutcomeKind::Unknown(text) => {
            let note = check.outcome.unknown_note().unwrap_or_default();
            let m = if message.is_empty() {
                note
            } else {
                format!("{note}: {message}")
            };
            let _ = writeln!(
                out,
                ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>",
                xml_attr(text),
                xml_attr(&m),
                xml_text(&m)
            );
        }
        OutcomeKind::ExpectedFailure => {
            let _ = write!(
                out,
                ">\n      <skipped message=\"{}\"/>\n      <system-out>{}</system-out>\n",
                xml_attr(&format!("expected failure: {reason}")),
                xml_text(&failure_body(check))
            );
        }
    }
    out.push_str("    </testcase>\n");
}

/// The failure text: the description, the message and its notes, and the
/// counterexample with its seed.
fn failure_body(check: &CheckEntry) -> String {
    let mut body = format!(
        "expected: {}\nactual: {}",
        check.description,
        check.message_with_notes().unwrap_or_default()
    );
    if let Some(cx) = &check.counterexample {
        let _ = write!(body, "\ncounterexample (seed {}):\n{}", cx.seed, cx.input);
    }
    body
}

/// Milliseconds as seconds with three decimals, the unit JUnit uses.
fn seconds(ms: f64) -> String {
    let ms = if ms.is_finite() && ms >= 0.0 { ms } else { 0.0 };
    format!("{:.3}", ms / 1000.0)
}
