//! The section API over the reference driver, with exact expected values.

use tinymemory_api::{
    rules, MemoryCategory, MemoryProvider, MemorySection, MemoryTaint, RecallOptions,
};
use tinymemory_reference::ReferenceDriver;
use tinymemory_sections::{Sections, NAMESPACE_FILTER_CONFLICT};

async fn put(d: &ReferenceDriver, section: &MemorySection, scope: &str, key: &str, text: &str) {
    Sections::new(d)
        .section(section)
        .put(
            scope,
            key,
            text,
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn custom_spelling_of_conversation_is_the_conversation_view() {
    let d = ReferenceDriver::new();
    let sections = Sections::new(&d);
    let custom = sections.section(&MemorySection::Custom("conversation".into()));
    assert_eq!(custom.section(), &MemorySection::Conversation);
    custom
        .put(
            "thread-8f21",
            "turn-1",
            "hello",
            MemoryCategory::Conversation,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
    assert_eq!(
        d.get("conversation:thread-8f21", "turn-1")
            .await
            .unwrap()
            .map(|e| e.content),
        Some("hello".to_owned())
    );
    let scopes = sections.conversations().scopes().await.unwrap();
    assert_eq!(scopes.len(), 1);
    assert_eq!(scopes[0].scope, "thread-8f21");
    assert_eq!(scopes[0].namespace, "conversation:thread-8f21");
    assert_eq!(scopes[0].count, 1);
}

#[tokio::test]
async fn an_invalid_section_errors_on_every_call() {
    let d = ReferenceDriver::new();
    put(&d, &MemorySection::Learning, "x", "k", "some text").await;
    let sections = Sections::new(&d);
    for bad in ["Bad Prefix", "", "a:b"] {
        let view = sections.section(&MemorySection::Custom(bad.into()));
        let opts = RecallOptions::default();
        let cat = MemoryCategory::Core;
        let rules_seen = [
            view.put("s", "k", "c", cat.clone(), None, MemoryTaint::Internal)
                .await
                .unwrap_err()
                .rule(),
            view.get("s", "k").await.unwrap_err().rule(),
            view.forget("s", "k").await.unwrap_err().rule(),
            view.list("s", None, None).await.unwrap_err().rule(),
            view.recall("s", "text", 5, &opts).await.unwrap_err().rule(),
            view.scopes().await.unwrap_err().rule(),
            view.list_section(None, None).await.unwrap_err().rule(),
            view.across("text", 5, &opts).await.unwrap_err().rule(),
            sections
                .recall()
                .across_section(&MemorySection::Custom(bad.into()), "text", 5, &opts)
                .await
                .unwrap_err()
                .rule(),
        ];
        assert_eq!(rules_seen, [Some(rules::SECTION_PREFIX); 9], "{bad:?}");
    }
}

#[tokio::test]
async fn across_section_refuses_a_namespace_filter() {
    let d = ReferenceDriver::new();
    let err = Sections::new(&d)
        .recall()
        .across_section(
            &MemorySection::Learning,
            "q",
            5,
            &RecallOptions::in_namespace("learning:x"),
        )
        .await
        .unwrap_err();
    assert_eq!(err.rule(), Some(NAMESPACE_FILTER_CONFLICT));
}

#[tokio::test]
async fn cap_visits_by_count_then_name_and_reports_truncation() {
    let d = ReferenceDriver::new();
    let l = MemorySection::Learning;
    for (scope, n) in [("c", 2), ("a", 1), ("b", 2), ("d", 3)] {
        for i in 0..n {
            put(&d, &l, scope, &format!("k{i}"), "shared word").await;
        }
    }
    put(&d, &MemorySection::Document, "z", "k", "shared word").await;
    let recall = Sections::new(&d).recall();
    let opts = RecallOptions::default();

    let capped = recall
        .with_cap(2)
        .across_section(&l, "shared", 100, &opts)
        .await
        .unwrap();
    assert_eq!(capped.searched, ["learning:d", "learning:b"]);
    assert!(capped.truncated);
    assert_eq!(capped.hits.len(), 5);

    let all = recall.across_section(&l, "shared", 3, &opts).await.unwrap();
    assert_eq!(
        all.searched,
        ["learning:d", "learning:b", "learning:c", "learning:a"]
    );
    assert!(!all.truncated, "hits cut by the limit are not truncation");
    let keys: Vec<_> = all
        .hits
        .iter()
        .map(|h| format!("{}/{}", h.namespace.as_deref().unwrap(), h.key))
        .collect();
    // All scores tie at 1.0, so the order is (namespace, key).
    assert_eq!(keys, ["learning:a/k0", "learning:b/k0", "learning:b/k1"]);
}

#[tokio::test]
async fn merge_is_by_score_across_namespaces() {
    let d = ReferenceDriver::new();
    let l = MemorySection::Learning;
    put(&d, &l, "one", "half", "rust only").await;
    put(&d, &l, "two", "full", "rust async").await;
    put(&d, &l, "two", "none", "python").await;
    let hits = Sections::new(&d)
        .recall()
        .with_concurrency(1)
        .across_section(&l, "rust async", 10, &RecallOptions::default())
        .await
        .unwrap();
    let got: Vec<_> = hits
        .hits
        .iter()
        .map(|h| (h.key.as_str(), h.score))
        .collect();
    assert_eq!(got, [("full", Some(1.0)), ("half", Some(0.5))]);
    assert_eq!(hits.searched, ["learning:two", "learning:one"]);
}

#[tokio::test]
async fn limit_zero_is_empty_and_list_section_is_ordered() {
    let d = ReferenceDriver::new();
    let l = MemorySection::Learning;
    put(&d, &l, "b", "k2", "x").await;
    put(&d, &l, "a", "k1", "x").await;
    put(&d, &MemorySection::Document, "a", "k0", "x").await;
    let view = Sections::new(&d).learnings();
    let hits = view
        .across("x", 0, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(hits, tinymemory_sections::SectionHits::default());
    let listed: Vec<_> = view
        .list_section(None, None)
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.namespace.unwrap(), e.key))
        .collect();
    assert_eq!(
        listed,
        [
            ("learning:a".to_owned(), "k1".to_owned()),
            ("learning:b".to_owned(), "k2".to_owned())
        ]
    );
}

#[tokio::test]
async fn output_length_is_min_of_limit_and_total() {
    let d = ReferenceDriver::new();
    let l = MemorySection::Learning;
    for i in 0..8 {
        put(&d, &l, "eight", &format!("k{i}"), "match me").await;
    }
    let recall = Sections::new(&d).recall();
    let opts = RecallOptions::default();
    let mut lens = Vec::new();
    for limit in [2, 7, 20] {
        lens.push(
            recall
                .across_section(&l, "match", limit, &opts)
                .await
                .unwrap()
                .hits
                .len(),
        );
    }
    assert_eq!(lens, [2, 7, 8]);

    for i in 0..3 {
        put(&d, &l, "three", &format!("k{i}"), "match me").await;
    }
    let five = recall.across_section(&l, "match", 5, &opts).await.unwrap();
    assert_eq!(five.hits.len(), 5);
    assert_eq!(five.searched, ["learning:eight", "learning:three"]);
}

#[tokio::test]
async fn scopes_differing_only_in_case_stay_distinct() {
    let d = ReferenceDriver::new();
    let l = MemorySection::Learning;
    put(&d, &l, "A", "k", "upper case scope").await;
    put(&d, &l, "a", "k", "lower case scope").await;
    let view = Sections::new(&d).learnings();
    let scopes: Vec<_> = view
        .scopes()
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    assert_eq!(
        scopes,
        [("learning:A".to_owned(), 1), ("learning:a".to_owned(), 1)]
    );
    assert_eq!(
        view.get("A", "k").await.unwrap().unwrap().content,
        "upper case scope"
    );
    assert_eq!(
        view.get("a", "k").await.unwrap().unwrap().content,
        "lower case scope"
    );
    let hits = view
        .across("scope", 10, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(hits.searched, ["learning:A", "learning:a"]);
    assert_eq!(hits.hits.len(), 2);
}

#[tokio::test]
async fn reciprocal_rank_fusion_interleaves_namespaces_by_rank() {
    use tinymemory_sections::MergeStrategy;
    let d = ReferenceDriver::new();
    let l = MemorySection::Learning;
    put(&d, &l, "a", "a1", "rust async").await;
    put(&d, &l, "a", "a2", "rust").await;
    put(&d, &l, "b", "b1", "rust async tokio").await;
    let hits = Sections::new(&d)
        .recall()
        .with_merge(MergeStrategy::reciprocal_rank())
        .across_section(&l, "rust async", 10, &RecallOptions::default())
        .await
        .unwrap();
    let got: Vec<_> = hits
        .hits
        .iter()
        .map(|h| (h.key.as_str(), h.score))
        .collect();
    assert_eq!(
        got,
        [
            ("a1", Some(1.0 / 61.0)),
            ("b1", Some(1.0 / 61.0)),
            ("a2", Some(1.0 / 62.0))
        ]
    );
}

#[test]
fn the_recall_settings_read_back_as_set() {
    use tinymemory_sections::{MergeStrategy, DEFAULT_CONCURRENCY, MAX_SECTION_NAMESPACES};
    let d = ReferenceDriver::new();
    let recall = Sections::new(&d).recall();
    assert_eq!(
        (recall.cap(), recall.concurrency(), recall.merge()),
        (
            MAX_SECTION_NAMESPACES,
            DEFAULT_CONCURRENCY,
            MergeStrategy::Score
        )
    );
    assert_eq!((MAX_SECTION_NAMESPACES, DEFAULT_CONCURRENCY), (64, 16));
    let tuned = recall
        .with_cap(3)
        .with_concurrency(5)
        .with_merge(MergeStrategy::ReciprocalRank { k: 60 });
    assert_eq!(
        (tuned.cap(), tuned.concurrency(), tuned.merge()),
        (3, 5, MergeStrategy::ReciprocalRank { k: 60 })
    );
    // A bound of 0 would never run a recall: it is raised to 1.
    assert_eq!(
        Sections::new(&d).recall().with_concurrency(0).concurrency(),
        1
    );
}

#[tokio::test]
async fn a_view_recall_searches_its_own_scope_only() {
    let d = ReferenceDriver::new();
    for (ns, key) in [
        ("global", "g"),
        ("learning:lights", "l"),
        ("learning:other", "o"),
        ("document:lights", "x"),
    ] {
        d.store(
            ns,
            key,
            "a lantern",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
    }
    let hits = Sections::new(&d)
        .learnings()
        .recall("lights", "lantern", 10, &RecallOptions::default())
        .await
        .unwrap();
    let got: Vec<(Option<&str>, &str)> = hits
        .iter()
        .map(|h| (h.namespace.as_deref(), h.key.as_str()))
        .collect();
    assert_eq!(got, [(Some("learning:lights"), "l")]);
}
