//! Each check that holds for any ranking engine fails on a purpose-built
//! broken double (not only on a catalogue mutant), with a message naming
//! the rule and the input.

use crate::support;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions, RecallProfile};
use tinymemory_conformance::{
    DriverFactory, Family, FnFactory, LoadedCorpus, Outcome, Registry, Runner,
};
use tinymemory_corpus::Corpus;
use tinymemory_reference::SemanticReferenceDriver;

/// How a [`Broken`] double answers `recall`.
#[derive(Clone, Copy)]
enum Fault {
    /// Every other call moves each score by one ulp.
    OneUlpEveryOtherCall,
    /// Hits sorted by key, unscored: no ranking at all.
    KeyOrder,
    /// The ranking reversed, worst first, scores kept.
    WorstFirst,
    /// `min_score` honoured only for limits of 10 or more.
    MinScoreOnlyForBigLimits,
    /// The limit is applied before the category and session filters, as a
    /// vector store post-filtering its top-k does.
    FiltersAfterLimit,
    /// The top `limit` of the whole collection, then the pinned namespace's
    /// hits among them: a vector store's namespace filter applied to its
    /// top-k.
    NamespaceAfterLimit,
}

struct Broken {
    fault: Fault,
    calls: AtomicU64,
    inner: SemanticReferenceDriver,
}

tinymemory_api::delegate_provider! {
    impl MemoryProvider for Broken {
        forward(inner): store, get, forget, list, namespaces, store_many, export_page, import, interface;

        fn driver_id(&self) -> &str {
            "broken"
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let n = self.calls.fetch_add(1, Ordering::Relaxed);
            match self.fault {
                Fault::OneUlpEveryOtherCall => {
                    let mut hits = self.inner.recall(query, limit, opts).await?;
                    if n % 2 == 1 {
                        for h in &mut hits {
                            h.score = h.score.map(|s| f64::from_bits(s.to_bits() + 1));
                        }
                    }
                    Ok(hits)
                }
                Fault::KeyOrder => {
                    let mut hits = self.inner.recall(query, limit, opts).await?;
                    hits.sort_by(|a, b| a.key.cmp(&b.key));
                    for h in &mut hits {
                        h.score = None;
                    }
                    Ok(hits)
                }
                Fault::WorstFirst => {
                    let mut hits = self.inner.recall(query, limit, opts).await?;
                    hits.reverse();
                    Ok(hits)
                }
                Fault::MinScoreOnlyForBigLimits => {
                    let opts = RecallOptions {
                        min_score: opts.min_score.filter(|_| limit >= 10),
                        ..opts.clone()
                    };
                    self.inner.recall(query, limit, &opts).await
                }
                Fault::NamespaceAfterLimit => {
                    let mut all = Vec::new();
                    for summary in self.inner.namespaces().await? {
                        let there = RecallOptions {
                            namespace: Some(summary.namespace),
                            ..opts.clone()
                        };
                        all.extend(self.inner.recall(query, limit, &there).await?);
                    }
                    let score = |h: &MemoryEntry| h.score.unwrap_or(f64::NEG_INFINITY);
                    all.sort_by(|a, b| score(b).total_cmp(&score(a)));
                    all.truncate(limit);
                    all.retain(|h| h.namespace.as_deref() == Some(opts.effective_namespace()));
                    Ok(all)
                }
                Fault::FiltersAfterLimit => {
                    let unfiltered = RecallOptions {
                        category: None,
                        session_id: None,
                        ..opts.clone()
                    };
                    let mut hits = self.inner.recall(query, limit, &unfiltered).await?;
                    hits.retain(|h| {
                        opts.category.as_ref().is_none_or(|c| *c == h.category)
                            && opts
                                .session_id
                                .as_deref()
                                .is_none_or(|s| h.session_id.as_deref() == Some(s))
                    });
                    Ok(hits)
                }
            }
        }
    }
}

fn factory(fault: Fault) -> Arc<dyn DriverFactory> {
    Arc::new(
        FnFactory::new("broken", move || {
            Ok(Box::new(Broken {
                fault,
                calls: AtomicU64::new(0),
                inner: SemanticReferenceDriver::new(),
            }) as Box<dyn MemoryProvider>)
        })
        .with_profile(RecallProfile::Semantic),
    )
}

/// The message of check `id` run alone against `fault`; panics unless it
/// failed.
async fn failure(fault: Fault, id: &str) -> String {
    support::one_check::failure_of(factory(fault), id).await
}

#[tokio::test]
async fn deterministic_compares_score_bits() {
    let got = failure(Fault::OneUlpEveryOtherCall, "recall.deterministic").await;
    assert!(
        got.starts_with("recall(\"comet dust\", limit 10) in learning:determinism asked twice in a row answered [dusk ("),
        "{got}"
    );
    assert!(
        got.ends_with("the same recall must return the same hits with the same score bits"),
        "{got}"
    );
}

#[tokio::test]
async fn self_retrieval_needs_a_ranking() {
    let got = failure(Fault::KeyOrder, "recall.self_retrieval").await;
    assert_eq!(
        got,
        "recall(\"comet tail\") in learning:self, the content of \"short\" itself, must rank \"short\" first; \
         got [dusk (no score), lights (no score), long (no score), short (no score), valley (no score)]"
    );
}

#[tokio::test]
async fn ranking_higher_better_sees_rising_scores() {
    let got = failure(Fault::WorstFirst, "recall.ranking_higher_better").await;
    assert!(
        got.starts_with("hits for \"alpha beta gamma delta\" are [one ("),
        "{got}"
    );
    assert!(got.contains("a score rises down the list"), "{got}");
}

#[tokio::test]
async fn min_score_is_an_exact_filter_at_every_limit() {
    let got = failure(Fault::MinScoreOnlyForBigLimits, "recall.min_score").await;
    assert!(
        got.starts_with("recall(\"alpha beta gamma\", limit 2) with min_score = "),
        "{got}"
    );
}

#[tokio::test]
async fn limit_counts_after_the_filters() {
    let got = failure(Fault::FiltersAfterLimit, "recall.limit").await;
    assert_eq!(
        got,
        "hits for \"needle\" in learning:limit with limit 2 and category Daily (3 entries pass): expected 2, got 1; \
         filters (the namespace too) must apply before the limit, not to its top hits \
         (learning:limit-elsewhere holds 10 closer entries)"
    );
}

#[tokio::test]
async fn limit_counts_after_the_namespace_filter() {
    let got = failure(Fault::NamespaceAfterLimit, "recall.limit").await;
    assert_eq!(
        got,
        "hits for \"needle\" in learning:limit with limit 10 and no other filter (5 entries pass): expected 5, got 0; \
         filters (the namespace too) must apply before the limit, not to its top hits \
         (learning:limit-elsewhere holds 10 closer entries)"
    );
}

#[tokio::test]
async fn corpus_self_retrieval_needs_a_ranking() {
    let corpus = Corpus::load(&Corpus::default_root()).unwrap();
    let store: Box<dyn MemoryProvider> = Box::new(Broken {
        fault: Fault::KeyOrder,
        calls: AtomicU64::new(0),
        inner: SemanticReferenceDriver::new(),
    });
    let loaded = LoadedCorpus::load(store, &corpus).await.unwrap();
    let summary = Runner::new(
        Registry::standard()
            .family(Family::Corpus)
            .filter(|c| c.id == "corpus.self_retrieval"),
    )
    .run(factory(Fault::KeyOrder), Some(Arc::new(loaded)), |_| {})
    .await;
    let Outcome::Fail(f) = &summary.reports[0].outcome else {
        panic!("{:?}", summary.reports[0].outcome);
    };
    assert!(
        f.message.contains(" of 1926 entries recalled by their own content (pinned to their namespace) did not rank first"),
        "{}",
        f.message
    );
}
