"""Docstring templates: shared paragraphs written once and filled into several docstrings.

A docstring marks a shared paragraph with a placeholder line ``{{name}}``, indented as the
paragraph should be; :func:`fill_doc` replaces it with the snippet, re-indented to match, and
refuses a placeholder it has no snippet for (so a typo cannot ship a docstring with a hole).

>>> SNIPPET = '''k : int
...     The cutoff rank.'''
>>> @fill_doc(cutoff=SNIPPET)
... def f(k):
...     '''Do something.
...
...     Parameters
...     ----------
...     {{cutoff}}
...     '''
>>> print(f.__doc__.strip())
Do something.
<BLANKLINE>
    Parameters
    ----------
    k : int
        The cutoff rank.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["fill_doc"]

F = TypeVar("F", bound=Callable[..., Any])

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{\{(?P<name>[a-z_][a-z0-9_]*)\}\}[ \t]*$",
                          re.MULTILINE)


def fill_doc(**snippets: str) -> Callable[[F], F]:
    """Decorator: replace each ``{{name}}`` line of the docstring with ``snippets[name]``."""
    cleaned = {name: textwrap.dedent(text).strip("\n") for name, text in snippets.items()}

    def decorate(function: F) -> F:
        doc = function.__doc__ or ""

        def replace(match: re.Match[str]) -> str:
            name = match.group("name")
            if name not in cleaned:
                raise KeyError(f"{function.__qualname__}: no snippet for {{{{{name}}}}}")
            return textwrap.indent(cleaned[name], match.group("indent"))

        function.__doc__ = _PLACEHOLDER.sub(replace, doc)
        return function

    return decorate
