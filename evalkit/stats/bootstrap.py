"""Bootstrap confidence intervals for any metric (:func:`bootstrap_ci`).
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .._confusion_stack import StackedMetric, stacked_metric
from .._lazy import lazy_module
from .._results import make_result
from .._validation import (
    as_array,
    check_consistent_length,
    check_labels,
    check_option,
    check_scalar,
    check_seed,
)
from ._common import _check_distribution, _check_flag_or_none, _each_warning_once, _one_number

special = lazy_module("scipy.special")  # scipy is imported on first use (evalkit._lazy)

__all__ = [
    "bootstrap_ci",
    "BootstrapInterval",
    "ConfidenceInterval",
    "BOOTSTRAP_METHODS",
]


#: The interval methods :func:`bootstrap_ci` knows (those of ``scipy.stats.bootstrap``).
BOOTSTRAP_METHODS = ("percentile", "basic", "bca")

ConfidenceInterval = make_result(
    "ConfidenceInterval", ("low", "high"), module=__name__,
    doc="The two ends of a confidence interval, as scipy's ``ConfidenceInterval``.",
)

BootstrapInterval = make_result(
    "BootstrapInterval", ("low", "high"),
    ("estimate", "standard_error", "distribution", "confidence_interval", "confidence",
     "method", "n_resamples", "resampling"),
    module=__name__,
    doc="A bootstrap confidence interval; unpacks like ``(low, high)``. Also has the "
        "``estimate`` (the metric on the data), the bootstrap ``standard_error``, the "
        "``distribution`` of the resampled values, ``confidence_interval`` (scipy-style), "
        "``confidence``, ``method``, ``n_resamples`` and ``resampling`` (how the resamples "
        "were evaluated: 'multinomial', 'vectorized' or 'loop').",
)

# Elements per block of resampled row indices (int64: 32 MB). Resamples are drawn in blocks
# of whole resamples; numpy draws each index from the stream in turn, so the blocks see the
# indices one call would draw, as scipy.stats.bootstrap draws them: the same Generator gives
# scipy's very resamples, whatever the block size.
_INDEX_BLOCK = 1 << 22
# Cells per block of resampled confusion matrices (R x k x k, int64: 8 MB).
_STACK_BLOCK = 1 << 20


def _array_names(metric: Callable[..., Any], count: int) -> list[str]:
    """The names the metric gives its first ``count`` positional arguments, for messages."""
    names: list[str] = []
    try:
        parameters = list(inspect.signature(metric).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature
        parameters = []
    for parameter in parameters:
        if len(names) == count or parameter.kind not in (
                parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            break
        if parameter.name != "axis":
            names.append(parameter.name)
    return names + [f"arrays[{i}]" for i in range(len(names), count)]


def _check_rows(arrays: tuple[Any, ...], names: list[str]) -> list[np.ndarray]:
    checked = []
    for name, values in zip(names, arrays, strict=True):
        array = values.to_numpy() if isinstance(values, pd.DataFrame) else as_array(values, name)
        if array.ndim == 0:
            raise ValueError(f"{name} must hold one row per sample; got a single value "
                             f"{array.item()!r}")
        if len(array) == 0:
            raise ValueError(f"{name} is empty; expected at least 2 rows to resample")
        checked.append(array)
    check_consistent_length(**dict(zip(names, checked, strict=True)))
    if len(checked[0]) < 2:
        raise ValueError(f"{names[0]} has 1 row; the bootstrap needs at least 2 rows")
    return checked


def _multinomial_resamples(
    stacked: StackedMetric, arrays: list[np.ndarray], n_resamples: int,
    rng: np.random.Generator, jackknife: bool,
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Bootstrap values (and jackknife values with their multiplicities) of a
    confusion-matrix metric, from counts alone."""
    classes, matrix, y_true = stacked.confusion(*arrays)
    n, k = len(y_true), len(classes)
    counts = matrix.ravel()
    cells = np.flatnonzero(counts)
    shares = counts[cells] / n
    values = np.empty(n_resamples)
    block = max(1, _STACK_BLOCK // (k * k))
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        stack = np.zeros((size, k * k), dtype=np.int64)
        stack[:, cells] = rng.multinomial(n, shares, size=size)
        values[start:start + size] = stacked(classes, stack.reshape(size, k, k), n, y_true)
    if not jackknife:
        return values, None, None
    # Leaving out any one row of cell (i, j) gives the same matrix, C - e_ij: one value per
    # non-empty cell, weighted by the cell's count.
    left_out = np.empty(len(cells))
    for start in range(0, len(cells), block):
        chunk = cells[start:start + block]
        stack = np.repeat(counts[None, :], len(chunk), axis=0)
        stack[np.arange(len(chunk)), chunk] -= 1
        left_out[start:start + len(chunk)] = stacked(
            classes, stack.reshape(len(chunk), k, k), n - 1, y_true)
    return values, left_out, counts[cells].astype(np.float64)


def _index_resamples(
    metric: Callable[..., Any], arrays: list[np.ndarray], n_resamples: int,
    rng: np.random.Generator, vectorized: bool,
) -> np.ndarray:
    """Bootstrap values of any metric: resampled row indices, shared by all arrays."""
    n = len(arrays[0])
    values = np.empty(n_resamples)
    block = max(1, _INDEX_BLOCK // n)
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        rows = rng.integers(0, n, size=(size, n))
        if vectorized:
            values[start:start + size] = _batch_values(metric, arrays, rows)
        else:
            for offset, drawn in enumerate(rows):  # the documented loop over resamples
                values[start + offset] = _one_number(
                    metric(*(array[drawn] for array in arrays)), "a resample")
    return values


def _batch_values(metric: Callable[..., Any], arrays: list[np.ndarray],
                  rows: np.ndarray) -> np.ndarray:
    """A vectorised metric on a block of row selections: each array as (block, ..., n)."""
    batch = [np.moveaxis(array[rows], 1, -1) for array in arrays]
    values = np.asarray(metric(*batch, axis=-1), dtype=np.float64)
    if values.shape != (len(rows),):
        raise TypeError(f"metric(..., axis=-1) must return one number per resample, shape "
                        f"({len(rows)},); got shape {values.shape} (pass vectorized=False "
                        "if it does not take a batch axis)")
    return values


def _index_jackknife(metric: Callable[..., Any], arrays: list[np.ndarray],
                     vectorized: bool) -> np.ndarray:
    """The metric on the data without row i, for every i (n calls, or n rows of a batch)."""
    n = len(arrays[0])
    everything = np.arange(n)
    values = np.empty(n)
    block = max(1, _INDEX_BLOCK // n)
    for start in range(0, n, block):
        left_out = np.arange(start, min(start + block, n))
        keep = everything[None, :] != left_out[:, None]
        rows = np.broadcast_to(everything, keep.shape)[keep].reshape(len(left_out), n - 1)
        if vectorized:
            values[left_out] = _batch_values(metric, arrays, rows)
        else:
            for offset, kept in zip(left_out, rows, strict=True):
                values[offset] = _one_number(metric(*(array[kept] for array in arrays)),
                                             "a jackknife sample")
    return values


class _Clusters:
    """Rows grouped into clusters: cluster c holds ``order[starts[c]:starts[c] + sizes[c]]``
    (rows in their original order); clusters are numbered in sorted order of their labels."""

    def __init__(self, codes: np.ndarray, n_groups: int) -> None:
        self.codes = codes
        self.n_groups = n_groups
        self.order = np.argsort(codes, kind="stable")
        self.sizes = np.bincount(codes, minlength=n_groups)
        self.starts = np.cumsum(self.sizes) - self.sizes
        self.equal = bool(np.all(self.sizes == self.sizes[0]))

    def rows(self, drawn: np.ndarray) -> np.ndarray:
        """The rows of the drawn clusters, one after the other (one resample)."""
        lengths = self.sizes[drawn]
        shift = np.repeat(self.starts[drawn] - (np.cumsum(lengths) - lengths), lengths)
        return self.order[shift + np.arange(lengths.sum())]

    def block_rows(self, drawn: np.ndarray) -> np.ndarray:
        """Rows of a block of resamples (size, n_groups) when all clusters are equal-sized."""
        members = self.order.reshape(self.n_groups, -1)
        return members[drawn].reshape(len(drawn), -1)


def _check_groups(groups: Any, n: int, name: str) -> _Clusters:
    labels = as_array(groups, "groups")
    if labels.ndim != 1:
        raise ValueError(f"groups must be 1-D, one cluster label per row; got shape "
                         f"{labels.shape}")
    if len(labels) != n:
        raise ValueError(f"groups and {name} have different lengths ({len(labels)} != {n}); "
                         "groups needs one cluster label per row")
    if labels.dtype.kind == "f" and np.isnan(labels).any():
        position = int(np.flatnonzero(np.isnan(labels))[0])
        raise ValueError(f"groups contains NaN at position {position}; every row needs a "
                         "cluster label")
    if labels.dtype.kind == "O" and any(label is None for label in labels):
        raise ValueError("groups contains None; every row needs a cluster label")
    try:
        _, codes = np.unique(labels, return_inverse=True)
    except TypeError:
        raise TypeError("groups must hold labels of one kind (numbers or strings) that can "
                        "be sorted") from None
    codes = codes.reshape(-1)
    n_groups = int(codes.max()) + 1
    if n_groups < 2:
        raise ValueError("groups holds 1 cluster; the cluster bootstrap resamples clusters "
                         "and needs at least 2")
    return _Clusters(codes, n_groups)


def _stacked_by_total(stacked: StackedMetric, classes: np.ndarray, stack: np.ndarray,
                      y_true: np.ndarray) -> np.ndarray:
    """The metric of each (k, k) matrix of ``stack`` (m, k, k) whose row counts differ: one
    vectorised call per distinct count (a cluster resample's size varies)."""
    totals = stack.sum(axis=(1, 2))
    values = np.empty(len(stack))
    for total in np.unique(totals):  # a handful of sizes, each a vectorised call
        chosen = totals == total
        values[chosen] = stacked(classes, stack[chosen], int(total), y_true)
    return values


def _cluster_multinomial_resamples(
    stacked: StackedMetric, arrays: list[np.ndarray], clusters: _Clusters,
    n_resamples: int, rng: np.random.Generator, jackknife: bool,
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Cluster bootstrap values of a confusion-matrix metric: per-cluster confusion counts,
    summed over the clusters each resample draws (and, for BCa, over all but one)."""
    classes, matrix, y_true = stacked.confusion(*arrays)
    k, n_groups = len(classes), clusters.n_groups
    cell = (np.searchsorted(classes, y_true) * k
            + np.searchsorted(classes, check_labels(arrays[1], "y_pred")))
    per_cluster = np.bincount(clusters.codes * k * k + cell,
                              minlength=n_groups * k * k).reshape(n_groups, k * k)
    columns = np.flatnonzero(matrix.ravel())
    counts = per_cluster[:, columns].astype(np.float64)
    values = np.empty(n_resamples)
    block = max(1, _INDEX_BLOCK // n_groups)
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        drawn = rng.integers(0, n_groups, size=(size, n_groups))  # as the index path draws
        times = np.bincount((np.arange(size)[:, None] * n_groups + drawn).ravel(),
                            minlength=size * n_groups).reshape(size, n_groups)
        stack = np.zeros((size, k * k), dtype=np.int64)
        stack[:, columns] = np.rint(times @ counts).astype(np.int64)
        values[start:start + size] = _stacked_by_total(stacked, classes,
                                                       stack.reshape(size, k, k), y_true)
    if not jackknife:
        return values, None, None
    stack = matrix.ravel()[None, :] - per_cluster
    left_out = _stacked_by_total(stacked, classes, stack.reshape(n_groups, k, k), y_true)
    return values, left_out, np.ones(n_groups)


def _cluster_index_resamples(
    metric: Callable[..., Any], arrays: list[np.ndarray], clusters: _Clusters,
    n_resamples: int, rng: np.random.Generator, vectorized: bool,
) -> np.ndarray:
    """Cluster bootstrap values of any metric: whole clusters drawn with replacement."""
    n_groups = clusters.n_groups
    values = np.empty(n_resamples)
    block = max(1, _INDEX_BLOCK // max(n_groups, len(arrays[0])))
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        drawn = rng.integers(0, n_groups, size=(size, n_groups))
        if clusters.equal and vectorized:
            values[start:start + size] = _batch_values(metric, arrays,
                                                       clusters.block_rows(drawn))
            continue
        for offset, chosen in enumerate(drawn):  # resamples of different sizes: one by one
            rows = clusters.rows(chosen)
            values[start + offset] = _one_number(
                metric(*(array[rows] for array in arrays), **(
                    {"axis": -1} if vectorized else {})), "a resample")
    return values


def _cluster_jackknife(metric: Callable[..., Any], arrays: list[np.ndarray],
                       clusters: _Clusters, vectorized: bool) -> np.ndarray:
    """The metric on the data without cluster c, for every c."""
    values = np.empty(clusters.n_groups)
    for cluster in range(clusters.n_groups):  # one call per cluster, as one per row unclustered
        kept = np.flatnonzero(clusters.codes != cluster)
        values[cluster] = _one_number(
            metric(*(array[kept] for array in arrays), **({"axis": -1} if vectorized else {})),
            "a jackknife sample (the data without one cluster)")
    return values


def _bca_levels(distribution: np.ndarray, estimate: float, jackknife: np.ndarray,
                weights: np.ndarray, alpha: float) -> tuple[float, float]:
    """The quantile levels of the BCa interval (Efron & Tibshirani 1993, 14.3 and 15.4),
    computed as ``scipy.stats.bootstrap`` computes them; ``weights`` counts how many rows
    share each jackknife value."""
    below = np.count_nonzero(distribution < estimate)
    at_or_below = np.count_nonzero(distribution <= estimate)
    bias = special.ndtri((below + at_or_below) / (2.0 * len(distribution)))
    if np.isinf(bias):
        warnings.warn(
            "BCa: the estimate lies outside every resampled value, so the bias correction is "
            "infinite and the interval collapses to the resamples' "
            f"{'maximum' if bias > 0 else 'minimum'} (scipy.stats.bootstrap returns NaN here); "
            "try method='percentile'", RuntimeWarning, stacklevel=3)
        return (1.0, 1.0) if bias > 0 else (0.0, 0.0)
    n = weights.sum()
    spread = (n - 1) * (np.dot(weights, jackknife) / n - jackknife)
    squares = np.dot(weights, spread**2) / n**2
    # Every jackknife value equal: no skewness to correct for (scipy: 0 / 0 = NaN).
    acceleration = 0.0 if squares == 0 else np.dot(weights, spread**3) / n**3 / (
        6.0 * squares**1.5)
    z_alpha = special.ndtri(alpha)
    levels = []
    for z in (z_alpha, -z_alpha):
        shifted = bias + z
        levels.append(float(special.ndtr(bias + shifted / (1.0 - acceleration * shifted))))
    return levels[0], levels[1]


def bootstrap_ci(
    metric: Callable[..., Any],
    *arrays: Any,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    method: str = "percentile",
    seed: Any = None,
    vectorized: bool | None = None,
    groups: Any = None,
) -> BootstrapInterval:
    r"""Bootstrap confidence interval for any metric of one or more arrays of samples.

    Draw the *n* rows with replacement (row *i* of every array together, so pairs such as
    ``y_true[i], y_pred[i]`` stay pairs), compute the metric on each of *R* resamples, and
    read the interval off the distribution :math:`\hat\theta^*_1, \dots, \hat\theta^*_R` of
    those values, with :math:`\hat\theta` the metric on the data and
    :math:`\alpha = (1 - c)/2` for confidence :math:`c`:

    .. math::

        \text{percentile: } \bigl[q_{\alpha},\ q_{1-\alpha}\bigr] \qquad
        \text{basic: } \bigl[2\hat\theta - q_{1-\alpha},\ 2\hat\theta - q_{\alpha}\bigr]
        \qquad \text{BCa: } \bigl[q_{\alpha_1},\ q_{\alpha_2}\bigr]

    where :math:`q_p` is the *p* quantile of the resampled values (linear interpolation, as
    ``numpy.quantile``) and BCa's levels correct for bias (:math:`z_0`) and skewness
    (:math:`a`, from the jackknife values :math:`\hat\theta_{(i)}`, the metric without row
    *i*): :math:`\alpha_{1,2} = \Phi\bigl(z_0 + \frac{z_0 \pm z_\alpha}{1 - a (z_0 \pm
    z_\alpha)}\bigr)`, :math:`z_0 = \Phi^{-1}(\#\{\hat\theta^*_r < \hat\theta\}/R)` (ties
    count half), :math:`a = \frac{\sum_i U_i^3}{6 (\sum_i U_i^2)^{3/2}}`,
    :math:`U_i = (n - 1)(\bar\theta_{(\cdot)} - \hat\theta_{(i)})`.

    The numbers are those of ``scipy.stats.bootstrap((*arrays,), statistic, paired=True,
    method=method, confidence_level=confidence)``: for any metric but evalkit's
    confusion-matrix metrics, the resampled rows are drawn as scipy draws them, so with the
    same ``numpy.random.Generator`` the interval is scipy's to rounding.

    How the resamples are evaluated (``.resampling`` of the result):

    - ``"multinomial"``: ``metric`` is one of evalkit's confusion-matrix metrics
      (:func:`~evalkit.accuracy`, :func:`~evalkit.error_rate`, :func:`~evalkit.precision`,
      :func:`~evalkit.recall`, :func:`~evalkit.sensitivity`, :func:`~evalkit.specificity`,
      :func:`~evalkit.f_score`, :func:`~evalkit.f1_score`, :func:`~evalkit.cohen_kappa`) or a
      ``functools.partial`` of one that fixes keywords, called on ``(y_true, y_pred)``.
      Resampling rows then only redistributes the confusion-matrix cells: the R matrices
      are drawn at once as :math:`C^* \sim \mathrm{Multinomial}(n, C/n)` and the metric is
      computed on all of them in one vectorised pass; BCa's jackknife needs one value per
      non-empty cell (leaving out any row of cell (i, j) gives the same matrix). A
      resample that misses a class is scored as the metric scores such data (without
      ``labels``, over the classes it holds). The draws differ from scipy's, the
      distribution does not.
    - ``"vectorized"``: ``metric`` takes an ``axis`` keyword (as ``np.mean``; or pass
      ``vectorized=True``): it is called on blocks of resamples, each array as
      ``(block, ..., n)`` with ``axis=-1``, as scipy calls a vectorised statistic.
    - ``"loop"``: any other callable is called once per resample (and, for BCa, once per
      left-out row: n more calls). Correct for any metric, but a Python loop: wrap
      evalkit's metrics in ``functools.partial``, not in a ``lambda``, to get the fast path.

    **Clusters** (``groups=``). The row bootstrap assumes the rows are independent. When
    they come in clusters of dependent items (several sentences of one document, several
    images of one patient, the judged documents of one topic, the folds of one seed), it
    understates the spread. The cluster bootstrap (Field & Welsh 2007's randomized cluster
    bootstrap; Cameron, Gelbach & Miller 2008's pairs cluster bootstrap) draws the *G*
    clusters with replacement, each with all its rows, so a resample holds *G* clusters
    and as many rows as they have (the size varies when clusters differ in size):

    .. math::

        c^*_1, \dots, c^*_G \sim \text{Uniform}\{1, \dots, G\}, \qquad
        \hat\theta^* = \text{metric}\bigl(\text{rows of } c^*_1 \cup \dots \cup
        \text{rows of } c^*_G\bigr)

    For a mean over G equal clusters of m rows, its standard error is then the
    cluster-robust one, :math:`\sqrt{\sum_g (\sum_{i \in g} (y_i - \bar y))^2} / n`,
    which exceeds the row bootstrap's :math:`s / \sqrt n` by about :math:`\sqrt{1 + (m -
    1) \rho}` for a within-cluster correlation :math:`\rho` (Kish's design effect).
    Assumptions: clusters are independent of each other, and there are enough of them
    (a few dozen or more; with few clusters the interval is too narrow). BCa's jackknife
    then leaves out one cluster at a time. With one row per cluster (``groups`` all
    different, in row order) the draws are those of the row bootstrap, and so is the
    result. For evalkit's confusion-matrix metrics, each cluster's confusion counts are
    summed over the drawn clusters (a matrix product per block of resamples); for a
    metric with ``axis``, resamples are evaluated in blocks when all clusters have the
    same size, one by one otherwise.

    Parameters
    ----------
    metric : callable
        ``metric(*arrays)`` returns one number. Arrays reach it as numpy arrays.
    *arrays : array-like
        One or more arrays with one row per sample (the same number of rows each), e.g.
        ``y_true, y_pred``; an (n, k) array's rows are resampled as wholes.
    n_resamples : int, default 1000
        Number of resamples R (at least 2).
    confidence : float, default 0.95
        Confidence level, strictly between 0 and 1.
    method : {"percentile", "basic", "bca"}, default "percentile"
    seed : None, int or numpy.random.Generator, optional
        Seed for ``np.random.default_rng``; a Generator is used (and advanced) as it is.
    vectorized : bool, optional
        Whether ``metric`` takes an ``axis`` keyword and a batch of resamples. Default:
        whether its signature has ``axis``. Ignored on the multinomial path.
    groups : array-like, optional
        One cluster label per row (numbers or strings, e.g. a document or topic id):
        resample whole clusters instead of rows. Default None: rows are independent.

    Returns
    -------
    BootstrapInterval
        Unpacks like ``(low, high)``; also ``.estimate`` (the metric on the data),
        ``.standard_error`` (SD of the resampled values, ddof = 1), ``.distribution`` (the
        R values), ``.confidence_interval`` (``.low``, ``.high``, as scipy's result),
        ``.confidence``, ``.method``, ``.n_resamples`` and ``.resampling``.

    Raises
    ------
    ValueError
        Arrays of different lengths or with fewer than 2 rows, bad options, ``groups`` of
        another length, with a missing label or with only one cluster, or a metric that
        returns NaN on the data or on some resample (e.g. ``zero_division=np.nan``).
    TypeError
        A ``metric`` that is not callable or does not return one number.

    Notes
    -----
    Where scipy returns NaN, this function returns a documented value: when all jackknife
    values are equal, BCa's acceleration is 0; when the estimate lies outside every
    resampled value, the BCa interval is the resamples' minimum or maximum (with a
    warning). A constant distribution (every resample gives the same value) gives a
    zero-width interval.

    References
    ----------
    Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap, chapters 13,
    14.3 and 22. Chapman & Hall.
    Davison, A. C. and Hinkley, D. V. (1997). Bootstrap Methods and their Application,
    section 5.2 (the basic interval). Cambridge University Press.
    Field, C. A. and Welsh, A. H. (2007). Bootstrapping clustered data. Journal of the Royal
    Statistical Society B 69(3), 369–390.
    Cameron, A. C., Gelbach, J. B. and Miller, D. L. (2008). Bootstrap-based improvements
    for inference with clustered errors. Review of Economics and Statistics 90(3),
    414–427.

    Examples
    --------
    >>> import functools
    >>> import evalkit as ek
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 3, 400)
    >>> y_pred = np.where(rng.random(400) < 0.8, y_true, rng.integers(0, 3, 400))
    >>> macro_f1 = functools.partial(ek.f1_score, average="macro")
    >>> result = bootstrap_ci(macro_f1, y_true, y_pred, seed=1)
    >>> round(result.estimate, 3), round(result.low, 3), round(result.high, 3)
    (0.865, 0.828, 0.9)
    >>> result.resampling, len(result.distribution)
    ('multinomial', 1000)
    >>> low, high = bootstrap_ci(np.mean, [0.31, 0.52, 0.18, 0.77, 0.45, 0.6], method="bca",
    ...                          seed=1)
    >>> round(low, 3), round(high, 3)
    (0.313, 0.63)

    Ten documents of 20 sentences each, whose labels are alike within a document: the
    cluster bootstrap's interval is wider than the row bootstrap's.

    >>> document = np.repeat(np.arange(10), 20)
    >>> hard = rng.random(10)[document] < 0.5  # some documents are hard throughout
    >>> correct = np.where(hard, rng.random(200) < 0.5, rng.random(200) < 0.95)
    >>> rows = bootstrap_ci(np.mean, correct, seed=2)
    >>> clustered = bootstrap_ci(np.mean, correct, groups=document, seed=2)
    >>> round(rows.standard_error, 3), round(clustered.standard_error, 3)
    (0.029, 0.082)
    """
    if not callable(metric):
        raise TypeError("metric must be a callable such as ek.accuracy or "
                        "functools.partial(ek.f1_score, average='macro'); "
                        f"got {metric!r} (a {type(metric).__name__})")
    if not arrays:
        raise TypeError("bootstrap_ci needs the arrays to resample after the metric, e.g. "
                        "bootstrap_ci(ek.accuracy, y_true, y_pred)")
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=2)
    confidence = check_scalar(confidence, "confidence", low=0, high=1, low_inclusive=False,
                              high_inclusive=False)
    method = check_option(method, "method",
                          BOOTSTRAP_METHODS)
    vectorized = _check_flag_or_none(vectorized, "vectorized")
    rng = check_seed(seed)
    checked = _check_rows(arrays, _array_names(metric, len(arrays)))
    estimate = _one_number(metric(*checked), "the data")
    if np.isnan(estimate):
        raise ValueError("metric returned NaN on the data (a ratio with a zero denominator "
                         "under zero_division=np.nan?); nothing to resample around")
    stacked = stacked_metric(metric, *checked) if len(checked) == 2 else None
    weights = None
    clusters = None if groups is None else _check_groups(
        groups, len(checked[0]), _array_names(metric, 1)[0])
    with _each_warning_once("bootstrap resamples: "):
        if clusters is not None:
            if stacked is not None:
                resampling = "multinomial"
                distribution, jackknife, weights = _cluster_multinomial_resamples(
                    stacked, checked, clusters, n_resamples, rng, jackknife=method == "bca")
            else:
                if vectorized is None:
                    vectorized = _takes_axis(metric)
                resampling = "vectorized" if vectorized else "loop"
                distribution = _cluster_index_resamples(metric, checked, clusters,
                                                        n_resamples, rng, vectorized)
                jackknife = (_cluster_jackknife(metric, checked, clusters, vectorized)
                             if method == "bca" else None)
        elif stacked is not None:
            resampling = "multinomial"
            distribution, jackknife, weights = _multinomial_resamples(
                stacked, checked, n_resamples, rng, jackknife=method == "bca")
        else:
            if vectorized is None:
                vectorized = _takes_axis(metric)
            resampling = "vectorized" if vectorized else "loop"
            distribution = _index_resamples(metric, checked, n_resamples, rng, vectorized)
            jackknife = (_index_jackknife(metric, checked, vectorized) if method == "bca"
                         else None)
    _check_distribution(distribution, "resamples")
    alpha = (1.0 - confidence) / 2.0
    if method == "bca":
        _check_distribution(jackknife, "jackknife samples (the data without one row)")
        if weights is None:
            weights = np.ones(len(jackknife))
        levels = _bca_levels(distribution, estimate, jackknife, weights, alpha)
    else:
        levels = (alpha, 1.0 - alpha)
    low, high = (float(q) for q in np.quantile(distribution, levels))
    if method == "basic":
        low, high = 2.0 * estimate - high, 2.0 * estimate - low
    return BootstrapInterval(
        low, high, estimate=estimate, standard_error=float(np.std(distribution, ddof=1)),
        distribution=distribution, confidence_interval=ConfidenceInterval(low, high),
        confidence=confidence, method=method, n_resamples=n_resamples, resampling=resampling)


def _takes_axis(metric: Callable[..., Any]) -> bool:
    try:
        return "axis" in inspect.signature(metric).parameters
    except (TypeError, ValueError):
        return False
