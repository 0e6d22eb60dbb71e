"""A part's open-ended assignment: the course marks it by hand, so the grader only collects it.

The last notebook of each part ends with an assignment: a prompt and a rubric (markdown cells
tagged ``assignment``) and one answer cell (markdown, tagged ``assignment-answer``, with
``{"assignment": {"name": ..., "points": ...}}`` in its metadata). For each submission the
grader takes the answer cell (found by its id, else by its tag) and the cells the student added
after it, says whether it was answered (its text differs from the course's placeholder), and
writes the answer out for the lecturer; the gradebook gets a "marked by hand" column for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ANSWER_TAG", "SECTION_TAG", "Assignment", "parse_assignments", "collect",
           "TO_MARK", "NOT_ANSWERED"]

SECTION_TAG = "assignment"
ANSWER_TAG = "assignment-answer"
TO_MARK = "to mark"
NOT_ANSWERED = "not answered"


@dataclass
class Assignment:
    """One assignment of a teacher's notebook."""

    name: str
    cell_id: str | None
    placeholder: str
    points: int = 0

    @property
    def column(self) -> str:
        return f"{self.name} (marked by hand)"


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _tags(cell: dict) -> list:
    metadata = cell.get("metadata")
    tags = metadata.get("tags", []) if isinstance(metadata, dict) else []
    return tags if isinstance(tags, list) else []


def _normalised(text: str) -> str:
    return " ".join(text.split())


def parse_assignments(notebook: dict) -> list[Assignment]:
    """The assignments of a teacher's notebook, in order. Raises ``ValueError`` when an answer
    cell has no name or two share one."""
    found = []
    for index, cell in enumerate(notebook.get("cells", [])):
        if ANSWER_TAG not in _tags(cell):
            continue
        meta = cell.get("metadata", {}).get("assignment", {})
        name = meta.get("name") if isinstance(meta, dict) else None
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"cell {index}: an {ANSWER_TAG!r} cell needs "
                             "metadata {'assignment': {'name': ..., 'points': ...}}")
        points = meta.get("points", 0)
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise ValueError(f"cell {index}: the assignment's points must be a whole number "
                             f">= 0, got {points!r}")
        found.append(Assignment(name=name.strip(), cell_id=cell.get("id"),
                                placeholder=_source(cell), points=points))
    names = [a.name for a in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"the notebook has two assignments named {', '.join(twice)}")
    return found


def collect(submission: dict, assignments: list[Assignment],
            course_ids: set[str]) -> dict[str, tuple[str, str]]:
    """Each assignment's ``(status, text)`` in a submission: the answer cell's text and that of
    every cell the student added after it (cells whose id the course does not have), up to the
    next cell of the course. ``status`` is ``"to mark (N words)"``, or ``"not answered"`` when
    the text is empty or still the course's placeholder."""
    cells = [c for c in submission.get("cells", []) if isinstance(c, dict)]
    result = {}
    for assignment in assignments:
        start = next((i for i, c in enumerate(cells)
                      if assignment.cell_id and c.get("id") == assignment.cell_id), None)
        if start is None:
            start = next((i for i, c in enumerate(cells) if ANSWER_TAG in _tags(c)
                          and c.get("metadata", {}).get("assignment", {}).get("name")
                          == assignment.name), None)
        if start is None:
            result[assignment.name] = (NOT_ANSWERED, "")
            continue
        parts = [_source(cells[start])]
        words = len(re.findall(r"\w+", parts[0]))
        for cell in cells[start + 1:]:
            if cell.get("id") in course_ids:
                break
            text = _source(cell)
            if text.strip():
                words += len(re.findall(r"\w+", text))
                parts.append(f"```python\n{text}\n```" if cell.get("cell_type") == "code"
                             else text)
        text = "\n\n".join(p for p in parts if p.strip())
        answered = bool(text.strip()) and _normalised(text) != _normalised(
            assignment.placeholder)
        result[assignment.name] = ((f"{TO_MARK} ({words} words)", text) if answered
                                   else (NOT_ANSWERED, text))
    return result
