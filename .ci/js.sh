#!/usr/bin/env bash
# The JavaScript path (issue 33, docs/validate-js-driver.md): build the
# tinymemory-conformance npm package with tsc, type-check it, run its own
# tests, pack it and its linux-x64 binary package, install the two
# tarballs into a fresh directory outside the repository beside the
# examples' pinned dependencies, and run node --test (and vitest) over
# examples/js there, the two PostgreSQL examples against a PostgreSQL 16
# with pgvector started here from the pinned pgserver wheel. Called by
# .ci/run after the Python step; runs on its own as well.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL=0

step() { printf '\n=== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
# The examples assert their stores' exact failure messages; the binary's
# reruns of an exec driver's failures (docs/cli.md, "Order-dependent
# failures") would add their verdicts to them and cost time.
export TINYMEMORY_NO_RERUN=1

# Node 20 or newer (the package's engines); Debian's nodejs is 20.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ] || ! command -v npm >/dev/null 2>&1; then
    step "installing nodejs and npm (Node $node_major found; 20 or newer needed)"
    apt-get update -qq
    apt-get install -y -qq nodejs npm
fi
step "js: node $(node --version), npm $(npm --version)"

# The binary the linux-x64 package carries: the debug build the cargo
# steps before made (cheap when they ran; the package's speed is the
# driver's, docs/benchmarks.md).
# TINYMEMORY_CONFORMANCE_BIN, when set, names a binary to use instead
# (a run of this script alone, without the cargo steps).
if [ -n "${TINYMEMORY_CONFORMANCE_BIN:-}" ]; then
    binary=$TINYMEMORY_CONFORMANCE_BIN
    step "js: the binary $binary (TINYMEMORY_CONFORMANCE_BIN)"
else
    step "js: the binary (cargo build --locked -p tinymemory-cli)"
    cargo build --locked -q -p tinymemory-cli
    binary=$PWD/target/debug/tinymemory-conformance
fi

step "js: npm ci, tsc (the build), tsc --noEmit (the sources with the adapters' type test)"
(cd js && npm ci && npm run build && npm run typecheck)

# The venvs below (pytest for the front ends' test, pgserver for the
# PostgreSQL examples): Debian splits venv (and its ensurepip) out of python3.
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    step "installing python3-venv (for the pytest and pgserver venvs)"
    apt-get update -qq
    apt-get install -y -qq python3-venv
fi

# pytest (python/requirements-ci.txt's pins, without the build tool) for
# test/front-ends.test.js, which holds the CLI's JSON, pytest's JUnit (the
# plugin from python/ of this checkout) and node:test's reporter to one
# verdict: here both hosts are at hand.
step "js: pytest for the front ends' test (python/requirements-ci.txt)"
python3 -m venv "$work/pytest-venv"
"$work/pytest-venv/bin/pip" install -q --disable-pip-version-check \
    -r <(grep -v '^maturin==' python/requirements-ci.txt)

# The protocol library against fixtures/protocol-cases.json (which
# .ci/python.sh holds the Python library to), serve, the helpers, the
# binary lookup, node:test's output and the three front ends' agreement.
step "js: node --test js/test"
(cd js && TINYMEMORY_CONFORMANCE_BIN="$binary" TINYMEMORY_PYTEST_PYTHON="$work/pytest-venv/bin/python" node --test test/)

step "js: npm pack tinymemory-conformance and tinymemory-conformance-linux-x64"
mkdir -p "$work/packs"
node js/scripts/stage-binary.mjs linux-x64 "$binary"
(cd js && npm pack --silent --pack-destination "$work/packs")
(cd js/npm/linux-x64 && npm pack --silent --pack-destination "$work/packs")
ls -l "$work/packs"

# A fresh directory with nothing of the checkout but the example files:
# the examples' dependencies from their lockfile, then the two tarballs.
step "js: a fresh directory: npm ci of the examples' lockfile, then the tarballs"
fresh=$work/fresh
mkdir "$fresh"
cp examples/js/*.js examples/js/package.json examples/js/package-lock.json "$fresh/"
(cd "$fresh" && npm ci --silent && npm install --no-save --silent "$work"/packs/*.tgz)

# The PostgreSQL examples' server (docs/validate-js-driver.md): the
# pgserver wheel ships PostgreSQL 16 with pgvector, which the Debian server
# of .ci/run lacks. Pinned, with its dependencies, in a venv
# (.ci/pgvector-requirements.txt); its initdb and pg_ctl start a throwaway
# server through .ci/postgres.sh, as .ci/python.sh does for the Python rows.
step "js: PostgreSQL 16 with pgvector (pgserver 0.1.4) for the PostgreSQL examples"
python3 -m venv "$work/pgvector-venv"
"$work/pgvector-venv/bin/pip" install -q --disable-pip-version-check -r .ci/pgvector-requirements.txt
pgbin=$("$work/pgvector-venv/bin/python" -c \
    'import importlib.util, os; print(os.path.join(os.path.dirname(importlib.util.find_spec("pgserver").origin), "pginstall", "bin"))')
# As root the server runs as the postgres user, from the venv.
chmod a+rx "$work"
# shellcheck source=.ci/postgres.sh
source .ci/postgres.sh
postgres_start "$pgbin"
trap 'postgres_stop; rm -rf "$work"' EXIT
export TINYMEMORY_PGVECTOR_URL=$TINYMEMORY_POSTGRES_URL

# The binary from the platform package, not the checkout: the variable is
# unset. The in-memory example at 8 cases per property check (the path is
# what is proved here); the broken store and the two engines' documented
# failures are asserted at the default 64 (inner-run.js), the PostgreSQL
# examples' at 8 (their conformance files) without the corpus.
step "js: node --test over the examples (memory, broken, LangGraph InMemoryStore and PostgresStore, LangChain MemoryVectorStore and PGVectorStore)"
status=0
(cd "$fresh" && env -u TINYMEMORY_CONFORMANCE_BIN TINYMEMORY_CASES=8 node --test \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=./json-reporter.js --test-reporter-destination="$work/events.jsonl") || status=$?
if [ "$status" -ne 0 ]; then
    echo "error: node --test over the examples exited $status" >&2
    exit 1
fi

# One passing test per check: the lexical profile's for the in-memory
# example, the semantic profile's for LangGraph's InMemoryStore and for
# MemoryVectorStore with its cosine guarded, the interface checks each store
# is not asked skipped; and the two
# tests asserting the broken store's and MemoryVectorStore's failures.
"$binary" list --profile lexical --format json >"$work/lexical.json"
"$binary" list --profile semantic --format json >"$work/semantic.json"
lexical=$(python3 .ci/checks.py count served <"$work/lexical.json")
semantic=$(python3 .ci/checks.py count served <"$work/semantic.json")
unserved_lexical=$(python3 .ci/checks.py count unserved <"$work/lexical.json")
unserved_semantic=$(python3 .ci/checks.py count unserved <"$work/semantic.json")
# Of the interface family, the two semantic stores are asked 6 checks, which
# pass: InMemoryStore the 4 of LangGraph's BaseStore, the guarded
# MemoryVectorStore LangChain's empty_store and search_with_score (the
# others need methods it lacks: examples/js/langchain-store.js); every
# other interface check is skipped.
asked=6
expected=$((lexical + 2 * semantic + asked))
unserved=$((unserved_lexical + 2 * unserved_semantic - asked))
checks=$(grep -c '"type":"test:pass","name":"[a-z_]*\.[a-z_.]*","nesting":1,"skip":false' "$work/events.jsonl" || true)
# The skipped check tests whose check needs an interface, by id.
cat <(python3 .ci/checks.py ids unserved <"$work/lexical.json") <(python3 .ci/checks.py ids unserved <"$work/semantic.json") \
    | sort -u >"$work/unserved-ids.txt"
skipped=$(python3 -c '
import json, sys
unserved = set(open(sys.argv[1]).read().split())
events = [json.loads(line) for line in open(sys.argv[2])]
print(sum(e["type"] == "test:pass" and e["nesting"] == 1 and isinstance(e["skip"], str) and e["name"] in unserved for e in events))
' "$work/unserved-ids.txt" "$work/events.jsonl")
others=$(grep -c '"nesting":1' "$work/events.jsonl" || true)
failed=$(grep -c '"type":"test:fail"' "$work/events.jsonl" || true)
echo "js: $checks check tests passed (expected $expected: $lexical lexical + 2 x $semantic semantic a store serving no interface runs + $asked interface checks), $skipped interface checks skipped (expected $unserved), $((others - checks - skipped)) other, $failed failed"
if [ "$checks" -ne "$expected" ] || [ "$skipped" -ne "$unserved" ] || [ "$others" -ne $((checks + skipped)) ] || [ "$failed" -ne 0 ]; then
    echo "error: expected $expected passing check tests, $unserved skipped for needing a framework interface, none failed" >&2
    exit 1
fi

# The compatibility matrix's JavaScript rows (docs/compatibility.md): each
# engine of examples/js (examples/js/matrix-rows.txt) run by the binary
# through tinymemory-serve, without the corpus at 8 cases as the Python
# rows are, one JSON report each. They fail checks, each a fault of the
# engine shown by the plain reproduction beside it or a documented
# mapping limit, so exit 1 is a verdict here; what must hold is the
# matrix, which .ci/run checks against these reports and the Python ones
# (TINYMEMORY_MATRIX_REPORTS; run alone, the rows are printed). Two rows
# at a time: each is mostly one driver process waiting on its engine.
# --call-timeout 300: the default 30 s tells a hung driver, and a loaded
# machine makes a slow engine's big write pass it in one run and not the
# next (3000 upserts take LibSQLVector 49 s, DuckDBVector 36 s on two
# busy cores); the contract says nothing of speed, so a cell must not
# depend on the machine's load.
step "js: the compatibility matrix's JavaScript rows (examples/js/matrix-rows.txt)"
reports=${TINYMEMORY_MATRIX_REPORTS:-$work/matrix-reports}
mkdir -p "$reports"
matrix_row() {
    local row=$1 name status=0
    name=js-$(printf '%s' "$row" | sed 's/\.js//; s/[^A-Za-z0-9]/-/g')
    (cd "$fresh" && "$binary" run --driver "exec:node node_modules/tinymemory-conformance/bin/tinymemory-serve.js $row" \
        --no-corpus --cases 8 --call-timeout 300 --format json --output "$reports/$name.json" --quiet >"$work/$name.log" 2>&1) || status=$?
    case $status in
        0|1) echo "js: $row: $(tail -n 2 "$work/$name.log" | head -n 1)" ;;
        *) cat "$work/$name.log" >&2; echo "error: the matrix row $row exited $status (not a verdict)" >&2; return 1 ;;
    esac
}
export -f matrix_row
export binary fresh work reports
grep -v '^#' examples/js/matrix-rows.txt | grep . | xargs -P 2 -I ROW bash -c 'matrix_row "$1"' _ ROW
if [ -z "${TINYMEMORY_MATRIX_REPORTS:-}" ]; then
    PYTHONPATH=python python3 -m tinymemory.matrix "$reports"/js-*.json | sed -n '/^| engine/,/^$/p'
fi

# The same in-memory example through vitest (tinymemory-conformance/vitest):
# one passing test per check of the lexical profile.
step "js: vitest over examples/js/memory.vitest.js"
(cd "$fresh" && env -u TINYMEMORY_CONFORMANCE_BIN TINYMEMORY_CASES=8 NO_COLOR=1 \
    npx vitest run --reporter=default --reporter=json --outputFile.json="$work/vitest.json") \
    || { echo "error: vitest over the examples failed" >&2; exit 1; }
vitest_passed=$(node -p "require('$work/vitest.json').numPassedTests")
vitest_total=$(node -p "require('$work/vitest.json').numTotalTests")
vitest_failed=$(node -p "require('$work/vitest.json').numFailedTests")
echo "js: vitest: $vitest_passed of $vitest_total tests passed, $vitest_failed failed (expected $lexical passed, the $unserved_lexical that need a framework interface skipped)"
if [ "$vitest_passed" -ne "$lexical" ] || [ "$vitest_failed" -ne 0 ] || [ "$vitest_total" -ne $((lexical + unserved_lexical)) ]; then
    echo "error: expected $lexical passing vitest tests, one per check, and the $unserved_lexical that need a framework interface skipped" >&2
    exit 1
fi

step "js: done"
