"""What a printed reproduce command needs to run from any directory: the
``PYTHONPATH`` of the modules a fresh interpreter would not find."""

import importlib.util
import os
import shlex
import site
import sys
import sysconfig


def _standard_dirs():
    """The directories every interpreter of this environment searches
    without PYTHONPATH: the standard library and the site directories."""
    dirs = set()
    for name in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = sysconfig.get_path(name)
        if path:
            dirs.add(os.path.abspath(path))
    getsite = getattr(site, "getsitepackages", None)
    for path in getsite() if getsite else ():
        dirs.add(os.path.abspath(path))
    user = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    if user:
        dirs.add(os.path.abspath(user))
    return dirs


def import_dirs(modules):
    """The entries of this process's ``sys.path`` (absolute, in sys.path
    order, each once) that hold the top-level modules `modules` (names;
    ``pkg.sub`` counts as ``pkg``), leaving out the standard library and
    site directories. A module that cannot be found (or a built-in one)
    adds nothing: the command then fails as the run itself would."""
    wanted = []
    for name in modules:
        top = name.split(".", 1)[0]
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            continue
        if spec is None:
            continue
        where = spec.origin if spec.origin not in (None, "built-in", "frozen") else None
        if spec.submodule_search_locations:
            where = list(spec.submodule_search_locations)[0]
        if where:
            wanted.append(os.path.abspath(where))
    standard = _standard_dirs()
    found = []
    for entry in sys.path:
        path = os.path.abspath(entry or os.curdir)
        if path in found or path in standard or not os.path.isdir(path):
            continue
        if any(os.path.dirname(w) == path for w in wanted):
            found.append(path)
    return found


def pythonpath_prefix(dirs):
    """``PYTHONPATH=DIR:DIR `` (shell-quoted, with the trailing space) for
    `dirs` followed by the entries of this process's ``$PYTHONPATH``
    (absolute; the prefix replaces the variable for the command, and a
    module the driver imports may be found only there), each once; "" when
    there are none."""
    env = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    every = list(dict.fromkeys([*dirs, *env]))
    if not every:
        return ""
    return f"PYTHONPATH={shlex.quote(os.pathsep.join(every))} "
