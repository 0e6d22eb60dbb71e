"""Alt text of the notebooks' figures (notebooks/alt-text.toml, tools/accessibility.py): every
figure cell has a text that says what it shows, `write` puts it where each renderer reads it,
and the course map's boxes are links with text large enough to read."""

from __future__ import annotations

import json
import re
import sys

import pytest

from .conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
import accessibility  # noqa: E402
import course  # noqa: E402


def _notebook(tmp_path, name="00-demo.ipynb", image=True):
    outputs = [{"output_type": "display_data", "metadata": {},
                "data": {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}}] if image else []
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": "# Demo"},
        {"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1,
         "outputs": outputs, "source": "plt.plot([1, 2])"}]}
    (tmp_path / name).write_text(json.dumps(notebook), encoding="utf-8")
    return tmp_path / name


def test_every_figure_of_the_course_has_alt_text():
    assert accessibility.problems(REPO / "notebooks", accessibility.load()) == []


def test_a_figure_without_text_a_short_text_and_a_stale_text_fail(tmp_path):
    _notebook(tmp_path)
    missing = accessibility.problems(tmp_path, {})
    assert len(missing) == 1 and "cell c1 shows a figure" in missing[0]
    short = accessibility.problems(tmp_path, {"00-demo.ipynb": {"c1": "A line."}})
    assert "has 2 words" in short[0]
    stale = accessibility.problems(tmp_path, {"00-demo.ipynb": {
        "c1": "Line chart of y against x, rising from 1 to 2: the point is it rises.",
        "m1": "A text for a markdown cell that draws nothing at all, so it is stale."}})
    assert len(stale) == 1 and "cell m1, which shows no figure" in stale[0]
    assert "no notebook 99-x.ipynb" in accessibility.problems(tmp_path, {"99-x.ipynb": {}})[0]


def test_apply_writes_the_keys_nbconvert_voila_and_myst_nb_read(tmp_path):
    path = _notebook(tmp_path)
    notebook = json.loads(path.read_text())
    text = "Line chart of y against x, rising from 1 to 2: the point is that it rises."
    assert accessibility.apply(notebook, {"c1": text})
    metadata = notebook["cells"][1]["metadata"]
    assert metadata["alt"] == text and metadata["mystnb"]["image"]["alt"] == text
    assert not accessibility.apply(notebook, {"c1": text})  # unchanged the second time
    (tmp_path / "00-demo.ipynb").write_text(json.dumps(notebook))
    assert accessibility.problems(tmp_path, {"00-demo.ipynb": {"c1": text}}, applied=True) == []
    other = "Bar chart of something else entirely, with ten words or more in it."
    assert "not in the notebook" in accessibility.problems(
        tmp_path, {"00-demo.ipynb": {"c1": other}}, applied=True)[0]


def test_the_site_and_lecture_mode_read_the_alt_text():
    template = (REPO / "tools/jupyter/voila/templates/lecture/index.html.j2").read_text()
    assert "block data_priority" in template and "cell.metadata.get('alt')" in template
    conf = (REPO / "docs" / "conf.py").read_text()
    assert "accessibility.apply" in conf


@pytest.fixture(scope="module")
def course_map():
    return (REPO / "docs" / "course-map.svg").read_text(encoding="utf-8")


def test_every_box_of_the_course_map_links_its_notebook_once(course_map):
    the_course = course.load()
    named = re.findall(r'<a xlink:href="([^"]+)" aria-label="([^"]+)">', course_map)
    assert sorted(href for href, _ in named) == sorted(
        course.site_page(nb) for nb in the_course.notebooks.values())
    for _, label in named:
        assert re.match(r"\d\d: .+ \(\d+ minutes\)$", label)
    # Every other link is a duplicate target, out of the tab order and of the reading order.
    others = re.findall(r"<a xlink:href=\"[^\"]+\"( [^>]*)?>", course_map)
    assert all('aria-label' in attrs or ('tabindex="-1"' in attrs and 'aria-hidden="true"'
                                          in attrs) for attrs in others)
    assert "_blank" not in course_map


def test_the_course_map_text_is_body_size_at_the_sites_text_width(course_map):
    """Shown at the width of the site's text column (672 px at a 1280 px window; the browser
    test measures it), every text is at least the body's 16 px."""
    view_width = float(re.search(r'viewBox="0 0 ([\d.]+) ', course_map).group(1))
    sizes = [float(size) for size in re.findall(r"font-size: ([\d.]+)px", course_map)]
    assert sizes
    assert min(sizes) * 672 / view_width >= 16
