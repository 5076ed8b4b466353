//! The corpus checks over the real fixtures, on the reference driver.

use std::sync::Arc;

use tinymemory_api::{MemoryError, MemoryProvider, MemorySection, NamespaceSummary};
use tinymemory_conformance::{Family, FnFactory, LoadedCorpus, Outcome, Registry, Runner};
use tinymemory_corpus::Corpus;
use tinymemory_reference::ReferenceDriver;

#[tokio::test]
async fn the_real_corpus_loads_and_passes_the_corpus_checks() {
    let corpus = Corpus::load(&Corpus::default_root()).unwrap();
    let loaded = LoadedCorpus::load(Box::new(ReferenceDriver::new()), &corpus)
        .await
        .unwrap();
    let report = loaded.report();
    assert_eq!(report.entries(), 22_688);
    assert_eq!(report.namespaces(), 272);
    assert_eq!(report.sections[&MemorySection::Conversation], (19_589, 237));
    assert_eq!(report.sections[&MemorySection::Learning], (2_306, 21));
    assert_eq!(report.sections[&MemorySection::Document], (793, 14));
    assert_eq!(loaded.samples().len(), 272);

    let factory = Arc::new(FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    }));
    let summary = Runner::new(Registry::standard().family(Family::Corpus))
        .run(factory, Some(Arc::new(loaded)), |_| {})
        .await;
    let got: Vec<_> = summary
        .reports
        .iter()
        .map(|r| (r.id, r.outcome.clone()))
        .collect();
    assert_eq!(
        got,
        [
            ("corpus.namespace_counts", Outcome::Pass),
            ("corpus.recall_own_words", Outcome::Pass)
        ]
    );
}

#[tokio::test]
async fn loading_reports_progress_after_every_entry() {
    let corpus = Corpus::load(&Corpus::default_root()).unwrap();
    let mut calls: Vec<(usize, usize)> = Vec::new();
    let loaded = LoadedCorpus::load_with_progress(
        Box::new(ReferenceDriver::new()),
        &corpus,
        |done, total| calls.push((done, total)),
    )
    .await
    .unwrap();
    assert_eq!(loaded.report().entries(), 22_688);
    assert_eq!(calls.len(), 22_688);
    assert_eq!(calls[0], (1, 22_688));
    assert_eq!(calls[22_687], (22_688, 22_688));
    assert!(calls.windows(2).all(|w| w[1].0 == w[0].0 + 1));
}

/// Namespaces listed a page of [`PAGE`] names at a time, each page read
/// from the last name of the page before it inclusive (a keyset listing
/// compared with `>=`): the name at each boundary is listed twice, once a
/// store holds more than `PAGE` namespaces. No check without a corpus
/// makes that many; the corpus has 272.
struct OverlappingNamespacePages {
    inner: ReferenceDriver,
}

const PAGE: usize = 256;

tinymemory_api::delegate_provider! {
    impl MemoryProvider for OverlappingNamespacePages {
        forward(inner): driver_id, store, get, forget, list, recall, store_many, export_page,
            import, interface;

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            let mut all = self.inner.namespaces().await?;
            all.sort_by(|a, b| a.namespace.cmp(&b.namespace));
            let mut listed = Vec::new();
            for start in (0..all.len()).step_by(PAGE) {
                let from = start.saturating_sub(1);
                listed.extend_from_slice(&all[from..(start + PAGE).min(all.len())]);
            }
            Ok(listed)
        }
    }
}

#[tokio::test]
async fn a_namespace_listed_twice_at_the_corpus_scale_fails_the_counts() {
    let corpus = Corpus::load(&Corpus::default_root()).unwrap();
    let driver = OverlappingNamespacePages {
        inner: ReferenceDriver::new(),
    };
    let loaded = LoadedCorpus::load(Box::new(driver), &corpus).await.unwrap();
    let factory = Arc::new(FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    }));
    let summary = Runner::new(Registry::standard().family(Family::Corpus))
        .run(factory, Some(Arc::new(loaded)), |_| {})
        .await;
    let counts = &summary.reports[0];
    assert_eq!(counts.id, "corpus.namespace_counts");
    let Outcome::Fail(failure) = &counts.outcome else {
        panic!("corpus.namespace_counts: {:?}", counts.outcome);
    };
    assert_eq!(
        failure.message,
        "namespaces() listed \"learning:conversations\" 2 times after loading the corpus \
         (contract 8: every non-empty namespace once; 273 listed for 272 namespaces)"
    );
}
