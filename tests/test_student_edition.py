"""The student edition (``make student``): stubs instead of solutions, runs top to bottom, and
never overwrites a student's work."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evalkit.course.checks import AnswerDigest

from .conftest import REPO, load_script

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


student = load_script(REPO / "tools" / "student.py", "student_tool")


def _digests(**answers) -> dict:
    """Answer digests as ``make student`` writes them: ``{name: {"digest", "hint"}}``."""
    return {name: {"digest": str(AnswerDigest.of(value, tol=1e-3)), "hint": None}
            for name, value in answers.items()}


def _code(source: str, tags: tuple[str, ...] = (), outputs: list | None = None) -> dict:
    return {"cell_type": "code", "source": source, "metadata": {"tags": list(tags)},
            "execution_count": 1,
            "outputs": outputs or [{"output_type": "stream", "name": "stdout", "text": "x\n"}]}


def _notebook(*cells: dict) -> dict:
    return {"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def test_a_solution_becomes_a_stub_of_the_answers_the_check_reads():
    notebook = _notebook(
        _code("p, r = 0.5, 0.25\nimport numpy as np"),
        _code("p, r = 40 / 90, 1.0\nanswer_1 = 2 * p * r / (p + r)\nhelper = 3\n"
              "def f(x):\n    return x\n", tags=("solution",)),
        _code('ek.check("answer_1", answer_1, 2 * p * r / (p + r), tol=1e-3)'),
        _code("answer_2 = helper + 1", tags=("solution",)),
        _code('ek.check("answer_2", answer_2, 4)'),
    )
    edition = student.student_edition(notebook, _digests(answer_1=0.8 / 1.4444, answer_2=4))
    stub = edition["cells"][1]["source"]
    # answer_1 is read later and new; p and r were bound before (the check keeps those);
    # f is never read later, and helper only by the next solution, itself a stub.
    assert re.findall(r"^(\w+) = \.\.\.$", stub, re.M) == ["answer_1"]
    assert re.findall(r"^(\w+) = \.\.\.$", edition["cells"][3]["source"], re.M) == [
        "answer_2"]
    assert stub.startswith("# Your answer here")
    for cell in edition["cells"]:
        assert cell["outputs"] == [] and cell["execution_count"] is None
    assert notebook["cells"][1]["source"].startswith("p, r = 40")  # the input is not changed
    # The check cells carry a digest, never the expected value or the code computing it.
    check = edition["cells"][2]["source"]
    assert 'ek.check("answer_1", answer_1, ek.checks.AnswerDigest("ekd1:' in check.replace("'", '"')
    assert "2 * p * r" not in check and "4)" not in edition["cells"][4]["source"]


def test_a_hidden_check_has_no_self_check_and_a_missing_digest_is_an_error():
    notebook = _notebook(
        _code("answer_1 = 3", tags=("solution",)),
        _code('expected = 1 + 2\nek.check("answer_1", answer_1, expected)', tags=("hidden",)),
        _code("answer_2 = 4", tags=("solution",)),
        _code('ek.check("answer_2", answer_2, 4)'))
    edition = student.student_edition(notebook, _digests(answer_2=4))
    assert "AnswerDigest.hidden()" in edition["cells"][1]["source"]
    assert "expected" not in edition["cells"][1]["source"]
    with pytest.raises(ValueError, match="no answer digest for the check 'answer_2'"):
        student.student_edition(notebook, {})


def test_a_check_cell_binding_what_later_cells_read_is_a_clear_error():
    notebook = _notebook(
        _code("answer_1 = 3", tags=("solution",)),
        _code('table = [1, 2]\nek.check("answer_1", answer_1, sum(table))'),
        _code("print(table)"))
    with pytest.raises(ValueError, match="check cell 1 binds table, which later cells read"):
        student.student_edition(notebook, _digests(answer_1=3))


def test_a_solution_that_is_not_python_is_a_clear_error():
    notebook = _notebook(_code("answer_1 = (", tags=("solution",)))
    with pytest.raises(ValueError, match="solution cell 0 is not valid Python"):
        student.student_edition(notebook)


def test_a_students_changed_notebook_is_never_overwritten(tmp_path: Path, capsys):
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    source = teacher / "00-demo.ipynb"
    other = teacher / "01-other.ipynb"
    for path, answer in [(source, "0.5"), (other, "1.5")]:
        path.write_text(json.dumps(_notebook(
            _code(f"answer_1 = {answer}", tags=("solution",)),
            _code('ek.check("answer_1", answer_1, 0.5)')), indent=1))
    out = tmp_path / "student"
    checks = _digests(answer_1=0.5)  # one salt: the same digests give the same edition
    digests = {path.name: {"checks": checks} for path in (source, other)}
    report = student.write_student_editions([source, other], out, digests=digests)
    assert report == {"written": ["00-demo.ipynb", "01-other.ipynb"], "unchanged": [],
                      "kept": [], "retired": [], "kept_renamed": []}

    # The student answers exercise 1 in 00-demo and saves; the teacher then edits both.
    mine = out / "00-demo.ipynb"
    work = json.loads(mine.read_text())
    work["cells"][0]["source"] = "answer_1 = 1 / 2  # my answer"
    mine.write_text(json.dumps(work, indent=1))
    saved = mine.read_text()
    for path in (source, other):
        nb = json.loads(path.read_text())
        nb["cells"].append({"cell_type": "markdown", "source": "A new paragraph.",
                            "metadata": {}})
        path.write_text(json.dumps(nb, indent=1))

    store = tmp_path / "digests.json"
    store.write_text(json.dumps({"version": student.DIGEST_VERSION, "notebooks": {
        path.name: {"code": student.code_digest(json.loads(path.read_text())),
                    "checks": checks} for path in (source, other)}}))
    assert student.main(["--out", str(out), "--digests", str(store), str(source),
                         str(other)]) == 0
    said = capsys.readouterr().out
    assert mine.read_text() == saved  # untouched, byte for byte
    assert "kept 00-demo.ipynb: you changed it" in said and "1 written" in said
    refreshed = json.loads((out / "01-other.ipynb").read_text())
    assert refreshed["cells"][-1]["source"] == "A new paragraph."  # untouched copy updated

    # Unchanged on both sides: nothing is rewritten; the student's copy is still kept.
    again = student.write_student_editions([source, other], out, digests=digests)
    assert again == {"written": [], "unchanged": ["01-other.ipynb"], "kept": ["00-demo.ipynb"],
                     "retired": [], "kept_renamed": []}
    assert mine.read_text() == saved


def test_a_renumbered_course_keeps_the_students_work_under_its_old_name(tmp_path: Path, capsys):
    """Edition 1 has 11-costs and 12-roc; edition 2 renumbers them to 13-costs and 11-roc. The
    untouched old copy goes; the one the student worked on stays, and the tool says where its
    notebook went. No new file takes an old file's place."""
    first, second, out = tmp_path / "v1", tmp_path / "v2", tmp_path / "student"
    first.mkdir()
    second.mkdir()
    for folder, names in [(first, ["11-costs.ipynb", "12-roc.ipynb"]),
                          (second, ["11-roc.ipynb", "13-costs.ipynb"])]:
        for name in names:
            (folder / name).write_text(json.dumps(_notebook(
                _code("answer_1 = 0.5", tags=("solution",)),
                _code('ek.check("answer_1", answer_1, 0.5)')), indent=1))
    digests = {name: {"checks": _digests(answer_1=0.5)}
               for name in ["11-costs.ipynb", "12-roc.ipynb", "11-roc.ipynb", "13-costs.ipynb"]}
    student.write_student_editions(sorted(first.glob("*.ipynb")), out, digests=digests)
    worked = out / "11-costs.ipynb"
    work = json.loads(worked.read_text())
    work["cells"][0]["source"] = "answer_1 = 1 / 2  # mine"
    worked.write_text(json.dumps(work, indent=1))
    saved = worked.read_text()

    renamed = {"11-costs.ipynb": ["13-costs.ipynb"], "12-roc.ipynb": ["11-roc.ipynb"]}
    report = student.write_student_editions(sorted(second.glob("*.ipynb")), out, renamed,
                                            digests)
    assert report["written"] == ["11-roc.ipynb", "13-costs.ipynb"]
    assert report["retired"] == ["12-roc.ipynb -> 11-roc.ipynb"]
    assert report["kept_renamed"] == ["11-costs.ipynb -> 13-costs.ipynb"]
    assert worked.read_text() == saved and not (out / "12-roc.ipynb").exists()
    assert sorted(p.name for p in out.glob("*.ipynb")) == [
        "11-costs.ipynb", "11-roc.ipynb", "13-costs.ipynb"]
    manifest = json.loads((out / ".written.json").read_text())
    assert "12-roc.ipynb" not in manifest and "11-costs.ipynb" in manifest


def test_the_report_names_each_notebook_that_was_not_simply_written():
    # make student and `evalkit notebooks` print these same lines (one function writes them).
    report = {"written": ["11-roc.ipynb"], "unchanged": ["01-a.ipynb"], "kept": ["00-demo.ipynb"],
              "retired": ["12-roc.ipynb -> 11-roc.ipynb"],
              "kept_renamed": ["11-costs.ipynb -> 13-costs.ipynb, 14-split.ipynb"]}
    assert student.report_lines(report) == [
        "  kept 00-demo.ipynb: you changed it since it was written, so it was left as it is "
        "(delete it to get a fresh copy)",
        "  removed 12-roc.ipynb, an untouched copy of a notebook the course renamed "
        "(now 11-roc.ipynb)",
        "  kept 11-costs.ipynb: your work on a notebook the course renamed; it is now "
        "13-costs.ipynb, 14-split.ipynb (written fresh beside it)",
    ]
    quiet = {"written": ["11-roc.ipynb"], "unchanged": ["01-a.ipynb"], "kept": [], "retired": [],
             "kept_renamed": []}
    assert student.report_lines(quiet) == []


def test_the_course_maps_earlier_names_are_read_for_make_student():
    renamed = student.former_names()
    assert renamed["11-cost-curves-and-thresholds.ipynb"] == ["13-cost-curves-and-thresholds.ipynb"]
    current = {p.name for p in NOTEBOOKS}
    for old, new in renamed.items():
        assert set(new) <= current, f"{old} is said to have become {new}, not in notebooks/"


def test_the_answer_digests_are_current_for_every_notebook():
    """notebooks/answer-digests.json matches each notebook's code (``make student`` refreshes
    it; commit it with the notebook)."""
    digests = student.load_digests()
    for path in NOTEBOOKS:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        names = [name for cell in notebook["cells"] if cell["cell_type"] == "code"
                 and "solution" not in cell["metadata"].get("tags", [])
                 for name, _, _ in student.check_calls("".join(cell["source"]))]
        assert digests[path.name]["code"] == student.code_digest(notebook), (
            f"{path.name} changed since its answer digests were made: run make student")
        assert sorted(digests[path.name]["checks"]) == sorted(names)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_answer_reaches_the_student_edition(path):
    """No check cell of the teacher's edition, no ``expected = ...`` and no expected value
    written out: only digests."""
    teacher = json.loads(path.read_text(encoding="utf-8"))
    edition = student.student_edition(teacher, student.load_digests()[path.name]["checks"])
    text = json.dumps(edition)
    checks = [c for c in teacher["cells"] if c["cell_type"] == "code"
              and student.check_calls("".join(c["source"]))]
    elsewhere = "\n".join("".join(c["source"]) for c in teacher["cells"]
                          if c not in checks and "solution" not in c["metadata"].get("tags", []))
    for cell in checks:
        for line in "".join(cell["source"]).splitlines():
            if (len(line.strip()) > 3 and line.strip() not in elsewhere
                    and not line.lstrip().startswith(("ek.check(", "#", "hint="))):
                assert json.dumps(line)[1:-1] not in text, (
                    f"{path.name}: the check cell's line {line!r} is in the student edition")
    assert "expected =" not in text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_student_edition_with_the_solutions_says_right_to_every_check(path, tmp_path):
    """The digests are the teacher's answers: the student edition with the solution cells put
    back prints ✓ for every check."""
    import nbclient
    import nbformat

    teacher = json.loads(path.read_text(encoding="utf-8"))
    edition = student.student_edition(teacher, student.load_digests()[path.name]["checks"])
    for mine, theirs in zip(edition["cells"], teacher["cells"], strict=True):
        if "solution" in mine.get("metadata", {}).get("tags", []):
            mine["source"] = theirs["source"]
    notebook = nbformat.reads(json.dumps(edition), as_version=4)  # sources as strings
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    lines = [line for cell in notebook.cells if cell.cell_type == "code"
             for output in cell.outputs if output.output_type == "stream"
             for line in output.get("text", "").splitlines() if line[:1] and line[0] in "✓✗…"]
    names = [name for cell in teacher["cells"] if cell["cell_type"] == "code"
             for name, _, _ in student.check_calls("".join(cell["source"]))]
    assert lines and len(lines) == len(names), lines
    assert all(line.startswith("✓") or "no self-check" in line for line in lines), lines


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_student_edition_runs_and_every_check_says_not_answered_yet(path, tmp_path):
    import nbclient
    import nbformat

    out = tmp_path / "student"
    student.write_student_editions([path], out, digests=student.load_digests())
    notebook = nbformat.read(out / path.name, as_version=4)
    solutions = [c for c in notebook.cells if "solution" in c.metadata.get("tags", [])]
    assert solutions and all(c.source.startswith("# Your answer here") for c in solutions)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(out)}})
    client.execute()  # raises CellExecutionError, naming the cell, if any cell fails
    checks = [c for c in notebook.cells if c.cell_type == "code" and "ek.check(" in c.source]
    assert len(checks) >= len(solutions), "every exercise needs a check cell with ek.check"
    for cell in checks:
        text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        lines = [line for line in text.splitlines() if line[:1] in "✓✗…"]
        assert lines and all("not answered yet" in line for line in lines), (
            f"check cell says {text!r} in the student edition:\n{cell.source}")
