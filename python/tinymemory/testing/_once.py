"""One driver `hello` per class for every pytest-xdist worker of a run.

Each worker collects the session itself, and xdist refuses a run whose
workers collected different items. A class without a `profile` asks its
driver's `hello` for one while collecting: were each worker to ask its
own, a driver whose start-up fails now and then (or fails when two start
at once) would give one worker its checks and another a
`driver_unavailable` item, and the whole session would end in xdist's
"Different tests were collected". So the first worker to get there asks,
and every worker of the run collects from its answer, which waits in a
file named by the run's id. The controller removes that folder at the
session's end (`remove`).
"""

import hashlib
import json
import os
import shutil
import tempfile
import time

# How long a worker waits for another's answer: longer than `hello` may
# take (the plugin's hello gives up after 60 s).
WAIT_SECONDS = 120.0
POLL_SECONDS = 0.05


class Refused(Exception):
    """The answer was an error: its message, as the first worker saw it."""


def once_per_run(config, key, compute):
    """`compute()` (a JSON-serialisable value; its exception's message is
    kept too) once per xdist run for `key`, shared by every worker through
    a file in the temporary directory; outside xdist, `compute()` itself.

    Raises Refused with the message of the exception `compute` raised in
    whichever worker computed it."""
    run_id = getattr(config, "workerinput", {}).get("testrunuid")
    if not run_id:
        return compute()
    folder = _folder(run_id)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha256(key.encode()).hexdigest()[:32]
    answer = os.path.join(folder, name + ".json")
    try:
        os.close(os.open(os.path.join(folder, name + ".lock"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return _awaited(answer, compute)
    try:
        kept = {"value": compute()}
    except Exception as e:  # every failure is the same for every worker
        kept = {"error": str(e)}
    partial = answer + f".{os.getpid()}.tmp"
    with open(partial, "w", encoding="utf-8") as f:
        json.dump(kept, f)
    os.replace(partial, answer)
    return _opened(kept)


def _folder(run_id):
    return os.path.join(tempfile.gettempdir(), f"tinymemory-xdist-{run_id}")


def remove(run_id):
    """Removes the answers of the xdist run `run_id` (its folder, if any
    worker made one): on the controller, once every worker collected."""
    shutil.rmtree(_folder(run_id), ignore_errors=True)


def _awaited(answer, compute):
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            with open(answer, encoding="utf-8") as f:
                return _opened(json.load(f))
        except FileNotFoundError:
            time.sleep(POLL_SECONDS)
    # The worker that asked died before answering: ask here.
    return compute()


def _opened(kept):
    if "error" in kept:
        raise Refused(kept["error"])
    return kept["value"]
