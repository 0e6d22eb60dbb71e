r"""Cohen's kappa from one contingency table or a stack of them: the formula, written once.

:func:`evalkit.kappa_from_table` computes one kappa here; :func:`evalkit.cohen_kappa` counts
its labels into one table and calls :func:`kappa_of_stack`, which :func:`evalkit.bootstrap_ci`
calls on a thousand resampled tables at once. With
:math:`p_{ij}` the table's shares, :math:`e_{ij}` the shares expected by chance and
:math:`w_{ij}` the disagreement weights,

.. math::

    \kappa = 1 - \frac{\sum_{ij} w_{ij}\, p_{ij}}{\sum_{ij} w_{ij}\, e_{ij}}
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._averaging import matrix_over, safe_divide

__all__ = ["disagreement_weights", "kappa_of_stack", "kappa_of_tables", "kappa_terms_of_table"]


def disagreement_weights(positions: np.ndarray, weights: str | None) -> np.ndarray:
    """w[..., i, j]: how much a disagreement between categories i and j counts (0 on the
    diagonal), from the categories' positions in the ordered list (..., k)."""
    distance = np.abs(positions[..., :, None] - positions[..., None, :]).astype(np.float64)
    if weights is None:
        return (distance > 0).astype(np.float64)
    return distance if weights == "linear" else distance**2


def _shares_and_chance(tables: np.ndarray, marginals: str
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(shares p, row marginals, column marginals, chance shares e) of a table or a stack.

    The marginals are the judges' own; ``e`` uses them (separate) or their mean (pooled).
    """
    k = tables.shape[-1]
    flat = tables.reshape(*tables.shape[:-2], k * k)
    shares = (flat / flat.sum(axis=-1, keepdims=True)).reshape(tables.shape)
    rows, columns = shares.sum(axis=-1), shares.sum(axis=-2)
    chance_rows, chance_columns = rows, columns
    if marginals == "pooled":
        chance_rows = chance_columns = (rows + columns) / 2
    expected = chance_rows[..., :, None] * chance_columns[..., None, :]
    return shares, rows, columns, expected


def kappa_of_tables(
    tables: np.ndarray,
    *,
    weights: str | None,
    marginals: str,
    zero_division: Any,
    positions: np.ndarray | None = None,
) -> Any:
    """Kappa of a (k, k) table (a float) or of each table of a stack (..., k, k) (an array).

    ``positions`` (..., k) places the categories on the ordered scale that linear and
    quadratic weights measure; default 0, 1, ..., k - 1. (A resample without some category
    places the others as a table without that category would: see
    :func:`evalkit.bootstrap_ci`.) The caller has checked the tables.
    """
    k = tables.shape[-1]
    shares, _, _, expected = _shares_and_chance(tables, marginals)
    w = disagreement_weights(np.arange(k) if positions is None else positions, weights)
    size = shares.shape[:-2] + (k * k,)
    observed_disagreement = (w * shares).reshape(size).sum(axis=-1)
    chance_disagreement = (w * expected).reshape(size).sum(axis=-1)
    ratio = safe_divide(np.atleast_1d(observed_disagreement),
                        np.atleast_1d(chance_disagreement), zero_division, metric="Kappa",
                        reason="chance agreement is 1 (both judges always use one category)")
    kappa = np.where(np.atleast_1d(chance_disagreement) == 0, ratio, 1.0 - ratio)
    return float(kappa[0]) if tables.ndim == 2 else kappa


def kappa_of_stack(
    classes: np.ndarray,
    stack: np.ndarray,
    n_samples: int,
    *,
    labels: np.ndarray | None,
    weights: str | None,
    marginals: str,
    zero_division: Any,
    resampled: bool = False,
) -> Any:
    """Cohen's kappa of every (k, k) table of ``stack`` over the sorted ``classes``, the two
    judges' labels counted (rows: the first judge): the kernel of :func:`evalkit.cohen_kappa`.

    ``labels`` (checked) are the categories in order; None: every class. A ``resampled``
    table may miss a category neither judge used there: without ``labels``, the others move
    up, as in the table of the resampled labels (it matters for linear and quadratic weights).
    """
    positions = None
    if labels is not None:
        stack = matrix_over(classes, stack, labels)
    elif resampled:
        present = (stack.sum(axis=-1) > 0) | (stack.sum(axis=-2) > 0)
        positions = np.cumsum(present, axis=-1) - 1
    return kappa_of_tables(stack.astype(np.float64), weights=weights, marginals=marginals,
                           zero_division=zero_division, positions=positions)


def kappa_terms_of_table(table: np.ndarray, *, weights: str | None, marginals: str,
                         zero_division: Any) -> dict[str, Any]:
    """P(a), P(e), kappa and the marginals of one checked (k, k) table, by name.

    P(a) and P(e) weigh each cell by the agreement weight ``1 - w / max(w)`` (1 on the
    diagonal; unweighted, 0 off it), so that ``kappa = (P(a) - P(e)) / (1 - P(e))`` holds for
    weighted kappa too. P(a) divides the weighted counts by *n* last, so that
    ``370 / 400`` is exactly 0.925.
    """
    k = table.shape[-1]
    _, rows, columns, expected = _shares_and_chance(table, marginals)
    w = disagreement_weights(np.arange(k), weights)
    agreement_weights = 1.0 - w / (w.max() if w.max() > 0 else 1.0)
    return {
        "observed": float((agreement_weights * table).sum() / table.sum()),
        "expected": float((agreement_weights * expected).sum()),
        "kappa": kappa_of_tables(table, weights=weights, marginals=marginals,
                                 zero_division=zero_division),
        "row_marginals": rows,
        "column_marginals": columns,
        "pooled_marginals": (rows + columns) / 2,
    }
