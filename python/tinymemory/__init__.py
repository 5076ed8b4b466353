"""tinymemory for Python: the exec protocol's driver side and a pytest plugin.

- ``tinymemory.protocol``: the request loop (``serve``), error answers and
  the validation helpers a driver needs (docs/protocol.md).
- ``python -m tinymemory.serve MODULE:FACTORY``: serves the store that
  ``FACTORY()`` returns over stdin and stdout.
- ``tinymemory.testing``: ``DriverConformance``, one pytest item per
  conformance check (docs/validate-python-driver.md).

The distribution is ``tinymemory-conformance``; its wheel also carries the
``tinymemory-conformance`` binary of the same version.
"""

__all__ = ["__version__"]


def _version():
    # Installed: the distribution's version, which maturin takes from the
    # Rust crate. From a checkout (python/ on sys.path, nothing installed):
    # the workspace's version in ../Cargo.toml, the same number.
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # Python 3.7
        PackageNotFoundError, version = Exception, None
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    manifest = os.path.join(here, "..", "..", "Cargo.toml")
    in_checkout = os.path.exists(os.path.join(here, "..", "pyproject.toml"))
    if in_checkout and os.path.exists(manifest):
        import re

        with open(manifest, encoding="utf-8") as f:
            m = re.search(r'^\[workspace\.package\][^\[]*?^version\s*=\s*"([^"]+)"', f.read(), re.M | re.S)
        if m:
            return m.group(1)
    if version is not None:
        try:
            return version("tinymemory-conformance")
        except PackageNotFoundError:
            pass
    return "0+unknown"


def __getattr__(name):
    # Computed on first use (PEP 562): importlib.metadata costs about 50 ms
    # of start-up, and every driver process imports this package.
    if name == "__version__":
        global __version__
        __version__ = _version()
        return __version__
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
