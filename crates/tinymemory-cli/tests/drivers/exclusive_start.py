#!/usr/bin/env python3
"""A correct exec driver whose start-up may not overlap another's, as one
that creates a shared cache directory or schema on first use: a test of
when a run may start two of its processes at once (docs/cli.md, "Driver
processes").

    exclusive_start.py LOCKDIR COMMAND [ARGS...]

Holds LOCKDIR (made with mkdir, which fails when it exists) for 0.4 s of
start-up, then removes it and becomes COMMAND by exec. A start-up that
finds LOCKDIR held creates LOCKDIR.overlapped (so a test sees the overlap
whichever process lost) and exits 1 before `hello`, saying so.
"""

import os
import sys
import time


def main() -> int:
    args = sys.argv[1:]
    if len(args) < 2:
        sys.stderr.write("usage: exclusive_start.py LOCKDIR COMMAND [ARGS...]\n")
        return 2
    lock = args.pop(0)
    try:
        os.mkdir(lock)
    except FileExistsError:
        open(lock + ".overlapped", "a").close()
        sys.stderr.write(f"exclusive_start.py: another start-up holds {lock}\n")
        return 1
    time.sleep(0.4)
    os.rmdir(lock)
    os.execvp(args[0], args)
    return 127


if __name__ == "__main__":
    sys.exit(main())
