#!/usr/bin/env bash
# Runs every tinymemory bench into a fresh criterion directory, then prints
# the report: one Markdown table per group, each median beside its ratio to
# the floor, and the issue-8 targets (docs/benchmarks.md is this output).
#
#   benches/run.sh                 # the short defaults (benches/src/config.rs)
#   benches/run.sh --quick         # criterion's quick mode
#   benches/run.sh fan_out         # only ids matching a regex
#
# Arguments go to every criterion bench binary. BENCH_OUT overrides the
# output directory (default target/bench-run, emptied first).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${BENCH_OUT:-target/bench-run}"
rm -rf "$out"
mkdir -p "$out"
export CRITERION_HOME="$PWD/$out"
cargo bench -p tinymemory-benches --bench '*' -- "$@"
cargo run --release --quiet -p tinymemory-benches --bin bench-report -- "$out"
