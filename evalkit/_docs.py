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

__all__ = ["fill_doc", "DCG_FORMULAS", "DCG_TIES"]

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


#: The conventions of :func:`evalkit.dcg` and :func:`evalkit.ndcg`, shared by both docstrings.
DCG_FORMULAS = r"""
    .. math::

        \mathrm{DCG@k} =
        \begin{cases}
        \sum_{i=1}^{k} \dfrac{g_i}{\log_2(i + 1)} & \texttt{"trec"} \\[1ex]
        \sum_{i=1}^{k} \dfrac{2^{g_i} - 1}{\log_2(i + 1)} & \texttt{"exponential"} \\[1ex]
        g_1 + \sum_{i=2}^{k} \dfrac{g_i}{\log_2 i} & \texttt{"jarvelin"}
        \end{cases}

    ``"trec"`` is what trec_eval and scikit-learn's ``dcg_score`` compute; ``"exponential"``
    stresses highly relevant documents (Burges et al. 2005, common in web search);
    ``"jarvelin"`` is Järvelin & Kekäläinen's original, which discounts nothing at ranks 1
    and 2. Negative grades carry no gain, as in trec_eval."""

#: Their ``scores`` and ``ties`` parameters.
DCG_TIES = """
    scores : array-like of numbers, optional
        Each document's score, in rank order (never increasing): which documents tie.
    ties : {"trec_eval", "average"}, default "trec_eval"
        "trec_eval": each document at its own rank, as listed (:func:`evalkit.trec_ranking`
        orders ties as trec_eval). "average" (needs ``scores``; McSherry & Najork 2008):
        each tied document's gain times the mean discount of its block's ranks (0 below k)."""
