//! Progress where a person waits: the corpus load and the running checks,
//! on stderr only (stdout may carry a report). On a terminal, two bars
//! (entries loaded of the total with the rate and the time left; checks
//! finished of the total with the running check); elsewhere (a CI log), a
//! line every [`LOG_EVERY`] while work runs, none for a run shorter than
//! that; nothing under `--quiet`.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use tinymemory_conformance::{CaseProgress, CheckReport, CheckStarted, RunObserver};

/// How often a progress line is written when stderr is not a terminal.
pub(crate) const LOG_EVERY: Duration = Duration::from_secs(5);

/// How often the bars' running check (and its cases) is redrawn.
const BAR_TICK: Duration = Duration::from_millis(200);

/// What the display knows of the run.
#[derive(Default)]
struct State {
    /// Entries stored of the total, and when the load started.
    load: Option<(usize, usize, Instant)>,
    /// Checks finished, and the run's total.
    checks: Option<(usize, usize)>,
    /// Running checks by position: id and start.
    running: BTreeMap<usize, (&'static str, Instant)>,
}

impl State {
    /// The running check the display names: the first not yet finished,
    /// with its time so far and, for a property check, its cases.
    fn running_text(&self, cases: &CaseProgress) -> Option<String> {
        let (id, since) = self.running.values().next()?;
        let cases = cases
            .get()
            .map(|(done, all)| format!(", case {done}/{all}"))
            .unwrap_or_default();
        Some(format!("{id} ({:.1?}{cases})", since.elapsed()))
    }

    /// The log line of the work under way: the load, the checks, or both
    /// while the checks that read no corpus run during the load.
    fn log_line(&self, cases: &CaseProgress) -> Option<String> {
        let load = self
            .load
            .filter(|(d, t, _)| d < t)
            .map(|(done, total, started)| load_line(done, total, started.elapsed()));
        let checks = self.checks.map(|(finished, total)| {
            let running = self
                .running_text(cases)
                .map(|r| format!("; running {r}"))
                .unwrap_or_default();
            format!("checks: {finished} of {total} finished{running}")
        });
        match (load, checks) {
            (Some(load), Some(checks)) => Some(format!("{load}; {checks}")),
            (load, checks) => load.or(checks),
        }
    }
}

/// `loading the corpus: 12000 of 22688 entries, 3400 entries/s, about 3s
/// left`.
fn load_line(done: usize, total: usize, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    #[allow(clippy::cast_precision_loss)] // a rate for a person
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let left = if rate > 0.0 {
        #[allow(clippy::cast_precision_loss)]
        let left = (total - done) as f64 / rate;
        format!(", about {}s left", left.ceil())
    } else {
        String::new()
    };
    format!("loading the corpus: {done} of {total} entries, {rate:.0} entries/s{left}")
}

/// The bars of a run on a terminal.
struct Bars {
    multi: MultiProgress,
    load: Option<ProgressBar>,
    checks: Option<ProgressBar>,
}

/// How progress is shown.
enum Display {
    /// stderr is a terminal.
    Bars(Mutex<Bars>),
    /// stderr is a file or a pipe: lines.
    Log,
    /// `--quiet`.
    Off,
}

/// The progress display of one run: an observer of its events, and a
/// ticker that redraws the bars or writes the log lines while it runs.
pub(crate) struct Waiting {
    display: Display,
    state: Mutex<State>,
    cases: CaseProgress,
}

impl Waiting {
    /// The display for a run whose property cases count into `cases`:
    /// bars when stderr is a terminal (and `TERM` is not `dumb`), lines
    /// when it is not, nothing when `quiet`.
    pub(crate) fn new(quiet: bool, cases: CaseProgress) -> Arc<Self> {
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        let display = if quiet {
            Display::Off
        } else if std::io::stderr().is_terminal() && !dumb {
            Display::Bars(Mutex::new(Bars {
                multi: MultiProgress::with_draw_target(ProgressDrawTarget::stderr()),
                load: None,
                checks: None,
            }))
        } else {
            Display::Log
        };
        Arc::new(Self {
            display,
            state: Mutex::new(State::default()),
            cases,
        })
    }

    /// Runs `write` with the bars cleared, so a line written to the same
    /// terminal (stdout's report lines) is not drawn over.
    pub(crate) fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        match &self.display {
            Display::Bars(bars) => {
                let multi = bars
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .multi
                    .clone();
                multi.suspend(write)
            }
            Display::Log | Display::Off => write(),
        }
    }

    /// Starts the ticker: the bars' running check redrawn every
    /// [`BAR_TICK`], or a line every [`LOG_EVERY`]; `None` when off.
    pub(crate) fn start(self: &Arc<Self>) -> Option<tokio::task::JoinHandle<()>> {
        let every = match self.display {
            Display::Bars(_) => BAR_TICK,
            Display::Log => LOG_EVERY,
            Display::Off => return None,
        };
        let me = Arc::clone(self);
        Some(tokio::spawn(async move {
            let mut interval = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
            loop {
                interval.tick().await;
                me.tick();
            }
        }))
    }

    fn tick(&self) {
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match &self.display {
            Display::Bars(bars) => {
                let bars = bars.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(bar) = &bars.checks {
                    bar.set_message(state.running_text(&self.cases).unwrap_or_default());
                }
            }
            Display::Log => {
                if let Some(line) = state.log_line(&self.cases) {
                    // Progress that cannot be written is not the run's
                    // failure: the report is elsewhere.
                    let _ = writeln!(std::io::stderr().lock(), "{line}");
                }
            }
            Display::Off => {}
        }
    }

    /// Clears the bars at the run's end.
    pub(crate) fn finish(&self) {
        if let Display::Bars(bars) = &self.display {
            let mut bars = bars.lock().unwrap_or_else(PoisonError::into_inner);
            for bar in [bars.load.take(), bars.checks.take()].into_iter().flatten() {
                bar.finish_and_clear();
            }
            let _ = bars.multi.clear();
        }
    }

    fn with_bars(&self, f: impl FnOnce(&mut Bars)) {
        if let Display::Bars(bars) = &self.display {
            f(&mut bars.lock().unwrap_or_else(PoisonError::into_inner));
        }
    }
}

/// A bar of `total` drawn as `template`.
fn bar(multi: &MultiProgress, total: usize, template: &str) -> ProgressBar {
    let bar = multi.add(ProgressBar::new(total as u64));
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> ").with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&shown_rate(state.per_sec()));
            },
        ));
    }
    bar
}

/// A bar's rate in whole units a second (`3200/s`), as the log line
/// gives it: indicatif's `{per_sec}` prints four decimals.
fn shown_rate(per_sec: f64) -> String {
    let rate = if per_sec.is_finite() { per_sec } else { 0.0 };
    format!("{rate:.0}/s")
}

impl RunObserver for &Waiting {
    fn load_progress(&mut self, done: usize, total: usize) {
        {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            let started = state.load.map_or_else(Instant::now, |(_, _, s)| s);
            state.load = Some((done, total, started));
        }
        self.with_bars(|bars| {
            let multi = bars.multi.clone();
            let load = bars.load.get_or_insert_with(|| {
                bar(
                    &multi,
                    total,
                    "loading the corpus [{bar:30}] {human_pos}/{human_len} entries, \
                     {rate}, {eta} left",
                )
            });
            load.set_position(done as u64);
            if done >= total {
                load.finish_and_clear();
            }
        });
    }

    fn check_started(&mut self, started: CheckStarted<'_>) {
        {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            state
                .running
                .insert(started.position, (started.check.id, Instant::now()));
            let finished = state.checks.map_or(0, |(f, _)| f);
            state.checks = Some((finished, started.total));
        }
        self.with_bars(|bars| {
            let multi = bars.multi.clone();
            bars.checks.get_or_insert_with(|| {
                bar(&multi, started.total, "checks [{bar:30}] {pos}/{len} {msg}")
            });
        });
    }

    fn check_finished(&mut self, _: &mut CheckReport) {
        {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(first) = state.running.keys().next().copied() {
                state.running.remove(&first);
            }
            if let Some((finished, _)) = &mut state.checks {
                *finished += 1;
            }
        }
        self.with_bars(|bars| {
            if let Some(bar) = &bars.checks {
                bar.inc(1);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_s_rate_is_whole_units_a_second() {
        assert_eq!(shown_rate(26_091.982_7), "26092/s");
        assert_eq!(shown_rate(41.608_5), "42/s");
        assert_eq!(shown_rate(0.0), "0/s");
        assert_eq!(shown_rate(f64::INFINITY), "0/s");
    }

    #[test]
    fn a_log_line_names_the_load_then_the_running_check() {
        assert_eq!(
            load_line(1000, 3000, Duration::from_secs(2)),
            "loading the corpus: 1000 of 3000 entries, 500 entries/s, about 4s left"
        );
        let mut state = State {
            load: Some((3000, 3000, Instant::now())),
            checks: Some((2, 17)),
            ..State::default()
        };
        assert_eq!(
            state.log_line(&CaseProgress::new()).as_deref(),
            Some("checks: 2 of 17 finished")
        );
        state.running.insert(2, ("recall.limit", Instant::now()));
        let line = state.log_line(&CaseProgress::new()).unwrap();
        assert!(
            line.starts_with("checks: 2 of 17 finished; running recall.limit ("),
            "{line}"
        );
        // The checks that read no corpus run while it loads: both.
        let two_seconds_ago = Instant::now().checked_sub(Duration::from_secs(2)).unwrap();
        state.load = Some((1000, 3000, two_seconds_ago));
        let line = state.log_line(&CaseProgress::new()).unwrap();
        assert!(
            line.starts_with("loading the corpus: 1000 of 3000 entries, ")
                && line.contains(" left; checks: 2 of 17 finished; running recall.limit ("),
            "{line}"
        );
    }
}
