"""Accessibility of the course material: the alt text of the notebooks' figures, and the
course map's links.

Alt text of the notebooks' figures: ``notebooks/alt-text.toml`` holds it, keyed by notebook
file and cell id, one text per code cell that stores an image; ``apply`` writes it into the
cells' metadata where each renderer looks for it.

- ``alt`` in the cell's metadata: nbconvert's classic template and evalkit's lecture template
  (Voilà, tools/jupyter/voila/templates/lecture) write it as the ``<img>``'s ``alt``;
- ``mystnb.image.alt``: myst-nb (the course site) does the same. The site's build also applies
  the file to the copies it renders (docs/conf.py), so the site never waits for ``write``.

JupyterLab (4.x) writes no ``alt`` for an image output whatever the metadata says; there the
figure's title, axis labels and the prose around it are what a screen reader has.

A text says what the figure shows: its kind, its axes, its series, and the point the reader
should take (at least ``MIN_WORDS`` words).
"""

from __future__ import annotations

import html
import json
import re
import tomllib
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
ALT_TEXT = REPO / "notebooks" / "alt-text.toml"
MIN_WORDS = 10


def load(path: Path = ALT_TEXT) -> dict[str, dict[str, str]]:
    """{notebook file: {cell id: alt text}}; empty when the file does not exist."""
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        return tomllib.load(handle)


def figure_cells(notebook: dict[str, Any]) -> list[dict[str, Any]]:
    """The code cells that store an image output (PNG, JPEG or SVG)."""
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"
            and any(mime in output.get("data", {}) for output in cell.get("outputs", [])
                    for mime in ("image/png", "image/jpeg", "image/svg+xml"))]


def apply(notebook: dict[str, Any], texts: dict[str, str]) -> bool:
    """Write each cell's alt text into its metadata; True when anything changed."""
    changed = False
    for cell in notebook["cells"]:
        text = texts.get(cell.get("id", ""))
        if text is None:
            continue
        metadata = cell.setdefault("metadata", {})
        mystnb = metadata.setdefault("mystnb", {})
        image = mystnb.setdefault("image", {})
        if metadata.get("alt") != text or image.get("alt") != text:
            metadata["alt"] = text
            image["alt"] = text
            changed = True
    return changed


def problems(notebooks_dir: Path, texts: dict[str, dict[str, str]], *,
             applied: bool = False) -> list[str]:
    """Every figure cell has alt text of ``MIN_WORDS`` words or more, and no text is left for
    a cell that is gone or draws nothing; with ``applied``, the notebooks also carry it."""
    found = []
    files = {path.name: path for path in sorted(notebooks_dir.glob("[0-9][0-9]-*.ipynb"))}
    for name in sorted(set(texts) - set(files)):
        found.append(f"alt-text.toml: no notebook {name}")
    for name, path in files.items():
        notebook = json.loads(path.read_text(encoding="utf-8"))
        figures = {cell.get("id", ""): cell for cell in figure_cells(notebook)}
        mine = texts.get(name, {})
        for cell_id in figures:
            text = mine.get(cell_id, "")
            if len(text.split()) < MIN_WORDS:
                found.append(f"{name}: cell {cell_id} shows a figure but its alt text in "
                             f"alt-text.toml has {len(text.split())} words (at least "
                             f"{MIN_WORDS}: what it shows, its axes, its series, the point)")
            elif applied and figures[cell_id].get("metadata", {}).get("alt") != text:
                found.append(f"{name}: cell {cell_id}'s alt text is not in the notebook "
                             "(python tools/course.py write)")
        for cell_id in sorted(set(mine) - set(figures)):
            found.append(f"{name}: alt-text.toml has text for cell {cell_id}, which shows no "
                         "figure (gone, or its output was cleared)")
    return found


def link_boxes(target: Path, boxes: dict[str, tuple[str, str]]) -> None:
    """One link per box of the course map for the keyboard and screen readers.

    ``boxes`` is {number: (url, name)}. matplotlib writes a link (``set_url``) around the box
    and around each line of its text; the first title line's link gets the box's whole name
    (``aria-label``), the others stay clickable but out of the tab order and hidden from
    screen readers, so a reader meets each notebook once. No link opens a new window.
    """
    svg = target.read_text(encoding="utf-8")
    for number, (url, name) in boxes.items():
        link = rf'<a xlink:href="({re.escape(url)})" target="_blank">'
        label = html.escape(name, quote=True)
        svg = re.sub(rf'(<g id="notebook-{number}-title">\s*){link}',
                     lambda m, n=label: f'{m.group(1)}<a xlink:href="{m.group(2)}" '
                                        f'aria-label="{n}">', svg)
    svg = re.sub(r'<a xlink:href="([^"]+)" target="_blank">',
                 r'<a xlink:href="\1" tabindex="-1" aria-hidden="true">', svg)
    target.write_text(svg, encoding="utf-8")
