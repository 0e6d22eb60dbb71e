"""Mark the student edition outside the student's kernel: ``evalkit grade`` / ``make grade``.

    python -m evalkit.grading SUBMISSIONS [--course notebooks] [--out build/grades]
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
notebook's verdicts with hints; ``--feedback full`` also gives the expected values).
"""

from __future__ import annotations

import argparse
import ast
import base64
import contextlib
import copy
import csv
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._answers import _compare, _is_placeholder, _show

__all__ = ["add_arguments", "run", "main", "grade", "reference", "mark", "default_cache"]

CORRECT, WRONG, NOT_ANSWERED, ERROR = "correct", "wrong", "not answered", "error"
DEFAULT_TIMEOUT = 300.0  # seconds per notebook
DEFAULT_CELL_TIMEOUT = 120.0  # seconds per cell
STARTUP_TIMEOUT = 120  # a kernel can take a minute or two to start on a busy machine
_READ_TIMEOUT = 60  # seconds for the grader's own read-out of the answers
_CACHE_VERSION = 2
FORMATS = ("csv", "canvas", "moodle")
FEEDBACK = ("hints", "full")
SANDBOXES = ("auto", "bwrap", "none")


# --- what the teacher's notebook checks ---------------------------------------------------

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



# --- values across the kernel boundary ------------------------------------------------------

# evalkit/course/_readout.py, executed in the kernel as a module of its own,
# ``__evalkit_readout__``, without binding a name in the notebook's namespace.
_READOUT = (Path(__file__).with_name("_readout.py")).read_text(encoding="utf-8")
_INSTALL = ("(lambda m: (exec({source!r}, m.__dict__), "
            "__import__('sys').modules.__setitem__('__evalkit_readout__', m)))"
            "(__import__('types').ModuleType('__evalkit_readout__'))")
_MODULE = "__import__('sys').modules['__evalkit_readout__']"
_RECORD = ("(lambda ek, m: setattr(ek, 'check', m.record(ek.check)))"
           f"(__import__('evalkit'), {_MODULE})")


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
    answers: dict = field(default_factory=dict)  # name -> {"value": data} or {"error": text}
    records: list | None = None  # the teacher's run: what each check compared against
    stopped_at: int | None = None  # the cell the run stopped in (timed out, kernel died)


class _QuietAsyncio(logging.Filter):
    """nbclient leaves tasks whose exceptions nobody reads when a kernel dies; asyncio then
    logs "Task exception was never retrieved" with a traceback. The grader has reported the
    death already: keep those out of the progress output."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "exception was never retrieved" not in record.getMessage()


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    logger = logging.getLogger("asyncio")
    noise = _QuietAsyncio()
    logger.addFilter(noise)
    try:
        yield
    finally:
        logger.removeFilter(noise)


def bwrap_usable() -> bool:
    """Whether bubblewrap is installed and can make a sandbox on this machine."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False
    probe = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
             "--unshare-pid", "--die-with-parent", "true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _teacher_copies() -> list[Path]:
    """The teacher's notebooks that come with evalkit itself: the copy shipped in an installed
    wheel (``evalkit/_notebooks``) and, in a source tree or editable install, ``notebooks/``
    beside the package. A submission must not read them, whatever course it is marked against."""
    package = Path(__file__).resolve().parent.parent
    return [folder for folder in (package / "_notebooks", package.parent / "notebooks")
            if folder.is_dir()]


def _folders_to_hide(folders: list[Path]) -> list[Path]:
    """``folders`` and evalkit's own copies of the teacher's notebooks, each once."""
    unique: dict[Path, Path] = {}
    for folder in [*folders, *_teacher_copies()]:
        unique.setdefault(Path(folder).resolve(), Path(folder))
    return list(unique.values())


def _sandbox_prefix(workdir: Path, hidden: list[Path]) -> list[str]:
    """bwrap's arguments: the whole file system read-only but ``workdir`` (the kernel's
    TMPDIR is in it), each folder of ``hidden`` replaced by an empty read-only one, a /proc of
    its own."""
    args = [shutil.which("bwrap") or "bwrap", "--ro-bind", "/", "/", "--dev", "/dev",
            "--proc", "/proc", "--unshare-pid", "--die-with-parent",
            # The grader is outside the kernel's pid namespace: ipykernel would take its
            # parent for gone and quit. --die-with-parent ends the kernel with the grader.
            "--unsetenv", "JPY_PARENT_PID"]
    for folder in hidden:
        if folder.is_dir() and folder.resolve() != workdir.resolve():
            args += ["--tmpfs", str(folder.resolve()), "--remount-ro", str(folder.resolve())]
    args += ["--bind", str(workdir), str(workdir), "--chdir", str(workdir)]
    return args


def _kernel_manager_class(prefix: list[str]) -> type:
    from jupyter_client.manager import AsyncKernelManager

    class SandboxedKernelManager(AsyncKernelManager):
        """Starts the kernel's command under ``prefix`` (the sandbox), with its connection
        file shown to it read-only (whatever folder it is in)."""

        def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
            connection = str(Path(self.connection_file).resolve())
            return [*prefix, "--ro-bind", connection, connection, "--",
                    *super().format_kernel_cmd(extra_arguments)]

    return SandboxedKernelManager


def _kernel_env(workdir: Path) -> dict[str, str]:
    """The kernel's environment: the grader's, with home and every config folder in the
    submission's own folder (the kernel writes nothing of the marker's)."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("JPY_", "EVALKIT_GRADER"))}
    env.update(HOME=str(workdir), IPYTHONDIR=str(workdir / ".ipython"),
               MPLCONFIGDIR=str(workdir / ".matplotlib"),
               XDG_CACHE_HOME=str(workdir / ".cache"), XDG_CONFIG_HOME=str(workdir / ".config"),
               TMPDIR=str(workdir / ".tmp"), PYTHONDONTWRITEBYTECODE="1")
    (workdir / ".tmp").mkdir(exist_ok=True)
    return env


def _silent(client: Any, code: str, expressions: dict[str, str], timeout: float) -> dict:
    """Run ``code`` silently (no history, no output, no pre-run hooks) and evaluate
    ``expressions`` in the kernel; their values as the reply's ``user_expressions``."""
    from jupyter_core.utils import run_sync

    async def ask() -> dict:
        msg_id = client.kc.execute(code, silent=True, store_history=False,
                                   user_expressions=expressions, allow_stdin=False)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the kernel did not answer the read-out")
            reply = await client.kc.get_shell_msg(timeout=left)
            if reply.get("parent_header", {}).get("msg_id") == msg_id:
                return reply["content"]

    return run_sync(ask)()


def _expression_value(content: dict, key: str) -> Any:
    """The Python value of a str expression from a reply's ``user_expressions``."""
    result = content.get("user_expressions", {}).get(key, {})
    if result.get("status") != "ok":
        raise RuntimeError(f"{result.get('ename', 'error')}: {result.get('evalue', '')}"[:300])
    return json.loads(ast.literal_eval(result["data"]["text/plain"]))


def run_notebook(notebook: dict, workdir: Path, *, timeout: float,
                 cell_timeout: float = DEFAULT_CELL_TIMEOUT,
                 expressions: list[tuple[str, str]] | None = None, teacher: bool = False,
                 kernel_name: str | None = None, sandbox: list[str] | None = None) -> RunResult:
    """Run ``notebook`` in a fresh kernel in ``workdir``, cell by cell, each within
    ``cell_timeout`` seconds and all within ``timeout``, reading the answer ``expressions``
    (``[(name, expression)]``) after every code cell. ``teacher``: record every
    ``evalkit.check`` call instead (the reference values). ``sandbox``: a command prefix
    (:func:`_sandbox_prefix`) the kernel runs under."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    node = nbformat.reads(json.dumps(notebook), as_version=4)  # sources as strings
    name = kernel_name or node.metadata.get("kernelspec", {}).get("name", "python3")
    options: dict[str, Any] = {}
    if sandbox:
        options["kernel_manager_class"] = _kernel_manager_class(sandbox)
    client = NotebookClient(node, timeout=int(max(cell_timeout, 1)),
                            startup_timeout=STARTUP_TIMEOUT, kernel_name=name,
                            allow_errors=False, shutdown_kernel="immediate",
                            resources={"metadata": {"path": str(workdir)}}, **options)
    client.log = logging.getLogger("evalkit.grading.nbclient")
    client.log.setLevel(logging.CRITICAL)
    result = RunResult()
    wanted = {"answers": f"{_MODULE}.read({list(expressions or [])!r})"}
    index = -1

    def read_answers() -> None:
        try:
            content = _silent(client, "", wanted, _READ_TIMEOUT)
            answers = _expression_value(content, "answers")
        except (RuntimeError, TimeoutError, ValueError, SyntaxError) as error:
            # The notebook broke the read-out (or keeps the kernel busy): what was read
            # before stands, and the run goes on.
            if result.status == "ok":
                result.status = "unreadable"
                result.detail = f"after cell {index}: {error}"[:300]
            return
        for answer_name, answer in answers.items():
            # The last value read counts; an answer not (yet) defined keeps an earlier one.
            if "value" in answer or "value" not in result.answers.get(answer_name, {}):
                result.answers[answer_name] = answer

    # A submission's kernel gets a home of its own; the teacher's runs as the teacher's.
    launch: dict[str, Any] = {} if teacher else {"env": _kernel_env(workdir)}
    try:
        with _quiet(), client.setup_kernel(cwd=str(workdir), stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL,
                                           **launch):
            client.kc.allow_stdin = False
            setup = _INSTALL.format(source=_READOUT) + ("\n" + _RECORD if teacher else "")
            _silent(client, setup, {}, STARTUP_TIMEOUT)
            deadline = time.monotonic() + timeout  # the kernel's start does not count
            for index, cell in enumerate(node.cells):
                if cell.cell_type != "code":
                    continue
                left = deadline - time.monotonic()
                if left <= 0:
                    result.status, result.stopped_at = "timed out", index
                    result.detail = (f"over the notebook's limit of {timeout:g} s, before "
                                     f"cell {index}")
                    break
                client.timeout = max(int(min(left, cell_timeout)), 1)
                try:
                    client.execute_cell(cell, index)
                except CellExecutionError as error:
                    if result.status == "ok":
                        result.status = "raised"
                        result.detail = f"cell {index}: {error.ename}: {error.evalue}"[:300]
                except CellTimeoutError:
                    limit = (f"the per-cell limit of {cell_timeout:g} s"
                             if client.timeout >= int(cell_timeout)
                             else f"the notebook's limit of {timeout:g} s")
                    result.status, result.stopped_at = "timed out", index
                    result.detail = f"stopped in cell {index}, over {limit}"
                    break  # the kernel is still busy: it is shut down, not read again
                if expressions:
                    read_answers()
            else:
                if teacher:
                    content = _silent(client, "", {"records": f"{_MODULE}.read_records()"},
                                      _READ_TIMEOUT)
                    result.records = _expression_value(content, "records")
    except DeadKernelError:
        result.status, result.stopped_at = "kernel died", index
        result.detail = f"in cell {index}"
    except (RuntimeError, TimeoutError) as error:  # the kernel did not start or answer
        if result.status == "ok":
            result.status, result.stopped_at = "kernel died", index
            result.detail = str(error).splitlines()[0][:300] if str(error) else f"cell {index}"
    if result.stopped_at is not None and expressions:
        given = sum("value" in answer for answer in result.answers.values())
        result.detail += f"; {given} answer(s) read before it count"
    return result


# --- the teacher's reference values -------------------------------------------------------------

def default_cache() -> Path:
    """Where the grader keeps its reference values: ``$XDG_CACHE_HOME/evalkit/grader``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "evalkit" / "grader"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _cache_key(cache: Path) -> bytes:
    """The HMAC key of the cache (made on first use, readable by its owner only)."""
    cache.mkdir(parents=True, exist_ok=True)
    os.chmod(cache, 0o700)
    path = cache / "key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip().encode()


def _seal(key: bytes, notebook_sha: str, records: list) -> str:
    body = json.dumps({"notebook": notebook_sha, "records": records}, sort_keys=True)
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def _cached_records(cache: Path, notebook_sha: str) -> tuple[list | None, str]:
    """The cached records of a notebook with this hash, if the entry verifies."""
    path = cache / f"{notebook_sha}-v{_CACHE_VERSION}.json"
    if not path.exists():
        return None, ""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        records = entry["records"]
        good = (entry.get("notebook") == notebook_sha
                and hmac.compare_digest(str(entry.get("seal")),
                                        _seal(_cache_key(cache), notebook_sha, records)))
    except (ValueError, KeyError, TypeError, OSError):
        good = False
    if not good:
        return None, f"the cached reference values ({path}) did not verify; computed again"
    return records, ""


def _store_records(cache: Path, notebook_sha: str, records: list) -> None:
    path = cache / f"{notebook_sha}-v{_CACHE_VERSION}.json"
    entry = {"notebook": notebook_sha, "records": records,
             "seal": _seal(_cache_key(cache), notebook_sha, records)}
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(entry), encoding="utf-8")
    temporary.replace(path)


def reference(path: Path, *, timeout: float, cache: Path | None = None,
              kernel_name: str | None = None, say: Any = None) -> CourseNotebook:
    """The teacher's notebook's checks with their expected values, tolerances and hints.

    The notebook runs once in a kernel of its own (trusted: where it lives, no sandbox), with
    ``evalkit.check`` recording each call. With ``cache`` the values are reused while the
    notebook's SHA-256 is the same and the entry's HMAC seal verifies."""
    raw = path.read_bytes()
    notebook = json.loads(raw)
    course_notebook = CourseNotebook(
        path=path, checks=parse_checks(notebook),
        kernel_name=notebook.get("metadata", {}).get("kernelspec", {}).get("name", "python3"))
    notebook_sha = _sha256(raw)
    records = None
    if cache is not None:
        records, problem = _cached_records(cache, notebook_sha)
        if problem and say is not None:
            say(problem)
    if records is None:
        result = run_notebook(notebook, path.parent, timeout=timeout, cell_timeout=timeout,
                              teacher=True, kernel_name=kernel_name)
        if result.status != "ok" or not isinstance(result.records, list):
            raise RuntimeError(f"the teacher's notebook {path} did not run cleanly: "
                               f"{result.status} {result.detail}")
        records = result.records
        if cache is not None:
            _store_records(cache, notebook_sha, records)
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
    given: dict[str, str] = field(default_factory=dict)  # the answer as shown, per exercise
    changed_checks: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(v == CORRECT for v in self.verdicts.values())


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
        return result
    result.changed_checks = changed_checks(notebook, course)
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
    return marks


# --- gradebooks ---------------------------------------------------------------------------------

def write_gradebook(marks: list[Mark], path: Path) -> None:
    """The detailed gradebook: one row per student and notebook, a column per exercise."""
    exercises: list[str] = []
    for result in marks:
        exercises += [name for name in result.verdicts if name not in exercises]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "notebook", "status", *exercises, "total", "out_of",
                         "changed_checks", "detail", "submission"])
        for result in marks:
            writer.writerow([_cell_text(v) for v in (
                result.student, result.notebook, result.status,
                *(result.verdicts.get(name, "") for name in exercises),
                result.total, len(result.verdicts), " ".join(result.changed_checks),
                result.detail, result.submission)])


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
    name = {"canvas": "gradebook-canvas.csv", "moodle": "gradebook-moodle.csv",
            "csv": "gradebook-wide.csv"}[fmt]
    path = out / name
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        if fmt == "canvas":
            writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                             *titles])
            writer.writerow(["    Points Possible", "", "", "", "",
                             *(possible[n] for n in notebooks)])
            for student in students:
                writer.writerow([_cell_text(student), "", "", _cell_text(student), "",
                                 *(points[student].get(n, 0) for n in notebooks)])
        elif fmt == "moodle":
            writer.writerow(["Username", *titles])
            for student in students:
                writer.writerow([_cell_text(student),
                                 *(points[student].get(n, 0) for n in notebooks)])
        else:
            writer.writerow(["student", *titles, "total", "out_of"])
            for student in students:
                row = [points[student].get(n, 0) for n in notebooks]
                writer.writerow([_cell_text(student), *row, sum(row), sum(possible.values())])
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
