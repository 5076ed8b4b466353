//! Regression bundles: a mutant's failure, bundled, replays to the same
//! failure; committed bundles under `fixtures/regressions/` replay.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tinymemory_api::MemoryProvider;
use tinymemory_conformance::report::{
    OutcomeKind, Verdict, BUNDLE_SCHEMA_VERSION, MAX_DRIVER_NAME,
};
use tinymemory_conformance::{
    Bundle, DriverFactory, FnFactory, Registry, Report, ReportError, RunConfig, Runner,
};
use tinymemory_reference::ReferenceDriver;

const TIMEOUT: Duration = Duration::from_secs(60);

fn reference() -> Arc<dyn DriverFactory> {
    Arc::new(FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    }))
}

/// The reference driver broken by the mutant `name`.
fn mutant(name: &str) -> Arc<dyn DriverFactory> {
    let m = tinymemory_doubles::mutant(name).unwrap_or_else(|| panic!("no mutant {name:?}"));
    let wrap = m.wrap;
    Arc::new(FnFactory::new(format!("mutant:{name}"), move || {
        Ok(wrap(Box::new(ReferenceDriver::new())))
    }))
}

/// The report of running `check` against `factory` with `config`.
async fn run_one(check: &str, factory: Arc<dyn DriverFactory>, config: RunConfig) -> Report {
    let registry = Registry::standard().filter(|c| c.id == check);
    assert_eq!(registry.len(), 1, "no check {check:?}");
    let summary = Runner::new(registry)
        .with_config(config)
        .run(factory, None, |_| {})
        .await;
    Report::from_summary(&summary, SystemTime::now())
}

#[tokio::test]
async fn a_bundle_from_a_mutant_failure_replays_to_the_same_failure() {
    let config = RunConfig { seed: 7, cases: 4 };
    let report = run_one("recall.limit", mutant("limit-plus-one"), config)
        .await
        .with_driver_spec("mutant:limit-plus-one");
    let bundles = Bundle::all_from(&report);
    assert_eq!(bundles.len(), 1);
    let written = bundles[0].to_json();
    let bundle = Bundle::from_json(&written).expect("reads back");
    assert_eq!(bundle, bundles[0]);
    assert_eq!(bundle.check, "recall.limit");
    assert_eq!(bundle.outcome, OutcomeKind::Fail);
    assert_eq!((bundle.seed, bundle.cases), (7, 4));
    assert_eq!(bundle.expected, report.checks[0].description);
    assert_eq!(Some(&bundle.actual), report.checks[0].message.as_ref());
    assert_eq!(
        bundle.file_name(),
        "mutant_limit-plus-one--recall.limit.json"
    );

    let again = bundle
        .replay(
            &Registry::standard(),
            mutant("limit-plus-one"),
            None,
            TIMEOUT,
        )
        .await
        .expect("the check exists");
    assert_eq!(again.verdict, Verdict::Reproduced);
    assert!(again.still_fails());

    let fixed = bundle
        .replay(&Registry::standard(), reference(), None, TIMEOUT)
        .await
        .expect("the check exists");
    assert_eq!(fixed.verdict, Verdict::Fixed);
    assert!(!fixed.still_fails());
}

/// A failure of a semantic-only check, found by holding a lexical-declaring
/// factory to the semantic profile, replays under that profile: the bundle
/// records it.
#[tokio::test]
async fn a_bundle_replays_under_the_profile_it_was_recorded_with() {
    let negated = || {
        Arc::new(FnFactory::new("mutant:negated-scores", || {
            Ok(tinymemory_doubles::mutant("negated-scores").unwrap().open())
        })) as Arc<dyn DriverFactory>
    };
    let registry = Registry::standard().filter(|c| c.id == "recall.ranking_higher_better");
    let summary = Runner::new(registry)
        .with_profile(tinymemory_api::RecallProfile::Semantic)
        .run(negated(), None, |_| {})
        .await;
    let report = Report::from_summary(&summary, SystemTime::now());
    let bundle = Bundle::all_from(&report).remove(0);
    assert_eq!(
        bundle.recall_profile,
        tinymemory_api::RecallProfile::Semantic
    );
    let read = Bundle::from_json(&bundle.to_json()).expect("reads back");
    assert_eq!(read, bundle);
    let again = read
        .replay(&Registry::standard(), negated(), None, TIMEOUT)
        .await
        .expect("the check runs under the recorded profile");
    assert_eq!(again.verdict, Verdict::Reproduced);
    let old = bundle
        .to_json()
        .replace("\"recall_profile\": \"semantic\",", "");
    assert!(!old.contains("recall_profile"), "{old}");
    assert_eq!(
        Bundle::from_json(&old)
            .expect("an old bundle reads")
            .recall_profile,
        tinymemory_api::RecallProfile::Lexical
    );
    let inconsistent = Bundle::from_json(&old).expect("an old bundle reads");
    let refused = inconsistent
        .replay(&Registry::standard(), negated(), None, TIMEOUT)
        .await
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "failed to replay the bundle: check \"recall.ranking_higher_better\" applies to the semantic recall \
         profile, and the bundle records lexical"
    );
}

#[tokio::test]
async fn only_failing_checks_get_bundles() {
    let report = run_one("recall.limit", reference(), RunConfig::default()).await;
    assert_eq!(report.counts.pass, 1);
    assert!(Bundle::all_from(&report).is_empty());
}

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/regressions")
}

/// Every committed bundle: recorded against a mutant, it still fails on
/// that mutant and passes on the reference driver.
#[tokio::test]
async fn committed_bundles_replay() {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(regressions_dir())
        .expect("fixtures/regressions exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    // A glob that matches nothing must not pass.
    assert!(!paths.is_empty(), "no bundle under fixtures/regressions");
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable");
        let bundle = Bundle::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let spec = bundle
            .driver_spec
            .as_deref()
            .expect("a recorded driver spec");
        let name = spec
            .strip_prefix("mutant:")
            .expect("recorded against a mutant");
        let on_mutant = bundle
            .replay(&Registry::standard(), mutant(name), None, TIMEOUT)
            .await
            .expect("the check exists");
        // A reworded check message shows as FailsDifferently: still a
        // reproduction of the bug, so both count.
        assert!(
            on_mutant.still_fails(),
            "{}: {:?}",
            path.display(),
            on_mutant.report
        );
        let on_reference = bundle
            .replay(&Registry::standard(), reference(), None, TIMEOUT)
            .await
            .expect("the check exists");
        assert_eq!(on_reference.verdict, Verdict::Fixed, "{}", path.display());
    }
}

fn a_bundle() -> Bundle {
    let text =
        std::fs::read_to_string(regressions_dir().join("mutant_limit-plus-one--recall.limit.json"))
            .expect("the committed bundle");
    Bundle::from_json(&text).expect("a bundle")
}

#[tokio::test]
async fn a_bundle_naming_an_unknown_check_is_an_error() {
    let mut bundle = a_bundle();
    bundle.check = "recall.no_such_check".to_owned();
    let err = bundle
        .replay(&Registry::standard(), reference(), None, TIMEOUT)
        .await
        .expect_err("no such check");
    assert!(matches!(err, ReportError::UnknownCheck { ref id } if id == "recall.no_such_check"));
}

#[test]
fn a_future_bundle_is_refused() {
    let text = a_bundle().to_json().replacen(
        &format!("\"schema_version\": {BUNDLE_SCHEMA_VERSION}"),
        "\"schema_version\": 9",
        1,
    );
    assert!(matches!(
        Bundle::from_json(&text),
        Err(ReportError::UnsupportedVersion {
            what: "bundle",
            found: 9,
            ..
        })
    ));
    assert!(matches!(
        Bundle::from_json("{\"schema_version\": 1}"),
        Err(ReportError::Malformed { what: "bundle", .. })
    ));
}

#[test]
fn a_long_driver_spec_gives_a_short_unique_file_name() {
    let mut long = a_bundle();
    long.driver_spec = Some(format!("exec:python3 {}/driver.py --flag", "d".repeat(300)));
    let mut other = long.clone();
    other.driver_spec = Some(format!("exec:python3 {}/driver.py --flog", "d".repeat(300)));
    let (a, b) = (long.file_name(), other.file_name());
    assert_ne!(a, b);
    assert_eq!(
        a.len(),
        MAX_DRIVER_NAME + 1 + 16 + "--recall.limit.json".len()
    );
    assert!(a.starts_with("exec_python3_ddd"), "{a}");
    assert!(a.ends_with("--recall.limit.json"), "{a}");
    assert_eq!(
        a_bundle().file_name(),
        "mutant_limit-plus-one--recall.limit.json"
    );
}

/// A driver answering each call 3 s late runs `recall.limit` past its
/// budget of 1 s plus 1 s per request (the second call is still waiting
/// when it runs out, at 4 s): the timeout is bundled as such, and its
/// replay says it timed out again, which still fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_is_bundled_and_its_replay_says_it_timed_out() {
    let slow = || -> Arc<dyn DriverFactory> {
        Arc::new(FnFactory::new("slow", || {
            Ok(Box::new(tinymemory_doubles::Latency::new(
                ReferenceDriver::new(),
                tinymemory_doubles::Pause::new(tinymemory_doubles::Delay::Fixed(
                    Duration::from_secs(3),
                )),
            )) as Box<dyn MemoryProvider>)
        }))
    };
    let budget = Duration::from_secs(1);
    let summary = Runner::new(Registry::standard().filter(|c| c.id == "recall.limit"))
        .with_timeout(budget)
        .run(slow(), None, |_| {})
        .await;
    let report = Report::from_summary(&summary, SystemTime::now());
    assert_eq!(report.checks[0].outcome, OutcomeKind::Timeout);
    let bundles = Bundle::all_from(&report);
    assert_eq!(bundles.len(), 1);
    assert_eq!(bundles[0].outcome, OutcomeKind::Timeout);
    assert_eq!(Some(&bundles[0].actual), report.checks[0].message.as_ref());
    let bundle = Bundle::from_json(&bundles[0].to_json()).expect("reads back");
    let replay = bundle
        .replay(&Registry::standard(), slow(), None, budget)
        .await
        .expect("the check exists");
    assert_eq!(replay.verdict, Verdict::TimedOut);
    assert!(replay.still_fails());
    assert!(
        replay.to_text(&bundle).ends_with(
            "\ntimed out: the check ran past its budget, so whether it passes is unknown\n"
        ),
        "{}",
        replay.to_text(&bundle)
    );
}
