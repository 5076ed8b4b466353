"""A broken environment is one message: a driver whose every recall raises
ImportError makes the binary stop at its fifth failing check (exit 5: one
more than the four stores its two jobs hold open at once, property checks
starting ahead, so a cold start of each is not a stop), and the class
shows that one message, the error and what to install, on one failing
item, its other items skipped (docs/validate-python-driver.md)."""

import os
import stat
import sys

from conftest import HERE, lexical_checks

from tinymemory.testing._binary import find_binary

FAST = ["--tinymemory-corpus", "off", "--tinymemory-cases", "4", "-p", "no:cacheprovider"]
MISSING_NUMPY = os.path.normpath(
    os.path.join(HERE, "..", "..", "crates", "tinymemory-cli", "tests", "drivers", "missing_numpy_driver.py")
)


# The stop's message, as the class shows it.
STOP = [
    "the driver's environment is broken: the first 5 checks to fail all failed on the same error: "
    "backend failure: ImportError: No module named 'numpy'",
    'remedy: install the Python package that provides "numpy" in the driver\'s environment '
    "(`pip install numpy`, when the package has the module's name), then run again",
    "the run stopped after 6 checks (1 passed); --keep-going runs every check anyway",
]


def run_missing_numpy(pytester):
    """A lexical class over the driver whose every recall raises ImportError."""
    pytester.makepyfile(
        test_env=f"""
        from tinymemory.testing import DriverConformance

        class TestEnv(DriverConformance):
            driver_command = [{sys.executable!r}, {MISSING_NUMPY!r}]
            profile = "lexical"
        """
    )
    return pytester.runpytest(*FAST)


def test_a_missing_module_is_one_failing_item_naming_what_to_install(pytester, monkeypatch):
    monkeypatch.delenv("TINYMEMORY_KEEP_GOING", raising=False)
    result = run_missing_numpy(pytester)
    # Items are reported as their checks finish: the five failures that
    # stop the run (and the check that passed before them) are reported
    # as they came; every other item is skipped, and the run's message is
    # shown once.
    result.assert_outcomes(failed=5, passed=1, skipped=len(lexical_checks()) - 6)
    result.stdout.fnmatch_lines(STOP)
    failures = result.stdout.str().split("short test summary info")[0]
    assert failures.count("the driver's environment is broken: the first") == 1, failures


def test_keep_going_runs_the_checks_anyway(pytester, monkeypatch):
    monkeypatch.setenv("TINYMEMORY_KEEP_GOING", "1")
    result = run_missing_numpy(pytester)
    # Every check ran: more failed on the driver's error than the five
    # that stop a run without it.
    assert result.parseoutcomes()["failed"] > 5, result.stdout.str()
    result.stdout.fnmatch_lines(["recall.limit FAIL: unexpected driver error: *No module named 'numpy'*"])


def test_the_stop_is_read_from_the_event_stream_not_from_stderr(pytester, monkeypatch):
    # The binary behind a wrapper that drops its stderr: the class still
    # shows the stop's message, which comes from the run-stopped event.
    monkeypatch.delenv("TINYMEMORY_KEEP_GOING", raising=False)
    quiet = pytester.path / "quiet-binary"
    quiet.write_text(f'#!/bin/sh\nexec {find_binary()!r} "$@" 2>/dev/null\n')
    quiet.chmod(quiet.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("TINYMEMORY_CONFORMANCE_BIN", str(quiet))
    result = run_missing_numpy(pytester)
    result.assert_outcomes(failed=5, passed=1, skipped=len(lexical_checks()) - 6)
    result.stdout.fnmatch_lines(STOP)
