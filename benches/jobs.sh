#!/usr/bin/env bash
# --jobs 1 against --jobs 2 for one driver, paired and alternated in one
# run (docs/benchmarks.md, "Processes started ahead"): PAIRS pairs, the
# order of each pair swapped from the last, wall seconds of each `run`,
# the speed-up of each pair and their median; the JSON reports of every
# run must give the same outcome for every check.
#
#   benches/jobs.sh PAIRS DRIVER [RUN ARGS...]
#   benches/jobs.sh 3 "exec:python3 examples/python/memory_driver.py" --no-corpus
#
# BIN overrides the binary (default target/debug/tinymemory-conformance,
# built first when it is the default).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
    echo "usage: benches/jobs.sh PAIRS DRIVER [RUN ARGS...]" >&2
    exit 2
fi
pairs=$1 driver=$2
shift 2
if [ -z "${BIN:-}" ]; then
    cargo build --quiet --locked -p tinymemory-cli
    BIN=target/debug/tinymemory-conformance
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }
echo "commit $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes'), load $(load) at the start"
once() { # JOBS PAIR [RUN ARGS...]: prints wall seconds
    local jobs=$1 pair=$2 start end code
    shift 2
    start=$(date +%s%N)
    code=0
    TINYMEMORY_NO_RERUN=1 "$BIN" run --driver "$driver" --jobs "$jobs" --quiet --format json \
        --output "$out/j$jobs-$pair.json" "$@" >/dev/null 2>&1 || code=$?
    end=$(date +%s%N)
    if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
        echo "error: run --jobs $jobs exited $code" >&2
        exit 1
    fi
    echo "scale=2; ($end - $start) / 1000000000" | bc
}
ratios=()
for pair in $(seq 1 "$pairs"); do
    if [ $((pair % 2)) -eq 1 ]; then
        one=$(once 1 "$pair" "$@"); two=$(once 2 "$pair" "$@")
    else
        two=$(once 2 "$pair" "$@"); one=$(once 1 "$pair" "$@")
    fi
    ratio=$(echo "scale=2; $one / $two" | bc)
    ratios+=("$ratio")
    echo "pair $pair: --jobs 1 ${one} s, --jobs 2 ${two} s, speed-up ${ratio}"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
echo "median speed-up ${median}, load $(load) at the end"
python3 - "$out" <<'PY'
import glob, json, sys
seen = {}
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    with open(path) as f:
        report = json.load(f)
    seen[path] = {c["id"]: c["outcome"] for c in report["checks"]}
first = next(iter(seen.values()))
for path, outcomes in seen.items():
    if outcomes != first:
        sys.exit(f"error: {path} has other outcomes than the first run")
print(f"outcomes identical over {len(seen)} runs: {sum(o == 'pass' for o in first.values())} pass of {len(first)}")
PY
