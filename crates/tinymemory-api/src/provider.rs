//! The driver trait.

use async_trait::async_trait;

use crate::batch::{store_each, NewEntry};
use crate::interface::{self, Scenario};
use crate::portability::{
    self, export_from_list, ExportCursor, ExportPage, ImportOutcome, MemoryRecord,
};
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
/// Every implementation upholds these twelve sentences. Each is one named check
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
/// 5. At most `limit` hits, and they are the best: the first `limit` of
///    the same recall with a larger limit (but for which of the entries
///    tied at the cut), each entry once, each with the same score. A hit's
///    score depends on the query, the entry and its namespace, never on
///    `limit` or `min_score` (scores normalised over the answer, as some
///    fusion retrievers give them, break this). `limit == 0` returns
///    `Ok(empty)`. (`recall.limit`, `recall.min_score`)
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
/// 11. A recall pinned to namespace A returns the same hits with the same
///     scores whatever is stored in other namespaces: no collection-wide
///     statistics, so no namespace's entries shape or reveal another's
///     results. Scores may differ by the noise of summing in another order
///     (their entries stored elsewhere in the engine's layout), within
///     2^-19 of max(1, |score|). (`recall.namespace_isolation`)
/// 12. An invalid key ([`validate_key`](crate::validate_key): empty, or
///     over [`MAX_KEY_LEN`](crate::MAX_KEY_LEN) UTF-8 bytes) is
///     [`MemoryError::Invalid`] naming its rule on every method that takes
///     a key: `store`, `store_many`, `get` and `forget` (`import` reports
///     it as the record's failure). No store holds such a key, and a `get`
///     or `forget` of one is refused as a `store` is, never answered as
///     absent. (`key.invalid_refused`)
///
/// # Families
///
/// - **core**: `store`, `store_many`, `get`, `forget`, `list`,
///   `namespaces`;
/// - **recall**: `recall`;
/// - **portability**: `export_page`, `import` (module
///   [`portability`](crate::portability)). `export_page` has a default
///   built on `list`; `import` has none, since only the driver can keep an
///   exported timestamp, so a driver that does not override it answers
///   [`MemoryError::Unsupported`] and is reported as not providing the
///   family.
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
    /// [`MemoryError::Invalid`] for an invalid namespace or key; engine failures as
    /// [`MemoryError::Unavailable`] or [`MemoryError::Backend`].
    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError>;

    /// Removes the entry at `(namespace, key)`; `true` when one was removed.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for an invalid namespace or key; engine failures as
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

    /// Every non-empty namespace once, with its exact entry count and, when
    /// the driver knows it, `last_updated`: the newest timestamp of its
    /// entries by instant ([`crate::newest_timestamp`]; SQL `MAX` over the
    /// text is right only while every timestamp is spelt alike, see
    /// [`crate::is_canonical_timestamp`]). The order is unspecified.
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

    /// Stores every entry of `entries` (upserts, in order: a later entry
    /// with the same `(namespace, key)` replaces an earlier one), as one
    /// operation. Every entry's timestamp becomes the time of this call.
    ///
    /// Validation is per entry and happens before anything is written: one
    /// invalid entry refuses the whole batch, naming the entry's index and
    /// the rule ([`batch::in_batch`](crate::batch::in_batch)). An empty
    /// batch is `Ok(())`.
    ///
    /// The default ([`batch::store_each`](crate::batch::store_each))
    /// validates, then calls `store` once per entry; drivers with
    /// transactions override it so that an engine failure stores nothing
    /// of the batch either.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for the first invalid entry, nothing of the
    /// batch stored; engine failures as [`MemoryError::Unavailable`] or
    /// [`MemoryError::Backend`] (all-or-nothing on drivers that say so).
    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        store_each(self, entries).await
    }

    /// One page of an export: at most `limit` records after `cursor`
    /// (`None`: the start), in `(namespace, key)` order, ascending and
    /// bytewise, every field as stored.
    ///
    /// - `next_cursor: None` ends the export; a page may be empty and still
    ///   carry a cursor (a `limit` of 0 with records left).
    /// - Every entry present for the whole export is in exactly one page;
    ///   an entry stored or forgotten during the export may or may not be.
    /// - A cursor stays valid after the entry it points at is forgotten.
    /// - `limit` may be any `usize`, `usize::MAX` included.
    ///
    /// The default ([`portability::export_from_list`]) lists the whole store
    /// per page.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] (rule
    /// [`EXPORT_CURSOR`](crate::rules::EXPORT_CURSOR)) for a cursor this
    /// driver cannot have issued, one that is not well-formed in its cursor
    /// format (garbled, truncated, edited, made up), never a silent restart
    /// from the beginning. A well-formed cursor is a position: a driver may
    /// accept one another store issued, and then resumes after that
    /// position (the in-tree drivers' [`KeysetCursor`](crate::portability::KeysetCursor)s do);
    /// [`MemoryError::Unsupported`] when the driver has no export; engine
    /// failures as [`MemoryError::Unavailable`] or [`MemoryError::Backend`].
    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        export_from_list(self, cursor, limit).await
    }

    /// Writes `records` as upserts on `(namespace, key)`, in order, keeping
    /// every field as given: content, category, session, taint
    /// ([`MemoryTaint::ExternalSync`] stays `ExternalSync`) and the
    /// timestamp, byte for byte.
    ///
    /// A record that breaks a rule
    /// ([`portability::validate_record`]) is not written and is reported
    /// in [`ImportOutcome::failures`] with its index and reason; the others
    /// are written.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Unsupported`] (family
    /// [`portability::FAMILY`]) from the default: a driver must override
    /// it to provide the family. Engine failures as
    /// [`MemoryError::Unavailable`] or [`MemoryError::Backend`], in which
    /// case the drivers in this workspace have written nothing of the
    /// batch.
    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        let _ = records;
        Err(MemoryError::unsupported(
            portability::FAMILY,
            format!("driver {:?} does not import records", self.driver_id()),
        ))
    }

    /// Runs one scenario of a framework interface's own contract on a
    /// fresh store of the interface and answers with what it observed, as
    /// the JSON text of an object (the interface family,
    /// [`interface`](crate::interface)): an adapter over a framework's
    /// interface runs it with the framework's own API; the suite judges.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Unsupported`] of [`interface::FAMILY`](crate::interface::FAMILY)
    /// for a driver that serves no interface or another one than
    /// `scenario.interface` (the default); any error the scenario's
    /// set-up meets otherwise.
    async fn interface(&self, scenario: &Scenario<'_>) -> Result<String, MemoryError> {
        Err(interface::unsupported(self.driver_id(), scenario))
    }
}
