"""Precompute the estimation study of notebook 21 (about five minutes on one core).

Run ``.venv/bin/python data/estimation/make_estimates.py`` from the repository root (with
evalkit installed, or ``PYTHONPATH=.``). The
learner is 1-nearest-neighbour (scikit-learn's ``KNeighborsClassifier(n_neighbors=1)``) on
two of scikit-learn's bundled data sets, handwritten digits (1,797 images, 10 classes) and
Wisconsin breast cancer (569 tumours, 2 classes). Each repetition draws an "available"
sample with :func:`evalkit.stats.available_sample` (seed 0, so repetition *r*
of a size is the same sample in every file); the rest of the data set stays untouched and
gives the truth: the accuracy on it of the model trained on the whole available sample.

It writes three CSV files beside itself:

- ``explorer.csv``: :func:`~evalkit.stats.simulate_estimates` on digits for
  samples of 50, 100 and 200 items, 200 repetitions each (holdout at seven test fractions,
  k-fold for k = 2, 3, 5, 10, 20, leave-one-out, the truth): what the notebook's explorer
  reads. Columns ``n_available, repeat, method, parameter, estimate``.
- ``estimates.csv``: every estimation method of the notebook on 200 samples of 100 items
  of each data set. Columns ``dataset, repeat, method, estimate``. The holdout, k-fold and
  leave-one-out rows come from ``simulate_estimates`` (digits: the same rows as in
  ``explorer.csv``); the others are computed here on the same samples: repeated holdout,
  stratified 10-fold, and, from :func:`~evalkit.stats.bootstrap_632` (50 resamples seeded
  with the sample's split seed), resubstitution and the bootstrap (out-of-bag, .632 and
  .632+).
- ``leak.csv``: on the same 200 digit samples, 10-fold stratified cross-validation of
  "keep the 10 pixels with the highest ANOVA F, then 1-NN" done two ways: the pixels chosen
  once on the whole available sample (the leak) and chosen inside each training fold (a
  ``Pipeline``), with the truth of that pipeline. Columns ``repeat, leaky, pipeline,
  truth``.

Deterministic: run twice, same bytes (with the same versions of numpy and scikit-learn; these
files were made with numpy 2.4.6 and scikit-learn 1.9.1).
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.model_selection import ShuffleSplit, StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from threadpoolctl import threadpool_limits

from evalkit.stats import available_sample, bootstrap_632, simulate_estimates

HERE = Path(__file__).resolve().parent
SEED = 0
N_AVAILABLE = 100
N_REPEATS = 200  # samples of each size, in every file
EXPLORER_SIZES = (50, 100, 200)
N_BOOTSTRAP = 50  # bootstrap samples per available sample (as Efron & Tibshirani 1997)
N_REPEATED_HOLDOUT = 10
N_SELECTED = 10  # pixels kept in the leak study
DECIMALS = 10

DATASETS = {"digits": load_digits, "breast_cancer": load_breast_cancer}
LEARNER = KNeighborsClassifier(n_neighbors=1)


def accuracy_of_fit(estimator, X, y, train, test) -> float:
    fitted = clone(estimator).fit(X[train], y[train])
    return float(np.mean(fitted.predict(X[test]) == y[test]))


def extra_estimates(X, y, n_repeats) -> pd.DataFrame:
    rows = []
    for repeat in range(n_repeats):
        available, _, split_seed = available_sample(len(y), N_AVAILABLE, seed=SEED,
                                                    repeat=repeat)
        X_sample, y_sample = X[available], y[available]
        repeated = ShuffleSplit(N_REPEATED_HOLDOUT, test_size=1 / 3, random_state=split_seed)
        stratified = StratifiedKFold(10, shuffle=True, random_state=split_seed)
        found = {
            "repeated holdout (10 x 1/3)": np.mean(
                [accuracy_of_fit(LEARNER, X_sample, y_sample, train, test)
                 for train, test in repeated.split(X_sample)]),
            "stratified 10-fold": np.mean(
                [accuracy_of_fit(LEARNER, X_sample, y_sample, train, test)
                 for train, test in stratified.split(X_sample, y_sample)]),
        }
        bootstrap = bootstrap_632(LEARNER, X_sample, y_sample, n_resamples=N_BOOTSTRAP,
                                  seed=split_seed)
        found |= {"resubstitution": bootstrap.resubstitution,
                  "bootstrap out-of-bag": bootstrap.out_of_bag,
                  ".632 bootstrap": bootstrap.point632,
                  ".632+ bootstrap": bootstrap.point632_plus}
        rows.extend((repeat, method, float(value)) for method, value in found.items())
    return pd.DataFrame(rows, columns=["repeat", "method", "estimate"])


def main_study(explorer: pd.DataFrame) -> pd.DataFrame:
    names = {("holdout", 1 / 3): "holdout 1/3", ("k-fold", 2.0): "2-fold",
             ("k-fold", 5.0): "5-fold", ("k-fold", 10.0): "10-fold",
             ("leave-one-out", None): "leave-one-out", ("truth", None): "truth"}
    frames = []
    for dataset, loader in DATASETS.items():
        X, y = loader(return_X_y=True)
        if dataset == "digits":  # the explorer's samples of 100 items are these samples
            base = explorer[explorer["n_available"] == N_AVAILABLE]
        else:
            base = simulate_estimates(LEARNER, X, y, n_available=N_AVAILABLE,
                                      n_repeats=N_REPEATS, k_values=(2, 5, 10),
                                      test_fractions=(1 / 3,), seed=SEED)
        kept = []
        for (method, parameter), name in names.items():
            if parameter is None:
                chosen = base[base["method"] == method]
            else:
                chosen = base[(base["method"] == method)
                              & np.isclose(base["parameter"], parameter)]
            kept.append(chosen.assign(method=name)[["repeat", "method", "estimate"]])
        frame = pd.concat(kept + [extra_estimates(X, y, N_REPEATS)])
        frames.append(frame.assign(dataset=dataset))
    table = pd.concat(frames)[["dataset", "repeat", "method", "estimate"]]
    order = {name: i for i, name in enumerate(
        ["truth", "resubstitution", "holdout 1/3", "repeated holdout (10 x 1/3)", "2-fold",
         "5-fold", "10-fold", "stratified 10-fold", "leave-one-out", "bootstrap out-of-bag",
         ".632 bootstrap", ".632+ bootstrap"])}
    table = table.sort_values(["dataset", "repeat", "method"],
                              key=lambda column: column.map(order) if column.name == "method"
                              else column)
    return table.reset_index(drop=True)


def leak_study() -> pd.DataFrame:
    X, y = load_digits(return_X_y=True)
    pipeline = make_pipeline(SelectKBest(f_classif, k=N_SELECTED), LEARNER)
    rows = []
    for repeat in range(N_REPEATS):
        available, rest, split_seed = available_sample(len(y), N_AVAILABLE, seed=SEED,
                                                       repeat=repeat)
        X_sample, y_sample = X[available], y[available]
        folds = StratifiedKFold(10, shuffle=True, random_state=split_seed)
        # The leak: the pixels are chosen with every label of the sample, test folds too.
        chosen = SelectKBest(f_classif, k=N_SELECTED).fit(X_sample, y_sample)
        leaky = cross_val_score(LEARNER, chosen.transform(X_sample), y_sample, cv=folds).mean()
        honest = cross_val_score(pipeline, X_sample, y_sample, cv=folds).mean()
        truth = clone(pipeline).fit(X_sample, y_sample).score(X[rest], y[rest])
        rows.append((repeat, float(leaky), float(honest), float(truth)))
    return pd.DataFrame(rows, columns=["repeat", "leaky", "pipeline", "truth"])


def main() -> None:
    # Constant pixels (always 0 in a small sample) make f_classif divide by zero; such a
    # pixel gets F = NaN and is never among the 10 kept, which is what we want.
    warnings.filterwarnings("ignore", category=RuntimeWarning, module="sklearn")
    warnings.filterwarnings("ignore", message="Features .* are constant", category=UserWarning)
    # A class with fewer than 10 items in a sample of 100 digits cannot be in all ten
    # stratified folds; StratifiedKFold says so for most samples. It is expected here.
    warnings.filterwarnings("ignore", message="The least populated class", category=UserWarning)
    start = time.perf_counter()
    with threadpool_limits(1):
        X, y = load_digits(return_X_y=True)
        explorer = pd.concat([
            simulate_estimates(LEARNER, X, y, n_available=size, n_repeats=N_REPEATS,
                               seed=SEED)
            for size in EXPLORER_SIZES])
        explorer.to_csv(HERE / "explorer.csv", index=False, float_format=f"%.{DECIMALS}g")
        print(f"explorer.csv: {len(explorer)} rows ({time.perf_counter() - start:.0f} s)")
        estimates = main_study(explorer)
        estimates.to_csv(HERE / "estimates.csv", index=False, float_format=f"%.{DECIMALS}g")
        print(f"estimates.csv: {len(estimates)} rows ({time.perf_counter() - start:.0f} s)")
        leak = leak_study()
        leak.to_csv(HERE / "leak.csv", index=False, float_format=f"%.{DECIMALS}g")
        print(f"leak.csv: {len(leak)} rows ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
