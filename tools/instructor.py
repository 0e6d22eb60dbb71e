"""The lecturer's kit: one page of instructor notes per notebook, in ``docs/instructor/NN.md``.

The notes themselves are written by hand; what comes from the course map is made here, so it
cannot drift from ``notebooks/course.toml``:

- each page's **Timing** lines (a lecture counts reading and running, R = ``reading_minutes``;
  a lab the whole, N = ``minutes``), between the ``TIMING_START`` and ``TIMING_END`` markers;
- the table of ``docs/instructor/index.md`` (notebook, lecture minutes, lab minutes, explorer,
  key misconception), between the ``TABLE_START`` and ``TABLE_END`` markers. Its explorer is
  the page's ``Explorer: `Name``` line, its key misconception the bold lead of the page's first
  "Misconceptions to watch for" item.

``python tools/course.py write`` calls :func:`write`; ``python tools/course.py check`` (and so
tests/test_course.py) reports :func:`problems`. tests/test_instructor_notes.py checks the rest
of each page's shape. The kit is a part of the course site only: the student edition
(tools/student.py) writes notebooks, never these pages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

TIMING_START = "<!-- timing: written by tools/course.py write from notebooks/course.toml -->"
TIMING_END = "<!-- /timing -->"
TABLE_START = "<!-- instructor-table: written by tools/course.py write -->"
TABLE_END = "<!-- /instructor-table -->"
# Every page has exactly these sections, in this order.
SECTIONS = ("Timing", "Questions for the room", "Misconceptions to watch for",
            "Where students get stuck")
EXPLORER = re.compile(r"Explorer: `(\w+)`")


def directory(course: Any) -> Path | None:
    """The kit beside the course's notebooks (``docs/instructor``), or None when it has none
    (a course made for a test, in a temporary directory)."""
    found = Path(course.notebooks_dir).parent / "docs" / "instructor"
    return found if found.is_dir() else None


def timing_lines(nb: Any) -> str:
    """The Timing lines of one notebook, from the course map."""
    return (f"- **Lecture:** {nb.reading_minutes} minutes, the notebook's reading and running "
            f"(R, `reading_minutes`); its exercises and explorer tries ({nb.work_minutes} "
            "minutes) are left for afterwards.\n"
            f"- **Lab:** {nb.minutes} minutes, the whole notebook (N, `minutes`): "
            f"{nb.reading_minutes} reading and running and {nb.work_minutes} exercises and "
            "explorer.\n")


def sections(text: str) -> dict[str, str]:
    """A page's level-2 sections: heading -> body, in the page's order."""
    parts = re.split(r"^## (.+?)\s*$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def numbered_items(body: str) -> list[str]:
    """The items of a numbered list (``1. ...`` with indented continuation lines)."""
    items = re.split(r"^\d+\. ", body, flags=re.M)[1:]
    return [" ".join(item.split()) for item in items]


def key_misconception(text: str) -> str:
    """The bold lead of the first item under "Misconceptions to watch for"."""
    items = numbered_items(sections(text).get("Misconceptions to watch for", ""))
    found = re.match(r"\*\*(.+?)\*\*", items[0]) if items else None
    return found.group(1).strip().strip('"“”') if found else ""


def _between(text: str, start: str, end: str) -> str | None:
    if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
        return None
    return text.split(start, 1)[1].split(end, 1)[0]


def _replace_between(text: str, start: str, end: str, new: str) -> str:
    before, rest = text.split(start, 1)
    return f"{before}{start}\n{new}{end}{rest.split(end, 1)[1]}"


def table(course: Any, where: Path) -> str:
    """The index page's table: one row per notebook of the map."""
    rows = ["| Notebook | Lecture (min) | Lab (min) | Explorer | Key misconception |",
            "|---|---|---|---|---|"]
    for number, nb in course.notebooks.items():
        page = where / f"{number}.md"
        text = page.read_text(encoding="utf-8") if page.exists() else ""
        explorer = EXPLORER.search(text)
        rows.append(f"| [{number} {nb.title}]({number}.md) | {nb.reading_minutes} | "
                    f"{nb.minutes} | {f'`{explorer.group(1)}`' if explorer else ''} | "
                    f"{key_misconception(text)} |")
    return "\n".join(rows) + "\n"


def write(course: Any, where: Path | None) -> list[str]:
    """Bring every page's Timing lines and the index's table in line with the map."""
    if where is None:
        return []
    changed = []
    for number, nb in course.notebooks.items():
        page = where / f"{number}.md"
        if not page.exists():
            continue
        text = page.read_text(encoding="utf-8")
        if _between(text, TIMING_START, TIMING_END) is None:
            continue
        new = _replace_between(text, TIMING_START, TIMING_END, timing_lines(nb))
        if new != text:
            page.write_text(new, encoding="utf-8")
            changed.append(f"instructor/{page.name}")
    index = where / "index.md"
    text = index.read_text(encoding="utf-8") if index.exists() else ""
    if _between(text, TABLE_START, TABLE_END) is not None:
        new = _replace_between(text, TABLE_START, TABLE_END, table(course, where))
        if new != text:
            index.write_text(new, encoding="utf-8")
            changed.append("instructor/index.md")
    return changed


def problems(course: Any, where: Path | None) -> list[str]:
    """What is missing or stale in the kit (an empty list when nothing is)."""
    if where is None:
        return []
    found = []
    for number, nb in course.notebooks.items():
        page = where / f"{number}.md"
        if not page.exists():
            found.append(f"{number}: no instructor notes (docs/instructor/{number}.md)")
            continue
        text = page.read_text(encoding="utf-8")
        if tuple(sections(text)) != SECTIONS:
            found.append(f"docs/instructor/{page.name}: its sections are "
                         f"{list(sections(text))}, not {list(SECTIONS)}")
        timing = _between(text, TIMING_START, TIMING_END)
        if timing is None:
            found.append(f"docs/instructor/{page.name} lacks the {TIMING_START} ... "
                         f"{TIMING_END} markers")
        elif timing != "\n" + timing_lines(nb):
            found.append(f"docs/instructor/{page.name}: its Timing is stale "
                         "(python tools/course.py write)")
    index = where / "index.md"
    text = index.read_text(encoding="utf-8") if index.exists() else ""
    block = _between(text, TABLE_START, TABLE_END)
    if block is None:
        found.append(f"docs/instructor/index.md lacks the {TABLE_START} ... {TABLE_END} "
                     "markers")
    elif block != "\n" + table(course, where):
        found.append("docs/instructor/index.md: its table is stale "
                     "(python tools/course.py write)")
    return found
