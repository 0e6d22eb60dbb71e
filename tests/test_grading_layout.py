"""The course package's layout (evalkit/course/): one idea per file and none over 700 lines, no
private module importing a public one, and the metrics apart from it (no maths or presentation
module imports the course)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .conftest import REPO

PACKAGE = REPO / "evalkit"
COURSE = PACKAGE / "course"
#: What may import the course: the package's front door, the command line and the old homes.
COURSE_USERS = {"__init__.py", "cli.py", "checks.py"}


def _imported_modules(path: Path) -> set[str]:
    """Every evalkit module ``path`` imports, at the top or inside a function, as a dotted
    name (``from . import x`` counts as the module ``x`` of that package)."""
    package = ".".join(path.relative_to(REPO).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("evalkit")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            elif (node.module or "").startswith("evalkit"):
                source = node.module
            else:
                continue
            if node.module:
                found.add(source)
            else:
                found |= {f"{source}.{alias.name}" for alias in node.names}
    return found


def _is_private(module: str) -> bool:
    return module.rsplit(".", 1)[-1].startswith("_")


def test_the_import_reader_sees_relative_lazy_and_package_imports():
    assert _imported_modules(COURSE / "_marking.py") >= {
        "evalkit.course._answers", "evalkit.course._kernel", "evalkit.course._sandbox"}
    assert "evalkit.course._check_cells" in _imported_modules(COURSE / "_editions.py")
    assert "evalkit.course._editions" in _imported_modules(PACKAGE / "cli.py")  # lazy
    assert "evalkit._validation" in _imported_modules(COURSE / "checks.py")  # from ..


@pytest.mark.parametrize("path", sorted(COURSE.glob("_*.py")), ids=lambda p: p.name)
def test_no_private_module_of_the_course_imports_a_public_one(path):
    if path.name == "__init__.py":
        return
    public = sorted(m for m in _imported_modules(path) if not _is_private(m))
    assert not public, f"{path.name} (private) imports the public {public}"


@pytest.mark.parametrize("path", sorted(COURSE.glob("*.py")), ids=lambda p: p.name)
def test_every_file_of_the_course_is_under_700_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 700


def test_the_metrics_do_not_import_the_course():
    outside = [path for path in PACKAGE.rglob("*.py") if COURSE not in path.parents
               and path.relative_to(PACKAGE).as_posix() not in COURSE_USERS]
    assert len(outside) >= 60 and PACKAGE / "plots" / "__init__.py" in outside
    users = [str(path.relative_to(PACKAGE)) for path in outside
             if any(m.startswith("evalkit.course") for m in _imported_modules(path))]
    assert not users, f"modules outside the course that import it: {users}"
