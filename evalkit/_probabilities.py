"""The checked input of the metrics of predicted probabilities (:mod:`evalkit.probabilistic`,
:mod:`evalkit.calibration`).

``y_proba`` is an (n, k) matrix whose rows sum to 1 and whose columns follow ``labels``
(default: the sorted labels of ``y_true``), or, for a binary problem, a 1-D array of the
probability of ``pos_label``. Every function validates it here, the same way: NaN, negative
values, rows that do not sum to 1 (within 1e-6), a 1-D array outside [0, 1], or a shape that
does not fit the labels raise a ``ValueError`` naming ``y_proba``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ._counting import encode
from ._validation import as_array, check_consistent_length, check_label_list, check_labels

#: Rows of ``y_proba`` must sum to 1 within this tolerance.
__all__ = ["ROW_SUM_TOLERANCE"]

ROW_SUM_TOLERANCE = 1e-6


# ---------------------------------------------------------------------------------------------
# Validation: labels, columns and probabilities
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Probabilities:
    """Validated input: the class of each column, each sample's column, the probabilities."""

    classes: np.ndarray  # the label of each column, in column order
    codes: np.ndarray  # the column of each sample's true class
    proba: np.ndarray  # (n, k) float64, C-contiguous, rows summing to 1
    column_sums: np.ndarray  # the probability mass each class received: cTP + cFP
    true_mass: np.ndarray  # per class, the mass its own samples gave it: cTP
    squares: float  # the sum of every squared probability

    @property
    def n_samples(self) -> int:
        return len(self.codes)

    @property
    def n_classes(self) -> int:
        return len(self.classes)


def _row_problem(block: np.ndarray, offset: int) -> str | None:
    """A description of the first bad row of a block of a probability matrix, or None."""
    # NaN and inf spoil the sum of their row. (einsum, not a BLAS product: small BLAS calls
    # in a loop wake and park BLAS's threads each time, which costs more than the sums.)
    sums = np.einsum("ij->i", block)
    off = ~(np.abs(sums - 1.0) <= ROW_SUM_TOLERANCE)
    if off.any():
        row = int(np.flatnonzero(off)[0])
        if np.isnan(block[row]).any():
            return (f"y_proba contains NaN in row {offset + row}; every sample needs "
                    "probabilities")
        if not np.isfinite(block[row]).all():
            return f"y_proba contains an infinite value in row {offset + row}"
        return (f"rows of y_proba must sum to 1 (within {ROW_SUM_TOLERANCE:g}); row "
                f"{offset + row} sums to {float(sums[row])!r}")
    if block.min() < 0:
        row = int(np.flatnonzero((block < 0).any(axis=1))[0])
        return (f"y_proba must hold probabilities >= 0; row {offset + row} holds "
                f"{float(block[row].min())!r}")
    return None


_SCAN_ROWS = 1 << 13  # rows per block of the scan: a block stays in the CPU cache


def _scan(proba: np.ndarray, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Validate every row and gather what the metrics need, in one pass over ``y_proba``.

    Each block of rows is checked (rows sum to 1, no NaN, nothing negative) and then, while
    it is still in the cache, summed by column, its true-class probabilities gathered by
    class, and its squares summed. A loop over blocks, not samples.
    """
    n, k = proba.shape
    column_sums, true_mass, squares = np.zeros(k), np.zeros(k), 0.0
    row_starts = np.arange(min(n, _SCAN_ROWS)) * k
    for start in range(0, n, _SCAN_ROWS):
        block = proba[start : start + _SCAN_ROWS]
        problem = _row_problem(block, start)
        if problem:
            raise ValueError(problem)
        block_codes = codes[start : start + _SCAN_ROWS]
        flat = block.reshape(-1)
        column_sums += block.sum(axis=0)
        true_mass += np.bincount(block_codes, flat[row_starts[: len(block)] + block_codes], k)
        squares += float(np.einsum("i,i->", flat, flat))
    return column_sums, true_mass, squares


def _as_matrix(y_proba: Any) -> np.ndarray:
    if isinstance(y_proba, pd.DataFrame):
        y_proba = y_proba.to_numpy()
    proba = as_array(y_proba, "y_proba")
    if proba.dtype.kind not in "biuf":
        raise ValueError(f"y_proba must hold probabilities (numbers); got dtype {proba.dtype}")
    if proba.ndim == 2 and proba.shape[1] == 1:
        proba = proba[:, 0]
    if proba.ndim not in (1, 2):
        raise ValueError(
            f"y_proba must be an (n_samples, n_classes) matrix or a 1-D array of positive-class "
            f"probabilities; got an array of shape {proba.shape}"
        )
    return proba.astype(np.float64, copy=False)


def _check_probabilities(
    y_true: Any, y_proba: Any, labels: Any, pos_label: Any
) -> _Probabilities:
    """Validate ``y_true``, ``y_proba`` and the column labels together."""
    y_true = check_labels(y_true, "y_true")
    proba = _as_matrix(y_proba)
    check_consistent_length(y_true=y_true, y_proba=proba)
    found_classes, found_codes, _ = encode(y_true, y_true[:1])
    if proba.ndim == 1:
        proba, columns = _binary_columns(proba, y_true, found_classes, labels, pos_label)
    else:
        k = proba.shape[1]
        if labels is not None:
            columns = check_label_list(labels, y_true)
            if len(columns) != k:
                raise ValueError(
                    f"y_proba has {k} columns but labels lists {len(columns)} classes; the "
                    "columns of y_proba follow labels"
                )
        else:
            columns = np.sort(found_classes)
            if len(columns) < k:
                raise ValueError(
                    f"y_proba has {k} columns, more than the {len(columns)} labels in y_true "
                    f"({columns.tolist()[:10]}); pass labels= to name the columns"
                )
            if len(columns) > k:
                raise ValueError(
                    f"y_proba has {k} columns, fewer than the {len(columns)} labels in y_true "
                    f"({columns.tolist()[:10]}); it needs one column per class"
                )
    # The column of each true class: a lookup over the (few) classes, then one gather.
    order = np.argsort(columns, kind="stable")
    position = np.searchsorted(columns[order], found_classes)
    position = np.minimum(position, len(columns) - 1)
    missing = columns[order][position] != found_classes
    if missing.any():
        raise ValueError(
            f"y_true holds labels that are not columns of y_proba: "
            f"{found_classes[missing].tolist()[:10]}; labels lists {columns.tolist()[:10]}"
        )
    codes = order[position][found_codes]
    proba = np.ascontiguousarray(proba)
    return _Probabilities(columns, codes, proba, *_scan(proba, codes))


def _binary_columns(
    proba: np.ndarray, y_true: np.ndarray, found: np.ndarray, labels: Any, pos_label: Any
) -> tuple[np.ndarray, np.ndarray]:
    """A 1-D probability of ``pos_label`` as two columns (negative, positive)."""
    low, high = proba.min(), proba.max()
    if not (low >= 0 and high <= 1):  # also catches NaN
        bad = np.flatnonzero(~((proba >= 0) & (proba <= 1)))[0]
        if np.isnan(proba[bad]):
            raise ValueError(f"y_proba contains NaN at position {bad}; every sample needs a "
                             "probability")
        raise ValueError(
            f"a 1-D y_proba holds the probability of pos_label, from 0 to 1; y_proba[{bad}] is "
            f"{float(proba[bad])!r}"
        )
    columns = np.sort(found) if labels is None else check_label_list(labels, y_true)
    pos = check_labels([pos_label], "pos_label")
    if (pos.dtype.kind == "U") != (y_true.dtype.kind == "U"):
        raise ValueError(f"pos_label={pos_label!r} is not of the kind of the labels in y_true")
    if len(columns) != 2 or pos[0] not in columns:
        raise ValueError(
            f"a 1-D y_proba is the probability of pos_label={pos_label!r} in a problem of two "
            f"classes, but the classes are {columns.tolist()[:10]}; pass labels=[negative, "
            "positive] or an (n, k) y_proba"
        )
    negative = columns[columns != pos[0]][0]
    columns = np.array([negative, pos[0]])
    return np.column_stack([1.0 - proba, proba]), columns
