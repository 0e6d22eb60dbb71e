"""Write the student edition of the notebooks: solutions replaced by a stub, outputs cleared.

    python tools/student.py [--out build/student] [notebooks/NN-*.ipynb ...]

Each cell tagged ``solution`` becomes a stub that binds the names the later cells read (the
exercise's ``answer_N``) to ``...``, so every check cell still runs and prints "not answered
yet" (see ``evalkit.check``). Outputs and execution counts are cleared.

No answer reaches the student edition. A check cell is written once, in the teacher's
edition, with the code that computes its expected value (``expected = ...; ek.check(
"answer_1", answer_1, expected, tol=..., hint=...)``). In the student edition that cell
becomes one line per check, ``ek.check("answer_1", answer_1,
ek.checks.AnswerDigest("ekd1:..."), hint=...)``: the expected value only as a salted hash
(``evalkit.checks.AnswerDigest``), so a student still sees ✓ or ✗. A check cell tagged
``hidden`` gets no self-check at all (``AnswerDigest.hidden()``): only the grader marks it.
The digests live in ``notebooks/answer-digests.json``, made by running each teacher's
notebook once with ``ek.check`` recording what it compares against (``evalkit.grading``);
this tool refreshes the entry of every notebook whose code changed since, before it writes.

A student's work is never overwritten. The tool remembers, in ``<out>/.written.json``, a
digest of every notebook it wrote; a student notebook whose content no longer matches that
digest was changed since, and is left as it is (the tool says so). Delete the file to get a
fresh copy.

When the course is renumbered, a notebook's earlier file names are in the course map
(``formerly`` in notebooks/course.toml). A copy under an earlier name that the student never
changed is removed (the new edition replaces it); one the student changed is kept, and the
tool names the notebook it became.
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MANIFEST = ".written.json"
SOLUTION_TAG = "solution"
HIDDEN_TAG = "hidden"
DIGESTS = REPO / "notebooks" / "answer-digests.json"
DIGEST_VERSION = 1
STUB_HEADER = ("# Your answer here: replace each ... below (the check cell after this one tells\n"
               "# you whether it is right). The solutions are in the teacher's edition.\n")
CHECK_HEADER = ("# Checks your answer against a salted hash of the expected one: the answer\n"
                "# itself is not in this edition.\n")
HIDDEN_HEADER = ("# No self-check for this exercise: your lecturer's grader marks it.\n")


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


def check_calls(source: str) -> list[tuple[str, str, str]]:
    """The ``check(name, value, ...)`` calls of a cell whose name is a string literal:
    ``(name, value expression, function expression)`` each, in order (the grader's reading,
    :func:`evalkit.grading.check_calls`)."""
    from evalkit.grading import check_calls as calls

    return calls(source)


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


def former_names(course_map: Path = REPO / "notebooks" / "course.toml") -> dict[str, list[str]]:
    """Earlier file names of the course's notebooks: ``{old name: [new names]}`` (a notebook
    split in two has two)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import course

    renamed: dict[str, list[str]] = {}
    for notebook in course.load(course_map).notebooks.values():
        for old in notebook.formerly:
            renamed.setdefault(old, []).append(notebook.file)
    return renamed


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


def load_digests(path: Path = DIGESTS) -> dict:
    """The answer digests file: ``{notebook file: {"code": digest, "checks": {...}}}``."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return data.get("notebooks", {}) if data.get("version") == DIGEST_VERSION else {}


def answer_digests(path: Path, *, timeout: float = 600.0) -> dict:
    """Run the teacher's notebook ``path`` once (``evalkit.grading.reference``, no cache) and
    hash what each check compares against: ``{"code": ..., "checks": {name: {"digest": ...,
    "hint": ...}}}``."""
    from evalkit.checks import AnswerDigest
    from evalkit.grading import reference

    notebook = json.loads(path.read_text(encoding="utf-8"))
    course = reference(path, timeout=timeout, cache=None)
    checks = {check.name: {"digest": str(AnswerDigest.of(check.expected, tol=check.tol)),
                           "hint": check.hint} for check in course.checks}
    return {"code": code_digest(notebook), "checks": checks}


def refresh_digests(paths: list[Path], store: Path = DIGESTS, *,
                    say=print) -> dict:
    """Bring ``store`` up to date for ``paths`` (running each notebook whose code changed)."""
    known = load_digests(store)
    changed = False
    for path in paths:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        entry = known.get(path.name)
        if entry is not None and entry.get("code") == code_digest(notebook):
            continue
        if not any(check_calls(_source(c)) for c in notebook["cells"]
                   if c["cell_type"] == "code"):
            continue
        say(f"  answer digests of {path.name}: running the teacher's notebook once")
        known[path.name] = answer_digests(path)
        changed = True
    if changed:
        store.write_text(json.dumps({"version": DIGEST_VERSION, "notebooks": dict(
            sorted(known.items()))}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return known


def write_student_editions(paths: list[Path], out: Path,
                           renamed: dict[str, list[str]] | None = None,
                           digests: dict | None = None) -> dict[str, list[str]]:
    """Write the student edition of each notebook into ``out``; never overwrite a student's work.

    Returns the file names ``{"written": [...], "unchanged": [...], "kept": [...], "retired":
    [...], "kept_renamed": [...]}``: kept are the notebooks changed since this tool wrote them
    (left untouched); retired are unchanged copies under a name in ``renamed`` (earlier name ->
    new names), removed; kept_renamed are such copies the student changed, left as they are.
    ``digests`` are the answer digests by notebook file (:func:`load_digests`).
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
        text = _dump(student_edition(json.loads(path.read_text(encoding="utf-8")), checks))
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="teacher's notebooks (default: notebooks/*.ipynb)")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "student",
                        help="where to write the student edition (default: build/student)")
    parser.add_argument("--digests", type=Path, default=DIGESTS,
                        help="the answer digests file (default: notebooks/answer-digests.json)")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((REPO / "notebooks").glob("*.ipynb"))
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    try:
        digests = refresh_digests(paths, args.digests)
        report = write_student_editions(paths, args.out, former_names(), digests)
    except (ValueError, RuntimeError) as error:
        print(f"make student: {error}", file=sys.stderr)
        return 2
    print(f"Student edition in {args.out}: {len(report['written'])} written, "
          f"{len(report['unchanged'])} unchanged.")
    for name in report["kept"]:
        print(f"  kept {name}: you changed it since it was written, so it was left as it is "
              f"(delete it to get a fresh copy)")
    for change in report["retired"]:
        print(f"  removed {change.split(' -> ')[0]}, an untouched copy of a notebook the course "
              f"renamed (now {change.split(' -> ')[1]})")
    for change in report["kept_renamed"]:
        old, new = change.split(" -> ")
        print(f"  kept {old}: your work on a notebook the course renamed; it is now {new} "
              f"(written fresh beside it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
