"""The processes the plugin starts, each the leader of a process group of its own, and their end.

The plugin starts two kinds: the ``tinymemory-conformance`` binary (one
run per class) and the driver itself, for the ``hello`` probe. Each is
started in a session of its own (so a Ctrl-C at the terminal reaches
pytest only, which then stops them in order) and kept in a registry until
its whole group has ended; `stop_all` ends whatever is still registered,
and runs at the session's end, at exit, and on ``SIGTERM`` or ``SIGHUP``
to pytest (the handler then chains to the one it replaced). POSIX only,
as the exec protocol's process groups are.

The binary ends its own driver processes (each in a group of its own) on
``SIGTERM`` (crates/tinymemory-cli/src/cleanup.rs); only if it must be
killed are those groups, found under it in ``/proc``, killed here. A
pytest killed with ``SIGKILL`` runs none of this: the binary's stdin is
then a pipe only pytest held (`start_held`), whose end stops the run
(``--stop-on-stdin-eof``).
"""

import atexit
import os
import signal
import subprocess
import threading
import time

# Seconds a driver gets to exit once its stdin closed, and a process group
# after SIGTERM before SIGKILL: the exec driver's EXIT_GRACE and TERM_GRACE
# (crates/tinymemory-exec/src/lib.rs), so the plugin ends a driver as the
# binary does.
EXIT_GRACE = 2
TERM_GRACE = 2
# Seconds the binary gets after SIGTERM: it ends its drivers' groups
# (TERM_GRACE each, then SIGKILL) and removes its temporary files first.
BINARY_TERM_GRACE = 5
# Seconds between two looks at a group that is ending.
POLL = 0.02
# Signals to pytest on which the registered processes are ended before
# the previous handler runs.
SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None)

# Processes started and not yet ended: pid -> (Popen, seconds its group
# gets after SIGTERM).
_live = {}
# Reentrant: a signal handler may run while the main thread holds it.
_lock = threading.RLock()
# Handlers replaced by `install`, by signal number, and how many
# configured sessions (pytester nests them) use ours.
_previous = {}
_depth = 0
_atexit_done = False


def start(argv, term_grace=TERM_GRACE, **popen):
    """``subprocess.Popen(argv, start_new_session=True, **popen)``, registered
    until `end` has ended its group. Raises OSError as Popen does."""
    proc = subprocess.Popen(argv, start_new_session=True, **popen)
    with _lock:
        _live[proc.pid] = (proc, term_grace)
    return proc


def start_held(argv, term_grace=TERM_GRACE, **popen):
    """`start` with stdin a pipe whose write end is returned beside the
    process, ``(Popen, fd)``: this process holds it, writes nothing to it,
    and closes it (``os.close``) once the process ended. The fd is not
    inherited by any other child (``os.pipe`` makes it non-inheritable),
    so when this process dies, however (SIGKILL included), the kernel
    closes the pipe's last write end and the child reads the end of
    stdin: ``run --stop-on-stdin-eof`` then stops (docs/cli.md,
    "Signals"). Works the same under node, whose child pipes are not
    inherited either. Raises OSError as Popen does, with both ends
    closed."""
    read_end, write_end = os.pipe()
    try:
        proc = start(argv, term_grace=term_grace, stdin=read_end, **popen)
    except BaseException:
        os.close(write_end)
        raise
    finally:
        os.close(read_end)
    return proc, write_end


def _signal_group(pgid, sig):
    try:
        os.killpg(pgid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _ended(proc):
    # poll() before the group: a leader not yet reaped keeps its group.
    return proc.poll() is not None and not _signal_group(proc.pid, 0)


def _wait_ended(proc, seconds):
    # Timed waits only: an untimed Popen.wait blocks on a lock that the
    # code a signal handler interrupted may hold.
    until = time.monotonic() + seconds
    while not _ended(proc):
        left = until - time.monotonic()
        if left <= 0:
            return False
        try:
            proc.wait(min(POLL, left))
        except subprocess.TimeoutExpired:
            pass
        else:
            if _signal_group(proc.pid, 0):
                time.sleep(min(POLL, max(0.0, left)))
    return True


def _descendant_groups(pid):
    """The process groups of `pid`'s descendants other than its own
    (Linux ``/proc``; empty elsewhere)."""
    parents, groups = {}, {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return set()
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry))
        groups[int(entry)] = int(fields[2])
    found, todo = set(), list(parents.get(pid, ()))
    while todo:
        child = todo.pop()
        if groups.get(child) not in (None, pid):
            found.add(groups[child])
        todo.extend(parents.get(child, ()))
    return found


def end(proc, exit_grace=0.0, term_grace=None):
    """Ends `proc` and its process group, and waits for them: closes its
    stdin, gives it `exit_grace` seconds to exit, then sends its group
    SIGTERM and after `term_grace` seconds (the grace `start` was given)
    SIGKILL, to the groups its descendants lead as well. A group whose
    leader exited is still ended: a helper the leader started may hold its
    pipes. Returns once the group is gone (or, after SIGKILL, after
    another `term_grace`); safe to call again, and from a signal handler.
    """
    with _lock:
        registered = _live.get(proc.pid)
    if term_grace is None:
        term_grace = registered[1] if registered else TERM_GRACE
    if proc.stdin is not None:
        try:
            proc.stdin.close()
        except OSError:
            pass
    if exit_grace:
        try:
            proc.wait(exit_grace)
        except subprocess.TimeoutExpired:
            pass
    if not _ended(proc):
        _signal_group(proc.pid, signal.SIGTERM)
        if not _wait_ended(proc, term_grace):
            below = _descendant_groups(proc.pid) if proc.poll() is None else set()
            for pgid in (proc.pid, *below):
                _signal_group(pgid, signal.SIGKILL)
            _wait_ended(proc, term_grace)
    with _lock:
        _live.pop(proc.pid, None)


def stop_all():
    """Ends every registered process group (see `end`), the newest first."""
    with _lock:
        live = list(_live.values())
    for proc, _ in reversed(live):
        end(proc)


def _on_signal(signum, frame):
    stop_all()
    previous = _previous.get(signum, signal.SIG_DFL)
    if callable(previous):
        previous(signum, frame)
    elif previous != signal.SIG_IGN:
        # The default action (or a handler set outside Python): die by the
        # signal, so the exit status says which.
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


def install():
    """At a session's configure: `stop_all` at exit and on SIGTERM and
    SIGHUP (chaining to the handler in place; a signal ignored stays
    ignored). Only the main thread can set handlers; elsewhere only the
    exit hook is added. Nested sessions share one handler."""
    global _depth, _atexit_done
    if not _atexit_done:
        atexit.register(stop_all)
        _atexit_done = True
    if threading.current_thread() is not threading.main_thread():
        return
    if _depth == 0:
        for sig in SIGNALS:
            current = signal.getsignal(sig)
            if current == signal.SIG_IGN:
                continue
            _previous[sig] = current
            signal.signal(sig, _on_signal)
    _depth += 1


def uninstall():
    """At a session's unconfigure: ends what is left (`stop_all`) and, at
    the outermost session, puts the replaced handlers back (those still
    ours)."""
    global _depth
    stop_all()
    if threading.current_thread() is not threading.main_thread() or _depth == 0:
        return
    _depth -= 1
    if _depth == 0:
        for sig, previous in list(_previous.items()):
            if signal.getsignal(sig) is _on_signal:
                signal.signal(sig, previous if previous is not None else signal.SIG_DFL)
            del _previous[sig]
