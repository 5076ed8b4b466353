//! The committed regression sequences of `fixtures/regressions/model/`:
//! every file is bundled into the model check, replays clean on the
//! reference and SQLite drivers, diverges on the mutant it was found
//! against, and is reproduced from its recorded seed.

use std::path::PathBuf;
use std::sync::Arc;

use tinymemory_api::{MemoryError, MemoryProvider};
use tinymemory_conformance::model::{bundled, explore, replay, Regression};
use tinymemory_conformance::{DriverFactory, FnFactory, Outcome, RunConfig};
use tinymemory_doubles::mutants::mutant;
use tinymemory_reference::ReferenceDriver;
use tinymemory_sqlite::SqliteDriver;

fn directory() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/regressions/model")
}

/// `(file name, parsed file)` for every `.json` file of the directory, in
/// name order.
fn committed() -> Vec<(String, Regression)> {
    let mut files: Vec<(String, Regression)> = std::fs::read_dir(directory())
        .expect("fixtures/regressions/model is readable")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let parsed = Regression::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, parsed)
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

/// Fresh reference drivers broken by the mutant `name`.
fn mutant_factory(name: &str) -> Arc<dyn DriverFactory> {
    let wrap = mutant(name)
        .unwrap_or_else(|| panic!("no mutant named {name:?}"))
        .wrap;
    Arc::new(FnFactory::new(
        "reference",
        move || -> Result<Box<dyn MemoryProvider>, MemoryError> {
            Ok(wrap(Box::new(ReferenceDriver::new())))
        },
    ))
}

#[test]
fn every_committed_file_is_bundled_and_none_is_missing() {
    let on_disk: Vec<String> = committed().into_iter().map(|(name, _)| name).collect();
    let compiled: Vec<&str> = bundled().iter().map(|(name, _)| *name).collect();
    assert_eq!(
        on_disk,
        ["forget-then-recall.json", "upsert-duplicates.json"]
    );
    assert_eq!(
        compiled, on_disk,
        "list every file of fixtures/regressions/model in model::bundled()"
    );
    for (name, text) in bundled() {
        let on_disk = std::fs::read_to_string(directory().join(name)).unwrap();
        assert_eq!(*text, on_disk, "{name}: the compiled copy is stale");
    }
}

/// The crate compiles in its own copies (`regressions/model/`, carried by
/// the packaged crate, which has no `fixtures/`): the same files as
/// `fixtures/regressions/model/`, byte for byte.
#[test]
fn the_crates_copies_are_the_committed_files() {
    let copies = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("regressions/model");
    let mut names: Vec<String> = std::fs::read_dir(&copies)
        .expect("crates/tinymemory-conformance/regressions/model is readable")
        .map(|entry| {
            entry
                .expect("directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    let committed: Vec<String> = committed().into_iter().map(|(name, _)| name).collect();
    assert_eq!(
        names, committed,
        "copy fixtures/regressions/model/*.json into crates/tinymemory-conformance/regressions/model/"
    );
    for name in &names {
        let copy = std::fs::read(copies.join(name)).unwrap();
        let original = std::fs::read(directory().join(name)).unwrap();
        assert!(
            copy == original,
            "{name}: the crate's copy differs from fixtures/regressions/model/{name}"
        );
    }
}

#[tokio::test]
async fn committed_sequences_replay_clean_on_reference_and_sqlite() {
    for (name, regression) in committed() {
        assert_eq!(
            replay(&ReferenceDriver::new(), &regression.ops).await,
            Ok(()),
            "{name} on reference"
        );
        let sqlite = SqliteDriver::open_in_memory().unwrap();
        assert_eq!(
            replay(&sqlite, &regression.ops).await,
            Ok(()),
            "{name} on sqlite"
        );
    }
}

#[tokio::test]
async fn committed_sequences_diverge_on_their_mutant_as_recorded() {
    for (name, regression) in committed() {
        let mutant_name = regression
            .mutant
            .as_deref()
            .unwrap_or_else(|| panic!("{name} names no mutant"));
        let driver = (mutant(mutant_name).unwrap().wrap)(Box::new(ReferenceDriver::new()));
        let divergence = replay(driver.as_ref(), &regression.ops)
            .await
            .expect_err(&format!("{name} must diverge on {mutant_name}"));
        assert_eq!(divergence.to_string(), regression.divergence, "{name}");
        assert_eq!(
            divergence.step,
            regression.ops.len(),
            "{name}: the last call diverges"
        );
    }
}

#[tokio::test]
async fn the_recorded_seed_reproduces_each_shrunk_sequence() {
    for (name, regression) in committed() {
        let config = RunConfig {
            seed: regression.seed,
            cases: regression.cases,
        };
        let factory = mutant_factory(regression.mutant.as_deref().unwrap());
        let Outcome::Fail(failure) = explore(factory, config).await else {
            panic!(
                "{name}: no failure from seed {} with {} cases",
                config.seed, config.cases
            );
        };
        let counterexample = failure.counterexample.expect("a counterexample");
        assert_eq!(counterexample.seed, regression.seed);
        let found = Regression::from_json(&counterexample.input).unwrap();
        assert_eq!(
            (found.ops, found.divergence),
            (regression.ops, regression.divergence),
            "{name}: the generator changed, so the seed finds another sequence; \
             regenerate the file with model::explore and the same seed"
        );
    }
}
