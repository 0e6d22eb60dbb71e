"""The student edition of a notebook: solutions replaced by stubs, answers by salted digests.

Used by ``evalkit notebooks DIR`` (the course for someone who installed the package) and by
``tools/student.py`` (``make student``, which also refreshes the answer digests); the rules
are in tools/student.py's docstring.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import tomllib
from pathlib import Path

from ._check_cells import check_calls

__all__ = ["student_edition", "write_student_editions", "write_course", "course_dir",
           "former_names", "load_digests", "code_digest", "check_calls", "report_lines"]

MANIFEST = ".written.json"
SOLUTION_TAG = "solution"
HIDDEN_TAG = "hidden"
DIGEST_VERSION = 1
STUB_HEADER = ("# Your answer here: replace each ... below (the check cell after this one tells\n"
               "# you whether it is right). The solutions are in the teacher's edition.\n")
CHECK_HEADER = ("# Checks your answer against a salted hash of the expected one: the answer\n"
                "# itself is not in this edition.\n")
HIDDEN_HEADER = ("# No self-check for this exercise: your lecturer's grader marks it.\n")


def load_digests(path: Path) -> dict:
    """The answer digests file: ``{notebook file: {"code": digest, "checks": {...}}}``."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return data.get("notebooks", {}) if data.get("version") == DIGEST_VERSION else {}


def _bound_names(source: str) -> list[str]:
    """Top-level names a cell binds (assignments, defs, imports, for-loop targets), in order."""
    names: list[str] = []

    def add(target: ast.AST) -> None:
        for node in ast.walk(target):
            if isinstance(node, ast.Name) and node.id not in names:
                names.append(node.id)

    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                add(target)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For):
            add(node.target)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name not in names:
            names.append(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                name = (alias.asname or alias.name).split(".")[0]
                if name not in names:
                    names.append(name)
    return names


def _loaded_names(source: str) -> set[str]:
    return {node.id for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _check_cell(calls: list[tuple[str, str, str]], digests: dict, hidden: bool) -> str:
    """The student edition of a check cell: the calls, with a digest for each expected value."""
    lines = [HIDDEN_HEADER if hidden else CHECK_HEADER]
    for name, value, function in calls:
        entry = digests.get(name)
        if entry is None and not hidden:
            raise ValueError(f"no answer digest for the check {name!r}: run `make student` "
                             f"(it computes them from the teacher's notebook)")
        module = function.rsplit(".", 1)[0] + ".checks." if "." in function else ""
        if not module:
            lines.append("from evalkit.checks import AnswerDigest\n")
        expected = (f"{module}AnswerDigest.hidden()" if hidden
                    else f"{module}AnswerDigest({entry['digest']!r})")
        hint = None if entry is None else entry.get("hint")
        lines.append(f"{function}({name!r}, {value}, {expected}"
                     + (f",\n{' ' * (len(function) + 1)}hint={hint!r}" if hint else "") + ")\n")
    return "".join(lines)


def code_digest(notebook: dict) -> str:
    """A digest of a notebook's code: its answer digests are current while this is unchanged."""
    code = [_source(cell) for cell in notebook.get("cells", []) if cell["cell_type"] == "code"]
    return _digest(json.dumps(code))


def student_edition(notebook: dict, digests: dict | None = None) -> dict:
    """The student edition of a notebook (a new dict; ``notebook`` is not changed).

    A solution cell is replaced by ``name = ...`` for each name it binds that a later cell
    (other than another solution cell) reads and no earlier cell bound: the exercise's
    answers. A check cell (one that calls ``ek.check`` with a literal name) is replaced by its
    calls with the expected value given as the answer digest in ``digests`` (``{name:
    {"digest": ..., "hint": ...}}``), or with no self-check when the cell is tagged
    ``hidden``. Raises ``ValueError`` when a solution cell is not valid Python, a check has
    no digest, or a later cell reads a name that only a check cell binds (it would be gone).
    """
    digests = digests or {}
    edition = copy.deepcopy(notebook)
    cells = edition["cells"]
    bound_before: set[str] = set()
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        cell["outputs"], cell["execution_count"] = [], None
        cell.get("metadata", {}).pop("execution", None)
        calls = (check_calls(_source(cell)) if SOLUTION_TAG not in _tags(cell) else [])
        if calls:
            lost = set(_bound_names(_source(cell))) - bound_before
            # Later solution and check cells are replaced too: what only they read is no loss.
            later = [_source(c) for c in cells[index + 1:] if c["cell_type"] == "code"
                     and SOLUTION_TAG not in _tags(c) and not check_calls(_source(c))]
            read_later = set().union(*(_loaded_names(s) for s in later)) if later else set()
            if lost & read_later:
                names = ", ".join(sorted(lost & read_later))
                raise ValueError(f"check cell {index} binds {names}, which later cells read; "
                                 "the student edition replaces check cells, so bind it in "
                                 "another cell")
            cell["source"] = _check_cell(calls, digests, HIDDEN_TAG in _tags(cell))
            continue
        if SOLUTION_TAG not in cell.get("metadata", {}).get("tags", []):
            try:
                bound_before.update(_bound_names(_source(cell)))
            except SyntaxError:  # IPython magics and the like: they bind nothing we stub
                pass
            continue
        try:
            bound = _bound_names(_source(cell))
        except SyntaxError as error:
            raise ValueError(f"solution cell {index} is not valid Python: {error}") from None
        # Later solution cells are stubs too: what only they read needs no stub.
        later = [_source(c) for c in cells[index + 1:] if c["cell_type"] == "code"
                 and SOLUTION_TAG not in c.get("metadata", {}).get("tags", [])]
        read_later = set().union(*(_loaded_names(s) for s in later)) if later else set()
        # A name an earlier cell already bound keeps that value without the solution; a
        # stub would only clobber it.
        stubs = [name for name in bound if name in read_later and name not in bound_before]
        cell["source"] = STUB_HEADER + "".join(f"{name} = ...\n" for name in stubs)
    return edition


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _dump(notebook: dict) -> str:
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def _retire_former(out: Path, manifest: dict[str, str], current: set[str],
                   renamed: dict[str, list[str]], report: dict[str, list[str]]) -> None:
    """Copies under a name the course no longer uses: removed when the student never changed
    them, kept (and reported with the new names) when they did."""
    for old, new in renamed.items():
        target = out / old
        if old in current or not target.exists():
            continue
        if _digest(target.read_text(encoding="utf-8")) == manifest.get(old):
            target.unlink()
            manifest.pop(old)
            report["retired"].append(f"{old} -> {', '.join(new)}")
        else:
            report["kept_renamed"].append(f"{old} -> {', '.join(new)}")


def write_student_editions(paths: list[Path], out: Path,
                           renamed: dict[str, list[str]] | None = None,
                           digests: dict | None = None, *,
                           teacher: bool = False) -> dict[str, list[str]]:
    """Write the student edition of each notebook into ``out``; never overwrite a student's work.

    Returns the file names ``{"written": [...], "unchanged": [...], "kept": [...], "retired":
    [...], "kept_renamed": [...]}``: kept are the notebooks changed since this tool wrote them
    (left untouched); retired are unchanged copies under a name in ``renamed`` (earlier name ->
    new names), removed; kept_renamed are such copies the student changed, left as they are.
    ``digests`` are the answer digests by notebook file (:func:`load_digests`). With
    ``teacher``, each notebook is copied whole (solutions and outputs) instead.
    """
    digests = digests or {}
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / MANIFEST
    manifest: dict[str, str] = (json.loads(manifest_path.read_text())
                                if manifest_path.exists() else {})
    report: dict[str, list[str]] = {"written": [], "unchanged": [], "kept": [], "retired": [],
                                    "kept_renamed": []}
    _retire_former(out, manifest, {path.name for path in paths}, renamed or {}, report)
    for path in paths:
        checks = digests.get(path.name, {}).get("checks", {})
        text = (path.read_text(encoding="utf-8") if teacher else
                _dump(student_edition(json.loads(path.read_text(encoding="utf-8")), checks)))
        target = out / path.name
        if target.exists():
            current = _digest(target.read_text(encoding="utf-8"))
            if current != manifest.get(path.name):
                report["kept"].append(path.name)  # the student's copy: hands off
                continue
            if current == _digest(text):
                report["unchanged"].append(path.name)
                continue
        target.write_text(text, encoding="utf-8")
        manifest[path.name] = _digest(text)
        report["written"].append(path.name)
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return report


def report_lines(report: dict[str, list[str]]) -> list[str]:
    r"""What became of the notebooks that were not simply written, one indented line each: the
    ``kept`` ones, then the ``retired`` and the ``kept_renamed`` ones of a report of
    :func:`write_student_editions`. ``evalkit notebooks`` and ``make student`` print these.

    Examples
    --------
    >>> report = {"written": ["13-costs.ipynb"], "unchanged": [], "kept": ["02-pr.ipynb"],
    ...           "retired": ["12-roc.ipynb -> 11-roc.ipynb"],
    ...           "kept_renamed": ["11-costs.ipynb -> 13-costs.ipynb"]}
    >>> print("\n".join(report_lines(report)))
      kept 02-pr.ipynb: you changed it since it was written, so it was left as it is (delete it to get a fresh copy)
      removed 12-roc.ipynb, an untouched copy of a notebook the course renamed (now 11-roc.ipynb)
      kept 11-costs.ipynb: your work on a notebook the course renamed; it is now 13-costs.ipynb (written fresh beside it)
    """  # noqa: E501 (the doctest shows whole lines)
    lines = [f"  kept {name}: you changed it since it was written, so it was left as it is "
             f"(delete it to get a fresh copy)" for name in report["kept"]]
    for change in report["retired"]:
        old, new = change.split(" -> ")
        lines.append(f"  removed {old}, an untouched copy of a notebook the course renamed "
                     f"(now {new})")
    for change in report["kept_renamed"]:
        old, new = change.split(" -> ")
        lines.append(f"  kept {old}: your work on a notebook the course renamed; it is now {new} "
                     f"(written fresh beside it)")
    return lines


def course_dir() -> Path:
    """The folder of the teacher's notebooks: ``notebooks/`` of a repository clone, else the
    copy shipped inside the installed package (``evalkit/_notebooks/``, see setup.py)."""
    package = Path(__file__).resolve().parent.parent
    for folder in (package.parent / "notebooks", package / "_notebooks"):
        if (folder / "course.toml").is_file() and any(folder.glob("*.ipynb")):
            return folder
    raise FileNotFoundError("the course's notebooks are not in this copy of evalkit (looked in "
                            f"{package.parent / 'notebooks'} and {package / '_notebooks'})")


def former_names(folder: Path) -> dict[str, list[str]]:
    """Earlier file names from ``course.toml``'s ``formerly`` lists: ``{old name: [new names]}``."""
    course_map = folder / "course.toml"
    renamed: dict[str, list[str]] = {}
    if course_map.is_file():
        for notebook in tomllib.loads(course_map.read_text(encoding="utf-8")).get("notebook", []):
            for old in notebook.get("formerly", []):
                renamed.setdefault(old, []).append(notebook["file"])
    return renamed


def write_course(out: Path, *, teacher: bool = False,
                 source: Path | None = None) -> dict[str, list[str]]:
    """Write every notebook of the course into ``out``: the student edition (stubs for the
    solutions, digests for the answers, no outputs) or, with ``teacher``, the full notebooks.
    A notebook the student changed since it was written is never overwritten (see
    :func:`write_student_editions`, whose report this returns)."""
    folder = course_dir() if source is None else source
    paths = sorted(folder.glob("*.ipynb"))
    digests = {} if teacher else load_digests(folder / "answer-digests.json")
    return write_student_editions(paths, Path(out), former_names(folder), digests,
                                  teacher=teacher)
