"""The course map (notebooks/course.toml): prerequisites that hold, honest minutes, and the
headers, README and picture made from it. Each rule is also shown to fail on a broken map."""

from __future__ import annotations

import copy
import json
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
        minutes = sum(the_course.notebooks[n].minutes for n in path["notebooks"])
        assert f"= {course._duration(minutes)})" in text


# --- A small course of our own, to show that each rule bites --------------------------------

MODEL = """[reading_model]
words_per_minute = 180
code_lines_per_minute = 10
minutes_per_exercise = 5
minutes_per_question = 1
max_minutes = 45
tolerance = 0.2
"""


EXPLORER = "KappaExplorer(KappaModel(40, 9, 6, 45))"


def _notebook(number: str, prose: str, code: str, *, exercises: int = 0, questions: int = 0,
              needs: str = "none", minutes: int = 1) -> dict:
    header = f"# Notebook {number}\n\n{prose}\n\n*Prerequisites: {needs} · about {minutes} minutes*"
    cells = [{"cell_type": "markdown", "metadata": {}, "source": header},
             {"cell_type": "code", "metadata": {}, "source": code, "outputs": [],
              "execution_count": None}]
    cells += [{"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": "x = 1",
               "outputs": [], "execution_count": None}] * exercises
    cells += [{"cell_type": "markdown", "metadata": {},
               "source": "<details><summary>Answer</summary>yes</details>"}] * questions
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


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
    for name, nb in books.items():
        (tmp_path / "notebooks" / name).write_text(json.dumps(nb))
    text = MODEL + """
[[part]]
name = "All"
notebooks = ["01", "02", "03"]

[[path]]
name = "Kappa"
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
needs = []
introduces = ["kappa"]

[[notebook]]
file = "02-weighted.ipynb"
title = "Weighted"
question = "Q2"
minutes = 1
needs = ["01"]
introduces = ["weights"]
uses = ["kappa"]

[[notebook]]
file = "03-alone.ipynb"
title = "Alone"
question = "Q3"
minutes = 1
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
    nb["cells"][0]["source"] = nb["cells"][0]["source"].replace("Cohen's kappa", "Agreement")
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
    assert _problems(small_course, readme, picture) == ["path 'A 1-minute taste' takes 2 minutes"]
    small_course.paths[0]["name"] = "A 2-minute taste"
    course.write(small_course, readme=readme, picture=picture)
    assert _problems(small_course, readme, picture) == []


def test_minutes_follow_the_reading_model(small, tmp_path):
    small_course, readme, picture = small
    # Prose: 350 words, 7 in the title and header line, 6 in each folded answer's markup and
    # text; code: 30 lines (a comment-only line does not count) and one per solution cell.
    prose = " ".join(["word"] * 350)
    code = "\n".join(f"x{i} = {i}  # set" for i in range(29)) + "\n# only a comment\n"
    nb = _notebook("03", prose, code + EXPLORER, exercises=2, questions=3)
    reading = course.reading(nb["cells"], small_course.model)
    assert (reading.words, reading.code_lines, reading.exercises, reading.questions) == (
        350 + 7 + 3 * 6, 30 + 2, 2, 3)
    assert reading.minutes == pytest.approx(375 / 180 + 32 / 10 + 2 * 5 + 3 * 1)
    (tmp_path / "notebooks" / "03-alone.ipynb").write_text(json.dumps(nb))
    def about_03():
        return [p for p in _problems(small_course, readme, picture, minutes=True)
                if p.startswith("03")]

    assert about_03() == ["03: the map says 1 minutes, the reading model 18.3 (more than 20% "
                          "apart)"]
    small_course.notebooks["03"].minutes = round(reading.minutes)
    course.write(small_course, readme=readme, picture=picture)
    assert about_03() == []
    small_course.model["max_minutes"] = 15
    assert about_03() == ["03 takes 18.3 minutes by the reading model, over the cap of 15"]


def test_a_notebook_missing_from_the_map_fails(small, tmp_path):
    small_course, readme, picture = small
    (tmp_path / "notebooks" / "04-extra.ipynb").write_text(json.dumps(_notebook("04", "", "")))
    assert any("notebooks/ has ['04-extra.ipynb'] that the map lacks" in p
               for p in _problems(small_course, readme, picture))
