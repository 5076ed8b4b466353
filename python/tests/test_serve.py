"""python -m tinymemory.serve: a store served by MODULE:FACTORY, and its start-up errors."""

import json
import subprocess
import sys

from conftest import EXAMPLES

import tinymemory.protocol as tp


def serve(spec, tmp_path, lines=()):
    request = "".join(json.dumps(line) + "\n" for line in lines)
    return subprocess.run(
        [sys.executable, "-m", "tinymemory.serve", spec],
        input=request,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": f"{EXAMPLES}:{':'.join(p for p in sys.path if p)}", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )


def test_a_factory_is_served_with_its_profile_and_ops(tmp_path):
    done = serve("semantic_driver:SemanticStore", tmp_path, [{"id": 1, "op": "hello"}])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "id": 1,
        "result": {
            "protocol": tp.PROTOCOL_VERSION,
            "driver": "semantic_driver:SemanticStore",
            "recall_profile": "semantic",
            "ops": ["store_many", "export_page", "import"],
            "independent_stores": True,
        },
    }


def test_a_spec_without_a_colon_is_a_usage_error(tmp_path):
    done = serve("memory_driver", tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "tinymemory.serve: driver 'memory_driver' is not MODULE:FACTORY (for example my_driver:MyStore)\n"
    )


def test_a_missing_name_is_a_usage_error(tmp_path):
    done = serve("memory_driver:NoSuchStore", tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "tinymemory.serve: module 'memory_driver' has no 'NoSuchStore' (looked up for 'memory_driver:NoSuchStore')\n"
    )


def test_a_factory_returning_no_store_names_the_missing_methods(tmp_path):
    (tmp_path / "not_a_store.py").write_text("def make():\n    return object()\n")
    done = serve("not_a_store:make", tmp_path)
    assert done.returncode == 3
    assert done.stderr == (
        "tinymemory.serve: the factory 'not_a_store:make' returned a value of type object, which lacks reset, store, get, "
        "forget, list, namespaces, recall: a store has the methods of tinymemory.protocol.Store\n"
    )


def test_a_factory_that_raises_after_starting_a_thread_exits_at_once(tmp_path):
    # A factory that starts a worker thread (as aiosqlite's connection
    # does) and then raises: the process must exit with the error, not
    # wait for the thread (it was reported as hung after 60 s).
    (tmp_path / "threaded.py").write_text(
        "import threading, time\n"
        "def make():\n"
        "    threading.Thread(target=time.sleep, args=(3600,)).start()\n"
        "    raise RuntimeError('cannot open the store')\n"
    )
    done = serve("threaded:make", tmp_path)
    assert done.returncode == 3, done.stderr
    assert done.stdout == ""
    assert "RuntimeError: cannot open the store" in done.stderr


def test_a_module_failing_to_import_shows_its_traceback(tmp_path):
    (tmp_path / "broken_import.py").write_text("import no_such_dependency_here\n")
    done = serve("broken_import:Store", tmp_path)
    assert done.returncode == 2
    *traceback, last = done.stderr.splitlines()
    assert traceback[0] == "Traceback (most recent call last):"
    # The rest of the line is the driver process's sys.path, which varies.
    assert last.startswith(
        "tinymemory.serve: failed to import module 'broken_import' of 'broken_import:Store': "
        "ModuleNotFoundError: No module named 'no_such_dependency_here' (the driver process's sys.path: ["
    )
    assert last.endswith("...; install 'no_such_dependency_here' where the driver's Python finds it)")


def test_a_driver_module_not_on_the_path_says_where_to_put_it(tmp_path):
    done = serve("nowhere_to_be_found:Store", tmp_path)
    assert done.returncode == 2
    last = done.stderr.splitlines()[-1]
    assert last.startswith(
        "tinymemory.serve: failed to import module 'nowhere_to_be_found' of 'nowhere_to_be_found:Store': "
        "ModuleNotFoundError: No module named 'nowhere_to_be_found' (the driver process's sys.path: ["
    )
    assert last.endswith("...; put the directory holding 'nowhere_to_be_found' on PYTHONPATH, or run from it)")


def test_sigterm_after_stdin_ended_exits_quietly(tmp_path):
    """The suite closes stdin, then sends SIGTERM when the process has not
    exited: a store whose own thread is still running is then on its way
    out, and the exit is 143 with nothing on stderr, not a traceback of
    SystemExit "ignored" in threading's shutdown."""
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "lingers.py"
    script.write_text(
        "import threading, time\n"
        "import tinymemory.protocol as tp\n"
        "class Lingers(tp.Store):\n"
        "    pass\n"
        "threading.Thread(target=time.sleep, args=(30,)).start()\n"
        "tp.serve(Lingers(), 'lingers')\n"
    )
    env = dict(__import__("os").environ, PYTHONPATH=str(__import__("pathlib").Path(__file__).parents[1]))
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    proc.stdin.write(b'{"id":1,"op":"hello","protocol":1}\n')
    proc.stdin.flush()
    assert proc.stdout.readline().startswith(b'{"id":1,"result"')
    proc.stdin.close()
    time.sleep(0.5)
    assert proc.poll() is None, "the store's thread keeps the process alive"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 143
    assert proc.stderr.read() == b""


def test_the_stores_close_runs_when_stdin_ends_while_thread_pools_still_run(tmp_path):
    """The adapters register their `close` (which hands the last store to
    `cleanup_store`) with atexit, but the interpreter shuts its thread pools
    down before atexit handlers run: a store served from one in the driver
    process (Milvus Lite's in-process gRPC server) then never answered the
    clean-up's call, the process hung until the suite's SIGTERM, and no
    later atexit handler (a temporary directory's removal) ran. Served by
    MODULE:FACTORY, the store is closed when stdin ends."""
    marker = tmp_path / "cleaned"
    (tmp_path / "pooled.py").write_text(
        "import atexit, concurrent.futures\n"
        "import tinymemory.protocol as tp\n"
        "class Pooled(tp.Store):\n"
        "    def __init__(self):\n"
        "        self.pool = concurrent.futures.ThreadPoolExecutor(1)\n"
        "        self.closed = False\n"
        "        atexit.register(self.close)\n"
        "    def close(self):\n"
        "        if self.closed:\n"
        "            return\n"
        "        self.closed = True\n"
        f"        self.pool.submit(open, {str(marker)!r}, 'w').result(timeout=10).close()\n"
    )
    done = serve("pooled:Pooled", tmp_path, [{"id": 1, "op": "hello"}])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["id"] == 1
    assert marker.exists(), done.stderr



def test_a_close_that_raises_when_stdin_ends_is_said_on_stderr_and_the_process_ends_0(tmp_path):
    (tmp_path / "closing_store.py").write_text(
        "from semantic_driver import SemanticStore\n"
        "class Store(SemanticStore):\n"
        "    def close(self):\n"
        "        raise RuntimeError('cannot schedule new futures after shutdown')\n"
    )
    done = serve("closing_store:Store", tmp_path)
    assert done.returncode == 0
    assert done.stderr == (
        "tinymemory.serve: closing_store:Store: close() raised RuntimeError: cannot schedule new futures after shutdown\n"
    )
