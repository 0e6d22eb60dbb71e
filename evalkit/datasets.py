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
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .trec import read_qrels, read_run

__all__ = ["data_dir", "data_path", "list_data", "load_collection", "Collection"]

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


@dataclass
class Collection:
    """A test collection: documents, topics, relevance judgements and system runs.

    Attributes
    ----------
    name : str
        The folder in ``data/``.
    documents : pandas.DataFrame
        One row per document: ``doc_id``, ``module``, ``name``, ``kind``, ``text``.
    topics : pandas.DataFrame
        One row per topic: ``topic_id``, ``query``, ``description``, ``narrative`` (the
        judging guideline for that topic).
    qrels : pandas.DataFrame
        The graded judgements (``query_id``, ``doc_id``, ``relevance``), as :func:`read_qrels`.
    runs : dict of str to pandas.DataFrame
        The automatic systems' runs by name, as :func:`read_run`.
    manual_run : pandas.DataFrame or None
        The judges' own searches, which completed the pool (not a system to compare).
    """

    name: str
    documents: pd.DataFrame
    topics: pd.DataFrame
    qrels: pd.DataFrame
    runs: dict[str, pd.DataFrame] = field(default_factory=dict)
    manual_run: pd.DataFrame | None = None

    def __repr__(self) -> str:
        return (
            f"Collection({self.name!r}: {len(self.documents):,} documents, "
            f"{len(self.topics)} topics, {len(self.qrels):,} judgements, "
            f"runs {sorted(self.runs)})"
        )


def load_collection(name: str = "stdlib-docs") -> Collection:
    """Load a test collection from ``data/<name>/`` (see ``data/README.md``).

    Examples
    --------
    >>> collection = load_collection("stdlib-docs")
    >>> sorted(collection.runs)
    ['bm25', 'tfidf', 'title']
    >>> len(collection.topics)
    40
    """
    folder = data_path(name)
    if not (folder / "qrels.txt").is_file():
        raise FileNotFoundError(f"{folder} is not a test collection: it has no qrels.txt")
    documents = pd.read_json(folder / "docs.jsonl", lines=True, dtype=str)
    topics = pd.read_csv(folder / "topics.tsv", sep="\t", dtype=str, keep_default_na=False,
                         quoting=3)
    runs = {
        path.name.removesuffix(".run"): read_run(path)
        for path in sorted((folder / "runs").glob("*.run"))
    }
    manual = runs.pop("manual", None)
    return Collection(name, documents, topics, read_qrels(folder / "qrels.txt"), runs, manual)
