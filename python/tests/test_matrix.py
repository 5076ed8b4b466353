"""python -m tinymemory.matrix: rows from JSON reports, and --check on a stale file."""

import json

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
        "\n| engine | package | version | through | profile | corpus | level | failing checks |\n"
        "|---|---|---|---|---|---|---|---|\n"
        "| FAISS | langchain-community | 0.4.2 | langchain | semantic | off | PARTIAL (sections) | `store.upsert` |\n"
        "| my-driver | - | - | driver | semantic | off | NONE | `recall.limit` |\n"
        "| tantivy.Index in RAM (examples/engines/tantivy_store.py) | tantivy | 0.27.0 | driver | semantic | on | FULL | none |\n"
        "\n"
        "## Failures, first line of each message\n"
        "\n"
        "### FAISS (langchain-community 0.4.2, langchain)\n"
        "\n"
        "- `store.upsert`: unexpected driver error: ValueError\n"
        "\n"
        "### my-driver (- -, driver)\n"
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
    assert "-| FAISS | langchain-community | 0.4.2 | langchain | semantic | off | FULL | `store.upsert` |" in captured.out
    assert "is stale: regenerate it with python -m tinymemory.matrix --output" in captured.err


def test_a_file_that_is_no_report_exits_2(tmp_path, capsys):
    p = tmp_path / "x.json"
    p.write_text("{}")
    assert matrix.main([str(p)]) == 2
    assert capsys.readouterr().err == f"error: {p}: not a conformance JSON report (KeyError: 'run')\n"
