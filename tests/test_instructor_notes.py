"""The lecturer's kit (docs/instructor): a page of instructor notes for every notebook of the
course map, each with the same four sections, its Timing made from notebooks/course.toml (and
checked by ``tools/course.py check``), questions for the room that come with their answers, and
nothing of it in the student edition. tests/test_site.py checks that the site builds them."""

from __future__ import annotations

import json
import re
import shutil
import sys
from dataclasses import replace

import pytest

from evalkit.course._editions import MANIFEST, load_digests, write_student_editions

from .conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
import course  # noqa: E402
import instructor  # noqa: E402

KIT = REPO / "docs" / "instructor"


@pytest.fixture(scope="module")
def the_course() -> course.Course:
    return course.load()


@pytest.fixture(scope="module")
def pages(the_course) -> dict[str, str]:
    return {number: (KIT / f"{number}.md").read_text(encoding="utf-8")
            for number in the_course.notebooks if (KIT / f"{number}.md").exists()}


def test_every_notebook_of_the_map_has_a_page(the_course, pages):
    missing = sorted(set(the_course.notebooks) - set(pages))
    assert not missing, f"no instructor notes for {missing} (docs/instructor/NN.md)"
    assert instructor.directory(the_course) == KIT


def test_each_page_has_the_four_sections_in_order(pages):
    for number, text in pages.items():
        assert tuple(instructor.sections(text)) == instructor.SECTIONS, number
        assert text.startswith(f"# {number} · "), f"{number}: title"


def test_each_page_names_its_notebook_and_its_explorer(the_course, pages):
    for number, text in pages.items():
        nb = the_course.notebooks[number]
        assert f"](../notebooks/{nb.file})" in text, f"{number}: no link to {nb.file}"
        explorer = instructor.EXPLORER.search(text)
        assert explorer, f"{number}: no 'Explorer: `Name`' line"
        source = (REPO / "notebooks" / nb.file).read_text(encoding="utf-8")
        assert f"{explorer.group(1)}(" in source, \
            f"{number}: the notebook does not build {explorer.group(1)}"


def test_timing_is_the_course_maps(the_course, pages):
    for number, text in pages.items():
        nb = the_course.notebooks[number]
        timing = instructor.sections(text)["Timing"]
        assert instructor.timing_lines(nb) in timing, f"{number}: Timing is stale"
        lecture, lab = re.findall(r"\*\*(?:Lecture|Lab):\*\* (\d+) minutes", timing)
        assert (int(lecture), int(lab)) == (nb.reading_minutes, nb.minutes), number
        assert "Project" in timing, f"{number}: the Timing section says what to project"


def test_three_to_five_questions_each_with_a_concrete_answer(pages):
    for number, text in pages.items():
        items = instructor.numbered_items(instructor.sections(text)["Questions for the room"])
        assert 3 <= len(items) <= 5, f"{number}: {len(items)} questions"
        for item in items:
            # The question (or the instruction "Predict ...") in italics, then its answer.
            found = re.match(r"\*(.+?[?.])\*\s*(.+)", item)
            assert found, f"{number}: no '*question?* answer' in {item[:60]!r}"
            answer = found.group(2)
            assert len(answer.split()) >= 4, f"{number}: no answer to {found.group(1)!r}"
            assert re.search(r"\d", answer), f"{number}: the answer names no number: {answer!r}"


def test_three_to_five_misconceptions_each_with_its_correction(pages):
    for number, text in pages.items():
        items = instructor.numbered_items(
            instructor.sections(text)["Misconceptions to watch for"])
        assert 3 <= len(items) <= 5, f"{number}: {len(items)} misconceptions"
        for item in items:
            found = re.match(r"\*\*(.+?)\*\*\s*(.+)", item)
            assert found and len(found.group(2).split()) >= 5, f"{number}: {item[:60]!r}"
        assert instructor.key_misconception(text), number


def test_where_students_get_stuck_goes_exercise_by_exercise(the_course, pages):
    for number, text in pages.items():
        cells = course._cells(the_course, number)
        exercises = course.reading(cells, the_course.model).exercises
        body = instructor.sections(text)["Where students get stuck"]
        named = [int(n) for n in re.findall(r"^- Exercise (\d+):", body, flags=re.M)]
        assert named == list(range(1, exercises + 1)), \
            f"{number}: lines for exercises {named}, the notebook has {exercises}"


def test_the_index_links_every_page_in_a_table(the_course):
    text = (KIT / "index.md").read_text(encoding="utf-8")
    table = text.split(instructor.TABLE_START)[1].split(instructor.TABLE_END)[0]
    assert table.strip().startswith(
        "| Notebook | Lecture (min) | Lab (min) | Explorer | Key misconception |")
    for number, nb in the_course.notebooks.items():
        row = next(line for line in table.splitlines() if line.startswith(f"| [{number} "))
        assert f"]({number}.md) | {nb.reading_minutes} | {nb.minutes} | `" in row, row
    index = (REPO / "docs" / "index.md").read_text(encoding="utf-8")
    assert "instructor/index" in index, "the kit is not in the site's toctree"


def test_the_course_check_holds_the_kit(the_course):
    assert instructor.problems(the_course, KIT) == []


def test_a_stale_timing_or_table_fails_the_check_and_write_mends_it(the_course, tmp_path):
    kit = tmp_path / "instructor"
    shutil.copytree(KIT, kit)
    first = next(iter(the_course.notebooks))
    changed = replace(the_course.notebooks[first],
                      minutes=the_course.notebooks[first].minutes + 1)
    drifted = replace(the_course, notebooks={**the_course.notebooks, first: changed})
    problems = instructor.problems(drifted, kit)
    assert any(f"{first}.md: its Timing is stale" in p for p in problems), problems
    assert any("index.md: its table is stale" in p for p in problems), problems
    assert course.check(drifted, kit=kit, minutes=False) != []
    assert set(instructor.write(drifted, kit)) == {f"instructor/{first}.md",
                                                   "instructor/index.md"}
    assert instructor.problems(drifted, kit) == []
    (kit / f"{first}.md").unlink()
    assert f"{first}: no instructor notes (docs/instructor/{first}.md)" in \
        instructor.problems(drifted, kit)


def test_a_page_without_its_sections_or_markers_fails(the_course, tmp_path):
    kit = tmp_path / "instructor"
    shutil.copytree(KIT, kit)
    first = next(iter(the_course.notebooks))
    page = kit / f"{first}.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("## Where students get stuck", "## Exercises")
                    .replace(instructor.TIMING_END, ""), encoding="utf-8")
    problems = instructor.problems(the_course, kit)
    assert any("its sections are" in p for p in problems), problems
    assert any("lacks the" in p and first in p for p in problems), problems


def test_the_student_edition_ships_no_instructor_notes(tmp_path):
    paths = sorted((REPO / "notebooks").glob("*.ipynb"))
    write_student_editions(paths, tmp_path, digests=load_digests(
        REPO / "notebooks" / "answer-digests.json"))
    shipped = {p.name for p in tmp_path.iterdir()}
    assert shipped == {p.name for p in paths} | {MANIFEST}
    for path in tmp_path.glob("*.ipynb"):
        text = json.dumps(json.loads(path.read_text(encoding="utf-8"))["cells"])
        assert "instructor" not in text.lower(), f"{path.name} mentions the instructor notes"
