"""``make test-pythons`` and the interpreters it picks (tools/pythons.py): each other CPython
minor version at or above requires-python, with the GIL, the newest patch release of each."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from .conftest import REPO, load_script

pytestmark = pytest.mark.skipif(os.name != "posix", reason="fake interpreters are sh scripts")


def _pythons():
    return load_script(REPO / "tools" / "pythons.py", "pythons")


def _fake(path: Path, described: str | None) -> Path:
    """An executable that prints what tools/pythons.py asks of an interpreter (``described``:
    "cpython 3 12 1 0"), or fails (None), whatever it is given."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + (f"echo {described}\n" if described else "exit 1\n"))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_picks_the_newest_release_of_each_other_minor_version(tmp_path):
    pythons = _pythons()
    this = sys.version_info
    other = this.minor + 1
    versions = tmp_path / "pyenv" / "versions"
    _fake(versions / f"3.{other}.1" / "bin" / "python3", f"cpython 3 {other} 1 0")
    newest = _fake(versions / f"3.{other}.4" / "bin" / "python3", f"cpython 3 {other} 4 0")
    # Not picked: this Python's minor version, a pre-release folder, a free-threaded build,
    # another implementation, one below the floor, one that does not run.
    _fake(versions / f"3.{this.minor}.0" / "bin" / "python3", f"cpython 3 {this.minor} 0 0")
    _fake(versions / f"3.{other + 1}.0a1" / "bin" / "python3", f"cpython 3 {other + 1} 0 0")
    _fake(versions / f"3.{other + 1}.0" / "bin" / "python3", f"cpython 3 {other + 1} 0 1")
    _fake(versions / "pypy3.10-7.3.12" / "bin" / "python3", "pypy 3 10 13 0")
    _fake(versions / "3.9.18" / "bin" / "python3", "cpython 3 9 18 0")
    _fake(versions / f"3.{other + 2}.0" / "bin" / "python3", None)
    empty = tmp_path / "empty-path"
    empty.mkdir()
    assert pythons.others(path=str(empty), pyenv_root=tmp_path / "pyenv") == [newest]


def test_a_python_on_path_comes_before_pyenv_and_no_version_twice(tmp_path):
    pythons = _pythons()
    other = sys.version_info.minor + 1
    on_path = _fake(tmp_path / "bin" / f"python3.{other}", f"cpython 3 {other} 0 0")
    _fake(tmp_path / "pyenv" / "versions" / f"3.{other}.9" / "bin" / "python3",
          f"cpython 3 {other} 9 0")
    later = _fake(tmp_path / "pyenv" / "versions" / f"3.{other + 1}.2" / "bin" / "python3",
                  f"cpython 3 {other + 1} 2 0")
    assert pythons.others(path=str(tmp_path / "bin"), pyenv_root=tmp_path / "pyenv") == [
        on_path, later]


def test_no_pyenv_and_nothing_on_path_finds_none(tmp_path):
    assert _pythons().others(path=str(tmp_path), pyenv_root=tmp_path / "none") == []


def test_the_floor_is_requires_pythons():
    assert _pythons().floor() == (3, 11)


def test_usage():
    assert _pythons().main(["--bogus"]) == 2


def test_make_test_pythons_runs_in_ci_after_make_test_oldest():
    ci = (REPO / ".ci" / "run").read_text()
    assert 0 < ci.index("make test-oldest\n") < ci.index("make test-pythons\n")
    makefile = (REPO / "Makefile").read_text()
    recipe = makefile.split("\ntest-pythons:", 1)[1].split("\n\n", 1)[0]
    assert "tools/pythons.py" in recipe
    tests = makefile.split("\nPYTHONS_TESTS ?=", 1)[1].split("\ntest-pythons:", 1)[0]
    assert "tests/test_str_memory.py" in tests and "tests/test_hashing.py" in tests
    assert all((REPO / name).is_file() for name in tests.replace("\\", " ").split())
    assert ".venv-pythons/" in (REPO / ".gitignore").read_text().split()
