"""The tinymemory-conformance binary a wheel carries, written out as a file.

    python3 .ci/release/wheel_binary.py WHEEL OUT_DIR   # prints OUT_DIR/tinymemory-conformance[.exe], with /

A maturin ``bindings = "bin"`` wheel holds the binary at
``<name>-<version>.data/scripts/tinymemory-conformance`` (``.exe`` on
Windows). The release workflow runs it on the wheel's own runner (a
musllinux wheel's binary is static, so it runs where pip would not install
the wheel) and gives it to the npm platform package of the same platform,
so each platform's binary is built once. Standard library only.
"""

import os
import stat
import sys
import zipfile

NAMES = ("tinymemory-conformance", "tinymemory-conformance.exe")


class WheelError(ValueError):
    """The wheel holds no binary, or more than one."""


def binary_member(names):
    """The one member of ``names`` (a wheel's file list) that is the binary: ``*.data/scripts/<NAME>``.

    Raises WheelError naming what was found when there is none or more than one."""
    found = [
        n for n in names
        if n.split("/")[-1] in NAMES and len(n.split("/")) == 3
        and n.split("/")[0].endswith(".data") and n.split("/")[1] == "scripts"
    ]
    if len(found) != 1:
        raise WheelError(f"expected one *.data/scripts/tinymemory-conformance[.exe] in the wheel, found {found}")
    return found[0]


def extract(wheel, out_dir):
    """Writes the binary of ``wheel`` into ``out_dir`` (created if missing), executable; returns its path."""
    with zipfile.ZipFile(wheel) as z:
        member = binary_member(z.namelist())
        os.makedirs(out_dir, exist_ok=True)
        path = os.path.join(out_dir, member.split("/")[-1])
        with z.open(member) as src, open(path, "wb") as dst:
            dst.write(src.read())
    mode = os.stat(path).st_mode
    os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def main(argv=None):
    """Prints the written path and exits 0, or prints the error and exits 1."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: wheel_binary.py WHEEL OUT_DIR", file=sys.stderr)
        return 2
    try:
        # Forward slashes: Windows takes them, and Git Bash (the release
        # workflow's shell there) would read a backslash path as one name.
        print(extract(args[0], args[1]).replace(os.sep, "/"))
    except (OSError, zipfile.BadZipFile, WheelError) as e:
        print(f"error: {args[0]}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
