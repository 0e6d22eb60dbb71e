"""The check cells of a notebook, read as source: the teacher's ``check(name, answer,
expected, ...)`` calls (what the grader marks and ``make student`` rewrites), and whether a
submission's check cells are still the course's (the teacher's or the student edition's form).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._assignments import Assignment

__all__ = ["Check", "CourseNotebook", "check_calls", "parse_checks", "changed_checks"]


@dataclass
class Check:
    """One ``ek.check`` call of a teacher's check cell."""

    name: str
    value_source: str  # the answer expression, evaluated in the student's kernel
    cell_id: str | None
    cell_source: str
    hidden: bool = False  # tagged "hidden": no self-check in the student edition
    expected: Any = None
    tol: float = 1e-9
    hint: str | None = None


@dataclass
class CourseNotebook:
    path: Path
    checks: list[Check] = field(default_factory=list)
    kernel_name: str = "python3"
    assignments: list[Assignment] = field(default_factory=list)  # marked by hand
    cell_ids: set[str] = field(default_factory=set)

    @property
    def name(self) -> str:
        return self.path.name


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _normalised(source: str) -> str:
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


def _is_check_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "check") or (
        isinstance(func, ast.Name) and func.id == "check")


def check_calls(source: str) -> list[tuple[str, str, str]]:
    """The ``check(name, value, ...)`` calls of a cell's source whose name is a string
    literal, in order: ``(name, answer expression, function expression)`` each (none when
    the source is not Python). The grader reads the teacher's checks with it, and
    ``make student`` finds the check cells it rewrites."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [(node.args[0].value, ast.unparse(node.args[1]), ast.unparse(node.func))
            for node in ast.walk(tree)
            if _is_check_call(node) and len(node.args) >= 2
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)]


def parse_checks(notebook: dict) -> list[Check]:
    """The ``ek.check(name, value, expected, ...)`` calls of a notebook's code cells, in order.

    Only calls whose name is a string literal count (the course's check cells all are).
    """
    checks: list[Check] = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        source = _source(cell)
        hidden = "hidden" in cell.get("metadata", {}).get("tags", [])
        checks += [Check(name=name, value_source=value, cell_id=cell.get("id"),
                         cell_source=source, hidden=hidden)
                   for name, value, _ in check_calls(source)]
    names = [check.name for check in checks]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"the teacher's notebook checks {', '.join(duplicates)} more than once; "
                         "each exercise needs a check of its own")
    return checks


def _student_check_calls(source: str) -> list[tuple[str, str]] | None:
    """``[(name, answer expression)]`` when ``source`` is a student-edition check cell (only
    comments, ``from evalkit.checks import AnswerDigest`` and ``check(name, answer,
    AnswerDigest(...) or AnswerDigest.hidden(), hint=...)`` calls); otherwise None."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    calls = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module in ("evalkit", "evalkit.checks"):
            continue
        if not (isinstance(node, ast.Expr) and _is_check_call(node.value)
                and len(node.value.args) == 3 and isinstance(node.value.args[0], ast.Constant)):
            return None
        expected = node.value.args[2]
        target = expected.func if isinstance(expected, ast.Call) else None
        if isinstance(target, ast.Attribute) and target.attr == "hidden":
            target = target.value
        name = (target.attr if isinstance(target, ast.Attribute)
                else target.id if isinstance(target, ast.Name) else None)
        if name != "AnswerDigest" or any(not isinstance(a, ast.Constant) for a in expected.args):
            return None
        if any(k.arg not in ("hint", "tol") or not isinstance(k.value, ast.Constant)
               for k in node.value.keywords):
            return None
        calls.append((node.value.args[0].value, ast.unparse(node.value.args[1])))
    return calls


def changed_checks(submission: dict, course: CourseNotebook) -> list[str]:
    """Names of the checks whose cell in the submission differs from the course's: the
    teacher's cell, or the student edition's form of it (the same calls, the expected value as
    an answer digest). Cells are matched by id, or by identical source when the id is gone."""
    cells = [cell for cell in submission.get("cells", []) if isinstance(cell, dict)]
    by_id = {cell.get("id"): _source(cell) for cell in cells if cell.get("id")}
    sources = {_normalised(_source(cell)) for cell in cells}
    student_calls = [_student_check_calls(_source(cell)) for cell in cells]
    teacher_calls: dict[str | None, list[tuple[str, str]]] = {}
    for check in course.checks:
        teacher_calls.setdefault(check.cell_id, []).append((check.name, check.value_source))
    changed = []
    for check in course.checks:
        teacher = _normalised(check.cell_source)
        mine = by_id.get(check.cell_id)
        if mine is None:
            if teacher in sources or teacher_calls[check.cell_id] in student_calls:
                continue
        elif (_normalised(mine) == teacher
              or _student_check_calls(mine) == teacher_calls[check.cell_id]):
            continue
        changed.append(check.name)
    return changed
