#!/usr/bin/env bash
# The node:test path against the same CLI run (docs/benchmarks.md, "The
# node:test path"): examples/js/memory-store.js over the bundled corpus,
# default seed and cases, from PREFIX, a directory where the packed
# tinymemory-conformance and tinymemory-conformance-linux-x64 tarballs are
# installed (npm install A.tgz B.tgz); PAIRS pairs, one after the other,
# the order alternating. Prints each run's wall and CPU time and the
# pair's ratios.
# Usage: js/benchmark.sh PREFIX [PAIRS]
set -euo pipefail
prefix=$(cd "$1" && pwd)
pairs=${2:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
pkg=$prefix/node_modules/tinymemory-conformance
bin=$prefix/node_modules/tinymemory-conformance-linux-x64/bin/tinymemory-conformance
work=$(mktemp -d "$prefix/bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$repo/examples/js/memory-store.js" "$work/"
echo '{"type": "module"}' > "$work/package.json"

cli=("$bin" run --driver "exec:$(command -v node) $pkg/bin/tinymemory-serve.js $work/memory-store.js"
    --corpus "$pkg/corpora" --quiet)
# The four-line test file of docs/validate-js-driver.md, for the same store.
cat > "$work/memory.test.js" <<'JS'
import { conformance } from "tinymemory-conformance/node-test";

conformance({ driver: "./memory-store.js" });
JS
via_node_test=(env -u TINYMEMORY_CONFORMANCE_BIN node --test "$work/memory.test.js")

# "WALL CPU": wall seconds and user + system CPU seconds of the command and
# every process it started (the driver processes included).
measure() {
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null
    awk '{printf "%.2f %.2f", $1, $2 + $3}' "$work/time"
}

echo "pair cli_wall_s cli_cpu_s node_test_wall_s node_test_cpu_s wall_ratio cpu_ratio"
for i in $(seq 1 "$pairs"); do
    if [ $((i % 2)) -eq 1 ]; then
        a=$(measure "${cli[@]}"); b=$(measure "${via_node_test[@]}")
    else
        b=$(measure "${via_node_test[@]}"); a=$(measure "${cli[@]}")
    fi
    read -r aw ac <<<"$a"
    read -r bw bc <<<"$b"
    printf '%s %s %s %s %s %.3f %.3f\n' "$i" "$aw" "$ac" "$bw" "$bc" \
        "$(echo "$bw / $aw" | bc -l)" "$(echo "$bc / $ac" | bc -l)"
done
