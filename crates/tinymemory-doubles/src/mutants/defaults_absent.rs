//! Mutants `default-category-kept`, `defaults-kept-by-store-many` and
//! `defaults-kept-by-import`, for `store.upsert_replaces_metadata` and
//! `portability.taint_kept`.

use tinymemory_api::portability::{validate_record, ImportOutcome, MemoryRecord};
use tinymemory_api::{MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, NewEntry};

/// The write path a mutant of upserts breaks; the other two are forwarded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpsertPath {
    /// `store`.
    Store,
    /// `store_many`.
    StoreMany,
    /// `import`.
    Import,
}

/// The fields with a default that a [`DefaultsAsAbsent`] reads as "not
/// given" when they hold it: category `Core`, session `None`, taint
/// `Internal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefaultFields {
    /// [`MemoryCategory::Core`] keeps the stored category.
    pub category: bool,
    /// No session keeps the stored session.
    pub session: bool,
    /// [`MemoryTaint::Internal`] keeps the stored taint.
    pub taint: bool,
}

impl DefaultFields {
    /// Every field with a default.
    pub const ALL: Self = Self {
        category: true,
        session: true,
        taint: true,
    };
    /// The category alone.
    pub const CATEGORY: Self = Self {
        category: true,
        session: false,
        taint: false,
    };
    /// The session alone.
    pub const SESSION: Self = Self {
        category: false,
        session: true,
        taint: false,
    };
    /// The taint alone.
    pub const TAINT: Self = Self {
        category: false,
        session: false,
        taint: true,
    };
}

/// Breaks "an upsert replaces category, session and taint" for values
/// equal to their default (checks `store.upsert_replaces_metadata` and
/// `portability.taint_kept`): on one [`UpsertPath`], a write over an
/// existing entry whose category is `Core`, whose session is `None` or
/// whose taint is `Internal` (each as [`DefaultFields`] selects) keeps the
/// stored value instead, as a driver with patch semantics does when it
/// cannot tell a default from a field left out.
///
/// A write of a new key, a write of non-default values, and the other two
/// paths are the wrapped driver's. In `store_many` and `import`, each
/// entry is patched against what was stored before the call.
#[derive(Debug, Clone)]
pub struct DefaultsAsAbsent<P: ?Sized> {
    path: UpsertPath,
    fields: DefaultFields,
    inner: P,
}

impl<P> DefaultsAsAbsent<P> {
    /// Wraps `inner`, breaking `path` for `fields`.
    #[must_use]
    pub fn new(path: UpsertPath, fields: DefaultFields, inner: P) -> Self {
        Self {
            path,
            fields,
            inner,
        }
    }
}

impl<P: ?Sized> DefaultsAsAbsent<P> {
    /// The path broken.
    #[must_use]
    pub fn path(&self) -> UpsertPath {
        self.path
    }

    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }
}

impl<P: MemoryProvider + ?Sized> DefaultsAsAbsent<P> {
    /// `(category, session, taint)` as written over the stored entry at
    /// `(namespace, key)`, if any: each selected default replaced by the
    /// stored value. A lookup that fails (an invalid namespace) patches
    /// nothing, so the wrapped driver refuses the write as it would.
    async fn patched(
        &self,
        namespace: &str,
        key: &str,
        category: MemoryCategory,
        session_id: Option<String>,
        taint: MemoryTaint,
    ) -> (MemoryCategory, Option<String>, MemoryTaint) {
        let Ok(Some(old)) = self.inner.get(namespace, key).await else {
            return (category, session_id, taint);
        };
        let f = self.fields;
        (
            if f.category && category == MemoryCategory::Core {
                old.category
            } else {
                category
            },
            if f.session && session_id.is_none() {
                old.session_id
            } else {
                session_id
            },
            if f.taint && taint == MemoryTaint::Internal {
                old.taint
            } else {
                taint
            },
        )
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; the write path of [`DefaultsAsAbsent::path`]
    /// patches defaults.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for DefaultsAsAbsent<P> {
        forward(inner): driver_id, get, forget, list, namespaces, recall, export_page, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            if self.path != UpsertPath::Store {
                return self
                    .inner
                    .store(namespace, key, content, category, session_id, taint)
                    .await;
            }
            let (category, session, taint) = self
                .patched(
                    namespace,
                    key,
                    category,
                    session_id.map(str::to_owned),
                    taint,
                )
                .await;
            self.inner
                .store(namespace, key, content, category, session.as_deref(), taint)
                .await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            if self.path != UpsertPath::StoreMany {
                return self.inner.store_many(entries).await;
            }
            let mut patched = Vec::with_capacity(entries.len());
            for e in entries {
                let (category, session_id, taint) = self
                    .patched(
                        &e.namespace,
                        &e.key,
                        e.category.clone(),
                        e.session_id.clone(),
                        e.taint,
                    )
                    .await;
                patched.push(NewEntry {
                    category,
                    session_id,
                    taint,
                    ..e.clone()
                });
            }
            self.inner.store_many(&patched).await
        }

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            if self.path != UpsertPath::Import {
                return self.inner.import(records).await;
            }
            let mut patched = Vec::with_capacity(records.len());
            for r in records {
                if validate_record(r).is_err() {
                    patched.push(r.clone());
                    continue;
                }
                let (category, session_id, taint) = self
                    .patched(
                        &r.namespace,
                        &r.key,
                        r.category.clone(),
                        r.session_id.clone(),
                        r.taint,
                    )
                    .await;
                patched.push(MemoryRecord {
                    category,
                    session_id,
                    taint,
                    ..r.clone()
                });
            }
            self.inner.import(&patched).await
        }
    }
}

/// The witness of the two mutants that keep metadata under the defaults:
/// an entry of category daily, session `s1` and taint external sync, then
/// the defaults written over it through `path` (store_many or import);
/// renders what `get` then gives as `Some((category, session, taint))`.
async fn over_the_defaults(
    d: &dyn MemoryProvider,
    path: UpsertPath,
) -> Result<String, MemoryError> {
    d.store(
        "global",
        "k",
        "note",
        MemoryCategory::Daily,
        Some("s1"),
        MemoryTaint::ExternalSync,
    )
    .await?;
    match path {
        UpsertPath::Import => {
            d.import(&[super::witness::record("global", "k", MemoryTaint::Internal)])
                .await?;
        }
        UpsertPath::Store | UpsertPath::StoreMany => {
            d.store_many(&[NewEntry::new("global", "k", "note")]).await?;
        }
    }
    let got = d.get("global", "k").await?;
    Ok(format!(
        "{:?}",
        got.map(|e| (e.category, e.session_id, e.taint))
    ))
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "default-category-kept",
        rule: "contract 1: an upsert replaces the category, the default core included; metadata is never merged",
        check: "store.upsert_replaces_metadata",
        also_caught_by: &["properties.store_many_matches_store", "model.differential"],
        description: "a store of category core over an entry of another category keeps the old one, as patch semantics reading the default as not given do",
        wrap: DefaultsAsAbsent::new(UpsertPath::Store, DefaultFields::CATEGORY),
        profile: Lexical,
        witness: |d| {
            use super::witness::put_as;
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            put_as(
                d,
                "global",
                "k",
                MemoryCategory::Custom("projects".into()),
                MemoryTaint::Internal,
            )
            .await?;
            put_as(
                d,
                "global",
                "k",
                MemoryCategory::Core,
                MemoryTaint::Internal,
            )
            .await?;
            Ok(format!(
                "{:?}",
                d.get("global", "k").await?.map(|e| e.category)
            ))
        },
        reference: "Some(Core)",
        mutant: r#"Some(Custom("projects"))"#,
    },
    entry! {
        name: "defaults-kept-by-store-many",
        rule: "bulk store: an entry of a batch replaces category, session and taint, defaults included",
        check: "store.upsert_replaces_metadata",
        also_caught_by: &["portability.store_after_import"],
        description: "store_many over existing keys keeps the stored category, session and taint where the entry gives core, no session or internal",
        wrap: DefaultsAsAbsent::new(UpsertPath::StoreMany, DefaultFields::ALL),
        profile: Lexical,
        witness: |d| { over_the_defaults(d, UpsertPath::StoreMany).await },
        reference: "Some((Core, None, Internal))",
        mutant: r#"Some((Daily, Some("s1"), ExternalSync))"#,
    },
    entry! {
        name: "defaults-kept-by-import",
        rule: "portability: an import replaces category, session and taint, defaults included",
        check: "portability.taint_kept",
        also_caught_by: &[],
        description: "import over existing keys keeps the stored category, session and taint where the record gives core, no session or internal",
        wrap: DefaultsAsAbsent::new(UpsertPath::Import, DefaultFields::ALL),
        profile: Lexical,
        witness: |d| { over_the_defaults(d, UpsertPath::Import).await },
        reference: "Some((Core, None, Internal))",
        mutant: r#"Some((Daily, Some("s1"), ExternalSync))"#,
    },
];
