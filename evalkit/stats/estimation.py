"""Estimating accuracy from one small sample: the simulation of notebook 21 (holdout, k-fold and
leave-one-out estimates on many samples, and their bias, spread and RMSE).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._results import make_result
from .._validation import (
    check_bool,
    check_labels,
    check_scalar,
    check_seed,
    keyword_only,
)

__all__ = [
    "available_sample",
    "simulate_estimates",
    "estimation_summary",
    "bootstrap_632",
    "Bootstrap632Result",
    "ESTIMATION_COLUMNS",
    "ESTIMATION_METHODS",
    "K_VALUES",
    "TEST_FRACTIONS",
]


#: Numbers of folds computed by default (leave-one-out is computed besides, as its own method).
K_VALUES = (2, 3, 5, 10, 20)
#: Holdout test fractions computed by default; 1/3 is the course notes' 2/3–1/3 split.
TEST_FRACTIONS = (0.1, 0.2, 0.25, 1 / 3, 0.4, 0.5, 0.6)
#: The methods of a table of estimates; "truth" is the accuracy on the untouched rest.
ESTIMATION_METHODS = ("truth", "holdout", "k-fold", "leave-one-out")
#: The columns of a table of estimates, one row per (sample, method, parameter).
ESTIMATION_COLUMNS = ("n_available", "repeat", "method", "parameter", "estimate")


@keyword_only
def available_sample(n_total: int, n_available: int, *, seed: int,
                     repeat: int) -> tuple[np.ndarray, np.ndarray, int]:
    r"""The available sample of one repetition, the untouched rest, and the seed of its splits.

    A simulation of accuracy estimation draws many small *available* samples from a large
    data set of :math:`N` items; the model trained on a sample is scored on the rest, which
    plays the truth:

    .. math::

        S_r \subset \{0, \dots, N - 1\},\ |S_r| = n, \qquad
        a_r = \mathrm{acc}\bigl(\hat f_{S_r};\ \{0, \dots, N - 1\} \setminus S_r\bigr)

    The recipe, so that anyone can redraw a sample: ``rng =
    numpy.random.default_rng([seed, n_available, repeat])``; the first ``n_available`` of
    ``rng.permutation(n_total)`` are available, the others are the rest (both returned
    sorted); then ``split_seed = int(rng.integers(2**31 - 1))`` is the ``random_state`` of
    that sample's holdout and k-fold splitters.

    Parameters
    ----------
    n_total : int
        :math:`N`, the number of items in the whole data set (at least 2).
    n_available : int
        :math:`n`, the size of the available sample (2 to :math:`N - 1`).
    seed : int
        The seed of the whole study (>= 0).
    repeat : int
        Which repetition (>= 0); each gives another sample.

    Returns
    -------
    tuple
        ``(available, rest, split_seed)``: the sorted indices of the sample, the sorted
        indices of the rest, and the ``random_state`` of the sample's splitters.

    References
    ----------
    Kohavi, R. (1995). A study of cross-validation and bootstrap for accuracy estimation and
    model selection. IJCAI 1995, 1137–1143 (the design: many small samples of a larger
    data set, the rest as the truth).

    Examples
    --------
    >>> available, rest, split_seed = available_sample(10, 4, seed=0, repeat=0)
    >>> len(available), len(rest), sorted(set(available) | set(rest)) == list(range(10))
    (4, 6, True)
    """
    n_total = check_scalar(n_total, "n_total", kind="int", low=2)
    n_available = check_scalar(n_available, "n_available", kind="int", low=2,
                               high=n_total - 1)
    seed = check_scalar(seed, "seed", kind="int", low=0)
    repeat = check_scalar(repeat, "repeat", kind="int", low=0)
    rng = np.random.default_rng([seed, n_available, repeat])
    order = rng.permutation(n_total)
    split_seed = int(rng.integers(2**31 - 1))
    return np.sort(order[:n_available]), np.sort(order[n_available:]), split_seed


def _accuracy_of_fit(estimator: Any, X: np.ndarray, y: np.ndarray, train: np.ndarray,
                     test: np.ndarray) -> float:
    from sklearn.base import clone

    fitted = clone(estimator).fit(X[train], y[train])
    return float(np.mean(fitted.predict(X[test]) == y[test]))


@keyword_only
def simulate_estimates(
    estimator: Any,
    X: Any,
    y: Any,
    *,
    n_available: int,
    n_repeats: int = 200,
    k_values: Sequence[int] = K_VALUES,
    test_fractions: Sequence[float] = TEST_FRACTIONS,
    leave_one_out: bool = True,
    seed: int = 0,
) -> pd.DataFrame:
    r"""Holdout, k-fold and leave-one-out estimates of accuracy on many small samples.

    The k-fold estimate is the mean of the fold accuracies, with :math:`F_j` the folds and
    :math:`\hat f_{-F_j}` the model trained on the other folds,

    .. math::

        \widehat{\mathrm{acc}}_{k\text{-CV}} = \frac1k \sum_{j=1}^{k} \frac{1}{|F_j|}
        \sum_{i \in F_j} \mathbf{1}\left[\hat f_{-F_j}(x_i) = y_i\right],

    the holdout is one such fold of size :math:`\lceil f n \rceil`, and leave-one-out is
    :math:`k = n`. For each of ``n_repeats`` repetitions, :func:`available_sample` draws
    ``n_available`` rows of ``X`` and ``y``; the rest stay untouched. On the available
    sample:

    - **truth**: a clone of ``estimator`` fitted on the whole sample, scored on the rest;
    - **holdout** (one row per test fraction *f*): ``train_test_split(test_size=f,
      random_state=split_seed)`` of the sample, so ``ceil(f n)`` items are tested;
    - **k-fold** (one row per *k*): the mean of the *k* fold accuracies under
      ``KFold(k, shuffle=True, random_state=split_seed)``, exactly what
      ``cross_val_score(estimator, X_sample, y_sample, cv=that KFold).mean()`` returns;
    - **leave-one-out** (if asked): the same with *k* = ``n_available``.

    Accuracy is the share of correct predictions. scikit-learn is imported here (it is not
    a dependency of evalkit itself).

    Parameters
    ----------
    estimator : scikit-learn classifier
        Cloned for every fit.
    X : array-like of shape (n_samples, n_features)
        The whole data set.
    y : array-like of shape (n_samples,)
        Its labels.
    n_available : int
        The size of each available sample.
    n_repeats : int, default 200
        How many samples.
    k_values : sequence of int, default (2, 3, 5, 10, 20)
        The numbers of folds.
    test_fractions : sequence of float, default (0.1, 0.2, 0.25, 1/3, 0.4, 0.5, 0.6)
        The holdout test fractions.
    leave_one_out : bool, default True
        Whether to add leave-one-out (``n_available`` fits per sample).
    seed : int, default 0
        The seed of the study (see :func:`available_sample`).

    Returns
    -------
    pandas.DataFrame
        Columns ``n_available``, ``repeat``, ``method``, ``parameter`` (the test fraction or
        *k*; NaN for the truth and leave-one-out) and ``estimate``: the table that
        :func:`estimation_summary` (and the explorer
        :class:`evalkit.widgets.EstimationExplorer`) reads.

    References
    ----------
    Kohavi, R. (1995). A study of cross-validation and bootstrap for accuracy estimation and
    model selection. IJCAI 1995, 1137–1143.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> table = simulate_estimates(KNeighborsClassifier(1), X, y, n_available=30,
    ...                            n_repeats=2, k_values=(5,), test_fractions=(0.2,))
    >>> table.groupby("method").size().to_dict()
    {'holdout': 2, 'k-fold': 2, 'leave-one-out': 2, 'truth': 2}
    """
    X, y = _check_estimator_data(estimator, X, y)
    n_available = check_scalar(n_available, "n_available", kind="int", low=2,
                               high=len(y) - 1)
    n_repeats = check_scalar(n_repeats, "n_repeats", kind="int", low=1)
    seed = check_scalar(seed, "seed", kind="int", low=0)
    ks = [check_scalar(k, "k_values", kind="int", low=2, high=n_available) for k in k_values]
    fractions = [check_scalar(f, "test_fractions", low=1.0 / n_available,
                              high=1.0 - 1.0 / n_available) for f in test_fractions]
    leave_one_out = check_bool(leave_one_out, "leave_one_out")
    from sklearn.model_selection import KFold, train_test_split

    rows: list[tuple[int, int, str, float, float]] = []
    positions = np.arange(n_available)
    for repeat in range(n_repeats):
        available, rest, split_seed = available_sample(len(y), n_available, seed=seed,
                                                       repeat=repeat)
        X_sample, y_sample = X[available], y[available]
        truth = _accuracy_of_fit(estimator, X, y, available, rest)
        rows.append((n_available, repeat, "truth", np.nan, truth))
        for fraction in fractions:
            train, test = train_test_split(positions, test_size=fraction,
                                           random_state=split_seed)
            rows.append((n_available, repeat, "holdout", fraction,
                         _accuracy_of_fit(estimator, X_sample, y_sample, train, test)))
        splits = [("k-fold", float(k), KFold(k, shuffle=True, random_state=split_seed))
                  for k in ks]
        if leave_one_out:
            splits.append(("leave-one-out", np.nan, KFold(n_available)))
        for method, parameter, splitter in splits:
            folds = [_accuracy_of_fit(estimator, X_sample, y_sample, train, test)
                     for train, test in splitter.split(positions)]
            rows.append((n_available, repeat, method, parameter, float(np.mean(folds))))
    return pd.DataFrame(rows, columns=list(ESTIMATION_COLUMNS))


Bootstrap632Result = make_result(
    "Bootstrap632Result", ("point632", "point632_plus"),
    ("resubstitution", "out_of_bag", "no_information_error", "overfitting_rate", "weight",
     "n_resamples"),
    module=__name__,
    doc="The bootstrap accuracy estimates of :func:`bootstrap_632`; unpacks like "
        "``(point632, point632_plus)``. Also has the ``resubstitution`` and ``out_of_bag`` "
        "accuracies they combine, the ``no_information_error`` rate gamma, the relative "
        "``overfitting_rate`` R, the .632+ ``weight`` w and ``n_resamples``.",
)


def _check_estimator_data(estimator: Any, X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    if not (hasattr(estimator, "fit") and hasattr(estimator, "predict")):
        raise TypeError("estimator must be a scikit-learn classifier (with fit and predict); "
                        f"got {type(estimator).__name__}")
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (samples x features); got shape {X.shape}")
    y = check_labels(y, "y")
    if len(X) != len(y):
        raise ValueError(f"X and y have different lengths ({len(X)} != {len(y)})")
    return X, y


@keyword_only
def bootstrap_632(estimator: Any, X: Any, y: Any, *, n_resamples: int = 50,
                  seed: Any = None) -> Any:
    r"""The out-of-bag, .632 and .632+ bootstrap estimates of a classifier's accuracy.

    Draw ``n_resamples`` bootstrap samples of the :math:`n` items (with replacement), fit a
    clone of ``estimator`` on each, and let each model classify the items it did not draw.
    With :math:`C_i` the bootstrap samples that miss item :math:`i`, the *out-of-bag*
    (leave-one-out bootstrap) accuracy is the mean over the items with :math:`C_i` not
    empty of

    .. math::

        \widehat{\mathrm{acc}}^{(1)}_i = \frac{1}{|C_i|} \sum_{b \in C_i}
        \mathbf{1}\left[\hat f_b(x_i) = y_i\right].

    In error rates, with :math:`\overline{\mathrm{err}}` the error of the model fitted on
    all :math:`n` items on those items (resubstitution) and
    :math:`\mathrm{Err}^{(1)} = 1 - \widehat{\mathrm{acc}}^{(1)}`,

    .. math::

        \mathrm{Err}^{(.632)} = 0.368\,\overline{\mathrm{err}} + 0.632\,\mathrm{Err}^{(1)},
        \qquad
        \mathrm{Err}^{(.632+)} = (1 - w)\,\overline{\mathrm{err}} + w\,\mathrm{Err}^{(1)\prime},

    where :math:`\gamma = \sum_\ell p_\ell (1 - q_\ell)` is the no-information error rate
    (:math:`p_\ell`, :math:`q_\ell`: the share of class :math:`\ell` among the labels and
    among the resubstitution predictions), :math:`\mathrm{Err}^{(1)\prime} =
    \min(\mathrm{Err}^{(1)}, \gamma)`, the relative overfitting rate is :math:`R =
    (\mathrm{Err}^{(1)\prime} - \overline{\mathrm{err}}) / (\gamma -
    \overline{\mathrm{err}})` when :math:`\mathrm{Err}^{(1)} > \overline{\mathrm{err}}` and
    :math:`\gamma > \overline{\mathrm{err}}` (else 0), and :math:`w = 0.632 / (1 - 0.368 R)`
    runs from 0.632 (no overfitting) to 1. The accuracies returned are one minus these
    errors (Efron & Tibshirani 1997, sections 3 and 4).

    The resamples are drawn at once, ``seed`` then gives ``rng.integers(0, n, size=(B, n))``;
    one fit per resample is unavoidable. scikit-learn is imported here (it is not a
    dependency of evalkit itself).

    Parameters
    ----------
    estimator : scikit-learn classifier
        Cloned for every fit; it must be able to fit a bootstrap sample (which may lack a
        class).
    X : array-like of shape (n_samples, n_features)
        The available sample.
    y : array-like of shape (n_samples,)
        Its labels.
    n_resamples : int, default 50
        The number of bootstrap samples :math:`B` (Efron & Tibshirani use 50).
    seed : None, int or numpy.random.Generator, default None
        The random numbers of the resamples.

    Returns
    -------
    Bootstrap632Result
        ``point632`` and ``point632_plus`` (accuracies; the result unpacks to these two),
        and the attributes ``resubstitution``, ``out_of_bag``, ``no_information_error``
        (:math:`\gamma`), ``overfitting_rate`` (:math:`R`), ``weight`` (:math:`w`) and
        ``n_resamples``.

    Raises
    ------
    ValueError
        If no item was left out of any bootstrap sample (``n_resamples`` too small), or an
        argument is out of range.

    References
    ----------
    Efron, B. and Tibshirani, R. (1997). Improvements on cross-validation: the .632+
    bootstrap method. Journal of the American Statistical Association 92(438), 548–560.
    Kohavi, R. (1995). A study of cross-validation and bootstrap for accuracy estimation and
    model selection. IJCAI 1995, 1137–1143.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> result = bootstrap_632(KNeighborsClassifier(1), X, y, n_resamples=20, seed=0)
    >>> result.resubstitution
    1.0
    >>> bool(result.out_of_bag < result.point632_plus <= result.point632 < 1.0)
    True
    >>> bool(np.isclose(result.point632, 0.368 * 1.0 + 0.632 * result.out_of_bag))
    True
    """
    X, y = _check_estimator_data(estimator, X, y)
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=1)
    rng = check_seed(seed)
    from sklearn.base import clone

    n = len(y)
    resubstitution_pred = clone(estimator).fit(X, y).predict(X)
    resubstitution = float(np.mean(resubstitution_pred == y))
    drawn = rng.integers(0, n, size=(n_resamples, n))
    rows = np.repeat(np.arange(n_resamples), n)
    left_out = np.bincount(rows * n + drawn.ravel(), minlength=n_resamples * n).reshape(
        n_resamples, n) == 0
    correct = np.zeros((n_resamples, n), dtype=bool)
    for b in np.flatnonzero(left_out.any(axis=1)):  # one fit per resample
        model = clone(estimator).fit(X[drawn[b]], y[drawn[b]])
        correct[b, left_out[b]] = model.predict(X[left_out[b]]) == y[left_out[b]]
    times_out = left_out.sum(axis=0)
    seen = times_out > 0
    if not seen.any():
        raise ValueError(f"n_resamples={n_resamples} left no item out of bag; draw more")
    out_of_bag = float(np.mean(correct.sum(axis=0)[seen] / times_out[seen]))
    labels = np.unique(y)
    p = (y[:, None] == labels[None, :]).mean(axis=0)
    q = (resubstitution_pred[:, None] == labels[None, :]).mean(axis=0)
    gamma = float(np.sum(p * (1.0 - q)))
    err, err1 = 1.0 - resubstitution, 1.0 - out_of_bag
    err1_capped = min(err1, gamma)
    rate = (err1_capped - err) / (gamma - err) if (err1 > err and gamma > err) else 0.0
    weight = 0.632 / (1.0 - 0.368 * rate)
    return Bootstrap632Result(
        point632=0.368 * resubstitution + 0.632 * out_of_bag,
        point632_plus=1.0 - ((1.0 - weight) * err + weight * err1_capped),
        resubstitution=resubstitution, out_of_bag=out_of_bag, no_information_error=gamma,
        overfitting_rate=float(rate), weight=float(weight), n_resamples=n_resamples)


def _check_estimates(estimates: Any) -> pd.DataFrame:
    if not isinstance(estimates, pd.DataFrame):
        raise TypeError("estimates must be a DataFrame with the columns "
                        f"{', '.join(ESTIMATION_COLUMNS)} (see simulate_estimates); "
                        f"got {type(estimates).__name__}")
    missing = [column for column in ESTIMATION_COLUMNS if column not in estimates.columns]
    if missing:
        raise ValueError(f"estimates lacks the column(s) {', '.join(missing)}; it needs "
                         f"{', '.join(ESTIMATION_COLUMNS)} (see simulate_estimates)")
    table = estimates.loc[:, list(ESTIMATION_COLUMNS)].reset_index(drop=True)
    unknown = sorted(set(table["method"]) - set(ESTIMATION_METHODS))
    if unknown:
        raise ValueError(f"estimates has unknown method(s) {unknown}; the methods are "
                         f"{', '.join(ESTIMATION_METHODS)}")
    values = pd.to_numeric(table["estimate"], errors="coerce").to_numpy(np.float64)
    if not (np.isfinite(values).all() and (values >= 0).all() and (values <= 1).all()):
        raise ValueError("estimates['estimate'] must hold accuracies in [0, 1] (no NaN)")
    table["estimate"] = values
    truth = table[table["method"] == "truth"]
    if truth.empty:
        raise ValueError("estimates has no 'truth' rows: nothing to compare the estimates with")
    if truth.duplicated(["n_available", "repeat"]).any():
        raise ValueError("estimates has more than one 'truth' row for a (n_available, repeat)")
    return table

def estimation_summary(estimates: Any) -> pd.DataFrame:
    r"""Bias, spread and RMSE of accuracy estimates against the truth of their samples.

    For each sample size, method and parameter of a table of estimates (as
    :func:`simulate_estimates` returns), with :math:`e_r = \hat a_r - a_r` the error of the
    estimate on sample :math:`r` against that sample's truth (the accuracy, on the untouched
    rest, of the model trained on the whole sample), over the :math:`R` samples:

    .. math::

        \text{bias} = \frac1R \sum_r e_r, \qquad
        \text{SD} = \sqrt{\frac{1}{R-1} \sum_r (e_r - \text{bias})^2}, \qquad
        \text{RMSE} = \sqrt{\frac1R \sum_r e_r^2}

    so :math:`\text{RMSE}^2 = \text{bias}^2 + \text{SD}^2 (R-1)/R` (Kohavi 1995 compares
    methods by bias and variance this way).

    Parameters
    ----------
    estimates : DataFrame
        Columns ``n_available``, ``repeat``, ``method`` (``"truth"``, ``"holdout"``,
        ``"k-fold"``, ``"leave-one-out"``), ``parameter`` (the test fraction or *k*) and
        ``estimate`` (accuracies in [0, 1]); one ``truth`` row per (``n_available``,
        ``repeat``).

    Returns
    -------
    pandas.DataFrame
        One row per (``n_available``, ``method``, ``parameter``), holdouts first, then k-fold
        by *k*, then leave-one-out (whose ``parameter`` is *n*, its number of folds): columns
        ``n_available``, ``method``, ``parameter``, ``n_train`` (training items per fit:
        :math:`n - \lceil f n \rceil` for a holdout, :math:`n(k-1)/k` for k-fold),
        ``n_samples``, ``mean`` (of the estimates), ``bias``, ``sd`` (ddof=1; 0 for one
        sample) and ``rmse``.

    References
    ----------
    Kohavi, R. (1995). A study of cross-validation and bootstrap for accuracy estimation and
    model selection. IJCAI 1995, 1137–1143.

    Examples
    --------
    >>> table = pd.DataFrame({
    ...     "n_available": 100, "repeat": [0, 0, 0, 1, 1, 1],
    ...     "method": ["truth", "holdout", "k-fold"] * 2,
    ...     "parameter": [np.nan, 0.5, 10, np.nan, 0.5, 10],
    ...     "estimate": [0.80, 0.70, 0.78, 0.90, 0.86, 0.88]})
    >>> summary = estimation_summary(table)
    >>> summary[["method", "parameter", "n_train", "bias", "rmse"]].round(3)
        method  parameter  n_train  bias   rmse
    0  holdout        0.5     50.0 -0.07  0.076
    1   k-fold       10.0     90.0 -0.02  0.020
    """
    table = _check_estimates(estimates)
    truth = table[table["method"] == "truth"].set_index(["n_available", "repeat"])["estimate"]
    rows = table[table["method"] != "truth"]
    keys = pd.MultiIndex.from_arrays([rows["n_available"], rows["repeat"]])
    missing = ~keys.isin(truth.index)
    if missing.any():
        first = rows[missing].iloc[0]
        raise ValueError(f"estimates has {first['method']} rows for "
                         f"n_available={first['n_available']} without the truth of their "
                         "sample")
    error = rows["estimate"].to_numpy() - truth.loc[keys].to_numpy()
    n = rows["n_available"].to_numpy(np.float64)
    parameter = rows["parameter"].to_numpy(np.float64)
    loo = (rows["method"] == "leave-one-out").to_numpy()
    parameter = np.where(loo, n, parameter)
    frame = pd.DataFrame({
        "n_available": rows["n_available"].to_numpy(), "method": rows["method"].to_numpy(),
        "parameter": parameter, "estimate": rows["estimate"].to_numpy(), "error": error,
        "square": error**2})
    order = {"holdout": 0, "k-fold": 1, "leave-one-out": 2}
    grouped = frame.groupby(["n_available", "method", "parameter"], sort=False)
    summary = grouped.agg(n_samples=("error", "size"), mean=("estimate", "mean"),
                          bias=("error", "mean"), sd=("error", "std"),
                          mean_square=("square", "mean")).reset_index()
    summary["sd"] = summary["sd"].fillna(0.0)
    summary["rmse"] = np.sqrt(summary.pop("mean_square"))
    size = summary["n_available"].to_numpy(np.float64)
    value = summary["parameter"].to_numpy(np.float64)
    holdout = (summary["method"] == "holdout").to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        summary.insert(3, "n_train", np.where(holdout, size - np.ceil(value * size - 1e-9),
                                              size * (value - 1) / value))
    summary["rank"] = summary["method"].map(order)
    summary = summary.sort_values(["n_available", "rank", "parameter"], kind="stable")
    return summary.drop(columns="rank").reset_index(drop=True)
