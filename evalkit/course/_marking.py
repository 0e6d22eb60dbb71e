"""Marking one submission: run on a temporary copy (sandboxed when asked), its answers read
out of the kernel and compared with the teacher's values in the grader's own process, by
:func:`evalkit.check`'s rule (correct / wrong / not answered / error per exercise).
"""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._answers import _compare, _is_placeholder, _show
from ._assignments import NOT_ANSWERED as ASSIGNMENT_NOT_ANSWERED
from ._assignments import collect
from ._check_cells import CourseNotebook, changed_checks
from ._kernel import DEFAULT_CELL_TIMEOUT, RunResult, decode, run_notebook
from ._sandbox import _sandbox_prefix
from ._submissions import Submission

__all__ = ["CORRECT", "WRONG", "NOT_ANSWERED", "ERROR", "Mark", "verdict", "mark"]


CORRECT, WRONG, NOT_ANSWERED, ERROR = "correct", "wrong", "not answered", "error"


def verdict(value: Any, expected: Any, tol: float) -> str:
    """correct / wrong / not answered, by :func:`evalkit.check`'s rule."""
    if _is_placeholder(value):
        return NOT_ANSWERED
    try:
        return CORRECT if _compare(value, expected, tol) is None else WRONG
    except Exception:  # a value that cannot even be compared is not the right one
        return WRONG


@dataclass
class Mark:
    student: str
    notebook: str
    submission: str
    status: str
    detail: str = ""
    verdicts: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # why wrong / error, per exercise
    given: dict[str, str] = field(default_factory=dict)  # the answer as shown, per exercise
    changed_checks: list[str] = field(default_factory=list)
    # the assignments marked by hand: name -> ("to mark (N words)" or "not answered", text)
    assignments: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(v == CORRECT for v in self.verdicts.values())


def mark(submission: Submission, course: CourseNotebook, *, timeout: float,
         cell_timeout: float = DEFAULT_CELL_TIMEOUT, kernel_name: str | None = None,
         hidden: list[Path] | None = None, sandbox: bool = False) -> Mark:
    """Run one submission on a temporary copy and mark its answers against ``course``.

    ``sandbox``: run the kernel under bubblewrap with the folders ``hidden`` out of its
    sight (:func:`_sandbox_prefix`)."""
    result = Mark(student=submission.student, notebook=course.name,
                  submission=str(submission.path), status="ok")
    unread = dict.fromkeys((check.name for check in course.checks), ERROR)
    try:
        text = submission.path.read_text(encoding="utf-8")
        notebook = json.loads(text)
        if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
            raise ValueError("no cells")
        import nbformat

        nbformat.validate(nbformat.from_dict(copy.deepcopy(notebook)), relax_add_props=True)
    except Exception as error:  # noqa: BLE001 - anything unreadable is reported, not raised
        result.status = "not a notebook"
        first = str(error).splitlines()[0] if str(error) else ""
        result.detail = f"{type(error).__name__}: {first}"[:300]
        result.verdicts = unread
        result.assignments = {a.name: (ASSIGNMENT_NOT_ANSWERED, "") for a in course.assignments}
        return result
    result.changed_checks = changed_checks(notebook, course)
    result.assignments = collect(notebook, course.assignments, course.cell_ids)
    expressions = [(check.name, check.value_source) for check in course.checks]
    with tempfile.TemporaryDirectory(prefix="evalkit-grade-") as tmp:
        workdir = Path(tmp) / "work"
        workdir.mkdir()
        shutil.copyfile(submission.path, workdir / course.name)  # it may look for its file
        prefix = _sandbox_prefix(workdir, hidden or []) if sandbox else None
        # The kernel is the course notebook's: a submission's metadata does not choose it.
        try:
            run = run_notebook(notebook, workdir, timeout=timeout, cell_timeout=cell_timeout,
                               expressions=expressions, sandbox=prefix,
                               kernel_name=kernel_name or course.kernel_name)
        except Exception as error:  # noqa: BLE001 - one submission never stops the batch
            run = RunResult(status="grader error",
                            detail=f"{type(error).__name__}: {error}"[:300])
    result.status, result.detail = run.status, run.detail
    for check in course.checks:
        answer = run.answers.get(check.name, {"error": "not read"})
        if "value" not in answer:
            result.verdicts[check.name] = ERROR
            result.notes[check.name] = answer.get("error", "")
            continue
        try:
            value = decode(answer["value"])
        except (KeyError, ValueError, TypeError) as error:
            result.verdicts[check.name], result.notes[check.name] = ERROR, str(error)
            continue
        result.verdicts[check.name] = verdict(value, check.expected, check.tol)
        result.given[check.name] = _show(value)
        if result.verdicts[check.name] == WRONG:
            result.notes[check.name] = _compare(value, check.expected, check.tol) or ""
    return result
