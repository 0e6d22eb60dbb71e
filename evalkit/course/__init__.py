"""The course tooling, apart from the metrics: exercise checks, the student edition, grading.

The notebooks teach with evalkit's metrics; what runs the course around them lives here, so
the folder tree shows the two apart (the metrics never import this package):

- :mod:`evalkit.course.checks`: :func:`check` (``ek.check``), the one line an exercise's check
  cell prints, and :class:`AnswerDigest`, the salted hash the student edition checks against.
- ``_editions``: the student edition of a notebook (solutions replaced by stubs, expected
  values by digests) and the course written into a folder, behind ``evalkit notebooks DIR``
  and ``make student`` (tools/student.py).
- :mod:`evalkit.course.grading`: ``evalkit grade`` / ``make grade``, marking submitted student
  editions outside the students' kernels. It is loaded on first use
  (``evalkit.course.grading``), as the command line loads it only for ``evalkit grade``.

``check`` and ``AnswerDigest`` are importable from here, ``check`` also from ``evalkit``;
``evalkit.checks`` stays as the old home that re-exports them (student editions import it).
"""

from .checks import AnswerDigest, check

__all__ = ["check", "AnswerDigest"]

# The grader imports a good part of the standard library (csv, subprocess, tempfile, logging):
# `import evalkit` (and so `evalkit trec_eval`) does not pay for it.
_LAZY_MODULES = ("grading",)


def __getattr__(name: str):
    if name in _LAZY_MODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_MODULES))
