"""One version everywhere, and the release scripts (.ci/release/, docs/release.md).

The repository's files must state one version (versions.py); the artefacts
built from them must report it: the binary's ``--version``, the
``suite_version`` its exec ``hello`` sends, ``tinymemory.__version__``,
``tinymemory.protocol.__version__`` and, when installed, the distribution's
metadata. Every mismatch below is made in a copy of the files, and each
must fail with the line naming it.
"""

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest
from conftest import EXAMPLES

import tinymemory
import tinymemory.protocol as tp
from tinymemory.testing._binary import checked_binary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, ".ci", "release"))

import changelog  # noqa: E402
import versions  # noqa: E402
import wheel_binary  # noqa: E402

VERSION = versions.workspace_version(ROOT)
PLATFORMS = [
    "darwin-arm64", "darwin-x64", "linux-arm64", "linux-arm64-musl", "linux-x64", "linux-x64-musl", "win32-x64",
]


# --- the repository as it is --------------------------------------------------------------------------------


def test_the_repository_states_one_version():
    assert versions.mismatches(ROOT) == []
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION), VERSION


def test_every_place_is_read():
    where = [p.where for p in versions.places(ROOT)]
    assert where[0] == "Cargo.toml [workspace.package] version"
    assert "python/pyproject.toml [project] (dynamic: the crate's)" in where
    assert "Cargo.lock package tinymemory-cli" in where
    assert "crates/tinymemory-exec/Cargo.toml [package] version" in where
    assert "js/package.json version" in where
    assert 'js/package-lock.json packages[""].version' in where
    assert "js/package.json optionalDependencies[tinymemory-conformance-linux-x64]" in where
    assert [w for w in where if w.startswith("js/npm/")] == [f"js/npm/{p}/package.json version" for p in PLATFORMS]
    assert where[-1] == f"CHANGELOG.md section ## [{VERSION}]"
    assert versions.platform_dirs(ROOT) == PLATFORMS


def test_the_packages_report_the_version():
    assert tinymemory.__version__ == VERSION
    assert tp.__version__ == VERSION
    try:
        installed = importlib.metadata.version("tinymemory-conformance")
    except importlib.metadata.PackageNotFoundError:
        installed = None  # run from a checkout: python/ is the package
    if installed is not None:
        assert installed == VERSION


def test_the_binary_reports_the_version_in_version_and_hello(tmp_path):
    binary = checked_binary()
    said = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30, check=True)
    assert said.stdout == f"tinymemory-conformance {VERSION}\n"
    trace = tmp_path / "trace.jsonl"
    driver = f"exec:{sys.executable} {os.path.join(EXAMPLES, 'memory_driver.py')}"
    done = subprocess.run(
        [binary, "run", "--driver", driver, "--check", "store.upsert", "--no-corpus", "--quiet",
         "--trace", str(trace)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    first = json.loads(trace.read_text().splitlines()[0])
    assert first["request"] == {"id": 1, "op": "hello", "protocol": tp.PROTOCOL_VERSION, "suite_version": VERSION}


# --- mismatches, in a copy -------------------------------------------------------------------------------------

FILES = ["Cargo.toml", "Cargo.lock", "CHANGELOG.md", "python/pyproject.toml", "js/package.json",
         "js/package-lock.json", "benches/Cargo.toml"]


@pytest.fixture
def copy(tmp_path):
    """The files versions.py reads, copied under tmp_path."""
    rels = list(FILES)
    rels += [f"crates/{d}/Cargo.toml" for d in sorted(os.listdir(os.path.join(ROOT, "crates")))
             if os.path.isfile(os.path.join(ROOT, "crates", d, "Cargo.toml"))]
    rels += [f"js/npm/{p}/package.json" for p in PLATFORMS]
    for rel in rels:
        os.makedirs(tmp_path / os.path.dirname(rel), exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, rel), tmp_path / rel)
    assert versions.mismatches(str(tmp_path)) == []
    return tmp_path


def edit_json(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n")


def replace_once(path, old, new):
    text = path.read_text()
    assert text.count(old) >= 1, old
    path.write_text(text.replace(old, new, 1))


def test_a_platform_package_of_another_version_fails(copy):
    edit_json(copy / "js/npm/win32-x64/package.json", lambda m: m.update(version="0.1.1"))
    assert versions.mismatches(str(copy)) == [
        f'js/npm/win32-x64/package.json version is "0.1.1", not the workspace\'s version "{VERSION}"'
    ]


def test_the_npm_package_and_its_lockfile_fail(copy):
    edit_json(copy / "js/package.json", lambda m: m.update(version="9.9.9"))
    edit_json(copy / "js/package-lock.json", lambda m: m["packages"]["npm/linux-x64"].update(version="9.9.9"))
    assert versions.mismatches(str(copy)) == [
        f'js/package.json version is "9.9.9", not the workspace\'s version "{VERSION}"',
        f'js/package-lock.json packages["npm/linux-x64"].version is "9.9.9", not the workspace\'s version "{VERSION}"',
    ]


def test_an_optional_dependency_of_another_version_or_platform_fails(copy):
    def change(m):
        m["optionalDependencies"]["tinymemory-conformance-linux-x64"] = "0.0.9"
        m["optionalDependencies"]["tinymemory-conformance-sunos-x64"] = VERSION

    edit_json(copy / "js/package.json", change)
    assert versions.mismatches(str(copy)) == [
        "js/package.json optionalDependencies[tinymemory-conformance-linux-x64] is \"0.0.9\", "
        f"not the workspace's version \"{VERSION}\"",
        "js/package.json optionalDependencies[tinymemory-conformance-sunos-x64] (no js/npm directory) is null, "
        f"not the workspace's version \"{VERSION}\"",
    ]


def test_a_static_wheel_version_fails(copy):
    replace_once(copy / "python/pyproject.toml", 'dynamic = ["version"]', 'version = "0.2.0"')
    assert versions.mismatches(str(copy)) == [
        f'python/pyproject.toml [project] version is "0.2.0", not the workspace\'s version "{VERSION}"'
    ]


def test_a_crate_of_its_own_version_and_a_stale_lockfile_fail(copy):
    replace_once(copy / "crates/tinymemory-cli/Cargo.toml", "version.workspace = true", 'version = "0.3.0"')
    replace_once(copy / "Cargo.lock", f'name = "tinymemory-api"\nversion = "{VERSION}"',
                 'name = "tinymemory-api"\nversion = "0.0.1"')
    assert versions.mismatches(str(copy)) == [
        f'crates/tinymemory-cli/Cargo.toml [package] version is "0.3.0", not the workspace\'s version "{VERSION}"',
        f'Cargo.lock package tinymemory-api is "0.0.1", not the workspace\'s version "{VERSION}"',
    ]


def test_a_new_workspace_version_without_anything_else_fails_everywhere(copy):
    replace_once(copy / "Cargo.toml", f'version = "{VERSION}"', 'version = "7.0.0"')
    errors = versions.mismatches(str(copy))
    # Every npm statement, every workspace dependency's version, every
    # Cargo.lock entry and the changelog: only the crates and the wheel
    # follow the workspace by construction.
    assert errors[0] == ('Cargo.toml [workspace.dependencies] tinymemory-api version is '
                         f'"{VERSION}", not the workspace\'s version "7.0.0"')
    assert any(e.startswith('Cargo.lock package tinymemory-api is "') for e in errors)
    assert f'js/package.json version is "{VERSION}", not the workspace\'s version "7.0.0"' in errors
    assert errors[-1] == 'CHANGELOG.md section ## [7.0.0] is null, not the workspace\'s version "7.0.0"'
    assert not any("crates/" in e or "pyproject" in e for e in errors)


def test_a_workspace_dependency_of_another_version_fails(copy):
    replace_once(copy / "Cargo.toml", f'path = "crates/tinymemory-corpus", version = "{VERSION}"',
                 'path = "crates/tinymemory-corpus", version = "0.0.9"')
    replace_once(copy / "Cargo.toml", f'path = "crates/tinymemory-text", version = "{VERSION}"',
                 'path = "crates/tinymemory-text"')
    assert versions.mismatches(str(copy)) == [
        f'Cargo.toml [workspace.dependencies] tinymemory-corpus version is "0.0.9", not the workspace\'s version '
        f'"{VERSION}"',
        f'Cargo.toml [workspace.dependencies] tinymemory-text version is null, not the workspace\'s version '
        f'"{VERSION}"',
    ]


def test_the_published_crates_come_dependencies_first():
    crates = versions.published_crates(ROOT)
    assert crates == [
        "tinymemory-api", "tinymemory-corpus", "tinymemory-exec", "tinymemory-reference", "tinymemory-doubles",
        "tinymemory-sections", "tinymemory-conformance", "tinymemory-text", "tinymemory-postgres",
        "tinymemory-sqlite",
    ]
    script = os.path.join(ROOT, ".ci", "release", "versions.py")
    said = subprocess.run([sys.executable, script, "--crates"], capture_output=True, text=True, check=False)
    assert (said.returncode, said.stdout, said.stderr) == (0, "\n".join(crates) + "\n", "")


def test_a_published_crate_on_an_unpublished_one_fails(copy):
    replace_once(copy / "crates/tinymemory-text/Cargo.toml", "[dependencies]\n", "[dependencies]\ntinymemory-cli.workspace = true\n")
    with pytest.raises(ValueError, match="^the published crate tinymemory-text depends on tinymemory-cli, which is not published$"):
        versions.published_crates(str(copy))


def test_the_changelog_without_the_version_fails(copy):
    replace_once(copy / "CHANGELOG.md", f"## [{VERSION}] - ", "## [0.0.0] - ")
    assert versions.mismatches(str(copy)) == [
        f'CHANGELOG.md section ## [{VERSION}] is null, not the workspace\'s version "{VERSION}"'
    ]


@pytest.mark.parametrize(
    "tag, error",
    [
        (f"v{VERSION}", None),
        (f"refs/tags/v{VERSION}", None),
        (VERSION, f'the tag "{VERSION}" is not "v{VERSION}"'),
        ("v9.9.9", f'the tag "v9.9.9" is not "v{VERSION}"'),
        (f"v{VERSION}-rc1", f'the tag "v{VERSION}-rc1" is not "v{VERSION}"'),
    ],
)
def test_a_tag_is_v_and_the_version(tag, error):
    expected = [] if error is None else [
        error + ": tag the commit whose Cargo.toml says the version released (docs/release.md)"
    ]
    assert versions.mismatches(ROOT, tag) == expected


def test_the_script_prints_the_version_or_the_mismatches(copy):
    script = os.path.join(ROOT, ".ci", "release", "versions.py")
    ok = subprocess.run([sys.executable, script, "--root", str(copy)], capture_output=True, text=True, check=False)
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, VERSION + "\n", "")
    bad = subprocess.run([sys.executable, script, "--root", str(copy), "--tag", "v0.0.0"],
                         capture_output=True, text=True, check=False)
    assert (bad.returncode, bad.stdout) == (1, "")
    assert bad.stderr == (f'error: the tag "v0.0.0" is not "v{VERSION}": tag the commit whose Cargo.toml says '
                          "the version released (docs/release.md)\n")


# --- the changelog's sections -----------------------------------------------------------------------------------

LOG = """# Changelog

Intro, not a section.

## [Unreleased] - Unreleased

- next

## [0.2.0] - 2027-01-05

First line.

```md
## [9.9.9] - 2027-01-01
```

### Exec protocol

- a change

## [0.1.0] - Unreleased

## [0.0.1] - 2026-01-01
- old
"""


def test_sections_are_read_in_order_with_their_bodies():
    assert changelog.sections(LOG) == [
        ("Unreleased", "Unreleased", "- next\n"),
        ("0.2.0", "2027-01-05",
         "First line.\n\n```md\n## [9.9.9] - 2027-01-01\n```\n\n### Exec protocol\n\n- a change\n"),
        ("0.1.0", "Unreleased", ""),
        ("0.0.1", "2026-01-01", "- old\n"),
    ]
    assert changelog.section(LOG, "0.2.0", released=True).startswith("First line.\n")


@pytest.mark.parametrize(
    "version, released, message",
    [
        ("9.9.9", False, "CHANGELOG.md has no section '## [9.9.9] - DATE' (sections: Unreleased, 0.2.0, 0.1.0, 0.0.1)"),
        ("0.1.0", False, "CHANGELOG.md's section for 0.1.0 is empty: say what the release changes"),
        ("Unreleased", True, "CHANGELOG.md's section for Unreleased is still dated 'Unreleased': write the release "
                             "date (## [Unreleased] - YYYY-MM-DD) in the commit you tag (docs/release.md)"),
    ],
)
def test_a_section_missing_empty_or_unreleased_is_refused(version, released, message):
    with pytest.raises(changelog.ChangelogError) as e:
        changelog.section(LOG, version, released)
    assert str(e.value) == message


def test_a_version_twice_or_a_malformed_heading_is_refused():
    with pytest.raises(changelog.ChangelogError) as e:
        changelog.section("## [1.0.0] - 2027-01-01\na\n## [1.0.0] - 2027-01-02\nb\n", "1.0.0")
    assert str(e.value) == "CHANGELOG.md has 2 sections for 1.0.0: one per version"
    with pytest.raises(changelog.ChangelogError) as e:
        changelog.sections("# Changelog\n\n## [1.0.0]\n- a\n")
    assert str(e.value) == (
        "CHANGELOG.md line 3: '## [1.0.0]' is not a release heading of the form "
        "'## [VERSION] - YYYY-MM-DD' (or '- Unreleased')"
    )


def test_the_repository_changelog_has_the_version_and_the_script_prints_it(tmp_path):
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as f:
        body = changelog.section(f.read(), VERSION)
    assert "### Exec protocol (version 1, `tinymemory_exec::PROTOCOL_VERSION`)" in body
    script = os.path.join(ROOT, ".ci", "release", "changelog.py")
    done = subprocess.run([sys.executable, script, VERSION], capture_output=True, text=True, cwd=ROOT, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, body, "")
    log = tmp_path / "CHANGELOG.md"
    log.write_text(LOG)
    done = subprocess.run([sys.executable, script, "0.2.0", "--released", "--file", str(log)],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, changelog.section(LOG, "0.2.0"))
    done = subprocess.run([sys.executable, script, "0.1.0", "--file", str(log)],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", "error: CHANGELOG.md's section for 0.1.0 is empty: say what the release changes\n")


# --- a wheel's binary -------------------------------------------------------------------------------------------


def make_wheel(path, members):
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def test_the_binary_is_taken_out_of_a_wheel_executable(tmp_path):
    wheel = make_wheel(tmp_path / "w.whl", {
        "tinymemory/__init__.py": b"",
        f"tinymemory_conformance-{VERSION}.data/scripts/tinymemory-conformance.exe": b"MZ\x00binary",
        f"tinymemory_conformance-{VERSION}.dist-info/RECORD": b"",
    })
    path = wheel_binary.extract(str(wheel), str(tmp_path / "out"))
    assert path == str(tmp_path / "out" / "tinymemory-conformance.exe")
    with open(path, "rb") as f:
        assert f.read() == b"MZ\x00binary"
    assert os.access(path, os.X_OK)


@pytest.mark.parametrize("scripts, found", [
    ([], "[]"),
    (["a.data/scripts/tinymemory-conformance", "b.data/scripts/tinymemory-conformance"],
     "['a.data/scripts/tinymemory-conformance', 'b.data/scripts/tinymemory-conformance']"),
])
def test_a_wheel_without_one_binary_is_refused(tmp_path, scripts, found):
    wheel = make_wheel(tmp_path / "w.whl", {name: b"x" for name in ["tinymemory/__init__.py", *scripts]})
    with pytest.raises(wheel_binary.WheelError) as e:
        wheel_binary.extract(str(wheel), str(tmp_path / "out"))
    assert str(e.value) == f"expected one *.data/scripts/tinymemory-conformance[.exe] in the wheel, found {found}"


def test_the_script_prints_the_binary_path_or_the_error(tmp_path):
    script = os.path.join(ROOT, ".ci", "release", "wheel_binary.py")
    wheel = make_wheel(tmp_path / "w.whl", {"t-1.data/scripts/tinymemory-conformance": b"\x7fELF"})
    done = subprocess.run([sys.executable, script, str(wheel), str(tmp_path / "out")],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, (tmp_path / "out" / "tinymemory-conformance").as_posix() + "\n", "")
    empty = make_wheel(tmp_path / "e.whl", {"tinymemory/__init__.py": b""})
    done = subprocess.run([sys.executable, script, str(empty), str(tmp_path / "out")],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", f"error: {empty}: expected one *.data/scripts/tinymemory-conformance[.exe] in the wheel, found []\n")
