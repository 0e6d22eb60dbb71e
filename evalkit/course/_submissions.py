"""Finding the submissions in a folder of any layout: each ``*.ipynb`` with its student (the
folder under the submissions, or what the file name leaves) and its course notebook (by current
or earlier name, failing that by shared cell ids).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["former_names", "Submission", "find_submissions"]


def former_names(course_dir: Path) -> dict[str, str]:
    """``{earlier file name: current file name}`` from ``course.toml``'s ``formerly`` lists
    (a notebook split in two maps its earlier name to the first of its halves)."""
    course_map = course_dir / "course.toml"
    if not course_map.exists():
        return {}
    renamed: dict[str, str] = {}
    for notebook in tomllib.loads(course_map.read_text(encoding="utf-8")).get("notebook", []):
        for old in notebook.get("formerly", []):
            renamed.setdefault(old, notebook["file"])
    return renamed


@dataclass
class Submission:
    path: Path
    student: str
    notebook: str | None  # the course notebook's file name; None when it matches none


def _student_from_name(stem: str, matched: str) -> str:
    rest = re.sub(re.escape(matched), " ", stem, flags=re.IGNORECASE)
    rest = re.sub(r"\(\d+\)|\bcopy\b", " ", rest, flags=re.IGNORECASE)
    return re.sub(r"[\s_.\-]+", " ", rest).strip().replace(" ", "_")


def find_submissions(folder: Path, course_files: list[str],
                     renamed: dict[str, str] | None = None,
                     cell_ids: dict[str, set[str]] | None = None) -> list[Submission]:
    """Every ``*.ipynb`` under ``folder`` with its student and course notebook.

    The student is the first folder under ``folder`` when there is one, otherwise what is
    left of the file name without the course notebook's name. The course notebook is the one
    whose name (current or earlier, the longest that fits) is in the file name, otherwise the
    one that shares the most cell ids with it (the student edition keeps them).
    """
    names = {Path(name).stem.lower(): name for name in course_files}
    for old, new in (renamed or {}).items():
        names.setdefault(Path(old).stem.lower(), new)
    found = []
    for path in sorted(folder.rglob("*.ipynb")):
        relative = path.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts):  # .ipynb_checkpoints and co
            continue
        stem = path.stem.lower()
        matches = [key for key in names if key in stem]
        key = max(matches, key=len) if matches else None
        notebook = names[key] if key else _match_by_ids(path, cell_ids or {})
        if len(relative.parts) > 1:
            student = relative.parts[0]
        else:
            student = _student_from_name(path.stem, key or "") or path.stem
        found.append(Submission(path=path, student=student, notebook=notebook))
    return found


def _match_by_ids(path: Path, cell_ids: dict[str, set[str]]) -> str | None:
    try:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        ids = {cell.get("id") for cell in cells if isinstance(cell, dict)} - {None}
    except (ValueError, AttributeError, OSError, UnicodeDecodeError):
        return None
    overlap = {name: len(ids & known) for name, known in cell_ids.items()}
    best = max(overlap, key=overlap.get, default=None)
    return best if best is not None and overlap[best] >= 3 else None
