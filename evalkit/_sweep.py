r"""The threshold sweep behind every curve of :mod:`evalkit.curves`: one sort per class.

A scorer gives every sample a number; sweeping a threshold t from +inf down to the lowest
score traces one confusion matrix per distinct score. :class:`Sweep` holds the positives' and
the negatives' scores, each sorted once, and counts, for each threshold, how many of each lie
at or above it with ``np.searchsorted`` (scikit-learn's ``_binary_clf_curve`` does the same
with one sort and cumulative sums). :func:`pair_count` counts, from the same two sorted runs,
the positive-negative pairs the positive wins (2) or ties (1): twice the Mann-Whitney U, so
the AUC is ``pair_count / (2 P N)`` with ties counting one half. No Python loop over samples.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Sweep", "pair_count"]


class Sweep(NamedTuple):
    """The scores of the positives and of the negatives, each sorted ascending."""

    positives: np.ndarray
    negatives: np.ndarray

    @classmethod
    def of(cls, is_positive: np.ndarray, y_score: np.ndarray) -> Sweep:
        return cls(np.sort(y_score[is_positive]), np.sort(y_score[~is_positive]))

    def counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Distinct thresholds (descending) and the TP and FP counts at each: score >= t."""
        # Two sorted runs: a stable sort (timsort) merges them in linear time.
        merged = np.sort(np.concatenate([self.positives, self.negatives]), kind="stable")
        distinct = np.empty(len(merged), dtype=bool)
        distinct[-1] = True
        np.not_equal(merged[1:], merged[:-1], out=distinct[:-1])
        thresholds = merged[distinct][::-1]
        tp = len(self.positives) - np.searchsorted(self.positives, thresholds, side="left")
        fp = len(self.negatives) - np.searchsorted(self.negatives, thresholds, side="left")
        return thresholds, tp, fp

    def pair_count(self) -> int:
        """Twice the Mann-Whitney U: 2 per positive-negative pair won by the positive, 1 per tie."""
        return pair_count(self.positives, self.negatives)


def pair_count(positives: np.ndarray, negatives: np.ndarray) -> int:
    # For each positive, the negatives strictly below it count 2, those tied with it 1:
    # below + (below or tied) = 2 * below + tied. Sorted needles keep searchsorted cache-friendly.
    # Tied positives share one search: look up each distinct positive score once.
    if len(positives) == 0 or len(negatives) == 0:
        return 0
    starts = np.flatnonzero(np.concatenate([[True], positives[1:] != positives[:-1]]))
    values = positives[starts]
    repeats = np.diff(np.append(starts, len(positives)))
    below = np.searchsorted(negatives, values, side="left")
    below_or_tied = np.searchsorted(negatives, values, side="right")
    return int(np.dot(below + below_or_tied, repeats))
