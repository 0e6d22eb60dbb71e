r"""Many systems on many data sets: Friedman's test on ranks and Nemenyi's post-hoc test.

Demšar (2006) recommends, for comparing k systems over N data sets (or topics), to rank the
systems on each data set, test with Friedman whether the average ranks differ at all, and
then compare every pair with Nemenyi's test, whose critical difference (CD) is what the
critical-difference diagram (:func:`evalkit.plots.plot_critical_difference`) draws.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import pandas as pd

from .._lazy import lazy_module
from .._results import make_result
from .._validation import check_scalar, keyword_only

stats = lazy_module("scipy.stats")  # scipy is imported on first use (evalkit._lazy)

__all__ = [
    "friedman_test",
    "nemenyi_test",
    "FriedmanResult",
    "NemenyiResult",
]


FriedmanResult = make_result(
    "FriedmanResult", ("statistic", "pvalue"),
    ("f_statistic", "f_pvalue", "ranks", "n_datasets", "n_systems"), module=__name__,
    doc="What :func:`friedman_test` returns: Friedman's tie-corrected chi-square "
        "``statistic`` and its ``pvalue`` (unpacks to these two), Iman and Davenport's "
        "``f_statistic`` and ``f_pvalue``, the average ``ranks`` (1 = best) and the table's "
        "``n_datasets`` (N) and ``n_systems`` (k).")

NemenyiResult = make_result(
    "NemenyiResult", ("pvalues", "critical_difference"),
    ("ranks", "rank_differences", "groups", "alpha", "q_alpha", "n_datasets", "n_systems"),
    module=__name__,
    doc="What :func:`nemenyi_test` returns: the systems x systems ``pvalues`` and the "
        "``critical_difference`` (unpacks to these two), the average ``ranks``, the "
        "``rank_differences`` |R_i - R_j|, the ``groups`` of systems not significantly "
        "different, ``alpha``, ``q_alpha`` and the table's ``n_datasets`` and ``n_systems``.")


def _score_table(scores: Any) -> tuple[np.ndarray, list[Any] | None]:
    """The scores as an (N, k) float array, and the system names of a DataFrame."""
    names = None
    if isinstance(scores, pd.DataFrame):
        if scores.columns.duplicated().any():
            repeated = scores.columns[scores.columns.duplicated()].tolist()
            raise ValueError(f"scores has repeated column names {repeated}; one column per "
                             "system")
        for column in scores.columns:
            dtype = scores[column].dtype
            if not pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype):
                raise ValueError(f"scores[{column!r}] must hold numbers; got dtype {dtype}")
        names = scores.columns.tolist()
        values = scores.to_numpy(dtype=np.float64)
    else:
        if isinstance(scores, (str, bytes, dict, set)) or np.isscalar(scores):
            raise TypeError("scores must be a DataFrame (one column per system) or a 2-D "
                            f"array (one row per data set); got a {type(scores).__name__}")
        try:
            values = np.asarray(scores)
        except ValueError as error:  # ragged nested lists
            raise ValueError("scores must be a 2-D table with the same number of systems in "
                             f"every row ({error})") from None
        if values.ndim != 2:
            raise ValueError("scores must be 2-D, one row per data set or topic and one "
                             f"column per system; got {values.ndim} dimension(s), shape "
                             f"{values.shape}")
        if values.dtype.kind not in "iuf":
            raise ValueError(f"scores must hold numbers; got dtype {values.dtype}")
        values = values.astype(np.float64)
    n_datasets, n_systems = values.shape
    if n_systems < 2:
        raise ValueError(f"scores has {n_systems} column(s); comparing systems needs at "
                         "least 2 (one column per system)")
    if n_datasets < 2:
        raise ValueError(f"scores has {n_datasets} row(s); ranking systems over data sets "
                         "needs at least 2 (one row per data set or topic)")
    bad = ~np.isfinite(values)
    if bad.any():
        row, column = (int(i) for i in np.argwhere(bad)[0])
        where = f"row {row}, column {names[column]!r}" if names else f"row {row}, column {column}"
        what = "NaN" if np.isnan(values[row, column]) else "an infinite value"
        raise ValueError(f"scores contains {what} at {where} (a data set a system was not "
                         "run on? drop that row or score it first); scores must be finite")
    return values, names


def _row_ranks(values: np.ndarray) -> np.ndarray:
    """Rank within each row, 1 = highest score, ties get the average of their ranks."""
    return stats.rankdata(-values, axis=1, method="average")


def _as_named(ranks: np.ndarray, names: list[Any] | None) -> Any:
    if names is None:
        return ranks
    return pd.Series(ranks, index=pd.Index(names, name="system"), name="average_rank")


def friedman_test(scores: Any) -> FriedmanResult:
    r"""Friedman's test: do k systems rank differently over N data sets?

    Rank the systems on each data set (row), 1 for the best score, ties sharing the average
    of their ranks, and let :math:`R_j` be system j's average rank over the N rows. Under
    the null hypothesis (all systems equivalent) every :math:`R_j` is near
    :math:`(k + 1)/2`. Friedman's statistic, with the correction for ties,

    .. math::

        \chi^2_F = \frac{\frac{12 N}{k (k + 1)} \sum_j R_j^2 - 3 N (k + 1)}
                        {1 - \frac{\sum t (t^2 - 1)}{N k (k^2 - 1)}}

    (the sum in the denominator runs over every group of t tied scores within a row)
    is approximately :math:`\chi^2` with :math:`k - 1` degrees of freedom. Iman and
    Davenport (1980) showed that approximation to be conservative and proposed

    .. math::

        F_F = \frac{(N - 1)\,\chi^2_F}{N (k - 1) - \chi^2_F}
        \sim F\bigl(k - 1,\ (k - 1)(N - 1)\bigr),

    which Demšar (2006) recommends. Assumptions: the rows are independent (different data
    sets, not folds of one), the scores within a row are comparable, and nothing about
    their distribution beyond that: only the order within each row counts.

    How to read it: a small p-value says that at least one system ranks differently from
    the others on average; it does not say which. Follow it with :func:`nemenyi_test` (all
    pairs) or with a test against a baseline and Holm's correction. With few rows (N < 10 or
    so) the chi-square approximation is rough; prefer the F p-value.

    ``statistic`` and ``pvalue`` are those of ``scipy.stats.friedmanchisquare(*scores.T)``
    (which needs k >= 3; here k = 2 works too, where the test is a two-sided sign test with
    ties counted as halves).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        One row per data set or topic, one column per system (the column name is the
        system's name), higher is better. At least 2 rows and 2 columns, finite numbers
        (to compare error rates, pass their negatives).

    Returns
    -------
    FriedmanResult
        Unpacks like ``(statistic, pvalue)``; also ``.f_statistic`` and ``.f_pvalue``
        (Iman-Davenport), ``.ranks`` (average rank per system, 1 = best: a Series indexed
        by system name for a DataFrame, else an array), ``.n_datasets`` and
        ``.n_systems``. When every row is one tie (nothing to rank), the statistic is 0 and
        the p-values 1 (scipy gives NaN); when every row ranks the systems the same, F is
        ``inf`` and its p-value 0.

    References
    ----------
    Friedman, M. (1937). The use of ranks to avoid the assumption of normality implicit in
    the analysis of variance. Journal of the American Statistical Association 32(200),
    675–701.
    Friedman, M. (1940). A comparison of alternative tests of significance for the problem
    of m rankings. Annals of Mathematical Statistics 11(1), 86–92.
    Iman, R. L. and Davenport, J. M. (1980). Approximations of the critical region of the
    Friedman statistic. Communications in Statistics A 9(6), 571–595.
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    Journal of Machine Learning Research 7, 1–30 (section 3.2.2).

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({
    ...     "bm25":  [0.31, 0.42, 0.28, 0.55, 0.47, 0.39],
    ...     "rm3":   [0.35, 0.44, 0.30, 0.58, 0.45, 0.43],
    ...     "dense": [0.40, 0.49, 0.27, 0.63, 0.52, 0.46],
    ... })
    >>> result = friedman_test(scores)
    >>> round(result.statistic, 3), round(result.pvalue, 4)
    (5.333, 0.0695)
    >>> round(result.f_statistic, 3), round(result.f_pvalue, 4)
    (4.0, 0.0529)
    >>> print(result.ranks.round(3).to_string())
    system
    bm25     2.667
    rm3      2.000
    dense    1.333
    """
    values, names = _score_table(scores)
    n_datasets, n_systems = values.shape
    ranks = _row_ranks(values)
    average = ranks.mean(axis=0)
    # sum over tie groups of t (t^2 - 1) = sum over scores of (size of its tie group)^2 - 1
    group_sizes = (values[:, :, None] == values[:, None, :]).sum(axis=2)
    ties = float(np.sum(group_sizes**2 - 1))
    correction = 1.0 - ties / (n_datasets * n_systems * (n_systems**2 - 1))
    df = n_systems - 1
    if correction <= 1e-12:  # every row one tie: no ranking at all
        statistic, pvalue, f_statistic, f_pvalue = 0.0, 1.0, 0.0, 1.0
    else:
        rank_sums = ranks.sum(axis=0)
        statistic = float((12.0 / (n_systems * n_datasets * (n_systems + 1))
                           * np.sum(rank_sums**2) - 3.0 * n_datasets * (n_systems + 1))
                          / correction)
        statistic = max(statistic, 0.0)  # rounding below 0 when the ranks are all equal
        pvalue = float(stats.chi2.sf(statistic, df))
        denominator = n_datasets * df - statistic
        if denominator <= 1e-9 * n_datasets * df:  # every row ranks the systems the same
            f_statistic, f_pvalue = math.inf, 0.0
        else:
            f_statistic = float((n_datasets - 1) * statistic / denominator)
            f_pvalue = float(stats.f.sf(f_statistic, df, df * (n_datasets - 1)))
    return FriedmanResult(statistic, pvalue, f_statistic=f_statistic, f_pvalue=f_pvalue,
                          ranks=_as_named(average, names), n_datasets=n_datasets,
                          n_systems=n_systems)


@functools.lru_cache(maxsize=256)
def _q_alpha(alpha: float, n_systems: int) -> float:
    """Demšar's q_alpha: the studentized range quantile over sqrt(2) (slow to compute)."""
    return float(stats.studentized_range.ppf(1.0 - alpha, n_systems, np.inf)) / math.sqrt(2)


def _nemenyi_groups(average: np.ndarray, critical_difference: float) -> list[tuple[int, ...]]:
    """Maximal runs of systems (in rank order) whose ranks differ by less than the CD.

    On a line, a set of points whose pairwise distances are all below the CD is a run of
    consecutive points, so the maximal cliques of "not significantly different" are the
    runs [i, j] with R_(j) - R_(i) < CD that no longer run contains. Only runs of 2 or more
    systems are returned (a bar needs two ends)."""
    order = np.argsort(average, kind="stable")
    ordered = average[order]
    k = len(ordered)
    # the furthest j for each i with ordered[j] - ordered[i] < CD
    ends = np.searchsorted(ordered, ordered + critical_difference, side="left") - 1
    groups, furthest = [], -1
    for start in range(k):  # a loop over systems (a handful)
        end = int(ends[start])
        if end > furthest and end > start:
            groups.append(tuple(int(i) for i in order[start:end + 1]))
        furthest = max(furthest, end)
    return groups


@keyword_only
def nemenyi_test(scores: Any, *, alpha: float = 0.05) -> NemenyiResult:
    r"""Nemenyi's test: which pairs of k systems differ in average rank over N data sets?

    The post-hoc test after :func:`friedman_test` (Demšar 2006, section 3.2.2). Two
    systems differ significantly at level :math:`\alpha` when their average ranks differ by
    at least the critical difference

    .. math::

        CD = q_\alpha \sqrt{\frac{k (k + 1)}{6 N}}, \qquad
        q_\alpha = \frac{q_{1-\alpha}(k, \infty)}{\sqrt 2},

    where :math:`q_{1-\alpha}(k, \infty)` is the :math:`1 - \alpha` quantile of the
    studentized range of k normal variables (``scipy.stats.studentized_range.ppf(1 - alpha,
    k, np.inf)``): Demšar's Table 5 (:math:`q_{0.05}` = 1.960, 2.343, 2.569, ... for k =
    2, 3, 4, ...). The p-value of a pair uses the same distribution, as scikit-posthocs'
    ``posthoc_nemenyi_friedman`` does:

    .. math::

        p_{ij} = P\Bigl(Q_{k,\infty} \ge \sqrt 2\,\frac{|R_i - R_j|}
                 {\sqrt{k (k + 1) / (6 N)}}\Bigr),

    so :math:`p_{ij} \le \alpha` exactly when :math:`|R_i - R_j| \ge CD`. The test controls
    the family-wise error over all :math:`k (k - 1)/2` pairs; it is conservative, and with
    few data sets it finds few differences. Assumptions as for :func:`friedman_test`:
    independent rows; the ranks' normal approximation needs N not too small (Demšar uses
    it from N = 10 or so).

    How to read it: a pair with p below alpha differs in average rank; a pair above it has
    not been shown to differ (that is not evidence that the two are equal). ``groups``
    lists the maximal sets of systems whose average ranks all lie within less than the CD
    of each other: the thick bars of Demšar's diagram.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        One row per data set or topic, one column per system, higher is better (as
        :func:`friedman_test`).
    alpha : float, default 0.05
        Family-wise significance level, in (0, 1).

    Returns
    -------
    NemenyiResult
        Unpacks like ``(pvalues, critical_difference)``. ``.pvalues``: a systems x systems
        DataFrame (1 on the diagonal; for an array, indexed 0..k-1); ``.critical_difference``
        (float); ``.ranks`` (as :func:`friedman_test`); ``.rank_differences`` (DataFrame of
        :math:`|R_i - R_j|`); ``.groups`` (a list of tuples of system names, each in rank
        order, best first: the maximal groups of two or more systems not significantly
        different; a system in no group differs from every other); ``.alpha``,
        ``.q_alpha``, ``.n_datasets`` and ``.n_systems``.

    References
    ----------
    Nemenyi, P. B. (1963). Distribution-free multiple comparisons. PhD thesis, Princeton
    University.
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    Journal of Machine Learning Research 7, 1–30 (section 3.2.2 and Table 5).

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({
    ...     "bm25":  [0.31, 0.42, 0.28, 0.55, 0.47, 0.39, 0.36, 0.50],
    ...     "rm3":   [0.35, 0.44, 0.30, 0.58, 0.45, 0.43, 0.37, 0.49],
    ...     "dense": [0.40, 0.49, 0.27, 0.63, 0.52, 0.46, 0.44, 0.57],
    ... })
    >>> result = nemenyi_test(scores)
    >>> round(result.critical_difference, 3)
    1.172
    >>> print(result.pvalues.round(4).to_string())
             bm25     rm3   dense
    bm25   1.0000  0.5768  0.0164
    rm3    0.5768  1.0000  0.1868
    dense  0.0164  0.1868  1.0000
    >>> result.groups
    [('dense', 'rm3'), ('rm3', 'bm25')]
    """
    alpha = check_scalar(alpha, "alpha", low=0, high=1, low_inclusive=False,
                         high_inclusive=False)
    values, names = _score_table(scores)
    n_datasets, n_systems = values.shape
    average = _row_ranks(values).mean(axis=0)
    scale = math.sqrt(n_systems * (n_systems + 1) / (6.0 * n_datasets))
    q_alpha = _q_alpha(alpha, n_systems)
    critical_difference = q_alpha * scale
    differences = np.abs(average[:, None] - average[None, :])
    upper = np.triu_indices(n_systems, 1)
    pvalues = np.ones((n_systems, n_systems))
    pvalues[upper] = stats.studentized_range.sf(differences[upper] / scale * math.sqrt(2),
                                                n_systems, np.inf)
    pvalues = np.clip(np.minimum(pvalues, pvalues.T), 0.0, 1.0)
    labels = names if names is not None else list(range(n_systems))
    index = pd.Index(labels, name=None)
    groups = [tuple(labels[i] for i in group)
              for group in _nemenyi_groups(average, critical_difference)]
    return NemenyiResult(
        pd.DataFrame(pvalues, index=index, columns=index), critical_difference,
        ranks=_as_named(average, names),
        rank_differences=pd.DataFrame(differences, index=index, columns=index),
        groups=groups, alpha=alpha, q_alpha=q_alpha, n_datasets=n_datasets,
        n_systems=n_systems)
