"""What pytest shows of a run besides pass and fail: the conformance level,
each check's own time, failures sharing one driver error, and printed
commands that run from any directory (inner pytest runs, pytester)."""

import json
import os
import re
import shlex
import subprocess
import xml.etree.ElementTree as ET

import pytest
from conftest import EXAMPLES, lexical_checks, needing_interface

FAST = ["--tinymemory-corpus", "off", "--tinymemory-cases", "4", "-p", "no:cacheprovider"]

TWO_CLASSES = """
from tinymemory.testing import DriverConformance

class TestMemory(DriverConformance):
    driver = "memory_driver:MemoryStore"

class TestBroken(DriverConformance):
    driver = "broken_driver:BrokenStore"
"""

OFFLINE = """
from tinymemory import protocol as tp
from memory_driver import MemoryStore

class Offline(MemoryStore):
    def recall(self, *args, **kwargs):
        raise tp.DriverError("backend", "the index is offline")
"""


def summary(result):
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "tinymemory conformance" in line and line.startswith("="))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("="))
    return lines[start + 1 : end]


def test_the_summary_states_each_classs_conformance_line_as_the_cli_does(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(test_two=TWO_CLASSES)
    result = pytester.runpytest(*FAST)
    # Each class runs every lexical check of this build but the corpus ones
    # and those that need a framework interface (skipped: no corpus, no
    # interface served); the broken store fails 7 of them.
    checks = lexical_checks()
    unserved = sum(1 for _, family, _ in checks if family == "corpus") + len(needing_interface())
    ran = len(checks) - unserved
    result.assert_outcomes(passed=(ran - 7) + ran, failed=7, skipped=2 * unserved)
    lines = [line for line in summary(result) if ": conformance: " in line]
    assert lines == [
        "test_two.py::TestMemory: conformance: PARTIAL (lexical: contract, sections, portability, property)",
        "test_two.py::TestBroken: conformance: PARTIAL (lexical: portability)",
    ]


def test_a_filtered_class_is_stated_filtered(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(test_two=TWO_CLASSES)
    result = pytester.runpytest(*FAST, "-k", "TestMemory and (store.upsert or forget)")
    result.assert_outcomes(passed=3)
    assert [line for line in summary(result) if ": conformance: " in line] == [
        "test_two.py::TestMemory: conformance: PARTIAL (lexical, filtered: contract)",
    ]


def test_each_item_takes_its_checks_own_time_in_junit_and_durations(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        test_mem="""
        from tinymemory.testing import DriverConformance

        class TestMemory(DriverConformance):
            driver = "memory_driver:MemoryStore"
        """
    )
    xml = pytester.path / "junit.xml"
    reports = pytester.path / "reports"
    result = pytester.runpytest(
        *FAST,
        f"--junitxml={xml}",
        "-o",
        "junit_duration_report=call",
        "--tinymemory-report-dir",
        str(reports),
        "--durations=3",
    )
    checks = lexical_checks()
    unserved = sum(1 for _, family, _ in checks if family == "corpus") + len(needing_interface())
    result.assert_outcomes(passed=len(checks) - unserved, skipped=unserved)
    report = json.loads((reports / "test_mem.TestMemory.json").read_text())
    own = {c["id"]: c["duration_ms"] for c in report["checks"]}
    times = {case.get("name"): case.get("time") for case in ET.parse(xml).getroot().iter("testcase")}
    # JUnit writes seconds with 3 decimals.
    assert times == {check: f"{ms / 1000:.3f}" for check, ms in own.items()}
    slowest = sorted(own, key=own.get, reverse=True)[:3]
    lines = result.stdout.lines
    start = lines.index(next(line for line in lines if "slowest 3 durations" in line))
    assert lines[start + 1 : start + 4] == [
        f"{own[check] / 1000:.2f}s call     test_mem.py::TestMemory::{check}" for check in slowest
    ]


def test_failures_sharing_one_driver_error_are_one_line_of_the_summary(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        drv=OFFLINE,
        test_offline="""
        from tinymemory.testing import DriverConformance

        class TestOffline(DriverConformance):
            driver = "drv:Offline"
        """,
    )
    result = pytester.runpytest(*FAST, "-k", "recall.limit or recall.min_score or store.upsert")
    result.assert_outcomes(passed=1, failed=3)
    assert summary(result)[1:] == [
        "test_offline.py::TestOffline: conformance: NONE (lexical, filtered)",
        "test_offline.py::TestOffline: 3 checks failed on the same error: backend failure: the index is offline "
        "(recall.limit, recall.min_score, store.upsert_replaces_metadata)",
    ]
    assert re.fullmatch(
        r"test_offline\.py::TestOffline: 4 checks in one run of \d+\.\d\ds \(their own times sum to \d+\.\d\ds\)",
        summary(result)[0],
    )


def test_a_class_whose_run_did_not_start_has_no_summary_line(pytester):
    pytester.makepyfile(
        drv="""
        def make():
            raise RuntimeError("cannot reach the index")
        """,
        test_raise="""
        from tinymemory.testing import DriverConformance

        class TestRaises(DriverConformance):
            driver = "drv:make"
            profile = "lexical"
        """,
    )
    result = pytester.runpytest(*FAST, "-k", "store.upsert")
    result.assert_outcomes(failed=2)
    assert "tinymemory conformance" not in result.stdout.str()


def elsewhere_env():
    # The printed prefix must carry every directory the command needs: the
    # test's own sys.path (here EXAMPLES, inserted by the test only) is not
    # in the environment of a new shell.
    # Nor, from a checkout, the variables that load the plugin and name
    # the binary.
    env = dict(os.environ)
    for name in ("PYTHONPATH", "PYTEST_PLUGINS", "TINYMEMORY_CONFORMANCE_BIN"):
        env.pop(name, None)
    return env


def printed(result, start):
    line = next(line for line in result.stdout.lines if start in line)
    return line[line.index(start) + len(start) :]


def test_the_printed_commands_run_the_check_from_another_directory(pytester, tmp_path):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        test_broken="""
        from tinymemory.testing import DriverConformance

        class TestBroken(DriverConformance):
            driver = "broken_driver:BrokenStore"
        """
    )
    bundles = pytester.path / "bundles"
    result = pytester.runpytest(*FAST, "--tinymemory-bundle-dir", str(bundles), "-k", "forget.idempotent")
    result.assert_outcomes(failed=1)
    other = tmp_path / "elsewhere"
    other.mkdir()

    alone = printed(result, "this check alone: ")
    assert alone.startswith("PYTHONPATH=")
    assert str(pytester.path / "test_broken.py") + "::TestBroken::forget.idempotent" in shlex.split(alone)
    done = subprocess.run(alone, shell=True, cwd=other, env=elsewhere_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "forget.idempotent FAIL: second forget of the same key: expected false, got true" in done.stdout
    assert re.fullmatch(r"=+ 1 failed in [0-9.]+s =+", done.stdout.splitlines()[-1]), done.stdout

    cli = printed(result, "  or: ")
    done = subprocess.run(cli, shell=True, cwd=other, env=elsewhere_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL  forget.idempotent (contract, " in done.stdout
    assert done.stdout.splitlines()[-1] == "0 passed, 1 failed"

    replay = printed(result, "replay: ")
    done = subprocess.run(replay, shell=True, cwd=other, env=elsewhere_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    # The replay ran the check again and it failed as recorded.
    assert "now:      fail: second forget of the same key: expected false, got true" in done.stdout.splitlines()


def test_each_classs_checks_are_one_xdist_group(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(test_two=TWO_CLASSES)
    pytester.makeconftest(
        """
        def pytest_collection_finish(session):
            for item in session.items:
                mark = item.get_closest_marker("xdist_group")
                print("GROUP", item.nodeid, mark.args if mark else None)
        """
    )
    result = pytester.runpytest(*FAST, "--collect-only", "-q", "-s", "-k", "store.upsert_replaces_metadata")
    groups = [line for line in result.stdout.lines if line.startswith("GROUP ")]
    assert groups == [
        "GROUP test_two.py::TestMemory::store.upsert_replaces_metadata ('test_two.py::TestMemory',)",
        "GROUP test_two.py::TestBroken::store.upsert_replaces_metadata ('test_two.py::TestBroken',)",
    ]


@pytest.mark.parametrize(
    ("mode", "dist"),
    [([], "load"), (["--dist", "loadgroup"], "loadgroup"), (["--dist", "worksteal"], "worksteal")],
)
def test_under_xdist_each_class_runs_on_one_worker_and_the_header_says_why(pytester, monkeypatch, mode, dist):
    # Each class's checks spread over the workers made every worker run the
    # class's whole suite; xdist's loadgroup did not keep them together
    # under pytest 9 either.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [EXAMPLES, os.environ.get("PYTHONPATH")])))
    pytester.makepyfile(test_two=TWO_CLASSES)
    result = pytester.runpytest_subprocess(*FAST, "-n", "2", *mode, "-v", "-k", "store.upsert or forget.idempotent")
    result.assert_outcomes(passed=5, failed=1)
    assert (
        f"tinymemory: under --dist {dist} each DriverConformance class runs on one worker: its checks come from "
        "one run of the binary, which each worker given one of them would repeat "
        "(docs/validate-python-driver.md, pytest-xdist)"
    ) in result.stdout.lines
    workers = {}
    for line in result.stdout.lines:
        m = re.match(r"\[(gw\d+)\] \[ *\d+%\] (PASSED|FAILED) test_two.py::(\w+)::", line)
        if m:
            workers.setdefault(m.group(3), set()).add(m.group(1))
    assert sorted(workers) == ["TestBroken", "TestMemory"]
    assert all(len(w) == 1 for w in workers.values()), workers


def test_xdist_workers_collect_a_class_from_one_hello(pytester, monkeypatch):
    # A driver whose start-up fails when another is under way (it makes a
    # lock directory), and a class without a profile: each worker asking
    # its own hello at once gave one worker the checks and the other a
    # driver_unavailable item, and xdist ended the session ("Different
    # tests were collected"), the other class's tests unrun.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [EXAMPLES, os.environ.get("PYTHONPATH")])))
    pytester.makepyfile(
        exclusive="""
import os, time
from memory_driver import MemoryStore

LOCK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "starting")
os.mkdir(LOCK)  # FileExistsError while another start-up holds it
time.sleep(0.5)
os.rmdir(LOCK)


class Exclusive(MemoryStore):
    independent_stores = False
""",
        test_racy="""
from tinymemory.testing import DriverConformance


class TestExclusive(DriverConformance):
    driver = "exclusive:Exclusive"


def test_beside():
    pass
""",
    )
    result = pytester.runpytest_subprocess(*FAST, "-n", "2", "-k", "store.upsert or beside")
    assert "Different tests were collected" not in result.stdout.str()
    # store.upsert, store.upsert_replaces_metadata and test_beside.
    result.assert_outcomes(passed=3)


def test_an_explicit_dist_mode_is_left_alone(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [EXAMPLES, os.environ.get("PYTHONPATH")])))
    pytester.makepyfile(test_two=TWO_CLASSES)
    result = pytester.runpytest_subprocess(*FAST, "-n", "2", "--dist", "loadscope", "-k", "store.upsert")
    result.assert_outcomes(passed=4)
    assert "tinymemory: under --dist" not in result.stdout.str()


def test_a_check_items_node_id_names_its_class_and_no_other_test_does():
    from tinymemory.testing._xdist import class_of_check

    assert class_of_check("t/test_x.py::TestStore::recall.none_means_global") == "t/test_x.py::TestStore"
    assert class_of_check("t/test_x.py::TestStore::test_upsert") is None
    assert class_of_check("t/test_x.py::TestStore::test_p[a.b]") is None
    assert class_of_check("pkg/__init__.py::pkg.function") is None




WAITS = """
import os
import time

from memory_driver import MemoryStore

MARKS = os.environ["TINYMEMORY_TEST_MARKS"]


class WaitsForTheFirstItem(MemoryStore):
    # forget (forget.idempotent's, after store.upsert's check) waits for
    # the item of store.upsert to be reported, and says whether it was;
    # the binary's environment probe's forget is not a check's.
    def forget(self, namespace, key):
        if key == "tinymemory-environment-probe":
            return super().forget(namespace, key)
        until = time.monotonic() + 20
        while not os.path.exists(os.path.join(MARKS, "reported")) and time.monotonic() < until:
            time.sleep(0.05)
        seen = os.path.exists(os.path.join(MARKS, "reported"))
        with open(os.path.join(MARKS, "forget"), "a") as f:
            f.write("seen\\n" if seen else "not seen\\n")
        return super().forget(namespace, key)
"""


def test_each_item_is_reported_as_its_check_finishes(pytester, tmp_path, monkeypatch):
    # store.upsert's item is reported while forget.idempotent still runs:
    # the plugin reads the binary's event stream, not the report at the end.
    monkeypatch.setenv("TINYMEMORY_TEST_MARKS", str(tmp_path))
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        drv=WAITS,
        test_waits="""
        from tinymemory.testing import DriverConformance

        class TestWaits(DriverConformance):
            driver = "drv:WaitsForTheFirstItem"
        """,
    )
    pytester.makeconftest(
        f"""
        import os

        def pytest_runtest_logreport(report):
            if report.when == "call" and report.nodeid.endswith("::store.upsert"):
                open(os.path.join({str(tmp_path)!r}, "reported"), "w").close()
        """
    )
    result = pytester.runpytest(*FAST, "-k", "store.upsert or forget.idempotent")
    result.assert_outcomes(passed=3)
    said = (tmp_path / "forget").read_text().split()
    assert said and set(said) == {"seen"}, said


def test_a_failures_rerun_verdict_follows_its_message(pytester, monkeypatch):
    # With reruns on, a failing check's item waits for its rerun's verdict
    # (a later event of the stream) and prints it after the message.
    monkeypatch.delenv("TINYMEMORY_NO_RERUN", raising=False)
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        test_broken="""
        from tinymemory.testing import DriverConformance

        class TestBroken(DriverConformance):
            driver = "broken_driver:BrokenStore"
        """
    )
    result = pytester.runpytest(*FAST, "-k", "recall.limit or store.upsert")
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert (
        "recall.limit FAIL: hits with limit 3 of 5 entries holding the word: expected 3, got 5\n"
        "  fails alone too, on a fresh driver process: the checks before it are not the cause; reproduce: "
    ) in out, out
