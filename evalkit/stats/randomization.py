"""The paired randomization (sign-flip) test of IR evaluation (:func:`paired_randomization_test`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._results import make_result
from .._validation import (
    check_scalar,
    check_seed,
    keyword_only,
)
from ._common import _paired_scores

__all__ = [
    "paired_randomization_test",
    "RandomizationResult",
]


RandomizationResult = make_result(
    "RandomizationResult", ("statistic", "pvalue"),
    ("null_distribution", "exact", "n_resamples"),
    module=__name__,
    doc="The result of a paired randomization test; unpacks like ``(statistic, pvalue)``. "
        "Also has the ``null_distribution`` (mean differences under sign flips), whether the "
        "test was ``exact`` (every flip enumerated) and ``n_resamples`` (flips used).",
)

# Bytes of sign patterns per block (with their table look-ups, about 4 MB, which stays in
# the CPU cache): memory stays bounded whatever R and n are.
_FLIP_BLOCK = 1 << 18
# Null sums within this share of sum |d| of the observed one count as equal to it: flipped
# sums that are equal in exact arithmetic (ties are common with scores such as P@10) differ
# by rounding, which stays far below this; distinct sums of real data differ far above it.
_TIE_TOLERANCE = 1e-12


def _byte_sums(difference: np.ndarray) -> np.ndarray:
    """Table of flipped partial sums: entry (g, m) is the sum of the differences of queries
    8g .. 8g + 7 whose bit is set in the byte m (bit j = query 8g + j)."""
    groups = -(-len(difference) // 8)
    padded = np.zeros(groups * 8)
    padded[: len(difference)] = difference
    bits = (np.arange(256)[:, None] >> np.arange(8)) & 1
    return (padded.reshape(groups, 8) @ bits.T.astype(np.float64)).ravel()


def _sign_flip_null(difference: np.ndarray, n_resamples: int, exact: bool,
                    rng: np.random.Generator) -> np.ndarray:
    """The null distribution of sum(d) under sign flips, block by block: every pattern
    (exact) or ``n_resamples`` random ones.

    A pattern is a string of bits, one per query (1: flip its sign), so its flipped sum is
    sum(d) - 2 b.d. Rather than a product with an (R, n) matrix of bits, each byte of a
    pattern looks up the partial sum of its 8 queries in a (n/8, 256) table: n/8 additions
    per pattern, and random bytes need no unpacking.
    """
    n = len(difference)
    groups = -(-n // 8)
    table = _byte_sums(difference)
    offsets = (np.arange(groups) * 256).astype(np.int32)
    total = 2**n if exact else n_resamples
    sums = np.empty(total)
    block = max(1, _FLIP_BLOCK // groups)
    index = np.empty((min(block, total), groups), dtype=np.int32)
    for start in range(0, total, block):
        stop = min(start + block, total)
        if exact:
            # Pattern m flips query i when bit i of m is set: all 2^n patterns, once each.
            patterns = (np.arange(start, stop)[:, None] >> (8 * np.arange(groups))) & 255
        else:
            # One 64-bit draw per 64 queries: a pattern uses the same draws whatever the
            # block size, so the result depends on the seed only.
            words = rng.integers(0, 2**64, size=(stop - start, -(-n // 64)), dtype=np.uint64)
            patterns = words.view(np.uint8)[:, :groups]
        looked_up = np.add(patterns, offsets, out=index[: stop - start], casting="unsafe")
        sums[start:stop] = difference.sum() - 2.0 * table[looked_up].sum(axis=1)
    return sums


@keyword_only
def paired_randomization_test(
    scores_a: Any, scores_b: Any, *, n_resamples: int = 10000, seed: Any = None
) -> RandomizationResult:
    r"""Two-sided paired randomization test: could the difference be a coin flip per query?

    Under the null hypothesis the two systems are exchangeable on each query, so each
    per-query difference :math:`d_i = a_i - b_i` is as likely to have had the other sign.
    The test compares the observed mean difference with its distribution over sign flips
    :math:`s \in \{-1, 1\}^n`:

    .. math::

        \bar d = \frac{1}{n}\sum_i d_i, \qquad
        p = \frac{\#\{s : |\tfrac{1}{n}\sum_i s_i d_i| \ge |\bar d|\}}{2^n}

    exactly, by enumerating all :math:`2^n` flips, when :math:`2^n \le` ``n_resamples``;
    otherwise from R random flips, :math:`p = (b + 1) / (R + 1)` with *b* the number of
    flips at least as extreme (Phipson & Smyth 2010), so a Monte-Carlo p-value is never 0.
    Flips are processed in blocks, each pattern's flipped sum assembled from a table of
    partial sums of 8 queries (n/8 look-ups per pattern instead of n products), so memory
    stays bounded (a few MB) for any number of queries and resamples.

    This is ``scipy.stats.permutation_test((scores_a, scores_b), statistic,
    permutation_type="samples")`` with ``statistic`` the mean difference: identical when
    exact; from random flips scipy's two-sided p is :math:`2 \min(p_\le, p_\ge)`, which
    estimates the same number (the flip distribution is symmetric), while *b* here counts
    :math:`|\cdot| \ge |\bar d|` directly (Smucker et al. 2007). Null sums equal to the
    observed one up to rounding (within :math:`10^{-12} \sum_i |d_i|`) count as ties.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_queries,)
        Per-query scores of two systems on the same queries (e.g. AP), in the same order;
        at least 2 queries, finite numbers.
    n_resamples : int, default 10000
        Number of random sign flips R; also the threshold for exact enumeration.
    seed : None, int or numpy.random.Generator, optional
        Seed for ``np.random.default_rng`` (unused when the test is exact).

    Returns
    -------
    RandomizationResult
        Unpacks like ``(statistic, pvalue)``: the mean difference :math:`\bar d` and the
        two-sided p-value in (0, 1]. Also ``.null_distribution`` (the mean difference of
        each flip), ``.exact`` and ``.n_resamples`` (:math:`2^n` when exact). When every
        difference is 0 the p-value is 1.

    References
    ----------
    Fisher, R. A. (1935). The Design of Experiments, section 21. Oliver & Boyd.
    Smucker, M. D., Allan, J. and Carterette, B. (2007). A comparison of statistical
    significance tests for information retrieval evaluation. CIKM 2007, 623–632.
    Phipson, B. and Smyth, G. K. (2010). Permutation p-values should never be zero.
    Statistical Applications in Genetics and Molecular Biology 9(1), article 39.

    Examples
    --------
    >>> ap_new = [0.42, 0.55, 0.31, 0.78, 0.60, 0.25, 0.91, 0.47]
    >>> ap_old = [0.35, 0.50, 0.33, 0.61, 0.52, 0.20, 0.85, 0.40]
    >>> result = paired_randomization_test(ap_new, ap_old)   # 2^8 = 256 flips: exact
    >>> round(result.statistic, 4), round(result.pvalue, 4), result.exact
    (0.0663, 0.0156, True)
    >>> result = paired_randomization_test(ap_new * 3, ap_old * 3, seed=0)
    >>> result.exact, result.n_resamples, result.pvalue > 0
    (False, 10000, True)
    """
    a, b = _paired_scores(scores_a, scores_b)
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=1)
    rng = check_seed(seed)
    difference = a - b
    n = len(difference)
    exact = n < 63 and 2**n <= n_resamples
    null_sums = _sign_flip_null(difference, n_resamples, exact, rng)
    observed = difference.sum()
    tolerance = _TIE_TOLERANCE * np.abs(difference).sum()
    extreme = int(np.count_nonzero(np.abs(null_sums) >= abs(observed) - tolerance))
    if exact:
        pvalue = extreme / len(null_sums)
    else:
        pvalue = (extreme + 1) / (n_resamples + 1)
    return RandomizationResult(float(np.mean(difference)), float(pvalue),
                               null_distribution=null_sums / n, exact=exact,
                               n_resamples=len(null_sums))
