"""python -m tinymemory.serve under cProfile: the profile is written to
$PROF_DIR/<pid>.prof when the driver process ends (one file per process).

    tinymemory-conformance run --no-corpus --trace run.trace \\
        --driver "exec:python benches/adapters/profile_serve.py MODULE:FACTORY"
    python benches/adapters/breakdown.py run.trace $PROF_DIR batch
"""

import atexit
import cProfile
import os
import runpy
import sys

out = os.path.join(os.environ.get("PROF_DIR", "prof"), f"{os.getpid()}.prof")
os.makedirs(os.path.dirname(out), exist_ok=True)
profile = cProfile.Profile()


def _dump():
    profile.disable()
    profile.dump_stats(out)


atexit.register(_dump)
sys.argv = ["tinymemory.serve"] + sys.argv[1:]
profile.enable()
runpy.run_module("tinymemory.serve", run_name="__main__")
