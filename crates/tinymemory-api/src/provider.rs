//! The driver trait.

use async_trait::async_trait;

use crate::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryTaint, NamespaceSummary, RecallOptions,
};

/// A memory driver: stores entries in namespaces and recalls them by text.
///
/// The trait is object safe (`Box<dyn MemoryProvider>`, `&dyn
/// MemoryProvider`) and every method is async (`async-trait`). Namespaces are
/// passed as strings so that a driver is the one to refuse bad ones; drivers
/// validate with [`Namespace::parse`](crate::Namespace::parse) and keys with
/// [`validate_key`](crate::validate_key).
///
/// # Contract
///
/// Every implementation upholds these ten sentences. Each is one named check
/// of the conformance suite (`tinymemory-conformance list`), given after it.
///
/// 1. `store` upserts on `(namespace, key)`: a second store replaces, never
///    duplicates. Taint, category and session are stored as given.
///    (`store.upsert`)
/// 2. `recall` with `namespace: None` searches
///    [`GLOBAL_NAMESPACE`](crate::GLOBAL_NAMESPACE) only — never "all
///    namespaces". (`recall.none_means_global`)
/// 3. Every recall hit carries `namespace: Some(the namespace it lives in)`.
///    (`recall.hit_namespace`)
/// 4. Scores, when present, are finite and higher-is-better. An engine that
///    ranks lower-is-better (SQLite's `bm25()` is negative, lower = better)
///    converts. (`recall.scores_finite_higher_better`)
/// 5. At most `limit` hits; `limit == 0` returns `Ok(empty)`.
///    (`recall.limit`)
/// 6. A query is plain text, never engine syntax: quotes, `-`, `*`, `:`,
///    `(`, `AND`, `OR`, `NOT`, `NEAR` are words or ignored, never an error or
///    an operator. An empty or whitespace-only query is `Ok(empty)`.
///    (`recall.plain_text_query`)
/// 7. `min_score` drops hits below it; a hit with no score is dropped when
///    `min_score` is set. (`recall.min_score`)
/// 8. `namespaces()` lists every non-empty namespace once with its exact
///    count; its order is unspecified, so no caller may depend on it.
///    (`namespaces.exact_counts`)
/// 9. An invalid namespace is [`MemoryError::Invalid`] on every method.
///    (`namespace.invalid_refused`)
/// 10. `forget` is idempotent (`true` then `false`), and a forgotten entry is
///     gone from `get`, `list`, `namespaces` and `recall`. (`forget.idempotent`)
///
/// Beyond the sentences: bad input is an error, never a panic, and never a
/// silent change to what was stored; a write that returned `Ok` is readable
/// after the store is reopened (for drivers that persist).
#[async_trait]
pub trait MemoryProvider: Send + Sync {
    /// A short stable id for reports, such as `reference` or `sqlite`.
    fn driver_id(&self) -> &str;

    /// Stores `content` under `(namespace, key)`, replacing any entry there
    /// (upsert). The entry's timestamp becomes the time of this call.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for an invalid namespace or key;
    /// [`MemoryError::Unavailable`] or [`MemoryError::Backend`] when the
    /// engine fails, in which case nothing was stored.
    async fn store(
        &self,
        namespace: &str,
        key: &str,
        content: &str,
        category: MemoryCategory,
        session_id: Option<&str>,
        taint: MemoryTaint,
    ) -> Result<(), MemoryError>;

    /// The entry at `(namespace, key)`, with `score: None`, or `None`.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for an invalid namespace; engine failures as
    /// [`MemoryError::Unavailable`] or [`MemoryError::Backend`].
    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError>;

    /// Removes the entry at `(namespace, key)`; `true` when one was removed.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for an invalid namespace; engine failures as
    /// [`MemoryError::Unavailable`] or [`MemoryError::Backend`].
    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError>;

    /// Entries matching every given filter, with `score: None`, ordered by
    /// `(namespace, key)` ascending (bytewise).
    ///
    /// `namespace: None` lists **every** namespace. Note the difference
    /// from [`MemoryProvider::recall`], where `None` means
    /// [`GLOBAL_NAMESPACE`](crate::GLOBAL_NAMESPACE) only: listing is
    /// enumeration, recall is search, and a search that silently widened to
    /// every namespace is the divergence contract sentence 2 exists for.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for an invalid namespace; engine failures as
    /// [`MemoryError::Unavailable`] or [`MemoryError::Backend`].
    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError>;

    /// Every non-empty namespace once, with its exact entry count. The order
    /// is unspecified.
    ///
    /// # Errors
    ///
    /// Engine failures as [`MemoryError::Unavailable`] or
    /// [`MemoryError::Backend`].
    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError>;

    /// At most `limit` entries of one namespace (`opts.namespace`, else
    /// `global`) matching the plain-text `query`, best first, each with a
    /// finite higher-is-better score or `None`, and its namespace filled in.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for an invalid namespace or a non-finite
    /// `min_score`; engine failures as [`MemoryError::Unavailable`] or
    /// [`MemoryError::Backend`]. Never an error for the query's text.
    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError>;
}
