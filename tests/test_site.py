"""The course site (``make site``): Sphinx builds it with warnings as errors, and every notebook
and every public function has a page."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import evalkit

from .conftest import REPO

pytest.importorskip("sphinx", reason="the course extra is not installed (pip install -e .[course])")
pytest.importorskip("myst_nb", reason="the course extra is not installed")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
         str(REPO / "docs"), str(out)],
        capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"sphinx failed:\n{result.stderr[-5000:]}"
    return out


def test_every_notebook_has_a_page_with_its_outputs(site):
    notebooks = sorted((REPO / "notebooks").glob("*.ipynb"))
    assert notebooks
    for path in notebooks:
        page = site / "notebooks" / f"{path.stem}.html"
        assert page.is_file(), f"no page for {path.name}"
        html = page.read_text(encoding="utf-8")
        # Rendered from the committed outputs (nothing is executed): printed output is there,
        # and so is every figure the notebook stores.
        assert "cell_output" in html, f"{page.name} shows no outputs"
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        figures = sum("image/png" in output.get("data", {})
                      for cell in cells for output in cell.get("outputs", []))
        assert html.count("<img") >= figures, f"{page.name}: {figures} figures stored"


def test_every_public_function_has_a_page(site):
    for name in evalkit.__all__:
        page = site / "reference" / "generated" / f"evalkit.{name}.html"
        assert page.is_file(), f"no API page for {name}"
        html = page.read_text(encoding="utf-8")
        assert "Parameters" in html and "Examples" in html, f"{name}: docstring not rendered"


def test_the_landing_page_is_the_course_map(site):
    html = (site / "index.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'href="notebooks/(\d\d-[\w-]+)\.html', html))
    assert 'href="notebooks/conventions.html' in html  # the tool-conventions page, linked once
    assert linked == {p.stem for p in (REPO / "notebooks").glob("*.ipynb")}


def test_the_instructor_notes_are_built_and_linked(site):
    """docs/instructor: a page per notebook, with its four sections and a working link to the
    notebook's page; the index's table links every page (tests/test_instructor_notes.py checks
    the pages' content)."""
    index = (site / "instructor" / "index.html").read_text(encoding="utf-8")
    assert 'href="instructor/index.html"' in (site / "index.html").read_text(encoding="utf-8")
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        number = path.name[:2]
        page = site / "instructor" / f"{number}.html"
        assert page.is_file(), f"no instructor page for {path.name}"
        html = page.read_text(encoding="utf-8")
        for section in ("Timing", "Questions for the room", "Misconceptions to watch for",
                        "Where students get stuck"):
            assert f">{section}<" in html, f"{page.name}: no section {section!r}"
        assert f'href="../notebooks/{path.stem}.html' in html, f"{page.name}: notebook link"
        assert f'href="{number}.html"' in index, f"the index does not link {page.name}"
