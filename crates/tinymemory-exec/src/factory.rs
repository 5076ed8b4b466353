//! Fresh stores for every check, from reused driver processes.

use std::sync::Arc;

use async_trait::async_trait;
use tinymemory_api::DriverFactory;
use tinymemory_api::{MemoryError, MemoryProvider, RecallProfile};

use crate::decode::{check_hello, hello};
use crate::pool::{First, Pool};
use crate::process::Connection;
use crate::protocol::{HelloResult, OptionalOp};
use crate::{ExecCommand, ExecConfig, ExecDriver};

/// A [`DriverFactory`] over driver processes: every [`DriverFactory::open`]
/// sends `reset` to an idle process, so a check starts from an empty store
/// at the cost of one round trip rather than a process start.
///
/// Each store has a process to itself while it lives: a check holding two
/// stores at once gets two processes, and a store's process becomes idle
/// again when the store is dropped. A process that died, hung past the
/// request timeout or printed something that is not an answer is never
/// reused: the check that saw it fails with that error, and the next `open`
/// starts a new process (with a new `hello`), so the run goes on.
///
/// The driver's id and recall profile are those of the first process's
/// `hello` answer ([`DriverFactory::driver_id`],
/// [`DriverFactory::recall_profile`]), and so are its optional ops
/// ([`ExecFactory::ops`]); a later process declaring another profile or
/// listing other ops fails the `open` that started it.
///
/// ```
/// use std::sync::Arc;
/// use tinymemory_conformance::{Family, Registry, Runner};
/// use tinymemory_exec::{ExecCommand, ExecConfig, ExecFactory};
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/python/memory_driver.py");
/// let command = ExecCommand::new("python3", [script]);
/// let factory = ExecFactory::connect(command, ExecConfig::default()).await?;
/// let contract = Registry::standard().family(Family::Contract);
/// let summary = Runner::new(contract).run(Arc::new(factory), None, |_| {}).await;
/// assert_eq!(summary.failed(), 0, "{}", summary.closing_line());
/// # Ok::<(), tinymemory_api::MemoryError>(())
/// # }).unwrap();
/// ```
pub struct ExecFactory {
    command: ExecCommand,
    config: ExecConfig,
    driver_id: String,
    recall_profile: RecallProfile,
    ops: Vec<OptionalOp>,
    independent_stores: bool,
    interface: Option<String>,
    pool: Arc<Pool>,
}

impl ExecFactory {
    /// Starts `command` and checks its `hello`; the process then waits,
    /// idle, for the first [`DriverFactory::open`].
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] when the process cannot be started, exits,
    /// or answers `hello` with another protocol version, an unknown
    /// `recall_profile` (the message names it and the profiles that
    /// exist), an error or a malformed result;
    /// [`MemoryError::Unavailable`] when it does not answer within the
    /// request timeout.
    pub async fn connect(command: ExecCommand, config: ExecConfig) -> Result<Self, MemoryError> {
        let pool = Arc::new(Pool::default());
        let (conn, hello) = start(&command, config.clone(), &pool).await?;
        pool.set_first(Some(first_of(&hello)));
        pool.put(conn);
        Ok(Self {
            command,
            config,
            recall_profile: hello.profile(),
            independent_stores: hello.independent_stores,
            driver_id: hello.driver,
            ops: hello.ops,
            interface: hello.interface,
            pool,
        })
    }

    /// [`ExecFactory::connect`], blocking the calling thread until the
    /// process has answered `hello` (at most one request timeout). For
    /// synchronous set-up code; it needs no runtime.
    ///
    /// # Errors
    ///
    /// As [`ExecFactory::connect`].
    pub fn connect_blocking(command: ExecCommand, config: ExecConfig) -> Result<Self, MemoryError> {
        let pool = Arc::new(Pool::default());
        // Beside the first, inside a runtime only (their starts need one).
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            for _ in 0..config.started_beside {
                pool.begin_start();
                let ahead = Ahead {
                    command: command.clone(),
                    config: config.clone(),
                    pool: Arc::clone(&pool),
                };
                runtime.spawn(ahead.start());
            }
        }
        let first = Connection::start(&command, config.clone())
            .map(Arc::new)
            .and_then(|conn| {
                pool.record_start();
                let hello = check_hello(&conn, conn.call_blocking(hello()))?;
                Ok((conn, hello))
            });
        let (conn, hello) = match first {
            Ok(started) => started,
            Err(e) => {
                pool.set_first(None);
                return Err(e);
            }
        };
        pool.set_first(Some(first_of(&hello)));
        pool.put(conn);
        Ok(Self {
            command,
            config,
            recall_profile: hello.profile(),
            independent_stores: hello.independent_stores,
            driver_id: hello.driver,
            ops: hello.ops,
            interface: hello.interface,
            pool,
        })
    }

    /// The command each process runs.
    #[must_use]
    pub fn command(&self) -> &ExecCommand {
        &self.command
    }

    /// The recall profile the driver declared in its first `hello` answer,
    /// [`RecallProfile::Lexical`] when it declared none. The same as
    /// [`DriverFactory::recall_profile`].
    #[must_use]
    pub fn recall_profile(&self) -> RecallProfile {
        self.recall_profile
    }

    /// Whether the driver's first `hello` declared `independent_stores`:
    /// two of its processes are two stores, so checks may run at once
    /// ([`DriverFactory::independent_stores`]).
    #[must_use]
    pub fn independent_stores(&self) -> bool {
        self.independent_stores
    }

    /// The optional ops the driver listed in its first `hello` answer
    /// (`ops`), in its order; empty when it listed none.
    #[must_use]
    pub fn ops(&self) -> &[OptionalOp] {
        &self.ops
    }

    /// The framework interface the driver's first `hello` declared
    /// (`interface`), `None` when it declared none.
    #[must_use]
    pub fn interface(&self) -> Option<&str> {
        self.interface.as_deref()
    }

    /// The limits each process runs under.
    #[must_use]
    pub fn config(&self) -> ExecConfig {
        self.config.clone()
    }

    /// How many processes this factory has started, the first included:
    /// one more for each store open at the same time as another, and for
    /// each process that had to be replaced.
    #[must_use]
    pub fn processes_started(&self) -> u64 {
        self.pool.started()
    }

    /// A fresh store: an idle process reset, else a new process.
    async fn fresh(&self) -> Result<ExecDriver, MemoryError> {
        let pool = Some(Arc::downgrade(&self.pool));
        while let Some(taken) = self.pool.take().await {
            // A process started ahead for this store that failed: this
            // store's failure, as if it had started the process itself.
            let conn = taken?;
            let reset = ExecDriver::reset(
                Arc::clone(&conn),
                self.driver_id.clone(),
                self.recall_profile,
                self.ops.clone(),
                self.interface.clone(),
                pool.clone(),
            );
            match reset.await {
                Ok(driver) => return Ok(driver),
                // It died answering the reset: try the next one.
                Err(_) if !conn.is_usable() => {}
                Err(e) => return Err(e),
            }
        }
        let (conn, hello) = start(&self.command, self.config.clone(), &self.pool).await?;
        if let Some(e) = unlike(&self.command, &self.first(), &hello) {
            // Dropping the connection ends the process.
            return Err(e);
        }
        ExecDriver::reset(
            conn,
            self.driver_id.clone(),
            self.recall_profile,
            self.ops.clone(),
            self.interface.clone(),
            pool,
        )
        .await
    }

    /// What every later process must answer `hello` like.
    fn first(&self) -> First {
        First {
            recall_profile: self.recall_profile,
            ops: self.ops.clone(),
            independent_stores: self.independent_stores,
            interface: self.interface.clone(),
        }
    }
}

/// Why a later process's `hello` is refused: it declares another profile,
/// lists other ops or says otherwise of independent stores than the
/// driver's first process did (`first`).
fn unlike(command: &ExecCommand, first: &First, hello: &HelloResult) -> Option<MemoryError> {
    let refused = |what: String| {
        Some(MemoryError::fault(format!(
            "failed to start `{command}`: {what}"
        )))
    };
    if hello.profile() != first.recall_profile {
        return refused(format!(
            "this process declares recall profile {}, the driver's first process declared {}; \
             every process of a driver must declare the same profile",
            hello.profile(),
            first.recall_profile
        ));
    }
    if hello.ops != first.ops {
        return refused(format!(
            "this process lists ops {}, the driver's first process listed {}; every process of \
             a driver must list the same ops",
            op_list(&hello.ops),
            op_list(&first.ops)
        ));
    }
    if hello.interface != first.interface {
        return refused(format!(
            "this process declares interface {:?}, the driver's first process declared {:?}; \
             every process of a driver must declare the same interface",
            hello.interface, first.interface
        ));
    }
    if hello.independent_stores != first.independent_stores {
        let says = |independent: bool| {
            if independent {
                "declares `independent_stores`"
            } else {
                "does not declare `independent_stores`"
            }
        };
        return refused(format!(
            "this process {}, the driver's first process {}; every process of a driver must say \
             the same of its stores",
            says(hello.independent_stores),
            says(first.independent_stores)
        ));
    }
    None
}

/// `[store_many, import]`, or `[]`.
fn op_list(ops: &[OptionalOp]) -> String {
    let names: Vec<&str> = ops.iter().map(|op| op.as_str()).collect();
    format!("[{}]", names.join(", "))
}

/// What a process started ahead must answer like.
fn first_of(hello: &HelloResult) -> First {
    First {
        recall_profile: hello.profile(),
        ops: hello.ops.clone(),
        independent_stores: hello.independent_stores,
        interface: hello.interface.clone(),
    }
}

/// A process being started ahead of the store that will use it.
struct Ahead {
    command: ExecCommand,
    config: ExecConfig,
    pool: Arc<Pool>,
}

impl Ahead {
    /// Starts the process and asks `hello`; keeps it as idle when it
    /// answers as the first process did, and keeps its error for the next
    /// store when it does not start, answers badly or unlike the first.
    /// Stopped, and forgotten, when the first process failed or does not
    /// declare independent stores (it may have been started beside the
    /// first, before that was known).
    async fn start(self) {
        let unneeded = async {
            if matches!(self.pool.first().await, Some(f) if f.independent_stores) {
                std::future::pending::<()>().await;
            }
        };
        let started = async {
            let conn = Arc::new(Connection::start(&self.command, self.config)?);
            let hello = check_hello(&conn, conn.call(hello()).await)?;
            Ok::<_, MemoryError>((conn, hello))
        };
        let ended = tokio::select! {
            started = started => match self.pool.first().await {
                // Kept, or its failure kept, only beside a first process
                // that declares independent stores.
                Some(first) if first.independent_stores => started.and_then(|(conn, hello)| {
                    unlike(&self.command, &first, &hello).map_or(Ok(Some(conn)), Err)
                }),
                _ => Ok(None),
            },
            () = unneeded => Ok(None),
        };
        self.pool.end_start(ended);
    }
}

/// Starts a process and checks its `hello`; returns it with its answer.
async fn start(
    command: &ExecCommand,
    config: ExecConfig,
    pool: &Pool,
) -> Result<(Arc<Connection>, HelloResult), MemoryError> {
    let conn = Arc::new(Connection::start(command, config)?);
    pool.record_start();
    let hello = check_hello(&conn, conn.call(hello()).await)?;
    Ok((conn, hello))
}

impl std::fmt::Debug for ExecFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecFactory")
            .field("command", &self.command.to_string())
            .field("driver_id", &self.driver_id)
            .field("recall_profile", &self.recall_profile)
            .field("ops", &self.ops)
            .field("config", &self.config)
            .field("processes_started", &self.processes_started())
            .finish_non_exhaustive()
    }
}

#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl DriverFactory for ExecFactory {
    /// The id the driver gave in its first `hello` answer.
    fn driver_id(&self) -> String {
        self.driver_id.clone()
    }

    /// The profile the driver declared in its first `hello` answer
    /// (`recall_profile`), [`RecallProfile::Lexical`] when it declared
    /// none.
    fn recall_profile(&self) -> RecallProfile {
        self.recall_profile
    }

    /// What the driver's first `hello` declared (`independent_stores`),
    /// `false` when it said nothing.
    fn independent_stores(&self) -> bool {
        self.independent_stores
    }

    /// Starts processes in the background, all at once, until this factory
    /// has started `stores` (the first included), so each start-up overlaps
    /// the others and the first checks: an `open` then waits for one of
    /// them rather than starting its own. Only for a driver whose `hello`
    /// declared `independent_stores` (a process of a driver sharing one
    /// database may change what another holds when it starts), and only
    /// inside a Tokio runtime. A process started ahead that fails or
    /// answers `hello` unlike the first is dropped: the `open` that would
    /// have used it starts its own, and reports why.
    fn start_ahead(&self, stores: usize) {
        if !self.independent_stores {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let started = usize::try_from(self.pool.started()).unwrap_or(usize::MAX);
        for _ in started..stores {
            self.pool.begin_start();
            let ahead = Ahead {
                command: self.command.clone(),
                config: self.config.clone(),
                pool: Arc::clone(&self.pool),
            };
            runtime.spawn(ahead.start());
        }
    }

    /// An empty store with a process to itself: an idle process after a
    /// `reset`, or a new one.
    async fn open(&self) -> Result<Box<dyn MemoryProvider>, MemoryError> {
        Ok(Box::new(self.fresh().await?))
    }
}
