//! Loading the corpus into the corpus store, and showing what was loaded.

use std::path::Path;

use tinymemory_api::{MemoryProvider, MemorySection, RecallOptions};
use tinymemory_conformance::{LoadedCorpus, RunObserver};
use tinymemory_corpus::Corpus;
use tinymemory_sections::Sections;

use crate::console::Console;

/// The example section recall printed after loading.
const EXAMPLE_QUERY: &str = "computer";

/// Loads the corpus at `root` (default: the bundled one) into `store`,
/// printing what was loaded and, with `example`, one section recall;
/// `progress` is told how far the load is, from `0` of the total as it
/// starts.
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
) -> Result<LoadedCorpus, String> {
    let root = root.map_or_else(Corpus::default_root, Path::to_owned);
    let corpus = Corpus::load(&root)
        .map_err(|e| format!("failed to load the corpus at {}: {e}", root.display()))?;
    for w in &corpus.warnings {
        console.line(&format!("warning: {w}"));
    }
    progress.load_progress(0, corpus.entries.len());
    let loaded = LoadedCorpus::load_with_progress(store, &corpus, |done, total| {
        progress.load_progress(done, total);
    })
    .await
    .map_err(|e| format!("failed to store the corpus: {e}"))?;
    let report = loaded.report();
    console.line(&format!(
        "loaded {}: {} entries in {} namespaces ({} lines skipped with a warning)",
        root.display(),
        report.entries(),
        report.namespaces(),
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
    Ok(loaded)
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
