"""The course map (notebooks/course.toml): prerequisites that hold, honest minutes, and the
headers, README and picture made from it. Each rule is also shown to fail on a broken map."""

from __future__ import annotations

import copy
import json
import re
import sys

import pytest

from .conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
import course  # noqa: E402


@pytest.fixture(scope="module")
def the_course() -> course.Course:
    return course.load()


def test_the_course_map_holds(the_course):
    problems = course.check(the_course)
    assert not problems, "\n".join(problems)


def test_paths_and_totals_in_the_readme_come_from_the_map(the_course):
    text = course.README.read_text()
    total = sum(nb.minutes for nb in the_course.notebooks.values())
    assert course._duration(total) in text
    for path in the_course.paths:
        # A lecture counts the notebooks' reading and running, a lab the whole.
        field = "reading_minutes" if path["kind"] == "lecture" else "minutes"
        minutes = [getattr(the_course.notebooks[n], field) for n in path["notebooks"]]
        assert f"({' + '.join(map(str, minutes))} = {course._duration(sum(minutes))}, " in text


def test_every_header_gives_the_total_and_its_two_parts(the_course):
    for number, nb in the_course.notebooks.items():
        first = course._source(course._cells(the_course, number)[0])
        match = course.HEADER.search(first)
        assert match, number
        parts = re.search(r"about (\d+) minutes \(reading and running (\d+), exercises and "
                          r"explorer (\d+)\)", match.group(0))
        assert parts, match.group(0)
        total, read, work = map(int, parts.groups())
        assert (total, read) == (nb.minutes, nb.reading_minutes) and read + work == total


# --- A small course of our own, to show that each rule bites --------------------------------

MODEL = """[reading_model]
words_per_minute = 150
code_lines_per_minute = 6
minutes_per_exercise = 8
minutes_per_question = 1
minutes_per_try = 2
max_minutes = 75
tolerance = 0.2
"""


EXPLORER = "KappaExplorer(KappaModel(40, 9, 6, 45))"


def _notebook(number: str, prose: str, code: str, *, exercises: int = 0, questions: int = 0,
              tries: str = "", needs: str = "none", minutes: int = 1) -> dict:
    # An old header line (no parts): `write` must bring it to the new form.
    header = f"# Notebook {number}\n\n{prose}\n\n*Prerequisites: {needs} · about {minutes} minutes*"
    cells = [{"cell_type": "markdown", "metadata": {}, "source": header},
             {"cell_type": "code", "metadata": {}, "source": code, "outputs": [],
              "execution_count": None}]
    if tries:
        cells.append({"cell_type": "markdown", "metadata": {}, "source": tries})
    cells += [{"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": "x = 1",
               "outputs": [], "execution_count": None}] * exercises
    cells += [{"cell_type": "markdown", "metadata": {},
               "source": "<details><summary>Answer</summary>yes</details>"}] * questions
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _assignment(points: tuple[int, ...] = (3, 2), total: int = 5) -> list[dict]:
    """A part's closing assignment: a prompt, a rubric table (points last) and the answer."""
    rows = "\n".join(f"| criterion {i} | all | half | {p} |" for i, p in enumerate(points))
    return [{"cell_type": "markdown", "metadata": {"tags": ["assignment"]},
             "source": "## Assignment\n" + "a task in a few words " * 3},
            {"cell_type": "markdown", "metadata": {"tags": ["assignment"]},
             "source": f"| Criterion | Full | Half | Points |\n|---|---|---|---|\n{rows}"},
            {"cell_type": "markdown", "source": "*Your answer.*",
             "metadata": {"tags": ["assignment", "assignment-answer"],
                          "assignment": {"name": "Assignment: x", "points": total}}}]


@pytest.fixture
def small(tmp_path):
    """Three notebooks: 01 teaches kappa, 02 needs 01 and uses it, 03 stands alone."""
    (tmp_path / "notebooks").mkdir()
    books = {
        "01-kappa.ipynb": _notebook("01", "Cohen's kappa corrects for chance.",
                                    "import evalkit as ek\nek.cohen_kappa(a, b)\n" + EXPLORER),
        "02-weighted.ipynb": _notebook("02", "Weights for grades.",
                                       "# uses kappa\nek.cohen_kappa(a, b, weights='linear')\n"
                                       + EXPLORER,
                                       needs="notebook 01"),
        "03-alone.ipynb": _notebook("03", "Nothing else.", "1 + 1\n" + EXPLORER),
    }
    books["03-alone.ipynb"]["cells"] += _assignment()
    for name, nb in books.items():
        (tmp_path / "notebooks" / name).write_text(json.dumps(nb))
    text = MODEL + """
[[part]]
name = "All"
notebooks = ["01", "02", "03"]

[[path]]
name = "Kappa"
kind = "lab"
notebooks = ["01", "02"]
text = "Both."

[concept.kappa]
term = "kappa"
code = ['cohen_kappa\\(']
[concept.weights]
term = "weights"

[[notebook]]
file = "01-kappa.ipynb"
title = "Kappa"
question = "Q1"
minutes = 1
reading_minutes = 1
needs = []
introduces = ["kappa"]

[[notebook]]
file = "02-weighted.ipynb"
title = "Weighted"
question = "Q2"
minutes = 1
reading_minutes = 1
needs = ["01"]
introduces = ["weights"]
uses = ["kappa"]

[[notebook]]
file = "03-alone.ipynb"
title = "Alone"
question = "Q3"
minutes = 1
reading_minutes = 1
"""
    path = tmp_path / "notebooks" / "course.toml"
    path.write_text(text)
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n{course.START}\n{course.END}\n")
    small_course = course.load(path)
    course.write(small_course, readme=readme, picture=tmp_path / "map.svg")
    return small_course, readme, tmp_path / "map.svg"


def _problems(small_course, readme, picture, minutes=False):
    """The small course's problems; its tiny notebooks take under a minute, so minutes are
    checked only where a test asks (on a notebook of a realistic size)."""
    return course.check(small_course, readme=readme, picture=picture, minutes=minutes)


def test_the_small_course_holds(small):
    assert _problems(*small) == []


def test_each_part_ends_with_an_assignment_whose_rubric_adds_up(small):
    """The last notebook of a part closes with its assignment (prompt, rubric, answer cell);
    the rubric's points add up to the answer cell's; no other notebook has one; and the
    assignment's words count in the notebook's reading minutes (its brief is read there),
    not in its exercises."""
    small_course, readme, picture = small
    path = small_course.notebooks_dir / "03-alone.ipynb"
    original = json.loads(path.read_text())
    cells = [c for c in original["cells"]
             if "assignment" not in c.get("metadata", {}).get("tags", [])]
    with_it = course.reading(original["cells"], small_course.model)
    without = course.reading(cells, small_course.model)
    assert with_it.words > without.words
    assert with_it.reading == pytest.approx(
        without.reading + (with_it.words - without.words) / 150)
    assert with_it.work == without.work

    def problems_with(cells_03, cells_01=None):
        path.write_text(json.dumps({**original, "cells": cells_03}))
        if cells_01 is not None:
            first = small_course.notebooks_dir / "01-kappa.ipynb"
            book = json.loads(first.read_text())
            first.write_text(json.dumps({**book, "cells": book["cells"] + cells_01}))
        return [p for p in _problems(small_course, readme, picture) if "assignment" in p
                or "rubric" in p]

    assert problems_with(cells) == [
        "03-alone.ipynb: the last notebook of part 'All' needs one answer cell tagged "
        "'assignment-answer' (found 0)"]
    assert problems_with(cells + _assignment(total=6)) == [
        "03-alone.ipynb: the rubric's points add up to 5, the answer cell says 6"]
    moved = _assignment()
    assert problems_with(cells[:1] + moved + cells[1:]) == [
        "03-alone.ipynb: the assignment's cells (tagged 'assignment') must close the "
        "notebook, the answer cell last"]
    no_rubric = _assignment()
    no_rubric[1]["source"] = "No table."
    assert problems_with(cells + no_rubric) == [
        "03-alone.ipynb: the assignment has no rubric (a table whose last column is points)"]
    assert problems_with(original["cells"], _assignment()) == [
        "01-kappa.ipynb: has assignment cells, but only the last notebook of a part ends "
        "with an assignment"]


def test_a_use_without_its_prerequisite_fails(small):
    small_course, readme, picture = small
    small_course.notebooks["02"].needs = []
    problems = _problems(small_course, readme, picture)
    assert any("02 uses 'kappa', taught in 01, which is not among its prerequisites" in p
               for p in problems), problems
    # ... and the path, the header line, the README and the picture no longer match the map.
    assert any("header line" in p for p in problems)
    assert any("README.md's course map is stale" in p for p in problems)
    assert any("map.svg does not show" in p for p in problems)


def test_an_undeclared_call_fails(small):
    small_course, readme, picture = small
    small_course.notebooks["02"].uses = []
    problems = _problems(small_course, readme, picture)
    assert any("02 calls 'kappa' in cell 1 but the map lists it in neither" in p
               for p in problems), problems


def test_a_home_that_calls_before_it_explains_fails(small, tmp_path):
    small_course, readme, picture = small
    nb = json.loads((tmp_path / "notebooks" / "01-kappa.ipynb").read_text())
    nb["cells"][0]["source"] = course._source(nb["cells"][0]).replace("Cohen's kappa",
                                                                      "Agreement")
    (tmp_path / "notebooks" / "01-kappa.ipynb").write_text(json.dumps(nb))
    problems = _problems(small_course, readme, picture)
    assert any("01 is the home of 'kappa' but uses it in cell 1 before" in p
               for p in problems), problems


def test_every_notebook_needs_an_explorer_and_models_stay_in_it(small, tmp_path):
    small_course, readme, picture = small
    path = tmp_path / "notebooks" / "03-alone.ipynb"
    nb = json.loads(path.read_text())
    nb["cells"][1]["source"] = "kappa = KappaModel(40, 9, 6, 45).kappa()  # a worked example"
    path.write_text(json.dumps(nb))
    assert _problems(small_course, readme, picture) == [
        "03 has no explorer", "03 builds an explorer's model outside its explorer in cell 1"]


def test_a_concept_needs_exactly_one_home(small):
    small_course, readme, picture = small
    small_course.notebooks["03"].introduces = ["kappa"]
    assert any("concept 'kappa' must have exactly one home; introduced in ['01', '03']" in p
               for p in _problems(small_course, readme, picture))
    small_course.notebooks["03"].introduces = ["nonsense"]
    assert any("names the concept 'nonsense'" in p
               for p in _problems(small_course, readme, picture))


def test_needs_must_point_back_and_never_cycle(small):
    small_course, readme, picture = small
    broken = copy.deepcopy(small_course)
    broken.notebooks["01"].needs = ["02"]
    problems = _problems(broken, readme, picture)
    assert any("01 needs 02, which does not come before it" in p for p in problems)
    assert any("needs has a cycle: 01 -> 02 -> 01" in p for p in problems), problems


def test_a_path_must_bring_what_its_notebooks_need(small):
    small_course, readme, picture = small
    small_course.paths[0]["notebooks"] = ["02"]
    course.write(small_course, readme=readme, picture=picture)
    problems = _problems(small_course, readme, picture)
    assert problems == ["path 'Kappa': 02 needs 01, which it neither includes before it nor "
                        "assumes"]
    small_course.paths[0]["assumes"] = ["01"]
    course.write(small_course, readme=readme, picture=picture)
    assert _problems(small_course, readme, picture) == []
    # A path's name that promises a duration must hold it (01 and 02 take a minute each).
    small_course.paths[0].update(name="A 1-minute taste", notebooks=["01", "02"], assumes=[])
    course.write(small_course, readme=readme, picture=picture)
    assert _problems(small_course, readme, picture) == [
        "path 'A 1-minute taste' takes 2 minutes, over its 1"]
    small_course.paths[0]["name"] = "A 2-minute taste"
    course.write(small_course, readme=readme, picture=picture)
    assert _problems(small_course, readme, picture) == []
    # "Two 1-minute tastes" promise two minutes; "Two" is not a number the check misses.
    small_course.paths[0]["name"] = "Two 1-minute tastes"
    course.write(small_course, readme=readme, picture=picture)
    assert _problems(small_course, readme, picture) == []


def test_a_lecture_path_counts_reading_and_running_and_a_lab_the_whole(small):
    small_course, readme, picture = small
    for nb in small_course.notebooks.values():
        nb.minutes, nb.reading_minutes = 50, 30  # 30 reading and running, 20 exercises
    small_course.paths[0].update(name="A 90-minute session", kind="lab")
    course.write(small_course, readme=readme, picture=picture)
    assert "(50 + 50 = 1 h 40 min, with exercises and explorer)" in readme.read_text()
    assert _problems(small_course, readme, picture) == [
        "path 'A 90-minute session' takes 100 minutes, over its 90"]
    small_course.paths[0]["kind"] = "lecture"
    course.write(small_course, readme=readme, picture=picture)
    assert "(30 + 30 = 1 h, reading and running)" in readme.read_text()
    assert _problems(small_course, readme, picture) == []
    del small_course.paths[0]["kind"]
    course.write(small_course, readme=readme, picture=picture)
    assert _problems(small_course, readme, picture) == [
        "path 'A 90-minute session' needs kind = \"lecture\" or \"lab\", not None",
        "path 'A 90-minute session' takes 100 minutes, over its 90"]


TRIES = """Some prose, and a list that is not the tries:

- a bullet before the heading

**Things to try** (the cell below prints the numbers)

1. Move the slider
   and watch the table.
2. Tick the box.
   - a nested note is part of try 2
3. Reset.

Afterwards, a paragraph.

4. A numbered line after the list has ended is not a try.
"""


def test_tries_are_the_items_of_the_list_under_things_to_try():
    assert course.tries(TRIES) == 3
    assert course.tries(TRIES.replace("**Things to try**", "**Other things**")) == 0
    assert course.tries("### Things to try\n\n- one\n- two\n") == 2  # bullets count too
    assert course.tries("Things to try:\n1. one\n2) two\n3. three\n4. four") == 4
    # A sentence that mentions things to try is not a heading.
    assert course.tries("The numbers behind the first two things to try:\n\n1. a\n2. b") == 0


def test_a_wrapped_line_that_starts_with_a_number_is_not_a_try():
    # Notebook 20's fourth try once wrapped as "... 0.012 with 20 or\n   30. Near calibration
    # ...": indented, the line continues try 4 (CommonMark renders four items: a list inside
    # an item may interrupt its paragraph only when it starts at 1), so it is no fifth try.
    wrapped = ("### Things to try\n\n1. one\n2. two\n3. three\n"
               "4. At T = 0.25 the ECE is 0.012 with 20 or\n   30. Near calibration the bins"
               " decide.\n")
    unindented = wrapped.replace("\n   30.", "\n30.")  # at the margin it is a fifth item
    assert (course.tries(wrapped), course.tries(unindented)) == (4, 5)
    markdown_it = pytest.importorskip("markdown_it")  # the renderer agrees on both
    for text, items in [(wrapped, 4), (unindented, 5)]:
        tokens = markdown_it.MarkdownIt("commonmark").parse(text)
        assert sum(t.type == "list_item_open" and t.level == 1 for t in tokens) == items


def test_minutes_follow_the_reading_model(small, tmp_path):
    small_course, readme, picture = small
    # Prose: 350 words, 15 in the title and header line (as `write` makes it), 6 in each folded
    # answer's markup and text, 11 in the tries (3 in the heading, 2 in each item); code: 30
    # lines (a comment-only line does not count) and one per solution cell.
    prose = " ".join(["word"] * 350)
    code = "\n".join(f"x{i} = {i}  # set" for i in range(29)) + "\n# only a comment\n"
    nb = _notebook("03", prose, code + EXPLORER, exercises=2, questions=3,
                   tries="Things to try:\n\n1. one\n2. two\n3. three\n4. four")
    # The part's assignment is read: 35 words (19 in the task, 14 in the rubric table, 2 in the
    # answer cell); doing it is not in the minutes.
    nb["cells"] += _assignment()
    (tmp_path / "notebooks" / "03-alone.ipynb").write_text(json.dumps(nb))
    course.write(small_course, readme=readme, picture=picture)  # its old header line
    reading = course.reading(course._cells(small_course, "03"), small_course.model)
    assert (reading.words, reading.code_lines, reading.exercises, reading.questions,
            reading.tries) == (350 + 15 + 3 * 6 + 11 + 35, 30 + 2, 2, 3, 4)
    assert reading.reading == pytest.approx(429 / 150 + 32 / 6 + 3 * 1)  # 11.19
    assert reading.work == 2 * 8 + 4 * 2
    assert reading.minutes == pytest.approx(reading.reading + 24)  # 35.19

    def about_03():
        return [p for p in _problems(small_course, readme, picture, minutes=True)
                if p.startswith("03") and "minutes" in p]

    assert about_03() == [
        "03: the map says minutes = 1, the reading model 35.2 (more than 20% apart; python "
        "tools/course.py minutes --update)",
        "03: the map says reading_minutes = 1, the reading model 11.2 (more than 20% apart; "
        "python tools/course.py minutes --update)"]
    # `minutes --update` sets both in the map, touching no other line.
    map_path = tmp_path / "notebooks" / "course.toml"
    before = map_path.read_text()
    assert "03-alone.ipynb" in course.update_minutes(small_course, map_path)
    after = map_path.read_text()
    changed = [(old, new) for old, new in zip(before.splitlines(), after.splitlines(),
                                              strict=True) if old != new]
    assert ("minutes = 1", "minutes = 35") in changed
    assert ("reading_minutes = 1", "reading_minutes = 11") in changed
    assert all(old.split(" = ")[0] in ("minutes", "reading_minutes") for old, _ in changed)
    small_course = course.load(map_path)
    assert (small_course.notebooks["03"].minutes,
            small_course.notebooks["03"].reading_minutes) == (35, 11)
    course.write(small_course, readme=readme, picture=picture)
    assert about_03() == []
    header = course._source(course._cells(small_course, "03")[0]).splitlines()[-1]
    assert header == ("*Prerequisites: none · about 35 minutes (reading and running 11, "
                      "exercises and explorer 24)*")
    small_course.model["max_minutes"] = 30
    assert about_03() == ["03 takes 35.2 minutes by the reading model (reading and running "
                          "11.2, exercises and explorer 24.0), over the cap of 30"]


def test_a_notebook_missing_from_the_map_fails(small, tmp_path):
    small_course, readme, picture = small
    (tmp_path / "notebooks" / "04-extra.ipynb").write_text(json.dumps(_notebook("04", "", "")))
    assert any("notebooks/ has ['04-extra.ipynb'] that the map lacks" in p
               for p in _problems(small_course, readme, picture))
