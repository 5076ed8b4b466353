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
