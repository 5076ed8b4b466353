#!/usr/bin/env bash
# The compatibility matrix against the newest release of each engine
# (.github/workflows/matrix.yml, weekly): the engine and interface packages
# of the matrix's requirement files (each line above a file's "# ...
# dependencies" comment) are installed at their newest versions into a
# throwaway venv, pip resolving their dependencies afresh, and every pin
# of those files is rewritten to the version installed. Then .ci/python.sh
# and .ci/js.sh run the rows, their reports are added to the recorded runs
# (docs/compatibility-runs.json, python -m tinymemory.matrix --record) and
# docs/compatibility.md is rendered from them: the diff is what a new
# release changed. Leaves the edited files in the checkout; the workflow
# opens them as a pull request.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

files=(examples/engines/requirements.txt examples/adapters/requirements.txt examples/adapters/requirements-interfaces.txt)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The top of each file, before its dependencies' comment: the engines.
mapfile -t engines < <(for f in "${files[@]}"; do
    sed -n '/^# .*dependencies/q; /^[A-Za-z0-9]/s/==.*//p' "$f"
done)
step "matrix-latest: the newest ${engines[*]}"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check --upgrade "${engines[@]}"
"$work/venv/bin/pip" freeze --all > "$work/freeze.txt"

# Every pin of the files to the version installed (names compared as pip
# normalises them); a pin pip no longer installs is kept and said.
python3 - "$work/freeze.txt" "${files[@]}" <<'PY'
import re, sys
norm = lambda n: re.sub(r"[-_.]+", "-", n).lower()
installed = {}
for line in open(sys.argv[1]):
    if "==" in line:
        name, version = line.strip().split("==", 1)
        installed[norm(name)] = version
for path in sys.argv[2:]:
    out = []
    for line in open(path):
        m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$", line.strip())
        if m and norm(m.group(1)) in installed:
            new = installed[norm(m.group(1))]
            if new != m.group(2):
                print(f"{path}: {m.group(1)} {m.group(2)} -> {new}")
            line = f"{m.group(1)}=={new}\n"
        elif m:
            print(f"{path}: {m.group(1)}=={m.group(2)} kept (not installed by the newest engines)")
        out.append(line)
    open(path, "w").write("".join(out))
PY

reports="$work/reports"
mkdir -p "$reports"
step "matrix-latest: the rows (.ci/python.sh, .ci/js.sh)"
# A row that fails more checks than before is what this job reports, so
# the scripts' own verdicts do not stop it; the matrix says what changed.
TINYMEMORY_MATRIX_REPORTS=$reports bash .ci/python.sh || echo "matrix-latest: .ci/python.sh exited $?"
TINYMEMORY_MATRIX_REPORTS=$reports bash .ci/js.sh || echo "matrix-latest: .ci/js.sh exited $?"
ls "$reports"/*.json >/dev/null

step "matrix-latest: docs/compatibility-runs.json and docs/compatibility.md"
PYTHONPATH=python python3 -m tinymemory.matrix --record docs/compatibility-runs.json "$reports"/*.json
PYTHONPATH=python python3 -m tinymemory.matrix --output docs/compatibility.md \
    --history docs/compatibility-runs.json "$reports"/*.json
git --no-pager diff --stat
