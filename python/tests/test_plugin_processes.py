"""The pytest plugin leaves no process behind, however a session ends (issue 30, items 9 and 10).

Every driver process of these tests writes a file named by its pid into
the directory ``$TM_MARKS``, holding its parent's pid: the binary's, for
the driver processes of a run and for the plugin's ``hello`` probe (which
the binary's ``hello`` asks; marked ``probe``, so it is no run). A helper
a factory starts is marked the same way. A test then asks of every pid
marked (and every parent but pytest) whether it is still running.
"""

import json
import os
import signal
import subprocess
import sys
import time
from importlib import metadata

import pytest

from conftest import EXAMPLES

from tinymemory.testing import plugin
from tinymemory.testing._binary import find_binary

FAST = ["--tinymemory-corpus", "off", "--tinymemory-cases", "4", "-p", "no:cacheprovider"]
# A bound on each inner pytest run in a subprocess, so a regression fails
# the test instead of hanging it; none of these runs comes near it.
SESSION_BOUND = 120

DRIVER = """
import os
import subprocess
import sys
import time

from memory_driver import MemoryStore

MARKS = os.environ["TM_MARKS"]


def mark(pid, parent, name=""):
    with open(os.path.join(MARKS, str(pid)), "w") as f:
        f.write(f"{parent} {name}\\n")


def asked_by_hello():
    # Whether the parent is `tinymemory-conformance hello`.
    with open(f"/proc/{os.getppid()}/cmdline", "rb") as f:
        return f.read().split(b"\\0")[1:2] == [b"hello"]


class Marked(MemoryStore):
    def __init__(self):
        super().__init__()
        mark(os.getpid(), os.getppid(), "probe" if asked_by_hello() else "")


class Hangs(Marked):
    # forget.idempotent hangs: the run is part-way when it is interrupted.
    def forget(self, namespace, key):
        open(os.path.join(MARKS, "hung"), "w").close()
        time.sleep(3600)


class WithHelper(Marked):
    # A helper that inherits the driver's stdout and outlives any check,
    # as an engine's server or a forked worker does.
    def __init__(self):
        super().__init__()
        helper = subprocess.Popen(["sleep", "600"])
        mark(helper.pid, os.getpid(), "helper")
"""


def alive(pid):
    """Whether `pid` still runs: a zombie counts only while it is this
    process's child (a process the plugin stopped but did not wait for)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except FileNotFoundError:
        return False
    state, parent = stat.rsplit(")", 1)[1].split()[:2]
    return state != "Z" or int(parent) == os.getpid()


def marks(directory):
    """``{pid: (parent pid, name)}`` of the processes marked in `directory`."""
    found = {}
    for entry in os.listdir(directory):
        if entry.isdigit():
            parent, _, name = (directory / entry).read_text().strip().partition(" ")
            found[int(entry)] = (int(parent), name)
    return found


def left_behind(directory, pytest_pid):
    """The pids marked in `directory`, and their parents but `pytest_pid`,
    that still run."""
    pids = set()
    for pid, (parent, _) in marks(directory).items():
        pids.add(pid)
        if parent != pytest_pid:
            pids.add(parent)
    return sorted(pid for pid in pids if alive(pid))


def binary_runs(directory, pytest_pid):
    """The pids of the binary runs that started a marked driver process
    (not its ``hello`` probes)."""
    return {parent for parent, name in marks(directory).values() if not name and parent != pytest_pid}


@pytest.fixture
def marked(pytester, monkeypatch):
    """The pytester directory with the marking drivers, and the marks directory."""
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(drv=DRIVER)
    directory = pytester.path / "marks"
    directory.mkdir()
    monkeypatch.setenv("TM_MARKS", str(directory))
    yield directory
    # Whatever a failing test left running is stopped, not left to the
    # next test.
    for pid in left_behind(directory, os.getpid()):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass


def plugin_args():
    """``-p tinymemory.testing.plugin`` unless an installed wheel's entry
    point loads the plugin (loading it twice is an error)."""
    points = metadata.entry_points()
    points = points.select(group="pytest11") if hasattr(points, "select") else points.get("pytest11", ())
    if any(point.value == "tinymemory.testing.plugin" for point in points):
        return []
    return ["-p", "tinymemory.testing.plugin"]


def session_env(pytester):
    """The environment of a process standing in for pytest: this one's,
    with the test directory, the examples and this tinymemory package on
    PYTHONPATH, and this session's binary."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(pytester.path), EXAMPLES, os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["tinymemory"].__file__)))]
        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    env["TINYMEMORY_CONFORMANCE_BIN"] = find_binary()
    return env


def start_session(pytester, *args):
    """An inner pytest in a process of its own (a signal to it must not
    reach this one), with the plugin loaded."""
    env = session_env(pytester)
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", *plugin_args(), *FAST, *args],
        cwd=pytester.path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def wait_for(path, session):
    """Waits until `path` exists (the driver reached the point the test
    needs) or the session ended without it."""
    while not path.exists():
        if session.poll() is not None:
            out = session.communicate()[0]
            pytest.fail(f"the session ended ({session.returncode}) before {path.name}:\n{out}")
        try:
            session.wait(0.05)
        except subprocess.TimeoutExpired:
            pass


def test_the_largest_timeout_runs_the_class_once_and_leaves_no_process(pytester, marked):
    # The documented range's largest (a year): the run's own deadline (every check's
    # timeout, summed: 86400 over a whole class is enough) used to
    # overflow the wait for the binary, fail every item with OverflowError
    # and start a run per item, none of them stopped.
    pytester.makepyfile(
        test_day="""
        from tinymemory.testing import DriverConformance

        class TestDay(DriverConformance):
            driver = "drv:Marked"
            profile = "lexical"
        """
    )
    result = pytester.runpytest(*FAST, "--tinymemory-timeout", "31536000", "-k", "store.upsert or forget.idempotent")
    result.assert_outcomes(passed=3)
    assert "OverflowError" not in result.stdout.str()
    assert len(binary_runs(marked, os.getpid())) == 1, marks(marked)
    assert left_behind(marked, os.getpid()) == []


@pytest.mark.parametrize(
    "setting, message",
    [
        ("corpus = 123", "TestBad.corpus is 123; expected True, False, or a directory (a str or path)"),
        ("bundle_dir = 7", "TestBad.bundle_dir is 7; expected a directory (a str or path), or None"),
        ("report_dir = 7", "TestBad.report_dir is 7; expected a directory (a str or path), or None"),
    ],
)
def test_a_setting_the_plugin_cannot_use_is_one_error_and_starts_no_run(pytester, marked, setting, message):
    # No --tinymemory-corpus here: it would override the class's corpus.
    pytester.makepyfile(
        test_bad=f"""
        from tinymemory.testing import DriverConformance

        class TestBad(DriverConformance):
            driver = "drv:Marked"
            profile = "lexical"
            {setting}
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "store.upsert or forget.idempotent")
    result.assert_outcomes(failed=3)
    failures = result.stdout.str().split("short test summary info")[0]
    assert failures.count(message) == 1, failures
    assert failures.count("the run of this class did not start; test_bad.py::TestBad::store.upsert says why") == 2
    assert "TypeError" not in failures
    assert marks(marked) == {}


def test_an_unexpected_error_of_the_run_is_kept_for_the_class(pytester, marked, monkeypatch):
    # An error the plugin does not foresee (here a report that is not a
    # mapping) fails the item that meets it, the class's last, which
    # reports the run's end, with its traceback; the checks reported as
    # they finished keep their outcomes, and no second run starts.
    real = plugin.run

    def odd(*args, **kwargs):
        started = real(*args, **kwargs)
        result = started.result

        def odd_result():
            _report, bundles, finished = result()
            return ["not", "a", "report"], bundles, finished

        started.result = odd_result
        return started

    monkeypatch.setattr(plugin, "run", odd)
    pytester.makepyfile(
        test_odd="""
        from tinymemory.testing import DriverConformance

        class TestOdd(DriverConformance):
            driver = "drv:Marked"
            profile = "lexical"
        """
    )
    result = pytester.runpytest(*FAST, "-k", "store.upsert or forget.idempotent")
    result.assert_outcomes(passed=2, failed=1)
    failures = result.stdout.str().split("short test summary info")[0]
    assert failures.count("AttributeError: 'list' object has no attribute 'get'") == 1, failures
    assert len(binary_runs(marked, os.getpid())) == 1
    assert left_behind(marked, os.getpid()) == []


def test_x_and_a_failing_fixture_leave_no_process(pytester, marked):
    pytester.makepyfile(
        test_stop="""
        import pytest
        from tinymemory.testing import DriverConformance

        @pytest.fixture
        def broken():
            raise RuntimeError("fixture down")

        class TestFirst(DriverConformance):
            driver = "drv:Marked"
            profile = "lexical"

            def test_own(self, broken):
                pass

        class TestSecond(DriverConformance):
            driver = "drv:Marked"
            profile = "lexical"
        """
    )
    result = pytester.runpytest(*FAST, "-x", "-k", "store.upsert or test_own")
    result.assert_outcomes(passed=2, errors=1)
    assert len(binary_runs(marked, os.getpid())) == 1
    assert left_behind(marked, os.getpid()) == []


HANGING = """
from tinymemory.testing import DriverConformance

class TestHangs(DriverConformance):
    driver = "drv:Hangs"
    profile = "lexical"
"""


@pytest.mark.parametrize(
    "sig, status, said",
    [
        (signal.SIGINT, 2, "KeyboardInterrupt"),
        (signal.SIGTERM, -signal.SIGTERM, None),
    ],
)
def test_a_session_interrupted_part_way_leaves_no_process(pytester, marked, sig, status, said):
    # The run hangs in forget.idempotent (a check timeout of a day) when
    # pytest gets the signal: the binary is in a session of its own, so
    # the signal reaches only pytest, and the plugin must stop the run.
    pytester.makepyfile(test_hang=HANGING)
    session = start_session(pytester, "--tinymemory-timeout", "86400", "-k", "store.upsert or forget.idempotent")
    try:
        wait_for(marked / "hung", session)
        session.send_signal(sig)
        out = session.communicate(timeout=SESSION_BOUND)[0]
    finally:
        if session.poll() is None:
            session.kill()
            session.communicate()
    assert session.returncode == status, out
    if said:
        assert said in out, out
    assert len(binary_runs(marked, session.pid)) == 1, marks(marked)
    assert left_behind(marked, session.pid) == [], out


def test_sigterm_chains_to_the_handler_pytest_had(pytester, marked):
    # A handler installed before the plugin (here by a conftest) still
    # runs, after the plugin stopped its processes.
    pytester.makeconftest(
        """
        import os, signal, sys

        def pytest_configure(config):
            def handler(signum, frame):
                open(os.path.join(os.environ["TM_MARKS"], "chained"), "w").close()
                sys.exit(7)
            signal.signal(signal.SIGTERM, handler)
        """
    )
    pytester.makepyfile(test_hang=HANGING)
    session = start_session(pytester, "--tinymemory-timeout", "86400", "-k", "forget.idempotent")
    try:
        wait_for(marked / "hung", session)
        session.send_signal(signal.SIGTERM)
        out = session.communicate(timeout=SESSION_BOUND)[0]
    finally:
        if session.poll() is None:
            session.kill()
            session.communicate()
    assert (marked / "chained").exists(), out
    assert left_behind(marked, session.pid) == [], out


def test_a_driver_whose_factory_starts_a_helper_passes_and_the_helper_is_stopped(pytester, marked):
    # The helper holds the driver's stdout open: a hello that waited for
    # stdout to close waited the helper's 600 s (failing after its own
    # 60 s), while the binary passes the driver at once. profile = None:
    # the hello is asked at collection.
    pytester.makepyfile(
        test_helper="""
        from tinymemory.testing import DriverConformance

        class TestHelper(DriverConformance):
            driver = "drv:WithHelper"
        """
    )
    session = start_session(pytester, "-k", "store.upsert or forget.idempotent")
    try:
        out = session.communicate(timeout=SESSION_BOUND)[0]
    finally:
        if session.poll() is None:
            session.kill()
            session.communicate()
    assert session.returncode == 0, out
    assert "3 passed" in out, out
    helpers = [pid for pid, (_, name) in marks(marked).items() if name == "helper"]
    # One helper per driver process: the probe's, and the run's.
    assert len(helpers) >= 2, marks(marked)
    assert left_behind(marked, session.pid) == [], out


# A stand-in for pytest: runs a class's suite as the plugin does
# (`_run.run`), a property check of a million cases with a day to run them
# in, and is killed part-way.
HOST = """
import sys

from tinymemory.testing import _run

command = [sys.executable, "-m", "tinymemory.serve", "drv:Marked"]
checks = ["properties.namespace_round_trip"]
_run.run(sys.argv[1], command, _run.driver_env(), "lexical", checks, False, None, None, 10**6, 86400, None, 10**6).result()
"""
# Seconds a test waits for processes to end after their host was killed: a
# bound on a hang, far above what they take.
GONE_WITHIN = 60


def gone(directory, host_pid):
    """Waits (up to GONE_WITHIN seconds) for the processes marked in
    `directory` and the binary runs above them to end; returns those still
    running."""
    deadline = time.monotonic() + GONE_WITHIN
    while left_behind(directory, host_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left_behind(directory, host_pid)


def test_a_killed_host_leaves_neither_the_binary_nor_its_drivers(pytester, marked):
    # SIGKILL cannot be caught: the plugin's handlers never run, and the
    # binary (in a session of its own, stdin /dev/null) and its drivers
    # ran on. The plugin now holds a pipe to the binary's stdin, which the
    # kernel closes when the host dies (--stop-on-stdin-eof).
    pytester.makepyfile(host=HOST)
    host = subprocess.Popen(
        [sys.executable, str(pytester.path / "host.py"), find_binary()],
        cwd=pytester.path,
        env=session_env(pytester),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        while not binary_runs(marked, host.pid):
            assert host.poll() is None, host.communicate()[0]
            time.sleep(0.05)
        host.kill()
        host.communicate()
        assert gone(marked, host.pid) == []
    finally:
        if host.poll() is None:
            host.kill()
            host.communicate()


def test_an_xdist_session_leaves_no_folder_in_the_temporary_directory(pytester, monkeypatch):
    # The workers share one hello per class through a folder named by the
    # run's id (`_once`); the controller removes it at the session's end.
    temporary = pytester.path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [EXAMPLES, os.environ.get("PYTHONPATH")])))
    pytester.makepyfile(
        test_two="""
        from tinymemory.testing import DriverConformance

        class TestMemory(DriverConformance):
            driver = "memory_driver:MemoryStore"
        """
    )
    result = pytester.runpytest_subprocess(*FAST, "-n", "2", "-k", "store.upsert")
    result.assert_outcomes(passed=2)
    assert sorted(p.name for p in temporary.iterdir() if p.name.startswith("tinymemory-")) == []


def test_a_trace_runs_one_job_and_the_header_says_so_once(pytester, marked, monkeypatch):
    # The driver declares independent stores, for which the plugin passes
    # --jobs (the cores); the binary refuses --jobs above 1 with a trace,
    # so TINYMEMORY_TRACE failed every item with "drop --jobs or the
    # trace", a flag the user never gave.
    trace = pytester.path / "trace.jsonl"
    monkeypatch.setenv("TINYMEMORY_TRACE", str(trace))
    pytester.makepyfile(
        test_traced="""
        from tinymemory.testing import DriverConformance

        class TestOne(DriverConformance):
            driver = "drv:Marked"
            profile = "lexical"

        class TestTwo(DriverConformance):
            driver = "drv:Marked"
            profile = "lexical"
        """
    )
    result = pytester.runpytest(*FAST, "-k", "store.upsert or forget.idempotent")
    result.assert_outcomes(passed=6)
    said = (
        f"tinymemory: TINYMEMORY_TRACE is set, so every run is traced to {trace} and runs one check "
        "at a time (a traced run takes no --jobs: each trace line names the one running check)"
    )
    assert result.stdout.lines.count(said) == 1, result.stdout.str()
    # The trace names the checks of the last class's run.
    checks = {json.loads(line)["check"] for line in trace.read_text().splitlines()}
    assert checks == {None, "store.upsert", "store.upsert_replaces_metadata", "forget.idempotent"}
