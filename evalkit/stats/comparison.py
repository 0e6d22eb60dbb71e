"""Comparing systems: one table per comparison, with the test, the effect size and the correction
for many systems (:func:`compare_systems`, :func:`compare_runs`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .._lazy import lazy_module
from .._validation import (
    check_bool,
    check_finite_scores,
    check_option,
    check_scalar,
    check_seed,
    keyword_only,
)
from ._common import _check_at_least_two, _paired_scores, _unit_scale
from .effect_size import cohens_d, effect_size_label
from .randomization import paired_randomization_test

stats = lazy_module("scipy.stats")  # scipy is imported on first use (evalkit._lazy)

__all__ = [
    "adjust_pvalues",
    "compare_systems",
    "compare_runs",
    "SIGNIFICANCE_TESTS",
    "CORRECTIONS",
]


#: The tests :func:`compare_systems` and :func:`compare_runs` run.
SIGNIFICANCE_TESTS = ("t", "randomization", "wilcoxon")

#: The multiple-comparison corrections of :func:`compare_runs`.
CORRECTIONS = (None, "holm", "bonferroni")

_TEST_NAMES = {("t", True): "paired t", ("t", False): "Welch t",
               ("randomization", True): "randomization", ("wilcoxon", True): "Wilcoxon"}


def _difference_test(a: np.ndarray, b: np.ndarray, *, paired: bool, test: str,
                     n_resamples: int, rng: np.random.Generator) -> tuple[float, float]:
    """(statistic, p-value) of one two-sided test; the inputs are checked."""
    if test == "randomization":
        result = paired_randomization_test(a, b, n_resamples=n_resamples, seed=rng)
        return result.statistic, result.pvalue
    if paired and not np.any(a != b):
        # Identical scores: no evidence of a difference (scipy's t gives NaN: 0 / 0).
        return 0.0, 1.0
    if test == "wilcoxon":
        result = stats.wilcoxon(a, b)
        return float(result.statistic), float(result.pvalue)
    if paired:
        difference = _unit_scale(a - b)
        if np.ptp(difference) == 0:  # constant, non-zero differences: t is +-inf, as scipy
            return math.copysign(math.inf, difference.mean()), 0.0
        # ttest_rel(a, b) is the one-sample test of a - b; t does not change when the
        # differences are rescaled, and rescaled ones cannot underflow when squared.
        result = stats.ttest_1samp(difference, 0.0)
    else:
        if a.std() == 0 and b.std() == 0:
            if a[0] == b[0]:
                return 0.0, 1.0
            return math.copysign(math.inf, a[0] - b[0]), 0.0
        result = stats.ttest_ind(a, b, equal_var=False)
    return float(result.statistic), float(result.pvalue)


@keyword_only
def compare_systems(
    scores_a: Any,
    scores_b: Any,
    *,
    paired: bool = True,
    test: str = "t",
    n_resamples: int = 10000,
    seed: Any = None,
) -> pd.DataFrame:
    r"""Is system A better than system B? The difference, a significance test, the effect size.

    For per-query (or per-run) scores of two systems, one row holds the two means, their
    difference :math:`\bar a - \bar b`, the test's statistic and two-sided p-value, Cohen's
    d (:func:`cohens_d`; :math:`d_z` when paired) and its :func:`effect_size_label`. The
    tests are scipy's:

    .. math::

        t = \frac{\overline{a - b}}{s_{a-b} / \sqrt{n}} \quad\text{(paired)}, \qquad
        t = \frac{\bar a - \bar b}{\sqrt{s_a^2 / n_a + s_b^2 / n_b}} \quad\text{(Welch)}

    - ``"t"``: ``scipy.stats.ttest_rel(scores_a, scores_b)`` when ``paired``, else Welch's
      ``scipy.stats.ttest_ind(scores_a, scores_b, equal_var=False)``;
    - ``"randomization"``: :func:`paired_randomization_test` (statistic: the mean
      difference);
    - ``"wilcoxon"``: ``scipy.stats.wilcoxon(scores_a, scores_b)`` with scipy's defaults
      (zero differences dropped; statistic: the smaller signed-rank sum).

    The last two need paired scores. A small p-value says the difference is unlikely to be
    chance; the effect size says whether it is large enough to matter.

    Which d: paired, ``cohens_d`` is :math:`d_z` (mean difference over the SD of the
    differences), which measures how *consistent* the difference is and grows with the
    correlation of the two systems' per-query scores, so Cohen's bands, which were set for
    a difference between two groups, do not apply to it (:func:`effect_size_label`
    explains). The table therefore also gives :math:`d_{av}` (the mean difference over the
    mean of the two SDs, Lakens 2013, eq. 10), which is on the between-group scale, and
    ``effect_size_label`` names the size of :math:`d_{av}`. Unpaired, ``cohens_d`` is the
    average-variance d, already on the between-group scale, and is the one labelled.
    Compare many systems with :func:`compare_runs`, which corrects for the number of tests.

    Parameters
    ----------
    scores_a, scores_b : array-like
        Scores of the two systems, e.g. per-query AP from :func:`evalkit.evaluate` (at least
        2 each, finite). Paired: the same queries in the same order.
    paired : bool, default True
        Whether row i of both is the same query (or test set, or seed).
    test : {"t", "randomization", "wilcoxon"}, default "t"
    n_resamples : int, default 10000
        Sign flips of the randomization test.
    seed : None, int or numpy.random.Generator, optional
        Seed of the randomization test.

    Returns
    -------
    DataFrame
        One row, indexed by the test's name ("paired t", "Welch t", "randomization",
        "Wilcoxon"), with columns ``mean_a``, ``mean_b``, ``difference``, ``statistic``,
        ``pvalue``, ``cohens_d`` (:math:`d_z` when paired), ``d_av`` (paired only) and
        ``effect_size_label`` (of ``d_av`` when paired, of ``cohens_d`` unpaired). When
        the paired scores are identical, the statistic and d are 0 and the p-value is 1
        (scipy's t test gives NaN); constant non-zero differences give t = d = ±inf and
        p = 0.

    References
    ----------
    Student (1908). The probable error of a mean. Biometrika 6(1), 1–25.
    Welch, B. L. (1947). The generalization of "Student's" problem when several different
    population variances are involved. Biometrika 34(1–2), 28–35.
    Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin
    1(6), 80–83.
    Smucker, M. D., Allan, J. and Carterette, B. (2007). A comparison of statistical
    significance tests for information retrieval evaluation. CIKM 2007, 623–632.
    Lakens, D. (2013). Calculating and reporting effect sizes to facilitate cumulative
    science: a practical primer for t-tests and ANOVAs. Frontiers in Psychology 4, 863.

    Examples
    --------
    >>> ap_new = [0.42, 0.55, 0.31, 0.78, 0.60, 0.25, 0.91, 0.47]
    >>> ap_old = [0.35, 0.50, 0.33, 0.61, 0.52, 0.20, 0.85, 0.40]
    >>> table = compare_systems(ap_new, ap_old)
    >>> print(table.round(4).T.to_string(header=False))
    mean_a             0.5362
    mean_b               0.47
    difference         0.0663
    statistic          3.5979
    pvalue             0.0088
    cohens_d            1.272
    d_av                0.312
    effect_size_label   small

    The difference is very consistent across queries (:math:`d_z` = 1.27) but small beside
    the spread of the scores (:math:`d_{av}` = 0.31), which is what the label names.
    """
    paired = check_bool(paired, "paired")
    test = check_option(test, "test", SIGNIFICANCE_TESTS)
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=1)
    rng = check_seed(seed)
    if paired:
        a, b = _paired_scores(scores_a, scores_b)
    else:
        a = check_finite_scores(scores_a, "scores_a")
        b = check_finite_scores(scores_b, "scores_b")
        _check_at_least_two(a, "scores_a")
        _check_at_least_two(b, "scores_b")
        if test != "t":
            raise ValueError(f"test={test!r} compares paired scores; with paired=False use "
                             "test='t' (Welch's t test)")
    statistic, pvalue = _difference_test(a, b, paired=paired, test=test,
                                         n_resamples=n_resamples, rng=rng)
    d = cohens_d(a, b, paired=paired)
    row = {"mean_a": a.mean(), "mean_b": b.mean(), "difference": a.mean() - b.mean(),
           "statistic": statistic, "pvalue": pvalue, "cohens_d": d}
    if paired:
        row["d_av"] = cohens_d(a, b, paired=True, kind="d_av")
    row["effect_size_label"] = effect_size_label(row["d_av"] if paired else d)
    return pd.DataFrame([row], index=pd.Index([_TEST_NAMES[test, paired]], name="test"))


def _adjust(pvalues: np.ndarray, correction: str | None,
            alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Adjusted p-values and rejections, as statsmodels' ``multipletests``."""
    m = len(pvalues)
    if correction is None:
        return pvalues.copy(), pvalues <= alpha
    if correction == "bonferroni":
        return np.minimum(pvalues * m, 1.0), pvalues <= alpha / m
    # Holm: the i-th smallest p-value (from 0) is multiplied by m - i; adjusted values never
    # decrease along the sorted order; rejection stops at the first p > alpha / (m - i).
    order = np.argsort(pvalues)
    ordered = pvalues[order]
    multipliers = np.arange(m, 0, -1)
    adjusted = np.minimum(np.maximum.accumulate(ordered * multipliers), 1.0)
    fails = ordered > alpha / multipliers
    first_failure = int(np.argmax(fails)) if fails.any() else m
    result_adjusted, result_reject = np.empty(m), np.empty(m, dtype=bool)
    result_adjusted[order] = adjusted
    result_reject[order] = np.arange(m) < first_failure
    return result_adjusted, result_reject


@keyword_only
def adjust_pvalues(pvalues: Any, *, correction: str | None = "holm") -> np.ndarray:
    r"""P-values adjusted for many comparisons (Holm's step-down or Bonferroni).

    With the :math:`m` p-values sorted, :math:`p_{(1)} \le \dots \le p_{(m)}`, Holm's (1979)
    adjusted values are

    .. math::

        \tilde p_{(i)} = \max_{j \le i} \min\bigl(1, (m - j + 1)\, p_{(j)}\bigr),

    Bonferroni's :math:`\min(1, m\,p_i)`. Rejecting every :math:`\tilde p \le \alpha` keeps
    the chance of any false rejection (the family-wise error rate) at most :math:`\alpha`
    whatever the dependence between the tests; Holm's is never less powerful. These are
    the ``pvalue_adjusted`` column of :func:`compare_runs`, for p-values from any tests.

    Parameters
    ----------
    pvalues : array-like of shape (m,)
        P-values in [0, 1].
    correction : {"holm", "bonferroni", None}, default "holm"
        None returns the p-values unchanged.

    Returns
    -------
    numpy.ndarray of shape (m,)
        The adjusted p-values, in the order of ``pvalues`` (as statsmodels'
        ``multipletests(pvalues, method="holm")[1]``).

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian
    Journal of Statistics 6(2), 65–70.

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.5]).round(2).tolist()
    [0.04, 0.09, 0.09, 0.5]
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.5], correction="bonferroni").round(2).tolist()
    [0.04, 0.16, 0.12, 1.0]
    """
    correction = check_option(correction, "correction", CORRECTIONS)
    values = check_finite_scores(pvalues, "pvalues")
    if ((values < 0) | (values > 1)).any():
        raise ValueError("pvalues must lie in [0, 1]")
    return _adjust(values, correction, 0.05)[0]


def _check_score_table(scores: Any, baseline: Any) -> pd.DataFrame:
    if not isinstance(scores, pd.DataFrame):
        raise TypeError("scores must be a DataFrame with one column per system and one row per "
                        "query or run (e.g. pd.DataFrame({'bm25': ap_bm25, 'dense': "
                        f"ap_dense}})); got a {type(scores).__name__}")
    if scores.columns.duplicated().any():
        repeated = scores.columns[scores.columns.duplicated()].tolist()
        raise ValueError(f"scores has repeated column names {repeated}; one column per system")
    if baseline not in scores.columns:
        raise ValueError(f"baseline must be one of the columns of scores "
                         f"{scores.columns.tolist()}; got {baseline!r}")
    if scores.shape[1] < 2:
        raise ValueError("scores holds only the baseline; add a column per system to compare")
    if len(scores) < 2:
        raise ValueError(f"scores has {len(scores)} row(s); a test needs at least 2 queries "
                         "or runs")
    for column in scores.columns:
        values = scores[column]
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            raise ValueError(f"scores[{column!r}] must hold numbers; got dtype {values.dtype}")
        bad = ~np.isfinite(values.to_numpy(dtype=np.float64))
        if bad.any():
            row = values.index[int(np.flatnonzero(bad)[0])]
            raise ValueError(
                f"scores[{column!r}] contains NaN or inf at row {row!r} (a query missing "
                "from that run? evaluate(..., missing_queries='zero') scores it 0); scores "
                "must be finite numbers")
    return scores


@keyword_only
def compare_runs(
    scores: pd.DataFrame,
    *,
    baseline: Any,
    test: str = "t",
    correction: str | None = "holm",
    alpha: float = 0.05,
    n_resamples: int = 10000,
    seed: Any = None,
) -> pd.DataFrame:
    r"""Compare many systems with a baseline: paired tests, corrected p-values, effect sizes.

    Each system's column is compared with the baseline's by a paired test (as
    :func:`compare_systems` with ``paired=True``); with *m* systems, *m* tests are run, and
    the chance that at least one of them is "significant" by luck grows with *m*. The
    correction controls that family-wise error rate at ``alpha``. With :math:`p_{(1)} \le
    \dots \le p_{(m)}` the sorted p-values:

    .. math::

        \text{Bonferroni: } \tilde p_i = \min(1, m\, p_i) \qquad
        \text{Holm: } \tilde p_{(i)} = \min\Bigl(1, \max_{j \le i} (m - j + 1)\, p_{(j)}\Bigr)

    A system is ``significant`` when its test rejects at ``alpha`` after correction:
    Bonferroni when :math:`p_i \le \alpha / m`; Holm (never less powerful) step-down, while
    :math:`p_{(i)} \le \alpha / (m - i + 1)`. Adjusted p-values and rejections are those of
    ``statsmodels.stats.multitest.multipletests(pvalues, alpha, method="holm")`` (or
    ``"bonferroni"``). The table is what PyTerrier's ``Experiment`` prints with a baseline.

    Parameters
    ----------
    scores : DataFrame
        One column per system (the column name is the system's name), one row per query or
        run, e.g. per-query AP of each run from :func:`evalkit.evaluate`. At least 2 rows;
        finite numbers (a query one run lacks is a NaN: score it first).
    baseline : column label
        The column the others are compared with.
    test : {"t", "randomization", "wilcoxon"}, default "t"
        Paired t test (``scipy.stats.ttest_rel``), :func:`paired_randomization_test` or
        ``scipy.stats.wilcoxon``.
    correction : {"holm", "bonferroni", None}, default "holm"
    alpha : float, default 0.05
        Family-wise error rate, in (0, 1).
    n_resamples : int, default 10000
        Sign flips of each randomization test.
    seed : None, int or numpy.random.Generator, optional
        Seed of the randomization tests (one stream, used system by system).

    Returns
    -------
    DataFrame
        One row per system other than the baseline, in column order, indexed by name
        (``system``): ``mean``, ``difference`` (mean minus the baseline's), ``statistic``,
        ``pvalue``, ``pvalue_adjusted``, ``significant`` (bool), ``cohens_d`` (paired
        :math:`d_z`), ``d_av`` (the mean difference over the mean of the two SDs) and
        ``effect_size_label`` (Cohen's between-group bands applied to ``d_av``: they do not
        fit :math:`d_z`, see :func:`compare_systems`). ``.attrs`` records the baseline, its mean,
        the test, the correction and alpha.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian
    Journal of Statistics 6(2), 65–70.
    Dunn, O. J. (1961). Multiple comparisons among means. Journal of the American Statistical
    Association 56(293), 52–64 (the Bonferroni correction).
    Macdonald, C. and Tonellotto, N. (2020). Declarative experimentation in information
    retrieval using PyTerrier. ICTIR 2020, 161–168.

    Examples
    --------
    >>> import pandas as pd
    >>> ap = pd.DataFrame({
    ...     "bm25":   [0.35, 0.50, 0.33, 0.61, 0.52, 0.20, 0.85, 0.40],
    ...     "rm3":    [0.42, 0.55, 0.31, 0.78, 0.60, 0.25, 0.91, 0.47],
    ...     "dense":  [0.30, 0.58, 0.40, 0.55, 0.50, 0.28, 0.80, 0.43],
    ... })
    >>> table = compare_runs(ap, baseline="bm25")
    >>> columns = ["difference", "pvalue", "pvalue_adjusted", "significant"]
    >>> print(table[columns].round(4).to_string(index_names=False))
           difference  pvalue  pvalue_adjusted  significant
    rm3        0.0663  0.0088           0.0175         True
    dense      0.0100  0.6614           0.6614        False
    """
    scores = _check_score_table(scores, baseline)
    test = check_option(test, "test", SIGNIFICANCE_TESTS)
    correction = check_option(correction, "correction", CORRECTIONS)
    alpha = check_scalar(alpha, "alpha", low=0, high=1, low_inclusive=False,
                         high_inclusive=False)
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=1)
    rng = check_seed(seed)
    base = scores[baseline].to_numpy(dtype=np.float64)
    systems = [column for column in scores.columns if column != baseline]
    rows = []
    for system in systems:  # a loop over systems (a handful), each test vectorised
        values = scores[system].to_numpy(dtype=np.float64)
        statistic, pvalue = _difference_test(values, base, paired=True, test=test,
                                             n_resamples=n_resamples, rng=rng)
        d_av = cohens_d(values, base, paired=True, kind="d_av")
        rows.append({"mean": values.mean(), "difference": values.mean() - base.mean(),
                     "statistic": statistic, "pvalue": pvalue,
                     "cohens_d": cohens_d(values, base, paired=True), "d_av": d_av,
                     "effect_size_label": effect_size_label(d_av)})
    table = pd.DataFrame(rows, index=pd.Index(systems, name="system"))
    adjusted, significant = _adjust(table["pvalue"].to_numpy(), correction, alpha)
    table.insert(4, "pvalue_adjusted", adjusted)
    table.insert(5, "significant", significant)
    table.attrs.update(baseline=baseline, baseline_mean=float(base.mean()), test=test,
                       correction=correction, alpha=alpha)
    return table
