#!/usr/bin/env bash
# The Python path (issue 23, docs/validate-python-driver.md): build the
# tinymemory-conformance wheel with maturin, install it into a fresh
# virtual environment with pytest and the engines of examples/engines, and
# run pytest over the Python examples, the engine adapters and python/tests.
# Called by .ci/run after the cargo tests; runs on its own as well.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL=0

step() { printf '\n=== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Debian splits venv (and its ensurepip) out of python3.
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    step "installing python3-venv (for the wheel's virtual environments)"
    apt-get update -qq
    apt-get install -y -qq python3-venv
fi

step "python: maturin into a build venv ($(python3 --version 2>&1))"
python3 -m venv "$work/build"
"$work/build/bin/pip" install -q --disable-pip-version-check maturin=="$(sed -n 's/^maturin==//p' python/requirements-ci.txt)"

# --locked: the wheel's binary is built from Cargo.lock as it is, as the
# cargo steps before built it. The release profile at opt-level 1 here: a
# clean release build of the binary took 629 s (459 s CPU) at opt-level 3
# and 341 s (346 s CPU) at 1 on two cores, and the binary's speed does not
# matter to these runs, whose time is the Python drivers'. A wheel for
# users is built without the override.
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${CARGO_PROFILE_RELEASE_OPT_LEVEL:-1}"
step "python: maturin build --release (the wheel: binary, tinymemory package, corpus)"
(cd python && "$work/build/bin/maturin" build --release --locked --out "$work/wheels")
wheel=$(ls "$work"/wheels/tinymemory_conformance-*.whl)
echo "wheel: $(basename "$wheel") ($(du -h "$wheel" | cut -f1))"

step "python: a fresh venv with the wheel, pytest and the engines' pinned requirements"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check "$wheel" \
    -r python/requirements-ci.txt -r examples/engines/requirements.txt -r examples/adapters/requirements.txt \
    -r examples/adapters/requirements-interfaces.txt
"$work/venv/bin/tinymemory-conformance" --version

# The installed binary loads the corpus the wheel installed, not the
# build checkout's (whose path means nothing on another machine).
step "python: the wheel's binary loads the corpus installed beside it"
loaded=$(cd "$work" && "$work/venv/bin/tinymemory-conformance" run --driver reference \
    --check corpus.namespace_counts | sed -n 's/^loaded \(.*\): [0-9]* entries in .*/\1/p')
case "$loaded" in
    "$work"/venv/lib/python*/site-packages/tinymemory/corpora*) echo "loaded $loaded" ;;
    *) echo "error: the wheel's binary loaded the corpus from '$loaded', not from its venv" >&2; exit 1 ;;
esac

# pytest's exit status: 0 passed; 5 collected nothing, which is a failure
# here as any other (a suite that runs nothing proves nothing).
run_pytest() {
    local status=0
    "$work/venv/bin/python" -m pytest -p no:cacheprovider "$@" || status=$?
    case $status in
        0) ;;
        5) echo "error: pytest collected no test (exit 5): $*" >&2; exit 1 ;;
        *) echo "error: pytest exited $status: $*" >&2; exit 1 ;;
    esac
}

# The examples and the engines at 8 cases per property check (64 by
# default; the cargo tests run the examples at 32): what is proved here is
# the path through pip and pytest, which the case count does not change.
# Run from elsewhere, so nothing of the checkout but the test files is
# imported: the package comes from the wheel.
repo=$PWD
# Failures of an exec driver are rerun alone by default (docs/cli.md,
# "Order-dependent failures"); the engines here fail known checks, whose
# verdicts are what is checked, so the reruns would only cost minutes.
export TINYMEMORY_NO_RERUN=1
step "python: pytest over examples/python/test_examples.py and examples/engines"
# The examples' reports stay out of the compatibility matrix (they are
# examples, not engines): only the engines' run keeps its reports.
(cd "$work" && run_pytest --tinymemory-cases 8 --junitxml="$work/junit-examples.xml" \
    "$repo/examples/python/test_examples.py")
(cd "$work" && run_pytest --tinymemory-cases 8 --junitxml="$work/junit-engines.xml" \
    --tinymemory-report-dir "$work/reports" "$repo/examples/engines")
# Every check is its own test case: 3 lexical classes (memory, sqlite,
# tantivy) and 2 semantic ones (the semantic example, Qdrant).
lexical=$("$work/venv/bin/tinymemory-conformance" list --profile lexical --format json | python3 .ci/checks.py count all)
semantic=$("$work/venv/bin/tinymemory-conformance" list --profile semantic --format json | python3 .ci/checks.py count all)
expected=$((3 * lexical + 2 * semantic))
cases=$(cat "$work/junit-examples.xml" "$work/junit-engines.xml" | grep -o '<testcase ' | wc -l)
echo "junit: $cases test cases (expected $expected: 3 x $lexical lexical + 2 x $semantic semantic)"
if [ "$cases" -ne "$expected" ]; then
    echo "error: the JUnit report holds $cases test cases, expected $expected" >&2
    exit 1
fi

# The real engines of examples/adapters, through tinymemory.adapters only
# (docs/adapters.md), without the corpus (its self-retrieval over a linear
# scan takes minutes per engine) at 8 cases. They fail checks, each a
# verified fault of the engine or a documented mapping limit, so pytest's
# exit 1 is expected here: what must hold is the matrix. docs/compatibility.md
# must be what these reports, the examples/engines ones and .ci/js.sh's
# render (its table: engine, version, level, failing checks), else it is
# stale: .ci/run checks it once both scripts have run.
# PostgresStore and PGVector need PostgreSQL with pgvector, which Debian's
# server (the one .ci/run starts) lacks: the pgserver wheel installed above
# (examples/adapters/requirements.txt) ships PostgreSQL 16 with it, whose
# initdb and pg_ctl start a throwaway server for these runs alone
# (.ci/postgres.sh), TINYMEMORY_POSTGRES_URL pointing at it from here on.
step "python: PostgreSQL 16 with pgvector (the pgserver wheel) on loopback"
pgbin=$("$work/venv/bin/python" -c \
    'import importlib.util, os; print(os.path.join(os.path.dirname(importlib.util.find_spec("pgserver").origin), "pginstall", "bin"))')
# As root the server runs as the postgres user, from the venv.
chmod a+rx "$work"
# shellcheck source=.ci/postgres.sh
source .ci/postgres.sh
postgres_start "$pgbin"
trap 'postgres_stop; rm -rf "$work"' EXIT

# Mem0 and LlamaIndex run offline: offline.py refuses any socket but
# loopback in every process of those rows, and test_offline.py, which must
# pass, shows that the Mem0 adapter's operations use none (and that the
# guard sees Mem0's telemetry when it is left on).
step "python: the Mem0 adapter uses no network (examples/adapters/test_offline.py)"
(cd "$work" && run_pytest -q "$repo/examples/adapters/test_offline.py")

step "python: the engines of examples/adapters through the adapters (docs/compatibility.md)"
adapters_status=0
(cd "$work" && "$work/venv/bin/python" -m pytest -p no:cacheprovider -q --tinymemory-cases 8 \
    --tinymemory-corpus off --tinymemory-report-dir "$work/reports" "$repo/examples/adapters" \
    --ignore "$repo/examples/adapters/test_offline.py" | tail -n 3) || adapters_status=$?
case $adapters_status in
    0|1) ;;
    *) echo "error: pytest over examples/adapters exited $adapters_status (not a verdict)" >&2; exit 1 ;;
esac
ls "$work/reports"
# The matrix holds the JavaScript rows as well (.ci/js.sh): .ci/run checks
# docs/compatibility.md against both sets once both have run, from the
# directory TINYMEMORY_MATRIX_REPORTS names; this script adds its reports
# there. Run alone, it renders its own rows for a look (no check).
if [ -n "${TINYMEMORY_MATRIX_REPORTS:-}" ]; then
    mkdir -p "$TINYMEMORY_MATRIX_REPORTS"
    cp "$work"/reports/*.json "$TINYMEMORY_MATRIX_REPORTS/"
    echo "python: $(ls "$work"/reports/*.json | wc -l) reports added to $TINYMEMORY_MATRIX_REPORTS (the matrix check is .ci/run's)"
else
    (cd "$work" && "$work/venv/bin/python" -m tinymemory.matrix "$work"/reports/*.json | sed -n '/^| engine/,/^$/p')
fi

# python/tests: the protocol library, tinymemory.serve and the plugin end
# to end (pytester runs inner pytest sessions; the broken example must
# fail exactly its documented checks).
step "python: pytest over python/tests"
(cd "$repo/python/tests" && run_pytest "$repo/python/tests")

step "python: done"
