#!/usr/bin/env bash
# Paired, alternated runs without the corpus through a Python adapter
# (docs/benchmarks.md, "Through the adapters"): BEFORE and AFTER are each
# "BINARY PYTHONPATH MODULE:FACTORY" (a commit's binary, its python/ tree,
# the driver); PAIRS pairs, the order swapped every pair. Prints per run:
# label, wall s, user s, sys s (the binary and its driver processes), load.
# Usage: benches/adapters/pairs.sh PAIRS VENV "BEFORE" "AFTER"
set -euo pipefail
pairs=$1; venv=$2; before=$3; after=$4
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { # label bin pythonpath driver
    /usr/bin/time -f "$1 %e %U %S" -o "$out/time" env PYTHONPATH="$3:$here" "$2" run \
        --driver "exec:$venv/bin/python -m tinymemory.serve $4" --no-corpus --quiet >/dev/null 2>&1 || true
    echo "$(cat "$out/time" | tail -n 1) load $(cut -d' ' -f1 /proc/loadavg)"
}
# shellcheck disable=SC2086
for i in $(seq 1 "$pairs"); do
    if [ $((i % 2)) -eq 1 ]; then run before $before; run after $after; else run after $after; run before $before; fi
done
