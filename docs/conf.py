"""Sphinx configuration of the course site (``make site`` -> build/site/).

The notebooks are rendered from their committed outputs (myst-nb, no execution); the landing
page is the README's course map; the API reference is generated from the docstrings (numpydoc),
one page per public function.
"""

from __future__ import annotations

import html
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

import accessibility  # noqa: E402  (tools/accessibility.py: the figures' alt text)

import evalkit  # noqa: E402

project = "evalkit"
author = "evalkit contributors"
copyright = "evalkit contributors"  # noqa: A001 (Sphinx's name)
release = evalkit.__version__

extensions = [
    "myst_nb",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
]

# The notebooks as committed: executed, with outputs. Building the site runs no code.
nb_execution_mode = "off"
myst_enable_extensions = ["dollarmath", "amsmath", "html_image"]
myst_heading_anchors = 3
exclude_patterns = ["_build", "**.ipynb_checkpoints", "_course_map.md"]
suppress_warnings = ["mystnb.unknown_mime_type"]  # widget views: static pages show their text

autosummary_generate = True
autodoc_typehints = "none"  # the numpydoc Parameters sections say it better
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

html_theme = "sphinx_book_theme"
html_title = "evalkit: evaluating retrieval and classification"
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": True,
    "home_page_in_toc": True,
    # Code colours with 4.5:1 contrast on the code background (WCAG 2.1 AA, 1.4.3); the
    # theme's default (tango) gives strings 3.2:1.
    "pygments_light_style": "a11y-high-contrast-light",
    "pygments_dark_style": "a11y-high-contrast-dark",
}
html_static_path = ["_static"]
html_css_files = ["accessibility.css"]
html_js_files = ["accessibility.js"]

# Group the public API by topic module: the reference page is written on every build, so a
# new public function gets its page without anyone editing a list.
TOPICS = {
    "evalkit.classification": "Classification: counts, precision, recall, F",
    "evalkit._averaging": "Classification: class weights",
    "evalkit.chance_corrected": "Classification: MCC, balanced accuracy, informedness, markedness",
    "evalkit.costs": "Costs",
    "evalkit.curves": "ROC and precision-recall curves",
    "evalkit.ranking": "Ranked retrieval: one ranking",
    "evalkit.trec": "Ranked retrieval: TREC files and evaluating runs",
    "evalkit.agreement": "Agreement between judges",
    "evalkit.correlation": "Rank correlation",
    "evalkit.probabilistic": "Probabilistic metrics: cPrecision, cRecall, cF1",
    "evalkit.calibration": "Calibration: Brier score, ECE, reliability",
    "evalkit.stats": "Estimation and significance",
    "evalkit.datasets": "Data sets: the shipped collections and simulated class sizes",
    "evalkit.course": "Notebook helpers",
}


def _write_reference() -> None:
    groups: dict[str, list[str]] = defaultdict(list)
    for name in evalkit.__all__:
        module = getattr(evalkit, name).__module__
        # A topic that is a package (evalkit.stats) holds the names of all its modules.
        topic = next((t for t in TOPICS if module.startswith(f"{t}.")), module)
        groups[topic].append(name)
    unknown = sorted(set(groups) - set(TOPICS))
    if unknown:
        raise RuntimeError(f"docs/conf.py: give the module(s) {unknown} a heading in TOPICS")
    lines = ["API reference", "=============", "",
             "Everything below is importable from the package: ``import evalkit as ek``, then "
             "``ek.<name>``. Each page is the function's docstring: its formula, parameters, "
             "references and a worked example.", ""]
    for module, title in TOPICS.items():
        if module not in groups:
            continue
        lines += [title, "-" * len(title), "", ".. currentmodule:: evalkit", "",
                  ".. autosummary::", "   :toctree: generated", "   :nosignatures:", ""]
        lines += [f"   {name}" for name in sorted(groups[module])] + [""]
    _write_if_changed(DOCS / "reference" / "index.rst", "\n".join(lines))


def _write_if_changed(target: Path, text: str) -> None:
    # Unchanged files keep their time stamp, so Sphinx rebuilds only what changed.
    target.parent.mkdir(exist_ok=True)
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


def _copy_notebooks() -> None:
    """Copy notebooks/*.ipynb and the tool-conventions page beside them into docs/notebooks/
    (a build copy, not in git): Sphinx reads sources from docs/ only, and a symbolic link
    would resolve outside it. The page lives beside the notebooks so that their links to it
    work in JupyterLab too."""
    target = DOCS / "notebooks"
    target.mkdir(exist_ok=True)
    sources = {path.name: path for path in (REPO / "notebooks").glob("*.ipynb")}
    sources["conventions.md"] = REPO / "notebooks" / "conventions.md"
    for stale in [*target.glob("*.ipynb"), *target.glob("*.md")]:
        if stale.name not in sources:
            stale.unlink()
    alt_texts = accessibility.load()
    for name, path in sources.items():
        text = path.read_text(encoding="utf-8")
        # Each figure's alt text from notebooks/alt-text.toml, whether or not
        # `tools/course.py write` has put it into the notebook yet.
        if name in alt_texts:
            notebook = json.loads(text)
            if accessibility.apply(notebook, alt_texts[name]):
                text = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
        _write_if_changed(target / name, text)


def _write_course_map() -> None:
    """The README's course map, copied beside index.md so that its links to notebooks/ resolve
    inside the site."""
    readme = (REPO / "README.md").read_text()
    start, end = "<!-- course-map -->", "<!-- /course-map -->"
    if start not in readme or end not in readme:
        raise RuntimeError(f"README.md lacks the {start} ... {end} markers of the course map")
    course_map = readme.split(start, 1)[1].split(end, 1)[0]
    # The README links the picture as docs/course-map.svg (beside index.md: course-map.svg) and
    # the map's source file, which the site does not carry (named, not linked, there).
    course_map = course_map.replace("](docs/", "](").replace(
        "[`notebooks/course.toml`](notebooks/course.toml)", "`notebooks/course.toml`")
    course_map = re.sub(r"!\[(.*?)\]\(course-map\.svg\)", _inline_course_map, course_map)
    _write_if_changed(DOCS / "_course_map.md", course_map)


def _inline_course_map(image: re.Match) -> str:
    """The picture inline in the page, not as an <img>: its boxes are links to the notebooks'
    pages, and links inside an SVG shown as an image do nothing. One line of raw HTML (a blank
    line would end Markdown's HTML block); the README's alt text becomes its caption."""
    svg = (DOCS / "course-map.svg").read_text(encoding="utf-8")
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    svg = " ".join(svg.split())
    return (f'<figure class="course-map">{svg}'
            f'<figcaption>{html.escape(image.group(1))}</figcaption></figure>')


_write_reference()
_copy_notebooks()
_write_course_map()
