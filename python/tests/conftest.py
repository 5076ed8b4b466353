import os
import sys

pytest_plugins = ["pytester"]

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.normpath(os.path.join(HERE, "..", "..", "examples", "python"))
# The tests run against the installed package; from a checkout without
# it, python/ is the package.
try:
    import tinymemory  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(HERE, ".."))

# The binary reruns an exec driver's failures alone and appends its
# verdict to their messages (docs/cli.md, "Order-dependent failures");
# these tests hold the plugin's own messages to exact text, so the reruns
# are off here. The CLI's tests cover the reruns.
os.environ.setdefault("TINYMEMORY_NO_RERUN", "1")


def lexical_checks():
    """``[(id, family, description)]`` of this build's lexical checks, as the
    plugin lists them (``tinymemory-conformance list --profile lexical``),
    so a test's counts follow the binary's registry."""
    from tinymemory.testing._binary import checked_binary, list_checks

    return list_checks(checked_binary(), "lexical")


def needing_interface(profile="lexical"):
    """The ids of the checks of ``profile`` that run only for a driver
    declaring a framework interface (``needs_interface`` in ``list --format
    json``): every driver of these tests serves none, so they are skipped."""
    from tinymemory.testing._binary import checked_binary, listing

    return {c["id"] for c in listing(checked_binary(), profile)["checks"] if c.get("needs_interface")}
