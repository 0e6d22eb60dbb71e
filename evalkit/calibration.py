r"""Calibration of predicted probabilities: the Brier score, ECE, reliability, temperature.

A classifier that outputs probabilities can rank well and still be over- or under-confident.
The metrics here measure how far its probabilities are from the frequencies they promise:

- the **Brier score** (Brier 1950), the mean squared distance between the predicted
  distribution and the one-hot truth, and its **decomposition** into reliability,
  resolution and uncertainty (Murphy 1973) with the two within-bin terms that make the
  identity exact for binned forecasts (Stephenson, Coelho & Jolliffe 2008);
- **calibration**: the reliability curve and the expected calibration error (Guo et al.
  2017), with equal-width or equal-mass (Nixon et al. 2019) bins, and the consistency band
  of a calibrated model (Bröcker & Smith 2007);
- **temperature scaling** (Guo et al. 2017), which sharpens or softens probabilities
  without changing any prediction.

``y_proba`` is an (n, k) matrix whose rows sum to 1 and whose columns follow ``labels``
(default: the sorted labels of ``y_true``), or, for a binary problem, a 1-D array of the
probability of ``pos_label``. Every function validates it the same way as
:mod:`evalkit.probabilistic` does: NaN, negative values, rows that do not sum to 1 (within
1e-6), a 1-D array outside [0, 1], or a shape that does not fit the labels raise a
``ValueError`` naming ``y_proba``.

Undefined values: none of these needs a ``zero_division``. An empty input is a
``ValueError`` and empty bins are skipped, so every number returned is defined; the one
exception, a bin of :func:`consistency_band` that no resample reaches, is NaN with an
:class:`~evalkit.exceptions.UndefinedMetricWarning`.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from ._docs import fill_doc
from ._probabilities import _as_matrix, _check_probabilities, _Probabilities, _row_problem
from ._results import make_result
from ._validation import check_labels, check_option, check_scalar, check_seed, keyword_only
from .exceptions import UndefinedMetricWarning

__all__ = [
    "temperature_scale",
    "brier_score",
    "brier_decomposition",
    "BrierDecomposition",
    "expected_calibration_error",
    "reliability_curve",
    "consistency_band",
    "BIN_STRATEGIES",
    "CALIBRATION_NORMS",
]

#: How :func:`reliability_curve` and :func:`expected_calibration_error` place their bins.
BIN_STRATEGIES = ("uniform", "quantile")
#: The norms of :func:`expected_calibration_error`.
CALIBRATION_NORMS = ("l1", "l2", "max")


@keyword_only
def temperature_scale(y_proba: Any, *, temperature: float) -> np.ndarray:
    r"""Probabilities sharpened or softened by a temperature (temperature scaling).

    .. math::

        p_i^{(T)}(j) = \frac{p_i(j)^{1/T}}{\sum_{l=1}^{k} p_i(l)^{1/T}}

    the same as dividing a network's logits by :math:`T` before the softmax (Guo et al.
    2017). :math:`T > 1` softens every row towards uniform, :math:`T < 1` sharpens it towards
    one-hot, :math:`T = 1` leaves it as it is. The order of the classes in each row never
    changes, so the argmax (the prediction) and everything computed from it stay the same.
    A probability of exactly 0 stays 0.

    Parameters
    ----------
    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Probabilities whose rows sum to 1, or for two classes the probability of the
        positive class (then the result is 1-D too: the positive class at temperature *T*).
    temperature : float
        The temperature :math:`T > 0`.

    Returns
    -------
    ndarray of the shape of ``y_proba``

    References
    ----------
    Guo, C., Pleiss, G., Sun, Y. and Weinberger, K. Q. (2017). On calibration of modern
    neural networks. Proceedings of ICML 2017, 1321–1330, section 4.2.

    Examples
    --------
    >>> temperature_scale([[0.8, 0.2]], temperature=0.5).round(4)  # 0.8² / (0.8² + 0.2²)
    array([[0.9412, 0.0588]])
    >>> temperature_scale([0.8, 0.5], temperature=1e9).round(4)  # towards uniform
    array([0.5, 0.5])
    """
    temperature = check_scalar(temperature, "temperature", low=0, low_inclusive=False)
    proba = _as_matrix(y_proba)
    if len(proba) == 0:
        raise ValueError("y_proba is empty; it needs at least one sample")
    one_column = proba.ndim == 1
    if one_column:
        if not ((proba >= 0) & (proba <= 1)).all():  # also catches NaN
            bad = int(np.flatnonzero(~((proba >= 0) & (proba <= 1)))[0])
            if np.isnan(proba[bad]):
                raise ValueError(f"y_proba contains NaN at position {bad}; every sample needs "
                                 "a probability")
            raise ValueError(f"a 1-D y_proba holds probabilities from 0 to 1; y_proba[{bad}] "
                             f"is {float(proba[bad])!r}")
        proba = np.column_stack([1.0 - proba, proba])
    else:
        problem = _row_problem(proba, 0)
        if problem:
            raise ValueError(problem)
    # In log space, shifted by each row's maximum, so that a small T does not overflow; a
    # probability of 0 is log 0 = -inf and stays 0, as 0^(1/T) does.
    with np.errstate(divide="ignore"):
        logs = np.log(proba) / temperature
    logs -= logs.max(axis=1, keepdims=True)
    scaled = np.exp(logs)
    scaled /= scaled.sum(axis=1, keepdims=True)
    return scaled[:, 1] if one_column else scaled


# ---------------------------------------------------------------------------------------------
# The Brier score and its decomposition
# ---------------------------------------------------------------------------------------------


@keyword_only
def brier_score(y_true: Any, y_proba: Any, *, labels: Any = None, pos_label: Any = 1) -> float:
    r"""The Brier score: mean squared distance between the probabilities and the truth.

    .. math::

        \mathrm{BS} = \frac{1}{n} \sum_{i=1}^{n} \sum_{j=1}^{k} \bigl(p_i(j) - [y_i = j]\bigr)^2

    0 is perfect; a model that always says :math:`1/k` scores :math:`1 - 1/k`; the worst is
    2. This is Brier's original, multi-class formula, the one of Yacouby & Axman (2020).
    For two classes it is **twice** scikit-learn's ``brier_score_loss``, which sums over the
    positive class only, :math:`\frac{1}{n}\sum_i (p_i - o_i)^2`: the negative class adds the
    same squared error again, :math:`((1 - p_i) - (1 - o_i))^2 = (p_i - o_i)^2`.
    (scikit-learn's ``brier_score_loss(..., scale_by_half=False)`` gives the value here.)

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities (columns follow ``labels``), or the probability of
        ``pos_label`` for two classes.
    labels : array-like, optional
        The class of each column. Default: the sorted labels of ``y_true``.
    pos_label : int or str, default 1
        The class whose probability a 1-D ``y_proba`` holds.

    Returns
    -------
    float

    References
    ----------
    Brier, G. W. (1950). Verification of forecasts expressed in terms of probability. Monthly
    Weather Review 78(1), 1–3.

    Examples
    --------
    >>> round(brier_score([1, 0], [0.8, 0.4]), 4)  # ((0.2² + 0.2²) + (0.4² + 0.4²)) / 2
    0.2

    Three classes; the last sample is confidently wrong and costs 2:

    >>> proba = [[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [1, 0, 0]]
    >>> round(brier_score(["a", "b", "c"], proba), 4)  # (0.26 + 0.38 + 2) / 3
    0.88
    """
    data = _check_probabilities(y_true, y_proba, labels, pos_label)
    # sum_i sum_j (p_ij - [y_i = j])^2 = sum of all p^2 - 2 sum_i p_i(y_i) + n
    n = data.n_samples
    return max((data.squares - 2.0 * float(data.true_mass.sum()) + n) / n, 0.0)


BrierDecomposition = make_result(
    "BrierDecomposition",
    ("brier", "reliability", "resolution", "uncertainty", "within_bin_variance",
     "within_bin_covariance"),
    module=__name__,
    doc="The Brier score and its parts: brier = reliability - resolution + uncertainty + "
        "within_bin_variance - within_bin_covariance.",
)


def _bin_index(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bin of each value for bins (edges[b], edges[b + 1]]; the lowest edge joins bin 0."""
    return np.clip(np.searchsorted(edges, values, side="left") - 1, 0, len(edges) - 2)


@keyword_only
def brier_decomposition(
    y_true: Any, y_proba: Any, *, n_bins: int = 10, pos_label: Any = 1
) -> Any:
    r"""Murphy's decomposition of the (binary) Brier score, made exact for binned forecasts.

    With forecasts :math:`f_i` of the positive class, outcomes :math:`o_i \in \{0, 1\}`, the
    forecasts grouped into ``n_bins`` equal-width bins (bin *b* holds :math:`n_b` samples
    with mean forecast :math:`\bar f_b` and positive share :math:`\bar o_b`) and
    :math:`\bar o` the overall share of positives:

    .. math::

        \underbrace{\tfrac1n \textstyle\sum_i (f_i - o_i)^2}_{\text{Brier}} =
        \underbrace{\tfrac1n \textstyle\sum_b n_b (\bar f_b - \bar o_b)^2}_{\text{reliability}}
        - \underbrace{\tfrac1n \textstyle\sum_b n_b (\bar o_b - \bar o)^2}_{\text{resolution}}
        + \underbrace{\bar o (1 - \bar o)}_{\text{uncertainty}}
        + \underbrace{\tfrac1n \textstyle\sum_b \sum_{i \in b} (f_i - \bar f_b)^2}_{
          \text{within-bin variance}}
        - \underbrace{\tfrac2n \textstyle\sum_b \sum_{i \in b} (f_i - \bar f_b)(o_i - \bar o_b)
          }_{\text{within-bin covariance}}

    Reliability (lower is better) is the calibration error; resolution (higher is better)
    how far the bins' outcomes differ from the base rate; uncertainty depends on the data
    only. Murphy's three-term form holds when each bin holds one forecast value; with binned
    continuous forecasts the last two terms (Stephenson, Coelho & Jolliffe 2008) make the
    identity exact. This is the one-column Brier score of scikit-learn's
    ``brier_score_loss``, half of :func:`brier_score` for two classes.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of a binary problem.
    y_proba : array-like of shape (n_samples,) or (n_samples, 2)
        The probability of ``pos_label``, or two columns (negative, positive) in the order
        of the sorted labels.
    n_bins : int, default 10
        Number of equal-width bins on [0, 1]; bin *b* is :math:`(b/B, (b+1)/B]`, and a
        forecast of exactly 0 joins the first bin.
    pos_label : int or str, default 1
        The positive class.

    Returns
    -------
    BrierDecomposition
        A named result with ``brier``, ``reliability``, ``resolution``, ``uncertainty``,
        ``within_bin_variance`` and ``within_bin_covariance``.

    References
    ----------
    Murphy, A. H. (1973). A new vector partition of the probability score. Journal of Applied
    Meteorology 12(4), 595–600.
    Stephenson, D. B., Coelho, C. A. S. and Jolliffe, I. T. (2008). Two extra components in
    the Brier score decomposition. Weather and Forecasting 23(4), 752–757.

    Examples
    --------
    >>> parts = brier_decomposition([0, 0, 1, 1, 1], [0.1, 0.3, 0.35, 0.8, 0.9], n_bins=2)
    >>> round(parts.brier, 4), round(parts.reliability, 4), round(parts.uncertainty, 4)
    (0.1145, 0.0132, 0.24)
    >>> total = (parts.reliability - parts.resolution + parts.uncertainty
    ...          + parts.within_bin_variance - parts.within_bin_covariance)
    >>> bool(abs(total - parts.brier) < 1e-12)
    True
    """
    n_bins = check_scalar(n_bins, "n_bins", kind="int", low=1)
    data = _check_probabilities(y_true, y_proba, None, pos_label)
    if data.n_classes != 2:
        raise ValueError(
            f"brier_decomposition is for two classes; y_proba has {data.n_classes} columns")
    positive = int(np.flatnonzero(data.classes == _positive_of(data, pos_label))[0])
    forecast = data.proba[:, positive]
    outcome = (data.codes == positive).astype(np.float64)
    n = data.n_samples
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    bins = _bin_index(forecast, edges)
    size = np.bincount(bins, minlength=n_bins).astype(np.float64)
    used = size > 0
    mean_f = np.divide(np.bincount(bins, forecast, n_bins), size, out=np.zeros(n_bins),
                       where=used)
    mean_o = np.divide(np.bincount(bins, outcome, n_bins), size, out=np.zeros(n_bins),
                       where=used)
    base_rate = outcome.mean()
    dev_f, dev_o = forecast - mean_f[bins], outcome - mean_o[bins]
    return BrierDecomposition(
        float(np.mean((forecast - outcome) ** 2)),
        float(np.sum(size * (mean_f - mean_o) ** 2) / n),
        float(np.sum(size * (mean_o - base_rate) ** 2) / n),
        float(base_rate * (1.0 - base_rate)),
        float(np.sum(dev_f**2) / n),
        float(2.0 * np.sum(dev_f * dev_o) / n),
    )


def _positive_of(data: _Probabilities, pos_label: Any) -> Any:
    pos = check_labels([pos_label], "pos_label")[0]
    if pos not in data.classes:
        raise ValueError(f"pos_label={pos_label!r} is not one of the labels "
                         f"{data.classes.tolist()}")
    return pos


# ---------------------------------------------------------------------------------------------
# Calibration: reliability curve, ECE, consistency band
# ---------------------------------------------------------------------------------------------


def _top_label(data: _Probabilities) -> tuple[np.ndarray, np.ndarray]:
    """Confidence (max probability) and correctness (argmax = truth) of every sample."""
    predicted = np.argmax(data.proba, axis=1)
    confidence = data.proba[np.arange(data.n_samples), predicted]
    return confidence, (predicted == data.codes).astype(np.float64)


def _edges(confidence: np.ndarray, n_bins: int, strategy: str) -> np.ndarray:
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, n_bins + 1)
    # Equal-mass bins: quantiles of the confidences (ties can merge bins; empty ones are
    # skipped). The outer edges are 0 and 1 so every confidence falls inside.
    edges = np.quantile(confidence, np.linspace(0.0, 1.0, n_bins + 1))
    edges[0], edges[-1] = 0.0, 1.0
    return edges


def _binned(confidence: np.ndarray, correct: np.ndarray, n_bins: int,
            strategy: str) -> pd.DataFrame:
    edges = _edges(confidence, n_bins, strategy)
    bins = _bin_index(confidence, edges)
    count = np.bincount(bins, minlength=n_bins)
    used = np.flatnonzero(count)
    mean_confidence = np.bincount(bins, confidence, n_bins)[used] / count[used]
    accuracy = np.bincount(bins, correct, n_bins)[used] / count[used]
    return pd.DataFrame({"bin_low": edges[used], "bin_high": edges[used + 1],
                         "confidence": mean_confidence, "accuracy": accuracy,
                         "count": count[used].astype(np.int64)})


def _calibration_input(y_true: Any, y_proba: Any, n_bins: Any, strategy: Any,
                       labels: Any = None) -> tuple[np.ndarray, np.ndarray, int, str]:
    n_bins = check_scalar(n_bins, "n_bins", kind="int", low=1)
    strategy = check_option(strategy, "strategy", BIN_STRATEGIES)
    y_true = check_labels(y_true, "y_true")
    # A 1-D y_proba is the probability of the greater label; top-label calibration does not
    # depend on which class is called positive.
    pos_label = np.unique(y_true)[-1] if labels is None else check_labels(labels, "labels")[-1]
    data = _check_probabilities(y_true, y_proba, labels, pos_label)
    confidence, correct = _top_label(data)
    return confidence, correct, n_bins, strategy


_CALIBRATION_PARAMETERS = """
y_true : array-like of shape (n_samples,)
    True labels (numbers or strings).
y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
    Predicted probabilities, columns in the order of the sorted labels of ``y_true``; a
    1-D array is the probability of the greater of two labels.
n_bins : int, default 15
    Number of bins.
strategy : {"uniform", "quantile"}, default "uniform"
    ``"uniform"``: equal-width bins :math:`(b/B, (b+1)/B]` on [0, 1], so a confidence of
    exactly 1.0 is in the last bin; ``"quantile"``: equal-mass bins whose edges are
    quantiles of the confidences (Nixon et al. 2019), with the outer edges at 0 and 1.
    Empty bins are skipped.
"""

_calibration_docs = fill_doc(calibration_parameters=_CALIBRATION_PARAMETERS)


@keyword_only
@_calibration_docs
def reliability_curve(
    y_true: Any, y_proba: Any, *, n_bins: int = 15, strategy: str = "uniform"
) -> pd.DataFrame:
    r"""Top-label reliability curve: accuracy against mean confidence, bin by bin.

    Each sample's confidence is its largest probability and its prediction the class with
    that probability (the first such class on ties). For the samples whose confidence falls
    in bin *b*:

    .. math::

        \mathrm{conf}(b) = \frac{1}{n_b} \sum_{i \in b} \max_j p_i(j), \qquad
        \mathrm{acc}(b) = \frac{1}{n_b} \sum_{i \in b} [\arg\max_j p_i(j) = y_i]

    A calibrated model has :math:`\mathrm{acc}(b) \approx \mathrm{conf}(b)`: of the
    predictions made with 80% confidence, 80% are right. For two classes this is not
    scikit-learn's ``calibration_curve``, which bins the probability of the positive class
    and reports the share of positives; the top-label curve folds the two halves of that
    curve onto [0.5, 1].

    Parameters
    ----------
    {{calibration_parameters}}

    Returns
    -------
    pandas.DataFrame
        One row per non-empty bin: ``bin_low``, ``bin_high``, ``confidence`` (mean),
        ``accuracy`` and ``count``.

    References
    ----------
    Guo, C., Pleiss, G., Sun, Y. and Weinberger, K. Q. (2017). On calibration of modern
    neural networks. Proceedings of ICML 2017, 1321–1330.

    Examples
    --------
    >>> curve = reliability_curve([0, 1, 1, 0], [[0.9, 0.1], [0.3, 0.7], [0.6, 0.4], [0.8, 0.2]],
    ...                           n_bins=2)
    >>> print(curve.round(3).to_string(index=False))
     bin_low  bin_high  confidence  accuracy  count
         0.5       1.0        0.75      0.75      4
    """
    confidence, correct, n_bins, strategy = _calibration_input(y_true, y_proba, n_bins, strategy)
    return _binned(confidence, correct, n_bins, strategy)


@keyword_only
@_calibration_docs
def expected_calibration_error(
    y_true: Any, y_proba: Any, *, n_bins: int = 15, strategy: str = "uniform",
    norm: str = "l1",
) -> float:
    r"""Expected calibration error: the gap between confidence and accuracy, bin by bin.

    With the top-label bins of :func:`reliability_curve` (:math:`n_b` samples in bin *b*,
    empty bins skipped):

    .. math::

        \mathrm{ECE} = \sum_b \frac{n_b}{n} \bigl|\mathrm{acc}(b) - \mathrm{conf}(b)\bigr|,
        \quad
        \ell_2 = \sqrt{\sum_b \frac{n_b}{n} \bigl(\mathrm{acc}(b) - \mathrm{conf}(b)\bigr)^2},
        \quad
        \mathrm{MCE} = \max_b \bigl|\mathrm{acc}(b) - \mathrm{conf}(b)\bigr|

    The number moves with the number and kind of bins (few bins average errors of opposite
    sign away; many bins hold few samples and add noise), so report them with it.

    Parameters
    ----------
    {{calibration_parameters}}
    norm : {"l1", "l2", "max"}, default "l1"
        ``"l1"``: ECE (Guo et al. 2017); ``"l2"``: the root of the size-weighted mean squared
        gap; ``"max"``: the maximum calibration error (MCE).

    Returns
    -------
    float

    References
    ----------
    Guo, C., Pleiss, G., Sun, Y. and Weinberger, K. Q. (2017). On calibration of modern
    neural networks. Proceedings of ICML 2017, 1321–1330.
    Nixon, J., Dusenberry, M., Zhang, L., Jerfel, G. and Tran, D. (2019). Measuring
    calibration in deep learning. CVPR Workshops 2019.

    Examples
    --------
    >>> y_true = [0, 1, 1, 0]
    >>> y_proba = [[0.9, 0.1], [0.3, 0.7], [0.6, 0.4], [0.8, 0.2]]
    >>> round(expected_calibration_error(y_true, y_proba, n_bins=2), 4)
    0.0
    >>> round(expected_calibration_error(y_true, y_proba, n_bins=10), 4)  # (.1+.3+.6+.2)/4
    0.3
    """
    norm = check_option(norm, "norm", CALIBRATION_NORMS)
    confidence, correct, n_bins, strategy = _calibration_input(y_true, y_proba, n_bins, strategy)
    table = _binned(confidence, correct, n_bins, strategy)
    gap = (table["accuracy"] - table["confidence"]).to_numpy()
    weight = table["count"].to_numpy() / len(confidence)
    if norm == "l1":
        return float(np.sum(weight * np.abs(gap)))
    if norm == "l2":
        return float(np.sqrt(np.sum(weight * gap**2)))
    return float(np.max(np.abs(gap)))


@keyword_only
@_calibration_docs
def consistency_band(
    y_true: Any, y_proba: Any, *, n_bins: int = 15, strategy: str = "uniform",
    n_resamples: int = 1000, confidence: float = 0.95, seed: Any = None,
) -> pd.DataFrame:
    r"""How far a *calibrated* model's reliability curve would stray by chance, bin by bin.

    Consistency resampling (Bröcker & Smith 2007): draw the samples with replacement, and
    for each drawn sample an outcome that is right with probability equal to its
    confidence, as it would be if the model were calibrated; bin as
    :func:`reliability_curve` does and record each bin's accuracy. Repeated
    ``n_resamples`` times (all at once), the central ``confidence`` share of those
    accuracies is the band:

    .. math::

        \tilde y_i^{(r)} \sim \mathrm{Bernoulli}\bigl(\mathrm{conf}_{i^{(r)}}\bigr), \qquad
        \mathrm{band}(b) = \bigl[q_{\alpha/2}, q_{1-\alpha/2}\bigr] \text{ of }
        \widetilde{\mathrm{acc}}^{(r)}(b)

    A point of the real curve outside its band is evidence of miscalibration; inside, the
    gap is within what the bin's sample size allows.

    Parameters
    ----------
    {{calibration_parameters}}
    n_resamples : int, default 1000
        Number of resamples.
    confidence : float, default 0.95
        The share of resampled accuracies the band holds, in (0, 1) (the name every
        interval of evalkit uses).
    seed : int or numpy.random.Generator, optional
        For ``np.random.default_rng``.

    Returns
    -------
    pandas.DataFrame
        One row per non-empty bin of the data (as :func:`reliability_curve`):
        ``confidence`` (the bin's mean confidence), ``low`` and ``high``. A bin that no
        resample reaches (a bin of few samples, with few resamples) has no band: its
        ``low`` and ``high`` are NaN, with an :class:`~evalkit.exceptions.UndefinedMetricWarning`.

    References
    ----------
    Bröcker, J. and Smith, L. A. (2007). Increasing the reliability of reliability diagrams.
    Weather and Forecasting 22(3), 651–661.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(0.5, 1.0, 400)
    >>> y = (rng.uniform(size=400) < p).astype(int)  # calibrated by construction
    >>> band = consistency_band(y, p, n_bins=5, seed=1)
    >>> bool(((band["low"] <= band["confidence"]) & (band["confidence"] <= band["high"])).all())
    True
    """
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=1)
    level = check_scalar(confidence, "confidence", low=0, high=1, low_inclusive=False,
                         high_inclusive=False)
    sample_confidence, _, n_bins, strategy = _calibration_input(y_true, y_proba, n_bins,
                                                                strategy)
    rng = check_seed(seed, "seed")
    n = len(sample_confidence)
    edges = _edges(sample_confidence, n_bins, strategy)
    used = np.flatnonzero(np.bincount(_bin_index(sample_confidence, edges), minlength=n_bins))
    # One (resample, bin) cell per count: the drawn samples' bins and simulated outcomes.
    drawn = sample_confidence[rng.integers(0, n, size=(n_resamples, n))]
    outcome = rng.random(drawn.shape) < drawn
    cell = np.arange(n_resamples)[:, None] * n_bins + _bin_index(drawn, edges)
    size = np.bincount(cell.ravel(), minlength=n_resamples * n_bins).reshape(-1, n_bins)
    right = np.bincount(cell.ravel(), outcome.ravel(), n_resamples * n_bins).reshape(-1, n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        accuracy = right[:, used] / size[:, used]  # NaN where a resample left a bin empty
    alpha = 1.0 - level
    unreached = np.isnan(accuracy).all(axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's all-NaN slice: said below
        low, high = np.nanquantile(accuracy, [alpha / 2, 1 - alpha / 2], axis=0)
    bins = _bin_index(sample_confidence, edges)
    mean_confidence = (np.bincount(bins, sample_confidence, n_bins)[used]
                       / np.bincount(bins, minlength=n_bins)[used])
    if unreached.any():
        shown = ", ".join(f"{c:.3g}" for c in mean_confidence[unreached][:5])
        warnings.warn(
            f"consistency_band is undefined for {int(unreached.sum())} bin(s) that no resample "
            f"reached (mean confidence {shown}); their low and high are NaN. Use more "
            "n_resamples or fewer n_bins.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    return pd.DataFrame({"confidence": mean_confidence, "low": low, "high": high})
