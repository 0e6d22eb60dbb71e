"""The oldest versions evalkit promises, as pip pins: ``python tools/oldest.py > req.txt``.

Every requirement in pyproject.toml has a ``>=`` floor; ``make test-oldest`` installs exactly
those floors (``name==floor``) in a venv of its own and runs the unit tests, the doctests and
every notebook on them. So a floor is a tested claim, not a guess.

``python tools/oldest.py --check`` fails unless the running Python has exactly those versions.

The pins cover the runtime dependencies and every extra package that the run uses (the
oracles and the test tools). The tools in ``NOT_RUN`` below are left out: ``make test-oldest``
does not run the browser test, the site, the linter, JupyterLab or the benchmarks, so it
cannot vouch for their floors.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: Packages in pyproject.toml that ``make test-oldest`` neither installs nor runs.
NOT_RUN = {
    "jupyterlab",  # the lab front end (make lab)
    "playwright",  # the browser test
    "ruff",  # the linter (make test runs it)
    "voila", "sphinx", "myst-nb", "numpydoc", "sphinx-book-theme",  # make present / make site
    "ranx", "ir-measures",  # make bench
    "pycm",  # an oracle of make test (its one test skips here)
}

# A name, its extras in brackets if any (``dask[dataframe]``: pinned with them), a floor.
_REQUIREMENT = re.compile(
    r"\s*([A-Za-z0-9][A-Za-z0-9_.\-]*)(\[[A-Za-z0-9_.,\- ]*\])?\s*>=\s*([0-9][0-9A-Za-z.]*)\s*")


def normalise(name: str) -> str:
    """A distribution name as pip compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirements(pyproject: Path) -> list[tuple[str, str, set[str]]]:
    """(name, floor, extras) of every requirement of pyproject.toml, runtime and extras."""
    project = tomllib.loads(pyproject.read_text())["project"]
    lines = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        lines.extend(extra)
    found = []
    for line in lines:
        match = _REQUIREMENT.fullmatch(line)
        if not match:
            raise ValueError(f"{pyproject}: requirement {line!r} has no plain '>=' floor "
                             "that make test-oldest can pin")
        extras = {e.strip() for e in (match.group(2) or "[]")[1:-1].split(",") if e.strip()}
        found.append((normalise(match.group(1)), match.group(3), extras))
    return found


def floors(pyproject: Path = REPO / "pyproject.toml") -> dict[str, str]:
    """Every requirement of pyproject.toml (runtime and extras) -> its ``>=`` floor.

    A requirement without a plain ``>=`` floor raises ValueError: the oldest run could not
    pin it.
    """
    found: dict[str, str] = {}
    for name, version, _ in _requirements(pyproject):
        if found.get(name, version) != version:
            raise ValueError(f"{pyproject}: {name} has two floors, {found[name]} and {version}")
        found[name] = version
    return found


def pins(pyproject: Path = REPO / "pyproject.toml") -> list[str]:
    """The ``name==floor`` lines that make test-oldest installs (``name[extras]==floor`` for a
    package asked for with extras, so that their packages come too)."""
    extras: dict[str, set[str]] = {}
    for name, _, asked in _requirements(pyproject):
        extras.setdefault(name, set()).update(asked)
    return [f"{name}{_brackets(extras[name])}=={version}"
            for name, version in sorted(floors(pyproject).items()) if name not in NOT_RUN]


def _brackets(extras: set[str]) -> str:
    return f"[{','.join(sorted(extras))}]" if extras else ""


def _release(version: str) -> tuple[int, ...]:
    numbers = [int(part) for part in re.findall(r"\d+", version.split("+")[0])[:3]]
    while numbers and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def check() -> list[str]:
    """Each pinned package whose installed version is not its floor, as a message."""
    from importlib.metadata import PackageNotFoundError, version

    wrong = []
    for name, floor in floors().items():
        if name in NOT_RUN:
            continue
        try:
            installed = version(name)
        except PackageNotFoundError:
            wrong.append(f"{name} is not installed (floor {floor})")
            continue
        if _release(installed) != _release(floor):
            wrong.append(f"{name} {installed} is installed, the floor is {floor}")
    return wrong


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--check"]:
        wrong = check()
        for message in wrong:
            print(f"tools/oldest.py: {message}", file=sys.stderr)
        if not wrong:
            print("oldest versions installed: " + ", ".join(
                f"{name} {version}" for name, version in sorted(floors().items())
                if name not in NOT_RUN))
        return 1 if wrong else 0
    if argv:
        print("usage: python tools/oldest.py [--check]", file=sys.stderr)
        return 2
    print("# generated by tools/oldest.py from pyproject.toml's floors; do not edit")
    print("\n".join(pins()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
