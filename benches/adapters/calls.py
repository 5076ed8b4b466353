"""Requests per check of a traced run through an exec driver
(docs/benchmarks.md, "Through the adapters"): how many of each operation
every check sent, resets among them, and their round trips.

    python benches/adapters/calls.py TRACE [TOP]

Prints the totals by operation (count, seconds of round trips), then the
TOP checks (default 15) with the most round-trip time: the check, its
resets, its requests by operation and its seconds. A property check's
resets are one per case (a fresh store per case).
"""

import collections
import json
import sys


def main(trace, top=15):
    pending = {}
    by_op = collections.Counter()
    op_ms = collections.defaultdict(float)
    checks = collections.defaultdict(collections.Counter)
    check_ms = collections.defaultdict(float)
    with open(trace, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if "request" in r:
                pending[(r["pid"], r["request"]["id"])] = (r["request"]["op"], r.get("check"), r["elapsed_ms"])
            elif isinstance(r.get("answer"), dict) and "id" in r["answer"]:
                sent = pending.pop((r["pid"], r["answer"]["id"]), None)
                if sent is None:
                    continue
                op, check, t = sent
                by_op[op] += 1
                op_ms[op] += r["elapsed_ms"] - t
                checks[check or "(none)"][op] += 1
                check_ms[check or "(none)"] += r["elapsed_ms"] - t
    total = sum(by_op.values())
    print(f"{total} requests, {sum(op_ms.values()) / 1000:.1f} s of round trips, {len(checks)} checks")
    for op, n in by_op.most_common():
        print(f"  {op:<14} {n:6d}  {op_ms[op] / 1000:7.1f} s  {op_ms[op] / n:6.2f} ms each")
    print(f"the {top} checks with the most round-trip time:")
    for check in sorted(check_ms, key=check_ms.get, reverse=True)[: int(top)]:
        ops = ", ".join(f"{op} {n}" for op, n in checks[check].most_common())
        print(f"  {check:<44} {check_ms[check] / 1000:6.1f} s  resets {checks[check]['reset']:4d}  ({ops})")


if __name__ == "__main__":
    main(*sys.argv[1:3])
