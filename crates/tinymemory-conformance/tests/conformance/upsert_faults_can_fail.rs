//! The faults a driver could have and still pass (issue 22): each fails
//! its named check on every path and field it can take, with a message
//! naming the path, the field and the cause, and the in-tree drivers pass
//! the same checks.

use crate::support;

use std::sync::Arc;

use tinymemory_api::{MemoryProvider, RecallProfile};
use tinymemory_conformance::{DriverFactory, FnFactory, Outcome, Registry, Runner};
use tinymemory_doubles::mutants::{
    Bm25SignAsMatch, DefaultFields, DefaultsAsAbsent, ReservesName, StaleIndex, UpsertPath,
    ZeroQueryNan,
};
use tinymemory_reference::{ReferenceDriver, SemanticReferenceDriver};
use tinymemory_sqlite::SqliteDriver;

use support::one_check::failure_of;

fn lexical(
    name: &str,
    wrap: impl Fn(Box<dyn MemoryProvider>) -> Box<dyn MemoryProvider> + Send + Sync + 'static,
) -> Arc<dyn DriverFactory> {
    Arc::new(FnFactory::new(name, move || {
        Ok(wrap(Box::new(ReferenceDriver::new())))
    }))
}

fn semantic(
    name: &str,
    wrap: impl Fn(Box<dyn MemoryProvider>) -> Box<dyn MemoryProvider> + Send + Sync + 'static,
) -> Arc<dyn DriverFactory> {
    Arc::new(
        FnFactory::new(name, move || {
            Ok(wrap(Box::new(SemanticReferenceDriver::new())))
        })
        .with_profile(RecallProfile::Semantic),
    )
}

/// The outcome of check `id` alone against `factory`.
async fn outcome_of(factory: Arc<dyn DriverFactory>, id: &str) -> Outcome {
    let summary = Runner::new(Registry::standard().filter(|c| c.id == id))
        .run(factory, None, |_| {})
        .await;
    summary.reports[0].outcome.clone()
}

const NEW_CHECKS: [&str; 5] = [
    "store.upsert_replaces_metadata",
    "portability.taint_kept",
    "recall.reindexed_on_upsert",
    "namespace.reserved_words",
    "recall.plain_text_query",
];

#[tokio::test]
async fn the_in_tree_drivers_pass_the_extended_checks() {
    let sqlite: Arc<dyn DriverFactory> = Arc::new(FnFactory::new("sqlite", || {
        Ok(Box::new(SqliteDriver::open_in_memory()?) as Box<dyn MemoryProvider>)
    }));
    let sqlite_semantic: Arc<dyn DriverFactory> = Arc::new(
        FnFactory::new("sqlite", || {
            Ok(Box::new(SqliteDriver::open_in_memory()?) as Box<dyn MemoryProvider>)
        })
        .with_profile(RecallProfile::Semantic),
    );
    for factory in [
        lexical("reference", |p| p),
        semantic("semantic-reference", |p| p),
        sqlite,
        sqlite_semantic,
    ] {
        for id in NEW_CHECKS {
            assert_eq!(
                outcome_of(Arc::clone(&factory), id).await,
                Outcome::Pass,
                "{id} on {} ({})",
                factory.driver_id(),
                factory.recall_profile()
            );
        }
    }
}

#[tokio::test]
async fn a_default_read_as_not_given_fails_on_every_path_and_field() {
    let fields = [
        (DefaultFields::CATEGORY, "category custom:projects"),
        (DefaultFields::SESSION, "session Some(\"session-1\")"),
        (DefaultFields::TAINT, "taint external_sync"),
    ];
    for (path, check, name) in [
        (UpsertPath::Store, "store.upsert_replaces_metadata", "store"),
        (
            UpsertPath::StoreMany,
            "store.upsert_replaces_metadata",
            "store_many",
        ),
        (UpsertPath::Import, "portability.taint_kept", "import"),
    ] {
        for (field, kept) in fields {
            let factory = lexical("patch", move |p| {
                Box::new(DefaultsAsAbsent::new(path, field, p))
            });
            let message = failure_of(factory, check).await;
            // The store path's session and taint, and the import path's
            // taint, are caught by the older steps of the checks (daily,
            // None, internal over other values; a second import as
            // internal).
            if (path == UpsertPath::Store && field != DefaultFields::CATEGORY)
                || (path == UpsertPath::Import && field == DefaultFields::TAINT)
            {
                continue;
            }
            let kept = if path == UpsertPath::Import {
                kept.replace("custom:projects", "custom:synced")
                    .replace("session-1", "session-9")
            } else {
                kept.to_owned()
            };
            assert!(
                message.starts_with(&format!("{name} of (")),
                "{name} {field:?}: {message}"
            );
            assert!(
                message.contains(
                    "with category core, no session and taint internal over an entry of "
                ) && message.contains(&format!(
                    "kept {kept}: a field holding its default is a value given"
                )),
                "{name} {field:?}: {message}"
            );
        }
    }
    let all = lexical("patch", |p| {
        Box::new(DefaultsAsAbsent::new(
            UpsertPath::StoreMany,
            DefaultFields::ALL,
            p,
        ))
    });
    assert_eq!(
        failure_of(all, "store.upsert_replaces_metadata").await,
        "store_many of (learning:defaults, \"by-store-many\") with category core, no session and \
         taint internal over an entry of custom:projects, session-1, external_sync kept category \
         custom:projects, session Some(\"session-1\"), taint external_sync: a field holding its \
         default is a value given, not a field left out (an update with patch semantics keeps \
         the old value)"
    );
}

#[tokio::test]
async fn a_stale_index_fails_on_every_path_and_profile() {
    for (path, name) in [
        (UpsertPath::Store, "store"),
        (UpsertPath::StoreMany, "store_many"),
        (UpsertPath::Import, "import"),
    ] {
        for (factory, kept) in [
            (
                semantic("stale", move |p| Box::new(StaleIndex::new(&[path], p))),
                "re-embed the new content, not keep the first one's vector",
            ),
            (
                lexical("stale", move |p| Box::new(StaleIndex::new(&[path], p))),
                "re-index the new content, not keep the first one's terms",
            ),
        ] {
            let message = failure_of(factory, "recall.reindexed_on_upsert").await;
            assert!(
                message.starts_with(&format!(
                    "after {name} of \"granite quarry beneath windswept ridge\" over (learning:reindex-"
                )),
                "{message}"
            );
            // In the words of the run's profile.
            assert!(
                message.ends_with(&format!(
                    "the index still holds the content the upsert replaced: an upsert must {kept}"
                )),
                "{message}"
            );
        }
    }
}

#[tokio::test]
async fn a_reserved_first_label_fails_naming_the_word() {
    let factory = lexical("langgraph", |p| Box::new(ReservesName::langgraph(p)));
    assert_eq!(
        failure_of(factory, "namespace.reserved_words").await,
        "store(\"langgraph\", \"langgraph\") failed: backend failure: root label for namespace \
         cannot be \"langgraph\", got \"langgraph\"; a valid name is an ordinary namespace (or \
         key) whatever word it is: an engine that reserves the word (a root label, a table, \
         schema or collection name, an SQL keyword) must map names so that none collides with \
         it (quote identifiers, or prefix them)"
    );
}

#[tokio::test]
async fn a_zero_vector_query_names_the_cause() {
    let factory = semantic("zero", |p| Box::new(ZeroQueryNan::new(p)));
    assert_eq!(
        failure_of(factory, "recall.plain_text_query").await,
        "query \"\\\"\" gave \"dont\" the non-finite score Some(NaN): scores, when present, are \
         finite (this query is not blank but holds no word, so a bag-of-words or hashed \
         embedding of it is the zero vector: a cosine similarity against it divides by a zero \
         norm, giving NaN, and some engines refuse a zero vector outright. Answer such a query \
         with no hits, or score every entry 0, never an error or NaN)"
    );
}

#[tokio::test]
async fn a_refused_zero_vector_names_the_cause_under_semantic_only() {
    let cause = "(this query is not blank but holds no word, so a bag-of-words or hashed \
                 embedding of it is the zero vector";
    let semantic = semantic("zero", |p| Box::new(ZeroQueryNan::refusing(p)));
    let message = failure_of(semantic, "recall.plain_text_query").await;
    assert!(
        message.starts_with(
            "query \"\\\"\" (1 bytes) is plain text but recall failed: backend failure: \
             cannot search with a zero vector: the query's norm is 0 "
        ) && message.contains(cause),
        "{message}"
    );
    // A full-text engine has no embedding: its error is its parser's.
    let lexical = lexical("zero", |p| Box::new(ZeroQueryNan::refusing(p)));
    let message = failure_of(lexical, "recall.plain_text_query").await;
    assert_eq!(
        message,
        "query \"\\\"\" (1 bytes) is plain text but recall failed: backend failure: cannot \
         search with a zero vector: the query's norm is 0"
    );
}

#[tokio::test]
async fn a_bm25_sign_test_names_the_cause() {
    let factory = lexical("bm25", |p| Box::new(Bm25SignAsMatch::new(p)));
    assert_eq!(
        failure_of(factory, "recall.none_means_global").await,
        "recall(namespace: None) hits: expected [\"g\"], got [] (a lexical recall missed \
         entries holding a query word: the usual causes are words split only at spaces, so \
         that `near(` or `scope,` is not the word `near` or `scope` (split as the contract \
         does: tinymemory.protocol.words, tinymemory_api::text::words), and a BM25 score of 0 \
         or below used as the test for \"shares a word\"; BM25's IDF is 0 or negative for a word held by half \
         the entries of a namespace or more, so a popular BM25 library scores a match -0.27 in \
         a one-entry namespace. Test whether the entry holds a query word, not the sign of its \
         score)"
    );
}
