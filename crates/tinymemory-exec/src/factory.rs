//! Fresh stores for every check, from one driver process.

use std::sync::Arc;

use async_trait::async_trait;
use tinymemory_api::{MemoryError, MemoryProvider};
use tinymemory_conformance::DriverFactory;
use tokio::sync::Mutex;

use crate::decode::{check_hello, hello};
use crate::process::Connection;
use crate::{ExecCommand, ExecConfig, ExecDriver};

/// A [`DriverFactory`] over a driver process: one process serves every
/// check, and [`DriverFactory::open`] sends it `reset`, so each check starts
/// from an empty store at the cost of one round trip, not a process start.
///
/// When the process dies, hangs past the request timeout or prints
/// something that is not an answer, the check that saw it fails with that
/// error, and the next `open` starts a new process (with a new `hello`):
/// one broken request fails one check, and the run goes on.
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
    current: Mutex<Arc<Connection>>,
}

impl ExecFactory {
    /// Starts `command` and checks its `hello`.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] when the process cannot be started, exits,
    /// or answers `hello` with another protocol version, an error or a
    /// malformed result; [`MemoryError::Unavailable`] when it does not
    /// answer within the request timeout.
    pub async fn connect(command: ExecCommand, config: ExecConfig) -> Result<Self, MemoryError> {
        let (conn, driver_id) = start(&command, config).await?;
        Ok(Self {
            command,
            config,
            driver_id,
            current: Mutex::new(conn),
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
        let conn = Arc::new(Connection::start(&command, config)?);
        let hello = check_hello(&conn, conn.call_blocking(hello()))?;
        Ok(Self {
            command,
            config,
            driver_id: hello.driver,
            current: Mutex::new(conn),
        })
    }

    /// The command each process runs.
    #[must_use]
    pub fn command(&self) -> &ExecCommand {
        &self.command
    }

    /// The limits each process runs under.
    #[must_use]
    pub fn config(&self) -> ExecConfig {
        self.config
    }
}

/// Starts a process and checks its `hello`; returns it with its driver id.
async fn start(
    command: &ExecCommand,
    config: ExecConfig,
) -> Result<(Arc<Connection>, String), MemoryError> {
    let conn = Arc::new(Connection::start(command, config)?);
    let hello = check_hello(&conn, conn.call(hello()).await)?;
    Ok((conn, hello.driver))
}

impl std::fmt::Debug for ExecFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecFactory")
            .field("command", &self.command.to_string())
            .field("driver_id", &self.driver_id)
            .field("config", &self.config)
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

    /// Resets the shared process's store and returns a driver for it; the
    /// driver from the previous `open` is stale from then on. Starts a new
    /// process first when the current one is no longer usable, or when it
    /// dies answering the `reset`.
    async fn open(&self) -> Result<Box<dyn MemoryProvider>, MemoryError> {
        let mut current = self.current.lock().await;
        if !current.is_usable() {
            *current = start(&self.command, self.config).await?.0;
        }
        match ExecDriver::reset(Arc::clone(&current), self.driver_id.clone()).await {
            Ok(driver) => Ok(Box::new(driver)),
            Err(_) if !current.is_usable() => {
                *current = start(&self.command, self.config).await?.0;
                let driver =
                    ExecDriver::reset(Arc::clone(&current), self.driver_id.clone()).await?;
                Ok(Box::new(driver))
            }
            Err(e) => Err(e),
        }
    }
}
