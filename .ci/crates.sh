#!/usr/bin/env bash
# The crates.io path (docs/release.md, "Checked here";
# docs/validate-rust-driver.md):
#
# 1. `cargo package` of every crate the release publishes
#    (`versions.py --crates`), each verified by cargo building it from its
#    packaged sources alone, against the other packaged crates: a file a
#    crate compiles in from outside its directory fails here.
# 2. A Rust author's first run: examples/rust (a driver of its own, and
#    `conformance_tests!` with the corpus) copied to a directory outside
#    the checkout, its tinymemory dependencies patched to the packaged
#    crates unpacked there (nothing is published from here, so there is no
#    registry to take them from), and `cargo test --offline`: one test per
#    check, every one passing, the corpus checks run on the corpus the
#    corpus crate carries.
# 3. The test file docs/validate-rust-driver.md shows is the example's.
#
# Time: the verification builds and the first run share the checkout's
# target/ and the workspace's dev profile, so a dependency is built once
# for each set of features; the CLI and the benches are not published and
# not packaged.
# Called by .ci/run; runs on its own as well.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL=0

step() { printf '\n=== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$PWD
version=$(python3 .ci/release/versions.py)
mapfile -t crates < <(python3 .ci/release/versions.py --crates)

# The workspace's dev profile (Cargo.toml), which a packaged crate's
# manifest does not carry: without it the verification builds would make
# full debug info and build every dependency again rather than reuse the
# checkout's builds of the same features (half the time on 2 cores).
profile=(
    --config 'profile.dev.debug="line-tables-only"'
    --config 'profile.dev.package."*".debug=false'
    --config 'profile.dev.package.libsqlite3-sys.opt-level=3'
)

step "crates: cargo package, each of ${#crates[@]} crates verified from its packaged sources"
# cargo verifies against a registry of the packaged crates in
# target/package/tmp-registry and extracts each into
# $CARGO_HOME/registry/src/<hash of that path>/, reusing an extraction it
# finds there: a clone at the same path as an earlier run would be verified
# against that run's sources of the same version (a CI failure seen once:
# the packaged tinymemory-doubles built against an older tinymemory-api).
# Nothing is published from here, so every such extraction is stale.
cargo_home=${CARGO_HOME:-$HOME/.cargo}
# A build of such sources in target/ is stale too (cargo does not look at
# a registry crate's files again), so it goes as well.
for crate in "${crates[@]}"; do
    rm -rf "$cargo_home"/registry/src/*/"$crate-$version"
done
packages=()
for crate in "${crates[@]}"; do packages+=(-p "$crate"); done
cargo clean "${profile[@]}" "${packages[@]}"
cargo package --locked "${profile[@]}" "${packages[@]}"

step "crates: the packaged crates unpacked outside the checkout ($work)"
mkdir "$work/crates"
for crate in "${crates[@]}"; do
    file="target/package/$crate-$version.crate"
    [ -f "$file" ] || { echo "error: cargo package made no $file" >&2; exit 1; }
    tar -xzf "$file" -C "$work/crates"
    echo "$crate $version: $(du -h "$file" | cut -f1) packed"
done
# The packaged crates examples/rust reaches (its tinymemory dependencies
# and theirs, as the packaged manifests state them): each is patched in,
# and only those, since cargo warns of a patch the graph does not use.
mapfile -t reached < <(python3 - "$work/crates" "$version" <<'PY'
import sys, tomllib
crates, version = sys.argv[1:]
def deps(manifest, tables):
    with open(manifest, "rb") as f:
        m = tomllib.load(f)
    return {name for table in tables for name in m.get(table, {}) if name.startswith("tinymemory-")}
todo = deps("examples/rust/Cargo.toml", ["dependencies", "dev-dependencies"])
seen = set()
while todo:
    name = todo.pop()
    seen.add(name)
    todo |= deps(f"{crates}/{name}-{version}/Cargo.toml", ["dependencies"]) - seen
print("\n".join(sorted(seen)))
PY
)
patch=$'\n[patch.crates-io]\n'
for crate in "${reached[@]}"; do
    patch+="$crate = { path = \"$work/crates/$crate-$version\" }"$'\n'
done

step "crates: a Rust author's first run (examples/rust, cargo test --offline)"
# Not a member of the workspace, so cargo fmt --all does not see it.
rustfmt --edition 2021 --check examples/rust/src/lib.rs examples/rust/tests/conformance.rs
cp -R examples/rust "$work/first-run"
printf '%s' "$patch" >> "$work/first-run/Cargo.toml"
# The versions the workspace is tested with, so --offline finds them all.
cp Cargo.lock "$work/first-run/Cargo.lock"
if grep -rn --include='*.toml' --include='*.rs' -F "$repo" "$work/first-run" "$work/crates"; then
    echo "error: the first run names a path into the checkout (above)" >&2
    exit 1
fi
(cd "$work/first-run" && CARGO_TARGET_DIR="$repo/target" cargo test --offline "${profile[@]}" --test conformance -- --nocapture) \
    > "$work/first-run.out" 2>&1 || { cat "$work/first-run.out"; echo "error: the first run failed" >&2; exit 1; }
grep -v '^test .* \.\.\. ok$' "$work/first-run.out" || true

cargo run --locked -q -p tinymemory-cli -- list --format json >"$work/list.json"
mapfile -t ids < <(python3 .ci/checks.py ids all <"$work/list.json")
passed=$(grep -c '^test conformance::[a-z0-9_]* \.\.\. ok$' "$work/first-run.out" || true)
if [ "$passed" -ne $(( ${#ids[@]} + 1 )) ]; then
    echo "error: the first run passed $passed tests, not one per check (${#ids[@]}) and expected_failures_are_valid" >&2
    exit 1
fi
mapfile -t corpus_ids < <(cargo run --locked -q -p tinymemory-cli -- list --profile lexical --format json \
    | python3 .ci/checks.py ids all --family corpus)
for id in "${corpus_ids[@]}"; do
    if grep -q "^skipped $id:" "$work/first-run.out"; then
        echo "error: the corpus check $id skipped in the first run: $(grep "^skipped $id:" "$work/first-run.out")" >&2
        exit 1
    fi
done
echo "first run: $passed tests passed, the ${#corpus_ids[@]} lexical corpus checks among them run on the carried corpus"

step "crates: docs/validate-rust-driver.md shows examples/rust's test file"
python3 - <<'PY'
import re, sys
doc = open("docs/validate-rust-driver.md", encoding="utf-8").read()
test = open("examples/rust/tests/conformance.rs", encoding="utf-8").read()
blocks = re.findall(r"```rust\n(.*?)```", doc, re.S)
if test not in blocks:
    sys.exit("error: docs/validate-rust-driver.md has no ```rust block equal to examples/rust/tests/conformance.rs")
print("the doc's tests/conformance.rs is examples/rust's")
PY

step "crates: done"
