#!/usr/bin/env bash
# The pytest path against the same CLI run (docs/benchmarks.md, "The
# pytest path"): memory_driver.py over the bundled corpus, default seed and
# cases, in a venv holding the built wheel; PAIRS pairs, one after the other,
# the order alternating. Prints each run's wall and CPU time and the pair's
# ratios.
# Usage: python/benchmark.sh VENV [PAIRS]
set -euo pipefail
venv=$1
pairs=${2:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
bin="$venv/bin/tinymemory-conformance"
corpus=$("$venv/bin/python" -c 'import os, tinymemory; print(os.path.join(os.path.dirname(tinymemory.__file__), "corpora"))')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

cli=("$bin" run --driver "exec:$venv/bin/python $repo/examples/python/memory_driver.py"
    --corpus "$corpus" --quiet)
# The ten-line test file of docs/validate-python-driver.md, for the same driver.
cat > "$work/test_memory.py" <<PY
import sys
sys.path.insert(0, "$repo/examples/python")
from tinymemory.testing import DriverConformance


class TestMemoryDriver(DriverConformance):
    driver = "memory_driver:MemoryStore"
PY
via_pytest=("$venv/bin/python" -m pytest -q -p no:cacheprovider "$work/test_memory.py")

# "WALL CPU": wall seconds and user + system CPU seconds of the command and
# every process it started (the driver processes included). CPU time is
# what the machine's load changes least.
measure() {
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null
    awk '{printf "%.2f %.2f", $1, $2 + $3}' "$work/time"
}

echo "pair cli_wall_s cli_cpu_s pytest_wall_s pytest_cpu_s wall_ratio cpu_ratio"
for i in $(seq 1 "$pairs"); do
    if [ $((i % 2)) -eq 1 ]; then
        a=$(measure "${cli[@]}"); b=$(measure "${via_pytest[@]}")
    else
        b=$(measure "${via_pytest[@]}"); a=$(measure "${cli[@]}")
    fi
    read -r aw ac <<<"$a"
    read -r bw bc <<<"$b"
    printf '%s %s %s %s %s %.3f %.3f\n' "$i" "$aw" "$ac" "$bw" "$bc" \
        "$(echo "$bw / $aw" | bc -l)" "$(echo "$bc / $ac" | bc -l)"
done
