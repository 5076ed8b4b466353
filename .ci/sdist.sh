#!/usr/bin/env bash
# The sdist path (docs/release.md, "Checked here"): build the
# tinymemory-conformance sdist with maturin, pip install it into a fresh
# virtual environment (pip compiles it with the toolchain present), and
# run one conformance class of examples/python (the in-memory driver)
# through pytest from a directory outside the checkout, so that the
# package, its binary and its corpus all come from the sdist. Called last
# by .ci/run; runs on its own as well.
#
# Time: the crates' dependencies are reused from the checkout's target/
# (CARGO_TARGET_DIR, the dev profile the cargo steps before built), so
# pip compiles only the workspace's own crates, from the sdist's sources:
# the sdist is unpacked with fresh mtimes and packed again, because cargo
# judges a crate by mtimes and would otherwise take the checkout's build
# of the same relative paths for the sdist's (which once hid two files the
# sdist lacked). Last in .ci/run because that build then stands in
# target/ for the workspace's crates, which a later cargo step would
# rebuild. The release workflow's sdist job builds it as a user would:
# release profile, nothing reused.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL=0

step() { printf '\n=== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$PWD
version=$(python3 .ci/release/versions.py)

if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    step "installing python3-venv (for the sdist's virtual environment)"
    apt-get update -qq
    apt-get install -y -qq python3-venv
fi

# One fresh venv: the build backend (maturin, pinned, so pip builds with
# --no-build-isolation instead of fetching an unpinned maturin>=1.5,<2
# for its isolated build) and pytest, from python/requirements-ci.txt.
step "sdist: a fresh venv with maturin and pytest ($(python3 --version 2>&1))"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check -r python/requirements-ci.txt

step "sdist: maturin sdist"
(cd python && "$work/venv/bin/maturin" sdist --out "$work/sdist")
sdist="$work/sdist/tinymemory_conformance-$version.tar.gz"
[ -f "$sdist" ] || { echo "error: maturin sdist made no $sdist" >&2; ls "$work/sdist" >&2; exit 1; }
echo "sdist: $(basename "$sdist") ($(du -h "$sdist" | cut -f1), $(tar -tzf "$sdist" | wc -l) files)"

mkdir "$work/unpacked"
tar -xmzf "$sdist" -C "$work/unpacked"
(cd "$work/unpacked" && tar -czf "$sdist" "tinymemory_conformance-$version")

step "sdist: pip install (compiles the workspace's crates from the sdist's sources)"
PATH="$work/venv/bin:$PATH" CARGO_TARGET_DIR="$repo/target" MATURIN_PEP517_ARGS="--profile dev" \
    "$work/venv/bin/pip" install -q --disable-pip-version-check --no-build-isolation "$sdist"

said=$("$work/venv/bin/tinymemory-conformance" --version)
package=$(cd "$work" && "$work/venv/bin/python" -c 'import tinymemory, tinymemory.protocol as p; print(tinymemory.__version__, p.__version__, tinymemory.__file__)')
echo "binary: $said; package (tinymemory, tinymemory.protocol, file): $package"
case "$package" in
    "$version $version $work/venv/lib/python"*"/site-packages/tinymemory/__init__.py") ;;
    *) echo "error: the installed package says '$package', expected $version from the venv" >&2; exit 1 ;;
esac
[ "$said" = "tinymemory-conformance $version" ] \
    || { echo "error: the installed binary says '$said', not 'tinymemory-conformance $version'" >&2; exit 1; }

# The in-memory example, every check of the lexical profile with the
# corpus the sdist carries (the corpus checks fail without it), at 8
# cases per property check: what is proved is the path, not the driver.
step "sdist: pytest over examples/python/test_examples.py::TestMemoryDriver"
status=0
(cd "$work" && TINYMEMORY_NO_RERUN=1 "$work/venv/bin/python" -m pytest -p no:cacheprovider -q \
    --tinymemory-cases 8 --junitxml="$work/junit.xml" \
    "$repo/examples/python/test_examples.py::TestMemoryDriver" | tail -n 3) || status=$?
[ "$status" -eq 0 ] || { echo "error: pytest exited $status (5: collected nothing)" >&2; exit 1; }
# Every check passes but those that need a framework interface, skipped:
# the example serves none.
"$work/venv/bin/tinymemory-conformance" list --profile lexical --format json >"$work/lexical.json"
lexical=$(python3 .ci/checks.py count all <"$work/lexical.json")
unserved=$(python3 .ci/checks.py count unserved <"$work/lexical.json")
counts=$("$work/venv/bin/python" - "$work/junit.xml" <<'EOF'
import sys
import xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
print(*(suite.get(k) for k in ("tests", "failures", "errors", "skipped")))
EOF
)
echo "junit: tests failures errors skipped = $counts (expected $lexical 0 0 $unserved)"
[ "$counts" = "$lexical 0 0 $unserved" ] || { echo "error: expected $lexical tests, one per check, the $unserved that need a framework interface skipped" >&2; exit 1; }

step "sdist: done"
