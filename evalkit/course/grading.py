"""Mark the student edition outside the student's kernel: ``evalkit grade`` / ``make grade``.

    python -m evalkit.course.grading SUBMISSIONS [--course notebooks] [--out build/grades]
        [--timeout 300] [--cell-timeout 120] [--format csv|canvas|moodle]
        [--feedback hints|full] [--sandbox auto|bwrap|none] [--cache DIR]

Every ``*.ipynb`` under ``SUBMISSIONS`` is a submission, in any layout: one folder per student
(``alice/02-precision-and-recall.ipynb``) or files named after students
(``alice_02-precision-and-recall.ipynb``). Each is matched to its course notebook by file name
(also the names a notebook had before the course was renumbered, ``formerly`` in
``notebooks/course.toml``), failing that by the cell ids the student edition keeps.

How a submission is marked (the README's "For lecturers: marking a class" says what this
protects against and what it cannot):

1. Before any submission runs, the grader computes every reference value itself: each
   teacher's notebook runs once in a kernel of its own with ``evalkit.check`` wrapped so that
   each check records what it compares against (expected value, tolerance, hint). They stay
   in the grader's memory for the batch and are cached for the next one in ``--cache``
   (default ``~/.cache/evalkit/grader``, never under the output folder): an entry is keyed by
   the SHA-256 of the teacher's notebook and sealed with an HMAC whose key lives in that
   folder, and one that does not verify is computed again.
2. Each submission runs on a copy in a temporary folder, in a fresh kernel of the course
   notebook's kind (nbclient), with a time limit per cell and one for the whole notebook.
   Where bubblewrap (``bwrap``) works, the kernel runs in a sandbox: the file system is
   read-only but for its own folder (its TMPDIR too); the course, the submissions, the output,
   the cache and evalkit's own copy of the teacher's notebooks (``evalkit/_notebooks`` in an
   installed wheel, which ``evalkit notebooks --teacher`` writes out) are hidden; and it has a
   /proc of its own, so it cannot see the grader.
3. After every code cell the grader reads each check's answer expression (the second
   argument of ``ek.check`` in the teacher's check cell, e.g. ``answer_1``) through the
   kernel protocol's ``user_expressions`` of a silent request, not from anything the notebook
   prints. The read-out is a module of its own (``evalkit/course/_readout.py``), so names a
   notebook rebinds (``eval``, ``type``, ``repr``, ``sys.stdout``) do not disturb it. The last
   value read counts: a notebook that later raises, dies or loops keeps what it had answered,
   and its row says where it stopped.
4. The values (numbers, text, tuples, arrays: never an object of the student's making) are
   compared with the references in the grader's own process, with each check's tolerance
   (:func:`evalkit.check`'s rule). Check cells that differ from the course's are reported as
   changed; they change no mark.

Results in ``--out``: ``gradebook.csv`` (one row per student and notebook: status, one column
per exercise with correct / wrong / not answered / error, the total); a gradebook to import
(``--format``: ``gradebook-canvas.csv``, ``gradebook-moodle.csv``, or ``gradebook-wide.csv``
for ``csv``: one row per student, a column per notebook); and ``feedback/<student>.md`` (each
notebook's verdicts with hints; ``--feedback full`` also gives the expected values). A part's
open-ended assignment (cells tagged ``assignment``) is not marked by machine: the gradebooks
get a "marked by hand" column for it (to mark, with its length, or not answered; an empty
column in the gradebook to import) and ``assignments/<notebook>/<student>.md`` holds each
answer for the lecturer, who marks it with the rubric printed beside the assignment.

The grader's parts, one file each: reading the check cells (``_check_cells``), the kernel's
sandbox (``_sandbox``), running a notebook and reading its answers out (``_kernel``, with
the kernel-side ``_readout``), the reference values and their cache (``_references``),
finding submissions (``_submissions``), marking one (``_marking``) and writing the
gradebooks and feedback (``_gradebook``). This module is the batch and its command line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ._check_cells import CourseNotebook
from ._gradebook import write_assignments, write_feedback, write_gradebook, write_import
from ._kernel import DEFAULT_CELL_TIMEOUT
from ._marking import Mark, mark
from ._references import default_cache, reference
from ._sandbox import _folders_to_hide, bwrap_usable
from ._submissions import find_submissions, former_names

__all__ = ["add_arguments", "run", "main", "grade", "reference", "mark", "default_cache"]

DEFAULT_TIMEOUT = 300.0  # seconds per notebook
FORMATS = ("csv", "canvas", "moodle")
FEEDBACK = ("hints", "full")
SANDBOXES = ("auto", "bwrap", "none")


# --- the batch --------------------------------------------------------------------------------

def _progress(done: int, total: int, text: str, stream: Any) -> None:
    width = 24
    filled = width * done // max(total, 1)
    print(f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {text}", file=stream,
          flush=True)


def grade(submissions: Path, *, course_dir: Path, out: Path, timeout: float = DEFAULT_TIMEOUT,
          cell_timeout: float = DEFAULT_CELL_TIMEOUT, kernel_name: str | None = None,
          progress: Any = sys.stderr, cache: Path | None = None, fmt: str = "csv",
          feedback: str = "hints", sandbox: str = "auto") -> list[Mark]:
    """Mark every submission under ``submissions``; write the gradebooks and the feedback.

    ``cache``: where reference values are kept between batches (default
    :func:`default_cache`); ``fmt``: the gradebook to import (``csv``, ``canvas``,
    ``moodle``); ``feedback``: ``hints`` (verdicts and hints) or ``full`` (also the expected
    values); ``sandbox``: ``auto`` (bubblewrap when it works), ``bwrap`` (required) or
    ``none``."""
    if not submissions.is_dir():
        raise ValueError(f"submissions: {submissions} is not a folder")
    if not course_dir.is_dir():
        raise ValueError(f"course: {course_dir} is not a folder")
    if not timeout > 0:
        raise ValueError(f"timeout: must be a positive number of seconds, got {timeout}")
    if not cell_timeout > 0:
        raise ValueError(f"cell_timeout: must be a positive number of seconds, got "
                         f"{cell_timeout}")
    for label, value, allowed in (("format", fmt, FORMATS), ("feedback", feedback, FEEDBACK),
                                  ("sandbox", sandbox, SANDBOXES)):
        if value not in allowed:
            raise ValueError(f"{label}: expected one of {', '.join(allowed)}; got {value!r}")
    use_sandbox = sandbox != "none" and bwrap_usable()
    if sandbox == "bwrap" and not use_sandbox:
        raise ValueError("sandbox: bwrap was asked for, but bubblewrap is not installed or "
                         "cannot make a sandbox here (apt-get install bubblewrap)")
    if not use_sandbox:
        print("evalkit grade: no sandbox (bubblewrap): submissions run with your rights and "
              "can read and write your files; run the grader in a container or install "
              "bubblewrap", file=progress, flush=True)
    cache = default_cache() if cache is None else cache
    course_paths = sorted(course_dir.glob("*.ipynb"))
    course_files = [path.name for path in course_paths]
    cell_ids = {}
    for path in course_paths:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        cell_ids[path.name] = {cell.get("id") for cell in cells} - {None}
    found = find_submissions(submissions, course_files, former_names(course_dir), cell_ids)

    # Every reference value first, before any submission runs.
    references: dict[str, CourseNotebook | str] = {}  # a str says why there is none
    for name in sorted({s.notebook for s in found if s.notebook is not None}):
        _progress(0, len(found), f"reference values of {name}", progress)
        try:
            references[name] = reference(
                course_dir / name, timeout=max(timeout, 600.0), cache=cache,
                kernel_name=kernel_name, say=lambda text: print(text, file=progress))
        except (RuntimeError, ValueError, OSError) as error:
            references[name] = str(error)[:300]

    hidden = _folders_to_hide([course_dir, submissions, out, cache])
    marks: list[Mark] = []
    for done, submission in enumerate(found):
        _progress(done, len(found), f"{submission.student} {submission.path.name}", progress)
        if submission.notebook is None:
            marks.append(Mark(student=submission.student, notebook="",
                              submission=str(submission.path), status="no course notebook",
                              detail="its name matches no notebook of the course"))
            continue
        course = references[submission.notebook]
        if isinstance(course, str):
            marks.append(Mark(student=submission.student, notebook=submission.notebook,
                              submission=str(submission.path), status="grader error",
                              detail=course))
        else:
            marks.append(mark(submission, course, timeout=timeout, cell_timeout=cell_timeout,
                              kernel_name=kernel_name, hidden=hidden, sandbox=use_sandbox))
        # Written after each notebook, so an interrupted batch keeps what it marked.
        write_gradebook(marks, out / "gradebook.csv")
    _progress(len(found), len(found), "done", progress)
    courses = {name: c for name, c in references.items() if not isinstance(c, str)}
    write_gradebook(marks, out / "gradebook.csv")
    write_import(marks, courses, out, fmt)
    write_feedback(marks, courses, out / "feedback", full=feedback == "full")
    write_assignments(marks, out / "assignments")
    return marks

# --- command line -------------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``evalkit grade``."""
    parser.add_argument("submissions", type=Path,
                        help="folder of submitted notebooks (one folder per student, or files "
                             "named after students)")
    parser.add_argument("--course", type=Path, default=Path("notebooks"),
                        help="folder of the teacher's notebooks (default: notebooks)")
    parser.add_argument("--out", type=Path, default=Path("build/grades"),
                        help="where the gradebooks and feedback/ go (default: build/grades)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help=f"seconds allowed per notebook (default: {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--cell-timeout", type=float, default=DEFAULT_CELL_TIMEOUT,
                        help=f"seconds allowed per cell (default: {DEFAULT_CELL_TIMEOUT:g})")
    parser.add_argument("--format", choices=FORMATS, default="csv", dest="fmt",
                        help="gradebook to import: csv (gradebook-wide.csv), canvas or moodle "
                             "(default: csv); gradebook.csv, the detailed one, is always written")
    parser.add_argument("--feedback", choices=FEEDBACK, default="hints",
                        help="what feedback/ shows of a wrong answer: hints (default) or full "
                             "(also the expected value)")
    parser.add_argument("--sandbox", choices=SANDBOXES, default="auto",
                        help="run each kernel under bubblewrap: auto (when it works; default), "
                             "bwrap (required) or none. See README, 'For lecturers: marking a "
                             "class', for what it protects")
    parser.add_argument("--cache", type=Path, default=None,
                        help="where reference values are kept between runs (default: "
                             "~/.cache/evalkit/grader)")
    parser.add_argument("--kernel", default=None,
                        help="Jupyter kernel to run in (default: the course notebook's)")


def run(args: argparse.Namespace) -> int:
    """Run ``evalkit grade`` with parsed arguments; 0 when every submission was marked."""
    try:
        import nbclient  # noqa: F401
    except ImportError:
        print("evalkit grade needs nbclient: pip install 'evalkit[course]'", file=sys.stderr)
        return 2
    try:
        marks = grade(args.submissions, course_dir=args.course, out=args.out,
                      timeout=args.timeout, cell_timeout=args.cell_timeout,
                      kernel_name=args.kernel, cache=args.cache, fmt=args.fmt,
                      feedback=args.feedback, sandbox=args.sandbox)
    except (ValueError, RuntimeError) as error:
        print(f"evalkit grade: {error}", file=sys.stderr)
        return 2
    counts: dict[str, int] = {}
    for result in marks:
        counts[result.status] = counts.get(result.status, 0) + 1
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    print(f"{len(marks)} notebooks marked ({summary}): {args.out / 'gradebook.csv'}, "
          f"feedback in {args.out / 'feedback'}{os.sep}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="evalkit grade",
        description="Mark submitted student editions outside the students' kernels.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
