#!/usr/bin/env python3
"""A correct exec driver with a fixed start-up cost, for the benchmarks
of processes started ahead (docs/benchmarks.md, issue 34).

    slow_start.py SECONDS [--busy] COMMAND [ARGS...]

Waits SECONDS (sleeping, or with --busy spinning one core, as importing
a heavy engine does), then becomes COMMAND (a driver speaking
docs/protocol.md, such as examples/python/memory_driver.py) by exec: the
answers are the driver's own, with nothing relayed.
"""

import os
import sys
import time


def main() -> int:
    args = sys.argv[1:]
    if len(args) < 2:
        sys.stderr.write("usage: slow_start.py SECONDS [--busy] COMMAND [ARGS...]\n")
        return 2
    seconds = float(args.pop(0))
    busy = args[0] == "--busy"
    if busy:
        args.pop(0)
    end = time.monotonic() + seconds
    if busy:
        while time.monotonic() < end:
            pass
    else:
        time.sleep(seconds)
    os.execvp(args[0], args)
    return 127


if __name__ == "__main__":
    sys.exit(main())
