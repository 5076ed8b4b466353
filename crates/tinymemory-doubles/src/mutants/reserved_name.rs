//! Mutant `reserves-own-name`, for `namespace.reserved_words`.

use tinymemory_api::portability::{ImportFailure, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NewEntry, RecallOptions,
};

use crate::import_each::absorb;

/// The word [`ReservesName::langgraph`] reserves: one agent framework's
/// store refuses a namespace whose root label is its own name.
pub const LANGGRAPH: &str = "langgraph";

/// The first label of `namespace`: the text before its first character
/// that is not an ASCII letter, digit, `-` or `_` (`:`, `/`, `.`, `@`,
/// `+`), so `langgraph`, `langgraph:notes` and `langgraph/a` all start
/// with `langgraph`.
#[must_use]
pub fn first_label(namespace: &str) -> &str {
    let end = namespace
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(namespace.len());
    &namespace[..end]
}

/// Breaks "any valid namespace is a namespace" (check
/// `namespace.reserved_words`): a namespace whose [`first_label`] is the
/// reserved word is refused with a backend error on every method that
/// takes one, as an engine that keeps that label for itself does. Each
/// import record under it is a failure of that record; a `store_many`
/// holding one is refused whole. Every other namespace, and keys equal to
/// the word, are the wrapped driver's.
#[derive(Debug, Clone)]
pub struct ReservesName<P: ?Sized> {
    word: &'static str,
    inner: P,
}

impl<P> ReservesName<P> {
    /// Wraps `inner`, reserving `word`.
    #[must_use]
    pub fn new(word: &'static str, inner: P) -> Self {
        Self { word, inner }
    }

    /// Wraps `inner`, reserving [`LANGGRAPH`].
    #[must_use]
    pub fn langgraph(inner: P) -> Self {
        Self::new(LANGGRAPH, inner)
    }
}

impl<P: ?Sized> ReservesName<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    fn check(&self, namespace: &str) -> Result<(), MemoryError> {
        if first_label(namespace) == self.word {
            return Err(MemoryError::fault(format!(
                "root label for namespace cannot be {:?}, got {namespace:?}",
                self.word
            )));
        }
        Ok(())
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method after refusing the reserved namespaces.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for ReservesName<P> {
        forward(inner): driver_id, namespaces, export_page, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            self.check(namespace)?;
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await
        }

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            self.check(namespace)?;
            self.inner.get(namespace, key).await
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            self.check(namespace)?;
            self.inner.forget(namespace, key).await
        }

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            if let Some(ns) = namespace {
                self.check(ns)?;
            }
            self.inner.list(namespace, category, session_id).await
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            self.check(opts.effective_namespace())?;
            self.inner.recall(query, limit, opts).await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            for e in entries {
                self.check(&e.namespace)?;
            }
            self.inner.store_many(entries).await
        }

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let mut outcome = ImportOutcome::default();
            for (index, record) in records.iter().enumerate() {
                match self.check(&record.namespace) {
                    Err(error) => outcome
                        .failures
                        .push(ImportFailure::new(index, record, error)),
                    Ok(()) => {
                        let one = self.inner.import(std::slice::from_ref(record)).await?;
                        absorb(&mut outcome, one, index);
                    }
                }
            }
            Ok(outcome)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "reserves-own-name",
        rule: "namespaces: every valid name is a namespace, whatever word its first label is",
        check: "namespace.reserved_words",
        also_caught_by: &["properties.across_ordering", "properties.cap_determinism", "properties.pinning_cost", "properties.truncation", "properties.concurrent_equals_sequential", "properties.export_partition", "properties.export_round_trip"],
        description: "a namespace whose first label is langgraph is refused, as one agent framework's store refuses its own name",
        wrap: ReservesName::langgraph(),
        profile: Lexical,
        witness: |d| {
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            let got = d
                .store(
                    "langgraph:notes",
                    "k",
                    "note",
                    MemoryCategory::Core,
                    None,
                    MemoryTaint::Internal,
                )
                .await
                .map_err(|e| e.kind());
            Ok(format!("{got:?}"))
        },
        reference: "Ok(())",
        mutant: r#"Err("backend")"#,
    },
];
