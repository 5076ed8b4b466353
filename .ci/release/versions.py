"""One version everywhere: every file of the repository that states the
release's version, read and compared (docs/release.md, "One version").

    python3 .ci/release/versions.py              # prints 0.1.0, or each mismatch and exits 1
    python3 .ci/release/versions.py --tag v0.1.0 # also refuses a tag that is not v<version>
    python3 .ci/release/versions.py --crates     # the crates published to crates.io, dependencies first

The workspace's ``[workspace.package] version`` (Cargo.toml) is the
version; every other place must state the same string:

- each crate's Cargo.toml (``version.workspace = true``, or the same
  literal) and each workspace package in Cargo.lock;
- the version each ``[workspace.dependencies]`` entry on a crate of the
  workspace requires (the published crates depend on each other at the
  version released together);
- python/pyproject.toml: ``dynamic = ["version"]`` (maturin then takes the
  crate's) or the same literal;
- js/package.json, every js/npm/<platform>/package.json, the main
  package's optionalDependencies on them, and js/package-lock.json's
  entries for all of these;
- CHANGELOG.md: a ``## [<version>]`` section (.ci/release/changelog.py).

What a built artefact reports (``tinymemory-conformance --version``, the
exec ``hello``'s ``suite_version``, ``tinymemory.__version__``) is compared
by python/tests/test_release.py against the same number. Standard library
only (Python 3.11 or newer, for tomllib), so the release workflow runs it
before installing anything.
"""

import argparse
import json
import os
import re
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import changelog  # noqa: E402

# The tag's form: v then the version, with nothing around it.
TAG_PREFIX = "v"


class Place:
    """One statement of a version: where it is (a file, then a path in it) and the value, or None when absent."""

    def __init__(self, where, value):
        self.where = where
        self.value = value

    def __repr__(self):
        return f"Place({self.where!r}, {self.value!r})"


def _read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def _toml(root, rel):
    return tomllib.loads(_read(root, rel))


def _json(root, rel):
    return json.loads(_read(root, rel))


def workspace_version(root=ROOT):
    """The version: Cargo.toml's ``[workspace.package] version``.

    Raises ValueError when the manifest has none (every other place is
    compared against it, so without it there is nothing to compare)."""
    version = _toml(root, "Cargo.toml").get("workspace", {}).get("package", {}).get("version")
    if not isinstance(version, str) or not version:
        raise ValueError("Cargo.toml has no [workspace.package] version: it is the version every artefact carries")
    return version


def _crate_places(root, version):
    crates = os.path.join(root, "crates")
    members = sorted(d for d in os.listdir(crates) if os.path.isfile(os.path.join(crates, d, "Cargo.toml")))
    manifests = [f"crates/{d}/Cargo.toml" for d in members] + ["benches/Cargo.toml"]
    names = []
    for rel in manifests:
        if not os.path.exists(os.path.join(root, rel)):
            continue
        package = _toml(root, rel).get("package", {})
        names.append(package.get("name"))
        stated = package.get("version")
        # `version.workspace = true` is the workspace's version by construction.
        value = version if stated == {"workspace": True} else stated
        yield Place(f"{rel} [package] version", value)
    for name, spec in sorted(_toml(root, "Cargo.toml").get("workspace", {}).get("dependencies", {}).items()):
        if isinstance(spec, dict) and "path" in spec:
            yield Place(f"Cargo.toml [workspace.dependencies] {name} version", spec.get("version"))
    lock = _toml(root, "Cargo.lock")
    locked = {p["name"]: p.get("version") for p in lock.get("package", []) if "source" not in p}
    for name in names:
        yield Place(f"Cargo.lock package {name}", locked.get(name))


def published_crates(root=ROOT):
    """The crates of crates/ that crates.io gets (``publish`` not false), dependencies first: each after every
    crate of the workspace it depends on (normal and build dependencies; dev-dependencies on each other are
    paths only, which cargo drops from a package), ties by name. ``cargo package`` and the release job take
    them in this order.

    Raises ValueError on a dependency cycle, or on a published crate that depends on one that is not."""
    crates = os.path.join(root, "crates")
    manifests = {}
    for d in sorted(os.listdir(crates)):
        if os.path.isfile(os.path.join(crates, d, "Cargo.toml")):
            manifest = _toml(root, f"crates/{d}/Cargo.toml")
            manifests[manifest["package"]["name"]] = manifest
    published = {name for name, m in manifests.items() if m["package"].get("publish", True) is not False}
    needs = {}
    for name in published:
        m = manifests[name]
        deps = set(m.get("dependencies", {})) | set(m.get("build-dependencies", {}))
        for target in m.get("target", {}).values():
            deps |= set(target.get("dependencies", {})) | set(target.get("build-dependencies", {}))
        needs[name] = deps & set(manifests)
        unpublished = sorted(needs[name] - published)
        if unpublished:
            raise ValueError(f"the published crate {name} depends on {', '.join(unpublished)}, which is not published")
    order = []
    while needs:
        ready = sorted(n for n, deps in needs.items() if deps <= set(order))
        if not ready:
            raise ValueError(f"the crates {', '.join(sorted(needs))} depend on each other in a cycle")
        order.append(ready[0])
        del needs[ready[0]]
    return order


def _python_places(root, version):
    project = _toml(root, "python/pyproject.toml").get("project", {})
    if "version" in project.get("dynamic", []):
        # maturin takes a dynamic version from the crate it builds, whose
        # version is the workspace's (checked above).
        yield Place("python/pyproject.toml [project] (dynamic: the crate's)", version)
    else:
        yield Place("python/pyproject.toml [project] version", project.get("version"))


def platform_dirs(root=ROOT):
    """The npm platform packages' directories under js/npm, sorted: ``["darwin-arm64", ..., "win32-x64"]``."""
    npm = os.path.join(root, "js", "npm")
    return sorted(d for d in os.listdir(npm) if os.path.isfile(os.path.join(npm, d, "package.json")))


def _npm_places(root):
    main = _json(root, "js/package.json")
    lock = _json(root, "js/package-lock.json")
    lock_packages = lock.get("packages", {})
    yield Place("js/package.json version", main.get("version"))
    yield Place("js/package-lock.json version", lock.get("version"))
    yield Place('js/package-lock.json packages[""].version', lock_packages.get("", {}).get("version"))
    optional = main.get("optionalDependencies", {})
    for platform in platform_dirs(root):
        rel = f"js/npm/{platform}/package.json"
        manifest = _json(root, rel)
        name = manifest.get("name")
        yield Place(f"{rel} version", manifest.get("version"))
        # The repository's js/package.json names the platforms this machine
        # can install (npm refuses a workspace of another os or cpu); the
        # release job adds the others at the same version
        # (js/scripts/release-manifest.mjs), so only those named are compared.
        if name in optional:
            yield Place(f"js/package.json optionalDependencies[{name}]", optional[name])
            yield Place(f'js/package-lock.json packages["npm/{platform}"].version',
                        lock_packages.get(f"npm/{platform}", {}).get("version"))
    for name in sorted(optional):
        if not name.startswith("tinymemory-conformance-") or name[len("tinymemory-conformance-"):] not in platform_dirs(root):
            yield Place(f"js/package.json optionalDependencies[{name}] (no js/npm directory)", None)


def places(root=ROOT):
    """Every statement of the version in the repository at ``root``, in a fixed order: the crates, Cargo.lock,
    pyproject, the npm manifests and lockfile, then CHANGELOG.md (whose value is the version when it has that
    version's section, else None)."""
    version = workspace_version(root)
    out = [Place("Cargo.toml [workspace.package] version", version)]
    out += _crate_places(root, version)
    out += _python_places(root, version)
    out += _npm_places(root)
    sections = changelog.versions(_read(root, "CHANGELOG.md"))
    out.append(Place(f"CHANGELOG.md section ## [{version}]", version if version in sections else None))
    return out


def mismatches(root=ROOT, tag=None):
    """The error lines for every place whose value is not the workspace's version (and for ``tag`` when it
    is not ``v<version>``); empty when all agree. Each line names the place, its value and the version."""
    version = workspace_version(root)
    errors = [
        f"{p.where} is {json.dumps(p.value)}, not the workspace's version {json.dumps(version)}"
        for p in places(root)
        if p.value != version
    ]
    if tag is not None:
        tag = tag.removeprefix("refs/tags/")
        if tag != TAG_PREFIX + version:
            errors.append(
                f"the tag {json.dumps(tag)} is not {json.dumps(TAG_PREFIX + version)}: tag the commit whose "
                f"Cargo.toml says the version released (docs/release.md)"
            )
    return errors


def main(argv=None):
    """Prints the version and exits 0, or prints each mismatch on stderr and exits 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tag", help="the pushed tag (v0.1.0, or refs/tags/v0.1.0): refused unless v<version>")
    parser.add_argument("--root", default=ROOT, help="the repository (default: this script's)")
    parser.add_argument("--crates", action="store_true",
                        help="print the crates published to crates.io, one a line, dependencies first")
    args = parser.parse_args(argv)
    if args.crates:
        try:
            print("\n".join(published_crates(args.root)))
        except (OSError, ValueError, KeyError, tomllib.TOMLDecodeError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        return 0
    try:
        errors = mismatches(args.root, args.tag)
    except (OSError, ValueError, tomllib.TOMLDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if errors:
        for line in errors:
            print(f"error: {line}", file=sys.stderr)
        return 1
    print(workspace_version(args.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
