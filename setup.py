"""How the wheel is laid out; the project's metadata is in pyproject.toml.

- Every package under ``evalkit/`` is found by setuptools (``find_packages``), so a new
  subpackage cannot be forgotten (tests/test_packaging.py checks that every folder of
  ``evalkit/`` with Python files is found).
- The course data stay in ``data/`` in the repository and ship inside the wheel (and the
  sdist) as ``evalkit/_data/``, where :mod:`evalkit.datasets` finds them when there is no
  repository and no ``EVALKIT_DATA``. Only the files the notebooks and docs read are shipped,
  not the scripts that built them. A folder of ``data/`` whose name Python could import
  (``estimation``) is declared a package of its own, or setuptools warns that it is missing
  from the packages (on every ``pip install`` and ``make test``); its scripts are still left
  out (:class:`BuildPy`).
- The course's notebooks ship as ``evalkit/_notebooks/`` (with their answer digests and the
  course map), for ``evalkit notebooks DIR [--teacher]``.
"""

from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

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


def data_packages() -> list[str]:
    """The data package and each folder under it whose name is a Python identifier (the others,
    ``course-notes``, ``stdlib-docs``, cannot be imported, and setuptools leaves them be)."""
    root = HERE / DATA_FOLDER
    folders = sorted(path.relative_to(root).parts for path in root.rglob("*") if path.is_dir())
    return [DATA_PACKAGE] + [".".join([DATA_PACKAGE, *parts]) for parts in folders
                             if all(part.isidentifier() and part != "__pycache__"
                                    for part in parts)]


class BuildPy(build_py):
    """setuptools' build_py, but the data packages ship no module: their ``.py`` files are
    the scripts that built the data, which stay in the repository."""

    def find_package_modules(self, package: str, package_dir: str) -> list:
        if package == DATA_PACKAGE or package.startswith(DATA_PACKAGE + "."):
            return []
        return super().find_package_modules(package, package_dir)


if __name__ == "__main__":
    setup(
        packages=[*packages(), *data_packages(), NOTEBOOK_PACKAGE],
        package_dir={DATA_PACKAGE: DATA_FOLDER, NOTEBOOK_PACKAGE: NOTEBOOK_FOLDER},
        package_data={DATA_PACKAGE: DATA_FILES, NOTEBOOK_PACKAGE: NOTEBOOK_FILES},
        cmdclass={"build_py": BuildPy},
    )
