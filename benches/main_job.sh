#!/usr/bin/env bash
# The main job (`run --driver sqlite --corpus fixtures/corpora --quiet`, the
# release binary run directly, whole process) with two binaries, alternated:
# one warm-up run each, then PAIRS pairs, the order swapped every pair
# (docs/benchmarks.md, "The main job under 1.5 s"). Prints per run: the
# binary, wall s, user s, sys s; the load average before and after.
# Usage: benches/main_job.sh BEFORE_BINARY AFTER_BINARY [PAIRS]
set -euo pipefail
a=$1; b=$2; pairs=${3:-5}
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
one() {
    /usr/bin/time -f "$1 %e %U %S" -o "$out" "$1" run --driver sqlite --corpus fixtures/corpora --quiet >/dev/null
    cat "$out"
}
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
one "$a" >/dev/null
one "$b" >/dev/null
for i in $(seq 1 "$pairs"); do
    if [ $((i % 2)) -eq 1 ]; then one "$a"; one "$b"; else one "$b"; one "$a"; fi
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
