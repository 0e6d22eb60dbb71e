"""The course site passes axe-core (WCAG 2.1 A and AA): no serious or critical violation on
any page, and the course map on the landing page is readable at 1280 px, every box a link.

The site is built as ``make site`` builds it; each page is opened from disk in headless
Chromium at 1280 x 900 (requests off the machine are refused, as on an offline CI), axe-core
(vendored, tests/browser/vendor/) runs on it, and every violation found is printed by rule,
page and element. Lecture mode is checked in test_present.py, on the pages it already opens.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ._axe import by_rule, describe, run_axe
from ._labserver import REPO_ROOT
from .test_notebooks_in_browser import browser_unavailable_reason, skip_or_fail

pytest.importorskip("sphinx", reason="the course extra is not installed (pip install -e .[course])")
pytest.importorskip("myst_nb", reason="the course extra is not installed")

VIEWPORT = {"width": 1280, "height": 900}

#: The rendered size of every text of the course map and the page's body text, in CSS px.
_MAP_FONTS_JS = """
() => {
  const svg = document.querySelector('figure.course-map svg');
  if (!svg) return null;
  const scale = svg.getScreenCTM().a;
  const texts = [...svg.querySelectorAll('text')].map(
      (t) => ({text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale}));
  const paragraph = document.querySelector('article p, main p');
  const links = [...svg.querySelectorAll('a')].map((a) => ({
      href: a.getAttribute('xlink:href') || a.getAttribute('href'),
      label: a.getAttribute('aria-label'), hidden: a.getAttribute('aria-hidden')}));
  return {texts, body: parseFloat(getComputedStyle(paragraph).fontSize),
          width: svg.getBoundingClientRect().width, links};
}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    reason = browser_unavailable_reason()
    if reason:
        skip_or_fail(reason)
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
         str(REPO_ROOT / "docs"), str(out)],
        capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"sphinx failed:\n{result.stderr[-5000:]}"
    return out


@pytest.fixture
def page(request):
    browser = request.getfixturevalue("lab_browser")
    context = browser.new_context(viewport=VIEWPORT)
    # Offline, as CI is: a page that waits for a CDN would only time out.
    context.route(re.compile(r"^https?://"), lambda route: route.abort())
    page = context.new_page()
    yield page
    context.close()


def _pages(site):
    """The site's pages: not its copies of the sources, nor the theme's template fragments
    that Sphinx copies into _static (macros, never a page anyone opens)."""
    return sorted(p for p in site.rglob("*.html")
                  if not {"_sources", "_static"} & set(p.relative_to(site).parts))


@pytest.mark.browser
def test_every_page_of_the_site_passes_axe(site, page):
    pages = _pages(site)
    assert len(pages) > 40  # the notebooks, the API reference, the index and search pages
    found = {}
    for path in pages:
        page.goto(path.as_uri(), wait_until="load")
        violations = run_axe(page)
        if violations:
            found[str(path.relative_to(site))] = violations
    summary = "\n".join(f"  {rule}: {p} pages, {e} elements"
                        for rule, (p, e) in by_rule(found).items())
    assert not found, (f"axe-core: serious or critical WCAG 2.1 AA violations on "
                       f"{len(found)} of {len(pages)} pages, by rule:\n{summary}\n\n"
                       f"{describe(found)}")


@pytest.mark.browser
def test_the_course_map_is_readable_at_1280_px_and_links_every_notebook(site, page):
    page.goto((site / "index.html").as_uri(), wait_until="load")
    measured = page.evaluate(_MAP_FONTS_JS)
    assert measured is not None, "the landing page does not show the course map inline"
    small = [(t["text"], round(t["px"], 1)) for t in measured["texts"]
             if t["px"] < measured["body"] - 0.05]
    assert not small, (f"course-map text smaller than the body text ({measured['body']} px) "
                       f"at 1280 px (map {measured['width']:.0f} px wide): {small[:10]}")
    named = {link["href"] for link in measured["links"] if link["label"] and not link["hidden"]}
    stems = {p.stem for p in (REPO_ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")}
    assert named == {f"notebooks/{stem}.html" for stem in stems}
    for href in named:
        assert (site / href).is_file(), href
    # Every link of the map leads to a notebook page; only one per box is in the tab order.
    assert all(re.fullmatch(r"notebooks/\d\d-[\w-]+\.html", link["href"])
               for link in measured["links"])
