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

from typing import Any

import numpy as np
import pandas as pd

from ._results import make_result
from ._validation import check_1d, check_consistent_length, check_count, check_option

__all__ = ["kendall_tau", "concordant_discordant", "spearman_rho", "PairCounts",
           "RankingPairsModel"]

TAU_VARIANTS = ("a", "b")
_DENSE_INTEGERS = 1 << 22  # integer data spanning fewer values are ranked with a lookup table
_BLOCK = 32  # the merge sort starts from blocks this long, whose inversions are counted directly


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


def _dense_ranks(values: np.ndarray) -> np.ndarray:
    """Dense ranks 0..m-1 (equal values share a rank); the sort need not be stable."""
    if values.dtype.kind in "iu":
        low, high = int(values.min()), int(values.max())
        if high - low < _DENSE_INTEGERS:  # a lookup table instead of a sort
            shifted = values.astype(np.int64, copy=False) - low
            present = np.bincount(shifted, minlength=high - low + 1) > 0
            return (np.cumsum(present) - 1)[shifted]
    order = np.argsort(values)
    sorted_values = values[order]
    step = np.empty(len(values), dtype=np.int64)
    step[0] = 0
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=step[1:])
    ranks = np.empty(len(values), dtype=np.int64)
    ranks[order] = np.cumsum(step)
    return ranks


def _average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n, tied values sharing the mean of their ranks (scipy's ``rankdata``)."""
    order = np.argsort(values)
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


def _inversions(values: np.ndarray) -> int:
    """Pairs i < j with values[i] > values[j] (ties are not inversions), by merge sort.

    The array is padded to a power of two with a value larger than all others (padding adds
    no inversion). Inversions inside blocks of ``_BLOCK`` items are counted by comparing
    items ``d`` apart for each ``d``; then each level merges pairs of sorted runs of length w
    with one sort along the rows of a (blocks, 2w) array, each value tagged with its run. A
    right-run item that lands at merged position p, coming from offset q, passes q - p
    left-run items that are greater than it, so a level's inversions are the sum of q - p
    over right-run items.
    """
    n = len(values)
    block = min(_BLOCK, 1 << int(np.ceil(np.log2(n))))
    size = max(block, 1 << int(np.ceil(np.log2(n))))
    padded = np.full(size, int(values.max()) + 1, dtype=np.int64)
    padded[:n] = values
    rows = padded.reshape(-1, block)
    total = 0
    for distance in range(1, block):  # a loop over offsets within a block, not over items
        total += int(np.count_nonzero(rows[:, :-distance] > rows[:, distance:]))
    merged = np.sort(rows, axis=1).reshape(-1)
    positions = np.arange(size, dtype=np.int64)
    width = block
    while width < size:
        # Tag each item with its run (left 0, right 1) in the lowest bit: sorting the tagged
        # values merges the two runs, left before right among equal values, in one np.sort.
        rows = merged.reshape(-1, 2 * width) << 1
        rows[:, width:] |= 1
        rows.sort(axis=1, kind="stable")  # two sorted runs: a linear merge
        flat = rows.reshape(-1)
        # Right-run item from offset q landing at position p passes q - p greater left items;
        # the sum of q over right items is fixed per row, the positions p are found here.
        n_rows = len(rows)
        sum_q = n_rows * (width * (3 * width - 1) // 2)
        row_offsets = 2 * width * width * (n_rows * (n_rows - 1) // 2)
        sum_p = int(np.dot(flat & 1, positions)) - row_offsets
        total += sum_q - sum_p
        merged = flat >> 1
        width *= 2
    return total


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
    n = len(x)
    x_ranks, y_ranks = _dense_ranks(x), _dense_ranks(y)
    # One number per item that sorts by x, then y: sorting it (no argsort needed) lists the
    # y ranks in x order, ties in x in y order, so those pairs add no inversion.
    levels = int(y_ranks.max()) + 1
    joint = np.sort(x_ranks * levels + y_ranks)
    y_in_x_order = joint % levels
    discordant = _inversions(y_in_x_order)
    new_x = np.concatenate([[True], joint[1:] // levels != joint[:-1] // levels])
    new_xy = np.concatenate([[True], joint[1:] != joint[:-1]])
    x_ties = _run_pairs(new_x)
    both = _run_pairs(new_xy)
    y_ties = _tied_pairs(y_ranks)
    total = n * (n - 1) // 2
    concordant = total - x_ties - y_ties + both - discordant
    return PairCounts(int(concordant), int(discordant), tied_x=int(x_ties - both),
                      tied_y=int(y_ties - both), tied_xy=int(both))


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
        In [-1, 1]. ``variant="b"`` is NaN when x or y is constant (every pair tied), as scipy.

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
    counts = concordant_discordant(x, y)
    difference = counts.concordant - counts.discordant
    n = len(np.asarray(x))
    total = n * (n - 1) // 2
    if variant == "a":
        return float(difference / total)
    untied_x = total - counts.tied_x - counts.tied_xy
    untied_y = total - counts.tied_y - counts.tied_xy
    if untied_x == 0 or untied_y == 0:
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
        NaN when x or y is constant.

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
    spread = np.sqrt(np.dot(rank_x, rank_x) * np.dot(rank_y, rank_y))
    if spread == 0:
        return float("nan")
    return float(np.dot(rank_x, rank_y) / spread)


# -------------------------------------------------------------------------------------------
# RankingPairsModel: the state behind evalkit.widgets.RankingExplorer
# -------------------------------------------------------------------------------------------

_VERDICTS = ("concordant", "discordant", "tied in reference")


class RankingPairsModel:
    r"""A reference ranking and a second ranking of the same items, compared pair by pair.

    This is the state behind :class:`evalkit.widgets.RankingExplorer`. The reference gives
    every item a place :math:`x_i` (1 = best; equal places are ties, as when documents share a
    grade). The second ranking is an order of the items, top first, and gives item *i* its
    position :math:`y_i`; being an order, it never ties. A pair :math:`\{i, j\}` is

    .. math::

        \text{concordant if } (x_i - x_j)(y_i - y_j) > 0, \quad
        \text{discordant if } (x_i - x_j)(y_i - y_j) < 0, \quad
        \text{tied if } x_i = x_j,

    and with :math:`n_0 = n(n-1)/2` pairs, :math:`n_1` of them tied in the reference,

    .. math::

        \tau_a = \frac{C - D}{n_0}, \qquad
        \tau_b = \frac{C - D}{\sqrt{(n_0 - n_1)\, n_0}}, \qquad
        \rho = \operatorname{corr}\bigl(\operatorname{rank}(x), y\bigr).

    :meth:`pairs` lists every pair by brute force (all :math:`n_0` of them, vectorised);
    :meth:`counts`, :meth:`tau` and :meth:`rho` call :func:`concordant_discordant`,
    :func:`kendall_tau` and :func:`spearman_rho`, so the two routes check each other.

    The second ranking is edited with :meth:`swap` (two neighbours), :meth:`move` (one item up
    or down), :meth:`set_order` (any order, e.g. one of :meth:`presets`), :meth:`reset` (the
    order the model was built with) and :meth:`scramble`: ``scramble(d)`` starts from the
    reference order and makes ``d`` random swaps of neighbours, each of which turns one
    concordant pair discordant, so the result has exactly ``d`` discordant pairs and, without
    ties, :math:`\tau = 1 - 2d / n_0`. The swaps follow one fixed random path (``seed``), so
    ``scramble(d + 1)`` is ``scramble(d)`` with one more swap.

    Parameters
    ----------
    items : sequence, default ("1", "2", "3", "4", "5")
        Names of the items (turned into strings; must be distinct), at least 2.
    order : sequence, optional
        The second ranking: every item once, top first. Default: the reference order.
    reference : array-like of numbers, optional
        Each item's place in the reference ranking, lower = better, ties allowed (for grades
        or scores where higher is better, pass their negatives). Default 1, 2, ..., n: the
        items as listed.
    seed : int, default 0
        Seed of ``np.random.default_rng`` for the path of :meth:`scramble`.

    Raises
    ------
    ValueError
        If the items repeat or are fewer than 2, ``order`` is not an order of the items,
        ``reference`` has the wrong length or holds NaN, or ``seed`` is negative.

    References
    ----------
    Kendall, M. G. (1938). A new measure of rank correlation. Biometrika 30(1/2), 81–93.
    Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika 33(3),
    239–251.

    Examples
    --------
    The course notes' example: ground truth 1 2 3 4 5, result 2 1 5 3 4.

    >>> model = RankingPairsModel(order=["2", "1", "5", "3", "4"])
    >>> s = model.summary()
    >>> s["concordant"], s["discordant"], s["tau_b"], round(s["rho"], 3)
    (7, 3, 0.4, 0.6)
    >>> model.pairs().query("verdict == 'discordant'")[["first", "second"]].values.tolist()
    [['1', '2'], ['3', '5'], ['4', '5']]
    >>> model.move(3, -2)  # item 5 from position 3 to the top
    1
    >>> model.order, model.summary()["discordant"]
    (['5', '2', '1', '3', '4'], 5)
    >>> model.scramble(2).summary()["discordant"], model.summary()["tau_a"]
    (2, 0.6)
    """

    def __init__(self, items: Any = ("1", "2", "3", "4", "5"), order: Any = None,
                 reference: Any = None, *, seed: int = 0) -> None:

        items = check_1d(items, "items")
        names = [str(item) for item in items.tolist()]
        if len(names) < 2:
            raise ValueError(f"items needs at least 2 items to form a pair; got {len(names)}")
        if len(set(names)) != len(names):
            repeated = sorted({name for name in names if names.count(name) > 1})
            raise ValueError(f"items must be distinct; repeated: {', '.join(repeated)}")
        self.items = names
        if reference is None:
            reference = np.arange(1, len(names) + 1, dtype=float)
        else:
            reference = check_1d(reference, "reference")
            check_consistent_length(reference=reference, items=np.asarray(names))
            if reference.dtype.kind not in "biuf":
                raise ValueError(f"reference must hold numbers (places); got {reference.dtype}")
            reference = reference.astype(float)
            if np.isnan(reference).any():
                position = int(np.flatnonzero(np.isnan(reference))[0])
                raise ValueError(f"reference contains NaN at position {position}; every item "
                                 "needs a place")
        self.reference = reference
        self.seed = check_count(seed, "seed")
        self._index = {name: i for i, name in enumerate(names)}
        self._path: list[int] | None = None
        self.order = self.reference_order if order is None else self._checked(order)
        self.initial_order = list(self.order)

    def __repr__(self) -> str:
        return (f"RankingPairsModel(reference order {' '.join(self.reference_order)}, "
                f"order {' '.join(self.order)})")

    @classmethod
    def course_notes(cls) -> RankingPairsModel:
        """The notes' example: ground truth 1 2 3 4 5, result 2 1 5 3 4 (7 C, 3 D, tau 0.4)."""
        return cls(order=["2", "1", "5", "3", "4"])

    # -- the two rankings ---------------------------------------------------------------------

    def _checked(self, order: Any, name: str = "order") -> list[str]:
        names = [str(item) for item in check_1d(order, name).tolist()]
        missing = [item for item in self.items if item not in names]
        unknown = [item for item in names if item not in self._index]
        if missing or unknown or len(names) != len(self.items):
            problems = []
            if missing:
                problems.append(f"missing {', '.join(missing)}")
            if unknown:
                problems.append(f"unknown {', '.join(unknown)}")
            if not problems:
                problems.append("some items appear twice")
            raise ValueError(f"{name} must list every item exactly once ({'; '.join(problems)}); "
                             f"items are {', '.join(self.items)}")
        return names

    @property
    def n_items(self) -> int:
        """n, the number of items."""
        return len(self.items)

    @property
    def n_pairs(self) -> int:
        """n(n-1)/2, the number of pairs."""
        return self.n_items * (self.n_items - 1) // 2

    @property
    def reference_order(self) -> list[str]:
        """The items in reference order, best first (tied items in the order listed)."""
        return [self.items[i] for i in np.argsort(self.reference, kind="stable")]

    @property
    def x(self) -> np.ndarray:
        """Each item's place in the reference (in the order of :attr:`items`)."""
        return self.reference.copy()

    @property
    def y(self) -> np.ndarray:
        """Each item's position in the second ranking, 1 = top (in the order of :attr:`items`)."""
        positions = np.empty(self.n_items, dtype=np.int64)
        positions[[self._index[item] for item in self.order]] = np.arange(1, self.n_items + 1)
        return positions

    @property
    def max_discordant(self) -> int:
        """The most discordant pairs possible: every pair not tied in the reference."""
        _, counts = np.unique(self.reference, return_counts=True)
        return self.n_pairs - int((counts * (counts - 1) // 2).sum())

    # -- pairs and coefficients -----------------------------------------------------------------

    def pairs(self) -> Any:
        """Every pair once, in reference order, with its verdict.

        Returns
        -------
        pandas.DataFrame
            Columns ``first``, ``second`` (``first`` is placed above or tied with ``second`` in
            the reference), ``in reference``, ``in ranking`` (e.g. ``"2 above 1"``) and
            ``verdict`` (``"concordant"``, ``"discordant"`` or ``"tied in reference"``).
        """

        by_reference = np.argsort(self.reference, kind="stable")
        i, j = np.triu_indices(self.n_items, k=1)
        first, second = by_reference[i], by_reference[j]
        x, y = self.reference, self.y
        sign_x = np.sign(x[second] - x[first])
        sign_y = np.sign(y[second] - y[first])
        verdict = np.where(sign_x == 0, _VERDICTS[2],
                           np.where(sign_x == sign_y, _VERDICTS[0], _VERDICTS[1]))
        names = np.array(self.items, dtype=object)
        a, b = names[first], names[second]
        return pd.DataFrame({
            "first": a,
            "second": b,
            "in reference": np.where(sign_x == 0, "tied", a + " above " + b),
            "in ranking": np.where(sign_y > 0, a + " above " + b, b + " above " + a),
            "verdict": verdict,
        })

    def counts(self) -> PairCounts:
        """C, D and the ties, from :func:`concordant_discordant`."""
        return concordant_discordant(self.reference, self.y)

    def tau(self, variant: str = "b") -> float:
        """Kendall's tau between the reference and the second ranking (:func:`kendall_tau`)."""
        return kendall_tau(self.reference, self.y, variant=variant)

    def rho(self) -> float:
        """Spearman's rho between the reference and the second ranking (:func:`spearman_rho`)."""
        return spearman_rho(self.reference, self.y)

    def summary(self) -> dict[str, Any]:
        """n, the pair counts, tau-a, tau-b and rho in one dictionary."""
        counts = self.counts()
        return {
            "n_items": self.n_items,
            "n_pairs": self.n_pairs,
            "concordant": counts.concordant,
            "discordant": counts.discordant,
            "tied": counts.tied_x + counts.tied_y + counts.tied_xy,
            "tau_a": self.tau("a"),
            "tau_b": self.tau("b"),
            "rho": self.rho(),
        }

    # -- editing the second ranking -------------------------------------------------------------

    def _position(self, position: Any, name: str, last: int) -> int:

        position = check_count(position, name, minimum=1)
        if position > last:
            raise ValueError(f"{name} must be between 1 and {last}; got {position}")
        return position

    def swap(self, position: int) -> RankingPairsModel:
        """Swap the items at ``position`` and ``position + 1`` (1 = top); return the model."""
        position = self._position(position, "position", self.n_items - 1)
        order = list(self.order)
        order[position - 1], order[position] = order[position], order[position - 1]
        self.order = order
        return self

    def move(self, position: int, step: int) -> int:
        """Move the item at ``position`` by ``step`` places (-1 = up); return its new position."""
        position = self._position(position, "position", self.n_items)
        if isinstance(step, bool) or not isinstance(step, (int, np.integer)):
            raise ValueError(f"step must be a whole number; got {step!r}")
        target = position + int(step)
        if not 1 <= target <= self.n_items:
            raise ValueError(f"cannot move position {position} by {step}: the target "
                             f"{target} is outside 1..{self.n_items}")
        order = list(self.order)
        order.insert(target - 1, order.pop(position - 1))
        self.order = order
        return target

    def set_order(self, order: Any) -> RankingPairsModel:
        """Replace the second ranking (every item once, top first); return the model."""
        self.order = self._checked(order)
        return self

    def reset(self) -> RankingPairsModel:
        """Go back to the order the model was built with; return the model."""
        self.order = list(self.initial_order)
        return self

    def _scramble_path(self) -> list[int]:
        """Positions (0-based) of the swaps, each making one concordant pair discordant."""
        if self._path is None:
            rng = np.random.default_rng(self.seed)
            places = np.sort(self.reference)  # the reference order's places, top first
            path = []
            while True:
                # A swap of neighbours changes the order of that pair only: swapping a pair
                # that the reference orders the same way adds exactly one discordant pair.
                candidates = np.flatnonzero(places[:-1] < places[1:])
                if candidates.size == 0:
                    break
                at = int(candidates[rng.integers(candidates.size)])
                places[[at, at + 1]] = places[[at + 1, at]]
                path.append(at)
            self._path = path
        return self._path

    def scramble(self, n_discordant: int) -> RankingPairsModel:
        """Reference order plus ``n_discordant`` random neighbour swaps; return the model.

        Each swap exchanges two neighbours that are still in reference order, so the result
        has exactly ``n_discordant`` discordant pairs (at most :attr:`max_discordant`).
        """

        n_discordant = check_count(n_discordant, "n_discordant")
        if n_discordant > self.max_discordant:
            raise ValueError(f"n_discordant must be at most {self.max_discordant} (every pair "
                             f"not tied in the reference); got {n_discordant}")
        order = self.reference_order
        for at in self._scramble_path()[:n_discordant]:
            order[at], order[at + 1] = order[at + 1], order[at]
        self.order = order
        return self

    def presets(self) -> dict[str, list[str]]:
        """Named orders to try: as built, the reference, reversed, one swap at the top or bottom."""
        reference = self.reference_order
        top = reference[1::-1] + reference[2:]
        bottom = reference[:-2] + reference[:-3:-1]
        return {
            "as built": list(self.initial_order),
            "same as the reference": reference,
            "reversed": reference[::-1],
            "top two swapped": top,
            "bottom two swapped": bottom,
            "best item last": reference[1:] + reference[:1],
        }
