"""The CHANGELOG.md section of one version, as the GitHub release's notes.

    python3 .ci/release/changelog.py 0.1.0              # the section's body on stdout
    python3 .ci/release/changelog.py 0.1.0 --released   # refused while its date is "Unreleased"

A section starts at a level-2 heading ``## [VERSION] - DATE`` (DATE is
``YYYY-MM-DD`` or ``Unreleased``; the form of keepachangelog.com 1.1.0)
and runs to the next level-2 heading or the end of the file. The body is
printed without the heading, with blank lines around it removed and one
newline at the end. Headings inside fenced code blocks are text, not
headings. Standard library only.
"""

import argparse
import re
import sys

HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\] - (?P<date>\d{4}-\d{2}-\d{2}|Unreleased)[ \t]*$")
# Any other level-2 heading ends a section too, and is refused when it looks
# like a release heading gone wrong (`## 0.1.0`, `## [0.1.0]` with no date).
LEVEL2 = re.compile(r"^## ")
UNRELEASED = "Unreleased"


class ChangelogError(ValueError):
    """The changelog has no usable section for the version asked: missing, repeated, empty or unreleased."""


def _fence(line):
    stripped = line.lstrip()
    return stripped.startswith("```") or stripped.startswith("~~~")


def sections(text):
    """Every release section of ``text``, in file order: a list of ``(version, date, body)``.

    ``date`` is ``YYYY-MM-DD`` or ``Unreleased``; ``body`` is the lines between the heading and the next
    level-2 heading, stripped of blank lines at either end, with one trailing newline (empty string when
    there are none). Raises ChangelogError for a level-2 heading that names a version in brackets but does
    not have the ``## [VERSION] - DATE`` form."""
    out = []
    current = None
    in_fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if _fence(line):
            in_fence = not in_fence
        if not in_fence and LEVEL2.match(line):
            if current is not None:
                out.append(current)
                current = None
            m = HEADING.match(line)
            if m:
                current = (m["version"], m["date"], [])
                continue
            if line.startswith("## ["):
                raise ChangelogError(
                    f"CHANGELOG.md line {number}: {line!r} is not a release heading of the form "
                    f"'## [VERSION] - YYYY-MM-DD' (or '- Unreleased')"
                )
            continue
        if current is not None:
            current[2].append(line)
    if current is not None:
        out.append(current)
    result = []
    for version, date, lines in out:
        body = "\n".join(lines).strip("\n")
        result.append((version, date, body + "\n" if body else ""))
    return result


def versions(text):
    """The versions that have a section in ``text``, in file order (newest first in a kept changelog)."""
    return [version for version, _, _ in sections(text)]


def section(text, version, released=False):
    """The body of ``version``'s section (see ``sections``).

    Raises ChangelogError naming the rule broken: no section for the version, two sections for it, an empty
    body, or (with ``released``) a date still ``Unreleased``."""
    found = [(date, body) for v, date, body in sections(text) if v == version]
    if not found:
        known = ", ".join(versions(text)) or "none"
        raise ChangelogError(f"CHANGELOG.md has no section '## [{version}] - DATE' (sections: {known})")
    if len(found) > 1:
        raise ChangelogError(f"CHANGELOG.md has {len(found)} sections for {version}: one per version")
    date, body = found[0]
    if not body:
        raise ChangelogError(f"CHANGELOG.md's section for {version} is empty: say what the release changes")
    if released and date == UNRELEASED:
        raise ChangelogError(
            f"CHANGELOG.md's section for {version} is still dated 'Unreleased': write the release date "
            f"(## [{version}] - YYYY-MM-DD) in the commit you tag (docs/release.md)"
        )
    return body


def main(argv=None):
    """Prints the section's body and exits 0, or prints the error and exits 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("version", help="the version, without the tag's v: 0.1.0")
    parser.add_argument("--released", action="store_true", help="refuse a section dated Unreleased")
    parser.add_argument("--file", default="CHANGELOG.md", help="the changelog (default: CHANGELOG.md)")
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8") as f:
            body = section(f.read(), args.version, args.released)
    except (OSError, ChangelogError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
