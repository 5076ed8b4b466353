//! A trace of every request and answer exchanged with a driver, one JSON
//! object a line, for a driver author reading what the suite sent and
//! what came back.
//!
//! A line is `{"unix_ms":..,"elapsed_ms":..,"pid":..,"check":..,"request":{..}}`
//! or the same with `"answer":{..}` (`"answer_text":".."` when the
//! answer line is not JSON). `check` is the id given to
//! [`Trace::set_check`] last, `null` outside a check (the `hello`
//! handshake, the corpus load).
//!
//! A [`Trace`] is a handle: its clones write to the same file. An exec
//! driver writes to the trace of its [`ExecConfig`](crate::ExecConfig)
//! ([`ExecConfig::with_trace`](crate::ExecConfig::with_trace)); an
//! in-process driver is traced in the same shape by wrapping it in
//! [`Traced`] (`pid` is then `null`).

mod traced;

pub use traced::{Traced, TracedFactory};

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

/// Where a trace's lines go.
struct Sink {
    out: Mutex<Box<dyn Write + Send>>,
    started: Instant,
    /// The first write failure, reported by [`Trace::flush`].
    error: Mutex<Option<std::io::Error>>,
    /// Lines written so far, so a failure can name the lines of its check.
    lines: AtomicU64,
    /// The check the next exchanges belong to.
    check: Mutex<Option<String>>,
}

/// A handle to one trace: every clone writes to the same output, and
/// names the same running check.
#[derive(Clone)]
pub struct Trace {
    sink: Arc<Sink>,
}

impl fmt::Debug for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trace")
            .field("lines", &self.lines())
            .finish_non_exhaustive()
    }
}

/// Two handles are equal when they write to the same trace.
impl PartialEq for Trace {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.sink, &other.sink)
    }
}

impl Eq for Trace {}

impl Trace {
    /// A trace writing its lines to `out`, its clock started now.
    #[must_use]
    pub fn new(out: Box<dyn Write + Send>) -> Self {
        Self {
            sink: Arc::new(Sink {
                out: Mutex::new(out),
                started: Instant::now(),
                error: Mutex::new(None),
                lines: AtomicU64::new(0),
                check: Mutex::new(None),
            }),
        }
    }

    /// How many lines the trace holds so far: line `n` of the output is
    /// the `n`-th record.
    #[must_use]
    pub fn lines(&self) -> u64 {
        self.sink.lines.load(Ordering::SeqCst)
    }

    /// The check the next exchanges belong to; `None` between checks.
    pub fn set_check(&self, id: Option<&str>) {
        *self
            .sink
            .check
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = id.map(str::to_owned);
    }

    /// Flushes the trace.
    ///
    /// # Errors
    ///
    /// The first failure to write or flush the trace, if any.
    pub fn flush(&self) -> std::io::Result<()> {
        if let Some(e) = self
            .sink
            .error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            return Err(e);
        }
        self.sink
            .out
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .flush()
    }

    /// Records request `line` (one JSON object) sent to process `pid`.
    pub(crate) fn request(&self, pid: Option<u32>, line: &str) {
        let request = serde_json::from_str::<Value>(line).unwrap_or_else(|_| Value::from(line));
        self.record(pid, "request", request);
    }

    /// Records the answer line `bytes` read from process `pid`.
    pub(crate) fn answer(&self, pid: Option<u32>, bytes: &[u8]) {
        match serde_json::from_slice::<Value>(bytes) {
            Ok(v) => self.record(pid, "answer", v),
            Err(_) => self.record(
                pid,
                "answer_text",
                Value::from(String::from_utf8_lossy(bytes).into_owned()),
            ),
        }
    }

    fn record(&self, pid: Option<u32>, field: &str, value: Value) {
        let sink = &self.sink;
        let unix_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
        let check = sink
            .check
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let mut line = json!({
            "unix_ms": (unix_ms * 1000.0).round() / 1000.0,
            "elapsed_ms": (sink.started.elapsed().as_secs_f64() * 1_000_000.0).round() / 1000.0,
            "pid": pid,
            "check": check,
        });
        line[field] = value;
        // Bidi and other hidden characters of a driver's answer as
        // `\uXXXX`, as in every JSON the suite writes.
        let mut text = tinymemory_api::shown::json_escaped(&line.to_string()).into_owned();
        text.push('\n');
        let written = {
            let mut out = sink.out.lock().unwrap_or_else(PoisonError::into_inner);
            let written = out.write_all(text.as_bytes());
            if written.is_ok() {
                sink.lines.fetch_add(1, Ordering::SeqCst);
            }
            written
        };
        if let Err(e) = written {
            sink.error
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(e);
        }
    }
}
