"""The README's API tour runs and says what the code does."""

from __future__ import annotations

import re

import numpy as np

from .conftest import REPO


def test_api_tour_runs_and_its_comments_are_true(monkeypatch):
    monkeypatch.chdir(REPO)  # the tour reads data/ relative to the repository, as a user would
    readme = (REPO / "README.md").read_text()
    tour = re.search(r"## A five-line tour of the API\n+```python\n(.*?)```", readme, re.S)
    assert tour, "README has no API tour"
    code = tour.group(1)
    lines = [line for line in code.strip().splitlines() if not line.startswith("import ")]
    assert len(lines) == 5
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    ek = namespace["ek"]
    np.testing.assert_array_equal(ek.confusion_matrix(namespace["y_true"], namespace["y_pred"]),
                                  [[2, 1], [1, 2]])
    assert "[[2, 1], [1, 2]]" in code


def test_readme_names_the_two_commands():
    readme = (REPO / "README.md").read_text()
    assert "make lab" in readme and "make test" in readme


def _course_map() -> str:
    readme = (REPO / "README.md").read_text()
    assert "<!-- course-map -->" in readme and "<!-- /course-map -->" in readme
    return readme.split("<!-- course-map -->", 1)[1].split("<!-- /course-map -->", 1)[0]


def _header(path) -> tuple[set[str], int]:
    import json

    first = "".join(json.loads(path.read_text())["cells"][0]["source"])
    match = re.search(r"^\*Prerequisites: (.+?) · about (\d+) minutes \(reading and running "
                      r"\d+, exercises and explorer \d+\)\*$", first, re.M)
    assert match, f"{path.name} has no prerequisites line"
    return set(re.findall(r"\b\d\d\b", match.group(1))), int(match.group(2))


def test_the_course_map_lists_every_notebook_with_its_minutes_and_prerequisites():
    rows = {}
    for line in _course_map().splitlines():
        found = re.search(r"\(notebooks/(\d\d-[\w-]+)\.ipynb\)", line)
        if found and line.startswith("|"):
            assert found.group(1) not in rows, f"{found.group(1)} listed twice"
            rows[found.group(1)] = [cell.strip() for cell in line.strip("|").split("|")]
    notebooks = sorted((REPO / "notebooks").glob("*.ipynb"))
    assert set(rows) == {p.stem for p in notebooks}
    for path in notebooks:
        prerequisites, minutes = _header(path)
        cells = rows[path.stem]
        # columns: notebook | what it answers | minutes | prerequisites | sources
        assert cells[2] == str(minutes), f"{path.stem}: README says {cells[2]} min"
        listed = set(re.findall(r"\b\d\d\b", cells[3]))
        assert listed == prerequisites, f"{path.stem}: README prerequisites {listed}"


def test_the_readme_names_the_four_commands_and_stays_inside_the_repository():
    readme = (REPO / "README.md").read_text()
    for command in ("make lab", "make test", "make student", "make present"):
        assert command in readme
    assert "shared/" not in readme, "a clone has no shared/: link the site's reference"
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if not target.startswith(("http://", "https://")):
            assert (REPO / target).exists(), f"README links to a missing file: {target}"
