"""Validate a memory driver with pytest: one test item per conformance check.

    from tinymemory.testing import DriverConformance

    class TestMyStore(DriverConformance):
        driver = "my_package.store:make_store"   # MODULE:FACTORY, or the factory itself
        profile = "semantic"                      # optional; else what the store declares

The plugin (``tinymemory.testing.plugin``, registered with pytest by the
``tinymemory-conformance`` wheel) turns each such class into one item per
check of ``tinymemory-conformance list --profile PROFILE``, named by the
check's id: a passing check passes, a failing one fails with the check's
whole message, a skipped one is skipped with its reason. The suite runs
once per class, over the checks that ``-k`` and ``--deselect`` left
selected, when the first of them runs.

Options are class attributes; the plugin's command-line flags
(``--tinymemory-corpus`` and the others, see ``pytest --help``) override
them for every class.
"""

from ._binary import BIN_ENV, BinaryError
from ._run import RunError

__all__ = ["DriverConformance", "BIN_ENV", "BinaryError", "RunError"]


class DriverConformance:
    """Subclass it (named ``Test...``) to run the conformance suite over a driver.

    Attributes (class attributes of the subclass):

    - ``driver``: the store factory, as ``"MODULE:FACTORY"`` (served by
      ``python -m tinymemory.serve``) or as the callable itself (a
      module-level function or class, found again by its module and name).
    - ``driver_command``: instead of ``driver``, the command of a driver
      that serves itself (a list of words, or a string split as a shell
      does), such as ``["python3", "my_driver.py"]``.
    - ``profile``: ``"lexical"`` or ``"semantic"``, the recall profile the
      driver is held to; ``None`` (the default) takes the one its ``hello``
      declares.
    - ``corpus``: ``True`` (the default) loads the corpus bundled with the
      package, ``False`` none (the corpus checks are then skipped), a path
      (relative to the test file's directory) loads that directory.
    - ``seed``, ``cases``: the property checks' seed (0 to 2**64 - 1) and
      cases per check (1 to 2**32 - 1); ``None``: the binary's defaults,
      64 cases.
    - ``timeout``: seconds one check may run before it fails (at least 1;
      ``None``: 60). A number outside the binary's range fails the class's
      items naming the setting.
    - ``bundle_dir``: a directory to write a regression bundle into for
      each failing check (``tinymemory-conformance replay FILE``).
    """

    driver = None
    driver_command = None
    profile = None
    corpus = True
    seed = None
    cases = None
    timeout = None
    bundle_dir = None

    def test_tinymemory_plugin_is_active(self):
        # Only collected when the plugin is not: the class would otherwise
        # pass with no check run at all.
        import pytest

        pytest.fail(
            "the tinymemory pytest plugin is not active, so no conformance check ran: install the "
            "tinymemory-conformance wheel (it registers the plugin with pytest), or load the plugin "
            "with `pytest -p tinymemory.testing.plugin`"
        )
