//! The process groups of driver processes, and stopping all of them.
//!
//! Every driver process is started as the leader of a process group of its
//! own (`setpgid(0, 0)` in the child, through
//! [`std::os::unix::process::CommandExt::process_group`]), so the processes
//! it starts (a `sh -c` wrapper's child, a forked helper holding stdout)
//! share its group. When the suite stops a driver process, on a timeout,
//! an exit, a garbled answer, an abandoned request or the end of its
//! store, it kills the whole group with `SIGKILL`, so nothing the driver
//! started outlives it.
//!
//! At the end of a store the order is gentler, so a driver can clean up
//! (docs/protocol.md, "Ending a driver"): its stdin is closed, it has
//! [`EXIT_GRACE`](crate::EXIT_GRACE) to exit, then its group gets `SIGTERM`
//! and [`TERM_GRACE`](crate::TERM_GRACE) more, and only then `SIGKILL`.
//!
//! The groups still running are kept in a table for the life of the
//! program: [`shutdown`] waits for them at the end of a run, and
//! [`kill_all`] stops them at once (from a signal handler's thread, say).
//! A process is started and its group recorded under the table's lock,
//! and [`refuse_new_processes`] closes the table under that lock: once it
//! returns, every process this program started is in the table, and none
//! is started after, so a kill that follows it misses none (a process
//! started after a program's last kill was never signalled).

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The groups of driver processes still running, by registration token.
struct Live {
    groups: BTreeMap<u64, i32>,
    next: u64,
    /// Set by [`refuse_new_processes`]: no process is started after.
    closed: bool,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    groups: BTreeMap::new(),
    next: 0,
    closed: false,
});

/// Notified whenever a group leaves [`LIVE`].
static ENDED: Condvar = Condvar::new();

impl Live {
    /// [`Group::start`] on this table (held locked by the caller): the
    /// started value and, for a pid that can lead a group, its token and
    /// group id, recorded.
    fn start<T>(
        &mut self,
        spawn: impl FnOnce() -> std::io::Result<T>,
        pid: impl FnOnce(&T) -> Option<u32>,
    ) -> Result<(T, Option<(u64, i32)>), NotStarted> {
        if self.closed {
            return Err(NotStarted::Refused);
        }
        let started = spawn().map_err(NotStarted::Spawn)?;
        let recorded = pid(&started)
            .and_then(|pid| i32::try_from(pid).ok())
            .filter(|pgid| *pgid > 1)
            .map(|pgid| {
                let token = self.next;
                self.next += 1;
                self.groups.insert(token, pgid);
                (token, pgid)
            });
        Ok((started, recorded))
    }
}

fn live() -> MutexGuard<'static, Live> {
    // Every update is one insert or one remove, so a poisoned lock still
    // holds a valid table.
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The process group of one driver process, killed when this is dropped.
#[derive(Debug)]
pub(crate) struct Group {
    token: u64,
    pgid: i32,
}

/// Why [`Group::start`] did not start a process.
#[derive(Debug)]
pub(crate) enum NotStarted {
    /// [`refuse_new_processes`] was called: the program is stopping.
    Refused,
    /// The spawn itself failed.
    Spawn(std::io::Error),
}

impl Group {
    /// Starts a process with `spawn` (a command set to lead a process
    /// group of its own, `process_group(0)`, so its group id is its pid)
    /// and records its group, under the table's lock, so that
    /// [`refuse_new_processes`] either waits for the record or keeps the
    /// process from starting. `pid` gives the started process's id; the
    /// group is `None` for a pid that cannot be a group of its own (0 or
    /// 1, or past `i32`), which is then never signalled.
    ///
    /// # Errors
    ///
    /// [`NotStarted::Refused`] once [`refuse_new_processes`] was called
    /// (`spawn` is not called), [`NotStarted::Spawn`] with `spawn`'s error.
    pub(crate) fn start<T>(
        spawn: impl FnOnce() -> std::io::Result<T>,
        pid: impl FnOnce(&T) -> Option<u32>,
    ) -> Result<(T, Option<Self>), NotStarted> {
        let (started, recorded) = live().start(spawn, pid)?;
        Ok((started, recorded.map(|(token, pgid)| Self { token, pgid })))
    }

    /// Sends `SIGKILL` to every process of the group; a group that has
    /// already ended is not an error.
    pub(crate) fn kill(&self) {
        kill_group(self.pgid);
    }

    /// Sends `SIGTERM` to every process of the group, so a driver can
    /// remove what it keeps (temporary directories, an embedded database's
    /// files) before [`Group::kill`].
    pub(crate) fn terminate(&self) {
        signal_group(self.pgid, Some(Signal::SIGTERM));
    }

    /// `true` while a process of the group is alive (or a zombie not yet
    /// reaped): `killpg(pgid, 0)` finds it.
    pub(crate) fn is_alive(&self) -> bool {
        signal_group(self.pgid, None)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
        live().groups.remove(&self.token);
        ENDED.notify_all();
    }
}

#[cfg(unix)]
use nix::sys::signal::Signal;

#[cfg(unix)]
fn kill_group(pgid: i32) {
    signal_group(pgid, Some(Signal::SIGKILL));
}

/// Sends `signal` (`None`: only checks that the group exists) to the
/// group; `true` when the group exists.
#[cfg(unix)]
fn signal_group(pgid: i32, signal: Option<Signal>) -> bool {
    use nix::sys::signal::killpg;
    use nix::unistd::Pid;
    // ESRCH (no such group: everything in it has ended) is the usual
    // answer once the driver exited by itself; nothing else can be done
    // about EPERM.
    killpg(Pid::from_raw(pgid), signal).is_ok()
}

#[cfg(not(unix))]
fn kill_group(_pgid: i32) {}

#[cfg(not(unix))]
enum Signal {
    SIGTERM,
}

#[cfg(not(unix))]
fn signal_group(_pgid: i32, _signal: Option<Signal>) -> bool {
    false
}

/// How many driver processes (process groups) this program has started
/// that have not been stopped yet: those of live stores and factories, and
/// those still being stopped.
#[must_use]
pub fn running() -> usize {
    live().groups.len()
}

/// Keeps this program from starting any driver process from now on: a
/// process being started when this is called is started and recorded
/// first (this waits for it), so [`kill_all`] or [`terminate_all`] after
/// this reaches every process there will ever be. Every later start of a
/// driver process fails, saying the program is stopping. For a program
/// interrupted by a signal, before it stops its drivers; there is no way
/// back. Safe to call from any thread, any number of times.
pub fn refuse_new_processes() {
    live().closed = true;
}

/// Kills (`SIGKILL`) the process group of every driver process this
/// program started that is still running, at once, without waiting, and
/// returns how many groups it signalled. For the end of a program that
/// cannot wait, such as after `SIGINT`: the drivers' own objects then fail
/// every later request. Safe to call from any thread, any number of
/// times.
pub fn kill_all() -> usize {
    let groups: Vec<i32> = live().groups.values().copied().collect();
    for pgid in &groups {
        kill_group(*pgid);
    }
    groups.len()
}

/// Ends every driver process this program started that is still running
/// as the end of a store does, without waiting for stdin's end: `SIGTERM`
/// to each group, up to `grace` for all of them to end (so drivers remove
/// their files), then [`kill_all`]. Returns how many groups were still
/// running at `SIGTERM`. For a program interrupted by `SIGINT` or
/// `SIGTERM`; safe to call from any thread.
pub fn terminate_all(grace: Duration) -> usize {
    let groups: Vec<i32> = live().groups.values().copied().collect();
    for pgid in &groups {
        signal_group(*pgid, Some(Signal::SIGTERM));
    }
    let deadline = Instant::now() + grace;
    // Zombies count as alive until reaped, and their reapers may be the
    // runtime threads this interrupts: stop waiting at the deadline.
    while Instant::now() < deadline && groups.iter().any(|g| signal_group(*g, None)) {
        std::thread::sleep(Duration::from_millis(20));
    }
    kill_all();
    groups.len()
}

/// Waits up to `timeout` for every driver process of this program to be
/// stopped, then kills the groups of those still running ([`kill_all`]),
/// and returns how many had to be killed (0 when all ended in time).
///
/// A dropped [`ExecDriver`](crate::ExecDriver) or
/// [`ExecFactory`](crate::ExecFactory) closes its processes' stdin, gives
/// each 2 s to exit and then kills its group, on a thread of its own; a
/// program that returns from `main` before that is done would leave them
/// running, so call this last, after dropping every driver and factory.
/// Processes of drivers that are still alive are killed too.
pub fn shutdown(timeout: Duration) -> usize {
    let deadline = Instant::now() + timeout;
    let mut live = live();
    while !live.groups.is_empty() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        live = ENDED
            .wait_timeout(live, left)
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .0;
    }
    drop(live);
    kill_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Live {
        Live {
            groups: BTreeMap::new(),
            next: 0,
            closed: false,
        }
    }

    #[test]
    fn a_start_records_the_group_it_starts_and_none_for_pid_1() {
        let mut live = table();
        let (value, recorded) = live.start(|| Ok("child"), |_| Some(4242)).unwrap();
        assert_eq!((value, recorded), ("child", Some((0, 4242))));
        let (_, recorded) = live.start(|| Ok(()), |_| Some(1)).unwrap();
        assert_eq!(recorded, None);
        assert_eq!(live.groups.values().copied().collect::<Vec<_>>(), [4242]);
    }

    #[test]
    fn a_closed_table_starts_nothing() {
        let mut live = table();
        live.closed = true;
        let mut spawned = false;
        let refused = live.start(
            || {
                spawned = true;
                Ok(())
            },
            |()| Some(4242),
        );
        assert!(matches!(refused, Err(NotStarted::Refused)));
        assert!(!spawned);
        assert!(live.groups.is_empty());
    }
}
