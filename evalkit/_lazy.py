"""Modules imported on first use, so that ``import evalkit`` stays quick.

scipy.stats alone takes longer to import than numpy and pandas together, and a command-line
call (``evalkit trec_eval``) or a notebook that only ranks never needs it. A module-level
``stats = lazy_module("scipy.stats")`` reads like the import it replaces; the real import
happens at the first attribute access (``stats.norm``), once, and Python caches it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = ["lazy_module", "version_action"]


class _LazyModule(ModuleType):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._target = name

    def __getattr__(self, attribute: str) -> Any:
        # Only called for names the proxy itself lacks: every public name of the target.
        module = importlib.import_module(self._target)
        return getattr(module, attribute)

    def __repr__(self) -> str:
        return f"<module {self._target!r}, imported on first use>"


def lazy_module(name: str) -> Any:
    """A stand-in for ``import name`` that imports the module on first attribute access.

    >>> special = lazy_module("scipy.special")
    >>> float(special.ndtr(0.0))
    0.5
    """
    return _LazyModule(name)


def version_action(text: Callable[[], str]) -> Any:
    """An argparse action that prints ``text()`` and exits, as ``action="version"`` prints its
    string (the same reflowed line on stdout), but computed only when the option is given:
    reading the installed version (importlib.metadata) costs every other call of a command.

    >>> import argparse
    >>> parser = argparse.ArgumentParser(prog="tool")
    >>> _ = parser.add_argument("--version", action=version_action(lambda: "tool 1.0"))
    >>> try:
    ...     parser.parse_args(["--version"])
    ... except SystemExit as done:
    ...     print("exit", done.code)
    tool 1.0
    exit 0
    """
    import argparse

    class _Version(argparse.Action):
        def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                     default: Any = argparse.SUPPRESS, help: str | None = None) -> None:
            super().__init__(option_strings=option_strings, dest=dest, default=default,
                             nargs=0, help=help)

        def __call__(self, parser: Any, namespace: Any, values: Any,
                     option_string: str | None = None) -> None:
            formatter = parser._get_formatter()  # what argparse's version action does
            formatter.add_text(text())
            parser._print_message(formatter.format_help(), sys.stdout)
            parser.exit()

    return _Version
