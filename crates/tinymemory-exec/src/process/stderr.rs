//! The last lines a driver wrote to stderr, quoted in errors.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

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

/// Bytes of one stderr line kept while its end has not come: the rest of
/// the line is dropped (it is cut at [`MAX_LINE_CHARS`] when shown anyway).
const MAX_LINE_BYTES: usize = 64 * 1024;

#[derive(Debug, Default)]
struct Tail {
    lines: VecDeque<String>,
    /// Characters in `lines`.
    chars: usize,
    /// Lines seen since the process started, kept or not.
    total: u64,
    /// The line being written: bytes after the last newline, up to
    /// [`MAX_LINE_BYTES`]. Shown as the last line, since a driver that
    /// fails often names the fault in a line it ends without a newline.
    partial: Vec<u8>,
    /// Bytes read since the process started, for [`StderrTail::settle`]'s
    /// quiet.
    bytes: u64,
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

    #[cfg(test)]
    fn push(&self, raw: &[u8]) {
        self.push_line(&mut self.lock(), raw);
    }

    /// Keeps one whole line (its newline included or not).
    fn push_line(&self, tail: &mut Tail, raw: &[u8]) {
        let line = shown_line(raw);
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
        let mut seen = self.lock().bytes;
        loop {
            tokio::time::sleep(SETTLE_QUIET).await;
            let now = self.lock();
            if now.closed || now.bytes == seen || started.elapsed() >= SETTLE_MAX {
                return;
            }
            seen = now.bytes;
        }
    }

    /// How many lines have been seen so far; pass it to
    /// [`StderrTail::render_since`].
    pub(crate) fn mark(&self) -> u64 {
        self.lock().total
    }

    /// The kept lines seen after `mark`, and the line being written,
    /// rendered as for [`StderrTail::render`]; empty when there are none.
    pub(crate) fn render_since(&self, mark: u64) -> String {
        let tail = self.lock();
        let new = usize::try_from(tail.total - mark).unwrap_or(usize::MAX);
        let skip = tail.lines.len().saturating_sub(new);
        tail.render(skip, tail.total - mark)
    }

    /// The kept lines, then the line being written (one the driver has not
    /// ended with a newline yet), as an indented block starting on a new
    /// line: `\n  stderr (last 2 of 9 lines):\n  | …\n  | …`, or
    /// `\n  stderr: (empty)` when the process wrote nothing.
    pub(crate) fn render(&self) -> String {
        let tail = self.lock();
        if tail.total == 0 && tail.partial.is_empty() {
            return "\n  stderr: (empty)".to_owned();
        }
        tail.render(0, tail.total)
    }

    /// Reads `stderr` to its end, keeping the last lines.
    pub(crate) async fn capture(self, stderr: impl AsyncRead + Unpin) {
        self.read_all(stderr).await;
        self.lock().closed = true;
    }

    async fn read_all(&self, stderr: impl AsyncRead + Unpin) {
        let mut reader = BufReader::new(stderr);
        loop {
            let n = match reader.fill_buf().await {
                Ok([]) | Err(_) => break,
                Ok(chunk) => {
                    self.take_in(chunk);
                    chunk.len()
                }
            };
            reader.consume(n);
        }
        // The end of stderr ends a line written without a newline.
        let mut tail = self.lock();
        let partial = std::mem::take(&mut tail.partial);
        if !partial.is_empty() {
            self.push_line(&mut tail, &partial);
        }
    }

    /// Takes in what was read: each newline ends a line, and what follows
    /// the last one is the line being written.
    fn take_in(&self, chunk: &[u8]) {
        let mut tail = self.lock();
        tail.bytes += chunk.len() as u64;
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            let (line, after) = rest.split_at(end + 1);
            let mut whole = std::mem::take(&mut tail.partial);
            keep_within(&mut whole, line);
            self.push_line(&mut tail, &whole);
            rest = after;
        }
        let mut partial = std::mem::take(&mut tail.partial);
        keep_within(&mut partial, rest);
        tail.partial = partial;
    }
}

/// Appends `more` to the line `line` up to [`MAX_LINE_BYTES`] in all.
fn keep_within(line: &mut Vec<u8>, more: &[u8]) {
    let room = MAX_LINE_BYTES.saturating_sub(line.len());
    line.extend_from_slice(&more[..more.len().min(room)]);
}

/// A line as it is kept and shown: decoded (invalid UTF-8 replaced), its
/// line ending dropped, cut at [`MAX_LINE_CHARS`] saying so.
fn shown_line(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let text = text.trim_end_matches(['\n', '\r']);
    let mut line: String = text.chars().take(MAX_LINE_CHARS).collect();
    if text.chars().nth(MAX_LINE_CHARS).is_some() {
        line.push_str(&format!("… (line cut at {MAX_LINE_CHARS} characters)"));
    }
    line
}

impl Tail {
    /// The kept lines after the first `skip`, then the line being written,
    /// of `seen` lines (the line being written counted too).
    fn render(&self, skip: usize, seen: u64) -> String {
        let being_written = (!self.partial.is_empty()).then(|| shown_line(&self.partial));
        let seen = seen + u64::from(being_written.is_some());
        let lines: Vec<&String> = self
            .lines
            .iter()
            .skip(skip)
            .chain(being_written.as_ref())
            .collect();
        render_lines(lines.into_iter(), seen)
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

    /// A line the driver has not ended is shown as the last line, counted,
    /// while it is being written; it becomes an ordinary line once ended.
    #[test]
    fn the_line_being_written_is_shown_last() {
        let tail = StderrTail::new(5);
        let mark = tail.mark();
        tail.take_in(b"Traceback\n  File \"x.py\"\nRealError: no new");
        tail.take_in(b"line at the end");
        assert_eq!(
            tail.render_since(mark),
            "\n  stderr (3 lines):\n  | Traceback\n  | File \"x.py\"\n  | RealError: no newline at the end"
                .replace("| File", "|   File")
        );
        tail.take_in(b"!\nnext");
        assert_eq!(
            tail.render(),
            "\n  stderr (4 lines):\n  | Traceback\n  |   File \"x.py\"\n  | RealError: no newline at \
             the end!\n  | next"
        );
        assert_eq!(tail.mark(), 3);
    }

    /// The end of stderr ends the line being written.
    #[tokio::test]
    async fn the_end_of_stderr_ends_the_last_line() {
        let tail = StderrTail::new(5);
        tail.clone().capture(&b"one\ntwo"[..]).await;
        assert_eq!(tail.mark(), 2);
        assert_eq!(tail.render(), "\n  stderr (2 lines):\n  | one\n  | two");
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
