#!/usr/bin/env python3
"""A correct exec driver that answers every request after a fixed delay,
for the timeout tests of the CLI (issue 22: slow is not broken).

    slow_driver.py DELAY_SECONDS COMMAND [ARGS...]

Starts COMMAND (a driver speaking docs/protocol.md, such as
examples/python/memory_driver.py) and relays every request line to it
unchanged; each answer line is written back DELAY_SECONDS after it
arrived. The answers are the wrapped driver's own, so the driver is as
correct as it is, only slower.
"""

import subprocess
import sys
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in examples/


def main() -> int:
    if len(sys.argv) < 3:
        sys.stderr.write("usage: slow_driver.py DELAY_SECONDS COMMAND [ARGS...]\n")
        return 2
    delay = float(sys.argv[1])
    inner = subprocess.Popen(
        sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    for line in sys.stdin:
        inner.stdin.write(line)
        inner.stdin.flush()
        answer = inner.stdout.readline()
        if not answer:
            break
        time.sleep(delay)
        sys.stdout.write(answer)
        sys.stdout.flush()
    inner.stdin.close()
    return inner.wait()


if __name__ == "__main__":
    sys.exit(main())
