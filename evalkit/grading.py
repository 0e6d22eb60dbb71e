"""``evalkit.grading``: the old home of the grader, kept for ``python -m evalkit.grading``
(``make grade``) and for scripts that import it. The grader lives in
:mod:`evalkit.course.grading`; this module only re-exports its public names (and runs its
command line when run as a script).
"""

import sys

from .course.grading import add_arguments, default_cache, grade, main, mark, reference, run

__all__ = ["add_arguments", "run", "main", "grade", "reference", "mark", "default_cache"]

if __name__ == "__main__":
    sys.exit(main())
