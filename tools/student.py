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
notebook once with ``ek.check`` recording what it compares against (``evalkit.course.grading``);
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
import json
import sys
from pathlib import Path

# The edition itself lives in the package, so that `evalkit notebooks DIR` writes the same one.
from evalkit.course._editions import (  # noqa: F401 (re-exported: the tests read them here)
    CHECK_HEADER,
    DIGEST_VERSION,
    HIDDEN_HEADER,
    HIDDEN_TAG,
    MANIFEST,
    SOLUTION_TAG,
    STUB_HEADER,
    _source,
    check_calls,
    code_digest,
    report_lines,
    student_edition,
    write_student_editions,
)
from evalkit.course._editions import load_digests as _load_digests

REPO = Path(__file__).resolve().parent.parent
DIGESTS = REPO / "notebooks" / "answer-digests.json"


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


def load_digests(path: Path = DIGESTS) -> dict:
    """The answer digests file: ``{notebook file: {"code": digest, "checks": {...}}}``."""
    return _load_digests(path)


def answer_digests(path: Path, *, timeout: float = 600.0) -> dict:
    """Run the teacher's notebook ``path`` once (``evalkit.course.grading.reference``, no cache) and
    hash what each check compares against: ``{"code": ..., "checks": {name: {"digest": ...,
    "hint": ...}}}``."""
    from evalkit.course.checks import AnswerDigest
    from evalkit.course.grading import reference

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
    for line in report_lines(report):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
