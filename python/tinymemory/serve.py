"""Serve a store over the exec protocol: ``python -m tinymemory.serve MODULE:FACTORY``.

``FACTORY`` is a callable of module ``MODULE`` (a dotted attribute path is
allowed, ``pkg.mod:Class.make``) taking no argument and returning the
store: an object with the methods of ``tinymemory.protocol.Store``. A class
is a callable, so ``my_driver:MyStore`` works. The driver id in ``hello``
is the store's ``driver_id`` attribute, else ``MODULE:FACTORY``; its
recall profile is the store's ``recall_profile`` attribute.

    tinymemory-conformance run --driver "exec:python3 -m tinymemory.serve my_driver:MyStore"

What goes wrong before the first request is written to stderr as one
``tinymemory.serve: ...`` line, and the process exits with a named code:
2 for a bad argument or a module or name that does not import, 3 for a
factory that raises or returns something that is not a store. The suite
shows that stderr with the exit status.

When stdin ends, the store's ``close()``, if it has one, is called before
the process exits (the adapters' ``close`` hands the last store to its
``cleanup_store``; they also register it with atexit, and it runs once).
"""

import gc
import importlib
import os
import sys
import traceback

from . import protocol as tp

# Exit codes, as the suite's CLI uses them: usage, and "cannot open the driver".
EXIT_USAGE = 2
EXIT_OPEN = 3

REQUIRED_METHODS = ("reset", "store", "get", "forget", "list", "namespaces", "recall")

USAGE = "usage: python -m tinymemory.serve MODULE:FACTORY   (for example my_driver:MyStore)"


class FactoryError(Exception):
    """A factory that cannot be loaded or called; `code` is the exit code."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def load_factory(spec):
    """The callable a ``MODULE:FACTORY`` spec names.

    Raises FactoryError (EXIT_USAGE) for a spec without one ':' between
    two non-empty parts, a module that fails to import (with the
    exception, a traceback of which goes to stderr when it is not a plain
    ModuleNotFoundError of that module), or a missing or uncallable name.
    """
    module_name, colon, attr_path = spec.partition(":")
    if not colon or not module_name or not attr_path or ":" in attr_path:
        raise FactoryError(EXIT_USAGE, f"driver {spec!r} is not MODULE:FACTORY (for example my_driver:MyStore)")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        own = e.name == module_name or module_name.startswith(f"{e.name}.")
        if not own:
            traceback.print_exc(file=sys.stderr)
        fix = (
            f"put the directory holding {module_name.split('.')[0]!r} on PYTHONPATH, or run from it"
            if own
            else f"install {e.name!r} where the driver's Python finds it"
        )
        raise FactoryError(
            EXIT_USAGE,
            f"failed to import module {module_name!r} of {spec!r}: {type(e).__name__}: {e} "
            f"(the driver process's sys.path: {sys.path[:6]!r}...; {fix})",
        ) from None
    except BaseException as e:  # noqa: BLE001 - any import failure is the spec's
        if isinstance(e, KeyboardInterrupt):
            raise
        traceback.print_exc(file=sys.stderr)
        raise FactoryError(
            EXIT_USAGE, f"failed to import module {module_name!r} of {spec!r}: {type(e).__name__}: {e}"
        ) from None
    target = module
    for part in attr_path.split("."):
        if not hasattr(target, part):
            raise FactoryError(
                EXIT_USAGE, f"module {module_name!r} has no {attr_path!r} (looked up for {spec!r})"
            )
        target = getattr(target, part)
    if not callable(target):
        raise FactoryError(
            EXIT_USAGE, f"{spec!r} is a {type(target).__name__}, not a callable returning a store"
        )
    return target


def make_store(spec):
    """``FACTORY()`` of `spec`, checked to have every required method.

    Raises FactoryError: EXIT_USAGE from load_factory, EXIT_OPEN for a
    factory that raises (its traceback goes to stderr) or returns an
    object missing a method of tinymemory.protocol.Store.
    """
    factory = load_factory(spec)
    try:
        store = factory()
    except BaseException as e:  # noqa: BLE001 - the driver's failure, reported as such
        if isinstance(e, KeyboardInterrupt):
            raise
        traceback.print_exc(file=sys.stderr)
        raise FactoryError(EXIT_OPEN, f"the factory {spec!r} raised {type(e).__name__}: {e}") from None
    missing = [m for m in REQUIRED_METHODS if not callable(getattr(store, m, None))]
    if missing:
        raise FactoryError(
            EXIT_OPEN,
            f"the factory {spec!r} returned a value of type {type(store).__name__}, which lacks "
            f"{', '.join(missing)}: a store has the methods of tinymemory.protocol.Store",
        )
    return store


def main(argv=None):
    """Serve the store of argv[0] until stdin ends; returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else EXIT_USAGE
    spec = args[0]
    try:
        store = make_store(spec)
        profile = tp.profile_of(store)
    except FactoryError as e:
        print(f"tinymemory.serve: {e.message}", file=sys.stderr)
        return e.code
    except ValueError as e:
        print(f"tinymemory.serve: {spec}: {e}", file=sys.stderr)
        return EXIT_OPEN
    driver_id = getattr(store, "driver_id", None) or spec
    # What the start-up made (an engine's modules, classes and schemas:
    # millions of objects for chromadb and LangChain) lives as long as the
    # process; frozen, no collection walks it again. The interpreter's own
    # collections at exit walked it for 2 s of each Chroma driver process
    # under load (docs/benchmarks.md, "Chroma's driver process, sampled").
    gc.freeze()
    try:
        tp.serve(store, str(driver_id), recall_profile=profile)
    finally:
        # The adapters also register close with atexit, but the interpreter
        # shuts its thread pools down before atexit handlers run: a store
        # whose clean-up calls a server in this process (Milvus Lite's
        # gRPC) would wait on it forever, and no later handler would run.
        close = getattr(store, "close", None)
        if callable(close):
            try:
                close()
            except Exception as e:  # noqa: BLE001 - the run is over; say it and end as atexit would have
                print(f"tinymemory.serve: {spec}: close() raised {type(e).__name__}: {e}", file=sys.stderr)
    return 0


def _exit(code):
    """Ends the process with `code`. A start that failed ends at once,
    without waiting for threads the factory started before it raised (an
    aiosqlite worker, a client's pool): the interpreter's normal exit
    joins every non-daemon thread, so such a driver answered nothing and
    was reported as hung after 60 s instead of as the error it printed."""
    if code == 0:
        sys.exit(0)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    # The driver's own directory, not this package's, is what a
    # MODULE:FACTORY usually names: `python -m` already put the working
    # directory first on sys.path.
    _exit(main())
