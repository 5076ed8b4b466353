//! Paths and commands shared by the exec tests.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tinymemory_api::RecallProfile;
use tinymemory_conformance::{LoadedCorpus, Registry, RunConfig, RunSummary, Runner};
use tinymemory_corpus::Corpus;
use tinymemory_exec::{ExecCommand, ExecConfig, ExecDriver, ExecFactory};

/// `examples/python` in the repository.
pub fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/python")
}

/// `python3 examples/python/<script> <args>`.
pub fn example(script: &str, args: &[&str]) -> ExecCommand {
    let path = examples_dir().join(script).to_string_lossy().into_owned();
    ExecCommand::new(
        "python3",
        std::iter::once(path).chain(args.iter().map(|a| (*a).to_owned())),
    )
}

/// `python3 tests/drivers/misbehave.py <mode> [word]`.
pub fn misbehave(mode: &str, word: Option<&str>) -> ExecCommand {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/drivers/misbehave.py")
        .to_string_lossy()
        .into_owned();
    ExecCommand::new(
        "python3",
        [path, mode.to_owned()]
            .into_iter()
            .chain(word.map(str::to_owned)),
    )
}

/// `python3 tests/drivers/misbehave.py <mode> <word> <marker>`: the
/// marker, unique per test ([`marker`]), finds its processes in /proc.
pub fn misbehave_marked(mode: &str, word: &str, marker: &str) -> ExecCommand {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/drivers/misbehave.py")
        .to_string_lossy()
        .into_owned();
    ExecCommand::new(
        "python3",
        [path, mode.to_owned(), word.to_owned(), marker.to_owned()],
    )
}

/// A word no other process on the machine has in its command line.
pub fn marker(test: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "tinymemory-test-{test}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// The processes whose command line has `marker` as one of its words
/// (a zombie's command line is empty, so exited processes never count).
pub fn processes_with(marker: &str) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.split(|b| *b == 0).any(|w| w == marker.as_bytes()))
        })
        .collect()
}

/// Waits up to `within` for every process of `marker` to end; returns
/// those still running then.
pub fn left_after(marker: &str, within: Duration) -> Vec<u32> {
    let deadline = std::time::Instant::now() + within;
    loop {
        let left = processes_with(marker);
        if left.is_empty() || std::time::Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A request timeout short enough for the hang tests, long enough that a
/// loaded CI machine never trips it on a healthy request.
pub fn short_timeout() -> ExecConfig {
    ExecConfig::default().with_request_timeout(Duration::from_secs(2))
}

/// Cases per property check in these tests. Half the suite's default (64):
/// over the protocol every case is a few round trips to a Python process,
/// and five suite runs here must fit the CI budget. What these tests prove
/// is that the property checks run and pass over the protocol; the
/// strength of the default is the conformance crate's concern
/// (`RunConfig::DEFAULT_CASES`).
pub const CASES: u32 = 32;

/// The run configuration of every suite run here.
pub fn config() -> RunConfig {
    RunConfig {
        seed: RunConfig::DEFAULT_SEED,
        cases: CASES,
    }
}

/// The bundled corpus, parsed once per test binary.
pub fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| Corpus::load(&Corpus::default_root()).expect("the bundled corpus loads"))
}

/// Runs the standard registry over `command`: a factory for the checks and,
/// when `with_corpus`, a second process holding the bundled corpus. The
/// runner applies the checks of the profile the driver declares.
pub async fn run_suite(command: &ExecCommand, exec: ExecConfig, with_corpus: bool) -> RunSummary {
    run_suite_as(command, exec, with_corpus, None).await
}

/// [`run_suite`], holding the driver to `profile` when given instead of
/// the profile it declares.
pub async fn run_suite_as(
    command: &ExecCommand,
    exec: ExecConfig,
    with_corpus: bool,
    profile: Option<RecallProfile>,
) -> RunSummary {
    let factory = ExecFactory::connect(command.clone(), exec.clone())
        .await
        .expect("the driver starts");
    let corpus = if with_corpus {
        let store = ExecDriver::spawn(command, exec)
            .await
            .expect("the corpus store starts");
        let loaded = LoadedCorpus::load(Box::new(store), corpus())
            .await
            .expect("the corpus loads");
        Some(Arc::new(loaded))
    } else {
        None
    };
    let runner = Runner::new(Registry::standard()).with_config(config());
    let runner = match profile {
        Some(p) => runner.with_profile(p),
        None => runner,
    };
    runner.run(Arc::new(factory), corpus, |_| {}).await
}

/// `id: message` for every failed check, for assertion messages.
pub fn failures(summary: &RunSummary) -> String {
    summary
        .reports
        .iter()
        .filter(|r| r.outcome.is_fail())
        .map(|r| format!("{}: {}", r.id, r.outcome.message().unwrap_or_default()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `python3 -c CODE ARGS`, with `examples/python` and the `tinymemory`
/// package of `python/` importable.
pub fn inline(code: &str, args: &[&str]) -> ExecCommand {
    let dir = examples_dir().to_string_lossy().into_owned();
    let package = examples_dir()
        .join("../../python")
        .to_string_lossy()
        .into_owned();
    let prelude = format!(
        "import sys\nsys.dont_write_bytecode = True\nsys.path.insert(0, {dir:?})\n\
         sys.path.insert(0, {package:?})\n\
         import tinymemory.protocol as tp\nfrom memory_driver import MemoryStore\n"
    );
    ExecCommand::new(
        "python3",
        ["-c".to_owned(), format!("{prelude}{code}")]
            .into_iter()
            .chain(args.iter().map(|a| (*a).to_owned())),
    )
}
