//! [`PostgresDriver`]: validation, then one statement (or, for the bulk
//! writes, one transaction) on a pooled connection.

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use deadpool_postgres::{Client, Object, Pool};
use tinymemory_api::batch::{validate_batch, NewEntry as BatchEntry};
use tinymemory_api::portability::{
    validate_record, ExportCursor, ExportPage, ImportFailure, ImportOutcome, KeysetCursor,
    MemoryRecord,
};
use tinymemory_api::{
    now_rfc3339, validate_key, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider,
    MemoryTaint, Namespace, NamespaceSummary, RecallOptions,
};
use tokio::sync::OnceCell;

use crate::bulk::{self, last_of_each, BulkRow};
use crate::error::Error;
use crate::export;
use crate::ops::{self, NewEntry, RecallQuery};
use crate::schema::Access;
use crate::sql::Sql;
use crate::tsearch::{tsquery_text, tsvector_text};
use crate::{pool, schema, PostgresConfig, DRIVER_ID};

/// Contents longer than this are cut into words on Tokio's blocking pool,
/// so a 1 MiB store does not stall a runtime worker.
const INLINE_INDEX_BYTES: usize = 64 * 1024;

/// The `tsvector` texts of `contents`, in order; on Tokio's blocking pool
/// when together they exceed [`INLINE_INDEX_BYTES`].
async fn index_all(contents: Vec<&str>) -> Result<Vec<String>, MemoryError> {
    if contents.iter().map(|c| c.len()).sum::<usize>() <= INLINE_INDEX_BYTES {
        return Ok(contents.into_iter().map(tsvector_text).collect());
    }
    let owned: Vec<String> = contents.into_iter().map(str::to_owned).collect();
    tokio::task::spawn_blocking(move || owned.iter().map(|c| tsvector_text(c)).collect())
        .await
        .map_err(|e| MemoryError::fault(format!("failed to index a batch of contents: {e}")))
}

/// The PostgreSQL [`MemoryProvider`].
///
/// A handle to one schema of one database, through a pool of connections.
/// Clones are cheap and share the pool. See the [crate documentation](crate)
/// for the layout, recall, scores and error mapping.
///
/// Every method validates its input first (so an invalid namespace is
/// `MemoryError::Invalid` even while the server is down), then makes sure
/// the schema exists and has a version this driver supports (once per
/// handle), then runs one statement.
#[derive(Clone)]
pub struct PostgresDriver {
    inner: Arc<Inner>,
}

struct Inner {
    pool: Pool,
    sql: Sql,
    server: String,
    /// Set once the schema was created or checked.
    ready: OnceCell<()>,
}

impl PostgresDriver {
    /// Connects to the server at `url` (see [`PostgresConfig::from_url`]),
    /// with the tables in the schema [`DEFAULT_SCHEMA`](crate::DEFAULT_SCHEMA),
    /// creating them when missing.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] with [`rules::URL`](crate::rules::URL) for a
    /// connection string that does not parse; otherwise as
    /// [`PostgresDriver::connect_with`].
    pub async fn connect(url: &str) -> Result<Self, MemoryError> {
        Self::connect_with(&PostgresConfig::from_url(url)?).await
    }

    /// Connects as `config` says, creating the schema and its tables when
    /// missing and checking their version otherwise.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Unavailable`] when the server cannot be reached
    /// (refused, timed out, shutting down); [`MemoryError::Backend`] when it
    /// refuses the login or the schema (no permission to create it), when
    /// the schema records a version newer than
    /// [`SCHEMA_VERSION`](crate::SCHEMA_VERSION) (the message names both,
    /// and nothing is written), or when its tinymemory tables are not ones
    /// this driver wrote.
    pub async fn connect_with(config: &PostgresConfig) -> Result<Self, MemoryError> {
        let driver = Self::connect_lazy(config)?;
        driver.ensure_schema().await?;
        Ok(driver)
    }

    /// Connects as `config` says to tables that already exist at
    /// [`SCHEMA_VERSION`](crate::SCHEMA_VERSION), never creating or
    /// migrating them: for a store that is read as it is, such as the
    /// source of `tinymemory-conformance migrate`. The driver's own
    /// methods still write when called.
    ///
    /// # Errors
    ///
    /// As [`PostgresDriver::connect_with`], and [`MemoryError::Backend`]
    /// when the schema holds no tinymemory tables or an older version
    /// (nothing is written either way).
    pub async fn connect_existing(config: &PostgresConfig) -> Result<Self, MemoryError> {
        let driver = Self::connect_lazy(config)?;
        driver
            .inner
            .ready
            .get_or_try_init(|| async {
                let mut c = driver.pooled("check the schema").await?;
                let result = schema::ensure(&mut c, &driver.inner.sql, Access::Existing).await;
                driver.finish(c, result)
            })
            .await?;
        Ok(driver)
    }

    /// A driver for `config` that connects on its first call: no I/O
    /// happens here, and the schema is created or checked by the first
    /// method called (whose error then says what
    /// [`PostgresDriver::connect_with`] would have). Use it where no async
    /// context is at hand; call [`PostgresDriver::ensure_schema`] to connect
    /// early.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] when the pool cannot be built (which does
    /// not happen with a configuration [`PostgresConfig::from_url`] made).
    pub fn connect_lazy(config: &PostgresConfig) -> Result<Self, MemoryError> {
        let pool = pool::build(config)?;
        Ok(Self::on_pool(pool, config.schema(), config.redacted_url()))
    }

    /// A driver for `schema` (already validated) over an existing pool.
    pub(crate) fn on_pool(pool: Pool, schema: &str, server: String) -> Self {
        Self {
            inner: Arc::new(Inner {
                pool,
                sql: Sql::new(schema),
                server,
                ready: OnceCell::new(),
            }),
        }
    }

    /// Creates the schema and its tables if missing, or checks their
    /// version, once per handle (and its clones); later calls return at
    /// once. Every method calls it first.
    ///
    /// # Errors
    ///
    /// As [`PostgresDriver::connect_with`]. A failed check is tried again
    /// by the next call.
    pub async fn ensure_schema(&self) -> Result<(), MemoryError> {
        self.inner
            .ready
            .get_or_try_init(|| async {
                let mut c = self.pooled("check the schema").await?;
                let result = schema::ensure(&mut c, &self.inner.sql, Access::CreateOrMigrate).await;
                self.finish(c, result)
            })
            .await
            .copied()
    }

    /// The PostgreSQL schema holding this driver's tables.
    #[must_use]
    pub fn schema(&self) -> &str {
        self.inner.sql.schema()
    }

    /// The server, as [`PostgresConfig::redacted_url`] shows it (no
    /// password).
    #[must_use]
    pub fn server(&self) -> &str {
        &self.inner.server
    }

    /// What this store is, whatever the URL that reached it: the server's
    /// database system identifier (`pg_control_system()`, the same for
    /// every address, port alias and parameter spelling of one cluster),
    /// the database's oid and the schema. Two handles with equal
    /// identities read and write the same tables. Connects, but neither
    /// creates nor checks the schema.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Unavailable`] or [`MemoryError::Backend`] when no
    /// connection can be had or the server refuses the query.
    pub async fn store_identity(&self) -> Result<StoreIdentity, MemoryError> {
        let c = self.pooled("read the server's identity").await?;
        let result = c
            .query_one(
                "SELECT (SELECT system_identifier FROM pg_control_system()), \
                 (SELECT oid FROM pg_database WHERE datname = current_database())",
                &[],
            )
            .await
            .map_err(|source| Error::Postgres {
                context: "read the server's identity",
                source,
            })
            .and_then(|row| {
                let system: i64 = row.try_get(0).map_err(|source| Error::Postgres {
                    context: "read the server's identity",
                    source,
                })?;
                let database: u32 = row.try_get(1).map_err(|source| Error::Postgres {
                    context: "read the server's identity",
                    source,
                })?;
                Ok(StoreIdentity {
                    system_identifier: system,
                    database_oid: database,
                    schema: self.schema().to_owned(),
                })
            });
        self.finish(c, result)
    }

    /// A pooled connection, once the schema is ready.
    async fn client(&self, context: &'static str) -> Result<Client, MemoryError> {
        self.ensure_schema().await?;
        self.pooled(context).await
    }

    /// A pooled connection.
    async fn pooled(&self, context: &'static str) -> Result<Client, MemoryError> {
        self.inner
            .pool
            .get()
            .await
            .map_err(|source| Error::Pool { context, source }.into())
    }

    /// Upserts `rows` in one transaction ([`bulk::upsert`]).
    async fn write_rows(&self, rows: &[BulkRow<'_>]) -> Result<(), MemoryError> {
        let mut c = self.client("store a batch of entries").await?;
        let result = bulk::upsert(&mut c, &self.inner.sql, rows).await;
        self.finish(c, result)
    }

    /// Converts the result of a call on `c`, first discarding `c` (and
    /// every idle connection) when the call found the connection lost:
    /// a connection whose backend is gone may not yet know it is closed,
    /// and would otherwise be handed to the next call. After a server
    /// restart every idle connection is dead too, so the next call opens a
    /// new one instead of failing on the next dead one.
    fn finish<T>(&self, c: Client, result: Result<T, Error>) -> Result<T, MemoryError> {
        if let Err(e) = &result {
            if e.is_connection_lost() {
                drop(Object::take(c));
                self.inner.pool.retain(|_, _| false);
            }
        }
        result.map_err(MemoryError::from)
    }
}

/// Which tables a [`PostgresDriver`] reaches, from
/// [`PostgresDriver::store_identity`]: equal identities are one store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreIdentity {
    /// The cluster's database system identifier (`pg_control_system()`),
    /// chosen by `initdb` and kept for the cluster's life.
    pub system_identifier: i64,
    /// The oid of the database in `pg_database`.
    pub database_oid: u32,
    /// The PostgreSQL schema holding the tables.
    pub schema: String,
}

impl fmt::Display for StoreIdentity {
    /// `schema tinymemory of database oid 5 on system 7714459042339079576`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "schema {} of database oid {} on system {}",
            self.schema, self.database_oid, self.system_identifier
        )
    }
}

impl fmt::Debug for PostgresDriver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresDriver")
            .field("server", &self.inner.server)
            .field("schema", &self.schema())
            .finish_non_exhaustive()
    }
}

#[async_trait]
#[deny(clippy::missing_trait_methods)]
impl MemoryProvider for PostgresDriver {
    fn driver_id(&self) -> &str {
        DRIVER_ID
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
        Namespace::parse(namespace)?;
        validate_key(key)?;
        let body = if content.len() > INLINE_INDEX_BYTES {
            let owned = content.to_owned();
            tokio::task::spawn_blocking(move || tsvector_text(&owned))
                .await
                .map_err(|e| MemoryError::fault(format!("failed to index a content: {e}")))?
        } else {
            tsvector_text(content)
        };
        let entry = NewEntry {
            namespace,
            key,
            content,
            category: category.as_text(),
            session_id,
            taint,
            body,
        };
        let c = self.client("store an entry").await?;
        let result = ops::store(&c, &self.inner.sql, &entry).await;
        self.finish(c, result)
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        let c = self.client("get an entry").await?;
        let result = ops::get(&c, &self.inner.sql, namespace, key).await;
        self.finish(c, result)
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        let c = self.client("forget an entry").await?;
        let result = ops::forget(&c, &self.inner.sql, namespace, key).await;
        self.finish(c, result)
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        if let Some(ns) = namespace {
            Namespace::parse(ns)?;
        }
        let category = category.map(MemoryCategory::as_text);
        let c = self.client("list entries").await?;
        let result = ops::list(
            &c,
            &self.inner.sql,
            namespace,
            category.as_deref(),
            session_id,
        )
        .await;
        self.finish(c, result)
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        let c = self.client("count namespaces").await?;
        let result = ops::namespaces(&c, &self.inner.sql).await;
        self.finish(c, result)
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let namespace = opts.effective_namespace();
        Namespace::parse(namespace)?;
        opts.validate()?;
        if limit == 0 {
            return Ok(Vec::new());
        }
        let Some(tsquery) = tsquery_text(query) else {
            return Ok(Vec::new());
        };
        let q = RecallQuery {
            tsquery,
            namespace,
            category: opts.category.as_ref().map(MemoryCategory::as_text),
            session_id: opts.session_id.as_deref(),
            limit: i64::try_from(limit).unwrap_or(i64::MAX),
        };
        let c = self.client("recall entries").await?;
        let result = ops::recall(&c, &self.inner.sql, &q).await;
        let mut hits = self.finish(c, result)?;
        // Hits are sorted best first, so dropping those below `min_score`
        // after the limit keeps exactly the hits a filter-then-limit would.
        hits.retain(|h| opts.admits(h.score));
        Ok(hits)
    }

    /// All-or-nothing: validated first, then upserted in one transaction
    /// (multi-row upserts in chunks), a later entry of the same `(namespace, key)` replacing
    /// an earlier one, every entry with the same timestamp.
    async fn store_many(&self, entries: &[BatchEntry]) -> Result<(), MemoryError> {
        validate_batch(entries)?;
        if entries.is_empty() {
            return Ok(());
        }
        let keep = last_of_each(entries, |e| (e.namespace.as_str(), e.key.as_str()));
        let bodies = index_all(keep.iter().map(|&i| entries[i].content.as_str()).collect()).await?;
        let timestamp = now_rfc3339();
        let rows: Vec<BulkRow<'_>> = keep
            .iter()
            .zip(bodies)
            .map(|(&i, body)| {
                let e = &entries[i];
                BulkRow {
                    namespace: &e.namespace,
                    key: &e.key,
                    content: &e.content,
                    category: e.category.as_text(),
                    session_id: e.session_id.as_deref(),
                    taint: e.taint,
                    timestamp: &timestamp,
                    body,
                }
            })
            .collect();
        self.write_rows(&rows).await
    }

    /// One keyset read after the cursor's position, in the order of the
    /// `(namespace, key)` index, one row more than the page to see the end.
    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        let position = cursor.map_or_else(|| Ok(KeysetCursor::start()), KeysetCursor::decode)?;
        let c = self.client("export entries").await?;
        let result = export::page(&c, &self.inner.sql, &position, limit).await;
        self.finish(c, result)
    }

    /// The valid records upserted in one transaction (as `store_many`), each with
    /// its own timestamp, stored as the text it was given; the others
    /// reported.
    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        let mut outcome = ImportOutcome::default();
        let mut valid: Vec<&MemoryRecord> = Vec::with_capacity(records.len());
        for (index, record) in records.iter().enumerate() {
            match validate_record(record) {
                Ok(()) => valid.push(record),
                Err(error) => outcome
                    .failures
                    .push(ImportFailure::new(index, record, error)),
            }
        }
        if valid.is_empty() {
            return Ok(outcome);
        }
        let keep = last_of_each(&valid, |r| (r.namespace.as_str(), r.key.as_str()));
        let bodies = index_all(keep.iter().map(|&i| valid[i].content.as_str()).collect()).await?;
        let rows: Vec<BulkRow<'_>> = keep
            .iter()
            .zip(bodies)
            .map(|(&i, body)| {
                let r = valid[i];
                BulkRow {
                    namespace: &r.namespace,
                    key: &r.key,
                    content: &r.content,
                    category: r.category.as_text(),
                    session_id: r.session_id.as_deref(),
                    taint: r.taint,
                    timestamp: &r.timestamp,
                    body,
                }
            })
            .collect();
        self.write_rows(&rows).await?;
        outcome.imported = valid.len();
        Ok(outcome)
    }

    /// No framework interface: the interface family is skipped
    /// ([`tinymemory_api::interface::unsupported`]).
    async fn interface(
        &self,
        scenario: &tinymemory_api::interface::Scenario<'_>,
    ) -> Result<String, MemoryError> {
        Err(tinymemory_api::interface::unsupported(
            self.driver_id(),
            scenario,
        ))
    }
}
