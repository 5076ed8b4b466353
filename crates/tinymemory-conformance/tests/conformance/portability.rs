//! The portability family on the reference drivers, on a driver without
//! `import`, and on the null driver.

use std::sync::Arc;

use async_trait::async_trait;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    RecallOptions, RecallProfile,
};
use tinymemory_conformance::{
    DriverFactory, Family, FnFactory, Outcome, Registry, RunConfig, Runner,
};
use tinymemory_doubles::mutants::{KeepsImportedTimestamp, MetadataFault, MetadataFaultKind};
use tinymemory_reference::{ReferenceDriver, SemanticReferenceDriver};

use crate::support::one_check::failure_of;

const IDS: [&str; 12] = [
    "portability.pages_partition",
    "portability.end_of_export",
    "portability.page_limits",
    "portability.unknown_cursor",
    "portability.cursor_stable",
    "portability.round_trip",
    "portability.taint_kept",
    "portability.import_hostile",
    "portability.import_failures",
    "portability.store_after_import",
    "properties.export_partition",
    "properties.export_round_trip",
];

fn registry() -> Registry {
    Registry::standard().filter(|c| IDS.contains(&c.id))
}

async fn outcomes(factory: impl DriverFactory + 'static) -> Vec<(&'static str, Outcome)> {
    let summary = Runner::new(registry())
        .with_config(RunConfig { seed: 7, cases: 16 })
        .run(Arc::new(factory), None, |_| {})
        .await;
    summary
        .reports
        .iter()
        .map(|r| (r.id, r.outcome.clone()))
        .collect()
}

#[test]
fn the_family_has_these_checks_in_this_order() {
    let ids: Vec<&str> = registry().checks().iter().map(|c| c.id).collect();
    assert_eq!(ids, IDS);
    let portability: Vec<&str> = Registry::standard()
        .family(Family::Portability)
        .checks()
        .iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(portability, IDS[..10]);
}

#[tokio::test]
async fn both_reference_drivers_pass_every_portability_check() {
    let lexical = FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    });
    let semantic = FnFactory::new("semantic-reference", || {
        Ok(Box::new(SemanticReferenceDriver::new()) as Box<dyn MemoryProvider>)
    })
    .with_profile(RecallProfile::Semantic);
    let want: Vec<_> = IDS.iter().map(|id| (*id, Outcome::Pass)).collect();
    assert_eq!(outcomes(lexical).await, want);
    assert_eq!(outcomes(semantic).await, want);
}

/// The reference driver with the trait's default `export_page` (over
/// `list`) and `import` (`Unsupported`).
struct NoImport(ReferenceDriver);

#[async_trait]
impl MemoryProvider for NoImport {
    fn driver_id(&self) -> &str {
        "no-import"
    }
    async fn store(
        &self,
        namespace: &str,
        key: &str,
        content: &str,
        category: MemoryCategory,
        session_id: Option<&str>,
        taint: MemoryTaint,
    ) -> Result<(), MemoryError> {
        self.0
            .store(namespace, key, content, category, session_id, taint)
            .await
    }
    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        self.0.get(namespace, key).await
    }
    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        self.0.forget(namespace, key).await
    }
    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.0.list(namespace, category, session_id).await
    }
    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        self.0.namespaces().await
    }
    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.0.recall(query, limit, opts).await
    }
}

#[tokio::test]
async fn the_default_export_passes_and_a_missing_import_skips_naming_why() {
    let got = outcomes(FnFactory::new("no-import", || {
        Ok(Box::new(NoImport(ReferenceDriver::new())) as Box<dyn MemoryProvider>)
    }))
    .await;
    let skip = Outcome::Skip(
        "the driver does not provide the portability family: unsupported (portability): \
         driver \"no-import\" does not import records"
            .into(),
    );
    let want: Vec<(&str, Outcome)> = IDS
        .iter()
        .enumerate()
        .map(|(i, id)| {
            (
                *id,
                if i < 5 || i == 10 {
                    Outcome::Pass
                } else {
                    skip.clone()
                },
            )
        })
        .collect();
    // The partition property needs no import, yet skips: it asks the
    // family as a whole, so a run never holds a half-provided family.
    let want: Vec<(&str, Outcome)> = want
        .into_iter()
        .map(|(id, o)| {
            if id == "properties.export_partition" {
                (id, skip.clone())
            } else {
                (id, o)
            }
        })
        .collect();
    assert_eq!(got, want);
}

#[tokio::test]
async fn the_null_driver_fails_what_needs_stored_data() {
    let got = outcomes(FnFactory::new("null", || {
        Ok(Box::new(tinymemory_doubles::NullDriver::new()) as Box<dyn MemoryProvider>)
    }))
    .await;
    let labels: Vec<(&str, &str)> = got.iter().map(|(id, o)| (*id, o.label())).collect();
    assert_eq!(
        labels,
        [
            ("portability.pages_partition", "fail"),
            ("portability.end_of_export", "fail"),
            ("portability.page_limits", "fail"),
            // Refusing a cursor needs no data.
            ("portability.unknown_cursor", "pass"),
            ("portability.cursor_stable", "fail"),
            ("portability.round_trip", "fail"),
            ("portability.taint_kept", "fail"),
            ("portability.import_hostile", "fail"),
            ("portability.import_failures", "fail"),
            ("portability.store_after_import", "fail"),
            ("properties.export_partition", "skip"),
            ("properties.export_round_trip", "skip"),
        ]
    );
    assert_eq!(
        got[0].1.message(),
        Some("list(None, ..) returned 0 entries after 42 stores of distinct (namespace, key)")
    );
}

#[tokio::test]
async fn a_store_keeping_the_imported_timestamp_fails_naming_both() {
    let factory = Arc::new(FnFactory::new("keeps-imported-timestamp", || {
        Ok(
            Box::new(KeepsImportedTimestamp::new(ReferenceDriver::new()))
                as Box<dyn MemoryProvider>,
        )
    }));
    let message = failure_of(factory, "portability.store_after_import").await;
    assert!(
        message.starts_with(
            "get(learning:restamp, \"by-store\") gives the timestamp \"2001-01-01T00:00:00Z\" \
             after an import of it stamped \"2001-01-01T00:00:00Z\" then a store that ran between "
        ),
        "{message}"
    );
    assert!(
        message.ends_with(
            ": a store over a key an import wrote stamps the time of the store, not the imported \
             timestamp"
        ),
        "{message}"
    );
}

#[tokio::test]
async fn a_store_merging_into_the_imported_fields_fails_naming_the_kept_one() {
    let factory = Arc::new(FnFactory::new("merges", || {
        Ok(Box::new(MetadataFault::new(
            MetadataFaultKind::MergesMetadataOnUpsert,
            ReferenceDriver::new(),
        )) as Box<dyn MemoryProvider>)
    }));
    let message = failure_of(factory, "portability.store_after_import").await;
    assert_eq!(
        message,
        "get gives (learning:restamp, \"by-store\") the (content, category, session, taint) \
         (\"stored lantern note\", Daily, Some(\"session-9\"), Internal) after importing \
         (\"imported lantern note\", custom:synced, session-9, external_sync) then a store of \
         (\"stored lantern note\", Daily, None, Internal): a store over an imported key gives \
         every field anew, as over a stored one"
    );
}
