//! The shared hostile-input table (`tinymemory_conformance::hostile`), run
//! through the same conformance checks as on the SQLite driver (its
//! `tests/hostile.rs`): one table and one set of assertions, not a copy.
//! Each check gets a fresh scratch schema.

use std::sync::Arc;

use tinymemory_conformance::{Outcome, Registry, Runner};

use crate::common::factory_or_skip;

/// The checks that run the hostile-input table, and the ones that match
/// namespaces exactly (`_` and `%` are never wildcards, case is kept).
const HOSTILE_CHECKS: [&str; 8] = [
    "namespace.invalid_refused",
    "key.invalid_refused",
    "key.limit_accepted",
    "store.hostile_text_round_trip",
    "store.big_content_round_trip",
    "recall.hostile_queries",
    "namespace.case_sensitive",
    "namespace.no_wildcards",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hostile_table_passes() {
    let factory = Arc::new(factory_or_skip!("hostile::the_hostile_table_passes"));
    let registry = Registry::standard().filter(|c| HOSTILE_CHECKS.contains(&c.id));
    assert_eq!(
        registry.len(),
        HOSTILE_CHECKS.len(),
        "a hostile check was renamed"
    );
    let summary = Runner::new(registry)
        .run(factory.clone(), None, |_| {})
        .await;
    let got: Vec<(&str, Outcome)> = summary
        .reports
        .into_iter()
        .map(|r| (r.id, r.outcome))
        .collect();
    let want: Vec<(&str, Outcome)> = HOSTILE_CHECKS
        .iter()
        .map(|id| (*id, Outcome::Pass))
        .collect();
    assert_eq!(got, want);
    factory.cleanup().await.unwrap();
}

/// The table's NUL-bearing texts, checked column by column against what
/// the server holds: `BYTEA`, byte for byte (see the crate docs on NUL).
#[tokio::test]
async fn nul_bearing_text_is_stored_as_its_exact_bytes() {
    use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};

    let factory = factory_or_skip!("hostile::nul_bearing_text_is_stored_as_its_exact_bytes");
    let d = crate::common::fresh(&factory).await;
    let nul_texts: Vec<&str> = tinymemory_conformance::hostile::HOSTILE_TEXT
        .iter()
        .map(|(_, t)| *t)
        .filter(|t| t.contains('\0'))
        .collect();
    assert!(!nul_texts.is_empty(), "the table has NUL texts");
    for t in &nul_texts {
        d.store(
            "hostile:nul",
            t,
            t,
            MemoryCategory::Custom((*t).to_owned()),
            Some(t),
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
    }
    let admin = crate::common::admin().await;
    let rows = admin
        .query(
            &format!(
                "SELECT key, content, category, session_id FROM \"{}\".memory_entries ORDER BY key",
                d.schema()
            ),
            &[],
        )
        .await
        .unwrap();
    let mut want: Vec<&str> = nul_texts.clone();
    want.sort_unstable();
    assert_eq!(rows.len(), want.len());
    for (row, t) in rows.iter().zip(&want) {
        assert_eq!(row.get::<_, Vec<u8>>(0), t.as_bytes());
        assert_eq!(row.get::<_, Vec<u8>>(1), t.as_bytes());
        assert_eq!(row.get::<_, Vec<u8>>(2), format!("custom:{t}").into_bytes());
        assert_eq!(
            row.get::<_, Option<Vec<u8>>>(3),
            Some(t.as_bytes().to_vec())
        );
    }
    factory.cleanup().await.unwrap();
}
