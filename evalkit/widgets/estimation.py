"""The estimation explorer: how far holdout and k-fold estimates of accuracy land from the
accuracy the model really has, as the number of folds and the test fraction change.

Many small "available" samples are drawn from a larger data set; on each, the holdout and
k-fold estimates are computed, and the model trained on the whole sample is scored on the
untouched rest of the data (the truth). :func:`simulate_estimates` does that once, with any
scikit-learn classifier (hundreds of fits: slow enough to precompute, see
``data/estimation/``); :class:`EstimationModel` reads the resulting table and summarises the
errors for one setting at a time, so a slider move costs a look-up, not a refit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_scalar

# The simulation and its summary are public maths (evalkit.stats); they are re-exported here
# so that ``from evalkit.widgets.estimation import simulate_estimates`` keeps working.
from ..stats import ESTIMATION_COLUMNS as COLUMNS
from ..stats import (  # noqa: F401 (available_sample, simulate_estimates: re-exported)
    available_sample,
    estimation_summary,
    simulate_estimates,
)
from ._base import _Explorer, _format, _grid
from ._state import SettingsModel, keyword_options


@keyword_options
class EstimationModel(SettingsModel):
    """The errors of holdout, k-fold and leave-one-out estimates, one setting at a time.

    Parameters
    ----------
    estimates : DataFrame
        A table as :func:`simulate_estimates` returns (or as read back from its CSV file):
        columns ``n_available``, ``repeat``, ``method``, ``parameter``, ``estimate``.
    n_available : int, optional
        The size of the available samples to look at; default: 100 if the table has it,
        else its smallest size.
    k : int, default 10
        The number of folds; one of the table's k-fold values for that size.
    test_fraction : float, default 1/3
        The holdout test fraction; one of the table's values (matched to within 1e-9).

    The truth of a sample is the accuracy, on the untouched rest of the data, of the model
    trained on the whole sample. For each method :meth:`summary` reports the mean estimate,
    the **bias** (mean of estimate − truth), the **SD** of estimate − truth (ddof=1) and the
    **RMSE**, the root mean square of estimate − truth (RMSE² = bias² + SD² · (R−1)/R).

    This is the state behind :class:`evalkit.widgets.EstimationExplorer`.

    Examples
    --------
    >>> table = pd.DataFrame({
    ...     "n_available": 100, "repeat": [0, 0, 0, 1, 1, 1],
    ...     "method": ["truth", "holdout", "k-fold"] * 2,
    ...     "parameter": [np.nan, 0.5, 10, np.nan, 0.5, 10],
    ...     "estimate": [0.80, 0.70, 0.78, 0.90, 0.86, 0.88]})
    >>> summary = EstimationModel(table, k=10, test_fraction=0.5).summary()
    >>> round(summary["holdout_bias"], 3), round(summary["kfold_bias"], 3)
    (-0.07, -0.02)
    """

    SETTINGS = ("n_available", "k", "test_fraction")

    def __init__(self, estimates: Any, *, n_available: int | None = None, k: int = 10,
                 test_fraction: float = 1 / 3) -> None:
        self._summary = estimation_summary(estimates)  # checks the table, or raises
        self.estimates = estimates.loc[:, list(COLUMNS)].reset_index(drop=True)
        self.estimates["estimate"] = self.estimates["estimate"].astype(np.float64)
        self._groups: dict[tuple[int, str, float], tuple[np.ndarray, np.ndarray]] = {}
        truth = self.estimates[self.estimates["method"] == "truth"].set_index(
            ["n_available", "repeat"])["estimate"]
        for (size, method, parameter), group in self.estimates[
                self.estimates["method"] != "truth"].groupby(
                    ["n_available", "method", self.estimates["parameter"].fillna(0.0)]):
            keys = pd.MultiIndex.from_arrays([group["n_available"], group["repeat"]])
            self._groups[(int(size), str(method), float(parameter))] = (
                group["estimate"].to_numpy(), truth.loc[keys].to_numpy())
        self._truth = {int(size): group.to_numpy()
                       for size, group in truth.groupby(level="n_available")}
        sizes = self.sizes()
        self.n_available = 100 if 100 in sizes else sizes[0]
        self.k, self.test_fraction = 0, 0.0
        self.set(n_available=self.n_available if n_available is None else n_available,
                 k=k, test_fraction=test_fraction)

    def sizes(self) -> list[int]:
        """The sizes of available sample in the table."""
        return sorted(self._truth)

    def k_values(self, n_available: int | None = None) -> list[int]:
        """The numbers of folds computed for samples of ``n_available`` (default: current)."""
        size = self.n_available if n_available is None else n_available
        return sorted(int(p) for s, m, p in self._groups if s == size and m == "k-fold")

    def test_fractions(self, n_available: int | None = None) -> list[float]:
        """The holdout test fractions computed for samples of ``n_available``."""
        size = self.n_available if n_available is None else n_available
        return sorted(p for s, m, p in self._groups if s == size and m == "holdout")

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "n_available": lambda v: check_scalar(v, "n_available", kind="int", low=2),
            "k": lambda v: check_scalar(v, "k", kind="int", low=2),
            "test_fraction": lambda v: check_scalar(v, "test_fraction", low=0.0, high=1.0,
                                                    low_inclusive=False,
                                                    high_inclusive=False),
        }

    def _check_together(self, checked: dict[str, Any]) -> None:
        """Refuse a combination the table does not hold (``k`` and ``test_fraction`` computed
        for that ``n_available``), and complete ``checked`` with the matched values."""
        size = checked.get("n_available", self.n_available)
        if size not in self._truth:
            raise ValueError(f"n_available must be one of the sizes in the estimates "
                             f"({', '.join(map(str, self.sizes()))}); got {size}")
        k = checked.get("k", self.k)
        if k not in self.k_values(size):
            raise ValueError(f"k must be one of the numbers of folds computed for "
                             f"n_available={size} ({', '.join(map(str, self.k_values(size)))})"
                             f"; got {k}")
        fraction = checked.get("test_fraction", self.test_fraction)
        matches = [f for f in self.test_fractions(size) if abs(f - fraction) <= 1e-9]
        if not matches:
            shown = ", ".join(f"{f:.4g}" for f in self.test_fractions(size))
            raise ValueError(f"test_fraction must be one of the fractions computed for "
                             f"n_available={size} ({shown}); got {fraction!r}")
        checked.update(n_available=size, k=k, test_fraction=matches[0])

    def errors(self, method: str, parameter: float | None = None) -> np.ndarray:
        """Estimate − truth of every sample of the current size for one method.

        ``method`` is ``"holdout"`` (``parameter``: a test fraction, default the current),
        ``"k-fold"`` (``parameter``: k, default the current) or ``"leave-one-out"``.
        """
        estimate, truth = self._pair(method, parameter)
        return estimate - truth

    def _pair(self, method: str, parameter: float | None) -> tuple[np.ndarray, np.ndarray]:
        if method == "holdout":
            value = self.test_fraction if parameter is None else parameter
            value = next((f for f in self.test_fractions() if abs(f - value) <= 1e-9), value)
        elif method == "k-fold":
            value = float(self.k if parameter is None else parameter)
        elif method == "leave-one-out":
            value = 0.0
        else:
            raise ValueError(f"method must be one of 'holdout', 'k-fold', 'leave-one-out'; "
                             f"got {method!r}")
        key = (self.n_available, method, float(value))
        if key not in self._groups:
            raise ValueError(f"the estimates hold no {method} rows with parameter {value} "
                             f"for n_available={self.n_available}")
        return self._groups[key]

    def has_leave_one_out(self) -> bool:
        """Whether the table has leave-one-out estimates for the current size."""
        return (self.n_available, "leave-one-out", 0.0) in self._groups

    def _row(self, method: str, parameter: float | None) -> dict[str, float]:
        """The public summary's row (mean, bias, sd, rmse) of one method at the current size."""
        self._pair(method, parameter)  # a clear error for a setting the table lacks
        if method == "holdout":
            value = self.test_fraction if parameter is None else parameter
        elif method == "k-fold":
            value = self.k if parameter is None else parameter
        else:
            value = self.n_available
        rows = self._summary[(self._summary["n_available"] == self.n_available)
                             & (self._summary["method"] == method)
                             & np.isclose(self._summary["parameter"], float(value))]
        row = rows.iloc[0]
        return {name: float(row[name]) for name in ("mean", "bias", "sd", "rmse")}

    def summary(self) -> dict[str, float]:
        """The numbers the explorer shows.

        Keys: ``n_available``, ``n_repeats`` (samples of that size), ``k``,
        ``test_fraction``; ``n_test_holdout`` (``ceil(f n)``, as scikit-learn's
        ``train_test_split``) and ``n_train_holdout``; ``n_train_kfold`` (the mean training
        size, n(k − 1)/k); ``truth_mean`` and ``truth_sd``; and for each of ``holdout``,
        ``kfold`` and ``loo`` (leave-one-out; NaN when the table has none): ``_mean``,
        ``_bias``, ``_sd`` and ``_rmse``, as described in the class docstring.
        """
        size = self.n_available
        truth = self._truth[size]
        n_test = math.ceil(self.test_fraction * size)
        result: dict[str, float] = {
            "n_available": size,
            "n_repeats": len(truth),
            "k": self.k,
            "test_fraction": self.test_fraction,
            "n_test_holdout": n_test,
            "n_train_holdout": size - n_test,
            "n_train_kfold": size * (self.k - 1) / self.k,
            "truth_mean": float(truth.mean()),
            "truth_sd": float(truth.std(ddof=1)) if len(truth) > 1 else 0.0,
        }
        parts = [("holdout", "holdout"), ("kfold", "k-fold")]
        if self.has_leave_one_out():
            parts.append(("loo", "leave-one-out"))
        else:
            result.update({f"loo_{name}": math.nan for name in ("mean", "bias", "sd", "rmse")})
        for prefix, method in parts:
            for name, value in self._row(method, None).items():
                result[f"{prefix}_{name}"] = value
        return result

    def table(self) -> pd.DataFrame:
        """Bias, SD and RMSE of every holdout fraction, every k and leave-one-out at the
        current size: one row per (method, parameter), with the mean training-set size (the
        current size's rows of :func:`evalkit.stats.estimation_summary`)."""
        rows = self._summary[self._summary["n_available"] == self.n_available]
        return rows[["method", "parameter", "n_train", "mean", "bias", "sd",
                     "rmse"]].reset_index(drop=True)


def _fraction_label(fraction: float) -> str:
    return "1/3" if abs(fraction - 1 / 3) < 1e-9 else f"{fraction:.0%}"


@keyword_options
class EstimationExplorer(_Explorer):
    """Move the number of folds, the holdout test fraction and the sample size.

    Controls: ``k`` (folds), ``test_fraction`` and ``n_available``. The summary shows, over
    all available samples of that size, the mean, bias, SD and RMSE of the holdout, k-fold
    and leave-one-out estimates against the accuracy on the untouched rest; the plot shows
    their errors and the RMSE of every setting against the training-set size.

    Examples
    --------
    >>> table = pd.DataFrame({
    ...     "n_available": 100, "repeat": [0, 0, 0, 0, 1, 1, 1, 1],
    ...     "method": ["truth", "holdout", "k-fold", "k-fold"] * 2,
    ...     "parameter": [np.nan, 0.5, 5, 10] * 2,
    ...     "estimate": [0.80, 0.70, 0.75, 0.78, 0.90, 0.86, 0.85, 0.88]})
    >>> explorer = EstimationExplorer(EstimationModel(table, test_fraction=0.5), plot=False)
    >>> explorer.controls["k"].value = 5
    >>> explorer.model.k
    5
    """

    def __init__(self, model: EstimationModel, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model
        style = {"description_width": "150px"}
        layout = widgets.Layout(width="520px")
        controls = {
            "k": widgets.SelectionSlider(options=model.k_values(), value=model.k,
                                         description="folds k", style=style, layout=layout,
                                         continuous_update=False),
            "test_fraction": widgets.SelectionSlider(
                options=[(_fraction_label(f), f) for f in model.test_fractions()],
                value=model.test_fraction, description="holdout test fraction",
                style=style, layout=layout, continuous_update=False),
        }
        if len(model.sizes()) > 1:
            controls["n_available"] = widgets.SelectionSlider(
                options=model.sizes(), value=model.n_available,
                description="available sample n", style=style, layout=layout,
                continuous_update=False)
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        n = s["n_available"]
        rows = [
            [f"holdout, test {_fraction_label(s['test_fraction'])}",
             f"{s['n_train_holdout']:.0f}", _format(s["holdout_mean"]),
             f"{s['holdout_bias']:+.3f}", _format(s["holdout_sd"]), _format(s["holdout_rmse"])],
            [f"{s['k']}-fold", f"{s['n_train_kfold']:.1f}", _format(s["kfold_mean"]),
             f"{s['kfold_bias']:+.3f}", _format(s["kfold_sd"]), _format(s["kfold_rmse"])],
        ]
        if not math.isnan(s["loo_mean"]):
            rows.append(["leave-one-out", f"{n - 1}", _format(s["loo_mean"]),
                         f"{s['loo_bias']:+.3f}", _format(s["loo_sd"]), _format(s["loo_rmse"])])
        rows.append(["truth (the rest)", f"{n}", _format(s["truth_mean"]), "", "", ""])
        return _grid(["method", "training items", "mean estimate", "bias", "SD", "RMSE"], rows,
                     f"{s['n_repeats']} available samples of {n} items; "
                     "errors against the accuracy on the untouched rest")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import OKABE_ITO, plot_estimation_errors

        model = self.model
        s = model.summary()
        errors = {f"holdout {_fraction_label(model.test_fraction)}": model.errors("holdout"),
                  f"{model.k}-fold": model.errors("k-fold")}
        if model.has_leave_one_out():
            errors["leave-one-out"] = model.errors("leave-one-out")
        figure, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6),
                                             gridspec_kw={"width_ratios": [1.25, 1]})
        plot_estimation_errors(errors, ax=left)
        table = model.table()
        for method, colour, marker in [("holdout", OKABE_ITO["orange"], "o"),
                                       ("k-fold", OKABE_ITO["blue"], "s")]:
            rows = table[table["method"] == method]
            right.plot(rows["n_train"], rows["rmse"], marker=marker, color=colour,
                       label=method)
        right.plot([s["n_train_holdout"]], [s["holdout_rmse"]], "o", markersize=12,
                   markerfacecolor="none", markeredgecolor=OKABE_ITO["orange"], markeredgewidth=2)
        right.plot([s["n_train_kfold"]], [s["kfold_rmse"]], "s", markersize=12,
                   markerfacecolor="none", markeredgecolor=OKABE_ITO["blue"], markeredgewidth=2)
        if model.has_leave_one_out():
            right.plot([s["n_available"] - 1], [s["loo_rmse"]], "^", color="#333333",
                       label="leave-one-out")
        right.set_xlabel("training items per fit")
        right.set_ylabel("RMSE against the truth")
        right.set_title("Every setting (circled: the current ones)")
        right.set_ylim(bottom=0)
        right.legend(fontsize=8)
        figure.tight_layout()
        return figure
