"""The grader (``evalkit grade``): marks come from the answers' values, compared outside the
student's kernel, never from what the student's kernel prints or writes.

A folder of submissions is built from the student edition of a small course notebook and
marked once (one kernel per submission); each test reads its row. One more test marks the
shipped notebook 02: its teacher's edition gets full marks, its student edition none.
"""

from __future__ import annotations

import copy
import csv
import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalkit import grading

from .conftest import REPO

pytest.importorskip("nbclient")


def _load_student_tool():
    spec = importlib.util.spec_from_file_location("student_tool", REPO / "tools" / "student.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


student_tool = _load_student_tool()

TIMEOUT = 15.0  # seconds per submission: the small notebook runs in well under one


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
    ]
    return {"cells": cells, "metadata": {"kernelspec": {"name": "python3",
                                                         "display_name": "Python 3",
                                                         "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def _edition(answers: dict[int, str] | None = None, *, insert: dict[int, str] | None = None,
             replace: dict[str, str] | None = None) -> dict:
    """The student edition with the stubs of ``answers`` (cell index -> source) filled in,
    cells inserted before indices of ``insert``, and cells with ids in ``replace`` rewritten."""
    notebook = student_tool.student_edition(_teacher())
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


def _write(path: Path, notebook: dict | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(notebook if isinstance(notebook, str) else json.dumps(notebook),
                    encoding="utf-8")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("grading")
    course, submissions, out = root / "course", root / "submissions", root / "grades"
    _write(course / "01-tiny.ipynb", _teacher())
    (course / "course.toml").write_text(
        '[[notebook]]\nfile = "01-tiny.ipynb"\nformerly = ["07-old-tiny.ipynb"]\n',
        encoding="utf-8")
    broken = _teacher()
    broken["cells"].insert(2, _cell("raise RuntimeError('the teacher broke it')"))
    _write(course / "02-broken.ipynb", broken)
    name = "01-tiny.ipynb"
    gradebook = out / "gradebook.csv"
    _write(submissions / "honest" / name, _edition(RIGHT))
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
    before = {path: path.read_bytes() for path in submissions.rglob("*.ipynb")}
    progress = root / "progress.txt"
    with progress.open("w") as stream:
        marks = grading.grade(submissions, course_dir=course, out=out, timeout=TIMEOUT,
                              progress=stream)
    with gradebook.open(encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    return {"marks": marks, "rows": rows, "out": out, "submissions": submissions,
            "before": before, "progress": progress.read_text(), "course": course}


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
    assert "answer_1: wrong — expected 5, got 6. Hint: add them" in feedback
    assert "Hint: a pair" in feedback
    assert "halve" not in feedback  # a right answer gets no hint
    assert _verdicts(graded["rows"]["shapes"]) == ["wrong"] * 3


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
    # answer_1 was given before the loop; the cells after it never ran.
    assert _verdicts(row) == ["correct", "error", "error"]


def test_the_kernel_is_the_course_notebooks_not_the_submissions(graded):
    row = graded["rows"]["own_kernel"]
    assert (row["status"], _verdicts(row)) == ("ok", ["correct"] * 3)


def test_a_killed_kernel_is_reported(graded):
    row = graded["rows"]["kills"]
    assert row["status"] == "kernel died" and _verdicts(row) == ["error"] * 3


def test_corrupt_and_unmatched_files_get_rows_and_the_batch_goes_on(graded):
    rows = graded["rows"]
    assert rows["corrupt"]["status"] == "not a notebook"
    assert "JSONDecodeError" in rows["corrupt"]["detail"]
    assert rows["stray"]["status"] == "no course notebook"
    assert len(graded["marks"]) == len(graded["before"]) == 16
    assert set(rows) == {p.parent.name if p.parent != graded["submissions"]
                         else "unanswered" for p in graded["before"]}


def test_a_teacher_notebook_that_fails_is_reported_on_its_rows_only(graded):
    row = graded["rows"]["ivan"]
    assert row["status"] == "grader error" and "the teacher broke it" in row["detail"]
    assert graded["rows"]["honest"]["total"] == "3"


def test_progress_counts_every_submission(graded):
    lines = graded["progress"].splitlines()
    assert lines[0].startswith("[") and " 0/16 " in lines[0]
    assert lines[-1].endswith("16/16 done")


def test_teacher_values_are_cached_by_digest(graded):
    cached = list((graded["out"] / ".cache").glob("01-tiny-*.json"))
    assert len(cached) == 1
    records = json.loads(cached[0].read_text())
    assert [r["name"] for r in records] == ["answer_1", "answer_2", "answer_3"]
    assert [r["tol"] for r in records] == [1e-9, 1e-3, 1e-9]


def test_command_line_marks_from_the_cache_and_reports_bad_folders(graded, tmp_path, capsys):
    folder = tmp_path / "subs"
    _write(folder / "zoe" / "01-tiny.ipynb", _edition(RIGHT))
    out = tmp_path / "grades"
    shutil_copy = graded["out"] / ".cache"
    (out / ".cache").mkdir(parents=True)
    for path in shutil_copy.iterdir():
        (out / ".cache" / path.name).write_bytes(path.read_bytes())
    assert grading.main([str(folder), "--course", str(graded["course"]), "--out", str(out),
                         "--timeout", str(TIMEOUT)]) == 0
    assert "1 notebooks marked (1 ok)" in capsys.readouterr().out
    assert "zoe,01-tiny.ipynb,ok,correct,correct,correct,3,3" in (
        out / "gradebook.csv").read_text()
    assert grading.main([str(tmp_path / "missing")]) == 2
    assert "submissions:" in capsys.readouterr().err
    assert grading.main([str(folder), "--timeout", "0"]) == 2
    assert "timeout:" in capsys.readouterr().err


# --- without kernels ------------------------------------------------------------------------

def _roundtrip(value):
    namespace: dict = {}
    exec(grading._ENCODER, namespace)  # noqa: S102 - the grader's own kernel-side code
    return grading.decode(json.loads(json.dumps(namespace["__evalkit_encode"](value))))


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
    assert grading.verdict(0.5004, 0.5, 1e-3) == "correct"
    assert grading.verdict(0.502, 0.5, 1e-3) == "wrong"
    assert grading.verdict((..., 2), (1, 2), 1e-9) == "not answered"
    assert grading.verdict(np.array([1.0, 2.0]), np.array([1.0, 2.0, 3.0]), 1.0) == "wrong"
    assert grading.verdict("ab", "ab", 0.0) == "correct"
    assert grading.verdict({"a": 1}, {"a": 1}, 0.0) == "correct"


def test_parse_checks_reads_names_and_answer_expressions():
    checks = grading.parse_checks(_teacher())
    assert [(c.name, c.value_source, c.cell_id) for c in checks] == [
        ("answer_1", "answer_1", "check1"), ("answer_2", "answer_2", "check2"),
        ("answer_3", "answer_3", "check3")]
    twice = copy.deepcopy(_teacher())
    twice["cells"].append(_cell('ek.check("answer_1", answer_1, 5)'))
    with pytest.raises(ValueError, match="checks answer_1 more than once"):
        grading.parse_checks(twice)


def test_every_shipped_notebook_has_one_check_per_exercise():
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        solutions = sum("solution" in c.get("metadata", {}).get("tags", [])
                        for c in notebook["cells"])
        checks = grading.parse_checks(notebook)
        assert len(checks) == solutions, path.name
        assert all(c.cell_id for c in checks), path.name


def test_changed_checks_by_id_or_by_source():
    course = grading.CourseNotebook(Path("01-tiny.ipynb"), grading.parse_checks(_teacher()))
    edition = _edition()
    assert grading.changed_checks(edition, course) == []
    moved = copy.deepcopy(edition)
    for cell in moved["cells"]:
        cell.pop("id", None)
        if isinstance(cell["source"], str):
            cell["source"] = cell["source"] + "\n\n"  # trailing blank lines do not count
    assert grading.changed_checks(moved, course) == []
    moved["cells"][5]["source"] = moved["cells"][5]["source"].replace("1e-3", "1")
    assert grading.changed_checks(moved, course) == ["answer_2"]


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

    code = "import sys, evalkit, evalkit.grading; print('nbclient' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


# --- the shipped course ----------------------------------------------------------------------

def test_shipped_notebook_02_teacher_full_marks_student_edition_none(tmp_path):
    name = "02-precision-and-recall.ipynb"
    teacher = json.loads((REPO / "notebooks" / name).read_text(encoding="utf-8"))
    _write(tmp_path / "subs" / "teacher" / name, teacher)
    _write(tmp_path / "subs" / "student" / name, student_tool.student_edition(teacher))
    marks = grading.grade(tmp_path / "subs", course_dir=REPO / "notebooks",
                          out=tmp_path / "grades", timeout=300, progress=open("/dev/null", "w"))
    got = {m.student: (m.status, list(m.verdicts.values())) for m in marks}
    assert got == {"teacher": ("ok", ["correct"] * 3), "student": ("ok", ["not answered"] * 3)}
