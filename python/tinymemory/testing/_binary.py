"""Finding the ``tinymemory-conformance`` binary, and refusing one of another version."""

import functools
import json
import os
import shutil
import subprocess
import sys
import sysconfig

from .. import __version__

BIN_ENV = "TINYMEMORY_CONFORMANCE_BIN"
BIN_NAME = "tinymemory-conformance"
INSTALL_HINT = (
    f"install the tinymemory-conformance {__version__} wheel, which carries the binary "
    f"(`pip install tinymemory_conformance-{__version__}-*.whl`; `maturin build --release` in python/ "
    f"of the repository builds it), or set {BIN_ENV} to the path of a tinymemory-conformance "
    f"{__version__} binary (`cargo build -p tinymemory-cli` builds target/debug/tinymemory-conformance)"
)
# Seconds `--version` and `list` may take: they print and exit.
QUICK_TIMEOUT = 30


class BinaryError(Exception):
    """No usable binary: missing, not runnable, too old or of another version."""


def _candidates():
    exe = BIN_NAME + (".exe" if os.name == "nt" else "")
    # A wheel installs its binary into the scripts directory of the
    # environment it is installed in: next to the interpreter in a venv,
    # sysconfig's scripts path otherwise, or the user scheme's with --user.
    dirs = [os.path.dirname(sys.executable), sysconfig.get_path("scripts")]
    user_scheme = {"nt": "nt_user", "posix": "posix_user"}.get(os.name)
    if user_scheme and user_scheme in sysconfig.get_scheme_names():
        dirs.append(sysconfig.get_path("scripts", user_scheme))
    seen = []
    for d in dirs:
        if d and d not in seen:
            seen.append(d)
            yield os.path.join(d, exe)
    found = shutil.which(BIN_NAME)
    if found:
        yield found


def find_binary():
    """The path of the binary: ``$TINYMEMORY_CONFORMANCE_BIN`` when set,
    else the one the wheel installed (the interpreter's scripts directory),
    else the first on PATH.

    Raises BinaryError when none is found, or when the variable names a
    file that does not exist.
    """
    named = os.environ.get(BIN_ENV)
    if named:
        if not os.path.isfile(named):
            raise BinaryError(f"{BIN_ENV} is {named!r}, which is not a file; {INSTALL_HINT}")
        return named
    looked = []
    for path in _candidates():
        looked.append(path)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise BinaryError(
        f"the {BIN_NAME} binary was not found (looked for {', '.join(looked)} and on PATH); {INSTALL_HINT}"
    )


@functools.lru_cache(maxsize=None)
def checked_binary(path=None):
    """`path` (or find_binary()) after checking that ``--version`` names
    this package's version: the suite and the package speak the same
    protocol version only then.

    Raises BinaryError for a binary that does not run, answers something
    else than ``tinymemory-conformance X.Y.Z`` (too old or not this tool),
    or is of another version, naming both versions.
    """
    path = path or find_binary()
    try:
        done = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=QUICK_TIMEOUT, check=False
        )
    except (OSError, subprocess.SubprocessError) as e:
        raise BinaryError(f"failed to run {path} --version: {e}; {INSTALL_HINT}") from None
    # `--version` prints `NAME VERSION` and a newline, clap's convention.
    name, _, version = done.stdout.rstrip("\n").partition(" ")
    if done.returncode != 0 or name != BIN_NAME or not version or " " in version:
        said = (done.stdout + done.stderr).strip()[:200]
        raise BinaryError(
            f"{path} is not a usable {BIN_NAME}: `--version` exited {done.returncode} saying {said!r}; "
            f"{INSTALL_HINT}"
        )
    if version != __version__:
        raise BinaryError(
            f"{path} is {BIN_NAME} {version}, but the tinymemory package is {__version__}: "
            "the two must be of one version to agree on the exec protocol; "
            f"{INSTALL_HINT}"
        )
    return path


@functools.lru_cache(maxsize=None)
def listing(path, profile):
    """The document of ``list --profile PROFILE --format json``
    (docs/reports.md, "`list` JSON"): the checks in run order, each with
    its family, rule and budget, the binary's defaults and its exit codes.

    Raises BinaryError when the listing fails, is not JSON or holds no
    check.
    """
    try:
        done = subprocess.run(
            [path, "list", "--profile", profile, "--format", "json"],
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=QUICK_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as e:
        raise BinaryError(f"failed to run {path} list: {e}") from None
    try:
        listed = json.loads(done.stdout) if done.returncode == 0 else None
    except ValueError:
        listed = None
    if not isinstance(listed, dict) or not listed.get("checks"):
        raise BinaryError(
            f"`{path} list --profile {profile} --format json` exited {done.returncode} listing no check: "
            f"{done.stderr.strip()[:500]!r}"
        )
    return listed


def list_checks(path, profile):
    """``[(id, family, rule)]`` of the listing (`listing`), in run order.

    Raises BinaryError as `listing` does.
    """
    return tuple((c["id"], c["family"], c["rule"]) for c in listing(path, profile)["checks"])
