"""Find the project's ``data/`` folder, so notebooks never hard-code a path.

The folder is looked up in this order:

1. the ``EVALKIT_DATA`` environment variable, if set;
2. ``data/`` beside the ``evalkit`` package (a clone of the repository, installed with
   ``pip install -e .`` as ``make lab`` does);
3. ``data/`` in the current directory or one of its parents (a notebook started from
   ``notebooks/``).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir", "data_path", "list_data"]

_MARKER = "README.md"


def _candidates() -> list[Path]:
    found = []
    if os.environ.get("EVALKIT_DATA"):
        found.append(Path(os.environ["EVALKIT_DATA"]).expanduser())
    found.append(Path(__file__).resolve().parent.parent / "data")
    here = Path.cwd().resolve()
    found.extend(folder / "data" for folder in (here, *here.parents))
    return found


def data_dir() -> Path:
    """The folder that holds evalkit's data sets.

    Raises
    ------
    FileNotFoundError
        If ``EVALKIT_DATA`` names a folder that does not exist, or no ``data/`` folder with a
        ``README.md`` is found.

    Examples
    --------
    >>> (data_dir() / "README.md").is_file()
    True
    """
    env = os.environ.get("EVALKIT_DATA")
    if env:
        folder = Path(env).expanduser()
        if not folder.is_dir():
            raise FileNotFoundError(f"EVALKIT_DATA points to {folder}, which is not a folder")
        return folder
    for folder in _candidates():
        if (folder / _MARKER).is_file():
            return folder
    raise FileNotFoundError(
        "could not find evalkit's data/ folder (looked beside the evalkit package and in the "
        "current folder and its parents); set EVALKIT_DATA to its path"
    )


def data_path(*parts: str) -> Path:
    """The path of a file in ``data/``; raises ``FileNotFoundError`` naming it if missing.

    Examples
    --------
    >>> data_path("README.md").name
    'README.md'
    >>> data_path("no-such-file.csv")
    Traceback (most recent call last):
    ...
    FileNotFoundError: no-such-file.csv is not in evalkit's data folder; it holds: ...
    """
    if not parts:
        raise ValueError("data_path needs at least one path component, e.g. data_path('qrels.txt')")
    folder = data_dir()
    path = folder.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(
            f"{'/'.join(parts)} is not in evalkit's data folder; it holds: {', '.join(list_data())}"
        )
    return path


def list_data() -> list[str]:
    """Names of the files and folders in ``data/``, sorted."""
    return sorted(p.name for p in data_dir().iterdir() if not p.name.startswith("."))
