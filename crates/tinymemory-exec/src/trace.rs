//! A trace of every request and answer exchanged with exec drivers, one
//! JSON object a line, for a driver author reading what the suite sent
//! and what came back.
//!
//! A line is `{"unix_ms":..,"elapsed_ms":..,"pid":..,"check":..,"request":{..}}`
//! or the same with `"answer":{..}` (`"answer_text":".."` when the
//! answer line is not JSON). `check` is the id given to [`set_check`]
//! last, `null` outside a check (the `hello` handshake, the corpus load).
//! The trace is process-wide: one [`install`] per process. In-process
//! drivers are traced in the same shape by wrapping them in [`Traced`]
//! (`pid` is then `null`).

mod traced;

pub use traced::{Traced, TracedFactory};

use std::io::Write;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

struct Sink {
    out: Mutex<Box<dyn Write + Send>>,
    started: Instant,
    /// The first write failure, reported by [`flush`].
    error: Mutex<Option<std::io::Error>>,
}

static SINK: OnceLock<Sink> = OnceLock::new();
/// Lines written so far, so a failure can name the lines of its check.
static LINES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many lines the trace holds so far (0 without a trace): line `n` of
/// the file is the `n`-th record.
pub fn lines() -> u64 {
    LINES.load(std::sync::atomic::Ordering::SeqCst)
}
static CHECK: Mutex<Option<String>> = Mutex::new(None);

/// Records every later exchange of every exec driver of this process to
/// `out`. `false` when a trace was already installed (it stays).
pub fn install(out: Box<dyn Write + Send>) -> bool {
    SINK.set(Sink {
        out: Mutex::new(out),
        started: Instant::now(),
        error: Mutex::new(None),
    })
    .is_ok()
}

/// The check the next exchanges belong to; `None` between checks.
pub fn set_check(id: Option<&str>) {
    *CHECK.lock().unwrap_or_else(PoisonError::into_inner) = id.map(str::to_owned);
}

/// Flushes the trace.
///
/// # Errors
///
/// The first failure to write or flush the trace, if any.
pub fn flush() -> std::io::Result<()> {
    let Some(sink) = SINK.get() else {
        return Ok(());
    };
    if let Some(e) = sink
        .error
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    {
        return Err(e);
    }
    sink.out
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .flush()
}

/// `true` when a trace is installed: the callers skip building records
/// otherwise.
pub(crate) fn on() -> bool {
    SINK.get().is_some()
}

/// Records request `line` (one JSON object) sent to process `pid`.
pub(crate) fn request(pid: Option<u32>, line: &str) {
    let request = serde_json::from_str::<Value>(line).unwrap_or_else(|_| Value::from(line));
    record(pid, "request", request);
}

/// Records the answer line `bytes` read from process `pid`.
pub(crate) fn answer(pid: Option<u32>, bytes: &[u8]) {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => record(pid, "answer", v),
        Err(_) => record(
            pid,
            "answer_text",
            Value::from(String::from_utf8_lossy(bytes).into_owned()),
        ),
    }
}

fn record(pid: Option<u32>, field: &str, value: Value) {
    let Some(sink) = SINK.get() else {
        return;
    };
    let unix_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    let check = CHECK.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let mut line = json!({
        "unix_ms": (unix_ms * 1000.0).round() / 1000.0,
        "elapsed_ms": (sink.started.elapsed().as_secs_f64() * 1_000_000.0).round() / 1000.0,
        "pid": pid,
        "check": check,
    });
    line[field] = value;
    let mut text = line.to_string();
    text.push('\n');
    let written = {
        let mut out = sink.out.lock().unwrap_or_else(PoisonError::into_inner);
        let written = out.write_all(text.as_bytes());
        if written.is_ok() {
            LINES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
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
