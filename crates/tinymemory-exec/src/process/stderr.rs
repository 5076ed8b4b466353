//! The last lines a driver wrote to stderr, quoted in errors.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, BufReader};

/// Longest stderr line kept, in characters; the rest is cut with `…`.
const MAX_LINE_CHARS: usize = 500;

/// Bytes read at most while looking for the end of one stderr line.
const MAX_LINE_BYTES: u64 = 64 * 1024;

#[derive(Debug, Default)]
struct Tail {
    lines: VecDeque<String>,
    /// Lines seen since the process started, kept or not.
    total: u64,
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
            line.push('…');
        }
        let mut tail = self.lock();
        tail.total += 1;
        tail.lines.push_back(line);
        while tail.lines.len() > self.capacity {
            tail.lines.pop_front();
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
        assert_eq!(tail.lines[0].chars().count(), MAX_LINE_CHARS + 1);
        assert_eq!(tail.lines[1], "next");
    }
}
