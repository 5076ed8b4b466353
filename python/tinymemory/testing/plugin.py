"""The pytest plugin: ``DriverConformance`` subclasses become one item per check.

Registered through the ``pytest11`` entry point of the
``tinymemory-conformance`` wheel; ``pytest -p tinymemory.testing.plugin``
loads it from a checkout.
"""

import inspect
import os
import shlex
import sys
import time

import pytest

from . import DriverConformance, _processes
from ._binary import BinaryError, checked_binary, find_binary, list_checks, listing
from ._reproduce import import_dirs, pythonpath_prefix
from ._once import Refused, once_per_run, remove
from ._shown import visible
from ._run import BrokenEnvironment, RunError, deadline, driver_env, hello, jobs_for, run, trace_file

PROFILES = ("lexical", "semantic")
SENTINEL = "test_tinymemory_plugin_is_active"
# The one item of a class whose checks cannot be listed: its driver did not
# answer `hello`, its settings are wrong, or there is no binary.
UNAVAILABLE = "driver_unavailable"
# The largest --seed and --cases (and --timeout) the binary accepts.
U64_MAX = 2**64 - 1
# The longest --timeout the binary takes: a year, the longest limit a
# bundle may record.
LIMIT_MAX = 31_536_000
U32_MAX = 2**32 - 1
# The plugin's own module, named in a printed pytest command when it was
# loaded with `-p` (no wheel, so no entry point, loads it otherwise).
PLUGIN = "tinymemory.testing.plugin"
# Classes whose run ended, in the order they ran: the terminal summary's.
_RAN = pytest.StashKey()
# pytest-xdist's distribution mode, when the plugin schedules it so that
# each conformance class runs on one worker.
_SWITCHED = pytest.StashKey()
# The ids of the xdist runs this controller started workers for, whose
# shared answers (`_once`) it removes at its end.
_XDIST_RUNS = pytest.StashKey()


def pytest_addoption(parser):
    group = parser.getgroup("tinymemory", "tinymemory conformance (DriverConformance classes)")
    group.addoption(
        "--tinymemory-corpus",
        metavar="on|off|DIR",
        help="load the bundled corpus (on), none (off: the corpus checks are skipped) or DIR; "
        "overrides the classes' `corpus`",
    )
    group.addoption("--tinymemory-seed", metavar="S", type=int, help="seed of the randomised checks")
    group.addoption("--tinymemory-cases", metavar="N", type=int, help="cases per property check")
    group.addoption("--tinymemory-timeout", metavar="SECS", type=int, help="seconds one check may run")
    group.addoption(
        "--tinymemory-call-timeout",
        metavar="SECS",
        type=int,
        help="seconds one request to the driver may take (the binary's --call-timeout); overrides `call_timeout`",
    )
    group.addoption(
        "--tinymemory-report-dir",
        metavar="DIR",
        help="write each class's JSON report into DIR as MODULE.CLASS.json (python -m tinymemory.matrix reads them)",
    )
    group.addoption(
        "--tinymemory-bundle-dir",
        metavar="DIR",
        help="write a regression bundle for each failing check into DIR",
    )


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    # Last: a SIGTERM handler another plugin or conftest sets here is the
    # one ours chains to.
    _processes.install()
    config.stash[_RAN] = []
    # pytest-xdist registers it too; without xdist it is a mark no one reads.
    config.addinivalue_line("markers", "xdist_group(name): pytest-xdist --dist loadgroup keeps a group on one worker")
    _one_worker_per_class(config)


def _one_worker_per_class(config):
    """Under ``pytest -n N`` with pytest-xdist's ``load`` (the default) or
    ``loadgroup`` distribution, each DriverConformance class's checks go
    to one worker (``_xdist.ClassScheduling``): a class's items spread over
    the workers would each run the class's whole suite again. Every other
    test is distributed as the mode says. The controller says so once, in
    the header; workers and the other modes are left alone."""
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return
    dist = getattr(config.option, "dist", "no")
    if dist in ("load", "loadgroup", "worksteal"):
        config.stash[_SWITCHED] = dist


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's hook, on the controller: its first answer is the
    scheduler; None leaves the choice to xdist."""
    dist = config.stash.get(_SWITCHED, None)
    if dist is None:
        return None
    from ._xdist import ClassScheduling

    # worksteal too: stealing half a class's checks would run its suite
    # twice, so the classes are scheduled as `load` would.
    return ClassScheduling(config, log, by_group=dist == "loadgroup")


def pytest_report_header(config):
    lines = []
    dist = config.stash.get(_SWITCHED, None)
    if dist is not None:
        lines.append(
            f"tinymemory: under --dist {dist} each DriverConformance class runs on one worker: its checks "
            "come from one run of the binary, which each worker given one of them would repeat "
            "(docs/validate-python-driver.md, pytest-xdist)"
        )
    trace = trace_file(os.environ)
    if trace is not None:
        # The plugin passes no --jobs then (`jobs_for`): said once, here.
        lines.append(
            f"tinymemory: TINYMEMORY_TRACE is set, so every run is traced to {trace} and runs one check at "
            "a time (a traced run takes no --jobs: each trace line names the one running check)"
        )
    return lines


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    # The class as an xdist_group too, for schedulers that read the mark
    # (xdist's loadgroup under pytest 8); first, since an xdist worker reads
    # the marks in a hook of its own.
    for item in items:
        if isinstance(item, CheckItem):
            item.add_marker(pytest.mark.xdist_group(item.parent.nodeid))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    # The call phase of a check is the check's own time, as the binary
    # measured it: pytest's clock would charge the class's whole run to its
    # first item and nothing to the others. `--durations` and the JUnit XML
    # `time` (junitxml adds the report's `duration`) read this.
    if isinstance(item, CheckItem) and call.when == "call" and item.check_seconds is not None:
        report.duration = item.check_seconds
    return report


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    ran = config.stash.get(_RAN, [])
    if not ran:
        return
    terminalreporter.section("tinymemory conformance")
    for line in summary_lines(ran):
        terminalreporter.write_line(visible(line))


def summary_lines(classes):
    """The terminal summary of the ConformanceClass nodes `classes` whose
    run finished, in run order, each line starting with the class's node
    id: the run's time (the binary's start, driver start-ups and corpus
    load included) and the sum of its checks' own times (larger when the
    binary ran checks side by side), the CLI's conformance line,
    then the lines of the failures sharing one driver error, each
    as the run's last event gives it (``lines``)."""
    lines = []
    for node in classes:
        checks, info = node.outcome()
        own = sum((c.get("duration_ms") or 0.0) for c in checks.values()) / 1000
        lines.append(
            f"{node.nodeid}: {len(checks)} check{'' if len(checks) == 1 else 's'} in one run of {info['seconds']:.2f}s "
            f"(their own times sum to {own:.2f}s)"
        )
        said = info["lines"]
        if said.get("conformance"):
            lines.append(f"{node.nodeid}: {said['conformance']}")
        lines.extend(f"{node.nodeid}: {line}" for line in said.get("shared_errors", []))
    return lines


def pytest_sessionfinish(session):
    # However the session ends (-x, Ctrl-C, an error), no run or driver
    # outlives it.
    _processes.stop_all()


def pytest_unconfigure(config):
    _processes.uninstall()
    for run_id in config.stash.get(_XDIST_RUNS, ()):
        remove(run_id)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist's hook, on the controller, for each worker it starts:
    the run's id, whose folder of shared answers the workers make in the
    temporary directory and the controller removes at its end."""
    node.config.stash.setdefault(_XDIST_RUNS, set()).add(node.workerinput["testrunuid"])


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    if not (inspect.isclass(obj) and issubclass(obj, DriverConformance) and obj is not DriverConformance):
        return None
    matches = getattr(collector, "classnamefilter", None)
    if matches is not None and not matches(name):
        return None
    return ConformanceClass.from_parent(collector, name=name, obj=obj)


def bundled_corpus():
    """The corpus directory the wheel carries (``tinymemory/corpora``), or
    the repository's ``fixtures/corpora`` when running from a checkout."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for path in (os.path.join(package, "corpora"), os.path.join(package, "..", "..", "fixtures", "corpora")):
        if os.path.isdir(path):
            return os.path.normpath(path)
    raise RunError(
        f"no bundled corpus: neither {os.path.join(package, 'corpora')} nor a checkout's fixtures/corpora "
        "exists; set `corpus` to a directory, or to False to skip the corpus checks"
    )


def write_report(report, directory, name):
    """Writes `report` (the run's JSON report) to `directory`/`name`,
    creating the directory. Raises RunError naming the path when it cannot."""
    import json

    path = os.path.join(directory, name)
    try:
        os.makedirs(directory, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2, ensure_ascii=False)
            f.write("\n")
    except OSError as e:
        raise RunError(f"failed to write the JSON report {path}: {e}") from None
    return path



def _from_entry_point(config):
    """True when this plugin was loaded through the wheel's ``pytest11``
    entry point, which every pytest of the environment loads by itself."""
    return any(
        getattr(plugin, "__name__", None) == PLUGIN for plugin, _dist in config.pluginmanager.list_plugin_distinfo()
    )


def _binary_prefix():
    """``TINYMEMORY_CONFORMANCE_BIN=PATH `` (absolute, shell-quoted) when
    this session's binary came from that variable, which a new shell may
    not have; "" otherwise."""
    chosen = os.environ.get("TINYMEMORY_CONFORMANCE_BIN")
    if not chosen:
        return ""
    return f"TINYMEMORY_CONFORMANCE_BIN={shlex.quote(os.path.abspath(chosen))} "

class CheckFailed(Exception):
    """A check that failed: the message is the whole report."""


class ConformanceClass(pytest.Class):
    """A DriverConformance subclass: one CheckItem per check, then the class's own tests."""

    def collect(self):
        cls = self.obj
        try:
            self._command = self._driver_command(cls)
            # Absolute: the commands failures print run from any directory.
            self._binary = os.path.abspath(checked_binary(find_binary()))
            self._env = driver_env()
            self._hello = None
            profile = cls.profile
            if profile is None:
                # Under xdist every worker collects from one answer
                # (`_once`): xdist ends a session whose workers collected
                # different items.
                try:
                    self._hello = once_per_run(self.config, self.nodeid, lambda: hello(self._binary, self._command, self._env))
                except Refused as e:
                    raise RunError(str(e)) from None
                profile = self._hello.get("recall_profile", "lexical")
            if profile not in PROFILES:
                raise RunError(f"{cls.__name__}.profile is {profile!r}; expected 'lexical', 'semantic' or None")
            self._profile = profile
            self._checks = list_checks(self._binary, profile)
        except BinaryError as e:
            # No binary (or one of another version) stops every class
            # alike: a collection error, exit 2.
            raise self.CollectError(f"{cls.__name__}: {e}") from None
        except RunError as e:
            # One failing item rather than a collection error: pytest
            # stops the whole session at a collection error, so one store
            # that cannot start would keep every other class from running.
            return [DriverUnavailable.from_parent(self, name=UNAVAILABLE, message=f"{cls.__name__}: {e}")]
        self._outcome = None
        self._started = None
        self._report_dir = self._bundle_dir = self._replay = self._prefix = None
        # The node id of the first item that reported a RunError.
        self.first_failed = None
        items = [CheckItem.from_parent(self, name=c[0], check=c) for c in self._checks]
        own = [x for x in super().collect() if x.name != SENTINEL]
        return items + own

    def _driver_command(self, cls):
        if cls.driver is not None and cls.driver_command is not None:
            raise RunError("set `driver` or `driver_command`, not both")
        if cls.driver_command is not None:
            command = cls.driver_command
            if isinstance(command, str):
                words = shlex.split(command)
            elif isinstance(command, (list, tuple)):
                words = [os.fspath(w) if isinstance(w, os.PathLike) else str(w) for w in command]
            else:
                raise RunError(
                    f"`driver_command` is {command!r}; expected a command line (a string) or a list of its words"
                )
            if not words:
                raise RunError("`driver_command` is empty; expected a command line (a string) or a list of its words")
            return words
        driver = cls.driver
        if driver is None:
            try:
                driver = cls.tinymemory_driver_spec()
            except TypeError as e:
                raise RunError(str(e)) from None
        if driver is None:
            raise RunError("set `driver` (MODULE:FACTORY or the factory) or `driver_command`")
        if not isinstance(driver, str):
            # A function or class assigned in the class body: found again
            # in the driver process by its module and name.
            module = getattr(driver, "__module__", None)
            qualname = getattr(driver, "__qualname__", None)
            if not module or not qualname or "<locals>" in qualname:
                raise RunError(
                    f"`driver` is {driver!r}, which a driver process cannot import: give a module-level "
                    "function or class, or 'MODULE:FACTORY'"
                )
            driver = f"{module}:{qualname}"
        return [sys.executable, "-m", "tinymemory.serve", driver]

    def _options(self):
        cls, config = self.obj, self.config
        corpus = config.getoption("tinymemory_corpus")
        base = os.path.dirname(str(self.path))
        if corpus is None:
            corpus = cls.corpus
            if isinstance(corpus, (str, os.PathLike)):
                corpus = os.path.join(base, os.fspath(corpus))
            elif corpus is not None and not isinstance(corpus, bool):
                raise RunError(
                    f"{cls.__name__}.corpus is {corpus!r}; expected True, False, or a directory (a str or path)"
                )
        elif corpus in ("on", "off"):
            corpus = corpus == "on"
        if corpus is True:
            corpus = bundled_corpus()
        elif corpus is False or corpus is None:
            corpus = None
        else:
            corpus = os.path.abspath(os.fspath(corpus))
            if not os.path.isdir(corpus):
                raise RunError(f"the corpus {corpus} is not a directory")

        def pick(option, attr):
            value = config.getoption(option)
            return getattr(cls, attr) if value is None else value

        numbers = {}
        # The binary's ranges (crates/tinymemory-cli/src/args.rs): --seed a
        # u64, --cases a u32 of at least 1, --timeout and --call-timeout a
        # u64 of at least 1.
        # A value outside them is refused here, once, naming the setting,
        # rather than as the binary's exit 2 on every item.
        for option, attr, least, most in (
            ("tinymemory_seed", "seed", 0, U64_MAX),
            ("tinymemory_cases", "cases", 1, U32_MAX),
            ("tinymemory_timeout", "timeout", 1, LIMIT_MAX),
            ("tinymemory_call_timeout", "call_timeout", 1, LIMIT_MAX),
        ):
            value = pick(option, attr)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most
            ):
                setting = (
                    f"{cls.__name__}.{attr}"
                    if config.getoption(option) is None
                    else "--" + option.replace("_", "-")
                )
                raise RunError(
                    f"{setting} is {value!r}; expected a whole number from {least} to {most}, or None"
                )
            numbers[attr] = value
        bundle_dir = pick("tinymemory_bundle_dir", "bundle_dir")
        if bundle_dir is not None and not isinstance(bundle_dir, (str, os.PathLike)):
            raise RunError(
                f"{cls.__name__}.bundle_dir is {bundle_dir!r}; expected a directory (a str or path), or None"
            )
        if bundle_dir is not None:
            bundle_dir = os.path.abspath(os.fspath(bundle_dir))
        report_dir = pick("tinymemory_report_dir", "report_dir")
        if report_dir is not None and not isinstance(report_dir, (str, os.PathLike)):
            raise RunError(
                f"{cls.__name__}.report_dir is {report_dir!r}; expected a directory (a str or path), or None"
            )
        if report_dir is not None:
            report_dir = os.path.abspath(os.path.join(base, os.fspath(report_dir)))
        return {
            "report_dir": report_dir,
            "corpus": corpus,
            "seed": numbers["seed"],
            "cases": numbers["cases"],
            "timeout": numbers["timeout"],
            "call_timeout": numbers["call_timeout"],
            "bundle_dir": bundle_dir,
        }

    def started(self):
        """This class's one run, started at the first call: a `_run.Run`,
        or the exception that kept it from starting (kept alike: a class
        never starts a second run)."""
        if self._started is None:
            try:
                self._started = self._start()
            except Exception as e:
                self._started = e
        return self._started

    def outcome(self):
        """``(report checks by id, run info)`` of this class's one run once
        it ended, or the exception that stopped it (a RunError, or any
        other the plugin did not foresee, kept alike); waits for the run's
        end. An interrupt (KeyboardInterrupt) is not kept: it ends the
        session."""
        if self._outcome is None:
            started = self.started()
            if isinstance(started, Exception):
                self._outcome = started
            else:
                try:
                    self._outcome = self._finish(started)
                except Exception as e:
                    self._outcome = e
        return self._outcome

    def _start(self):
        mine = self.mine()
        selected = [i.check[0] for i in mine]
        every = len(selected) == len(self._checks)
        opts = self._options()
        self._report_dir = opts.pop("report_dir")
        if self._hello is None:
            # A factory that does not import, raises or hangs is one clear
            # error here, rather than the run's exit 3.
            self._hello = hello(self._binary, self._command, self._env)
        limit = deadline(listing(self._binary, self._profile), set(selected), opts["timeout"], opts["cases"])
        # A driver that declared independent stores runs with `--jobs` set
        # to the binary's own default, which lets the binary start the
        # other jobs' processes beside the first rather than after its
        # hello (docs/cli.md, "Driver processes"); a traced one, one job.
        jobs = jobs_for(self._hello, self._env)
        self._bundle_dir = opts["bundle_dir"]
        # `replay` never runs a command read from a bundle: the hint names
        # the driver (and the corpus the run loaded) itself, and the
        # run's time budget, which decides a check that ran past it.
        replay = ["--driver", "exec:" + shlex.join(self._command)]
        if opts["corpus"] is not None:
            replay += ["--corpus", opts["corpus"]]
        if opts["timeout"] is not None:
            replay += ["--timeout", str(opts["timeout"])]
        self._replay = replay
        self._prefix = pythonpath_prefix(import_dirs(self._modules()))
        return run(self._binary, self._command, self._env, self._profile, selected, every, limit=limit, jobs=jobs, **opts)

    def mine(self):
        """This class's check items of the session, in order."""
        return [i for i in self.session.items if isinstance(i, CheckItem) and i.parent is self]

    def waits_for_end(self, entry, plan):
        """Whether the item of `entry` waits for the run's end rather than
        its check's: a failure the run reruns alone (its verdict comes in a
        later event) or bundles (whose path comes at the end)."""
        failed = entry.get("outcome") not in ("pass", "skip", "expected-failure")
        return failed and (bool(plan.get("reruns")) or self._bundle_dir is not None)

    def info(self, started):
        """What a failure's message names: the run's command, its seed and
        cases (the run-started event), the bundles written (once the run
        ended), how to replay and the PYTHONPATH prefix."""
        finished = started.live.finished or {}
        return {
            "command": started.shown,
            "plan": started.plan(),
            "bundles": dict(finished.get("bundles") or {}),
            "replay": self._replay,
            "prefix": self._prefix,
        }

    def _finish(self, started):
        report, bundles, finished = started.result()
        seconds = time.monotonic() - started.started_at
        if self._report_dir is not None:
            write_report(report, self._report_dir, f"{self.obj.__module__}.{self.obj.__qualname__}.json")
        checks = {c["id"]: c for c in report.get("checks", [])}
        self.config.stash[_RAN].append(self)
        info = self.info(started)
        info.update(report=report, bundles=bundles, lines=finished.get("lines") or {}, seconds=seconds)
        return checks, info

    def _modules(self):
        """The top-level modules a reproducing command imports besides
        pytest's own: this package (the driver side, the plugin) and the
        module of a ``MODULE:FACTORY`` the driver process serves."""
        modules = ["tinymemory"]
        if self._command[1:3] == ["-m", "tinymemory.serve"] and len(self._command) == 4:
            modules.append(self._command[3].split(":", 1)[0])
        return modules


def _domain(item):
    """The item's report domain, `Class.store.upsert`, dotted as pytest's
    own `Class.test_name`: pytest shows a node id ending in its domain
    with the domain's dots as `::`, which would print `store::upsert`,
    an id that selects nothing; this one is no suffix of the id, so
    `pytest -v` prints the id as it is."""
    return f"{item.parent.name}.{item.name}"


def _with_notes(entry):
    """The entry's message, then the notes the run added (a trace span, a
    rerun's verdict), each by its own text: the span in brackets after
    the message, any other note on an indented line, as the binary's text
    report shows them (docs/reports.md)."""
    text = entry.get("message") or ""
    for note in entry.get("notes") or []:
        if note.get("kind") == "trace":
            text += f" [{note.get('text', '')}]"
        else:
            text += f"\n  {note.get('text', '')}"
    return text


class DriverUnavailable(pytest.Item):
    """The one item of a class whose checks could not be collected: it
    fails with the reason (the driver's stderr when it did not start)."""

    def __init__(self, *, message, **kwargs):
        super().__init__(**kwargs)
        self.message = message

    def runtest(self):
        raise RunError(self.message)

    def repr_failure(self, excinfo, style=None):
        return visible(str(excinfo.value))

    def reportinfo(self):
        return self.path, None, _domain(self)


class CheckItem(pytest.Item):
    """One conformance check of a ConformanceClass."""

    def __init__(self, *, check, **kwargs):
        super().__init__(**kwargs)
        self.check = check
        # Seconds the check itself took (the report's duration_ms), once
        # its run has given it: the item's call duration.
        self.check_seconds = None
        # `-k contract` selects a family as `-k recall` selects ids.
        self.extra_keyword_matches.add(check[1])
        self.user_properties.append(("family", check[1]))

    def runtest(self):
        parent = self.parent
        started = parent.started()
        if isinstance(started, Exception):
            self._run_failed(started)
        check_id = self.check[0]
        # This check's entry as soon as its check finished: pytest reports
        # the item then, not once the class's whole run has ended.
        entry = started.entry(check_id, parent.waits_for_end)
        mine = parent.mine()
        if entry is None or (mine and mine[-1] is self):
            # The run ended without this check (it stopped), or this is the
            # class's last item, which reports the run's end.
            outcome = parent.outcome()
            if isinstance(outcome, Exception):
                self._run_failed(outcome)
            if entry is None:
                checks, info = outcome
                entry = checks.get(check_id)
                if entry is None:
                    raise CheckFailed(
                        f"{check_id}: the run's report has no entry for this check: `{info['command']}`"
                    )
        info = parent.info(started)
        kind = entry.get("outcome")
        message = entry.get("message") or ""
        if entry.get("duration_ms") is not None:
            self.check_seconds = entry["duration_ms"] / 1000
        self.user_properties.append(("check_duration_ms", entry.get("duration_ms")))
        if kind == "pass":
            return
        if kind == "skip":
            # The binary's hint names its own flag; here the corpus is a
            # class attribute or the plugin's option.
            message = message.replace(
                "(use --corpus DIR)", "(set `corpus` on the class, or pass --tinymemory-corpus on|DIR)"
            )
            pytest.skip(visible(message or "skipped by the suite"))
        if kind == "expected-failure":
            pytest.xfail(visible(f"{entry.get('reason')}: {message}"))
        raise CheckFailed(self._failure(entry, info))

    def _run_failed(self, outcome):
        """One run failed for every item of the class: the first item says
        why, the others point at it."""
        first = self.parent.first_failed
        if first is None:
            self.parent.first_failed = self.nodeid
            raise outcome
        if isinstance(outcome, BrokenEnvironment):
            # No check ran, so none failed: one message for the class.
            pytest.skip(f"the driver's environment is broken; {first} says why")
        raise RunError(f"the run of this class did not start; {first} says why")

    def _failure(self, entry, info):
        run_meta = info["plan"]
        lines = [f"{entry['id']} {entry.get('outcome', '?').upper()}: {_with_notes(entry)}"]
        if entry.get("reason"):
            lines.append(f"declared reason: {entry['reason']}")
        example = entry.get("counterexample")
        if example:
            lines.append(f"counterexample (seed {example.get('seed')}): {example.get('input')}")
        lines.append(f"rule ({entry.get('family')}): {entry.get('description')}")
        prefix = info["prefix"]
        lines.append(
            f"seed {run_meta.get('seed')}, {run_meta.get('cases')} cases; this check alone: "
            f"{prefix}{_binary_prefix()}{shlex.join(self._pytest_command(run_meta.get('seed')))}"
        )
        lines.append(f"  or: {prefix}{info['command']} --check {entry['id']}")
        bundle = info["bundles"].get(entry["id"])
        if bundle:
            lines.append(f"replay: {prefix}{shlex.join([self.parent._binary, 'replay', bundle, *info['replay']])}")
        return "\n".join(lines)

    def _pytest_command(self, seed):
        """``python -m pytest /ABS/test_file.py::Class::check`` with the
        seed and the plugin's flags this session was given, runnable from
        any directory (with the PYTHONPATH prefix of the failure)."""
        config = self.config
        node = "::".join([str(self.path), *self.nodeid.split("::")[1:]])
        argv = [sys.executable, "-m", "pytest", node]
        # Loaded by `-p` or $PYTEST_PLUGINS (a checkout, no wheel) rather
        # than the wheel's entry point: a new shell may not have the
        # variable, and `-p` beside it is harmless.
        if not _from_entry_point(config):
            argv += ["-p", PLUGIN]
        argv += ["--tinymemory-seed", str(seed)]
        for option in ("tinymemory_corpus", "tinymemory_cases", "tinymemory_timeout", "tinymemory_call_timeout"):
            value = config.getoption(option)
            if value is not None:
                if option == "tinymemory_corpus" and value not in ("on", "off"):
                    value = os.path.abspath(value)
                argv += ["--" + option.replace("_", "-"), str(value)]
        return argv

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, (CheckFailed, RunError, BinaryError)):
            # What a driver wrote is shown escaped, as the CLI shows it.
            return visible(str(excinfo.value))
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, _domain(self)
