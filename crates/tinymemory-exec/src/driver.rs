//! `MemoryProvider` over a driver process.

use std::sync::{Arc, Weak};

use async_trait::async_trait;
use serde_json::Value;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    RecallOptions, RecallProfile,
};

use crate::decode::{check_hello, decode, expect_null, hello};
use crate::pool::Pool;
use crate::process::Connection;
use crate::protocol::{Request, WireEntry, WireSummary};
use crate::{ExecCommand, ExecConfig};

/// A [`MemoryProvider`] whose every call is one request to a driver process.
///
/// Obtained from [`ExecDriver::spawn`] or from
/// [`ExecFactory`](crate::ExecFactory); either way the store has a process
/// to itself while it lives. Calls from many tasks are answered one at a
/// time, in the order they were made. Dropping the driver closes the
/// process's stdin (the process then exits) or, for a store from a factory,
/// hands the process back for the factory's next store.
///
/// The driver validates everything itself (namespaces, keys, `limit`),
/// since that is what the suite checks. The one exception is a non-finite
/// `min_score`, which JSON cannot carry: `recall` refuses it here with
/// [`rules::MIN_SCORE_NOT_FINITE`](tinymemory_api::rules::MIN_SCORE_NOT_FINITE),
/// before any request.
///
/// # Errors
///
/// Besides the driver's own error answers (mapped by kind, rule ids kept):
/// [`MemoryError::Unavailable`] when an answer does not come within the
/// request timeout (the process is then stopped); [`MemoryError::Backend`]
/// when the process exits, prints a line that is not an answer, or answers
/// with a malformed result. Messages name the request and the command, and
/// quote the end of the process's stderr.
pub struct ExecDriver {
    conn: Arc<Connection>,
    driver_id: String,
    recall_profile: RecallProfile,
    /// Where the process goes back when the driver is dropped.
    pool: Option<Weak<Pool>>,
}

impl ExecDriver {
    /// Starts `command`, checks its `hello` and resets its store: a fresh,
    /// empty store in a process of its own, which exits when the driver is
    /// dropped (its stdin closes).
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] when the process cannot be started, exits,
    /// answers `hello` with another protocol version, an unknown recall
    /// profile or an error, or fails the `reset`;
    /// [`MemoryError::Unavailable`] when it does not answer in time.
    pub async fn spawn(command: &ExecCommand, config: ExecConfig) -> Result<Self, MemoryError> {
        let conn = Arc::new(Connection::start(command, config)?);
        let hello = check_hello(&conn, conn.call(hello()).await)?;
        let profile = hello.profile();
        Self::reset(conn, hello.driver, profile, None).await
    }

    /// [`ExecDriver::spawn`], blocking the calling thread until the process
    /// has answered (at most two request timeouts). For synchronous set-up
    /// code; it needs no runtime.
    ///
    /// # Errors
    ///
    /// As [`ExecDriver::spawn`].
    pub fn spawn_blocking(command: &ExecCommand, config: ExecConfig) -> Result<Self, MemoryError> {
        let conn = Arc::new(Connection::start(command, config)?);
        let hello = check_hello(&conn, conn.call_blocking(hello()))?;
        expect_null(&conn, "reset", &conn.call_blocking(Request::Reset)?)?;
        Ok(Self {
            conn,
            recall_profile: hello.profile(),
            driver_id: hello.driver,
            pool: None,
        })
    }

    /// Empties the store of `conn`'s process and returns a driver owning
    /// it, which hands it back to `pool` (if any) when dropped.
    pub(crate) async fn reset(
        conn: Arc<Connection>,
        driver_id: String,
        recall_profile: RecallProfile,
        pool: Option<Weak<Pool>>,
    ) -> Result<Self, MemoryError> {
        expect_null(&conn, "reset", &conn.call(Request::Reset).await?)?;
        Ok(Self {
            conn,
            driver_id,
            recall_profile,
            pool,
        })
    }

    /// The recall profile the driver declared in its `hello` answer
    /// (`recall_profile`), [`RecallProfile::Lexical`] when it declared
    /// none.
    #[must_use]
    pub fn recall_profile(&self) -> RecallProfile {
        self.recall_profile
    }

    /// `false` once the process died, hung or garbled its output; every
    /// later call fails.
    #[must_use]
    pub fn is_usable(&self) -> bool {
        self.conn.is_usable()
    }

    async fn call(&self, request: Request) -> Result<Value, MemoryError> {
        self.conn.call(request).await
    }

    fn entries(&self, op: &str, value: Value) -> Result<Vec<MemoryEntry>, MemoryError> {
        let wire: Vec<WireEntry> = decode(&self.conn, op, value)?;
        Ok(wire.into_iter().map(MemoryEntry::from).collect())
    }
}

impl std::fmt::Debug for ExecDriver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecDriver")
            .field("command", &self.conn.command())
            .field("driver_id", &self.driver_id)
            .field("recall_profile", &self.recall_profile)
            .finish_non_exhaustive()
    }
}

impl Drop for ExecDriver {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.as_ref().and_then(Weak::upgrade) {
            pool.put(Arc::clone(&self.conn));
        }
    }
}

#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl MemoryProvider for ExecDriver {
    /// The id the driver gave in its `hello` answer.
    fn driver_id(&self) -> &str {
        &self.driver_id
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
        let value = self
            .call(Request::Store {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
                content: content.to_owned(),
                category,
                session_id: session_id.map(str::to_owned),
                taint,
            })
            .await?;
        expect_null(&self.conn, "store", &value)
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        let value = self
            .call(Request::Get {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            })
            .await?;
        let wire: Option<WireEntry> = decode(&self.conn, "get", value)?;
        Ok(wire.map(MemoryEntry::from))
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        let value = self
            .call(Request::Forget {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            })
            .await?;
        decode(&self.conn, "forget", value)
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let value = self
            .call(Request::List {
                namespace: namespace.map(str::to_owned),
                category: category.cloned(),
                session_id: session_id.map(str::to_owned),
            })
            .await?;
        self.entries("list", value)
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        let value = self.call(Request::Namespaces).await?;
        let wire: Vec<WireSummary> = decode(&self.conn, "namespaces", value)?;
        Ok(wire.into_iter().map(NamespaceSummary::from).collect())
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        opts.validate()?;
        let value = self
            .call(Request::Recall {
                query: query.to_owned(),
                limit: u64::try_from(limit).unwrap_or(u64::MAX),
                namespace: opts.namespace.clone(),
                category: opts.category.clone(),
                session_id: opts.session_id.clone(),
                min_score: opts.min_score,
            })
            .await?;
        self.entries("recall", value)
    }
}
