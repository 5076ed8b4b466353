//! Where progress goes, whether it is coloured, and the live status line
//! on a terminal.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tinymemory_conformance::CaseProgress;

/// How often the corpus-load status is redrawn on a terminal.
const LOAD_TICK: Duration = Duration::from_millis(100);

/// How often the corpus-load status is written as a line when progress is
/// not a terminal (a CI log): a slow driver's load is not silent, a fast
/// one's prints nothing.
const LOAD_LINE_EVERY: Duration = Duration::from_secs(10);

/// Which standard stream progress is written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    Stdout,
    Stderr,
}

/// The progress stream of one command: lines (per check, load summary,
/// closing line) and, on a terminal, a status line naming the running
/// check, redrawn in place and erased before every line.
pub(crate) struct Console {
    stream: Stream,
    colour: bool,
    live: bool,
    quiet: bool,
    status: Mutex<Status>,
    /// Cases done of the running property check, shown after its id.
    cases: CaseProgress,
    /// The first write failure other than a closed pipe.
    write_error: Mutex<Option<String>>,
    /// The run's progress bars on stderr, cleared around each write: a
    /// line written to the terminal they are drawn on is not drawn over.
    around: std::sync::OnceLock<Arc<crate::run::waiting::Waiting>>,
}

#[derive(Default)]
struct Status {
    /// `(position, total, check id, started)` of the running check.
    running: Option<(usize, usize, String, Instant)>,
    /// A status line is on screen and must be erased before the next line.
    shown: bool,
}

impl Console {
    /// Progress on `stream`. Colour and the live status line only when
    /// that stream is a terminal (and `NO_COLOR` is unset or empty, and
    /// `TERM` is not `dumb`); no status line when `quiet`.
    pub(crate) fn new(stream: Stream, quiet: bool) -> Self {
        let terminal = match stream {
            Stream::Stdout => std::io::stdout().is_terminal(),
            Stream::Stderr => std::io::stderr().is_terminal(),
        };
        let no_colour = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        Self {
            stream,
            colour: terminal && !no_colour && !dumb,
            live: terminal && !dumb && !quiet,
            quiet,
            status: Mutex::new(Status::default()),
            cases: CaseProgress::new(),
            write_error: Mutex::new(None),
            around: std::sync::OnceLock::new(),
        }
    }

    /// The first failure to write progress, other than a closed pipe (a
    /// full disk behind `> run.txt`): the text run's output was lost, so
    /// the command must not report success.
    pub(crate) fn write_error(&self) -> Option<String> {
        self.write_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The counter the runner reports property cases to
    /// ([`Runner::with_progress`](tinymemory_conformance::Runner::with_progress)).
    pub(crate) fn case_progress(&self) -> CaseProgress {
        self.cases.clone()
    }

    /// `true` when lines may carry ANSI colour.
    pub(crate) fn colour(&self) -> bool {
        self.colour
    }

    /// `true` when progress goes to stdout.
    pub(crate) fn is_stdout(&self) -> bool {
        self.stream == Stream::Stdout
    }

    /// Writes `text` and a newline, erasing the status line first.
    pub(crate) fn line(&self, text: &str) {
        let mut status = self.status.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = String::new();
        if status.shown {
            out.push_str("\r\x1b[2K");
            status.shown = false;
        }
        out.push_str(text);
        out.push('\n');
        self.write(&out);
    }

    /// A tracker of counted work, started now (`migrate`'s records):
    /// redrawn in place at most every [`LOAD_TICK`] on a terminal, a line
    /// every [`LOAD_LINE_EVERY`] elsewhere, nothing when quiet; its status
    /// reads
    /// `{what}: N of TOTAL {unit}, R {unit}/s` (`migrating: .. records`).
    pub(crate) fn counted_progress(
        &self,
        what: &'static str,
        unit: &'static str,
    ) -> LoadProgress<'_> {
        let now = Instant::now();
        LoadProgress {
            console: self,
            what,
            unit,
            started: now,
            throttle: Throttle {
                every: if self.live {
                    LOAD_TICK
                } else {
                    LOAD_LINE_EVERY
                },
                last: now,
            },
        }
    }

    /// Shows the load status `text`: in place on a terminal, as a line
    /// elsewhere, not at all when quiet.
    fn load_status(&self, text: &str) {
        if self.quiet {
            return;
        }
        if self.live {
            let mut status = self.status.lock().unwrap_or_else(PoisonError::into_inner);
            status.shown = true;
            self.write(&format!("\r\x1b[2K{text}"));
        } else {
            self.line(text);
        }
    }

    /// Records that no check is running, and erases the status line.
    pub(crate) fn idle(&self) {
        let mut status = self.status.lock().unwrap_or_else(PoisonError::into_inner);
        status.running = None;
        if status.shown {
            status.shown = false;
            self.write("\r\x1b[2K");
        }
    }

    /// Writes every later line with `waiting`'s bars cleared around it.
    pub(crate) fn around(&self, waiting: &Arc<crate::run::waiting::Waiting>) {
        let _ = self.around.set(Arc::clone(waiting));
    }

    fn write(&self, text: &str) {
        match self.around.get() {
            Some(waiting) => waiting.suspend(|| self.write_now(text)),
            None => self.write_now(text),
        }
    }

    fn write_now(&self, text: &str) {
        // Once interrupted, the checks whose driver processes the signal
        // handler stopped fail; those are not the driver's failures.
        if crate::cleanup::interrupted() {
            return;
        }
        // A closed pipe (`| head`) must not panic the run, nor fail it: the
        // reader chose to stop. Any other failure is kept for the exit code.
        let written = match self.stream {
            Stream::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes()).and_then(|()| out.flush())
            }
            Stream::Stderr => {
                let mut err = std::io::stderr().lock();
                err.write_all(text.as_bytes()).and_then(|()| err.flush())
            }
        };
        if let Err(e) = written {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                let mut slot = self
                    .write_error
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                slot.get_or_insert_with(|| format!("failed to write the progress output: {e}"));
            }
        }
    }
}

/// The corpus load's progress on a [`Console`].
pub(crate) struct LoadProgress<'a> {
    console: &'a Console,
    what: &'static str,
    unit: &'static str,
    started: Instant,
    throttle: Throttle,
}

impl LoadProgress<'_> {
    /// `done` of `total` entries are stored; cheap unless a redraw is due.
    pub(crate) fn update(&mut self, done: usize, total: usize) {
        let now = Instant::now();
        if self.throttle.ready(now) {
            self.console.load_status(&counted_status(
                self.what,
                self.unit,
                done,
                total,
                now - self.started,
            ));
        }
    }
}

/// Lets through at most one event per `every`, the first one `every`
/// after the start.
struct Throttle {
    every: Duration,
    last: Instant,
}

impl Throttle {
    fn ready(&mut self, now: Instant) -> bool {
        if now.saturating_duration_since(self.last) < self.every {
            return false;
        }
        self.last = now;
        true
    }
}

/// `loading the corpus: 12000 of 22688 entries, 3400 entries/s`.
#[cfg(test)]
fn load_status(done: usize, total: usize, elapsed: Duration) -> String {
    counted_status("loading the corpus", "entries", done, total, elapsed)
}

/// `{what}: {done} of {total} {unit}, R {unit}/s`.
fn counted_status(what: &str, unit: &str, done: usize, total: usize, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    #[allow(clippy::cast_precision_loss)] // a rate for a human
    let rate = if secs > 0.0 {
        format!(", {:.0} {unit}/s", done as f64 / secs)
    } else {
        String::new()
    };
    format!("{what}: {done} of {total} {unit}{rate}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_load_status_counts_entries_and_rate() {
        assert_eq!(
            load_status(12_000, 22_688, Duration::from_millis(3_750)),
            "loading the corpus: 12000 of 22688 entries, 3200 entries/s"
        );
        assert_eq!(
            load_status(0, 22_688, Duration::ZERO),
            "loading the corpus: 0 of 22688 entries"
        );
    }

    #[test]
    fn the_migrate_status_counts_records() {
        assert_eq!(
            counted_status(
                "migrating",
                "records",
                500,
                22_688,
                Duration::from_millis(250)
            ),
            "migrating: 500 of 22688 records, 2000 records/s"
        );
    }

    #[test]
    fn the_throttle_lets_one_event_through_per_interval() {
        let start = Instant::now();
        let ms = Duration::from_millis;
        let mut t = Throttle {
            every: ms(100),
            last: start,
        };
        let ready: Vec<bool> = [0, 50, 99, 100, 150, 199, 200, 450]
            .into_iter()
            .map(|at| t.ready(start + ms(at)))
            .collect();
        assert_eq!(ready, [false, false, false, true, false, false, true, true]);
    }
}
