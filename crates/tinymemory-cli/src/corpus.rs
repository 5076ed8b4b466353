//! Loading the corpus into the corpus store, and showing what was loaded.

use std::path::{Path, PathBuf};

use tinymemory_api::{MemoryProvider, MemorySection, RecallOptions};
use tinymemory_conformance::report::CorpusFacts;
use tinymemory_conformance::{LoadedCorpus, RunObserver};
use tinymemory_corpus::Corpus;
use tinymemory_sections::Sections;

use crate::console::Console;
use crate::error::CliError;

/// The example section recall printed after loading.
const EXAMPLE_QUERY: &str = "computer";

/// Loads the corpus at `root` (default: the bundled one) into `store`,
/// printing what was loaded and, with `example`, one section recall;
/// `progress` is told how far the load is, from `0` of the total as it
/// starts. Returns the loaded corpus and what it was, for the report.
///
/// # Errors
///
/// The corpus cannot be read, or not stored.
pub(crate) async fn load(
    root: Option<&Path>,
    store: Box<dyn MemoryProvider>,
    console: &Console,
    example: bool,
    progress: &mut dyn RunObserver,
) -> Result<(LoadedCorpus, CorpusFacts), CliError> {
    let root = root.map_or_else(bundled, Path::to_owned);
    let corpus = Corpus::load(&root).map_err(|e| {
        CliError::Setup(format!(
            "failed to load the corpus at {}: {e}",
            root.display()
        ))
    })?;
    for w in &corpus.warnings {
        console.line(&format!("warning: {w}"));
    }
    progress.load_progress(0, corpus.entries.len());
    let loaded = LoadedCorpus::load_with_progress(store, &corpus, |done, total| {
        progress.load_progress(done, total);
    })
    .await
    .map_err(|e| CliError::Setup(format!("failed to store the corpus: {e}")))?;
    let report = loaded.report();
    let facts = CorpusFacts {
        path: root.display().to_string(),
        digest: corpus.digest(),
        entries: report.entries(),
        namespaces: report.namespaces(),
    };
    console.line(&format!(
        "loaded {}: {} entries in {} namespaces, {} ({} lines skipped with a warning)",
        root.display(),
        facts.entries,
        facts.namespaces,
        facts.digest,
        corpus.warnings.len()
    ));
    for (section, (entries, namespaces)) in &report.sections {
        // Through a String: the section's Display ignores width.
        let section = section.to_string();
        console.line(&format!(
            "  {section:<13} {entries:>6} entries in {namespaces:>4} namespaces"
        ));
    }
    if example {
        show_example(&loaded, console).await;
    }
    Ok((loaded, facts))
}

async fn show_example(loaded: &LoadedCorpus, console: &Console) {
    let section = MemorySection::Learning;
    let result = Sections::new(loaded.provider())
        .recall()
        .across_section(&section, EXAMPLE_QUERY, 3, &RecallOptions::default())
        .await;
    match result {
        Ok(found) => {
            console.line(&format!(
                "example: across_section({section}, {EXAMPLE_QUERY:?}, limit 3) searched {} namespaces (truncated: {}):",
                found.searched.len(),
                found.truncated
            ));
            for h in &found.hits {
                let text: String = h.content.chars().take(70).collect();
                let score = h
                    .score
                    .map_or_else(|| "-".to_owned(), |s| format!("{s:.4}"));
                console.line(&format!(
                    "  {score:>8}  {}/{}  {text:?}",
                    h.namespace.as_deref().unwrap_or("?"),
                    h.key
                ));
            }
        }
        Err(e) => console.line(&format!(
            "example: across_section({section}, {EXAMPLE_QUERY:?}) failed: {e}"
        )),
    }
}

/// The corpus a run loads without `--corpus`: the one installed with the
/// `tinymemory-conformance` wheel beside this binary, else the one the
/// `tinymemory-corpus` crate this binary was built from carries (the
/// workspace's `fixtures/corpora`, [`Corpus::default_root`]).
///
/// A wheel (maturin's `bin` bindings) puts the binary in the scripts
/// directory of an environment (`PREFIX/bin`, `PREFIX\Scripts` on
/// Windows) and the `tinymemory` package, with its `corpora`, in
/// `PREFIX/lib/pythonX.Y/site-packages` (`PREFIX\Lib\site-packages`): the
/// path the build machine's checkout had means nothing where the wheel is
/// installed. The first `site-packages/tinymemory/corpora` directory
/// found there is used.
pub(crate) fn bundled() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| beside(&exe))
        .unwrap_or_else(Corpus::default_root)
}

/// The installed corpus for an executable at `exe`, if there is one.
fn beside(exe: &Path) -> Option<PathBuf> {
    let prefix = exe.parent()?.parent()?;
    let windows = prefix.join("Lib").join("site-packages");
    let mut candidates = vec![windows];
    if let Ok(lib) = std::fs::read_dir(prefix.join("lib")) {
        let mut pythons: Vec<PathBuf> = lib
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with("python"))
            .map(|e| e.path().join("site-packages"))
            .collect();
        pythons.sort();
        candidates.extend(pythons);
    }
    candidates
        .into_iter()
        .map(|site| site.join("tinymemory").join("corpora"))
        .find(|c| c.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_installed_corpus_is_found_beside_a_wheels_binary() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("bin").join("tinymemory-conformance");
        assert_eq!(beside(&exe), None);
        let corpora = dir
            .path()
            .join("lib/python3.11/site-packages/tinymemory/corpora");
        std::fs::create_dir_all(&corpora).unwrap();
        assert_eq!(beside(&exe), Some(corpora));
        let windows = dir.path().join("Lib/site-packages/tinymemory/corpora");
        std::fs::create_dir_all(&windows).unwrap();
        assert_eq!(beside(&dir.path().join("Scripts/x.exe")), Some(windows));
    }
}
