r"""Cohen's kappa from one contingency table or a stack of them: the formula, written once.

:func:`evalkit.kappa_from_table` (and so :func:`evalkit.cohen_kappa`) computes one kappa here;
:func:`evalkit.bootstrap_ci` computes a thousand at once, one per resampled table. With
:math:`p_{ij}` the table's shares, :math:`e_{ij}` the shares expected by chance and
:math:`w_{ij}` the disagreement weights,

.. math::

    \kappa = 1 - \frac{\sum_{ij} w_{ij}\, p_{ij}}{\sum_{ij} w_{ij}\, e_{ij}}
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import safe_divide

__all__ = ["disagreement_weights", "kappa_of_tables"]


def disagreement_weights(positions: np.ndarray, weights: str | None) -> np.ndarray:
    """w[..., i, j]: how much a disagreement between categories i and j counts (0 on the
    diagonal), from the categories' positions in the ordered list (..., k)."""
    distance = np.abs(positions[..., :, None] - positions[..., None, :]).astype(np.float64)
    if weights is None:
        return (distance > 0).astype(np.float64)
    return distance if weights == "linear" else distance**2


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
    flat = tables.reshape(*tables.shape[:-2], k * k)
    shares = (flat / flat.sum(axis=-1, keepdims=True)).reshape(tables.shape)
    rows, columns = shares.sum(axis=-1), shares.sum(axis=-2)
    if marginals == "pooled":
        rows = columns = (rows + columns) / 2
    expected = rows[..., :, None] * columns[..., None, :]
    w = disagreement_weights(np.arange(k) if positions is None else positions, weights)
    observed_disagreement = (w * shares).reshape(flat.shape).sum(axis=-1)
    chance_disagreement = (w * expected).reshape(flat.shape).sum(axis=-1)
    ratio = safe_divide(np.atleast_1d(observed_disagreement),
                        np.atleast_1d(chance_disagreement), zero_division, metric="Kappa",
                        reason="chance agreement is 1 (both judges always use one category)")
    kappa = np.where(np.atleast_1d(chance_disagreement) == 0, ratio, 1.0 - ratio)
    return float(kappa[0]) if tables.ndim == 2 else kappa
