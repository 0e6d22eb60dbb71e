"""Mark the student edition outside the student's kernel: ``evalkit grade`` / ``make grade``.

    python -m evalkit.grading SUBMISSIONS [--course notebooks] [--out build/grades]
                              [--timeout 300]

Every ``*.ipynb`` under ``SUBMISSIONS`` is a submission, in any layout: one folder per student
(``alice/02-precision-and-recall.ipynb``) or files named after students
(``alice_02-precision-and-recall.ipynb``). Each is matched to its course notebook by file name
(also the names a notebook had before the course was renumbered, ``formerly`` in
``notebooks/course.toml``), failing that by the cell ids the student edition keeps.

How a submission is marked. From nbgrader's autograder: the check cells are compared with the
teacher's (nbgrader checksums its locked cells) and the run happens on a copy with a time
limit. From otter-grader: the answers are read out of the executed notebook's variables, not
from what the notebook printed. Unlike both, the reference values come from running the
teacher's notebook, so no test files need writing:

1. The teacher's notebook runs once, in a kernel of its own, with ``evalkit.check`` wrapped so
   that every check records what it compares against: the expected value, the tolerance and
   the hint. These are the reference values (cached on disk by the notebook's digest).
2. The submission is copied into a temporary folder and run there, top to bottom, in a fresh
   kernel (nbclient); the submission itself is never opened for writing. A cell that raises
   is reported and the run goes on; the whole notebook has a time limit; a kernel that dies is
   reported.
3. Then one more cell, written by the grader, evaluates each check's answer expression (the
   second argument of ``ek.check`` in the teacher's check cell, e.g. ``answer_1``) in the
   student's kernel and prints the values as plain data (numbers, text, tuples, arrays)
   between two copies of a random nonce. Only that cell's output is read, and only between
   the nonces.
4. The grader compares the values with the teacher's in its own process, with each check's
   tolerance (:func:`evalkit.check`'s rule). Nothing the student's kernel prints, no
   redefinition of ``ek.check``, no edited check cell and no file it writes takes part: an
   answer is correct only when its value is. Check cells whose source differs from the
   teacher's are reported as changed.

Results: ``<out>/gradebook.csv`` (one row per student and notebook: the run's status, one
column per exercise with correct / wrong / not answered / error, the total) and
``<out>/feedback/<student>.md`` (each notebook's verdicts and the hint of each wrong answer).

What it does not protect against: the student's code runs on the marker's machine with the
marker's rights (run the grader in a container or under an account of its own), and an answer
typed in as a constant, or copied, is marked like a computed one.
"""

from __future__ import annotations

import argparse
import ast
import base64
import copy
import csv
import hashlib
import inspect
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._answers import _compare, _is_placeholder

__all__ = ["add_arguments", "run", "main", "grade"]

CORRECT, WRONG, NOT_ANSWERED, ERROR = "correct", "wrong", "not answered", "error"
DEFAULT_TIMEOUT = 300.0  # seconds per notebook
STARTUP_TIMEOUT = 120  # a kernel can take a minute or two to start on a busy machine
_READ_TIMEOUT = 60  # seconds for the grader's own read-out cell
_CACHE_VERSION = 1


# --- what the teacher's notebook checks ---------------------------------------------------

@dataclass
class Check:
    """One ``ek.check`` call of a teacher's check cell."""

    name: str
    value_source: str  # the answer expression, evaluated in the student's kernel
    cell_id: str | None
    cell_source: str
    expected: Any = None
    tol: float = 1e-9
    hint: str | None = None


@dataclass
class CourseNotebook:
    path: Path
    checks: list[Check] = field(default_factory=list)
    kernel_name: str = "python3"

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


def parse_checks(notebook: dict) -> list[Check]:
    """The ``ek.check(name, value, expected, ...)`` calls of a notebook's code cells, in order.

    Only calls whose name is a string literal count (the course's check cells all are).
    """
    checks: list[Check] = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        source = _source(cell)
        if "check(" not in source:
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if (_is_check_call(node) and len(node.args) >= 2
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                checks.append(Check(name=node.args[0].value,
                                    value_source=ast.unparse(node.args[1]),
                                    cell_id=cell.get("id"), cell_source=source))
    names = [check.name for check in checks]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"the teacher's notebook checks {', '.join(duplicates)} more than once; "
                         "each exercise needs a check of its own")
    return checks


# --- values across the kernel boundary ------------------------------------------------------

# Runs in a kernel: turns values into tagged plain data, so that what the grader compares is
# numbers, text and containers of them, never an object of the student's making (whose
# ``__eq__`` could say anything).
_ENCODER = r'''
def __evalkit_encode(value, depth=0):
    import numbers
    if depth > 30:
        raise ValueError("nested too deeply")
    if value is Ellipsis:
        return {"t": "ellipsis"}
    if (value is NotImplemented or value is NotImplementedError
            or isinstance(value, NotImplementedError)):
        return {"t": "notimplemented"}
    if value is None or type(value) in (bool, str):
        return {"t": "plain", "v": value}
    try:
        import numpy as np
    except Exception:
        np = None
    if np is not None:
        if isinstance(value, np.generic):
            return __evalkit_encode(value.item(), depth + 1)
        if isinstance(value, np.ndarray):
            if value.dtype.kind in "biuf":
                kind = "bool" if value.dtype.kind == "b" else "float64"
                data = np.ascontiguousarray(value, dtype=kind)
                import base64
                return {"t": "array", "dtype": kind, "shape": list(data.shape),
                        "v": base64.b64encode(data.tobytes()).decode("ascii")}
            return {"t": "list",
                    "v": [__evalkit_encode(part, depth + 1) for part in value.tolist()]}
    module = type(value).__module__ or ""
    if module.startswith("pandas") and hasattr(value, "to_numpy"):
        return __evalkit_encode(value.to_numpy(), depth + 1)
    if isinstance(value, bool):
        return {"t": "plain", "v": bool(value)}
    if isinstance(value, numbers.Integral):
        return {"t": "int", "v": str(int(value))}
    if isinstance(value, numbers.Real):
        return {"t": "float", "v": float.hex(float(value))}
    if isinstance(value, str):
        return {"t": "plain", "v": str.__str__(value)}
    for kind, types in (("tuple", tuple), ("list", list), ("set", (set, frozenset))):
        if isinstance(value, types):
            return {"t": kind, "v": [__evalkit_encode(part, depth + 1) for part in value]}
    if isinstance(value, dict):
        return {"t": "dict",
                "v": [[__evalkit_encode(k, depth + 1), __evalkit_encode(v, depth + 1)]
                      for k, v in value.items()]}
    raise TypeError(f"a {type(value).__name__} cannot be marked "
                    "(use numbers, text, tuples, lists or arrays)")
'''

_READER = r'''
def __evalkit_read(expressions, nonce):
    import builtins, json
    answers = {}
    for name, expression in expressions:
        try:
            answers[name] = {"value": __evalkit_encode(eval(expression, globals()))}
        except BaseException as error:
            answers[name] = {"error": f"{type(error).__name__}: {error}"[:300]}
    builtins.print(nonce + json.dumps(answers) + nonce)
'''

_RECORDER = r'''
import evalkit as __evalkit_module
__evalkit_records = []
__evalkit_original_check = __evalkit_module.check
def __evalkit_recording_check(name, value, expected, *, tol=1e-9, hint=None):
    __evalkit_records.append((name, expected, tol, hint))
    return __evalkit_original_check(name, value, expected, tol=tol, hint=hint)
__evalkit_module.check = __evalkit_recording_check
'''

_RECORDS_READER = r'''
def __evalkit_read_records(nonce):
    import json
    out = []
    for name, expected, tol, hint in __evalkit_records:
        try:
            out.append({"name": name, "expected": __evalkit_encode(expected), "tol": float(tol),
                        "hint": hint if isinstance(hint, str) else None})
        except BaseException as error:
            out.append({"name": name, "error": f"{type(error).__name__}: {error}"})
    print(nonce + json.dumps(out) + nonce)
'''


def decode(data: Any) -> Any:
    """A value from the tagged plain data the kernel printed (the grader's side)."""
    import numpy as np

    kind = data["t"]
    if kind == "ellipsis":
        return Ellipsis
    if kind == "notimplemented":
        return NotImplemented
    if kind == "plain":
        return data["v"]
    if kind == "int":
        return int(data["v"])
    if kind == "float":
        return float.fromhex(data["v"])
    if kind == "array":
        raw = base64.b64decode(data["v"])
        return np.frombuffer(raw, dtype=data["dtype"]).reshape(data["shape"]).copy()
    if kind == "tuple":
        return tuple(decode(part) for part in data["v"])
    if kind == "list":
        return [decode(part) for part in data["v"]]
    if kind == "set":
        return {decode(part) for part in data["v"]}
    if kind == "dict":
        return {decode(key): decode(value) for key, value in data["v"]}
    raise ValueError(f"unknown value tag {kind!r}")


def verdict(value: Any, expected: Any, tol: float) -> str:
    """correct / wrong / not answered, by :func:`evalkit.check`'s rule."""
    if _is_placeholder(value):
        return NOT_ANSWERED
    try:
        return CORRECT if _compare(value, expected, tol) is None else WRONG
    except Exception:  # a value that cannot even be compared is not the right one
        return WRONG


# --- running a notebook -----------------------------------------------------------------------

@dataclass
class RunResult:
    status: str = "ok"  # ok / raised / timed out / kernel died / not a notebook / ...
    detail: str = ""
    printed: dict | list | None = None  # what the read-out cell printed between the nonces


def _read_out(client: Any, cell: Any, nonce: str, index: int, timeout: float) -> Any:
    previous = client.timeout
    client.timeout = int(max(timeout, 1))
    try:
        client.execute_cell(cell, index)
    finally:
        client.timeout = previous
    text = "".join(output.get("text", "") for output in cell.outputs
                   if output.get("output_type") == "stream")
    match = re.search(re.escape(nonce) + r"(.*?)" + re.escape(nonce), text, re.DOTALL)
    if match is None:
        raise RuntimeError("the answers could not be read out of the kernel")
    return json.loads(match.group(1))


def _interrupt(kernel_manager: Any) -> None:
    """Interrupt the kernel (nbclient's kernel manager is asynchronous)."""
    outcome = kernel_manager.interrupt_kernel()
    if inspect.isawaitable(outcome):
        from jupyter_core.utils import run_sync

        async def wait() -> None:
            await outcome

        run_sync(wait)()
    time.sleep(1)  # let KeyboardInterrupt reach the running cell


def run_notebook(notebook: dict, workdir: Path, *, timeout: float, before: str = "",
                 after: str = "", kernel_name: str | None = None) -> RunResult:
    """Run ``notebook`` in a fresh kernel in ``workdir`` (cell by cell, within ``timeout``
    seconds in all), then the read-out code ``after`` (which must print the nonce-framed JSON;
    ``after`` is formatted with ``{nonce}``)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    node = nbformat.reads(json.dumps(notebook), as_version=4)  # sources as strings
    # nbclient stores each executed cell back into the notebook at its index: the grader's
    # own cells get places of their own, first and last.
    first = 1 if before else 0
    if before:
        node.cells.insert(0, nbformat.v4.new_code_cell(before))
    node.cells.append(nbformat.v4.new_code_cell(after))
    reader = node.cells[-1]
    name = kernel_name or node.metadata.get("kernelspec", {}).get("name", "python3")
    client = NotebookClient(node, timeout=int(timeout), startup_timeout=STARTUP_TIMEOUT,
                            kernel_name=name, allow_errors=False,
                            resources={"metadata": {"path": str(workdir)}})
    result = RunResult()
    nonce = secrets.token_hex(16)
    index = 0
    try:
        # The kernel's own stderr (ZeroMQ notices, whatever the student writes to fd 2)
        # would garble the progress bar.
        with client.setup_kernel(cwd=str(workdir), stderr=subprocess.DEVNULL):
            client.kc.allow_stdin = False
            deadline = time.monotonic() + timeout  # the kernel's start does not count
            if before:
                client.execute_cell(node.cells[0], 0)
            try:
                for index, cell in enumerate(node.cells[first:-1], start=first):
                    if cell.cell_type != "code":
                        continue
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise CellTimeoutError(f"time limit reached before cell {index}")
                    client.timeout = max(int(left), 1)
                    try:
                        client.execute_cell(cell, index)
                    except CellExecutionError as error:
                        if result.status == "ok":
                            result.status = "raised"
                            result.detail = f"cell {index}: {error.ename}: {error.evalue}"[:300]
            except CellTimeoutError:
                # Stop the loop, then still read what was answered before it.
                result.status = "timed out"
                result.detail = f"over the limit of {timeout:g} s (in cell {index})"
                _interrupt(client.km)
            try:
                reader.source = after.replace("{nonce}", nonce)
                result.printed = _read_out(client, reader, nonce, len(node.cells) - 1,
                                           _READ_TIMEOUT)
            except (CellExecutionError, CellTimeoutError, RuntimeError, ValueError) as error:
                if result.status == "ok":
                    result.status = "unreadable"
                    result.detail = str(error).splitlines()[0][:300]
    except DeadKernelError:
        result.status = "kernel died"
        result.detail = f"in cell {index}"
        result.printed = None
    except RuntimeError as error:  # the kernel did not start, or died while starting
        result.status, result.detail = "kernel died", str(error).splitlines()[0][:300]
        result.printed = None
    return result


# --- the teacher's reference values -------------------------------------------------------------

def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def reference(path: Path, *, timeout: float, cache: Path | None = None,
              kernel_name: str | None = None) -> CourseNotebook:
    """The teacher's notebook's checks with their expected values, tolerances and hints."""
    text = path.read_text(encoding="utf-8")
    notebook = json.loads(text)
    course_notebook = CourseNotebook(
        path=path, checks=parse_checks(notebook),
        kernel_name=notebook.get("metadata", {}).get("kernelspec", {}).get("name", "python3"))
    cache_file = None
    records = None
    if cache is not None:
        cache_file = cache / f"{path.stem}-{_digest(text)}-v{_CACHE_VERSION}.json"
        if cache_file.exists():
            records = json.loads(cache_file.read_text(encoding="utf-8"))
    if records is None:
        # The teacher's notebook is trusted: it runs where it lives.
        result = run_notebook(notebook, path.parent, timeout=timeout, before=_RECORDER,
                              after=_ENCODER + _RECORDS_READER
                              + "\n__evalkit_read_records('{nonce}')\n",
                              kernel_name=kernel_name)
        if result.status != "ok" or not isinstance(result.printed, list):
            raise RuntimeError(f"the teacher's notebook {path} did not run cleanly: "
                               f"{result.status} {result.detail}")
        records = result.printed
        if cache_file is not None:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            cache_file.write_text(json.dumps(records), encoding="utf-8")
    by_name = {record["name"]: record for record in records}
    for check in course_notebook.checks:
        record = by_name.get(check.name)
        if record is None or "error" in record:
            raise RuntimeError(f"the teacher's notebook {path} never ran the check "
                               f"{check.name!r} ({(record or {}).get('error', 'not called')})")
        check.expected = decode(record["expected"])
        check.tol, check.hint = record["tol"], record["hint"]
    return course_notebook


# --- finding submissions -------------------------------------------------------------------------

def former_names(course_dir: Path) -> dict[str, str]:
    """``{earlier file name: current file name}`` from ``course.toml``'s ``formerly`` lists
    (a notebook split in two maps its earlier name to the first of its halves)."""
    course_map = course_dir / "course.toml"
    if not course_map.exists():
        return {}
    renamed: dict[str, str] = {}
    for notebook in tomllib.loads(course_map.read_text(encoding="utf-8")).get("notebook", []):
        for old in notebook.get("formerly", []):
            renamed.setdefault(old, notebook["file"])
    return renamed


@dataclass
class Submission:
    path: Path
    student: str
    notebook: str | None  # the course notebook's file name; None when it matches none


def _student_from_name(stem: str, matched: str) -> str:
    rest = re.sub(re.escape(matched), " ", stem, flags=re.IGNORECASE)
    rest = re.sub(r"\(\d+\)|\bcopy\b", " ", rest, flags=re.IGNORECASE)
    return re.sub(r"[\s_.\-]+", " ", rest).strip().replace(" ", "_")


def find_submissions(folder: Path, course_files: list[str],
                     renamed: dict[str, str] | None = None,
                     cell_ids: dict[str, set[str]] | None = None) -> list[Submission]:
    """Every ``*.ipynb`` under ``folder`` with its student and course notebook.

    The student is the first folder under ``folder`` when there is one, otherwise what is
    left of the file name without the course notebook's name. The course notebook is the one
    whose name (current or earlier, the longest that fits) is in the file name, otherwise the
    one that shares the most cell ids with it (the student edition keeps them).
    """
    names = {Path(name).stem.lower(): name for name in course_files}
    for old, new in (renamed or {}).items():
        names.setdefault(Path(old).stem.lower(), new)
    found = []
    for path in sorted(folder.rglob("*.ipynb")):
        relative = path.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts):  # .ipynb_checkpoints and co
            continue
        stem = path.stem.lower()
        matches = [key for key in names if key in stem]
        key = max(matches, key=len) if matches else None
        notebook = names[key] if key else _match_by_ids(path, cell_ids or {})
        if len(relative.parts) > 1:
            student = relative.parts[0]
        else:
            student = _student_from_name(path.stem, key or "") or path.stem
        found.append(Submission(path=path, student=student, notebook=notebook))
    return found


def _match_by_ids(path: Path, cell_ids: dict[str, set[str]]) -> str | None:
    try:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        ids = {cell.get("id") for cell in cells if isinstance(cell, dict)} - {None}
    except (ValueError, AttributeError, OSError, UnicodeDecodeError):
        return None
    overlap = {name: len(ids & known) for name, known in cell_ids.items()}
    best = max(overlap, key=overlap.get, default=None)
    return best if best is not None and overlap[best] >= 3 else None


# --- marking one submission --------------------------------------------------------------------

@dataclass
class Mark:
    student: str
    notebook: str
    submission: str
    status: str
    detail: str = ""
    verdicts: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # why wrong / error, per exercise
    changed_checks: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(v == CORRECT for v in self.verdicts.values())


def changed_checks(submission: dict, course: CourseNotebook) -> list[str]:
    """Names of the checks whose cell in the submission differs from the teacher's (matched by
    cell id, or by identical source when the id is gone)."""
    cells = [cell for cell in submission.get("cells", []) if isinstance(cell, dict)]
    by_id = {cell.get("id"): _normalised(_source(cell)) for cell in cells if cell.get("id")}
    sources = {_normalised(_source(cell)) for cell in cells}
    changed = []
    for check in course.checks:
        teacher = _normalised(check.cell_source)
        mine = by_id.get(check.cell_id)
        if mine == teacher or (mine is None and teacher in sources):
            continue
        changed.append(check.name)
    return changed


def mark(submission: Submission, course: CourseNotebook, *, timeout: float,
         kernel_name: str | None = None) -> Mark:
    """Run one submission on a temporary copy and mark its answers against ``course``."""
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
        return result
    result.changed_checks = changed_checks(notebook, course)
    expressions = [(check.name, check.value_source) for check in course.checks]
    reader = (_ENCODER + _READER
              + f"\n__evalkit_read({expressions!r}, '{{nonce}}')\n")
    with tempfile.TemporaryDirectory(prefix="evalkit-grade-") as tmp:
        copy_path = Path(tmp) / course.name
        shutil.copyfile(submission.path, copy_path)  # the student may look for its own file
        # The kernel is the course notebook's: a submission's metadata does not choose it.
        try:
            run = run_notebook(notebook, Path(tmp), timeout=timeout, after=reader,
                               kernel_name=kernel_name or course.kernel_name)
        except Exception as error:  # noqa: BLE001 - one submission never stops the batch
            run = RunResult(status="grader error",
                            detail=f"{type(error).__name__}: {error}"[:300])
    result.status, result.detail = run.status, run.detail
    if not isinstance(run.printed, dict):
        result.verdicts = unread
        return result
    for check in course.checks:
        answer = run.printed.get(check.name, {"error": "not read"})
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
        if result.verdicts[check.name] == WRONG:
            result.notes[check.name] = _compare(value, check.expected, check.tol) or ""
    return result


# --- the batch --------------------------------------------------------------------------------

def _progress(done: int, total: int, text: str, stream: Any) -> None:
    width = 24
    filled = width * done // max(total, 1)
    print(f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {text}", file=stream,
          flush=True)


def grade(submissions: Path, *, course_dir: Path, out: Path, timeout: float = DEFAULT_TIMEOUT,
          kernel_name: str | None = None, progress: Any = sys.stderr) -> list[Mark]:
    """Mark every submission under ``submissions``; write the gradebook and the feedback."""
    if not submissions.is_dir():
        raise ValueError(f"submissions: {submissions} is not a folder")
    if not course_dir.is_dir():
        raise ValueError(f"course: {course_dir} is not a folder")
    if not timeout > 0:
        raise ValueError(f"timeout: must be a positive number of seconds, got {timeout}")
    course_paths = sorted(course_dir.glob("*.ipynb"))
    course_files = [path.name for path in course_paths]
    cell_ids = {}
    for path in course_paths:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        cell_ids[path.name] = {cell.get("id") for cell in cells} - {None}
    found = find_submissions(submissions, course_files, former_names(course_dir), cell_ids)
    references: dict[str, CourseNotebook | str] = {}  # a str says why there is none
    marks: list[Mark] = []
    for done, submission in enumerate(found):
        label = f"{submission.student} {submission.path.name}"
        _progress(done, len(found), label, progress)
        if submission.notebook is None:
            marks.append(Mark(student=submission.student, notebook="",
                              submission=str(submission.path), status="no course notebook",
                              detail="its name matches no notebook of the course"))
            continue
        if submission.notebook not in references:
            try:
                references[submission.notebook] = reference(
                    course_dir / submission.notebook, timeout=max(timeout, 600.0),
                    cache=out / ".cache", kernel_name=kernel_name)
            except (RuntimeError, ValueError) as error:
                references[submission.notebook] = str(error)[:300]
        course = references[submission.notebook]
        if isinstance(course, str):
            marks.append(Mark(student=submission.student, notebook=submission.notebook,
                              submission=str(submission.path), status="grader error",
                              detail=course))
        else:
            marks.append(mark(submission, course, timeout=timeout, kernel_name=kernel_name))
        # Written after each notebook, so an interrupted batch keeps what it marked.
        write_gradebook(marks, out / "gradebook.csv")
    _progress(len(found), len(found), "done", progress)
    references = {name: c for name, c in references.items() if not isinstance(c, str)}
    write_gradebook(marks, out / "gradebook.csv")
    write_feedback(marks, references, out / "feedback")
    return marks


def write_gradebook(marks: list[Mark], path: Path) -> None:
    exercises: list[str] = []
    for result in marks:
        exercises += [name for name in result.verdicts if name not in exercises]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "notebook", "status", *exercises, "total", "out_of",
                         "changed_checks", "detail", "submission"])
        for result in marks:
            writer.writerow([result.student, result.notebook, result.status,
                             *(result.verdicts.get(name, "") for name in exercises),
                             result.total, len(result.verdicts),
                             " ".join(result.changed_checks), result.detail,
                             result.submission])


def _safe(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", name).strip("._") or "student"


_STATUS_TEXT = {
    "raised": "A cell raised an error; the cells after it still ran",
    "timed out": "The notebook ran over its time limit and was stopped",
    "kernel died": "The notebook's kernel died, so no answer could be read",
    "not a notebook": "The file is not a notebook the grader can read",
    "unreadable": "The answers could not be read out of the kernel",
    "grader error": "The grader could not run the notebook; tell your lecturer",
}


def write_feedback(marks: list[Mark], references: dict[str, CourseNotebook], folder: Path) -> None:
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
                note = result.notes.get(name)
                if outcome == WRONG:
                    hint = checks[name].hint if name in checks else None
                    line += f" — {note}" if note else ""
                    line += f". Hint: {hint}" if hint else ""
                elif outcome == ERROR and note:
                    line += f" — {note}"
                lines.append(line)
            if result.changed_checks:
                lines += ["", "Check cells changed from the course's (they do not count; the "
                          f"grader checks your answers itself): {', '.join(result.changed_checks)}"]
            lines.append("")
        (folder / f"{_safe(student)}.md").write_text("\n".join(lines), encoding="utf-8")


# --- command line -------------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``evalkit grade``."""
    parser.add_argument("submissions", type=Path,
                        help="folder of submitted notebooks (one folder per student, or files "
                             "named after students)")
    parser.add_argument("--course", type=Path, default=Path("notebooks"),
                        help="folder of the teacher's notebooks (default: notebooks)")
    parser.add_argument("--out", type=Path, default=Path("build/grades"),
                        help="where gradebook.csv and feedback/ go (default: build/grades)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help=f"seconds allowed per notebook (default: {DEFAULT_TIMEOUT:g})")
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
                      timeout=args.timeout, kernel_name=args.kernel)
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
