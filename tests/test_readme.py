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
