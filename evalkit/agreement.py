r"""Agreement between judges: Cohen's kappa (plain, weighted, pooled marginals) and Fleiss' kappa.

Test collections and labelled data are only as good as their judges. Two judges who label
the same items agree on some share of them, :math:`P(a)`; but they would agree on some items by
chance alone, :math:`P(e)`, so kappa reports how much of the possible improvement over chance
they achieved:

.. math::

    \kappa = \frac{P(a) - P(e)}{1 - P(e)}

What "chance" means is where the sources differ. Cohen (1960) takes each judge's own label
distribution (``marginals="separate"``, scikit-learn's ``cohen_kappa_score``); Scott (1955),
Siegel & Castellan (1988) and Carletta (1996) take the two judges' pooled distribution
(``marginals="pooled"``; Scott's pi). Fleiss (1971) extends the pooled version to many judges.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ._confusion_stack import stacked
from ._counting import full_confusion
from ._kappa import kappa_of_stack, kappa_of_tables, kappa_terms_of_table
from ._results import make_result
from ._validation import (
    check_consistent_length,
    check_counts,
    check_label_list,
    check_labels,
    check_option,
    check_same_label_kind,
    check_scalar,
    check_square_matrix,
    check_zero_division,
    keyword_only,
)
from .exceptions import UndefinedMetricWarning

__all__ = [
    "cohen_kappa",
    "kappa_from_table",
    "kappa_terms",
    "KappaTerms",
    "fleiss_kappa",
    "interpret_kappa",
    "labels_from_table",
    "KAPPA_WEIGHTS",
    "KAPPA_MARGINALS",
    "KAPPA_SCALES",
]

KAPPA_WEIGHTS = (None, "linear", "quadratic")
KAPPA_MARGINALS = ("separate", "pooled")
KAPPA_SCALES = ("landis-koch", "carletta")


def _check_table(table: Any) -> np.ndarray:
    array = check_square_matrix(table, "table", counts=True)
    if array.sum() == 0:
        raise ValueError("table is empty (all counts are 0); there is nothing to agree on")
    return array


@keyword_only
def kappa_from_table(
    table: Any,
    *,
    weights: str | None = None,
    marginals: str = "separate",
    zero_division: Any = "warn",
) -> float:
    r"""Cohen's kappa from a k×k table of how two judges labelled the same items.

    With :math:`p_{ij}` the share of items judge A put in category *i* and judge B in *j*,
    and disagreement weights :math:`w_{ij}` (0 on the diagonal):

    .. math::

        \kappa = 1 - \frac{\sum_{ij} w_{ij}\, p_{ij}}{\sum_{ij} w_{ij}\, e_{ij}}, \qquad
        e_{ij} = \begin{cases} p_{i\cdot}\, p_{\cdot j} & \text{separate marginals (Cohen)} \\
                 \bar p_i\, \bar p_j,\ \bar p = (p_{i\cdot} + p_{\cdot i})/2 &
                 \text{pooled marginals (Scott's } \pi\text{)} \end{cases}

    Unweighted (:math:`w_{ij} = 1` off the diagonal) this is
    :math:`(P(a) - P(e)) / (1 - P(e))` with :math:`P(a) = \sum_i p_{ii}` and
    :math:`P(e) = \sum_i e_{ii}`. Linear weights are :math:`|i - j|`, quadratic
    :math:`(i - j)^2`, as in scikit-learn; they make sense for ordered categories (relevance
    grades), in the order of the table's rows.

    Parameters
    ----------
    table : array-like of shape (k, k)
        ``table[i, j]``: the number of items judge A put in category *i* and judge B in *j*.
    weights : {None, "linear", "quadratic"}, default None
        Disagreement weights for ordered categories.
    marginals : {"separate", "pooled"}, default "separate"
        Chance agreement from each judge's own label distribution (Cohen 1960), or from the
        two judges' pooled distribution (Scott 1955; Siegel & Castellan 1988; Carletta 1996).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default "warn"
        The result when chance disagreement is 0 (both judges always use one and the same
        category), where kappa is undefined.

    Returns
    -------
    float

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20(1), 37–46.
    Cohen, J. (1968). Weighted kappa. Psychological Bulletin 70(4), 213–220.
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale coding.
    Public Opinion Quarterly 19(3), 321–325.
    Carletta, J. (1996). Assessing agreement on classification tasks: the kappa statistic.
    Computational Linguistics 22(2), 249–254.

    Examples
    --------
    >>> # 400 documents judged relevant (row/column 0) or not by two judges
    >>> table = [[300, 20], [10, 70]]
    >>> round(kappa_from_table(table), 4), round(kappa_from_table(table, marginals="pooled"), 4)
    (0.7761, 0.7759)
    """
    table = _check_table(table)
    weights = check_option(weights, "weights", KAPPA_WEIGHTS)
    marginals = check_option(marginals, "marginals", KAPPA_MARGINALS)
    zero_division = check_zero_division(zero_division)
    return kappa_of_tables(table, weights=weights, marginals=marginals,
                           zero_division=zero_division)


KappaTerms = make_result(
    "KappaTerms", ("observed", "expected", "kappa"),
    ("row_marginals", "column_marginals", "pooled_marginals"), module=__name__,
    doc="What :func:`kappa_terms` returns: P(a), P(e) and kappa (unpacks to these three), and "
        "the judges' label shares ``row_marginals`` (judge A), ``column_marginals`` (judge B) "
        "and ``pooled_marginals`` (their mean).")


@keyword_only
def kappa_terms(
    table: Any,
    *,
    weights: str | None = None,
    marginals: str = "separate",
    zero_division: Any = "warn",
) -> Any:
    r"""The terms of kappa for a k×k agreement table: P(a), P(e), kappa and the marginals.

    With :math:`p_{ij}` the table's shares, :math:`p_{i\cdot}` and :math:`p_{\cdot j}` the
    judges' label shares (the marginals) and agreement weights :math:`v_{ij}` (1 on the
    diagonal):

    .. math::

        P(a) = \sum_{ij} v_{ij}\, p_{ij}, \qquad P(e) = \sum_{ij} v_{ij}\, e_{ij}, \qquad
        \kappa = \frac{P(a) - P(e)}{1 - P(e)},

    with :math:`e_{ij} = p_{i\cdot}\, p_{\cdot j}` (separate marginals, Cohen 1960) or
    :math:`\bar p_i \bar p_j`, :math:`\bar p = (p_{i\cdot} + p_{\cdot i}) / 2` (pooled
    marginals, Scott's pi). Unweighted, :math:`v_{ij} = [i = j]`: :math:`P(a)` is the share
    of items the judges label alike and :math:`P(e) = \sum_i e_{ii}`. Weighted,
    :math:`v_{ij} = 1 - w_{ij} / \max w` from the disagreement weights :math:`w_{ij}` of
    :func:`kappa_from_table` (:math:`|i - j|` or :math:`(i - j)^2`), the agreement weights of
    Cohen (1968) and Fleiss & Cohen (1973); ``kappa`` is then :func:`kappa_from_table`'s
    weighted kappa. ``kappa`` is always computed by the code of :func:`kappa_from_table`.

    Parameters
    ----------
    table : array-like of shape (k, k)
        ``table[i, j]``: the number of items judge A put in category *i* and judge B in *j*.
    weights : {None, "linear", "quadratic"}, default None
        Disagreement weights for ordered categories, as in :func:`kappa_from_table`.
    marginals : {"separate", "pooled"}, default "separate"
        Chance agreement from each judge's own label distribution (Cohen 1960), or from the
        two judges' pooled distribution (Scott 1955). The three marginals fields are
        reported either way.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default "warn"
        ``kappa`` when :math:`P(e) = 1`, as in :func:`kappa_from_table`.

    Returns
    -------
    KappaTerms
        ``observed`` (:math:`P(a)`), ``expected`` (:math:`P(e)`) and ``kappa`` (floats; the
        result unpacks to these three), and ``row_marginals`` (judge A's share of each
        category), ``column_marginals`` (judge B's) and ``pooled_marginals`` (their mean),
        arrays of shape (k,).

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20(1), 37–46.
    Cohen, J. (1968). Weighted kappa. Psychological Bulletin 70(4), 213–220.
    Fleiss, J. L. and Cohen, J. (1973). The equivalence of weighted kappa and the intraclass
    correlation coefficient as measures of reliability. Educational and Psychological
    Measurement 33(3), 613–619.
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale coding.
    Public Opinion Quarterly 19(3), 321–325.

    Examples
    --------
    >>> # 400 documents judged relevant (row/column 0) or not by two judges (IIR 8.5)
    >>> terms = kappa_terms([[300, 20], [10, 70]])
    >>> terms.observed, round(terms.expected, 4), round(terms.kappa, 4)
    (0.925, 0.665, 0.7761)
    >>> terms.row_marginals.round(4).tolist(), terms.column_marginals.round(4).tolist()
    ([0.8, 0.2], [0.775, 0.225])
    >>> p_a, p_e, kappa = kappa_terms([[300, 20], [10, 70]], marginals="pooled")
    >>> round(p_e, 4), round(kappa, 4)
    (0.6653, 0.7759)
    """
    table = _check_table(table)
    weights = check_option(weights, "weights", KAPPA_WEIGHTS)
    marginals = check_option(marginals, "marginals", KAPPA_MARGINALS)
    zero_division = check_zero_division(zero_division)
    return KappaTerms(**kappa_terms_of_table(table, weights=weights, marginals=marginals,
                                             zero_division=zero_division))


def _kappa_options(rater_a: np.ndarray, *, labels: Any, weights: Any, marginals: Any,
                   zero_division: Any) -> dict:
    """The checked options of :func:`evalkit._kappa.kappa_of_stack`."""
    return {
        "weights": check_option(weights, "weights", KAPPA_WEIGHTS),
        "marginals": check_option(marginals, "marginals", KAPPA_MARGINALS),
        "zero_division": check_zero_division(zero_division),
        "labels": None if labels is None else check_label_list(labels, rater_a),
    }


@stacked(kappa_of_stack, _kappa_options)
@keyword_only
def cohen_kappa(
    rater_a: Any,
    rater_b: Any,
    *,
    labels: Any = None,
    weights: str | None = None,
    marginals: str = "separate",
    zero_division: Any = "warn",
) -> float:
    r"""Cohen's kappa between two judges' labels of the same items.

    .. math::

        \kappa = \frac{P(a) - P(e)}{1 - P(e)}

    where :math:`P(a)` is the share of items the judges label alike and :math:`P(e)` the share
    they would label alike by chance; see :func:`kappa_from_table` for the weighted form and
    the two kinds of chance agreement. The labels are counted into a k×k table with one
    ``np.bincount``.

    Parameters
    ----------
    rater_a, rater_b : array-like of shape (n_items,)
        The two judges' labels (numbers or strings), item by item.
    labels : array-like, optional
        The categories, in order; default the sorted labels of both judges. The order matters
        for linear and quadratic weights (e.g. relevance grades 0 < 1 < 2 < 3). Items with a
        label not listed are left out, as in scikit-learn.
    weights : {None, "linear", "quadratic"}, default None
        Disagreement weights for ordered categories.
    marginals : {"separate", "pooled"}, default "separate"
        Chance agreement from each judge's own label distribution (Cohen; scikit-learn), or
        from the pooled distribution (Scott's pi; Siegel & Castellan; Carletta 1996).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default "warn"
        The result when chance agreement is 1 (kappa undefined).

    Returns
    -------
    float

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20(1), 37–46.
    Siegel, S. and Castellan, N. J. (1988). Nonparametric Statistics for the Behavioral
    Sciences, 2nd ed., section 9.8. McGraw-Hill.

    Examples
    --------
    >>> a = ["rel", "rel", "non", "non", "rel", "non"]
    >>> b = ["rel", "non", "non", "non", "rel", "non"]
    >>> round(cohen_kappa(a, b), 4)
    0.6667
    >>> round(cohen_kappa([0, 1, 2, 3, 3], [0, 2, 2, 3, 1], weights="quadratic"), 4)
    0.5902
    """
    # Each argument is checked once, here; the labels are then counted into one table.
    rater_a = check_labels(rater_a, "rater_a")
    rater_b = check_labels(rater_b, "rater_b")
    check_consistent_length(rater_a=rater_a, rater_b=rater_b)
    check_same_label_kind(rater_a=rater_a, rater_b=rater_b)
    options = _kappa_options(rater_a, labels=labels, weights=weights, marginals=marginals,
                             zero_division=zero_division)
    classes, table = full_confusion(rater_a, rater_b)
    if options["labels"] is not None:
        listed = np.isin(classes, options["labels"])
        if not table[np.ix_(listed, listed)].any():
            raise ValueError("no item has a label listed in labels; there is nothing to agree on")
    return kappa_of_stack(classes, table, len(rater_a), **options)


def fleiss_kappa(counts: Any) -> float:
    r"""Fleiss' kappa: agreement among many judges, each item judged by the same number of them.

    With :math:`n_{ij}` judges putting item *i* in category *j*, *m* judges per item and *N*
    items:

    .. math::

        P_i = \frac{\sum_j n_{ij}(n_{ij} - 1)}{m(m - 1)}, \quad
        \bar P = \frac{1}{N}\sum_i P_i, \quad
        p_j = \frac{\sum_i n_{ij}}{N m}, \quad
        \bar P_e = \sum_j p_j^2, \quad
        \kappa = \frac{\bar P - \bar P_e}{1 - \bar P_e}

    :math:`P_i` is the share of agreeing pairs of judges on item *i*; chance uses the pooled
    category shares, so for two judges this is Scott's pi (``cohen_kappa(...,
    marginals="pooled")``). The judges need not be the same people from item to item.

    Parameters
    ----------
    counts : array-like of shape (n_items, n_categories)
        How many judges put each item in each category; every row has the same sum m >= 2.

    Returns
    -------
    float
        NaN, with a warning, when every judgement falls in one category (chance agreement 1).

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
    Bulletin 76(5), 378–382.

    Examples
    --------
    >>> # 4 items, 3 judges, 2 categories (relevant, not relevant)
    >>> round(fleiss_kappa([[3, 0], [2, 1], [0, 3], [1, 2]]), 4)
    0.3333
    """
    table = check_counts(counts, "counts", what="judges per category")
    if table.ndim != 2 or table.shape[0] == 0 or table.shape[1] == 0:
        raise ValueError(f"counts must be an (n_items, n_categories) matrix; got shape "
                         f"{table.shape}")
    per_item = table.sum(axis=1)
    m = int(per_item[0])
    if (per_item != m).any():
        item = int(np.argmax(per_item != m))
        raise ValueError(
            f"every item needs the same number of judges; item 0 has {m} and item {item} "
            f"has {int(per_item[item])}"
        )
    if m < 2:
        raise ValueError(f"each item needs at least 2 judges to measure agreement; got {m}")
    n_items = len(table)
    # Agreeing ordered pairs of judges, summed over items: sum n_ij^2 - N m (exact integers).
    agreeing_pairs = int(np.einsum("ij,ij->", table, table, dtype=np.int64)) - n_items * m
    agreement = agreeing_pairs / (n_items * m * (m - 1))
    shares = table.sum(axis=0) / (n_items * m)
    chance = float((shares**2).sum())
    if chance == 1.0:
        warnings.warn("Fleiss' kappa is undefined (NaN): every judgement is in one category.",
                      UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    return float((agreement - chance) / (1.0 - chance))


_LANDIS_KOCH = ((0.0, "poor"), (0.20, "slight"), (0.40, "fair"), (0.60, "moderate"),
                (0.80, "substantial"), (1.0, "almost perfect"))



@keyword_only
def labels_from_table(table: Any, *, labels: Any = None) -> tuple[np.ndarray, np.ndarray]:
    r"""Two judges' labels, item by item, that produce a given k×k agreement table.

    The inverse of counting: row *i*, column *j* of ``table`` holds :math:`n_{ij}` items that
    judge A put in category *i* and judge B in category *j*, so the result lists
    :math:`n_{ij}` items labelled :math:`(\ell_i, \ell_j)`, cell by cell in row-major order:

    .. math::

        (a, b) = \big(\underbrace{(\ell_i, \ell_j), \dots, (\ell_i, \ell_j)}_{n_{ij}}
        \big)_{i, j = 1, \dots, k}

    so that ``confusion_matrix(a, b, labels=labels)`` gives ``table`` back, and any
    agreement statistic of the labels (``cohen_kappa``, scikit-learn's
    ``cohen_kappa_score``) equals the one of the table. Worked examples in textbooks give the
    table; tools that take labels need the items.

    Parameters
    ----------
    table : array-like of shape (k, k)
        Whole, non-negative counts; rows judge A, columns judge B.
    labels : array-like of shape (k,), optional
        The category of each row and column, in order; default ``0, 1, ..., k - 1``.

    Returns
    -------
    rater_a, rater_b : ndarray of shape (n_items,)
        ``n_items`` is the sum of the table.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20(1), 37–46 (the agreement table of two judges).

    Examples
    --------
    >>> a, b = labels_from_table([[2, 1], [0, 1]], labels=["yes", "no"])
    >>> a.tolist(), b.tolist()
    (['yes', 'yes', 'yes', 'no'], ['yes', 'yes', 'no', 'no'])
    >>> round(cohen_kappa(*labels_from_table([[300, 20], [10, 70]])), 4)
    0.7761
    """
    table = check_counts(_check_table(table), "table", what="items per cell")
    k = table.shape[0]
    if labels is None:
        categories = np.arange(k)
    else:
        categories = check_labels(labels, "labels")
        if len(categories) != k:
            raise ValueError(f"labels must name the {k} categories of table; got {len(categories)}")
        if len(np.unique(categories)) != k:
            raise ValueError("labels must not repeat a category")
    counts = table.ravel()
    rows, columns = np.divmod(np.arange(k * k), k)
    return np.repeat(categories[rows], counts), np.repeat(categories[columns], counts)

@keyword_only
def interpret_kappa(kappa: float, *, scale: str = "landis-koch") -> str:
    r"""A verbal label for a kappa value, on a published scale.

    .. math::

        \text{Landis \& Koch: } \kappa < 0 \text{ poor},\ [0, 0.20] \text{ slight},\
        (0.20, 0.40] \text{ fair},\ (0.40, 0.60] \text{ moderate},\
        (0.60, 0.80] \text{ substantial},\ (0.80, 1] \text{ almost perfect}

    ``scale="carletta"`` is the stricter content-analysis rule (Krippendorff 1980, as
    Carletta 1996 reports it): :math:`\kappa \ge 0.8` good, :math:`0.67 \le \kappa < 0.8`
    tentative (allows tentative conclusions), below 0.67 discard. Such bands are conventions,
    not tests: they ignore the number of categories and their prevalence.

    Parameters
    ----------
    kappa : float
        A kappa value, at most 1.
    scale : {"landis-koch", "carletta"}, default "landis-koch"

    Returns
    -------
    str

    References
    ----------
    Landis, J. R. and Koch, G. G. (1977). The measurement of observer agreement for
    categorical data. Biometrics 33(1), 159–174.
    Carletta, J. (1996). Assessing agreement on classification tasks: the kappa statistic.
    Computational Linguistics 22(2), 249–254.

    Examples
    --------
    >>> interpret_kappa(0.776), interpret_kappa(0.776, scale="carletta")
    ('substantial', 'tentative')
    """
    scale = check_option(scale, "scale", KAPPA_SCALES)
    # Round-off may put a perfect kappa a hair above 1: allow that, nothing more.
    kappa = check_scalar(kappa, "kappa", high=1 + 1e-12)
    if scale == "carletta":
        return "good" if kappa >= 0.8 else "tentative" if kappa >= 0.67 else "discard"
    if kappa < 0:
        return "poor"
    for upper, name in _LANDIS_KOCH[1:]:
        if kappa <= upper + 1e-12:
            return name
    return "almost perfect"
