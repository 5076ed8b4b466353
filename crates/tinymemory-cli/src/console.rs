//! Where progress goes, whether it is coloured, and the live status line
//! on a terminal.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How often the status line is redrawn.
const TICK: Duration = Duration::from_millis(200);

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
    status: Mutex<Status>,
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
            status: Mutex::new(Status::default()),
        }
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

    /// Records that check `id`, number `position` (from 1) of `total`, is
    /// now running.
    pub(crate) fn running(&self, position: usize, total: usize, id: &str) {
        let mut status = self.status.lock().unwrap_or_else(PoisonError::into_inner);
        status.running = Some((position, total, id.to_owned(), Instant::now()));
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

    /// Redraws `[3/17] recall.limit 1.2s` in place.
    fn tick(&self) {
        let mut status = self.status.lock().unwrap_or_else(PoisonError::into_inner);
        let Some((position, total, id, started)) = &status.running else {
            return;
        };
        let text = format!(
            "\r\x1b[2K[{position}/{total}] {id} {:.1?}",
            started.elapsed()
        );
        status.shown = true;
        self.write(&text);
    }

    /// On a terminal, a task that redraws the status line until aborted;
    /// `None` elsewhere.
    pub(crate) fn start_ticker(self: &Arc<Self>) -> Option<tokio::task::JoinHandle<()>> {
        if !self.live {
            return None;
        }
        let console = Arc::clone(self);
        Some(tokio::spawn(async move {
            let mut interval = tokio::time::interval(TICK);
            loop {
                interval.tick().await;
                console.tick();
            }
        }))
    }

    fn write(&self, text: &str) {
        // A closed pipe (`| head`) must not panic the run; the exit code
        // still tells the outcome.
        let _ = match self.stream {
            Stream::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes()).and_then(|()| out.flush())
            }
            Stream::Stderr => {
                let mut err = std::io::stderr().lock();
                err.write_all(text.as_bytes()).and_then(|()| err.flush())
            }
        };
    }
}
