"""Modules imported on first use, so that ``import evalkit`` stays quick.

scipy.stats alone takes longer to import than numpy and pandas together, and a command-line
call (``evalkit trec_eval``) or a notebook that only ranks never needs it. A module-level
``stats = lazy_module("scipy.stats")`` reads like the import it replaces; the real import
happens at the first attribute access (``stats.norm``), once, and Python caches it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["lazy_module"]


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
