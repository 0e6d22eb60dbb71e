"""What the grader writes: the detailed gradebook (a row per student and notebook, a column
per exercise), a gradebook to import (Canvas, Moodle or a wide CSV) and one Markdown feedback
file per student. Cells a spreadsheet could run as formulas are quoted.
"""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path
from typing import Any

from ._check_cells import CourseNotebook
from ._marking import ERROR, WRONG, Mark

__all__ = ["write_gradebook", "write_import", "write_feedback", "write_assignments"]


def write_gradebook(marks: list[Mark], path: Path) -> None:
    """The detailed gradebook: one row per student and notebook, a column per exercise, and a
    "marked by hand" column per assignment (to mark, with its length, or not answered: the
    total counts the exercises only)."""
    exercises: list[str] = []
    assignments: list[str] = []
    for result in marks:
        exercises += [name for name in result.verdicts if name not in exercises]
        assignments += [name for name in result.assignments if name not in assignments]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "notebook", "status", *exercises,
                         *(f"{name} (marked by hand)" for name in assignments), "total",
                         "out_of", "changed_checks", "detail", "submission"])
        for result in marks:
            writer.writerow([_cell_text(v) for v in (
                result.student, result.notebook, result.status,
                *(result.verdicts.get(name, "") for name in exercises),
                *(result.assignments.get(name, ("", ""))[0] for name in assignments),
                result.total, len(result.verdicts), " ".join(result.changed_checks),
                result.detail, result.submission)])


def write_assignments(marks: list[Mark], folder: Path) -> list[Path]:
    """Each answered assignment as ``<folder>/<notebook>/<student>.md``, for the lecturer to
    mark by hand (the student's text as written: markdown, and code in fences)."""
    if folder.exists():
        shutil.rmtree(folder)
    written = []
    for result in marks:
        for name, (status, text) in result.assignments.items():
            if not status.startswith("to mark"):
                continue
            target = folder / _safe(Path(result.notebook).stem) / f"{_safe(result.student)}.md"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(f"<!-- {result.student}: {name}, from {result.submission} -->\n\n"
                              f"{text}\n", encoding="utf-8")
            written.append(target)
    return written


def _cell_text(value: Any) -> Any:
    """A spreadsheet cell that cannot run as a formula (a student chooses folder names)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _points(marks: list[Mark], courses: dict[str, CourseNotebook]) -> tuple[
        list[str], dict[str, dict[str, int]], dict[str, int]]:
    """Students (in order), their points per notebook (the best submission of each), and
    each notebook's points possible."""
    notebooks = sorted(courses)
    possible = {name: len(courses[name].checks) for name in notebooks}
    students: list[str] = []
    points: dict[str, dict[str, int]] = {}
    for result in marks:
        if result.student not in points:
            students.append(result.student)
            points[result.student] = {}
        if result.notebook in possible:
            best = points[result.student].get(result.notebook, 0)
            points[result.student][result.notebook] = max(best, result.total)
    return students, points, possible


def write_import(marks: list[Mark], courses: dict[str, CourseNotebook], out: Path,
                 fmt: str) -> Path:
    """A gradebook to import, one row per student and a column per notebook (points: the
    exercises correct). ``canvas``: Canvas's gradebook CSV (Student, ID, SIS User ID, SIS
    Login ID, Section, one column per assignment, a "Points Possible" row); ``moodle``:
    Moodle's grade import CSV (an identifier column to map to the username, a column per
    grade item); ``csv``: student, a column per notebook, total and out of."""
    students, points, possible = _points(marks, courses)
    notebooks = list(possible)
    titles = [Path(name).stem for name in notebooks]
    # The assignments are marked by hand: an empty column each, to fill in (Canvas: with its
    # points possible), after the notebooks' columns.
    by_hand = [(Path(name).stem, a) for name in notebooks for a in courses[name].assignments]
    hand_titles = [f"{stem}: {a.name} (marked by hand)" for stem, a in by_hand]
    blanks = [""] * len(by_hand)
    name = {"canvas": "gradebook-canvas.csv", "moodle": "gradebook-moodle.csv",
            "csv": "gradebook-wide.csv"}[fmt]
    path = out / name
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        if fmt == "canvas":
            writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                             *titles, *hand_titles])
            writer.writerow(["    Points Possible", "", "", "", "",
                             *(possible[n] for n in notebooks), *(a.points for _, a in by_hand)])
            for student in students:
                writer.writerow([_cell_text(student), "", "", _cell_text(student), "",
                                 *(points[student].get(n, 0) for n in notebooks), *blanks])
        elif fmt == "moodle":
            writer.writerow(["Username", *titles, *hand_titles])
            for student in students:
                writer.writerow([_cell_text(student),
                                 *(points[student].get(n, 0) for n in notebooks), *blanks])
        else:
            writer.writerow(["student", *titles, "total", "out_of", *hand_titles])
            for student in students:
                row = [points[student].get(n, 0) for n in notebooks]
                writer.writerow([_cell_text(student), *row, sum(row), sum(possible.values()),
                                 *blanks])
    return path


def _safe(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", name).strip("._") or "student"


_STATUS_TEXT = {
    "raised": "A cell raised an error; the cells after it still ran",
    "timed out": "The notebook ran over its time limit and was stopped; the answers given "
                 "before that count",
    "kernel died": "The notebook's kernel died; the answers given before that count",
    "not a notebook": "The file is not a notebook the grader can read",
    "grader error": "The grader could not run the notebook; tell your lecturer",
    "unreadable": "The notebook stopped the grader from reading its answers at some point; "
                  "the answers read before that count",
}


def write_feedback(marks: list[Mark], references: dict[str, CourseNotebook], folder: Path,
                   *, full: bool = False) -> None:
    """One Markdown file per student: each notebook's verdicts and each wrong answer's hint;
    ``full`` also says what was expected (hints only by default: the answers stay hidden)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    by_student: dict[str, list[Mark]] = {}
    for result in marks:
        by_student.setdefault(result.student, []).append(result)
    for student, results in by_student.items():
        lines = [f"# Feedback for {student}", ""]
        for result in results:
            lines.append(f"## {result.notebook or Path(result.submission).name}: "
                         f"{result.total} of {len(result.verdicts)} correct")
            lines.append("")
            if result.status != "ok":
                lines += [_STATUS_TEXT.get(result.status, result.status)
                          + (f" ({result.detail})" if result.detail else "") + ".", ""]
            course = references.get(result.notebook)
            checks = {c.name: c for c in course.checks} if course else {}
            for name, outcome in result.verdicts.items():
                line = f"- {name}: {outcome}"
                if outcome == WRONG:
                    if full:
                        note = result.notes.get(name)
                        line += f" — {note}" if note else ""
                    elif name in result.given:
                        line += f" (your answer: {result.given[name]})"
                    hint = checks[name].hint if name in checks else None
                    line += f". Hint: {hint}" if hint else ""
                elif outcome == ERROR and result.notes.get(name):
                    line += f" — {result.notes[name]}"
                lines.append(line)
            for name, (status, _) in result.assignments.items():
                lines.append(f"- {name}: " + (
                    "your answer was collected; your lecturer marks it by hand with the rubric"
                    if status.startswith("to mark") else "not answered (marked by hand)"))
            if result.changed_checks:
                lines += ["", "Check cells changed from the course's (they do not count; the "
                          f"grader checks your answers itself): {', '.join(result.changed_checks)}"]
            lines.append("")
        (folder / f"{_safe(student)}.md").write_text("\n".join(lines), encoding="utf-8")
