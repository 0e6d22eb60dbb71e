"""The package's shape: rules over evalkit's source files, read as text and syntax trees.

- no source file over 700 lines (a file that long holds more than one idea);
- a private module (a name starting with ``_``) imports no public module: the private
  modules are the floors the public ones stand on, never the other way up. The presentation
  layer (``plots/``, ``widgets/``) is exempt: its models compute through the public API by
  design (shared/API.md, "Plots and explorers"). So is ``evalkit.exceptions``, the public home
  of the warning classes users filter by: a leaf that imports nothing, under every floor;
- the two subpackages that hold machinery rather than metrics, ``trec/`` (the TREC engine) and
  ``course/`` (the course tooling), keep their private modules private: outside the package
  only their ``__init__`` is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "evalkit"
MAX_LINES = 700
PRESENTATION = ("plots", "widgets")
#: Public modules any module may import: leaves that import nothing of evalkit.
LEAVES = ("evalkit.exceptions",)


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _dotted(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.endswith("__") for part in dotted.split(".")[1:])


def _known(dotted: str) -> bool:
    """Whether dotted names one of evalkit's modules or packages."""
    relative = Path(*dotted.split(".")[1:]) if "." in dotted else Path()
    return (PACKAGE / relative).with_suffix(".py").is_file() or (
        PACKAGE / relative / "__init__.py").is_file()


def _imported(path: Path) -> set[str]:
    """The evalkit modules path imports (relative imports resolved; ``from . import x``
    counts as importing module x when x is a module, else as importing the package)."""
    here = _dotted(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "evalkit")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] != "evalkit":
                continue
            for alias in node.names:
                child = f"{module}.{alias.name}"
                found.add(child if _known(child) else module)
    return {name for name in found if _known(name)}


def test_the_rules_see_the_package():
    names = {_dotted(p) for p in _modules()}
    assert {"evalkit.trec", "evalkit.trec._measures", "evalkit.stats.bootstrap",
            "evalkit.ranking", "evalkit._validation"} <= names
    assert _is_private("evalkit.trec._measures") and not _is_private("evalkit.trec")
    assert "evalkit.trec._measures" in _imported(PACKAGE / "trec" / "_evaluate.py")
    assert "evalkit.trec._metric_names" in _imported(PACKAGE / "trec" / "_command_plan.py")


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_source_file_is_over_700_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE.parent)} has {lines} lines"


def test_no_private_module_imports_a_public_one():
    wrong = []
    for path in _modules():
        here = _dotted(path)
        if not _is_private(here) or here.split(".")[1] in PRESENTATION:
            continue
        wrong += [f"{here} imports {name}" for name in sorted(_imported(path))
                  if not _is_private(name) and name not in ("evalkit", *LEAVES)]
        wrong += [f"{here} imports the package evalkit" for name in _imported(path)
                  if name == "evalkit"]
    assert not wrong, "\n".join(wrong)


def test_the_leaves_import_nothing_of_evalkit():
    for leaf in LEAVES:
        assert not _imported(PACKAGE / f"{leaf.split('.')[-1]}.py"), leaf


def test_the_import_reader_resolves_relative_imports_both_ways():
    # Without this, a reader that found nothing would pass the rule above vacuously.
    command = _imported(PACKAGE / "trec" / "_command.py")
    assert "evalkit._version" in command
    top = _imported(PACKAGE / "__init__.py")
    assert {"evalkit.trec", "evalkit.stats", "evalkit.ranking"} <= top  # public ones, found
    assert not _is_private("evalkit.trec") and _is_private("evalkit._version")
