#!/usr/bin/env bash
# Paired, alternated runs without the corpus through a Python adapter
# (docs/benchmarks.md, "Through the adapters"): BEFORE and AFTER are each
# "BINARY PYTHONPATH MODULE:FACTORY" (a commit's binary, its python/ tree,
# the driver); PAIRS pairs, the order swapped every pair. Prints per run:
# label, wall s, user s, sys s (the binary and its driver processes), and
# the load average (1-minute) sampled every 10 s during the run: its mean
# and range.
# With REPORTS=DIR, each run's JSON report is kept there as LABEL-PAIR.json
# (its failing checks are the verdicts compared before and after); with
# TRACES=DIR, each run's --trace there as LABEL-PAIR.trace (calls.py reads
# it: requests and resets per check). ARGS adds arguments to every run
# (`--call-timeout 120`: under a heavy load, importing an engine can outlast
# `hello`'s 30 s).
# Usage: [REPORTS=DIR] [TRACES=DIR] [ARGS="..."] benches/adapters/pairs.sh PAIRS VENV "BEFORE" "AFTER"
set -euo pipefail
pairs=$1; venv=$2; before=$3; after=$4
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { # label pair bin pythonpath driver
    local report="$out/report.json"
    local trace=()
    [ -n "${REPORTS:-}" ] && report="$REPORTS/$1-$2.json"
    [ -n "${TRACES:-}" ] && trace=(--trace "$TRACES/$1-$2.trace")
    (while :; do cut -d' ' -f1 /proc/loadavg; sleep 10; done) >"$out/load" &
    local sampler=$!
    # shellcheck disable=SC2086 # ARGS is split into words on purpose
    /usr/bin/time -f "$1 %e %U %S" -o "$out/time" env PYTHONPATH="$4:$here" "$3" run \
        --driver "exec:$venv/bin/python -m tinymemory.serve $5" --no-corpus --quiet \
        --format json --output "$report" "${trace[@]}" ${ARGS:-} >/dev/null 2>&1 || true
    kill "$sampler"
    wait "$sampler" 2>/dev/null || true
    echo "$(tail -n 1 "$out/time") load $(awk '{ s += $1; if (NR == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1 }
        END { printf "%.1f (%.1f-%.1f)", s / NR, lo, hi }' "$out/load")"
}
# shellcheck disable=SC2086
for i in $(seq 1 "$pairs"); do
    if [ $((i % 2)) -eq 1 ]; then run before "$i" $before; run after "$i" $after; else run after "$i" $after; run before "$i" $before; fi
done
