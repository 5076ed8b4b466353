"""The pytest plugin end to end: inner pytest runs (pytester) over small drivers."""

import os
import shlex
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import EXAMPLES, needing_interface

import tinymemory
from tinymemory.testing._binary import find_binary

FAST = ["--tinymemory-corpus", "off", "--tinymemory-cases", "4", "-p", "no:cacheprovider"]

# What examples/python/broken_driver.py's docstring says it fails: its
# three bugs, and the checks that meet them again.
BROKEN_FAILS = {
    "recall.none_means_global",
    "recall.limit",
    "recall.min_score",
    "forget.idempotent",
    "recall.namespace_isolation",
    "sections.across_merge_order",
    "model.differential",
}


def junit(pytester, *args):
    xml = pytester.path / "junit.xml"
    result = pytester.runpytest(*FAST, f"--junitxml={xml}", *args)
    cases = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        kind = next((c.tag for c in case if c.tag in ("failure", "error", "skipped")), "passed")
        cases[case.get("name")] = kind
    return result, cases


def test_the_broken_example_fails_exactly_its_documented_checks(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestBroken(DriverConformance):
            driver = "broken_driver:BrokenStore"
        """
    )
    result, cases = junit(pytester)
    failed = {name for name, kind in cases.items() if kind == "failure"}
    assert failed == BROKEN_FAILS
    skipped = {name for name, kind in cases.items() if kind == "skipped"}
    # The corpus checks (no corpus here) and those that need a framework
    # interface (the driver serves none).
    interface = needing_interface()
    assert len(interface) == 14
    assert skipped == {"corpus.namespace_counts", "corpus.recall_own_words", *interface}
    assert result.ret == 1
    # The whole message, with the seed and a way to run the check alone.
    result.stdout.fnmatch_lines(
        [
            "*forget.idempotent FAIL: second forget of the same key: expected false, got true",
            "seed *, 4 cases; this check alone: PYTHONPATH=* -m pytest */test_the_broken_example_fails_exactly_its_documented_checks.py::TestBroken::forget.idempotent* --tinymemory-seed * --tinymemory-corpus off --tinymemory-cases 4",
        ]
    )


def test_the_replay_hint_of_a_bundle_runs_as_printed(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestBroken(DriverConformance):
            driver = "broken_driver:BrokenStore"
        """
    )
    bundles = pytester.path / "bundles"
    result = pytester.runpytest(*FAST, "--tinymemory-bundle-dir", str(bundles), "-k", "forget.idempotent")
    result.assert_outcomes(failed=1)
    hint = next(line for line in result.stdout.lines if line.startswith("replay: "))
    argv = shlex.split(hint[len("replay: "):])
    assert argv[0].startswith("PYTHONPATH=") and EXAMPLES in argv[0]
    argv = argv[1:]
    assert argv[:2] == [os.path.abspath(find_binary()), "replay"]
    assert argv[3] == "--driver" and argv[4].startswith("exec:") and argv[4].endswith(" broken_driver:BrokenStore")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(EXAMPLES), os.environ.get("PYTHONPATH", "")]))
    replayed = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    # Replayed as printed: the check still fails (exit 1), not a usage error.
    assert replayed.returncode == 1, replayed.stdout + replayed.stderr
    assert "reproduced" in replayed.stdout, replayed.stdout


def test_the_replay_hint_carries_the_time_budget_of_the_run(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestBroken(DriverConformance):
            driver = "broken_driver:BrokenStore"
            timeout = 7
        """
    )
    bundles = pytester.path / "bundles"
    result = pytester.runpytest(*FAST, "--tinymemory-bundle-dir", str(bundles), "-k", "forget.idempotent")
    result.assert_outcomes(failed=1)
    hint = next(line for line in result.stdout.lines if line.startswith("replay: "))
    argv = shlex.split(hint[len("replay: "):])
    assert argv[-2:] == ["--timeout", "7"], argv


def test_call_timeout_is_the_request_timeout_of_the_run(pytester):
    # A request slower than the class's call_timeout fails its check as
    # the binary's --call-timeout does; the default (30 s) lets it finish,
    # so a store that is slow, not hung, can be given the time it needs.
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        drv="""
        import time
        from memory_driver import MemoryStore

        class Slow(MemoryStore):
            def forget(self, namespace, key):
                time.sleep(3)
                return super().forget(namespace, key)
        """,
        test_slow="""
        from tinymemory.testing import DriverConformance

        class TestSlow(DriverConformance):
            driver = "drv:Slow"
            call_timeout = 1

        class TestPatient(DriverConformance):
            driver = "drv:Slow"
        """,
    )
    result = pytester.runpytest(*FAST, "-k", "forget.idempotent", "-rA")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "forget.idempotent FAIL: unexpected driver error: unavailable: failed to get an answer to `forget` *"
            "no answer within 1s (the request timeout, --call-timeout SECS)*",
            "  or: * run --driver 'exec:* -m tinymemory.serve drv:Slow' * --call-timeout 1 *--check forget.idempotent",
            "PASSED *TestPatient::forget.idempotent*",
        ]
    )


def test_call_timeout_outside_the_binarys_range_fails_naming_it(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestZero(DriverConformance):
            driver = "memory_driver:MemoryStore"
            profile = "lexical"
            call_timeout = 0
        """
    )
    result, cases = junit(pytester, "-k", "store.upsert")
    assert cases == {"store.upsert": "failure", "store.upsert_replaces_metadata": "failure"}
    result.stdout.fnmatch_lines(["TestZero.call_timeout is 0; expected a whole number from 1 to 31536000, or None"])


def test_k_and_deselect_run_only_the_selected_checks(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        test_pick="""
        from tinymemory.testing import DriverConformance

        class TestBroken(DriverConformance):
            driver = "broken_driver:BrokenStore"
        """
    )
    result, cases = junit(
        pytester, "-k", "limit or upsert", "--deselect", "test_pick.py::TestBroken::store.upsert_replaces_metadata"
    )
    assert cases == {
        "store.upsert": "passed",
        # The key at the limit of 1,024 bytes: "limit" matches its id.
        "key.limit_accepted": "passed",
        "recall.limit": "failure",
        "recall.reindexed_on_upsert": "passed",
        "recall.huge_limit": "passed",
        "portability.page_limits": "passed",
        # A driver serving no framework interface skips the interface family.
        "interface.langchain.upsert": "skipped",
    }
    assert result.ret == 1


def test_a_factory_that_does_not_import_fails_one_item_naming_it_and_the_session_goes_on(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestMissing(DriverConformance):
            driver = "no_such_module_here:Store"

        class TestBroken(DriverConformance):
            driver = "broken_driver:BrokenStore"
        """
    )
    result, cases = junit(pytester, "-k", "Missing or forget")
    # -k matches case-insensitively: "Missing" selects the interface check
    # delete_missing too, skipped for a driver serving no interface.
    assert cases == {
        "driver_unavailable": "failure",
        "forget.idempotent": "failure",
        "interface.langchain.delete_missing": "skipped",
    }
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "TestMissing: the driver `* -m tinymemory.serve no_such_module_here:Store` did not answer hello "
            "(`tinymemory-conformance hello`: exit status 3):",
            "  | error: failed to open the driver: *: the process exited (exit status: 2)",
            "  |   | tinymemory.serve: failed to import module 'no_such_module_here' of 'no_such_module_here:Store': "
            "ModuleNotFoundError: No module named 'no_such_module_here'*",
        ]
    )


def test_a_factory_that_raises_fails_every_item_the_first_with_its_traceback(pytester):
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
    result = pytester.runpytest(*FAST, "-k", "store.upsert or forget")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(
        [
            "the driver `* -m tinymemory.serve drv:make` did not answer hello "
            "(`tinymemory-conformance hello`: exit status 3):",
            "  | error: failed to open the driver: *: the process exited (exit status: 3)",
            "  |   | RuntimeError: cannot reach the index",
            "  |   | tinymemory.serve: the factory 'drv:make' raised RuntimeError: cannot reach the index",
        ]
    )
    # Once: the other items point at the first. (Counted in the failures
    # section only: under CI=true pytest's short summary repeats each
    # message whole.)
    failures = result.stdout.str().split("short test summary info")[0]
    assert failures.count("RuntimeError: cannot reach the index") == 2, failures
    pointers = [line for line in failures.splitlines() if "the run of this class did not start;" in line]
    assert pointers == ["the run of this class did not start; test_raise.py::TestRaises::store.upsert says why"] * 2


def test_a_driver_that_hangs_mid_run_fails_that_check_and_the_run_goes_on(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        drv="""
        import time
        from memory_driver import MemoryStore

        class Hangs(MemoryStore):
            def forget(self, namespace, key):
                time.sleep(3600)
        """,
        test_hang="""
        from tinymemory.testing import DriverConformance

        class TestHangs(DriverConformance):
            driver = "drv:Hangs"
            timeout = 3
        """,
    )
    result, cases = junit(pytester, "-k", "forget.idempotent or store.upsert")
    assert cases == {
        "store.upsert": "passed",
        "forget.idempotent": "failure",
        "store.upsert_replaces_metadata": "passed",
    }
    # TIMEOUT, its own outcome: the hung `forget` is named, and the budget
    # is the timeout plus 1 s per request the check made.
    result.stdout.fnmatch_lines(
        [
            "*forget.idempotent TIMEOUT: forget.idempotent ran past its budget of *"
            "`forget` (namespace \"global\", key \"gone\") had waited *"
        ]
    )


def test_a_driver_that_crashes_mid_run_fails_that_check(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        drv="""
        import os
        from memory_driver import MemoryStore

        class Crashes(MemoryStore):
            def forget(self, namespace, key):
                os._exit(9)
        """,
        test_crash="""
        from tinymemory.testing import DriverConformance

        class TestCrashes(DriverConformance):
            driver = "drv:Crashes"
        """,
    )
    result, cases = junit(pytester, "-k", "forget.idempotent or store.upsert")
    assert cases == {
        "store.upsert": "passed",
        "forget.idempotent": "failure",
        "store.upsert_replaces_metadata": "passed",
    }
    result.stdout.fnmatch_lines(["forget.idempotent *the process exited (exit status: 9)*"])


def test_a_deep_traceback_is_quoted_whole_under_the_failing_item(pytester):
    # Forty distinct frames (Python folds a repeated frame, so each is its
    # own function) and an exception line longer than any cap on a message.
    frames = "".join(f"def f{i}(q):\n    return f{i + 1}(q)\n" for i in range(40))
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        drv=f"""
from memory_driver import MemoryStore

{frames}
def f40(q):
    raise ValueError("index page 7 is corrupt: " + "z" * 1500)


class Deep(MemoryStore):
    def forget(self, namespace, key):
        f0(key)
""",
        test_deep="""
        from tinymemory.testing import DriverConformance

        class TestDeep(DriverConformance):
            driver = "drv:Deep"
        """,
    )
    result, cases = junit(pytester, "-k", "forget.idempotent")
    assert cases == {"forget.idempotent": "failure"}
    failures = result.stdout.str().split("short test summary info")[0]
    quoted = [line.strip() for line in failures.splitlines() if line.strip().startswith("| ")]
    frames_quoted = [line for line in quoted if line.startswith('|   File "') and "drv.py" in line]
    # Every frame of the driver's file, in order, each line whole.
    assert [line.rsplit(" in ", 1)[1] for line in frames_quoted] == [
        "forget",
        *(f"f{i}" for i in range(41)),
    ]
    assert quoted[0] == "| Traceback (most recent call last):"
    assert quoted[-1] == "| ValueError: index page 7 is corrupt: " + "z" * 1500


def test_what_a_driver_writes_cannot_drive_the_terminal(pytester):
    # An error message and stderr with escape sequences, a bell, a lone
    # carriage return and bidi characters: shown escaped as the CLI shows
    # them, in the failure and in the verbose line's node id, never as the
    # bytes themselves.
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        drv="""
import sys
from memory_driver import MemoryStore


class Loud(MemoryStore):
    def forget(self, namespace, key):
        sys.stderr.write("\\x1b]0;title\\x07 \\x1b[2J cleared \\u2066isolated\\u2069\\n")
        sys.stderr.flush()
        raise ValueError("\\x1b[31mRED\\rPASS \\u202eSSAP\\u2028")
""",
        test_loud="""
        from tinymemory.testing import DriverConformance

        class TestLoud(DriverConformance):
            driver = "drv:Loud"
        """,
    )
    result, cases = junit(pytester, "-v", "-k", "forget.idempotent")
    assert cases == {"forget.idempotent": "failure"}
    out = result.stdout.str()
    assert "\x1b" not in out and "\x07" not in out
    assert "\r" not in out.replace("\r\n", "")
    # Nor can a bidi override, an isolate or a line separator reorder or
    # break the line.
    assert not any(c in out for c in "\u202e\u2066\u2069\u2028")
    assert "ValueError: \\u{1b}[31mRED\\u{d}PASS \\u{202e}SSAP\\u{2028}" in out
    assert "| \\u{1b}]0;title\\u{7} \\u{1b}[2J cleared \\u{2066}isolated\\u{2069}" in out
    # The id pytest -v prints is one pytest selects by.
    assert "test_loud.py::TestLoud::forget.idempotent FAILED" in out


def test_a_store_failing_on_the_corpus_says_the_checks_run_without_it(pytester):
    # A store that fails only on the corpus load stops the run (checks that
    # read no corpus start beside the load, at two jobs): every item failed,
    # and nothing said the checks could run without it.
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        drv="""
from memory_driver import MemoryStore


class Small(MemoryStore):
    def store_many(self, entries):
        if sum(len(space) for space in self.spaces.values()) + len(entries) > 1000:
            raise OverflowError("this store holds 1000 entries at most")
        super().store_many(entries)
""",
        test_small="""
        from tinymemory.testing import DriverConformance

        class TestSmall(DriverConformance):
            driver = "drv:Small"
            corpus = True
        """,
    )
    result = pytester.runpytest(
        "--tinymemory-cases", "4", "-p", "no:cacheprovider", "-k", "store.upsert or corpus.namespace_counts"
    )
    result.stdout.fnmatch_lines(
        [
            "*the suite could not open the driver (exit 3)*",
            "*OverflowError: this store holds 1000 entries at most*",
            "no check's verdict: the store failed while the corpus was loaded into it, which stops the run; "
            "with `corpus = False` on the class (or --tinymemory-corpus off) the checks run without it",
        ]
    )


def fake_binary(pytester, version):
    path = pytester.path / "fake-conformance"
    path.write_text(f"#!/bin/sh\necho 'tinymemory-conformance {version}'\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_a_binary_of_another_version_is_refused_naming_both(pytester, monkeypatch):
    monkeypatch.setenv("TINYMEMORY_CONFORMANCE_BIN", fake_binary(pytester, "0.0.9"))
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestStore(DriverConformance):
            driver = "x:y"
            profile = "lexical"
        """
    )
    result = pytester.runpytest(*FAST)
    assert result.ret == 2
    result.stdout.fnmatch_lines(
        [
            f"TestStore: */fake-conformance is tinymemory-conformance 0.0.9, but the tinymemory package is "
            f"{tinymemory.__version__}: the two must be of one version to agree on the exec protocol; "
            f"install the tinymemory-conformance {tinymemory.__version__} wheel, which carries the binary*"
        ]
    )


def test_a_missing_binary_says_how_to_install(pytester, monkeypatch):
    monkeypatch.setenv("TINYMEMORY_CONFORMANCE_BIN", str(pytester.path / "nowhere"))
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestStore(DriverConformance):
            driver = "x:y"
            profile = "lexical"
        """
    )
    result = pytester.runpytest(*FAST)
    assert result.ret == 2
    result.stdout.fnmatch_lines(
        ["TestStore: TINYMEMORY_CONFORMANCE_BIN is '*nowhere', which is not a file; install the tinymemory-conformance *"]
    )


def test_a_driver_of_another_protocol_version_is_refused_naming_both(pytester):
    pytester.makepyfile(
        future_driver="""
        import json, sys
        for line in sys.stdin:
            request = json.loads(line)
            print(json.dumps({"id": request["id"], "result": {"protocol": 2, "driver": "future"}}), flush=True)
        """,
        test_future=f"""
        from tinymemory.testing import DriverConformance

        class TestFuture(DriverConformance):
            driver_command = [{sys.executable!r}, "future_driver.py"]
        """,
    )
    result, cases = junit(pytester)
    assert cases == {"driver_unavailable": "failure"}
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "TestFuture: the driver `* future_driver.py` did not answer hello "
            "(`tinymemory-conformance hello`: exit status 3):",
            "  | error: failed to open the driver: *: it speaks protocol version 2, this suite speaks version 1 "
            "(docs/protocol.md)",
        ]
    )


def test_without_the_plugin_the_class_fails_rather_than_passing_empty(pytester):
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestStore(DriverConformance):
            driver = "x:y"
        """
    )
    result = pytester.runpytest("-p", "no:tinymemory", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*the tinymemory pytest plugin is not active, so no conformance check ran*"])


def test_a_malformed_driver_command_fails_one_item_and_the_session_goes_on(pytester):
    # An empty command, a number: a setting of one class, not a collection
    # error that stops every other class (an IndexError or TypeError did).
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestEmpty(DriverConformance):
            driver_command = ""

        class TestNumber(DriverConformance):
            driver_command = 123

        class TestBroken(DriverConformance):
            driver = "broken_driver:BrokenStore"
        """
    )
    result, cases = junit(pytester, "-k", "Empty or Number or forget")
    # -k matches case-insensitively, so "Empty" selects store.opens_empty
    # too, and the interface check empty_store (skipped: no interface).
    assert cases == {
        "driver_unavailable": "failure",
        "forget.idempotent": "failure",
        "store.opens_empty": "passed",
        "interface.langchain.empty_store": "skipped",
    }, result.stdout.str()
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "TestEmpty: `driver_command` is empty*",
            "TestNumber: `driver_command` is 123*",
        ],
        consecutive=False,
    )


def test_a_setting_of_the_wrong_type_fails_its_items_naming_it(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestTimeout(DriverConformance):
            driver = "memory_driver:MemoryStore"
            profile = "lexical"
            timeout = "abc"
        """
    )
    result, cases = junit(pytester, "-k", "store.upsert")
    assert cases == {"store.upsert": "failure", "store.upsert_replaces_metadata": "failure"}
    assert result.ret == 1
    result.stdout.fnmatch_lines(["TestTimeout.timeout is 'abc'; expected a whole number from 1 to 31536000, or None"])


def test_a_corpus_check_skipped_without_a_corpus_says_how_to_give_one(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestNoCorpus(DriverConformance):
            driver = "memory_driver:MemoryStore"
        """
    )
    result = pytester.runpytest(*FAST, "-rs", "-k", "corpus.namespace_counts")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(
        ["*no corpus was loaded for this run (set `corpus` on the class, or pass --tinymemory-corpus on|DIR)*"]
    )

OPTIONS = ["--tinymemory-corpus", "off", "-p", "no:cacheprovider"]


@pytest.mark.parametrize(
    "setting, shown, expected",
    [
        ("cases = 0", "0", "from 1 to 4294967295"),
        ("cases = 2**32", "4294967296", "from 1 to 4294967295"),
        ("seed = -1", "-1", "from 0 to 18446744073709551615"),
        ("seed = 2**70", "1180591620717411303424", "from 0 to 18446744073709551615"),
        ("timeout = 0", "0", "from 1 to 31536000"),
        ("timeout = 31536001", "31536001", "from 1 to 31536000"),
    ],
)
def test_a_number_out_of_the_binarys_range_is_the_plugins_one_error(pytester, setting, shown, expected):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        f"""
        from tinymemory.testing import DriverConformance

        class TestBad(DriverConformance):
            driver = "memory_driver:MemoryStore"
            profile = "lexical"
            {setting}
        """
    )
    attr = setting.split(" ")[0]
    result = pytester.runpytest(*OPTIONS, "-k", "store.upsert")
    result.assert_outcomes(failed=2)
    line = f"TestBad.{attr} is {shown}; expected a whole number {expected}, or None"
    # The first item says it; the other points at the first.
    result.stdout.fnmatch_lines(
        [line, "the run of this class did not start; *::TestBad::store.upsert says why"], consecutive=False
    )
    assert "not in 1..=" not in result.stdout.str()
    assert "exit 2" not in result.stdout.str()


def test_an_option_out_of_range_is_named_as_the_option(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestBad(DriverConformance):
            driver = "memory_driver:MemoryStore"
            profile = "lexical"
        """
    )
    result = pytester.runpytest(*OPTIONS, "--tinymemory-cases", "0", "-k", "store.upsert")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["--tinymemory-cases is 0; expected a whole number from 1 to 4294967295, or None"])


def test_the_bounds_of_the_binarys_ranges_run(pytester):
    pytester.syspathinsert(EXAMPLES)
    pytester.makepyfile(
        """
        from tinymemory.testing import DriverConformance

        class TestEdges(DriverConformance):
            driver = "memory_driver:MemoryStore"
            profile = "lexical"
            seed = 2**64 - 1
            cases = 1
        """
    )
    result = pytester.runpytest(*OPTIONS, "-k", "store.upsert or properties")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) == 0 and outcomes.get("passed", 0) >= 2, result.stdout.str()
