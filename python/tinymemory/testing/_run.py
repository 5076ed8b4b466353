"""One conformance run of a driver: the hello check, the binary's run, its JSON report."""

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from . import _processes
from ._binary import listing
from ._live import LiveRun

# Seconds for the start, the corpus load and the report, besides the checks.
RUN_OVERHEAD = 600
# Seconds the driver may take to answer hello (an import of a large
# engine can take long), and the binary to start and end it besides.
HELLO_TIMEOUT = 60
HELLO_OVERHEAD = 30
# Lines of the binary's stderr quoted in an error.
STDERR_LINES = 40
# The longest single wait for the binary, in seconds: a wait takes its
# timeout in milliseconds as a C int (about 24 days), and a run's deadline
# (every check's timeout summed) can be far longer.
WAIT_SLICE = 3600

# The variable naming the binary's trace file when no --trace is given
# (docs/protocol.md, "Tracing"): a traced run runs one job, and the binary
# refuses --jobs above 1 with it.
TRACE_ENV = "TINYMEMORY_TRACE"


class RunError(Exception):
    """The run could not give a verdict per check: the message says why."""


class BrokenEnvironment(RunError):
    """The binary stopped the run on a broken environment (exit 5: its
    first failing checks all failed on one missing module, refused
    connection or missing extension): the message is its own, the error
    and what to install or start."""


def _tail(text, lines=STDERR_LINES):
    kept = text.rstrip("\n").splitlines()
    if not kept:
        return "  (stderr empty)"
    cut = kept[-lines:]
    head = f"  ({len(kept) - len(cut)} earlier lines left out)\n" if len(cut) < len(kept) else ""
    return head + "\n".join("  | " + line for line in cut)


def driver_env():
    """The environment of the binary and so of the driver processes: this
    interpreter's sys.path on PYTHONPATH, so ``MODULE:FACTORY`` imports in
    the driver as it does in the test (pytest puts test directories on
    sys.path)."""
    env = dict(os.environ)
    paths = [os.path.abspath(p) for p in sys.path if p and os.path.isdir(p)]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    env["NO_COLOR"] = "1"
    return env


def hello(binary, command, env, timeout=None):
    """What the driver `command` (a list of words) declared in its
    ``hello``, as ``tinymemory-conformance hello --format json`` prints it
    (docs/reports.md, "`hello` JSON"): the binary starts it, asks, checks
    the answer as a run does and ends it. `timeout` seconds (None:
    HELLO_TIMEOUT) for the answer.

    Raises RunError for a driver that exits or hangs without answering,
    answers something other than a hello, or speaks another protocol
    version, quoting the binary's error (which quotes the driver's
    stderr).
    """
    timeout = HELLO_TIMEOUT if timeout is None else timeout
    shown = shlex.join(command)
    argv = [binary, "hello", "--driver", "exec:" + shown, "--call-timeout", str(timeout), "--format", "json"]
    try:
        proc = _processes.start(
            argv,
            term_grace=_processes.BINARY_TERM_GRACE,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
    except OSError as e:
        raise RunError(f"failed to start {binary}: {e}") from None
    try:
        out, err = _communicate(proc, timeout + HELLO_OVERHEAD)
    except subprocess.TimeoutExpired:
        _processes.end(proc)
        out, err = _leftover(proc)
        raise RunError(
            f"the driver `{shown}` did not answer hello within {timeout}s (an import or a factory that "
            f"blocks?), so it was stopped; its output:\n{_tail(err.decode(errors='replace'))}"
        ) from None
    finally:
        _processes.end(proc)
    out = out.decode(errors="replace")
    err = err.decode(errors="replace")
    if proc.returncode != 0:
        raise RunError(
            f"the driver `{shown}` did not answer hello (`tinymemory-conformance hello`: "
            f"{_status(proc.returncode)}):\n{_tail(err)}"
        )
    try:
        declared = json.loads(out)
        declared["recall_profile"]
    except (ValueError, KeyError, TypeError):
        raise RunError(f"`{binary} hello` printed {out[:200]!r}, not what a driver declared:\n{_tail(err)}") from None
    return declared


def _status(code):
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def _communicate(proc, limit):
    """``proc.communicate()`` within `limit` seconds, however large, in
    waits of at most WAIT_SLICE; raises TimeoutExpired past `limit`."""
    until = time.monotonic() + limit
    while True:
        left = until - time.monotonic()
        try:
            return proc.communicate(timeout=max(0.0, min(left, WAIT_SLICE)))
        except subprocess.TimeoutExpired:
            if left <= WAIT_SLICE:
                raise


def _leftover(proc):
    """The output of a `proc` that was stopped: what its pipes still hold,
    or nothing if something outside its group keeps them open."""
    try:
        return proc.communicate(timeout=_processes.TERM_GRACE)
    except subprocess.TimeoutExpired:
        for stream in (proc.stdout, proc.stderr):
            stream.close()
        return b"", b""


def deadline(listing, selected, timeout, cases):
    """Seconds the whole run of the checks `selected` (ids) may take:
    each one's budget as the binary's `listing` (``list --format json``)
    gives it, the larger of its base (`timeout` seconds when given) and
    its time per case times `cases` (the binary's default when None),
    plus RUN_OVERHEAD. A bound on what the binary allows, never reached
    by a run its per-check budgets keep going."""
    defaults = listing["defaults"]
    cases = cases or defaults["cases"]
    total = RUN_OVERHEAD
    for check in listing["checks"]:
        if check["id"] in selected:
            budget = check["budget"]
            base = timeout if timeout else budget["base_ms"] / 1000
            total += max(base, (budget["per_case_ms"] or 0) / 1000 * cases)
    return total


# The binary's largest ``--jobs`` (docs/cli.md): each job may hold a store,
# an exec driver's process, so it refuses more.
MAX_JOBS = 1024


def cores():
    """The cores this process may run on, at least 1 and at most
    ``MAX_JOBS``: the binary's default ``--jobs`` (Rust's
    ``available_parallelism``, which honours the CPU affinity mask as
    ``os.sched_getaffinity`` does, held to the same largest value)."""
    try:
        count = len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on macOS and Windows
        count = os.cpu_count() or 1
    return min(MAX_JOBS, max(1, count))


def trace_file(env):
    """The trace file the binary writes under the environment `env`
    (``TINYMEMORY_TRACE``, which the binary ignores when empty), or None."""
    return env.get(TRACE_ENV) or None


def jobs_for(hello_result, env):
    """``--jobs`` for a run of the driver whose hello answer is
    `hello_result`, under the environment `env`: the cores for a driver
    that declared independent stores (the binary then starts the other
    jobs' processes beside the first rather than after its hello), None
    (the binary's default, one job) for any other, and None when `env`
    names a trace: a traced run runs one check at a time, and the binary
    refuses ``--jobs`` above 1 with a trace, a flag the user never gave."""
    if hello_result.get("independent_stores") is not True or trace_file(env):
        return None
    return cores()


def run(
    binary, command, env, profile, selected, every, corpus, seed, cases, timeout, bundle_dir, limit, jobs=None,
    call_timeout=None,
):
    """Starts the suite over the checks `selected` (ids; every check of
    the profile when `every`) and returns the `Run`, whose event stream
    gives each check's entry as it finishes and, at its end, the report.

    `corpus` is a directory or None (no corpus). `call_timeout` is passed
    as ``--call-timeout`` (None: the binary's 30 s). `jobs` is passed as
    ``--jobs`` (None: the binary's default; see `jobs_for`). The binary's
    stdin is a pipe this process holds until the run ended, with
    ``--stop-on-stdin-eof``: should this process die without ending the
    run (SIGKILL), the binary stops itself and its drivers. The events
    come through a pipe too (``--events fd:N``). Raises RunError when the
    binary cannot be started.
    """
    spec = "exec:" + shlex.join(command)
    tmp = tempfile.mkdtemp(prefix="tinymemory-")
    output = os.path.join(tmp, "report.json")
    base = [binary, "run", "--driver", spec, "--profile", profile]
    base += ["--corpus", corpus] if corpus is not None else ["--no-corpus"]
    for flag, value in (
        ("--seed", seed),
        ("--cases", cases),
        ("--timeout", timeout),
        ("--call-timeout", call_timeout),
        ("--bundle", bundle_dir),
        ("--jobs", jobs),
    ):
        if value is not None:
            base += [flag, str(value)]
    events_read, events_write = os.pipe()
    # --stop-on-stdin-eof: the binary's stdin is a pipe only this process
    # holds (and never writes to), so the run and its drivers stop when
    # this process is gone, killed (SIGKILL) or not.
    argv = base + ["--format", "json", "--output", output, "--quiet", "--all-skipped", "pass"]
    argv += ["--events", f"fd:{events_write}", "--stop-on-stdin-eof"]
    if not every:
        for check in selected:
            argv += ["--check", check]
    shown = shlex.join(base)
    try:
        proc, host_end = _processes.start_held(
            argv,
            term_grace=_processes.BINARY_TERM_GRACE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            pass_fds=(events_write,),
        )
    except OSError as e:
        os.close(events_read)
        shutil.rmtree(tmp, ignore_errors=True)
        raise RunError(f"failed to start {binary}: {e}") from None
    finally:
        os.close(events_write)
    return Run(binary, profile, proc, host_end, LiveRun(proc, events_read, limit), shown, output, tmp, limit)


class Run:
    """A run of the binary under way: its events as they come, then its
    end (`result`)."""

    def __init__(self, binary, profile, proc, host_end, live, shown, output, tmp, limit):
        self.binary = binary
        self.profile = profile
        self.proc = proc
        self.host_end = host_end
        self.live = live
        self.shown = shown
        self.output = output
        self.tmp = tmp
        self.limit = limit
        self.started_at = time.monotonic()
        self._result = None

    def plan(self):
        """The run-started event (the plan: seed, cases, checks), or {}
        when the run stopped before it."""
        self.live._wait(lambda: self.live.started is not None)
        return self.live.started or {}

    def entry(self, check_id, wait_for_end):
        """`check_id`'s report entry as soon as its check finished (see
        `LiveRun.entry`); None when the run ended without it."""
        return self.live.entry(check_id, wait_for_end)

    def result(self):
        """``(report, bundle paths by check id, the run-finished event)``
        once the run ended. Raises RunError for a run that exits with a
        usage error or cannot open the driver (quoting the binary's
        stderr), outlives its limit (it is stopped), or leaves no readable
        report; BrokenEnvironment for exit 5. The same outcome every
        call."""
        if self._result is None:
            try:
                self._result = self._end()
            except RunError as e:
                self._result = e
            finally:
                if self.host_end is not None:
                    os.close(self.host_end)
                    self.host_end = None
                shutil.rmtree(self.tmp, ignore_errors=True)
        if isinstance(self._result, Exception):
            raise self._result
        return self._result

    def _end(self):
        live, shown = self.live, self.shown
        try:
            ended = live.wait_end()
        finally:
            # Whatever ended the wait (an interrupt, an error of the
            # plugin's), the binary and its drivers end here.
            _processes.end(self.proc)
        out = live.out.decode(errors="replace")
        err = live.err.decode(errors="replace")
        if not ended:
            raise RunError(
                f"the conformance run did not finish within {self.limit:.0f}s (every check's timeout plus "
                f"{RUN_OVERHEAD}s), so it was stopped: `{shown}`; its output:\n{_tail(out + err)}"
            )
        code = self.proc.returncode
        exit_codes = listing(self.binary, self.profile)["exit_codes"]
        if code == exit_codes["setup"]:
            # A store that fails only on the corpus load stops the run, and
            # every check with it (those that ran beside the load too): say
            # how to run them.
            hint = (
                "\nno check's verdict: the store failed while the corpus was loaded into it, which stops the run; "
                "with `corpus = False` on the class (or --tinymemory-corpus off) the checks run without it"
                if live.loading
                else ""
            )
            raise RunError(f"the suite could not open the driver (exit {code}): `{shown}`\n{_tail(err)}{hint}")
        if code == exit_codes["usage"]:
            raise RunError(f"the suite refused its arguments (exit {code}): `{shown}`\n{_tail(err)}")
        if code == exit_codes["broken_environment"]:
            # The stop as the binary reports it (`run-stopped`): the error
            # and the remedy first, the driver's stderr after them.
            said = (live.stopped or {}).get("message") or (
                f"the run stopped (exit {code}) with no run-stopped event; its output:\n{_tail(out + err)}"
            )
            raise BrokenEnvironment(f"{said}\nthe run: `{shown}`")
        try:
            with open(self.output, encoding="utf-8") as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            raise RunError(
                f"the conformance run ({_status(code)}, after {time.monotonic() - self.started_at:.1f}s) "
                f"left no readable report ({e}): `{shown}`\n{_tail(out + err)}"
            ) from None
        finished = live.finished or {}
        return report, dict(finished.get("bundles") or {}), finished
