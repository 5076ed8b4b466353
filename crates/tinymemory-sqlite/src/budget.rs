//! Reads, and writes to an in-memory database, on the calling thread,
//! within a time budget.
//!
//! A recall of a rare word costs SQLite about 10 µs; the hop to Tokio's
//! blocking pool and back (two thread wake-ups) cost about as much again.
//! So a short read runs on the caller's thread, and a long one must not
//! hold it: every connection that serves reads carries a progress handler
//! (called every [`CHECK_EVERY`] virtual-machine steps) that interrupts
//! the statement once the calling thread's deadline has passed. Threads
//! without a deadline (the blocking pool's, any caller outside a runtime)
//! are never interrupted. An interrupted read is rolled back and the caller
//! runs it again on the blocking pool from the start, so its result is the
//! one the blocking pool alone would have given.
//!
//! The Rust work of a read is proportional to the rows SQLite handed it
//! before the deadline, so it is bounded too. Lock waits are not run
//! against the budget: the busy timeout is zero during a budgeted read,
//! and lock contention sends the read to the blocking pool, where the
//! usual [`BUSY_TIMEOUT`] applies.
//!
//! A write to an in-memory database ([`within_mut`]) is budgeted the same
//! way: its commit waits for no disk and no other connection, so it is as
//! short as a read, and the hop cost it as much. Interrupted, its
//! transaction is rolled back whole, so it is run again on the blocking
//! pool with nothing of the first attempt left. A file's writes always go
//! to the blocking pool: their commit waits for `fsync`, which no progress
//! handler can interrupt.

use std::cell::Cell;
use std::os::raw::c_int;
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::error::{Context, Error};
use crate::open::BUSY_TIMEOUT;

/// Virtual-machine steps between two deadline checks: a few microseconds
/// of SQLite work, so a budgeted read overshoots its deadline by about
/// that, while a read without a deadline pays one thread-local load per
/// check.
const CHECK_EVERY: c_int = 100;

thread_local! {
    /// When the budgeted read running on this thread must stop.
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Installs the deadline check on a connection that serves reads.
pub(crate) fn install(conn: &Connection) {
    conn.progress_handler(CHECK_EVERY, Some(past_deadline));
}

fn past_deadline() -> bool {
    DEADLINE.with(|d| d.get().is_some_and(|t| Instant::now() >= t))
}

/// Sets this thread's deadline, and clears it on drop (a panic included).
struct Armed;

impl Armed {
    fn new(budget: Duration) -> Self {
        DEADLINE.with(|d| d.set(Some(Instant::now() + budget)));
        Self
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(None));
    }
}

/// Runs the read `f` on `conn` (one [`install`]ed) with `budget` of SQLite
/// time: `Some` of its result when it finished, `None` when it ran out of
/// budget or met a lock, in which case nothing of it is left on the
/// connection (its transaction is rolled back) and the caller runs it
/// again elsewhere.
pub(crate) fn within<T>(
    conn: &Connection,
    budget: Duration,
    f: impl FnOnce(&Connection) -> Result<T, Error>,
) -> Option<Result<T, Error>> {
    if conn.busy_timeout(Duration::ZERO).is_err() {
        return None;
    }
    let armed = Armed::new(budget);
    let result = f(conn);
    drop(armed);
    settle(conn, result)
}

/// [`within`] for a write, which needs the connection mutably (to open
/// its transaction). An interrupted write's transaction is rolled back
/// whole (by its guard, or here), so a write that returns `None` changed
/// nothing and may be run again.
pub(crate) fn within_mut<T>(
    conn: &mut Connection,
    budget: Duration,
    f: impl FnOnce(&mut Connection) -> Result<T, Error>,
) -> Option<Result<T, Error>> {
    if conn.busy_timeout(Duration::ZERO).is_err() {
        return None;
    }
    let armed = Armed::new(budget);
    let result = f(conn);
    drop(armed);
    settle(conn, result)
}

/// After a budgeted call: the busy timeout back, and `None` (with no
/// transaction left open) when the call was interrupted or met a lock.
fn settle<T>(conn: &Connection, result: Result<T, Error>) -> Option<Result<T, Error>> {
    let restored = conn
        .busy_timeout(BUSY_TIMEOUT)
        .context("restore the busy timeout");
    match result {
        Err(e) if e.is_interrupted() || e.is_contention() => {
            if !conn.is_autocommit() {
                // An interrupted statement can leave its transaction
                // open, which would fail the next `BEGIN` on this
                // connection.
                if let Err(e) = conn
                    .execute_batch("ROLLBACK")
                    .context("end an interrupted call")
                {
                    return Some(Err(e));
                }
            }
            restored.err().map(Err)
        }
        r => Some(restored.and(r)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counting_conn() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        install(&conn);
        conn
    }

    /// A query that runs for a long time: a million-row recursive count.
    const LONG: &str = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
                        WHERE i < 1000000) SELECT count(*) FROM n";

    fn count(conn: &Connection) -> Result<i64, Error> {
        conn.query_row(LONG, [], |r| r.get(0)).context("count")
    }

    #[test]
    fn a_read_within_its_budget_returns_its_result() {
        let conn = counting_conn();
        let got = within(&conn, Duration::from_secs(60), |c| {
            c.query_row("SELECT 40 + 2", [], |r| r.get::<_, i64>(0))
                .context("add")
        });
        assert_eq!(got.map(Result::unwrap), Some(42));
    }

    #[test]
    fn a_read_past_its_budget_is_interrupted_and_leaves_no_transaction() {
        let conn = counting_conn();
        let got = within(&conn, Duration::ZERO, |c| {
            let tx = c.unchecked_transaction().context("begin")?;
            let n = count(&tx)?;
            std::mem::forget(tx);
            Ok(n)
        });
        assert!(got.is_none());
        assert!(conn.is_autocommit());
        // The same read without a deadline (another call, no budget) runs
        // to the end: the handler only stops budgeted reads.
        assert_eq!(count(&conn).unwrap(), 1_000_000);
    }

    #[test]
    fn a_write_past_its_budget_is_rolled_back_whole() {
        let mut conn = counting_conn();
        conn.execute_batch("CREATE TABLE t (x)").unwrap();
        let insert_then_count = |c: &mut Connection| {
            let tx = c.transaction().context("begin")?;
            tx.execute("INSERT INTO t VALUES (1)", [])
                .context("insert")?;
            let n = count(&tx)?;
            tx.commit().context("commit")?;
            Ok(n)
        };
        let got = within_mut(&mut conn, Duration::ZERO, insert_then_count);
        assert!(got.is_none());
        assert!(conn.is_autocommit());
        let rows = |c: &Connection| {
            c.query_row("SELECT count(*) FROM t", [], |r| r.get::<_, i64>(0))
                .unwrap()
        };
        assert_eq!(rows(&conn), 0, "the interrupted insert was rolled back");
        // Within its budget the same write commits, on this thread.
        let got = within_mut(&mut conn, Duration::from_secs(60), insert_then_count);
        assert_eq!(got.map(Result::unwrap), Some(1_000_000));
        assert_eq!(rows(&conn), 1);
    }

    #[test]
    fn a_locked_file_sends_the_read_elsewhere_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locked.db");
        let holder = Connection::open(&path).unwrap();
        holder
            .execute_batch("CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);")
            .unwrap();
        let conn = Connection::open(&path).unwrap();
        install(&conn);
        conn.busy_timeout(BUSY_TIMEOUT).unwrap();
        let start = Instant::now();
        let got = within(&conn, Duration::from_secs(60), |c| {
            c.query_row("SELECT count(*) FROM t", [], |r| r.get::<_, i64>(0))
                .context("count")
        });
        assert!(got.is_none());
        // Not the busy timeout's wait: the blocking pool does that.
        assert!(start.elapsed() < BUSY_TIMEOUT);
        holder.execute_batch("COMMIT").unwrap();
        assert_eq!(
            conn.query_row("SELECT count(*) FROM t", [], |r| r.get::<_, i64>(0))
                .unwrap(),
            1
        );
    }

    #[test]
    fn other_errors_are_returned_not_retried() {
        let conn = counting_conn();
        let got = within(&conn, Duration::from_secs(60), |c| {
            c.query_row("SELECT * FROM missing", [], |r| r.get::<_, i64>(0))
                .context("read a missing table")
        });
        assert!(matches!(got, Some(Err(Error::Sqlite { .. }))));
    }
}
