//! Limits applied to a driver process.

use std::time::Duration;

/// How long the suite waits for one answer before it takes the driver as
/// hung and stops the process: the runner's per-call limit,
/// [`tinymemory_api::DEFAULT_CALL_TIMEOUT`] (30 s, forty times the
/// slowest answer measured from the Python example), which the CLI's
/// `--call-timeout` sets for both. The process reports first (the runner
/// waits `tinymemory_conformance::CALL_TIMEOUT_GRACE` longer), so the
/// error names the request and quotes the process's stderr.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = tinymemory_api::DEFAULT_CALL_TIMEOUT;

/// How many of the process's last stderr lines an error quotes, at most:
/// enough for a deep traceback, whose last lines name the fault. The quote
/// is also held to 16,000 characters in all by dropping its first lines,
/// and each line to 4,000 characters.
pub const DEFAULT_STDERR_LINES: usize = 200;

/// The longest answer line accepted, in bytes. A `list` of the whole bundled
/// corpus is about 7 MiB; anything past this is a runaway driver.
pub const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// The default [`ExecConfig::batch_bytes`]: 1 MiB. The bundled corpus
/// (22,688 entries) is about 10 MB as one `store_many` line; in requests of
/// at most 1 MiB it takes a dozen round trips, a cost lost in the writes,
/// and a driver whose line reader has a fixed buffer (Go's
/// `bufio.Scanner`, for one) needs only a modest one.
pub const DEFAULT_BATCH_BYTES: usize = 1024 * 1024;

/// Limits for one driver process, and the trace it writes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecConfig {
    /// How long one request may take, from writing it to reading its answer
    /// (the `hello` handshake included). When it runs out the process is
    /// stopped and the request fails with `MemoryError::Unavailable`.
    pub request_timeout: Duration,
    /// How many of the last stderr lines an error quotes.
    pub stderr_lines: usize,
    /// The most bytes of entries or records one `store_many` or `import`
    /// request carries (its JSON line, as written). A longer batch is sent
    /// as several requests, in order, each holding at least one entry (an
    /// entry larger than this goes alone); see
    /// [`ExecDriver`](crate::ExecDriver) for what that means for
    /// all-or-nothing.
    pub batch_bytes: usize,
    /// Where every request and answer is recorded
    /// ([`ExecConfig::with_trace`]); `None` records nothing.
    pub trace: Option<crate::trace::Trace>,
    /// How many processes [`ExecFactory::connect_blocking`](crate::ExecFactory::connect_blocking)
    /// starts beside the first, at once and in the background, while the
    /// first answers `hello` (a run's other jobs): each then has its
    /// start-up behind it when a check needs it. Their start-ups overlap
    /// the first's, so set it only for a driver known to take that (one
    /// whose stores are independent: a run given `--jobs N`, which is
    /// refused for any other). When the first `hello` does not declare
    /// `independent_stores` they are told to stop and no store opens
    /// until they have been (their ending, `SIGTERM` and its grace, may
    /// still be under way). One that fails to start, or answers `hello`
    /// unlike the first, is the error of the store that would have taken
    /// it. Zero by default.
    pub started_beside: usize,
}

impl ExecConfig {
    /// This configuration with another request timeout.
    #[must_use]
    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// This configuration with another [`ExecConfig::batch_bytes`].
    #[must_use]
    pub fn with_batch_bytes(mut self, bytes: usize) -> Self {
        self.batch_bytes = bytes;
        self
    }

    /// This configuration recording every request and answer of its
    /// processes to `trace`.
    #[must_use]
    pub fn with_trace(mut self, trace: crate::trace::Trace) -> Self {
        self.trace = Some(trace);
        self
    }

    /// This configuration with [`ExecConfig::started_beside`] set to `n`.
    #[must_use]
    pub fn with_started_beside(mut self, n: usize) -> Self {
        self.started_beside = n;
        self
    }

    /// This configuration with another number of stderr lines quoted.
    #[must_use]
    pub fn with_stderr_lines(mut self, lines: usize) -> Self {
        self.stderr_lines = lines;
        self
    }
}

impl Default for ExecConfig {
    /// [`DEFAULT_REQUEST_TIMEOUT`], [`DEFAULT_STDERR_LINES`] and
    /// [`DEFAULT_BATCH_BYTES`], untraced, no process started beside the
    /// first.
    fn default() -> Self {
        Self {
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            stderr_lines: DEFAULT_STDERR_LINES,
            batch_bytes: DEFAULT_BATCH_BYTES,
            trace: None,
            started_beside: 0,
        }
    }
}
