"""The ``evalkit`` command line (also ``python -m evalkit``).

- ``evalkit trec_eval [-q] [-c] [-n] [-l N] [-m MEASURE]... [--trec-eval-version V] QRELS
  RUN``: trec_eval's options, measure names and output lines (10.0 or 9.0.8), computed by
  :func:`evalkit.evaluate`
  (see :mod:`evalkit.trec._command`).
- ``evalkit --version``: evalkit's own version (``--trec-eval-version`` of ``trec_eval`` picks
  the trec_eval being imitated).
- ``evalkit notebooks DIR [--teacher]``: the course's notebooks written into ``DIR``, the
  student edition by default (``evalkit.course._editions``).
- ``evalkit grade ...``: marks submitted student editions (:mod:`evalkit.course.grading`, imported
  only when this subcommand is asked for).

Every error is one line on stderr and a non-zero exit code; success exits 0. Each subcommand
imports only what it needs: ``evalkit --version`` and ``evalkit notebooks`` load neither the
TREC engine nor pandas (``import evalkit`` itself loads nothing, see ``evalkit/__init__.py``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ._lazy import version_action

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr (exit code 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser(grading: object | None = None, *,
                 trec_eval_options: bool = True) -> argparse.ArgumentParser:
    """The parser; ``grading`` is the :mod:`evalkit.course.grading` module when ``grade`` is run.

    With ``trec_eval_options=False`` the ``trec_eval`` subcommand is listed but has no options
    (what ``main`` builds when the command line does not name it: the TREC engine, numpy and
    pandas are then not imported).
    """
    parser = _Parser(prog="evalkit", description="evalkit's command line.")
    parser.add_argument("--version", action=version_action(_version_text),
                        help="print evalkit's version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    trec_eval_help = "trec_eval's command line and output, on evalkit's measures"
    if trec_eval_options:
        from .trec._command import add_arguments, help_text, run

        trec_eval = commands.add_parser(
            "trec_eval", help=trec_eval_help,
            description="Score a TREC run against TREC qrels as NIST's trec_eval does: the "
                        "same options, measure names and output, byte for byte (trec_eval "
                        "10.0 by default, 9.0.8 with --trec-eval-version 9.0.8), failing "
                        "where trec_eval fails.",
            epilog=help_text(), formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        add_arguments(trec_eval)
        trec_eval.set_defaults(handler=run)
    else:
        commands.add_parser("trec_eval", help=trec_eval_help)
    notebooks = commands.add_parser(
        "notebooks", help="write the course's notebooks into a folder (student edition)",
        description="Write the course's notebooks into DIR: the student edition (exercises "
                    "to do, answers checked against salted digests, no outputs) or, with "
                    "--teacher, the full notebooks with solutions and outputs. A notebook you "
                    "changed since it was written is never overwritten.",
    )
    notebooks.add_argument("out", metavar="DIR", help="the folder to write into (created)")
    notebooks.add_argument("--teacher", action="store_true",
                           help="the full notebooks (solutions and outputs), not the student "
                                "edition")
    notebooks.set_defaults(handler=_write_notebooks)
    grade = commands.add_parser(
        "grade", help="mark submitted student editions outside the students' kernels",
        description="Mark submitted student notebooks (see README, 'For lecturers').",
    )
    if grading is not None:
        grading.add_arguments(grade)  # type: ignore[attr-defined]
        grade.set_defaults(handler=grading.run)  # type: ignore[attr-defined]
    return parser


def _version_text() -> str:
    from ._version import find_version

    return f"evalkit {find_version()}"


def _write_notebooks(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .course._editions import report_lines, write_course

    edition = "teacher's edition" if args.teacher else "student edition"
    try:
        report = write_course(Path(args.out), teacher=args.teacher)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"evalkit notebooks: {error}\n")
        return 1
    print(f"The course's {edition} in {args.out}: {len(report['written'])} written, "
          f"{len(report['unchanged'])} unchanged.")
    for line in report_lines(report):
        print(line)
    return 0


def _load_grading() -> object | None:
    try:
        return importlib.import_module("evalkit.course.grading")
    except ModuleNotFoundError as error:
        if error.name != "evalkit.course.grading":
            raise
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    grading = None
    if argv[:1] == ["grade"]:
        grading = _load_grading()
        if grading is None:
            sys.stderr.write("evalkit grade: the grader (evalkit.course.grading) is not in this "
                             "copy of evalkit\n")
            return 2
    parser = build_parser(grading, trec_eval_options="trec_eval" in argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help (0) or a usage error (2, already printed)
        return int(done.code or 0)
    return int(args.handler(args))
