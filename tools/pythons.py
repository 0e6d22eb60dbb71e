"""The other CPythons on this machine, for ``make test-pythons``: ``python tools/pythons.py``
prints one interpreter a line, each a CPython 3 that pyproject.toml's ``requires-python``
admits, of another minor version than the Python running this (the one ``make test`` uses).

Why: evalkit reads the characters of str objects where CPython keeps them
(:mod:`evalkit._str_memory`), a layout that its probe checks on each interpreter but that
changes between minor versions. ``make test`` runs on one Python; ``make test-pythons`` runs
the tests that hash ids, and every ranking path on top of them, on each Python found here.

Looked for: ``python3.N`` on ``PATH``, then pyenv's versions (``$PYENV_ROOT/versions`` or
``~/.pyenv/versions``), the newest patch release of each minor version; only final releases
(no ``3.14.0a1``), no free-threaded builds (``3.13t``: a layout of their own, which the probe
refuses, so the fast path is not run there).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# A pyenv folder of a final CPython release: "3.12.1", not "3.13.0a1", "3.13t" or "pypy3.10".
_RELEASE = re.compile(r"3\.(\d+)\.(\d+)")
# What an interpreter prints of itself (see _describe).
_DESCRIBE = ("import sys, sysconfig; print(sys.implementation.name, *sys.version_info[:3], "
             "int(bool(sysconfig.get_config_var('Py_GIL_DISABLED'))))")


def floor() -> tuple[int, int]:
    """The lowest minor version pyproject.toml's ``requires-python`` (``>=3.N``) admits."""
    text = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["requires-python"]
    match = re.fullmatch(r">=\s*3\.(\d+)", text.strip())
    if not match:
        raise ValueError(f"pyproject.toml: requires-python {text!r} is not '>=3.N'")
    return 3, int(match.group(1))


def candidates(path: str | None = None, pyenv_root: Path | None = None) -> list[Path]:
    """Interpreters that may be other CPythons: ``python3.N`` on ``path`` (``PATH``) for N
    from 10 to 29, then the newest patch release of each minor version under pyenv."""
    found = [Path(p) for n in range(10, 30)
             if (p := shutil.which(f"python3.{n}", path=path)) is not None]
    root = pyenv_root or Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    releases: dict[int, tuple[int, Path]] = {}
    versions = root / "versions"
    for folder in sorted(versions.iterdir()) if versions.is_dir() else []:
        match = _RELEASE.fullmatch(folder.name)
        binary = folder / "bin" / "python3"
        if match and binary.is_file():
            minor, patch = int(match.group(1)), int(match.group(2))
            if minor not in releases or patch > releases[minor][0]:
                releases[minor] = (patch, binary)
    return found + [binary for _, (_, binary) in sorted(releases.items())]


def _describe(python: Path) -> tuple[str, tuple[int, int], bool] | None:
    """(implementation, (major, minor), free-threaded) of an interpreter, None if it does not
    run."""
    try:
        out = subprocess.run([str(python), "-c", _DESCRIBE], capture_output=True, text=True,
                             timeout=30, check=True).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    return out[0], (int(out[1]), int(out[2])), out[4] == "1"


def others(path: str | None = None, pyenv_root: Path | None = None) -> list[Path]:
    """One interpreter of each CPython minor version at or above the floor, other than this
    one's, with the GIL (see the module's docstring)."""
    chosen: dict[tuple[int, int], Path] = {}
    lowest = floor()
    for python in candidates(path, pyenv_root):
        described = _describe(python)
        if described is None:
            continue
        name, version, free_threaded = described
        if (name == "cpython" and not free_threaded and version >= lowest
                and version != sys.version_info[:2] and version not in chosen):
            chosen[version] = python
    return [chosen[version] for version in sorted(chosen)]


def main(argv: list[str]) -> int:
    if argv:
        print("usage: python tools/pythons.py", file=sys.stderr)
        return 2
    for python in others():
        print(python)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
