"""One conformance run of a driver: the hello check, the binary's run, its JSON report."""

import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

from .. import protocol as tp

# The binary's defaults (tinymemory_conformance::DEFAULT_CHECK_TIMEOUT,
# PROPERTY_TIME_PER_CASE, RunConfig::DEFAULT_CASES), for the run's own
# deadline: a bound on what the binary itself allows, never reached by a run
# that the binary's per-check timeouts keep going.
CHECK_TIMEOUT = 60
PROPERTY_SECONDS_PER_CASE = 0.25
DEFAULT_CASES = 64
# Seconds for the start, the corpus load and the report, besides the checks.
RUN_OVERHEAD = 600
# Seconds the driver may take to answer hello (the exec driver's request
# timeout is 10 s; an import of a large engine can take longer).
HELLO_TIMEOUT = 60
# Lines of a driver's stderr quoted in an error.
STDERR_LINES = 40

# CLI exit codes (crates/tinymemory-cli/src/exit.rs).
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_OPEN = 3


class RunError(Exception):
    """The run could not give a verdict per check: the message says why."""


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


def hello(command, env, timeout=HELLO_TIMEOUT):
    """The ``hello`` answer of the driver `command` (a list of words),
    which is started, asked, and closed.

    Raises RunError for a driver that exits or hangs without answering,
    answers something other than a hello, or speaks another protocol
    version (naming both), quoting its stderr.
    """
    shown = shlex.join(command)
    request = json.dumps({"id": 0, "op": "hello"}) + "\n"
    try:
        proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
    except OSError as e:
        raise RunError(f"failed to start the driver `{shown}`: {e}") from None
    try:
        out, err = proc.communicate(request.encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        out, err = proc.communicate()
        raise RunError(
            f"the driver `{shown}` did not answer hello within {timeout}s (an import or a factory that "
            f"blocks?), so it was stopped; its stderr:\n{_tail(err.decode(errors='replace'))}"
        ) from None
    err = err.decode(errors="replace")
    first = out.split(b"\n", 1)[0]
    if not first:
        raise RunError(
            f"the driver `{shown}` exited ({_status(proc.returncode)}) without answering hello; "
            f"its stderr:\n{_tail(err)}"
        )
    try:
        answer = json.loads(first)
        result = answer["result"]
        protocol = result["protocol"]
    except (ValueError, KeyError, TypeError):
        raise RunError(
            f"the driver `{shown}` answered hello with {first[:200]!r}, not a hello result; "
            f"its stderr:\n{_tail(err)}"
        ) from None
    if protocol != tp.PROTOCOL_VERSION:
        raise RunError(
            f"the driver `{shown}` speaks exec protocol version {protocol!r}, and this tinymemory package "
            f"and its tinymemory-conformance binary speak version {tp.PROTOCOL_VERSION}"
        )
    return result


def _status(code):
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def _kill(proc):
    """Stops `proc` and its process group: SIGTERM (the binary then stops
    its drivers), SIGKILL after 5 s."""
    for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        if grace is None:
            return
        try:
            proc.wait(grace)
            return
        except subprocess.TimeoutExpired:
            continue


def deadline(checks, timeout, cases):
    """Seconds the whole run may take: each check's budget as the binary
    computes it (a property check gets the larger of the timeout and
    0.25 s per case), plus RUN_OVERHEAD."""
    timeout = timeout or CHECK_TIMEOUT
    cases = cases or DEFAULT_CASES
    total = RUN_OVERHEAD
    for _, family, _ in checks:
        total += max(timeout, PROPERTY_SECONDS_PER_CASE * cases) if family == "property" else timeout
    return total


def run(binary, command, env, profile, selected, every, corpus, seed, cases, timeout, bundle_dir, limit):
    """Runs the suite once over the checks `selected` (ids; every check of
    the profile when `every`), returns ``(report, command line, bundle
    paths by check id)``.

    `corpus` is a directory or None (no corpus). Raises RunError for a run
    that exits with a usage error or cannot open the driver (quoting the
    binary's stderr), outlives `limit` seconds (it is stopped), or leaves
    no readable report.
    """
    spec = "exec:" + shlex.join(command)
    with tempfile.TemporaryDirectory(prefix="tinymemory-") as tmp:
        output = os.path.join(tmp, "report.json")
        base = [binary, "run", "--driver", spec, "--profile", profile]
        base += ["--corpus", corpus] if corpus is not None else ["--no-corpus"]
        for flag, value in (("--seed", seed), ("--cases", cases), ("--timeout", timeout), ("--bundle", bundle_dir)):
            if value is not None:
                base += [flag, str(value)]
        argv = base + ["--format", "json", "--output", output, "--quiet", "--all-skipped", "pass"]
        if not every:
            for check in selected:
                argv += ["--check", check]
        shown = shlex.join(base)
        started = time.monotonic()
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                start_new_session=True,
            )
        except OSError as e:
            raise RunError(f"failed to start {binary}: {e}") from None
        try:
            out, err = proc.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            _kill(proc)
            out, err = proc.communicate()
            raise RunError(
                f"the conformance run did not finish within {limit:.0f}s (every check's timeout plus "
                f"{RUN_OVERHEAD}s), so it was stopped: `{shown}`; its output:\n"
                f"{_tail(out.decode(errors='replace') + err.decode(errors='replace'))}"
            ) from None
        out = out.decode(errors="replace")
        err = err.decode(errors="replace")
        if proc.returncode == EXIT_OPEN:
            raise RunError(f"the suite could not open the driver (exit 3): `{shown}`\n{_tail(err)}")
        if proc.returncode == EXIT_USAGE:
            raise RunError(f"the suite refused its arguments (exit 2): `{shown}`\n{_tail(err)}")
        try:
            with open(output, encoding="utf-8") as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            raise RunError(
                f"the conformance run ({_status(proc.returncode)}, after {time.monotonic() - started:.1f}s) "
                f"left no readable report ({e}): `{shown}`\n{_tail(out + err)}"
            ) from None
    bundles = {}
    for line in out.splitlines():
        if line.startswith("bundle: "):
            path = line[len("bundle: ") :]
            for check in selected:
                if path.endswith(f"--{check}.json"):
                    bundles[check] = path
    return report, shown, bundles
