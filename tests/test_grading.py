"""The grader (``evalkit grade``): marks come from the answers' values, compared outside the
student's kernel, never from what the student's kernel prints or writes.

A folder of submissions is built from the student edition of a small course notebook and
marked once (one kernel per submission); each test reads its row. One more test marks the
shipped notebook 02: its teacher's edition gets full marks, its student edition none.
"""

from __future__ import annotations

import copy
import csv
import json
import math
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalkit.course import _check_cells, _gradebook, _kernel, _marking, _sandbox, grading
from evalkit.course.checks import AnswerDigest

from .conftest import REPO, load_script

pytest.importorskip("nbclient")


student_tool = load_script(REPO / "tools" / "student.py", "student_tool")

TIMEOUT = 15.0  # seconds per submission: the small notebook runs in well under one
CELL_TIMEOUT = 6.0
SANDBOX = grading.bwrap_usable()


def _cell(source: str, tags: tuple[str, ...] = (), cell_id: str | None = None) -> dict:
    return {"cell_type": "code", "id": cell_id or f"c{abs(hash(source)) % 10**8}",
            "source": source, "metadata": {"tags": list(tags)}, "execution_count": None,
            "outputs": []}


def _teacher() -> dict:
    cells = [
        {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": "# A tiny course"},
        _cell("import evalkit as ek\nimport numpy as np", cell_id="imports"),
        _cell("answer_1 = 2 + 3", ("solution",), "sol1"),
        _cell('expected = 5\nek.check("answer_1", answer_1, expected, hint="add them")',
              cell_id="check1"),
        _cell("answer_2 = np.array([0.5, 0.25])", ("solution",), "sol2"),
        _cell('ek.check("answer_2", answer_2, np.array([1 / 2, 1 / 4]), tol=1e-3,\n'
              '         hint="halve, then halve again")', cell_id="check2"),
        _cell("answer_3 = (0.1 + 0.2, 2)", ("solution",), "sol3"),
        _cell('ek.check("answer_3", answer_3, (0.3, 2), tol=1e-9, hint="a pair")',
              cell_id="check3"),
        {"cell_type": "markdown", "id": "task", "metadata": {"tags": ["assignment"]},
         "source": "## Assignment\nArgue for a measure. Rubric: 10 points."},
        {"cell_type": "markdown", "id": "essay",
         "metadata": {"tags": ["assignment", "assignment-answer"],
                      "assignment": {"name": "Tiny assignment", "points": 10}},
         "source": "*Your answer here.*"},
    ]
    return {"cells": cells, "metadata": {"kernelspec": {"name": "python3",
                                                         "display_name": "Python 3",
                                                         "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def _digests() -> dict:
    """The answer digests ``make student`` would compute for the tiny course notebook."""
    return {name: {"digest": str(AnswerDigest.of(value, tol=tol)), "hint": hint}
            for name, value, tol, hint in [("answer_1", 5, 1e-9, "add them"),
                                           ("answer_2", [0.5, 0.25], 1e-3, "halve, then "
                                            "halve again"),
                                           ("answer_3", (0.3, 2), 1e-9, "a pair")]}


def _edition(answers: dict[int, str] | None = None, *, insert: dict[int, str] | None = None,
             replace: dict[str, str] | None = None) -> dict:
    """The student edition with the stubs of ``answers`` (cell index -> source) filled in,
    cells inserted before indices of ``insert``, and cells with ids in ``replace`` rewritten."""
    notebook = student_tool.student_edition(_teacher(), _digests())
    for index, source in (answers or {}).items():
        notebook["cells"][index]["source"] = source
    for cell in notebook["cells"]:
        if cell.get("id") in (replace or {}):
            cell["source"] = replace[cell["id"]]
    for n, (index, source) in enumerate(sorted((insert or {}).items(), reverse=True)):
        notebook["cells"].insert(index, _cell(source, cell_id=f"inserted{n}"))
    return notebook


RIGHT = {2: "answer_1 = 5", 4: "answer_2 = np.array([0.5004, 0.25])",  # within tol=1e-3
         6: "answer_3 = (0.30000000000000004, 2)"}
WRONG = {2: "answer_1 = 6", 4: "answer_2 = np.array([0.5, 0.25, 0.0])",
         6: "answer_3 = (0.3, 3)"}
FAKE_GRADEBOOK = "student,notebook,status\nmallory,all,correct\n"
# Rewrites every cached reference value so that its own wrong answers are the expected ones,
# sealed with the cache's key (what a submission could do without the sandbox), and drops a
# gradebook into the output folder.
REWRITE_CACHE = """import hashlib, hmac, json, pathlib
cache, out = pathlib.Path({cache!r}), pathlib.Path({out!r})
for path in cache.glob("*.json"):
    entry = json.loads(path.read_text())
    for record in entry["records"]:
        record["expected"] = {{"t": "int", "v": "6"}} if record["name"] == "answer_1" else \\
            {{"t": "tuple", "v": [{{"t": "float", "v": (0.3).hex()}}, {{"t": "int", "v": "3"}}]}}
        record["tol"] = 1.0
    key = (cache / "key").read_text().strip().encode()
    body = json.dumps({{"notebook": entry["notebook"], "records": entry["records"]}},
                      sort_keys=True)
    entry["seal"] = hmac.new(key, body.encode(), hashlib.sha256).hexdigest()
    path.write_text(json.dumps(entry))
(out / "gradebook.csv").write_text("student,notebook,status\\nmallory,all,correct\\n")
"""
# Finds the teacher's notebook (its path, or the grader's command line in /proc) and runs its
# solutions.
READ_TEACHER = """import json, pathlib
teacher = pathlib.Path({course!r})
for cmdline in pathlib.Path("/proc").glob("[0-9]*/cmdline"):
    try:
        if b"--course" in cmdline.read_bytes():
            print("found the grader", cmdline)
    except OSError:
        pass
cells = json.loads(teacher.read_text())["cells"]
for cell in cells:
    if "solution" in cell["metadata"].get("tags", []):
        exec("".join(cell["source"]))
"""


def _write(path: Path, notebook: dict | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(notebook if isinstance(notebook, str) else json.dumps(notebook),
                    encoding="utf-8")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("grading")
    course, submissions, out = root / "course", root / "submissions", root / "grades"
    cache = root / "cache"
    _write(course / "01-tiny.ipynb", _teacher())
    (course / "course.toml").write_text(
        '[[notebook]]\nfile = "01-tiny.ipynb"\nformerly = ["07-old-tiny.ipynb"]\n',
        encoding="utf-8")
    broken = _teacher()
    broken["cells"].insert(2, _cell("raise RuntimeError('the teacher broke it')"))
    _write(course / "02-broken.ipynb", broken)
    name = "01-tiny.ipynb"
    gradebook = out / "gradebook.csv"
    honest = _edition(RIGHT, replace={"essay": "I argue for recall, because misses cost."})
    honest["cells"].append(_cell("print(40 / 50)", cell_id="mine"))  # added after the answer
    _write(submissions / "honest" / name, honest)
    _write(submissions / "wrong" / name, _edition({**RIGHT, 2: "answer_1 = 6",
                                                   6: "answer_3 = (0.3, 3)"}))
    _write(submissions / "shapes" / name, _edition(WRONG))
    # Files named after the student, at the top level, under the notebook's former name.
    _write(submissions / "unanswered_07-old-tiny.ipynb", _edition())
    _write(submissions / "edits_checks" / name, _edition(WRONG, replace={
        "check1": 'print("✓ answer_1")',
        "check2": 'ek.check("answer_2", answer_2, answer_2)',
        "check3": 'answer_3 = (0.3, 2)\nek.check("answer_3", answer_3, (0.3, 2))'}))
    _write(submissions / "redefines_check" / name, _edition(WRONG, insert={
        2: 'ek.check = lambda name, *args, **kwargs: print("✓", name)\n'
           'import evalkit\nevalkit.check = ek.check'}))
    _write(submissions / "prints" / name, _edition(WRONG, insert={
        8: 'print("✓ answer_1\\n✓ answer_2\\n✓ answer_3")\n'
           'print(\'{"answer_1": {"value": {"t": "int", "v": "5"}}}\')'}))
    _write(submissions / "writes_files" / name, _edition(WRONG, insert={
        8: "import os, pathlib\n"
           f"for target in ['gradebook.csv', 'results.json', {str(gradebook)!r}]:\n"
           "    path = pathlib.Path(target)\n"
           "    path.parent.mkdir(parents=True, exist_ok=True)\n"
           f"    path.write_text({FAKE_GRADEBOOK!r})\n"}))
    _write(submissions / "objects" / name, _edition({
        2: "class Yes:\n    def __eq__(self, other):\n        return True\nanswer_1 = Yes()",
        4: "class Close(float):\n    def __eq__(self, other):\n        return True\n"
           "answer_2 = Close(0.0)",
        6: "answer_3 = ..."}))
    _write(submissions / "crashes" / name, _edition(RIGHT, insert={4: "1 / 0"}))
    _write(submissions / "loops" / name, _edition(RIGHT, insert={4: "while True:\n    pass"}))
    _write(submissions / "kills" / name, _edition(RIGHT, insert={6: "import os\nos._exit(1)"}))
    own_kernel = _edition(RIGHT)
    own_kernel["metadata"]["kernelspec"] = {"name": "no-such-kernel", "display_name": "x"}
    _write(submissions / "own_kernel" / name, own_kernel)
    _write(submissions / "corrupt" / name, '{"cells": [ this is not json')
    _write(submissions / "stray" / "notes.ipynb", '{"cells": []}')
    _write(submissions / "ivan" / "02-broken.ipynb", _edition(RIGHT))
    # The class that tries to game the grader (issue: each gets what its own answers earn).
    _write(submissions / "copies_expected" / name, _edition(WRONG, insert={
        4: "answer_1 = expected", 6: "answer_2 = np.array(expected)"}))
    _write(submissions / "patches_check" / name, _edition(WRONG, insert={
        3: "import evalkit\n"
           "def steal(name, value, expected, **options):\n"
           "    globals()[name] = expected\n"
           "ek.check = evalkit.check = steal"}))
    _write(submissions / "shadows_builtins" / name, _edition(RIGHT, insert={
        8: "import sys, os, builtins\n"
           "eval = type = isinstance = repr = print = len = str = None\n"
           "sys.stdout = sys.stderr = open(os.devnull, 'w')"}))
    _write(submissions / "rewrites_cache" / name, _edition(WRONG, insert={8: REWRITE_CACHE.format(
        cache=str(cache), out=str(out))}))
    _write(submissions / "reads_teacher" / name, _edition(WRONG, insert={8: READ_TEACHER.format(
        course=str(course / "01-tiny.ipynb"))}))
    _write(submissions / "dies_after" / name, _edition(RIGHT, insert={8: "import os\nos._exit(1)"}))
    _write(submissions / "hangs_after" / name, _edition(RIGHT, insert={
        8: "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
           "while True:\n    try:\n        time.sleep(0.1)\n    except BaseException:\n"
           "        pass"}))
    _write(submissions / "breaks_readout" / name, _edition(RIGHT, insert={
        6: "import sys\nsys.modules.pop('__evalkit_readout__', None)"}))
    before = {path: path.read_bytes() for path in submissions.rglob("*.ipynb")}
    progress = root / "progress.txt"
    with progress.open("w") as stream:
        marks = grading.grade(submissions, course_dir=course, out=out, timeout=TIMEOUT,
                              cell_timeout=CELL_TIMEOUT, progress=stream, cache=cache)
    with gradebook.open(encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    return {"marks": marks, "rows": rows, "out": out, "submissions": submissions,
            "before": before, "progress": progress.read_text(), "course": course,
            "cache": cache}


def _verdicts(row: dict) -> list[str]:
    return [row["answer_1"], row["answer_2"], row["answer_3"]]


def test_honest_submission_gets_every_mark_within_each_checks_tolerance(graded):
    row = graded["rows"]["honest"]
    assert (row["status"], _verdicts(row), row["total"], row["out_of"]) == (
        "ok", ["correct"] * 3, "3", "3")
    assert row["changed_checks"] == ""


def test_wrong_answers_are_wrong_and_feedback_gives_their_hints(graded):
    row = graded["rows"]["wrong"]
    assert _verdicts(row) == ["wrong", "correct", "wrong"] and row["total"] == "1"
    feedback = (graded["out"] / "feedback" / "wrong.md").read_text(encoding="utf-8")
    # Hints by default: the student's answer and the hint, never the expected value.
    assert "answer_1: wrong (your answer: 6). Hint: add them" in feedback
    assert "expected" not in feedback
    assert "Hint: a pair" in feedback
    assert "halve" not in feedback  # a right answer gets no hint
    assert _verdicts(graded["rows"]["shapes"]) == ["wrong"] * 3


# What each tampering submission's own answers earn (RIGHT: 3, WRONG: 0), and its status.
TAMPERING = {
    "copies_expected": ("raised", ["wrong"] * 3),  # there is no ``expected`` to copy
    "patches_check": ("ok", ["wrong"] * 3),  # its digests are no values: its own answers stay
    "shadows_builtins": ("ok", ["correct"] * 3),  # an honest notebook, oddly written
    "rewrites_cache": ("raised" if SANDBOX else "ok", ["wrong"] * 3),
    "reads_teacher": ("raised" if SANDBOX else "ok", ["wrong" if SANDBOX else "correct"] * 3),
    "dies_after": ("kernel died", ["correct"] * 3),
    "hangs_after": ("timed out", ["correct"] * 3),
    # Removes the grader's read-out module after two answers: those count, the third is
    # never read.
    "breaks_readout": ("unreadable", ["correct", "correct", "error"]),
}


@pytest.mark.parametrize("student", sorted(TAMPERING))
def test_each_tampering_submission_gets_what_its_own_answers_earn(graded, student):
    row = graded["rows"][student]
    assert (row["status"], _verdicts(row)) == TAMPERING[student], row["detail"]


def test_the_sandbox_hides_the_course_and_the_cache_from_submissions(graded):
    if not SANDBOX:
        if os.environ.get("EVALKIT_REQUIRE_SANDBOX"):
            pytest.fail("bubblewrap cannot make a sandbox here (EVALKIT_REQUIRE_SANDBOX is set)")
        pytest.skip("bubblewrap is not installed or cannot make a sandbox here")
    assert "FileNotFoundError" in graded["rows"]["reads_teacher"]["detail"]
    assert "Read-only file system" in graded["rows"]["rewrites_cache"]["detail"]
    assert "mallory" not in (graded["out"] / "gradebook.csv").read_text(encoding="utf-8")


def test_evalkits_own_teacher_notebooks_are_hidden_too(tmp_path, monkeypatch):
    # An installed wheel ships the teacher's notebooks (evalkit/_notebooks): the sandbox hides
    # them beside the course, once each, whatever course is being marked.
    package = tmp_path / "site-packages" / "evalkit"
    (package / "_notebooks").mkdir(parents=True)
    monkeypatch.setattr(_sandbox, "__file__", str(package / "course" / "_sandbox.py"))
    course = tmp_path / "course"
    course.mkdir()
    assert _sandbox._teacher_copies() == [package / "_notebooks"]
    hidden = _sandbox._folders_to_hide([course, tmp_path / "out", course])
    assert hidden == [course, tmp_path / "out", package / "_notebooks"]
    # A source tree: notebooks/ beside the package, the same folder as the course here.
    (tmp_path / "site-packages" / "notebooks").mkdir()
    hidden = _sandbox._folders_to_hide([tmp_path / "site-packages" / "notebooks"])
    assert [h.name for h in hidden] == ["notebooks", "_notebooks"]
    args = _sandbox._sandbox_prefix(tmp_path / "work", hidden)
    assert str((package / "_notebooks").resolve()) in args


def test_a_rewritten_cache_changes_no_later_mark(graded, tmp_path):
    """Whatever a submission did to the cache, the next batch marks an honest notebook 3/3
    and a wrong one 0/3: the entries are verified (and, in the sandbox, never written)."""
    import hashlib

    digest = hashlib.sha256((graded["course"] / "01-tiny.ipynb").read_bytes()).hexdigest()
    entry_path = graded["cache"] / f"{digest}-v2.json"
    entry = json.loads(entry_path.read_text())
    entry["records"][0]["expected"] = {"t": "int", "v": "6"}  # unsealed tampering
    entry_path.write_text(json.dumps(entry))
    folder = tmp_path / "subs"
    _write(folder / "honest" / "01-tiny.ipynb", _edition(RIGHT))
    _write(folder / "wrong" / "01-tiny.ipynb", _edition(WRONG))
    progress = tmp_path / "progress.txt"
    with progress.open("w") as stream:
        marks = grading.grade(folder, course_dir=graded["course"], out=tmp_path / "out",
                              timeout=TIMEOUT, cell_timeout=CELL_TIMEOUT, progress=stream,
                              cache=graded["cache"])
    assert {m.student: m.total for m in marks} == {"honest": 3, "wrong": 0}
    assert "did not verify; computed again" in progress.read_text()


def test_gradebooks_to_import(graded):
    out = graded["out"]
    with (out / "gradebook-wide.csv").open(encoding="utf-8") as handle:
        wide = {row["student"]: row for row in csv.DictReader(handle)}
    assert wide["honest"]["01-tiny"] == "3" and wide["wrong"]["01-tiny"] == "1"
    assert wide["honest"]["total"] == "3" and wide["honest"]["out_of"] == "3"
    marks, courses = graded["marks"], {}
    course = grading.reference(graded["course"] / "01-tiny.ipynb", timeout=60,
                               cache=graded["cache"])
    courses["01-tiny.ipynb"] = course
    canvas = grading.write_import(marks, courses, out, "canvas")
    rows = list(csv.reader(canvas.open(encoding="utf-8")))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "01-tiny",
                       "01-tiny: Tiny assignment (marked by hand)"]
    assert rows[1][0].strip() == "Points Possible" and rows[1][-2:] == ["3", "10"]
    assert ["honest", "", "", "honest", "", "3", ""] in rows
    moodle = grading.write_import(marks, courses, out, "moodle")
    rows = list(csv.reader(moodle.open(encoding="utf-8")))
    assert rows[0] == ["Username", "01-tiny", "01-tiny: Tiny assignment (marked by hand)"]
    assert ["wrong", "1", ""] in rows
    assert len(rows) == 1 + len({m.student for m in marks})


def test_an_assignment_is_collected_for_marking_by_hand(graded):
    """The assignment gets a "marked by hand" column: to mark (with its length) when the
    answer differs from the placeholder, not answered otherwise; the answer (with the cells
    the student added after it) is written out for the lecturer; the import gets an empty
    column with the rubric's points; the automatic total counts the exercises only."""
    rows, out = graded["rows"], graded["out"]
    column = "Tiny assignment (marked by hand)"
    assert rows["honest"][column] == "to mark (10 words)"
    assert rows["wrong"][column] == "not answered"
    assert rows["corrupt"][column] == "not answered"
    assert rows["honest"]["total"] == "3" and rows["honest"]["out_of"] == "3"
    text = (out / "assignments" / "01-tiny" / "honest.md").read_text(encoding="utf-8")
    assert "I argue for recall, because misses cost." in text and "print(40 / 50)" in text
    assert not (out / "assignments" / "01-tiny" / "wrong.md").exists()
    feedback = (out / "feedback" / "honest.md").read_text(encoding="utf-8")
    assert "Tiny assignment: your answer was collected" in feedback
    with (out / "gradebook-wide.csv").open(encoding="utf-8") as handle:
        wide = {row["student"]: row for row in csv.DictReader(handle)}
    assert wide["honest"]["01-tiny: Tiny assignment (marked by hand)"] == ""


def test_assignment_cells_are_read_and_checked():
    from evalkit.course import _assignments

    teacher = _teacher()
    (found,) = _assignments.parse_assignments(teacher)
    assert (found.name, found.cell_id, found.points) == ("Tiny assignment", "essay", 10)
    ids = {c["id"] for c in teacher["cells"]}
    # The placeholder with other spacing is not an answer; a deleted answer cell is none.
    student = copy.deepcopy(teacher)
    student["cells"][-1]["source"] = "  *Your answer\nhere.*  "
    assert _assignments.collect(student, [found], ids)["Tiny assignment"][0] == "not answered"
    student["cells"].pop()
    assert _assignments.collect(student, [found], ids)["Tiny assignment"][0] == "not answered"
    # Found by its tag and name when the id changed; cells of the course after it end it.
    student = copy.deepcopy(teacher)
    student["cells"][-1].update(id="new", source="Recall.")
    student["cells"].append({"cell_type": "markdown", "id": "intro", "source": "course"})
    status, text = _assignments.collect(student, [found], ids)["Tiny assignment"]
    assert status == "to mark (1 words)" and text == "Recall."
    bad = copy.deepcopy(teacher)
    bad["cells"][-1]["metadata"]["assignment"] = {"points": 3}
    with pytest.raises(ValueError, match="needs metadata"):
        _assignments.parse_assignments(bad)
    bad["cells"][-1]["metadata"]["assignment"] = {"name": "x", "points": -1}
    with pytest.raises(ValueError, match="whole number"):
        _assignments.parse_assignments(bad)


def test_full_feedback_gives_the_expected_values(graded, tmp_path):
    course = grading.reference(graded["course"] / "01-tiny.ipynb", timeout=60,
                               cache=graded["cache"])
    wrong = [m for m in graded["marks"] if m.student == "wrong"]
    grading.write_feedback(wrong, {"01-tiny.ipynb": course}, tmp_path / "full", full=True)
    text = (tmp_path / "full" / "wrong.md").read_text(encoding="utf-8")
    assert "answer_1: wrong — expected 5, got 6. Hint: add them" in text


def test_a_formula_in_a_student_name_is_not_run_by_a_spreadsheet():
    assert _gradebook._cell_text("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert _gradebook._cell_text("alice") == "alice" and _gradebook._cell_text(3) == 3


def test_unanswered_stubs_found_by_former_name_in_a_file_named_after_the_student(graded):
    row = graded["rows"]["unanswered"]
    assert row["notebook"] == "01-tiny.ipynb"
    assert (row["status"], _verdicts(row), row["total"]) == ("ok", ["not answered"] * 3, "0")


def test_edited_check_cells_earn_nothing_and_are_reported(graded):
    row = graded["rows"]["edits_checks"]
    # answer_3 was overwritten with the right value inside the edited check cell: the value
    # counts (it is the answer), and the edit is reported.
    assert _verdicts(row) == ["wrong", "wrong", "correct"]
    assert row["changed_checks"] == "answer_1 answer_2 answer_3"
    feedback = (graded["out"] / "feedback" / "edits_checks.md").read_text(encoding="utf-8")
    assert "Check cells changed" in feedback
    assert graded["rows"]["honest"]["changed_checks"] == ""


def test_redefining_ek_check_earns_nothing(graded):
    row = graded["rows"]["redefines_check"]
    assert (row["status"], _verdicts(row), row["total"]) == ("ok", ["wrong"] * 3, "0")
    assert row["changed_checks"] == ""  # it added a cell, it changed no check cell


def test_printing_ticks_or_fake_answers_earns_nothing(graded):
    row = graded["rows"]["prints"]
    assert (row["status"], _verdicts(row), row["total"]) == ("ok", ["wrong"] * 3, "0")


def test_writing_results_files_earns_nothing_and_runs_on_a_copy(graded):
    row = graded["rows"]["writes_files"]
    assert (_verdicts(row), row["total"]) == (["wrong"] * 3, "0")
    assert "mallory" not in (graded["out"] / "gradebook.csv").read_text(encoding="utf-8")
    # It ran in a temporary folder: nothing landed beside the submission.
    assert sorted(p.name for p in (graded["submissions"] / "writes_files").iterdir()) == [
        "01-tiny.ipynb"]


def test_submissions_are_never_modified(graded):
    after = {path: path.read_bytes() for path in graded["submissions"].rglob("*.ipynb")}
    assert after == graded["before"]


def test_objects_that_claim_equality_are_not_correct(graded):
    row = graded["rows"]["objects"]
    # An object of the student's class cannot cross to the grader; a float subclass crosses
    # as its float value (0.0, a wrong answer) without its __eq__.
    assert _verdicts(row) == ["error", "wrong", "not answered"]
    feedback = (graded["out"] / "feedback" / "objects.md").read_text(encoding="utf-8")
    assert "a Yes cannot be marked" in feedback


def test_a_raising_cell_is_reported_and_the_rest_still_runs(graded):
    row = graded["rows"]["crashes"]
    assert row["status"] == "raised" and "ZeroDivisionError" in row["detail"]
    assert _verdicts(row) == ["correct"] * 3


def test_a_loop_is_stopped_at_the_time_limit_and_earlier_answers_count(graded):
    row = graded["rows"]["loops"]
    assert row["status"] == "timed out"
    assert "stopped in cell 4, over the per-cell limit of 6 s" in row["detail"]
    # answer_1 was given before the loop; the cells after it never ran.
    assert _verdicts(row) == ["correct", "error", "error"]


def test_the_kernel_is_the_course_notebooks_not_the_submissions(graded):
    row = graded["rows"]["own_kernel"]
    assert (row["status"], _verdicts(row)) == ("ok", ["correct"] * 3)


def test_a_killed_kernel_is_reported_and_earlier_answers_count(graded):
    row = graded["rows"]["kills"]
    assert row["status"] == "kernel died" and "in cell 6" in row["detail"]
    assert _verdicts(row) == ["correct", "correct", "error"]


def test_corrupt_and_unmatched_files_get_rows_and_the_batch_goes_on(graded):
    rows = graded["rows"]
    assert rows["corrupt"]["status"] == "not a notebook"
    assert "JSONDecodeError" in rows["corrupt"]["detail"]
    assert rows["stray"]["status"] == "no course notebook"
    assert len(graded["marks"]) == len(graded["before"]) == 24
    assert set(rows) == {p.parent.name if p.parent != graded["submissions"]
                         else "unanswered" for p in graded["before"]}


def test_a_teacher_notebook_that_fails_is_reported_on_its_rows_only(graded):
    row = graded["rows"]["ivan"]
    assert row["status"] == "grader error" and "the teacher broke it" in row["detail"]
    assert graded["rows"]["honest"]["total"] == "3"


def test_progress_counts_every_submission_and_shows_no_tracebacks(graded):
    lines = graded["progress"].splitlines()
    assert any(line.startswith("[") and " 0/24 reference values of 01-tiny" in line
               for line in lines)
    assert lines[-1].endswith("24/24 done")
    assert "Traceback" not in graded["progress"] and "never retrieved" not in graded["progress"]


def test_teacher_values_are_cached_by_the_notebooks_hash_and_sealed(graded):
    import hashlib

    digest = hashlib.sha256((graded["course"] / "01-tiny.ipynb").read_bytes()).hexdigest()
    entry = json.loads((graded["cache"] / f"{digest}-v2.json").read_text())
    assert entry["notebook"] == digest and len(entry["seal"]) == 64
    assert [r["name"] for r in entry["records"]] == ["answer_1", "answer_2", "answer_3"]
    assert (graded["cache"] / "key").stat().st_mode & 0o777 == 0o600
    assert not (graded["out"] / ".cache").exists()  # nothing of the grader's under the output


def test_command_line_marks_from_the_cache_and_reports_bad_folders(graded, tmp_path, capsys):
    folder = tmp_path / "subs"
    _write(folder / "zoe" / "01-tiny.ipynb", _edition(RIGHT))
    out = tmp_path / "grades"
    assert grading.main([str(folder), "--course", str(graded["course"]), "--out", str(out),
                         "--timeout", str(TIMEOUT), "--cache", str(graded["cache"])]) == 0
    assert "1 notebooks marked (1 ok)" in capsys.readouterr().out
    assert "zoe,01-tiny.ipynb,ok,correct,correct,correct,not answered,3,3" in (
        out / "gradebook.csv").read_text()
    assert grading.main([str(tmp_path / "missing")]) == 2
    assert "submissions:" in capsys.readouterr().err
    assert grading.main([str(folder), "--timeout", "0"]) == 2
    assert "timeout:" in capsys.readouterr().err


# --- without kernels ------------------------------------------------------------------------

def _roundtrip(value):
    namespace: dict = {}
    exec(_kernel._READOUT, namespace)  # noqa: S102 - the grader's own kernel-side code
    return _kernel.decode(json.loads(json.dumps(namespace["encode"](value))))


finite = st.floats(allow_nan=True, allow_infinity=True)
plain = st.one_of(st.none(), st.booleans(), st.integers(), finite, st.text(max_size=5))
values = st.recursive(plain, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.text(max_size=3), inner, max_size=3)), max_leaves=10)


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and type(a) is type(b))
    if isinstance(a, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


@given(values)
def test_values_cross_the_kernel_boundary_unchanged(value):
    assert _same(_roundtrip(value), value)


@given(st.lists(finite, max_size=6), st.sampled_from([np.float64, np.float32, np.int64, bool]))
def test_arrays_cross_as_float64_or_bool_bit_for_bit(data, dtype):
    with np.errstate(invalid="ignore", over="ignore"):
        array = np.nan_to_num(np.array(data)).astype(dtype).reshape(len(data), 1)
    back = _roundtrip(array)
    assert back.shape == array.shape
    np.testing.assert_array_equal(back, array.astype(bool if dtype is bool else np.float64))


def test_numpy_scalars_placeholders_and_strangers():
    assert _roundtrip(np.float32(0.5)) == 0.5 and type(_roundtrip(np.int64(3))) is int
    assert _roundtrip(...) is Ellipsis and _roundtrip(NotImplemented) is NotImplemented
    assert _roundtrip((..., 1)) == (Ellipsis, 1)
    assert _roundtrip({1, 2}) == {1, 2}
    with pytest.raises(TypeError, match="a object cannot be marked"):
        _roundtrip(object())


def test_verdicts_follow_ek_check():
    assert _marking.verdict(0.5004, 0.5, 1e-3) == "correct"
    assert _marking.verdict(0.502, 0.5, 1e-3) == "wrong"
    assert _marking.verdict((..., 2), (1, 2), 1e-9) == "not answered"
    assert _marking.verdict(np.array([1.0, 2.0]), np.array([1.0, 2.0, 3.0]), 1.0) == "wrong"
    assert _marking.verdict("ab", "ab", 0.0) == "correct"
    assert _marking.verdict({"a": 1}, {"a": 1}, 0.0) == "correct"


def test_parse_checks_reads_names_and_answer_expressions():
    checks = _check_cells.parse_checks(_teacher())
    assert [(c.name, c.value_source, c.cell_id) for c in checks] == [
        ("answer_1", "answer_1", "check1"), ("answer_2", "answer_2", "check2"),
        ("answer_3", "answer_3", "check3")]
    twice = copy.deepcopy(_teacher())
    twice["cells"].append(_cell('ek.check("answer_1", answer_1, 5)'))
    with pytest.raises(ValueError, match="checks answer_1 more than once"):
        _check_cells.parse_checks(twice)


def test_every_shipped_notebook_has_one_check_per_exercise():
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        solutions = sum("solution" in c.get("metadata", {}).get("tags", [])
                        for c in notebook["cells"])
        checks = _check_cells.parse_checks(notebook)
        assert len(checks) == solutions, path.name
        assert all(c.cell_id for c in checks), path.name


def test_changed_checks_by_id_or_by_source():
    course = _check_cells.CourseNotebook(Path("01-tiny.ipynb"),
                                         _check_cells.parse_checks(_teacher()))
    edition = _edition()
    assert _check_cells.changed_checks(edition, course) == []
    moved = copy.deepcopy(edition)
    for cell in moved["cells"]:
        cell.pop("id", None)
        if isinstance(cell["source"], str):
            cell["source"] = cell["source"] + "\n\n"  # trailing blank lines do not count
    assert _check_cells.changed_checks(moved, course) == []
    moved["cells"][5]["source"] = moved["cells"][5]["source"].replace("answer_2,", "0.5,")
    assert _check_cells.changed_checks(moved, course) == ["answer_2"]
    # The teacher's own check cells are the course's too.
    assert _check_cells.changed_checks(_teacher(), course) == []


def test_submissions_in_any_layout(tmp_path):
    files = ["alice/02-precision-and-recall.ipynb", "bob/work/03-the-f-measure (1).ipynb",
             "carol_02-precision-and-recall.ipynb", "03-the-f-measure-dave.ipynb",
             "erin/12-roc-curves-and-auc.ipynb", "frank/.ipynb_checkpoints/x.ipynb",
             "gina/my-own.ipynb"]
    for name in files:
        _write(tmp_path / name, "{}")
    course = ["02-precision-and-recall.ipynb", "03-the-f-measure.ipynb",
              "11-roc-curves-and-auc.ipynb", "12-class-balance-and-pr-curves.ipynb"]
    renamed = grading.former_names(REPO / "notebooks")
    assert renamed["12-roc-curves-and-auc.ipynb"] == "11-roc-curves-and-auc.ipynb"
    found = {(s.student, s.notebook) for s in grading.find_submissions(tmp_path, course, renamed)}
    assert found == {("alice", course[0]), ("bob", course[1]), ("carol", course[0]),
                     ("dave", course[1]), ("erin", course[2]), ("gina", None)}


def test_a_renamed_submission_is_matched_by_its_cell_ids(tmp_path):
    _write(tmp_path / "henry" / "homework.ipynb", _edition(RIGHT))
    ids = {"01-tiny.ipynb": {c["id"] for c in _teacher()["cells"]}, "02-other.ipynb": {"x"}}
    found = grading.find_submissions(tmp_path, list(ids), {}, ids)
    assert [(s.student, s.notebook) for s in found] == [("henry", "01-tiny.ipynb")]


def test_the_package_does_not_import_nbclient():
    import subprocess
    import sys

    code = "import sys, evalkit, evalkit.course.grading; print('nbclient' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


# --- the shipped course ----------------------------------------------------------------------

def test_shipped_notebook_02_teacher_full_marks_student_edition_none(tmp_path):
    name = "02-precision-and-recall.ipynb"
    teacher = json.loads((REPO / "notebooks" / name).read_text(encoding="utf-8"))
    _write(tmp_path / "subs" / "teacher" / name, teacher)
    digests = student_tool.load_digests()[name]["checks"]
    _write(tmp_path / "subs" / "student" / name, student_tool.student_edition(teacher, digests))
    marks = grading.grade(tmp_path / "subs", course_dir=REPO / "notebooks",
                          out=tmp_path / "grades", timeout=300, progress=open("/dev/null", "w"))
    got = {m.student: (m.status, list(m.verdicts.values())) for m in marks}
    assert got == {"teacher": ("ok", ["correct"] * 3), "student": ("ok", ["not answered"] * 3)}
