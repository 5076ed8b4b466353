//! [`PostgresFactory`]: fresh, empty stores, one scratch schema each, for
//! the conformance suite (its `tinymemory_api::DriverFactory`) and for
//! tests.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use deadpool_postgres::Pool;
use tinymemory_api::MemoryError;
use tokio_postgres::NoTls;

use crate::error::{Context, Error};
use crate::{pool, PostgresConfig, PostgresDriver, DRIVER_ID};

/// Every scratch schema's name starts with this.
pub const SCRATCH_PREFIX: &str = "tinymemory_scratch_";

/// How long dropping a factory waits for its schemas to be dropped.
const DROP_CLEANUP_TIMEOUT: Duration = Duration::from_secs(30);

/// Factories made by this process, so two in one process never share a
/// prefix.
static FACTORIES: AtomicU64 = AtomicU64::new(0);

/// Opens fresh, empty [`PostgresDriver`]s on one server, each in a new
/// *scratch schema* named `tinymemory_scratch_<pid>_<time>_<factory>_<n>`,
/// and drops those schemas again. It is a `tinymemory_api::DriverFactory`
/// (`driver_id` `postgres`, `open` = a
/// [`PostgresFactory::scratch`] driver with its tables created).
///
/// All drivers of one factory share one connection pool (the schema is
/// part of each statement's text, not of the connection), so a run of the
/// whole suite opens at most [`PostgresConfig::max_connections`]
/// connections.
///
/// The schemas are dropped (`DROP SCHEMA … CASCADE`) by
/// [`PostgresFactory::cleanup`], or, for those still there, when the
/// factory is dropped: `Drop` connects afresh on a helper thread and waits
/// for that (at most 30 seconds), so it works whichever runtime, if any, is
/// running. A process killed before either leaves its schemas behind; they
/// all start with [`SCRATCH_PREFIX`].
pub struct PostgresFactory {
    config: PostgresConfig,
    pool: Pool,
    prefix: String,
    next: AtomicU64,
    made: Mutex<Vec<String>>,
}

impl PostgresFactory {
    /// A factory on the server of `config` (its schema is not used: each
    /// store gets a scratch schema). Opens no connection yet.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] when the pool cannot be built.
    pub fn new(config: &PostgresConfig) -> Result<Self, MemoryError> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let prefix = format!(
            "{SCRATCH_PREFIX}{:x}_{:x}_{}",
            std::process::id(),
            nanos & 0xffff_ffff_ffff,
            FACTORIES.fetch_add(1, Ordering::Relaxed)
        );
        Ok(Self {
            pool: pool::build(config)?,
            config: config.clone(),
            prefix,
            next: AtomicU64::new(0),
            made: Mutex::new(Vec::new()),
        })
    }

    /// The start of every schema name this factory makes.
    #[must_use]
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The server, without its password.
    #[must_use]
    pub fn server(&self) -> String {
        self.config.redacted_url()
    }

    /// A driver on a new scratch schema, created by its first call (see
    /// [`PostgresDriver::connect_lazy`]); no I/O happens here. The schema is
    /// dropped with the factory's others.
    #[must_use]
    pub fn scratch(&self) -> PostgresDriver {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let schema = format!("{}_{n}", self.prefix);
        self.made
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(schema.clone());
        PostgresDriver::on_pool(self.pool.clone(), &schema, self.config.redacted_url())
    }

    /// The scratch schemas made and not yet dropped, oldest first.
    #[must_use]
    pub fn schemas(&self) -> Vec<String> {
        self.made
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Drops every scratch schema made so far, and returns how many.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Unavailable`] or [`MemoryError::Backend`] when the
    /// server fails; the schemas not dropped are tried again by the next
    /// cleanup, or by `Drop`.
    pub async fn cleanup(&self) -> Result<usize, MemoryError> {
        let schemas =
            std::mem::take(&mut *self.made.lock().unwrap_or_else(PoisonError::into_inner));
        if schemas.is_empty() {
            return Ok(0);
        }
        let result = async {
            let client = self.pool.get().await.map_err(|source| Error::Pool {
                context: "drop the scratch schemas",
                source,
            })?;
            drop_schemas(&client, &schemas).await
        }
        .await;
        match result {
            Ok(()) => {
                // The cached statements name dropped tables; let them go.
                self.pool.manager().statement_caches.clear();
                Ok(schemas.len())
            }
            Err(e) => {
                self.made
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .extend(schemas);
                Err(e.into())
            }
        }
    }
}

/// Schemas dropped per transaction. A script of several statements is one
/// implicit transaction, which holds a lock on every object it drops until
/// it ends; a schema holds about ten objects (tables, indexes, a sequence),
/// and the server's lock table has room for `max_locks_per_transaction`
/// (64 by default) per connection, so dropping the few hundred schemas of
/// a whole suite run at once fails with "out of shared memory".
const SCHEMAS_PER_DROP: usize = 16;

/// `DROP SCHEMA IF EXISTS … CASCADE` for each of `schemas`, at most
/// [`SCHEMAS_PER_DROP`] per transaction. On an error the groups before it
/// are dropped; dropping them again is a no-op (`IF EXISTS`).
async fn drop_schemas(client: &tokio_postgres::Client, schemas: &[String]) -> Result<(), Error> {
    for group in schemas.chunks(SCHEMAS_PER_DROP) {
        let script: String = group
            .iter()
            .map(|s| format!("DROP SCHEMA IF EXISTS \"{s}\" CASCADE;"))
            .collect();
        client
            .batch_execute(&script)
            .await
            .context("drop the scratch schemas")?;
    }
    Ok(())
}

/// Drops `schemas` over a new connection, on a new thread with its own
/// runtime, waiting for it.
fn drop_schemas_blocking(pg: tokio_postgres::Config, schemas: Vec<String>) -> Result<(), String> {
    let worker = std::thread::spawn(move || -> Result<(), String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("failed to start a runtime: {e}"))?;
        runtime.block_on(async move {
            let work = async {
                let (client, connection) = pg.connect(NoTls).await.context("connect")?;
                let task = tokio::spawn(connection);
                let dropped = drop_schemas(&client, &schemas).await;
                drop(client);
                let _ = task.await;
                dropped
            };
            match tokio::time::timeout(DROP_CLEANUP_TIMEOUT, work).await {
                Ok(result) => result.map_err(|e| e.to_string()),
                Err(_) => Err(format!("timed out after {DROP_CLEANUP_TIMEOUT:?}")),
            }
        })
    });
    worker
        .join()
        .unwrap_or_else(|_| Err("the cleanup thread panicked".to_owned()))
}

impl Drop for PostgresFactory {
    fn drop(&mut self) {
        let schemas = std::mem::take(self.made.get_mut().unwrap_or_else(PoisonError::into_inner));
        if schemas.is_empty() {
            return;
        }
        let count = schemas.len();
        if let Err(e) = drop_schemas_blocking(self.config.pg.clone(), schemas) {
            tracing::warn!(
                prefix = %self.prefix,
                count,
                error = %e,
                "failed to drop the scratch schemas of a postgres factory"
            );
        }
    }
}

impl fmt::Debug for PostgresFactory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresFactory")
            .field("server", &self.config.redacted_url())
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// One fresh scratch schema per check.
#[async_trait::async_trait]
impl tinymemory_api::DriverFactory for PostgresFactory {
    fn driver_id(&self) -> String {
        DRIVER_ID.to_owned()
    }

    /// A new scratch schema with its tables created, empty.
    async fn open(&self) -> Result<Box<dyn tinymemory_api::MemoryProvider>, MemoryError> {
        let driver = self.scratch();
        driver.ensure_schema().await?;
        Ok(Box::new(driver))
    }
}
