"""evalkit's version: the installed distribution's, else the source tree's pyproject.toml."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

__all__ = ["find_version", "UNKNOWN"]

UNKNOWN = "0+unknown"


def find_version() -> str:
    """The version of the installed ``evalkit`` distribution.

    Without one (a source tree put on ``sys.path``, not installed), the ``version`` line of
    the ``pyproject.toml`` beside the package; ``"0+unknown"`` if there is none.

    Examples
    --------
    >>> find_version().count(".") >= 1
    True
    """
    try:
        return metadata.version("evalkit")
    except metadata.PackageNotFoundError:
        return _source_tree_version(Path(__file__).resolve().parent.parent / "pyproject.toml")


def _source_tree_version(pyproject: Path) -> str:
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:
        return UNKNOWN
    project = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.MULTILINE | re.DOTALL)
    if project is None or not re.search(r'^name\s*=\s*"evalkit"\s*$', project.group(1),
                                        re.MULTILINE):
        return UNKNOWN
    version = re.search(r'^version\s*=\s*"([^"]+)"\s*$', project.group(1), re.MULTILINE)
    return version.group(1) if version else UNKNOWN
