"""How the wheel is laid out; the project's metadata is in pyproject.toml.

- Every package under ``evalkit/`` is found by setuptools (``find_packages``), so a new
  subpackage cannot be forgotten (tests/test_packaging.py checks that every folder of
  ``evalkit/`` with Python files is found).
- The course data stay in ``data/`` in the repository and ship inside the wheel (and the
  sdist) as ``evalkit/_data/``, where :mod:`evalkit.datasets` finds them when there is no
  repository and no ``EVALKIT_DATA``. Only the files the notebooks and docs read are shipped,
  not the scripts that built them.
- The course's notebooks ship as ``evalkit/_notebooks/`` (with their answer digests and the
  course map), for ``evalkit notebooks DIR [--teacher]``.
"""

from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent

DATA_PACKAGE = "evalkit._data"
DATA_FOLDER = "data"
# The kinds of file under data/ that evalkit.datasets, the notebooks and the docs read.
DATA_FILES = ["**/*.md", "**/*.txt", "**/*.tsv", "**/*.jsonl", "**/*.run", "**/*.qrels",
              "**/*.csv", "**/*.npz", "**/*.gz"]

NOTEBOOK_PACKAGE = "evalkit._notebooks"
NOTEBOOK_FOLDER = "notebooks"
NOTEBOOK_FILES = ["*.ipynb", "answer-digests.json", "course.toml"]


def packages() -> list[str]:
    """evalkit and every subpackage of it (each folder with an ``__init__.py``)."""
    return sorted(find_packages(where=str(HERE), include=["evalkit", "evalkit.*"]))


if __name__ == "__main__":
    setup(
        packages=[*packages(), DATA_PACKAGE, NOTEBOOK_PACKAGE],
        package_dir={DATA_PACKAGE: DATA_FOLDER, NOTEBOOK_PACKAGE: NOTEBOOK_FOLDER},
        package_data={DATA_PACKAGE: DATA_FILES, NOTEBOOK_PACKAGE: NOTEBOOK_FILES},
    )
