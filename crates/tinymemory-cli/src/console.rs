//! Where progress goes, whether it is coloured, and the live status line
//! on a terminal.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tinymemory_conformance::CaseProgress;

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
    /// Cases done of the running property check, shown after its id.
    cases: CaseProgress,
    /// The first write failure other than a closed pipe.
    write_error: Mutex<Option<String>>,
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
            cases: CaseProgress::new(),
            write_error: Mutex::new(None),
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

    /// Redraws `[3/17] recall.limit 1.2s` in place, with `case 12/64`
    /// after a property check's id.
    fn tick(&self) {
        let mut status = self.status.lock().unwrap_or_else(PoisonError::into_inner);
        let Some((position, total, id, started)) = &status.running else {
            return;
        };
        let cases = self
            .cases
            .get()
            .map(|(done, all)| format!(" case {done}/{all}"))
            .unwrap_or_default();
        let text = format!(
            "\r\x1b[2K[{position}/{total}] {id}{cases} {:.1?}",
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
