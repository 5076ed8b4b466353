//! `Runner::run_loading`: the checks that read no corpus run while it
//! loads, the corpus checks wait for it, and the reports are those of a
//! run whose corpus was loaded first.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tinymemory_api::MemoryProvider;
use tinymemory_conformance::{
    Check, CheckContext, CheckReport, CheckStarted, DriverFactory, Family, FnFactory, LoadedCorpus,
    Outcome, Profiles, Registry, RunObserver, RunSummary, Runner,
};
use tinymemory_corpus::Corpus;
use tinymemory_reference::ReferenceDriver;
use tokio::sync::{oneshot, Notify};

/// Longer than any of these runs takes: a load waiting for a check that
/// never starts gives up after it, and the test fails on its error.
const DEADLOCK_GUARD: Duration = Duration::from_secs(30);

/// The real corpus loaded into the reference driver, once for the binary.
async fn corpus() -> Arc<LoadedCorpus> {
    static LOADED: OnceLock<Arc<LoadedCorpus>> = OnceLock::new();
    if let Some(c) = LOADED.get() {
        return Arc::clone(c);
    }
    let corpus = Corpus::load(&Corpus::default_root()).expect("the bundled corpus");
    let loaded = LoadedCorpus::load(Box::new(ReferenceDriver::new()), &corpus)
        .await
        .expect("the reference driver stores it");
    Arc::clone(LOADED.get_or_init(|| Arc::new(loaded)))
}

fn passes(_: CheckContext) -> tinymemory_conformance::CheckFuture {
    Box::pin(async { Outcome::Pass })
}

/// A corpus check: passes when it was given the corpus.
fn sees_the_corpus(ctx: CheckContext) -> tinymemory_conformance::CheckFuture {
    Box::pin(async move {
        match ctx.corpus {
            Some(c) if !c.expected_counts().is_empty() => Outcome::Pass,
            _ => Outcome::fail("started without the corpus"),
        }
    })
}

fn never_ends(_: CheckContext) -> tinymemory_conformance::CheckFuture {
    Box::pin(std::future::pending())
}

fn check(id: &'static str, family: Family) -> Check {
    Check {
        id,
        family,
        profiles: Profiles::BOTH,
        description: "a run_loading test",
        run: if family == Family::Corpus {
            sees_the_corpus
        } else {
            passes
        },
    }
}

/// Two contract checks, a corpus check between them, a sections check
/// after: the corpus check's place is not the end of the registry.
fn registry() -> Registry {
    Registry::from_checks(vec![
        check("t.a", Family::Contract),
        check("t.corpus", Family::Corpus),
        check("t.b", Family::Contract),
        check("t.c", Family::Sections),
    ])
}

fn factory() -> Arc<dyn DriverFactory> {
    Arc::new(FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    }))
}

/// What happened, in order, seen by the observer and by the load:
/// `+id` started, `-id` finished, `answered`, `loaded`.
#[derive(Clone, Default)]
struct Log {
    events: Arc<Mutex<Vec<String>>>,
    started: Arc<Notify>,
}

impl Log {
    fn push(&self, event: impl Into<String>) {
        self.events.lock().unwrap().push(event.into());
    }

    fn events(&self) -> Vec<String> {
        self.events.lock().unwrap().clone()
    }

    fn position(&self, event: &str) -> usize {
        let events = self.events();
        events
            .iter()
            .position(|e| e == event)
            .unwrap_or_else(|| panic!("{event} in {events:?}"))
    }
}

impl RunObserver for Log {
    fn load_progress(&mut self, _: usize, _: usize) {
        unreachable!("the runner does not report the load's progress: its caller's load does")
    }

    fn check_started(&mut self, started: CheckStarted<'_>) {
        self.push(format!("+{}", started.check.id));
        self.started.notify_one();
    }

    fn check_finished(&mut self, report: &mut CheckReport) {
        self.push(format!("-{}", report.id));
    }
}

/// A load that says its store answered, then waits for a check to start
/// (giving up, with an error, after [`DEADLOCK_GUARD`]), then ends with
/// the corpus.
async fn load_after_a_check_starts(
    log: Log,
    answered: oneshot::Sender<()>,
) -> Result<Option<Arc<LoadedCorpus>>, String> {
    let corpus = corpus().await;
    // The first write answered: checks may start from here.
    tokio::task::yield_now().await;
    log.push("answered");
    let _ = answered.send(());
    tokio::time::timeout(DEADLOCK_GUARD, log.started.notified())
        .await
        .map_err(|_| "no check started while the corpus loaded".to_owned())?;
    log.push("loaded");
    Ok(Some(corpus))
}

fn outcomes(summary: &RunSummary) -> Vec<(&'static str, Outcome)> {
    summary
        .reports
        .iter()
        .map(|r| (r.id, r.outcome.clone()))
        .collect()
}

/// Two jobs: a check that reads no corpus starts while it loads (the load
/// ends only once one has), none before the store answered, the corpus
/// check only after the load; the reports are in registry order and the
/// same as a run whose corpus was loaded first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checks_that_read_no_corpus_run_while_it_loads() {
    let log = Log::default();
    let (tx, rx) = oneshot::channel();
    let summary = Runner::new(registry())
        .with_jobs(2)
        .run_loading(
            factory(),
            load_after_a_check_starts(log.clone(), tx),
            async {
                let _ = rx.await;
            },
            &mut log.clone(),
        )
        .await
        .expect("the load ends once a check has started");
    let events = log.events();
    let first_start = events.iter().position(|e| e.starts_with('+')).unwrap();
    assert!(log.position("answered") < first_start, "{events:?}");
    assert!(first_start < log.position("loaded"), "{events:?}");
    assert!(
        log.position("loaded") < log.position("+t.corpus"),
        "{events:?}"
    );
    let finished: Vec<&str> = events.iter().filter_map(|e| e.strip_prefix('-')).collect();
    assert_eq!(finished, ["t.a", "t.corpus", "t.b", "t.c"]);

    let loaded_first = Runner::new(registry())
        .with_jobs(2)
        .run(factory(), Some(corpus().await), |_| {})
        .await;
    assert_eq!(outcomes(&summary), outcomes(&loaded_first));
    assert!(summary.reports.iter().all(|r| r.outcome == Outcome::Pass));
}

/// One job: the load holds the run's only slot, so no check starts before
/// it ends, and the checks start in registry order, as when the corpus is
/// loaded first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_one_job_the_load_ends_before_the_first_check() {
    let log = Log::default();
    let load = {
        let log = log.clone();
        async move {
            let corpus = corpus().await;
            for _ in 0..3 {
                tokio::task::yield_now().await;
            }
            log.push("loaded");
            Ok::<_, String>(Some(corpus))
        }
    };
    let summary = Runner::new(registry())
        .with_jobs(1)
        .run_loading(factory(), load, std::future::ready(()), &mut log.clone())
        .await
        .unwrap();
    assert_eq!(
        log.events(),
        [
            "loaded",
            "+t.a",
            "-t.a",
            "+t.corpus",
            "-t.corpus",
            "+t.b",
            "-t.b",
            "+t.c",
            "-t.c"
        ]
    );
    assert!(summary.reports.iter().all(|r| r.outcome == Outcome::Pass));
}

/// A load that fails after a check started ends the run with its error,
/// without waiting for the checks under way (one never ends).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_load_ends_the_run_with_its_error() {
    let registry = Registry::from_checks(vec![
        Check {
            run: never_ends,
            ..check("t.forever", Family::Contract)
        },
        check("t.corpus", Family::Corpus),
    ]);
    let log = Log::default();
    let load = {
        let log = log.clone();
        async move {
            tokio::time::timeout(DEADLOCK_GUARD, log.started.notified())
                .await
                .map_err(|_| "no check started".to_owned())?;
            Err::<Option<Arc<LoadedCorpus>>, _>("disk full".to_owned())
        }
    };
    let runner = Runner::new(registry).with_jobs(2);
    let mut observer = log.clone();
    let run = runner.run_loading(factory(), load, std::future::ready(()), &mut observer);
    let ended = tokio::time::timeout(DEADLOCK_GUARD * 2, run)
        .await
        .expect("the run ends when its load fails");
    assert_eq!(ended.err().as_deref(), Some("disk full"));
    assert_eq!(log.events(), ["+t.forever"]);
}
