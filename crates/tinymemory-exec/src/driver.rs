//! `MemoryProvider` over a driver process.

use std::sync::{Arc, Weak};

use async_trait::async_trait;
use serde_json::Value;
use tinymemory_api::batch::{store_each, validate_batch, NewEntry};
use tinymemory_api::interface::{self, Scenario};
use tinymemory_api::portability::{self, ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    Call, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    RecallOptions, RecallProfile,
};

use crate::batch::{chunks, prefixed};
use crate::decode::{check_hello, decode, expect_null, hello};
use crate::pool::Pool;
use crate::process::Connection;
use crate::protocol::{
    OptionalOp, Request, WireEntry, WireExportPage, WireImportOutcome, WireSummary,
};
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
/// # Optional ops
///
/// The three optional ops are sent only to a driver that listed them in
/// its `hello` answer's `ops`:
///
/// - `store_many` without the op is the contract's default
///   ([`batch::store_each`](tinymemory_api::batch::store_each): every entry
///   validated here, then one `store` per entry). With it, a batch goes
///   in requests of at most [`ExecConfig::batch_bytes`] (1 MiB by
///   default), in order. One request is all-or-nothing as the driver
///   promises; a batch of several is validated here first, so an invalid
///   entry stores nothing of it, but an engine failure in request *n*
///   leaves the requests before it stored (the error says how many
///   entries that is).
/// - `export_page` and `import` without the op are
///   [`MemoryError::Unsupported`] (family [`portability::FAMILY`]), naming
///   the op the driver lacks; the suite then skips the family's checks.
///   The cursor is the driver's own string, passed back untouched.
///   `import` goes in requests of at most `batch_bytes` too; each record
///   stands alone (a refused one is reported, the rest written), so only
///   an engine failure part-way differs: the requests before it stay
///   written.
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
    /// The optional ops the driver's `hello` listed.
    ops: Vec<OptionalOp>,
    /// The framework interface the driver's `hello` declared.
    interface: Option<String>,
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
        Self::reset(
            conn,
            hello.driver,
            profile,
            hello.ops,
            hello.interface,
            None,
        )
        .await
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
            ops: hello.ops,
            interface: hello.interface,
            pool: None,
        })
    }

    /// Starts `command` and checks its `hello`, without `reset`: the store
    /// as the process finds it (a file named in its arguments), for
    /// `tinymemory-conformance migrate`, which must never empty a source
    /// nor a target it has not yet checked.
    ///
    /// # Errors
    ///
    /// As [`ExecDriver::spawn`], without the `reset`.
    pub async fn attach(command: &ExecCommand, config: ExecConfig) -> Result<Self, MemoryError> {
        let conn = Arc::new(Connection::start(command, config)?);
        let hello = check_hello(&conn, conn.call(hello()).await)?;
        Ok(Self {
            conn,
            recall_profile: hello.profile(),
            driver_id: hello.driver,
            ops: hello.ops,
            interface: hello.interface,
            pool: None,
        })
    }

    /// Empties the store of `conn`'s process and returns a driver owning
    /// it, which hands it back to `pool` (if any) when dropped.
    pub(crate) async fn reset(
        conn: Arc<Connection>,
        driver_id: String,
        recall_profile: RecallProfile,
        ops: Vec<OptionalOp>,
        interface: Option<String>,
        pool: Option<Weak<Pool>>,
    ) -> Result<Self, MemoryError> {
        expect_null(&conn, "reset", &conn.call(Request::Reset).await?)?;
        Ok(Self {
            conn,
            driver_id,
            recall_profile,
            ops,
            interface,
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

    /// The optional ops the driver listed in its `hello` answer (`ops`),
    /// in its order; empty when it listed none.
    #[must_use]
    pub fn ops(&self) -> &[OptionalOp] {
        &self.ops
    }

    /// `true` when the driver listed `op` in its `hello` answer.
    #[must_use]
    pub fn provides(&self, op: OptionalOp) -> bool {
        self.ops.contains(&op)
    }

    /// The error for an optional op of the portability family the driver
    /// did not list.
    fn lacks(&self, op: OptionalOp) -> MemoryError {
        MemoryError::unsupported(
            portability::FAMILY,
            format!(
                "driver {:?} (`{}`) does not provide `{op}`: its hello answer does not list it in \
                 ops (docs/protocol.md, \"Optional ops\")",
                self.driver_id,
                self.conn.command()
            ),
        )
    }

    /// `store_many` over the protocol: one request per chunk.
    async fn send_entries(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        let ranges = chunks(entries, self.conn.config().batch_bytes);
        if ranges.len() > 1 {
            // Invalid input must store nothing, and only a single request
            // is all-or-nothing on the driver's side.
            validate_batch(entries)?;
        }
        let requests = ranges.len();
        for (n, range) in ranges.into_iter().enumerate() {
            let (start, end) = (range.start, range.end);
            let sent = self
                .call(Request::StoreMany {
                    entries: entries[range].to_vec(),
                })
                .await
                .and_then(|v| expect_null(&self.conn, "store_many", &v));
            if let Err(e) = sent {
                if requests == 1 {
                    return Err(e);
                }
                return Err(prefixed(
                    e,
                    &format!(
                        "store_many request {} of {requests} (entries {start}..{end} of {}; the {start} \
                         before them are stored): ",
                        n + 1,
                        entries.len()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `import` over the protocol: one request per chunk, the outcomes
    /// added up.
    async fn send_records(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        let ranges = chunks(records, self.conn.config().batch_bytes);
        let requests = ranges.len();
        let mut total = ImportOutcome::default();
        for (n, range) in ranges.into_iter().enumerate() {
            let (start, end) = (range.start, range.end);
            let part = &records[range];
            let answer = match self
                .call(Request::Import {
                    records: part.to_vec(),
                })
                .await
            {
                Ok(v) => v,
                Err(e) if requests == 1 => return Err(e),
                Err(e) => {
                    return Err(prefixed(
                        e,
                        &format!(
                            "import request {} of {requests} (records {start}..{end} of {}; the \
                             requests before it are written): ",
                            n + 1,
                            records.len()
                        ),
                    ))
                }
            };
            let wire: WireImportOutcome = decode(&self.conn, "import", answer)?;
            let outcome = wire.into_outcome(part, start).map_err(|why| {
                MemoryError::fault(format!(
                    "failed to read the answer to `import` from `{}`: {why}",
                    self.conn.command()
                ))
            })?;
            total.imported += outcome.imported;
            total.failures.extend(outcome.failures);
        }
        Ok(total)
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
            .field("ops", &self.ops)
            .field("interface", &self.interface)
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
            .call(Request::from(Call::Store {
                namespace,
                key,
                content,
                category: &category,
                session_id,
                taint,
            }))
            .await?;
        expect_null(&self.conn, "store", &value)
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        let value = self
            .call(Request::from(Call::Get { namespace, key }))
            .await?;
        let wire: Option<WireEntry> = decode(&self.conn, "get", value)?;
        Ok(wire.map(MemoryEntry::from))
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        let value = self
            .call(Request::from(Call::Forget { namespace, key }))
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
            .call(Request::from(Call::List {
                namespace,
                category,
                session_id,
            }))
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
            .call(Request::from(Call::Recall { query, limit, opts }))
            .await?;
        self.entries("recall", value)
    }

    /// `store_many` requests when the driver lists the op (in requests
    /// of at most [`ExecConfig::batch_bytes`]), else one `store` per
    /// entry ([`store_each`]). An empty batch sends nothing.
    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        if entries.is_empty() {
            return Ok(());
        }
        if self.provides(OptionalOp::StoreMany) {
            self.send_entries(entries).await
        } else {
            store_each(self, entries).await
        }
    }

    /// One `export_page` request; [`MemoryError::Unsupported`] when the
    /// driver does not list the op.
    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        if !self.provides(OptionalOp::ExportPage) {
            return Err(self.lacks(OptionalOp::ExportPage));
        }
        let value = self
            .call(Request::from(Call::ExportPage { cursor, limit }))
            .await?;
        let wire: WireExportPage = decode(&self.conn, "export_page", value)?;
        Ok(ExportPage {
            records: wire.records.into_iter().map(MemoryRecord::from).collect(),
            next_cursor: wire.next_cursor.map(ExportCursor::new),
        })
    }

    /// `import` requests (at most [`ExecConfig::batch_bytes`] each);
    /// [`MemoryError::Unsupported`] when the driver does not list the op.
    /// An answer whose failures do not fit the records sent (an index
    /// out of order or past the end, another record's key, counts that do
    /// not add up) is a malformed answer.
    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        if !self.provides(OptionalOp::Import) {
            return Err(self.lacks(OptionalOp::Import));
        }
        if records.is_empty() {
            return Ok(ImportOutcome::default());
        }
        self.send_records(records).await
    }

    /// One `interface` request, when the driver's `hello` declared
    /// `scenario.interface`; [`MemoryError::Unsupported`] of
    /// [`interface::FAMILY`] otherwise. The answer must be a JSON object:
    /// the observation, as its text.
    async fn interface(&self, scenario: &Scenario<'_>) -> Result<String, MemoryError> {
        if self.interface.as_deref() != Some(scenario.interface) {
            let declared = self.interface.as_deref().map_or_else(
                || "declares no interface".to_owned(),
                |other| format!("declares interface {other:?}"),
            );
            return Err(MemoryError::unsupported(
                interface::FAMILY,
                format!(
                    "driver {:?} {declared} in its hello answer, not {:?} (docs/protocol.md, \
                     \"The interface op\")",
                    self.driver_id, scenario.interface
                ),
            ));
        }
        let value = self
            .call(Request::from(Call::Interface {
                interface: scenario.interface,
                check: scenario.check,
                use_async: scenario.use_async,
                inputs: scenario.inputs,
            }))
            .await?;
        let observed: serde_json::Map<String, Value> = decode(&self.conn, "interface", value)?;
        Ok(Value::Object(observed).to_string())
    }
}
