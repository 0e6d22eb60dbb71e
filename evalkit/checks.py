"""``evalkit.checks``: the old home of the exercise checker, kept because API.md, the README and
every student edition written so far import it (``from evalkit.checks import AnswerDigest``,
``ek.checks.AnswerDigest(...)``). The checker lives in :mod:`evalkit.course.checks`; this
module only re-exports it.
"""

from .course.checks import AnswerDigest, check

__all__ = ["check", "AnswerDigest"]
