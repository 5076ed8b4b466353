"""python -m tinymemory.matrix: rows from JSON reports, and --check on a stale file."""

import json

import pytest

from tinymemory import matrix


def report(driver_id, level, checks, families=(), load_ms=None):
    return {
        "schema_version": 1,
        "run": {"driver_id": driver_id, "recall_profile": "semantic", "load_ms": load_ms},
        "conformance": {"level": level, "profile": "semantic", "families": [{"family": f, "status": "pass"} for f in families]},
        "checks": [{"id": i, "outcome": o, "message": m} for i, o, m in checks],
    }


FAISS = report(
    "langchain-community==0.4.2 langchain_community.vectorstores.faiss:FAISS via tinymemory.adapters.langchain",
    "partial",
    [("store.upsert", "fail", "unexpected driver error: ValueError\nsecond line"), ("recall.limit", "pass", None)],
    families=["sections"],
)
TANTIVY = report("tantivy==0.27.0 tantivy.Index in RAM (examples/engines/tantivy_store.py)", "full", [], load_ms=812.5)
OTHER = report("my-driver", "none", [("recall.limit", "timeout", "ran past 60 s | budget")])


def test_rows_carry_package_version_level_and_failing_checks():
    text = matrix.render([TANTIVY, OTHER, FAISS])
    table = text.split(matrix.HEADER, 1)[1]
    assert table == (
        "\n| engine | package | version | language | through | profile | corpus | level | failing checks "
        "| nondeterministic (failed in k of n runs) |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n"
        "| FAISS | langchain-community | 0.4.2 | - | langchain | semantic | off | PARTIAL (sections) | `store.upsert` "
        "| none |\n"
        "| my-driver | - | - | - | driver | semantic | off | NONE | `recall.limit` | none |\n"
        "| tantivy.Index in RAM (examples/engines/tantivy_store.py) | tantivy | 0.27.0 | - | driver | semantic | on "
        "| FULL | none | none |\n"
        "\n"
        "## Failures, first line of each message\n"
        "\n"
        "### FAISS (langchain-community 0.4.2, langchain, -)\n"
        "\n"
        "- `store.upsert`: unexpected driver error: ValueError\n"
        "\n"
        "### my-driver (- -, driver, -)\n"
        "\n"
        "- `recall.limit` (timeout): ran past 60 s \\| budget\n"
    )


def test_check_fails_on_a_stale_table_and_passes_on_a_fresh_one(tmp_path, capsys):
    paths = []
    for i, r in enumerate((FAISS, TANTIVY)):
        p = tmp_path / f"r{i}.json"
        p.write_text(json.dumps(r))
        paths.append(str(p))
    out = tmp_path / "compatibility.md"
    assert matrix.main(["--output", str(out)] + paths) == 0
    assert matrix.main(["--check", str(out)] + paths) == 0
    # Another message first line is no staleness: messages may carry numbers that vary.
    out.write_text(out.read_text().replace("unexpected driver error: ValueError", "another message"))
    assert matrix.main(["--check", str(out)] + paths) == 0
    out.write_text(out.read_text().replace("PARTIAL (sections)", "FULL"))
    assert matrix.main(["--check", str(out)] + paths) == 1
    captured = capsys.readouterr()
    assert "-| FAISS | langchain-community | 0.4.2 | - | langchain | semantic | off | FULL | `store.upsert` | none |" in captured.out
    assert "is stale: regenerate it with python -m tinymemory.matrix --output" in captured.err


def test_a_file_that_is_no_report_exits_2(tmp_path, capsys):
    p = tmp_path / "x.json"
    p.write_text("{}")
    assert matrix.main([str(p)]) == 2
    assert capsys.readouterr().err == f"error: {p}: not a conformance JSON report (KeyError: 'run')\n"


def chroma(failing, spec="exec:/venv/bin/python -m tinymemory.serve test_x:T.tinymemory_store"):
    ids = ("recall.namespace_isolation", "recall.huge_limit", "store.upsert")
    checks = [(c, "fail", f"{c} failed") if c in failing else (c, "pass", None) for c in ids]
    r = report(
        "llama-index-vector-stores-chroma==0.6.0 llama_index.vector_stores.chroma.base:ChromaVectorStore "
        "via tinymemory.adapters.llamaindex",
        "partial",
        checks,
        # Every check above is of the contract family: it passes when none fails.
        families=["sections"] if failing else ["contract", "sections"],
    )
    r["run"]["driver_spec"] = spec
    families = {"recall.namespace_isolation": "contract", "recall.huge_limit": "contract", "store.upsert": "contract"}
    for c in r["checks"]:
        c["family"] = families[c["id"]]
    return r


def row_line(text, engine):
    return next(line for line in text.splitlines() if line.startswith(f"| {engine} |"))


def test_language_comes_from_the_driver_spec():
    assert matrix.language_of({"driver_spec": "exec:/v/bin/python -m tinymemory.serve m:F"}) == "Python"
    assert matrix.language_of({"driver_spec": "exec:node /repo/js/dist/serve-cli.js ./stores.js#vectors"}) == "JavaScript"
    assert matrix.language_of({"driver_spec": "exec:/usr/bin/node stores.mjs"}) == "JavaScript"
    assert matrix.language_of({"driver_spec": "sqlite:/tmp/x.db"}) == "-"
    assert matrix.language_of({}) == "-"


def test_a_check_failing_in_some_recorded_runs_is_nondeterministic_and_does_not_flap():
    history = {"rows": {}}
    for failing in (["recall.huge_limit", "recall.namespace_isolation"], ["recall.huge_limit"],
                    ["recall.huge_limit", "recall.namespace_isolation"]):
        history = matrix.record(history, [chroma(failing)])
    key = "Python | ChromaVectorStore | llama-index-vector-stores-chroma | 0.6.0 | llamaindex"
    (ran,) = history["check_sets"]
    assert history["check_sets"] == {ran: ["recall.huge_limit", "recall.namespace_isolation", "store.upsert"]}
    assert history["rows"] == {
        key: [
            {"failed": ["recall.huge_limit", "recall.namespace_isolation"], "checks": ran},
            {"failed": ["recall.huge_limit"], "checks": ran},
            {"failed": ["recall.huge_limit", "recall.namespace_isolation"], "checks": ran},
        ]
    }
    expected = (
        "| ChromaVectorStore | llama-index-vector-stores-chroma | 0.6.0 | Python | llamaindex | semantic | off "
        "| PARTIAL (sections) | `recall.huge_limit` | `recall.namespace_isolation` (2 of 3) |"
    )
    # Whether the nondeterministic check fails in this run or not, the row is the same.
    failing_now = matrix.render([chroma(["recall.huge_limit", "recall.namespace_isolation"])], history=history)
    passing_now = matrix.render([chroma(["recall.huge_limit"])], history=history)
    assert row_line(failing_now, "ChromaVectorStore") == expected
    assert row_line(passing_now, "ChromaVectorStore") == expected
    assert "- `recall.namespace_isolation`: nondeterministic, failed in 2 of 3 recorded runs (passed in this run)" in passing_now
    # Without the history, the same reports flap.
    assert matrix.render([chroma(["recall.huge_limit"])]) != matrix.render(
        [chroma(["recall.huge_limit", "recall.namespace_isolation"])]
    )
    # A check failing in every recorded run that passes now changes the table.
    assert row_line(matrix.render([chroma([])], history=history), "ChromaVectorStore") != expected


def test_record_keeps_the_last_runs_and_check_reads_the_history(tmp_path, capsys):
    runs = tmp_path / "runs.json"
    paths = []
    for i, failing in enumerate((["recall.huge_limit"], ["recall.huge_limit", "recall.namespace_isolation"])):
        p = tmp_path / f"r{i}.json"
        p.write_text(json.dumps(chroma(failing)))
        paths.append(str(p))
    for _ in range(matrix.KEEP_RUNS):
        assert matrix.main(["--record", str(runs), paths[0]]) == 0
    assert matrix.main(["--record", str(runs), paths[1]]) == 0
    recorded = json.loads(runs.read_text())["rows"]
    (only,) = recorded.values()
    assert len(only) == matrix.KEEP_RUNS
    assert only[-1]["failed"] == ["recall.huge_limit", "recall.namespace_isolation"]
    out = tmp_path / "compatibility.md"
    assert matrix.main(["--output", str(out), "--history", str(runs), paths[0]]) == 0
    assert "`recall.namespace_isolation` (1 of 10)" in out.read_text()
    capsys.readouterr()
    # The run where it failed renders the same table: not stale.
    assert matrix.main(["--check", str(out), "--history", str(runs), paths[1]]) == 0
    # Without the history, it is.
    assert matrix.main(["--check", str(out), paths[1]]) == 1


def test_a_history_that_is_not_one_exits_2(tmp_path, capsys):
    runs = tmp_path / "runs.json"
    runs.write_text('{"rows": {"x": "not runs"}}')
    p = tmp_path / "r.json"
    p.write_text(json.dumps(chroma([])))
    assert matrix.main(["--history", str(runs), str(p)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {runs}: not a matrix history")


def test_a_report_failing_on_the_set_up_is_refused(tmp_path, capsys):
    r = chroma([])
    r["checks"][0] = {
        "id": "recall.namespace_isolation", "family": "contract", "outcome": "fail",
        "message": "failed to open a fresh X driver: unavailable: failed to get an answer to `hello` from `python`: "
                   "no answer within 30s",
    }
    p = tmp_path / "r.json"
    p.write_text(json.dumps(r))
    for argv in ([str(p)], ["--record", str(tmp_path / "runs.json"), str(p)]):
        assert matrix.main(argv) == 2
        assert capsys.readouterr().err == (
            f"error: {p}: recall.namespace_isolation failed because a driver process did not answer `hello` within "
            "the call timeout, which is the run's set-up (a loaded machine, a slow import), not the store: rerun it "
            "where it has the cores it needs\n"
        )
    assert not (tmp_path / "runs.json").exists()


def test_a_check_new_since_the_recorded_runs_is_counted_only_in_the_runs_that_had_it():
    # Two runs recorded before `store.new_check` existed, then one run that
    # has it and fails it: a store failing a new check every time it runs
    # is failing, not "nondeterministic, 1 of 3".
    history = {"rows": {}}
    for _ in range(2):
        history = matrix.record(history, [chroma(["recall.huge_limit"])])
    newer = chroma(["recall.huge_limit"])
    newer["checks"].append({"id": "store.new_check", "outcome": "fail", "message": "store.new_check failed"})
    history = matrix.record(history, [newer])
    text = matrix.render([newer], history=history)
    assert row_line(text, "ChromaVectorStore") == (
        "| ChromaVectorStore | llama-index-vector-stores-chroma | 0.6.0 | Python | llamaindex | semantic | off "
        "| PARTIAL (sections) | `recall.huge_limit`, `store.new_check` | none |"
    )
    # A run that had it and passed it makes it nondeterministic: 1 of the 2
    # runs that ran it, not of the 4 recorded.
    passing = chroma(["recall.huge_limit"])
    passing["checks"].append({"id": "store.new_check", "outcome": "pass", "message": None})
    history = matrix.record(history, [passing])
    assert "`store.new_check` (1 of 2)" in row_line(matrix.render([passing], history=history), "ChromaVectorStore")


def test_a_skipped_check_is_not_counted_as_run():
    history = {"rows": {}}
    skipped = chroma(["recall.huge_limit"])
    skipped["checks"].append({"id": "store.new_check", "outcome": "skip", "message": "not served"})
    failing = chroma(["recall.huge_limit"])
    failing["checks"].append({"id": "store.new_check", "outcome": "fail", "message": "store.new_check failed"})
    for r in (skipped, failing):
        history = matrix.record(history, [r])
    assert matrix.nondeterministic(matrix.row_of(failing), history) == {}


def test_runs_recorded_before_check_sets_count_only_for_the_checks_they_failed():
    # The first history format kept failing ids only: such a run is known to
    # have run the checks it failed and those an earlier run failed (they
    # existed by then); nothing is known of the others.
    key = "Python | ChromaVectorStore | llama-index-vector-stores-chroma | 0.6.0 | llamaindex"
    history = {"rows": {key: [["recall.huge_limit"], ["recall.huge_limit", "recall.namespace_isolation"],
                              ["recall.huge_limit"], ["store.upsert"]]}}
    now = chroma(["recall.huge_limit", "store.upsert"])
    history = matrix.record(history, [now])
    assert matrix.nondeterministic(matrix.row_of(now), history) == {
        # runs 2, 3, 4 and now ran it (not run 1: unknown), failed in run 2
        "recall.namespace_isolation": (1, 4),
        # every run ran it, failed in all but run 4
        "recall.huge_limit": (4, 5),
    }


# The id of the empty check set, as --record names it.
EMPTY = matrix._set_id([])


@pytest.mark.parametrize(
    "history",
    [
        # A run naming its check set by a list, not an id.
        {"check_sets": {}, "rows": {"x": [{"failed": [], "checks": ["store.upsert"]}]}},
        # A check set that is not a list of ids: a string would be read as
        # its characters, a number not at all.
        {"check_sets": {"s": "store.upsert"}, "rows": {"x": [{"failed": [], "checks": "s"}]}},
        {"check_sets": {"s": 5}, "rows": {"x": [{"failed": [], "checks": "s"}]}},
        {"check_sets": {"s": [["store.upsert"]]}, "rows": {"x": [{"failed": [], "checks": "s"}]}},
        # A failing id that is not a string, in either format.
        {"check_sets": {"s": []}, "rows": {"x": [{"failed": [["store.upsert"]], "checks": "s"}]}},
        {"rows": {"x": [[{"id": "store.upsert"}]]}},
        # A set under an id that is not its ids' hash: a recorded run of
        # those ids would be counted as having run the set's.
        {"check_sets": {"s": ["store.upsert"]}, "rows": {"x": [{"failed": [], "checks": "s"}]}},
        # A run failing a check its set says it did not run (k of n with
        # k > n, or no n at all).
        {"check_sets": {EMPTY: []}, "rows": {"x": [{"failed": ["store.upsert"], "checks": EMPTY}]}},
    ],
)
def test_a_history_of_malformed_runs_or_sets_exits_2(tmp_path, capsys, history):
    runs = tmp_path / "runs.json"
    runs.write_text(json.dumps(history))
    p = tmp_path / "r.json"
    p.write_text(json.dumps(chroma([])))
    assert matrix.main(["--history", str(runs), str(p)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {runs}: not a matrix history")
