#!/usr/bin/env python3
"""A correct exec driver whose start leaves a helper process behind in its
process group, as a factory starting a server or a worker does, for the
tests of interrupted start-ups (docs/cli.md, "Signals").

    helper_child.py PIDFILE SECONDS COMMAND [ARGS...]

Starts `sleep 600` in its own process group, appends that helper's pid to
PIDFILE (one line each), waits SECONDS (so a signal to the suite lands
while the driver is starting), then becomes COMMAND (a driver speaking
docs/protocol.md, such as examples/python/memory_driver.py) by exec: the
helper stays its child, in its group, and is ended only when the suite
ends that group.
"""

import os
import subprocess
import sys
import time


def main() -> int:
    args = sys.argv[1:]
    if len(args) < 3:
        sys.stderr.write("usage: helper_child.py PIDFILE SECONDS COMMAND [ARGS...]\n")
        return 2
    pidfile, seconds = args.pop(0), float(args.pop(0))
    helper = subprocess.Popen(
        ["sleep", "600"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    fd = os.open(pidfile, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, f"{helper.pid}\n".encode())
    finally:
        os.close(fd)
    time.sleep(seconds)
    os.execvp(args[0], args)
    return 127


if __name__ == "__main__":
    sys.exit(main())
