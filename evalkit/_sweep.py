r"""The threshold sweep behind every curve of :mod:`evalkit.curves`: one sort per class.

A scorer gives every sample a number; sweeping a threshold t from +inf down to the lowest
score traces one confusion matrix per distinct score. :class:`Sweep` holds the positives' and
the negatives' scores, each sorted once, and counts, for each threshold, how many of each lie
at or above it with ``np.searchsorted`` (scikit-learn's ``_binary_clf_curve`` does the same
with one sort and cumulative sums). :func:`pair_count` counts, from the same two sorted runs,
the positive-negative pairs the positive wins (2) or ties (1): twice the Mann-Whitney U, so
the AUC is ``pair_count / (2 P N)`` with ties counting one half. No Python loop over samples.
Where there are two CPUs (:mod:`evalkit._threads`), the two sorts run side by side, and so do
the two halves of a large pair count.

Where numpy's sort is slow (see :mod:`evalkit._sorting`), scores with few distinct values
skip the sorts: :func:`level_counts` counts the positives and negatives at each distinct score
through hash tables, and :func:`level_pair_count` reads the same pair count off those counts.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ._levels import level_ranks
from ._threads import _both, _both_in_parallel

__all__ = ["Sweep", "pair_count", "level_counts", "level_pair_count", "LEVELS_MIN"]

_SEARCH_FACTOR = 16  # fewer distinct positive scores than 1/16 of all: search, not merge
# Fewer scores are sorted: hashing them costs more (Zen 4, hashed / sorted: 0.21 / 0.16 ms at
# 2^12 scores, 0.56 / 0.75 ms at 2^14).
LEVELS_MIN = 1 << 14
_LEVELS_FACTOR = 16  # level_counts: at most 1/16 as many distinct scores as scores, ...
_LEVELS_SAMPLE = 1 << 16  # ... once a sample of this many, spread over the array, suggests so
# Once the whole array is hashed, up to 1/4 as many distinct scores as scores are counted by
# level: placing the scores among their levels then costs less than the sorts it saves (Zen 4,
# 10^6 normal scores to 4 decimals, 64,779 levels: 26 ms against 80 ms; to 5 decimals,
# 412,870 levels: 70 against 96 ms; all 10^6 distinct: 103 against 68 ms).
_LEVELS_KEEP = 4


class Sweep(NamedTuple):
    """The scores of the positives and of the negatives, each sorted ascending."""

    positives: np.ndarray
    negatives: np.ndarray

    @classmethod
    def of(cls, is_positive: np.ndarray, y_score: np.ndarray) -> Sweep:
        # The two sorts side by side, where there are two CPUs for them (each releases the GIL).
        return cls(*_both(lambda: np.sort(y_score[is_positive]),
                          lambda: np.sort(y_score[~is_positive]), size=len(y_score)))

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
    """Twice the Mann-Whitney U of two sorted runs: 2 per positive-negative pair won by the
    positive, 1 per tie.

    Where there are two CPUs for it, a large job is cut at a score into the items below it and
    the rest, and the two parts counted side by side: every pair across the cut is won by the
    side above it, so the count is the two parts' counts plus 2 per (positive above, negative
    below) pair. The cut is the positives' or the negatives' median, whichever halves the
    items more nearly.
    """
    n_pos, n_neg = len(positives), len(negatives)
    if n_pos == 0 or n_neg == 0 or not _both_in_parallel(n_pos + n_neg):
        return _pair_count(positives, negatives)
    cuts = [(int(np.searchsorted(positives, pivot)), int(np.searchsorted(negatives, pivot)))
            for pivot in (positives[n_pos // 2], negatives[n_neg // 2])]
    low_pos, low_neg = min(cuts, key=lambda cut: abs(2 * sum(cut) - n_pos - n_neg))
    below, above = _both(lambda: _pair_count(positives[:low_pos], negatives[:low_neg]),
                         lambda: _pair_count(positives[low_pos:], negatives[low_neg:]),
                         size=n_pos + n_neg)
    return below + above + 2 * (n_pos - low_pos) * low_neg


def _pair_count(positives: np.ndarray, negatives: np.ndarray) -> int:
    # For each positive, the negatives strictly below it count 2, those tied with it 1:
    # below + (below or tied) = 2 * below + tied.
    n_pos, n_neg = len(positives), len(negatives)
    if n_pos == 0 or n_neg == 0:
        return 0
    starts = np.flatnonzero(np.concatenate([[True], positives[1:] != positives[:-1]]))
    if len(starts) * _SEARCH_FACTOR < n_pos + n_neg:
        # Few distinct positive scores: look each up once among the negatives (sorted
        # needles keep np.searchsorted cache-friendly).
        values = positives[starts]
        repeats = np.diff(np.append(starts, n_pos))
        below = np.searchsorted(negatives, values, side="left")
        below_or_tied = np.searchsorted(negatives, values, side="right")
        return int(np.dot(below + below_or_tied, repeats))
    # Many: one merge of the two sorted runs instead (a stable argsort of their
    # concatenation: timsort finds the two runs and merges them in linear time), positives
    # first among equal scores. The i-th positive lands at merged position i + (negatives
    # strictly below it), so the sum of 'below' is read off the positions. A binary search
    # per positive costs three times as much at 10^7 scores: each one misses the cache.
    values = np.concatenate([positives, negatives])
    order = np.argsort(values, kind="stable")
    is_positive = order < n_pos
    below = int(np.flatnonzero(is_positive).sum()) - n_pos * (n_pos - 1) // 2
    merged = values[order]
    tied = np.flatnonzero(merged[1:] == merged[:-1])
    if len(tied) == 0:
        return 2 * below
    # Runs of equal scores: one holding p positives among its m items ties p * (m - p)
    # pairs. A run of m > 1 items starts where a tie follows no tie.
    new_run = np.concatenate([[True], tied[1:] != tied[:-1] + 1])
    run_starts = tied[new_run]
    run_ends = np.append(tied[np.flatnonzero(new_run[1:])], tied[-1]) + 2
    positives_before = np.concatenate([[0], np.cumsum(is_positive, dtype=np.int64)])
    run_positives = positives_before[run_ends] - positives_before[run_starts]
    return 2 * below + int(np.dot(run_positives, run_ends - run_starts - run_positives))


def level_counts(is_positive: np.ndarray, y_score: np.ndarray,
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """The positives and the negatives at each distinct score, in ascending score order.

    None when the scores have more than 1/16 as many distinct values as items (as a sample
    suggests; 1/4 as many once all are hashed, see ``_LEVELS_KEEP``). The distinct
    scores come from a hash table (``pd.unique``), the items' places among them from another
    (:func:`~evalkit._levels.level_ranks`): no sort of the items.

    Continuous scores are turned away before the whole array is hashed (a table of 10^7
    scores costs more than sorting them), by a sample of about ``_LEVELS_SAMPLE`` scores
    spread over the array: m scores drawn from L equally common values show
    ``L (1 - exp(-m / L))`` of them on average, which grows with L, so a sample that shows
    more than that count for L = n / 16 suggests more than n / 16 values. (A sample of the
    whole array shows them all: the test is then exact.)
    """
    n = len(y_score)
    sample = y_score[:: max(1, n // _LEVELS_SAMPLE)]
    most = n / _LEVELS_FACTOR
    expected = most * -np.expm1(-len(sample) / most) if len(sample) < n else most
    if len(pd.unique(sample)) > expected:
        return None
    levels = pd.unique(y_score)
    if len(levels) * _LEVELS_KEEP > n:
        return None
    levels.sort()
    # Positive or not in the lowest bit: one bincount counts both.
    cells = level_ranks(y_score, levels)
    cells <<= 1
    cells |= is_positive
    counts = np.bincount(cells, minlength=2 * len(levels)).reshape(-1, 2)
    return counts[:, 1], counts[:, 0]


def level_pair_count(positives: np.ndarray, negatives: np.ndarray) -> int:
    """:func:`pair_count` from the positives and negatives at each distinct score (ascending)."""
    below = np.cumsum(negatives) - negatives
    return int(np.dot(positives, 2 * below + negatives))
