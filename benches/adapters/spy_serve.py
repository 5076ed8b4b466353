"""python -m tinymemory.serve under py-spy, a sampling profiler: the
process's own stacks are sampled from outside, so its shares are true
(cProfile, profile_serve.py, slows each Python call and so inflates
whatever makes many small ones).

    tinymemory-conformance run --no-corpus --trace run.trace \\
        --driver "exec:VENV/bin/python benches/adapters/spy_serve.py MODULE:FACTORY"
    VENV/bin/python benches/adapters/spy_breakdown.py $SPY_DIR

Each driver process starts ``py-spy record --pid`` on itself (py-spy from
this interpreter's bin directory, or $PY_SPY) and waits until it samples,
then serves; py-spy writes $SPY_DIR/<pid>.txt (raw collapsed stacks, every
thread, idle samples kept: a wait on the suite's next request is time too)
when the process ends. py-spy writes its messages to stdout, the
protocol's channel, when it starts the program itself, hence ``--pid``.
$SPY_RATE sets the samples a second (default 100: on a loaded machine py-spy falls behind
at 200).
"""

import os
import runpy
import subprocess
import sys
import time

spy_dir = os.environ.get("SPY_DIR", "spy")
os.makedirs(spy_dir, exist_ok=True)
pid = os.getpid()
py_spy = os.environ.get("PY_SPY") or os.path.join(os.path.dirname(sys.executable), "py-spy")
log_path = os.path.join(spy_dir, f"{pid}.log")
with open(log_path, "w", encoding="utf-8") as log:
    subprocess.Popen(
        [py_spy, "record", "-r", os.environ.get("SPY_RATE", "100"), "-f", "raw", "--threads", "--idle", "--nonblocking",
         "-o", os.path.join(spy_dir, f"{pid}.txt"), "--pid", str(pid)],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        # Its own session: the suite ends a driver's whole process group,
        # and py-spy writes its file only once the driver has ended.
        start_new_session=True,
    )
# The start-up (importing the engine) is part of what is measured: wait
# until py-spy says it samples, at most 30 s.
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    with open(log_path, encoding="utf-8") as f:
        if "Sampling process" in f.read():
            break
    time.sleep(0.01)
sys.argv = ["tinymemory.serve"] + sys.argv[1:]
runpy.run_module("tinymemory.serve", run_name="__main__")
