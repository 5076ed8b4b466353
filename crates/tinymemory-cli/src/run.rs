//! `run`: load the corpus, show the section API on it, run every check.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use tinymemory_api::{MemorySection, RecallOptions};
use tinymemory_conformance::{LoadedCorpus, Registry, Runner};
use tinymemory_corpus::Corpus;
use tinymemory_sections::Sections;

use crate::args::RunArgs;
use crate::{driver, exit};

/// The example section recall printed after loading.
const EXAMPLE_QUERY: &str = "computer";

pub(crate) fn main(args: &RunArgs) -> u8 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_time()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: failed to start the async runtime: {e}");
            return exit::SETUP;
        }
    };
    runtime.block_on(run(args))
}

async fn run(args: &RunArgs) -> u8 {
    let opened = match driver::open(&args.driver) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: failed to open the driver: {e}");
            return exit::SETUP;
        }
    };
    println!(
        "tinymemory-conformance {} against {}",
        env!("CARGO_PKG_VERSION"),
        opened.description
    );
    let corpus = if args.no_corpus {
        println!("no corpus: the corpus checks will be skipped");
        None
    } else {
        match load_corpus(args, opened.corpus_store).await {
            Ok(loaded) => Some(Arc::new(loaded)),
            Err(message) => {
                eprintln!("error: {message}");
                return exit::SETUP;
            }
        }
    };
    let runner = Runner::new(Registry::standard()).with_timeout(Duration::from_secs(args.timeout));
    let quiet = args.quiet;
    let summary = runner
        .run(opened.factory, corpus, |report| {
            if !quiet || report.outcome.is_fail() {
                println!("{report}");
                let _ = std::io::stdout().flush();
            }
        })
        .await;
    println!("{}", summary.closing_line());
    if summary.failed() == 0 {
        exit::SUCCESS
    } else {
        exit::FAILURES
    }
}

/// Loads the corpus into `store` and prints what was loaded and one example
/// section recall.
async fn load_corpus(
    args: &RunArgs,
    store: Box<dyn tinymemory_api::MemoryProvider>,
) -> Result<LoadedCorpus, String> {
    let root = args.corpus.clone().unwrap_or_else(Corpus::default_root);
    let corpus = Corpus::load(&root)
        .map_err(|e| format!("failed to load the corpus at {}: {e}", root.display()))?;
    for w in &corpus.warnings {
        println!("warning: {w}");
    }
    let loaded = LoadedCorpus::load(store, &corpus)
        .await
        .map_err(|e| format!("failed to store the corpus: {e}"))?;
    let report = loaded.report();
    println!(
        "loaded {}: {} entries in {} namespaces ({} lines skipped with a warning)",
        root.display(),
        report.entries(),
        report.namespaces(),
        corpus.warnings.len()
    );
    for (section, (entries, namespaces)) in &report.sections {
        println!("  {section:<13} {entries:>6} entries in {namespaces:>4} namespaces");
    }
    if !args.quiet {
        show_example(&loaded).await;
    }
    Ok(loaded)
}

async fn show_example(loaded: &LoadedCorpus) {
    let section = MemorySection::Learning;
    let result = Sections::new(loaded.provider())
        .recall()
        .across_section(&section, EXAMPLE_QUERY, 3, &RecallOptions::default())
        .await;
    match result {
        Ok(found) => {
            println!(
                "example: across_section({section}, {EXAMPLE_QUERY:?}, limit 3) searched {} namespaces (truncated: {}):",
                found.searched.len(),
                found.truncated
            );
            for h in &found.hits {
                let text: String = h.content.chars().take(70).collect();
                let score = h.score.map_or_else(|| "-".to_owned(), |s| format!("{s:.4}"));
                println!(
                    "  {score:>8}  {}/{}  {text:?}",
                    h.namespace.as_deref().unwrap_or("?"),
                    h.key
                );
            }
        }
        Err(e) => println!("example: across_section({section}, {EXAMPLE_QUERY:?}) failed: {e}"),
    }
}

