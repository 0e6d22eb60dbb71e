r"""Rank correlation: Kendall's tau (variants a and b) and Spearman's rho.

Two rankings of the same items (two metrics ranking the same systems, a system's ranking
against the ideal one) agree when pairs of items are in the same order in both. Kendall's tau
counts those pairs:

.. math::

    \tau_a = \frac{C - D}{n(n-1)/2}

where *C* pairs are concordant (same order in both rankings) and *D* discordant. Counting all
pairs is quadratic; here *D* is the number of inversions of one ranking read in the order of
the other, counted by a bottom-up merge sort (Knight 1966) whose every level is one vectorised
numpy step over all blocks, so the whole count is :math:`O(n \log n)` with no Python loop over
items.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

import numpy as np

from ._hashing import splitmix64
from ._levels import level_ranks
from ._results import make_result
from ._sorting import argsort_numbers, best_time, merge_kind, sort_codes, takes_radix
from ._validation import check_1d, check_consistent_length, check_option, keyword_only
from .exceptions import UndefinedMetricWarning

__all__ = ["kendall_tau", "concordant_discordant", "spearman_rho", "PairCounts"]

TAU_VARIANTS = ("a", "b")
_DENSE_INTEGERS = 1 << 22  # integer data spanning fewer values are ranked with a lookup table
_HASHED_FACTOR = 16  # values with at most n / 16 levels ...
_HASHED_LEVELS = 1 << 20  # ... and at most this many are ranked by hashing (no argsort)
# The merge sort starts from blocks at most this long, counted pair by pair: whichever of these
# is faster on the running CPU, measured once on _BLOCK_PROBE_ITEMS items (see _block_length).
_WINDOW = 8  # _looks_untied samples windows of this many neighbouring values
_BLOCKS = (8, 32)
_BLOCK_PROBE_ITEMS = 1 << 13
_UNPROBED = 1 << 15  # shorter arrays do not wait for the probe: they take blocks of ...
_UNPROBED_BLOCK = 16  # ... this long, between the two
_TABLE_CELLS = 1 << 16  # x and y with at most max(2n, this) level pairs are counted in a table
_MERGE_MIN = 512  # merge levels of runs this long or longer may use the stable sort


PairCounts = make_result(
    "PairCounts", ("concordant", "discordant"), ("tied_x", "tied_y", "tied_xy"),
    module=__name__,
    doc="""How the n(n-1)/2 pairs of items fall: the counts behind Kendall's tau.

    Unpacks like the tuple ``(concordant, discordant)``; the ties are attributes:
    ``tied_x`` (pairs tied in x only), ``tied_y`` (in y only) and ``tied_xy`` (in both).
    """,
)


def _check_pair(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    x = check_1d(x, "x")
    y = check_1d(y, "y")
    check_consistent_length(x=x, y=y)
    for name, values in (("x", x), ("y", y)):
        if values.dtype.kind not in "biuf":
            raise ValueError(f"{name} must hold numbers (scores or ranks); got {values.dtype}")
        if values.dtype.kind == "f" and np.isnan(values).any():
            position = int(np.flatnonzero(np.isnan(values))[0])
            raise ValueError(f"{name} contains NaN at position {position}; every item needs a "
                             "value")
    if len(x) < 2:
        raise ValueError(f"x and y need at least 2 items to form a pair; got {len(x)}")
    return x, y


def _whole_numbers(values: np.ndarray) -> bool:
    return bool(np.array_equal(values, np.trunc(values)))


def _looks_untied(values: np.ndarray) -> bool:
    """Whether a sample of about 8 sqrt(n) values holds no repeated value.

    Windows of 8 neighbouring values, one window in each of about sqrt(n) equal stretches of
    the array, at a pseudo-random place in it (a hash of the stretch's number): neighbours
    catch values listed in runs, scattered windows catch repeats far apart. Values with at
    most n / 16 levels (those ranked by hashing) put dozens of repeats into such a sample,
    whatever their layout, so a sample without one rules them out all but surely. Either
    answer gives the same ranks; only the time differs.
    """
    n = len(values)
    windows = max(1, int(np.sqrt(n)))
    step = n // windows
    if step <= _WINDOW:
        sample = np.sort(values)
    else:
        mixed = splitmix64(np.arange(1, windows + 1, dtype=np.uint64))
        starts = np.arange(windows) * step + (mixed % np.uint64(step - _WINDOW)).astype(np.int64)
        sample = np.sort(values[(starts[:, None] + np.arange(_WINDOW)).reshape(-1)])
    return not bool((sample[1:] == sample[:-1]).any())


class _Ranking:
    """Dense ranks 0..m-1 of one variable (equal values share a rank), made once.

    Integers spanning fewer than ``_DENSE_INTEGERS`` values are ranked with a lookup table
    (no sort, so ``order`` is None), and so are floats that hold whole numbers in such a span
    (ratings stored as floats); others by one argsort (a radix sort where numpy's default
    sort is slow, see :mod:`evalkit._sorting`), whose order is kept for reuse and
    whose ranks are scattered back to the items only when ``ranks`` is read (untied values
    need no cumulative sum: their ranks are the order's inverse). ``in_order`` marks the ranks
    0..n-1 of items already listed in their order (see :func:`_pair_counts`).
    """

    def __init__(self, values: np.ndarray) -> None:
        self.n = len(values)
        self.order: np.ndarray | None = None
        self._ranks: np.ndarray | None = None
        self._sorted_ranks: np.ndarray | None = None
        self.in_order = False
        if values.dtype.kind == "f" and _whole_numbers(values[:64]):
            low, high = float(values.min()), float(values.max())
            if high - low < _DENSE_INTEGERS and _whole_numbers(values):
                values = values.astype(np.int64)
        if values.dtype.kind in "biu":
            values = values.astype(np.int64, copy=False)
            low, high = int(values.min()), int(values.max())
            if high - low < _DENSE_INTEGERS:
                shifted = values - low
                present = np.bincount(shifted, minlength=high - low + 1) > 0
                self._ranks = (np.cumsum(present) - 1)[shifted]
                self.levels = int(present.sum())
                return
        if takes_radix(values):
            # Where numpy's SIMD sort is slow (see evalkit._sorting), one radix argsort and a
            # gather cost less than the sort alone.
            self.order = argsort_numbers(values)
            sorted_values = values[self.order]
        elif _looks_untied(values):
            # Few ties: the hashed route below is out of reach, and the argsort is needed
            # anyway, so one argsort and a gather replace a sort and an argsort.
            self.order = np.argsort(values)
            sorted_values = values[self.order]
        else:
            # Sorting the values alone (numpy's SIMD sort) costs no more than gathering them
            # in argsort's order, and less when they are tied.
            sorted_values = np.sort(values)
        new_value = sorted_values[1:] != sorted_values[:-1]
        self.levels = int(np.count_nonzero(new_value)) + 1
        if (self.order is None and self.levels * _HASHED_FACTOR <= self.n
                and self.levels <= _HASHED_LEVELS):
            levels = sorted_values[np.concatenate([[True], new_value])]
            self._ranks = level_ranks(values, levels)
            return
        if self.order is None:
            self.order = np.argsort(values)
        if self.levels < self.n:
            self._sorted_ranks = np.concatenate([[0], np.cumsum(new_value)])

    @classmethod
    def listed_in_order(cls, n: int) -> _Ranking:
        """The ranks of n untied items listed in their order: 0, 1, ..., n - 1."""
        ranking = cls.__new__(cls)
        ranking.n, ranking.levels, ranking.in_order = n, n, True
        ranking.order = ranking._ranks = np.arange(n)
        ranking._sorted_ranks = None
        return ranking

    @property
    def ranks(self) -> np.ndarray:
        if self._ranks is None:  # ranked by argsort, so the order is set
            self._ranks = np.empty(self.n, dtype=np.int64)
            self._ranks[self.order] = (np.arange(self.n) if self._sorted_ranks is None
                                       else self._sorted_ranks)
        return self._ranks

    def inverse(self) -> np.ndarray:
        """The order that sorts the items (for untied values: ranks are a permutation)."""
        if self.order is None:
            self.order = np.empty(self.n, dtype=np.int64)
            self.order[self._ranks] = np.arange(self.n)
        return self.order


def _average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n, tied values sharing the mean of their ranks (scipy's ``rankdata``)."""
    if values.dtype.kind in "biu":
        values = values.astype(np.int64, copy=False)
        low, high = int(values.min()), int(values.max())
        if high - low < _DENSE_INTEGERS:  # a lookup table instead of a sort
            shifted = values - low
            lengths = np.bincount(shifted, minlength=high - low + 1)
            starts = np.cumsum(lengths) - lengths
            return (starts + (lengths + 1) / 2)[shifted]
    order = argsort_numbers(values)
    sorted_values = values[order]
    starts = np.flatnonzero(np.concatenate([[True], sorted_values[1:] != sorted_values[:-1]]))
    lengths = np.diff(np.append(starts, len(values)))
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[order] = np.repeat(starts + (lengths + 1) / 2, lengths)
    return ranks


def _tied_pairs(ranks: np.ndarray) -> int:
    """Pairs of items sharing a rank."""
    counts = np.bincount(ranks)
    return int((counts * (counts - 1) // 2).sum())


def _run_pairs(starts: np.ndarray) -> int:
    """Pairs of items inside the same run, given where each run starts (sorted data)."""
    lengths = np.diff(np.append(np.flatnonzero(starts), len(starts)))
    return int((lengths * (lengths - 1) // 2).sum())


@functools.cache
def _block_length() -> int:
    """The block length of :func:`_inversions` that is faster on this CPU, measured once.

    Longer blocks trade merge levels (one row sort each) for pairwise comparisons inside the
    blocks. On the AVX-512 EPYC where numpy sorts short rows with its SIMD sorting networks,
    blocks of 8 measured the faster; on an AVX2 EPYC (Zen 2), blocks of 32 take 10-20% less
    time at 10^4-10^6 items. Only speed depends on the choice: every block length gives the
    same count. The probe takes about 4 ms, once per process.
    """
    values = np.random.default_rng(0).permutation(_BLOCK_PROBE_ITEMS)
    times = [best_time(lambda array, block=block: _inversions(array, block=block), values)
             for block in _BLOCKS]
    return _BLOCKS[int(np.argmin(times))]


def _inversions(values: np.ndarray, *, block: int | None = None) -> int:
    """Pairs i < j with values[i] > values[j] (ties are not inversions), by merge sort.

    The array (of non-negative integers) is cut into ``2**levels`` blocks of at most
    ``block`` items (by default :func:`_block_length`'s for long arrays), the last ones padded
    with a value larger than all others (padding adds no inversion; choosing the block length
    to fit wastes at most one item per block). Inversions inside the blocks are counted by
    comparing items ``d`` apart for each ``d``, with one row per offset so that every
    comparison runs along a long contiguous row. Then each level merges pairs of sorted runs
    of length w with one sort along the rows of a (blocks, 2w) array, each value tagged with
    its run. A right-run item that lands at merged position p, coming from
    offset q, passes q - p left-run items that are greater than it, so a level's inversions are
    the sum of q - p over right-run items.
    """
    n = len(values)
    if block is None:
        block = _UNPROBED_BLOCK if n < _UNPROBED else _block_length()
    levels = max(0, int(np.ceil(np.log2(n / block))))
    block = -(-n // (1 << levels))
    size = block << levels
    pad = int(values.max()) + 1
    # Tagged values reach 2 * pad + 1: in 32 bits when they fit, which halves the memory
    # every level's sort moves.
    dtype = np.int32 if pad < 2**30 - 1 else np.int64
    merged = np.full(size, pad, dtype=dtype)
    merged[:n] = values
    blocks = merged.reshape(-1, block)
    total = 0
    if block > 1:
        by_offset = np.ascontiguousarray(blocks.T)  # row d holds every block's item d
        for distance in range(1, block):  # a loop over offsets within a block, not items
            total += int(np.count_nonzero(by_offset[:-distance] > by_offset[distance:]))
        del by_offset
        blocks.sort(axis=1)
    right = np.empty(size, dtype=dtype)
    width = block
    while width < size:
        # Tag each item with its run (left 0, right 1) in the lowest bit: sorting the tagged
        # values merges the two runs, left before right among equal values, in one np.sort.
        # Every step works in place: a new array per level costs its page faults again.
        merged <<= 1
        rows = merged.reshape(-1, 2 * width)
        rows[:, width:] |= 1
        # Tagged values are distinct or identical, so any sort gives the same rows. Rows of
        # up to 512 items: numpy's default sort (sorting networks). Longer ones: that or the
        # stable sort's linear merge, whichever is faster on this CPU (see evalkit._sorting).
        rows.sort(axis=1, kind=merge_kind() if width >= _MERGE_MIN else None)
        # Right-run item from offset q landing at position p passes q - p greater left items;
        # the sum of q over right items is fixed per row. The sum of p: the right items per
        # column (position in the row), summed down the columns, times the column's position.
        n_rows = len(rows)
        np.bitwise_and(merged, 1, out=right)
        per_column = right.reshape(n_rows, 2 * width)
        if n_rows > 1:
            per_column = np.add.reduce(per_column, axis=0, dtype=dtype)
        sum_p = int(np.dot(per_column.reshape(-1).astype(np.int64),
                           np.arange(2 * width, dtype=np.int64)))
        total += n_rows * (width * (3 * width - 1) // 2) - sum_p
        merged >>= 1
        width *= 2
    return total


def _table_pair_counts(x: _Ranking, y: _Ranking) -> tuple[int, int, int, int]:
    """Discordant pairs and pairs tied in x, in y and in both, from the levels' table.

    For few levels, no sort: the (x level, y level) contingency table counts the items, and a
    cell's discordant partners are the items with a larger x and a smaller y, a cumulative
    sum over both axes; :math:`O(n + k_x k_y)`.
    """
    table = np.bincount(x.ranks * y.levels + y.ranks,
                        minlength=x.levels * y.levels).reshape(x.levels, y.levels)
    same_x_smaller_y = np.cumsum(table, axis=1) - table
    larger_x_smaller_y = np.cumsum(same_x_smaller_y[::-1], axis=0)[::-1] - same_x_smaller_y
    discordant = int(np.einsum("ij,ij->", table, larger_x_smaller_y))
    rows, columns = table.sum(axis=1), table.sum(axis=0)
    return (discordant, int((rows * (rows - 1) // 2).sum()),
            int((columns * (columns - 1) // 2).sum()), int((table * (table - 1) // 2).sum()))


def _sorted_pair_counts(x: _Ranking, y: _Ranking) -> tuple[int, int, int, int]:
    """Discordant pairs and pairs tied in x, in y and in both, by sorting (Knight 1966)."""
    n = x.n
    if x.levels == n or y.levels == n:  # one of them untied: read the other in its order
        untied, other = (x, y) if x.levels == n else (y, x)
        # Discordance is symmetric in x and y; an untied other has no tied pair to count.
        other_ties = 0 if other.levels == n else _tied_pairs(other.ranks)
        if untied.in_order:  # the other is already read in the untied one's order
            # An untied other's sorting order is the inverse permutation of its ranks, with
            # as many inversions: no need to scatter the ranks.
            read = other.inverse() if other.levels == n else other.ranks
        else:
            read = other.ranks[untied.inverse()]
        discordant = _inversions(read)
        return ((discordant, 0, other_ties, 0) if x.levels == n
                else (discordant, other_ties, 0, 0))
    # One number per item that sorts by x, then y: sorting it (no argsort needed) lists the
    # y ranks in x order, ties in x in y order, so those pairs add no inversion.
    # y's rank in the low bits: shifts and masks, not divisions, take the number apart.
    y_bits = max(1, (y.levels - 1).bit_length())
    joint = x.ranks << y_bits
    joint |= y.ranks
    joint = sort_codes(joint, (x.levels - 1).bit_length() + y_bits)
    new_xy = np.concatenate([[True], joint[1:] != joint[:-1]])
    joint &= (1 << y_bits) - 1
    discordant = _inversions(joint)
    return discordant, _tied_pairs(x.ranks), _tied_pairs(y.ranks), _run_pairs(new_xy)


def concordant_discordant(x: Any, y: Any) -> PairCounts:
    r"""Count the concordant, discordant and tied pairs of two rankings of the same items.

    A pair of items :math:`(i, j)` is concordant when
    :math:`\operatorname{sign}(x_i - x_j) = \operatorname{sign}(y_i - y_j) \ne 0`, discordant
    when the signs are opposite and non-zero, and otherwise tied in x, in y, or in both:

    .. math::

        C + D + T_x + T_y + T_{xy} = \frac{n(n-1)}{2}

    Sorting by x (then y) and counting the inversions of y in that order gives *D* in
    :math:`O(n \log n)` (Knight 1966).

    Parameters
    ----------
    x, y : array-like of shape (n_items,)
        Scores or ranks of the same items; higher or lower is fine as long as both use the
        same direction.

    Returns
    -------
    PairCounts
        Unpacks like the tuple ``(C, D)``, so ``C, D = concordant_discordant(x, y)`` works;
        also has the attributes ``concordant``, ``discordant``, ``tied_x`` (pairs tied in x
        only), ``tied_y`` (in y only) and ``tied_xy`` (in both), as scipy's results do.

    References
    ----------
    Knight, W. R. (1966). A computer method for calculating Kendall's tau with ungrouped
    data. Journal of the American Statistical Association 61(314), 436–439.

    Examples
    --------
    >>> C, D = concordant_discordant([1, 2, 3, 4, 5], [2, 1, 5, 3, 4])
    >>> C, D
    (7, 3)
    >>> concordant_discordant([1, 1, 2], [1, 2, 2])
    PairCounts(concordant=1, discordant=0, tied_x=1, tied_y=1, tied_xy=0)
    """
    x, y = _check_pair(x, y)
    return _pair_counts(x, y)


def _pair_counts(x: np.ndarray, y: np.ndarray) -> PairCounts:
    n = len(x)
    x_ranking = _Ranking(x)
    if x_ranking.levels == n:
        # x untied: list the items in x's order, where x's ranks are 0..n-1, and rank y read
        # in that order (one gather, instead of scattering y's ranks and gathering them again).
        y_ranking = _Ranking(y[x_ranking.inverse()])
        x_ranking = _Ranking.listed_in_order(n)
    else:
        y_ranking = _Ranking(y)
    if x_ranking.levels * y_ranking.levels <= max(2 * n, _TABLE_CELLS):
        discordant, x_ties, y_ties, both = _table_pair_counts(x_ranking, y_ranking)
    else:
        discordant, x_ties, y_ties, both = _sorted_pair_counts(x_ranking, y_ranking)
    total = n * (n - 1) // 2
    concordant = total - x_ties - y_ties + both - discordant
    return PairCounts(int(concordant), int(discordant), tied_x=int(x_ties - both),
                      tied_y=int(y_ties - both), tied_xy=int(both))


@keyword_only
def kendall_tau(x: Any, y: Any, *, variant: str = "b") -> float:
    r"""Kendall's rank correlation between two rankings of the same items.

    .. math::

        \tau_a = \frac{C - D}{n(n-1)/2}, \qquad
        \tau_b = \frac{C - D}{\sqrt{(n_0 - n_1)(n_0 - n_2)}}

    with :math:`n_0 = n(n-1)/2`, :math:`n_1` the pairs tied in x and :math:`n_2` the pairs tied
    in y (ties in both count in each). Without ties the two are equal. :math:`\tau_b` is
    scipy's default; :math:`\tau_a` is the textbook's (the course notes' denominator
    :math:`n(n+1)/2` is a slip for :math:`n(n-1)/2`).

    Parameters
    ----------
    x, y : array-like of shape (n_items,)
        Scores or ranks of the same items.
    variant : {"b", "a"}, default "b"
        How ties are treated in the denominator.

    Returns
    -------
    float
        In [-1, 1]. ``variant="b"`` is NaN when x or y is constant (every pair tied), as
        scipy's, with an :class:`~evalkit.exceptions.UndefinedMetricWarning` (scipy's
        ``ConstantInputWarning``); ``variant="a"`` is then 0.

    References
    ----------
    Kendall, M. G. (1938). A new measure of rank correlation. Biometrika 30(1/2), 81–93.
    Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika 33(3),
    239–251.

    Examples
    --------
    >>> kendall_tau([1, 2, 3, 4, 5], [2, 1, 5, 3, 4])
    0.4
    >>> round(kendall_tau([1, 1, 2, 3], [1, 2, 2, 3], variant="a"), 4)
    0.6667
    """
    variant = check_option(variant, "variant", TAU_VARIANTS)
    x, y = _check_pair(x, y)
    counts = _pair_counts(x, y)
    difference = counts.concordant - counts.discordant
    n = len(x)
    total = n * (n - 1) // 2
    if variant == "a":
        return float(difference / total)
    untied_x = total - counts.tied_x - counts.tied_xy
    untied_y = total - counts.tied_y - counts.tied_xy
    if untied_x == 0 or untied_y == 0:
        warnings.warn("Kendall's tau-b is undefined (NaN): x or y is constant, every pair is "
                      "tied.", UndefinedMetricWarning, stacklevel=3)  # 3: keyword_only
        return float("nan")
    return float(difference / np.sqrt(float(untied_x) * float(untied_y)))


def spearman_rho(x: Any, y: Any) -> float:
    r"""Spearman's rank correlation: Pearson's correlation of the two rankings' ranks.

    .. math::

        \rho = \frac{\operatorname{cov}(r_x, r_y)}{\sigma_{r_x}\, \sigma_{r_y}}
        \;\overset{\text{no ties}}{=}\; 1 - \frac{6 \sum_i d_i^2}{n(n^2 - 1)}

    where :math:`r_x, r_y` are the ranks 1..n (tied items share their average rank, as
    ``scipy.stats.rankdata`` gives them) and :math:`d_i = r_{x,i} - r_{y,i}`.

    Parameters
    ----------
    x, y : array-like of shape (n_items,)
        Scores or ranks of the same items.

    Returns
    -------
    float
        In [-1, 1]; NaN when x or y is constant, with an
        :class:`~evalkit.exceptions.UndefinedMetricWarning` (as scipy's
        ``ConstantInputWarning``).

    References
    ----------
    Spearman, C. (1904). The proof and measurement of association between two things.
    American Journal of Psychology 15(1), 72–101.

    Examples
    --------
    >>> spearman_rho([1, 2, 3, 4, 5], [2, 1, 5, 3, 4])
    0.6
    """
    x, y = _check_pair(x, y)
    rank_x = _average_ranks(x) - (len(x) + 1) / 2
    rank_y = _average_ranks(y) - (len(y) + 1) / 2
    # einsum, not np.dot: a threaded BLAS dot stalls on a busy machine for no gain here.
    spread = np.sqrt(np.einsum("i,i->", rank_x, rank_x) * np.einsum("i,i->", rank_y, rank_y))
    if spread == 0:
        warnings.warn("Spearman's rho is undefined (NaN): x or y is constant.",
                      UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    return float(np.einsum("i,i->", rank_x, rank_y) / spread)
