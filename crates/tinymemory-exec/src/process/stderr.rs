//! The last lines a driver wrote to stderr, quoted in errors.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, BufReader};

/// Longest stderr line kept, in characters; the rest is cut, saying so. A
/// traceback's lines are far shorter; a longer one is a dump.
const MAX_LINE_CHARS: usize = 4_000;

/// The most characters of stderr kept in all: the oldest lines are dropped
/// whole beyond it, so a quote is cut between lines, and what is kept is
/// the end of a traceback, where the fault is named.
const MAX_KEPT_CHARS: usize = 16_000;

/// How long stderr must stay quiet before [`StderrTail::settle`] takes the
/// lines written before an answer as read, and the longest it waits.
const SETTLE_QUIET: Duration = Duration::from_millis(20);
const SETTLE_MAX: Duration = Duration::from_millis(250);

/// Bytes read at most while looking for the end of one stderr line.
const MAX_LINE_BYTES: u64 = 64 * 1024;

#[derive(Debug, Default)]
struct Tail {
    lines: VecDeque<String>,
    /// Characters in `lines`.
    chars: usize,
    /// Lines seen since the process started, kept or not.
    total: u64,
    /// `true` once stderr is closed: nothing more will arrive.
    closed: bool,
}

/// A ring of the last stderr lines, shared between the task that reads
/// stderr and the requests that quote it.
#[derive(Debug, Clone)]
pub(crate) struct StderrTail {
    inner: Arc<Mutex<Tail>>,
    capacity: usize,
}

impl StderrTail {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            inner: Arc::default(),
            capacity,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Tail> {
        // Each update is a push and a pop; a panic between them leaves a
        // valid ring, so a poisoned lock is still sound.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn push(&self, raw: &[u8]) {
        let text = String::from_utf8_lossy(raw);
        let text = text.trim_end_matches(['\n', '\r']);
        let mut line: String = text.chars().take(MAX_LINE_CHARS).collect();
        if text.chars().nth(MAX_LINE_CHARS).is_some() {
            line.push_str(&format!("… (line cut at {MAX_LINE_CHARS} characters)"));
        }
        let mut tail = self.lock();
        tail.total += 1;
        tail.chars += line.chars().count();
        tail.lines.push_back(line);
        while tail.lines.len() > self.capacity.max(1)
            || (tail.chars > MAX_KEPT_CHARS && tail.lines.len() > 1)
        {
            if let Some(old) = tail.lines.pop_front() {
                tail.chars -= old.chars().count();
            }
        }
    }

    /// Waits until stderr has been quiet for a moment (or is closed), at
    /// most a quarter of a second: what a driver wrote just before its
    /// answer is then in the tail. Called only for error answers, so a
    /// passing run never waits.
    pub(crate) async fn settle(&self) {
        let started = tokio::time::Instant::now();
        let mut seen = self.mark();
        loop {
            tokio::time::sleep(SETTLE_QUIET).await;
            let now = self.lock();
            if now.closed || now.total == seen || started.elapsed() >= SETTLE_MAX {
                return;
            }
            seen = now.total;
        }
    }

    /// How many lines have been seen so far; pass it to
    /// [`StderrTail::render_since`].
    pub(crate) fn mark(&self) -> u64 {
        self.lock().total
    }

    /// The kept lines seen after `mark`, rendered as for
    /// [`StderrTail::render`]; empty when there are none.
    pub(crate) fn render_since(&self, mark: u64) -> String {
        let tail = self.lock();
        let new = usize::try_from(tail.total - mark).unwrap_or(usize::MAX);
        let skip = tail.lines.len().saturating_sub(new);
        render_lines(tail.lines.iter().skip(skip), tail.total - mark)
    }

    /// The kept lines, as an indented block starting on a new line:
    /// `\n  stderr (last 2 of 9 lines):\n  | …\n  | …`, or
    /// `\n  stderr: (empty)` when the process wrote nothing.
    pub(crate) fn render(&self) -> String {
        let tail = self.lock();
        if tail.total == 0 {
            return "\n  stderr: (empty)".to_owned();
        }
        render_lines(tail.lines.iter(), tail.total)
    }

    /// Reads `stderr` to its end, keeping the last lines.
    pub(crate) async fn capture(self, stderr: impl AsyncRead + Unpin) {
        self.read_all(stderr).await;
        self.lock().closed = true;
    }

    async fn read_all(&self, stderr: impl AsyncRead + Unpin) {
        let mut reader = BufReader::new(stderr);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match (&mut reader)
                .take(MAX_LINE_BYTES)
                .read_until(b'\n', &mut buf)
                .await
            {
                Ok(0) | Err(_) => return,
                Ok(_) => self.push(&buf),
            }
            // A line longer than the limit: drop the rest of it.
            while !buf.ends_with(b"\n") {
                buf.clear();
                match (&mut reader)
                    .take(MAX_LINE_BYTES)
                    .read_until(b'\n', &mut buf)
                    .await
                {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
            }
        }
    }
}

fn render_lines<'a>(lines: impl ExactSizeIterator<Item = &'a String>, seen: u64) -> String {
    if lines.len() == 0 {
        return String::new();
    }
    let mut out = if lines.len() as u64 == seen {
        format!(
            "\n  stderr ({seen} line{}):",
            if seen == 1 { "" } else { "s" }
        )
    } else {
        format!("\n  stderr (last {} of {seen} lines):", lines.len())
    };
    for line in lines {
        out.push_str("\n  | ");
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn keeps_the_last_lines() {
        let tail = StderrTail::new(2);
        assert_eq!(tail.render(), "\n  stderr: (empty)");
        tail.clone().capture(&b"one\ntwo\r\nthree"[..]).await;
        assert_eq!(
            tail.render(),
            "\n  stderr (last 2 of 3 lines):\n  | two\n  | three"
        );
        let mark = tail.mark();
        assert_eq!(tail.render_since(mark), "");
        tail.push(b"four\n");
        assert_eq!(tail.render_since(mark), "\n  stderr (1 line):\n  | four");
    }

    #[tokio::test]
    async fn cuts_long_lines() {
        let tail = StderrTail::new(5);
        let long = format!("{}\nnext\n", "x".repeat(200_000));
        tail.clone().capture(long.as_bytes()).await;
        let tail = tail.lock();
        assert_eq!(tail.lines.len(), 2);
        assert_eq!(
            tail.lines[0],
            format!("{}… (line cut at 4000 characters)", "x".repeat(4_000))
        );
        assert_eq!(tail.lines[1], "next");
    }

    #[tokio::test]
    async fn drops_whole_lines_from_the_start_beyond_the_budget() {
        let tail = StderrTail::new(1_000);
        let text: String = (0..300)
            .map(|i| format!("{i:03} {}\n", "w".repeat(96)))
            .collect();
        tail.clone().capture(text.as_bytes()).await;
        // 100 characters a line: the last 160 lines are 16,000 characters.
        let rendered = tail.render();
        let mut want = "\n  stderr (last 160 of 300 lines):".to_owned();
        for i in 140..300 {
            want.push_str(&format!("\n  | {i:03} {}", "w".repeat(96)));
        }
        assert_eq!(rendered, want);
    }

    #[tokio::test]
    async fn settle_returns_once_stderr_is_closed() {
        let tail = StderrTail::new(5);
        tail.clone().capture(&b"one\n"[..]).await;
        tail.settle().await;
        assert!(tail.lock().closed);
        assert_eq!(tail.render(), "\n  stderr (1 line):\n  | one");
    }
}
