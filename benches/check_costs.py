"""Each check's `cost_ms`, measured again (docs/benchmarks.md, "Costliest
first"): the median `duration_ms` of each check over the JSON reports of
runs on the SQLite driver over the bundled corpus (debug build,
`--jobs 1`, 64 cases), the measure `tinymemory_conformance::shard::cost`
documents.

    for i in 1 2 3 4 5; do
        target/debug/tinymemory-conformance run --driver sqlite \\
            --corpus fixtures/corpora --jobs 1 --quiet \\
            --format json --output /tmp/costs-$i.json >/dev/null
    done
    python3 benches/check_costs.py [--write] /tmp/costs-*.json

Prints, for every row of the checks table
(crates/tinymemory-conformance/src/checks.rs), its cost_ms and the
median measured. With `--write`, replaces the cost_ms of every row whose
check passed in every report (at least 1); a check skipped or not run
(the interface family on SQLite, the semantic profile's) keeps its row's.
"""

import json
import re
import statistics
import sys
from pathlib import Path

TABLE = Path(__file__).resolve().parent.parent / "crates/tinymemory-conformance/src/checks.rs"
# A row: `test_name => "check.id" DEFINITION {` then, within it, `cost_ms: N,`.
ROW = re.compile(r'(=> "(?P<id>[a-z0-9_.]+)"[^{]*?\{\s*cost_ms: )(?P<cost>\d+)', re.S)


def main(args):
    write = "--write" in args
    reports = [json.loads(Path(p).read_text()) for p in args if p != "--write"]
    if not reports:
        sys.exit(__doc__)
    measured = {}
    for report in reports:
        for check in report["checks"]:
            if check["outcome"] == "pass":
                measured.setdefault(check["id"], []).append(check["duration_ms"])
    medians = {
        check: max(1, round(statistics.median(times)))
        for check, times in measured.items()
        if len(times) == len(reports)
    }
    text = TABLE.read_text()
    for row in ROW.finditer(text):
        new = medians.get(row["id"])
        print(f'{row["id"]:48} {row["cost"]:>6} {new if new is not None else "kept":>6}')

    def replace(row):
        new = medians.get(row["id"])
        return row.group(0) if new is None else f"{row.group(1)}{new}"

    if write:
        TABLE.write_text(ROW.sub(replace, text))


if __name__ == "__main__":
    main(sys.argv[1:])
