//! The connections of one driver: one writer behind a mutex, and a small
//! pool of readers.
//!
//! SQLite allows one writer at a time per file. Funnelling every write of a
//! driver through one connection behind a [`Mutex`] means the driver's own
//! writers queue in Rust instead of colliding inside SQLite, so they never
//! see `SQLITE_BUSY`. In WAL mode readers do not block the writer nor the
//! writer the readers, so reads run on their own connections in parallel.
//! An in-memory database lives inside one connection, so there every call
//! shares the writer.
//!
//! A panic while a connection is held cannot leave SQLite half-written (an
//! open transaction is rolled back when its guard drops), so a poisoned
//! lock is taken over rather than propagated.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::Duration;

use rusqlite::Connection;

use crate::budget;
use crate::error::Error;

/// The connections of one driver.
#[derive(Debug)]
pub(crate) struct Connections {
    writer: Mutex<Connection>,
    /// `None` for an in-memory database: reads use the writer.
    readers: Option<Readers>,
}

/// Idle reader connections and a condition variable to wait for one.
#[derive(Debug)]
struct Readers {
    idle: Mutex<Vec<Connection>>,
    returned: Condvar,
}

impl Connections {
    /// A writer and, for a file, its readers. The connections that serve
    /// reads (the readers, or the writer when there is none) get the
    /// deadline check of budgeted reads ([`budget::install`]).
    pub(crate) fn new(writer: Connection, readers: Vec<Connection>) -> Self {
        if readers.is_empty() {
            budget::install(&writer);
        }
        for r in &readers {
            budget::install(r);
        }
        Self {
            writer: Mutex::new(writer),
            readers: (!readers.is_empty()).then(|| Readers {
                idle: Mutex::new(readers),
                returned: Condvar::new(),
            }),
        }
    }

    /// Runs `f` with exclusive use of the writer connection, waiting for
    /// the driver's other writes to finish first.
    pub(crate) fn write<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, Error>,
    ) -> Result<T, Error> {
        f(&mut lock(&self.writer))
    }

    /// Runs `f` on an idle reader connection (the writer for an in-memory
    /// database), waiting for one to be returned when all are busy.
    pub(crate) fn read<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let Some(readers) = &self.readers else {
            return f(&lock(&self.writer));
        };
        let conn = {
            let mut idle = lock(&readers.idle);
            loop {
                if let Some(c) = idle.pop() {
                    break c;
                }
                idle = readers
                    .returned
                    .wait(idle)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        // Returns the connection even if `f` panics.
        let lease = Lease {
            readers,
            conn: Some(conn),
        };
        f(lease
            .conn
            .as_ref()
            .unwrap_or_else(|| unreachable!("set above")))
    }
}

impl Connections {
    /// Runs the read `f` now, on the calling thread, with `budget` of
    /// SQLite time ([`budget::within`]), if a connection is free without
    /// waiting: `None` when none is, or when `f` ran out of budget or met
    /// a lock, so the caller can run it again with [`Connections::read`].
    pub(crate) fn try_read_within<T>(
        &self,
        budget: Duration,
        f: impl FnOnce(&Connection) -> Result<T, Error>,
    ) -> Option<Result<T, Error>> {
        let Some(readers) = &self.readers else {
            let writer = match self.writer.try_lock() {
                Ok(w) => w,
                Err(TryLockError::Poisoned(p)) => p.into_inner(),
                Err(TryLockError::WouldBlock) => return None,
            };
            return budget::within(&writer, budget, f);
        };
        let conn = lock(&readers.idle).pop()?;
        let lease = Lease {
            readers,
            conn: Some(conn),
        };
        budget::within(
            lease
                .conn
                .as_ref()
                .unwrap_or_else(|| unreachable!("set above")),
            budget,
            f,
        )
    }
}

impl Connections {
    /// `true` for an in-memory database, whose writes may run on the
    /// calling thread ([`Connections::try_write_within`]).
    pub(crate) fn in_memory(&self) -> bool {
        self.readers.is_none()
    }

    /// Runs the write `f` now, on the calling thread, with `budget` of
    /// SQLite time ([`budget::within_mut`]), if the database is in memory
    /// and its connection is free without waiting: `None` when it is a
    /// file, when the connection is busy, or when `f` ran out of budget
    /// (rolled back whole), so the caller can run it again with
    /// [`Connections::write`].
    pub(crate) fn try_write_within<T>(
        &self,
        budget: Duration,
        f: impl FnOnce(&mut Connection) -> Result<T, Error>,
    ) -> Option<Result<T, Error>> {
        if !self.in_memory() {
            return None;
        }
        let mut writer = match self.writer.try_lock() {
            Ok(w) => w,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => return None,
        };
        budget::within_mut(&mut writer, budget, f)
    }
}

/// A reader connection on loan, handed back to the pool on drop.
struct Lease<'a> {
    readers: &'a Readers,
    conn: Option<Connection>,
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Some(c) = self.conn.take() {
            lock(&self.readers.idle).push(c);
            self.readers.returned.notify_one();
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn readers_are_shared_and_returned() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.db");
        let w = Connection::open(&path).unwrap();
        let readers = vec![Connection::open(&path).unwrap()];
        let c = Arc::new(Connections::new(w, readers));
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let c = Arc::clone(&c);
                std::thread::spawn(move || {
                    c.read(|conn| {
                        Ok(conn
                            .query_row("SELECT ?1 + 1", [i], |r| r.get::<_, i64>(0))
                            .unwrap())
                    })
                    .unwrap()
                })
            })
            .collect();
        let got: Vec<i64> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        assert_eq!(got, [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(c.readers.as_ref().map(|r| lock(&r.idle).len()), Some(1));
    }

    #[test]
    fn writes_run_on_the_calling_thread_for_an_in_memory_database_only() {
        let here = std::thread::current().id();
        let memory = Connections::new(Connection::open_in_memory().unwrap(), Vec::new());
        assert!(memory.in_memory());
        let got = memory.try_write_within(Duration::from_secs(60), |conn| {
            conn.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
                .unwrap();
            Ok(std::thread::current().id())
        });
        assert_eq!(got.map(Result::unwrap), Some(here));
        // A file's commit waits for `fsync`: never on the calling thread.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.db");
        let file = Connections::new(
            Connection::open(&path).unwrap(),
            vec![Connection::open(&path).unwrap()],
        );
        assert!(!file.in_memory());
        let mut ran = false;
        let got = file.try_write_within(Duration::from_secs(60), |_| {
            ran = true;
            Ok(())
        });
        assert!(got.is_none());
        assert!(!ran);
        // Nor while another call holds the connection.
        let held = lock(&memory.writer);
        assert!(memory
            .try_write_within(Duration::from_secs(60), |_| Ok(()))
            .is_none());
        drop(held);
    }

    #[test]
    fn a_read_out_of_budget_hands_back_a_clean_connection() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.db");
        let w = Connection::open(&path).unwrap();
        w.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3);")
            .unwrap();
        let c = Connections::new(w, vec![Connection::open(&path).unwrap()]);
        let long = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
                    WHERE i < 1000000) SELECT count(*) FROM n, t";
        let got = c.try_read_within(Duration::ZERO, |conn| {
            let tx = conn.unchecked_transaction().unwrap();
            let n = conn
                .query_row(long, [], |r| r.get::<_, i64>(0))
                .map_err(|source| Error::Sqlite {
                    context: "count",
                    source,
                });
            std::mem::forget(tx);
            n
        });
        assert!(got.is_none());
        let after = c
            .read(|conn| {
                let n = conn
                    .query_row("SELECT count(*) FROM t", [], |r| r.get::<_, i64>(0))
                    .unwrap();
                Ok((conn.is_autocommit(), n))
            })
            .unwrap();
        assert_eq!(after, (true, 3));
        assert_eq!(c.readers.as_ref().map(|r| lock(&r.idle).len()), Some(1));
        // Within the budget, the same connection answers on this thread.
        let now = c.try_read_within(Duration::from_secs(60), |conn| {
            Ok(conn
                .query_row("SELECT count(*) FROM t", [], |r| r.get::<_, i64>(0))
                .unwrap())
        });
        assert_eq!(now.map(Result::unwrap), Some(3));
    }
}
