"""One run of the binary, read from its event stream as it goes.

The binary writes the run as JSON lines to a pipe this process holds
(``run --events fd:N``, docs/reports.md, "Event stream"): the plan, each
check as it finishes with its report entry, the rerun verdicts, then the
counts, the level and the shared-error groups. Each check's item waits
for its own entry only, so pytest reports it as soon as the check ends,
not once the class's whole run has. Nothing here reads what the binary
prints for people.
"""

import json
import os
import threading
import time

from . import _processes

# Seconds to wait for the event stream's end once the binary has exited:
# a driver process the binary started holds the pipe's write end as long
# as it lives, and every event was written before the binary exited.
STREAM_END_GRACE = 2
# The longest single wait, in seconds (a timed wait stays responsive to a
# run that ends otherwise).
WAIT_SLICE = 1.0


class LiveRun:
    """The events of the run of `proc` read from `events_fd` (the pipe's
    read end, owned from here on) in a thread of their own, its stdout
    and stderr drained in two more, until `limit` seconds from now."""

    def __init__(self, proc, events_fd, limit):
        self.proc = proc
        self.deadline = time.monotonic() + limit
        self._cond = threading.Condition()
        self.started = None
        self.finished = None
        # The run's stop (`run-stopped`: a broken environment), if any.
        self.stopped = None
        self.entries = {}
        # Check ids whose entry the rerun changed after it finished.
        self.updated = set()
        self.loading = False
        self._eof = False
        self.out = self.err = b""
        self._drained = 0
        threading.Thread(target=self._read_events, args=(events_fd,), daemon=True).start()
        for stream, name in ((proc.stdout, "out"), (proc.stderr, "err")):
            threading.Thread(target=self._drain, args=(stream, name), daemon=True).start()

    def _read_events(self, fd):
        with os.fdopen(fd, "r", encoding="utf-8", errors="replace") as stream:
            for line in stream:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                with self._cond:
                    self._take(event)
                    self._cond.notify_all()
        with self._cond:
            self._eof = True
            self._cond.notify_all()

    def _take(self, event):
        kind = event.get("event")
        if kind == "run-started":
            self.started = event
        elif kind == "corpus-progress":
            # Loading until an event says every entry is stored: checks may
            # start while it loads (at more than one job), so a failed load
            # is one that never reached its total, whatever ran beside it.
            self.loading = event.get("done") != event.get("total")
        elif kind in ("check-finished", "check-updated"):
            entry = event.get("entry") or {}
            self.entries[entry.get("id")] = entry
            if kind == "check-updated":
                self.updated.add(entry.get("id"))
        elif kind == "run-finished":
            self.finished = event
        elif kind == "run-stopped":
            self.stopped = event

    def _drain(self, stream, name):
        data = stream.read()
        with self._cond:
            setattr(self, name, data)
            self._drained += 1
            self._cond.notify_all()

    def _ended(self):
        """The binary has exited and its output was read; the stream has
        ended, or had its grace after the exit."""
        if self.proc.poll() is None or self._drained < 2:
            return False
        if self._eof or self.finished is not None:
            return True
        if not hasattr(self, "_exited_at"):
            self._exited_at = time.monotonic()
        return time.monotonic() - self._exited_at >= STREAM_END_GRACE

    def _wait(self, ready):
        """Waits until `ready()` (called under the lock) or the run ended;
        returns False past the deadline."""
        with self._cond:
            while not ready() and not self._ended():
                left = self.deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, WAIT_SLICE))
            return True

    def entry(self, check_id, wait_for_end):
        """The entry of `check_id` as soon as its check finished; when
        `wait_for_end(entry)` says so (a failure whose rerun verdict or
        bundle comes later), once the run has ended. None when the run
        ended without it, or the deadline passed (`timed_out`)."""

        def ready():
            entry = self.entries.get(check_id)
            if entry is None:
                return False
            if check_id in self.updated or not wait_for_end(entry, self.started or {}):
                return True
            return self.finished is not None

        if not self._wait(ready):
            return None
        return self.entries.get(check_id)

    def timed_out(self):
        return time.monotonic() >= self.deadline and not self._ended()

    def wait_end(self):
        """Waits for the run's end; False past the deadline, after which
        the binary and its drivers are stopped."""
        if self._wait(lambda: False):
            return True
        _processes.end(self.proc)
        return False
