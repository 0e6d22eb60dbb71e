"""The Brier explorer: make a binary forecaster sharper, blunter or biased and watch the terms
of the Brier score's decomposition (reliability, resolution, uncertainty) move, or not."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_labels, check_scalar
from ..calibration import brier_decomposition, temperature_scale
from ..plots import OKABE_ITO
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

#: Where the explorer's temperature and odds-factor sliders start and stop.
TEMPERATURE_RANGE = (0.2, 5.0)
ODDS_RANGE = (0.1, 10.0)

#: The terms of :func:`evalkit.brier_decomposition`, in the order of its result.
TERMS = ("brier", "reliability", "resolution", "uncertainty", "within_bin_variance",
         "within_bin_covariance")


@keyword_options
class BrierModel(SettingsModel):
    r"""A binary forecaster's probabilities, reshaped, and the decomposition of their Brier score.

    The state behind :class:`evalkit.widgets.BrierExplorer`. The forecasts :math:`f_i` of the
    positive class are changed in two ways before they are scored:

    - ``temperature`` *T* sharpens (*T* < 1) or blunts (*T* > 1) every forecast, through
      :func:`evalkit.temperature_scale`; the order of the forecasts never changes;
    - ``odds_factor`` *c* multiplies every forecast's odds, :math:`f / (1 - f)`, by *c*: a
      forecaster biased towards the positive class (*c* > 1) or away from it (*c* < 1), as if
      it had been told the wrong base rate (Bayes' rule with the prior odds times *c*).

    Every term comes from :func:`evalkit.brier_decomposition` (binary, one-column Brier score,
    equal-width bins): brier = reliability − resolution + uncertainty + within-bin variance −
    within-bin covariance. Uncertainty belongs to the outcomes and never moves.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The outcomes: ``pos_label`` for the positive class, anything else for the negative.
    y_score : array-like of shape (n_samples,)
        The forecast probability of the positive class, from 0 to 1.
    temperature : float, default 1.0
        *T* > 0 (1: the forecasts as they are).
    odds_factor : float, default 1.0
        *c* > 0 (1: no bias).
    n_bins : int, default 10
        Equal-width forecast bins of the decomposition.
    pos_label : int or str, default 1

    Examples
    --------
    >>> model = BrierModel([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.8], n_bins=5)
    >>> before = model.summary()
    >>> after = model.set(odds_factor=4.0).summary()
    >>> before["uncertainty"] == after["uncertainty"], after["reliability"] > before["reliability"]
    (True, True)
    """

    SETTINGS = ("temperature", "odds_factor", "n_bins")

    def __init__(self, y_true: Any, y_score: Any, *, temperature: float = 1.0,
                 odds_factor: float = 1.0, n_bins: int = 10, pos_label: Any = 1) -> None:
        self.y_true = check_labels(y_true, "y_true")
        # Validate once, through the decomposition: bad input fails with its own message.
        brier_decomposition(self.y_true, y_score, pos_label=pos_label)
        self.y_score = np.asarray(y_score, dtype=np.float64)
        if self.y_score.ndim != 1:
            raise ValueError("y_score must be a 1-D array of positive-class probabilities; "
                             f"got shape {self.y_score.shape}")
        self.pos_label = pos_label
        self.temperature, self.odds_factor, self.n_bins = 1.0, 1.0, 10
        self.set(temperature=temperature, odds_factor=odds_factor, n_bins=n_bins)

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "temperature": lambda v: check_scalar(v, "temperature", low=0,
                                                  low_inclusive=False),
            "odds_factor": lambda v: check_scalar(v, "odds_factor", low=0,
                                                  low_inclusive=False),
            "n_bins": lambda v: check_scalar(v, "n_bins", kind="int", low=1),
        }

    def forecasts(self) -> np.ndarray:
        """The forecasts at the current temperature and odds factor."""
        sharpened = temperature_scale(self.y_score, temperature=self.temperature)
        # Bayes' rule with the odds times c: weigh the positive column by c, renormalise.
        weighted = np.column_stack([1.0 - sharpened, sharpened * self.odds_factor])
        return weighted[:, 1] / weighted.sum(axis=1)

    def outcomes(self) -> np.ndarray:
        """1 where the outcome is the positive class, 0 elsewhere."""
        return (self.y_true == self.pos_label).astype(int)

    def summary(self) -> dict[str, float]:
        """Keys: ``temperature``, ``odds_factor``, ``n_bins``, the six terms of
        :func:`evalkit.brier_decomposition` (``brier``, ``reliability``, ``resolution``,
        ``uncertainty``, ``within_bin_variance``, ``within_bin_covariance``), and
        ``mean_forecast`` and ``base_rate`` (the share of positive outcomes)."""
        forecasts = self.forecasts()
        parts = brier_decomposition(self.y_true, forecasts, n_bins=self.n_bins,
                                    pos_label=self.pos_label)
        return {
            "temperature": float(self.temperature),
            "odds_factor": float(self.odds_factor),
            "n_bins": int(self.n_bins),
            **{name: float(value) for name, value in zip(TERMS, parts, strict=True)},
            "mean_forecast": float(forecasts.mean()),
            "base_rate": float(self.outcomes().mean()),
        }


@keyword_options
class BrierExplorer(_Explorer):
    """Sharpen, blunt or bias a binary forecaster and watch its Brier score's three terms.

    Controls, in this order: ``temperature`` (log scale, 0.2 to 5: sharper below 1, blunter
    above), ``odds_factor`` (log scale, 0.1 to 10: every forecast's odds times this factor, a
    bias towards or away from the positive class) and ``n_bins``. The summary shows the Brier
    score and its terms; the figure shows the forecasts of the positive and the negative
    cases, and the terms as bars. The state is a :class:`evalkit.widgets.BrierModel`.

    Examples
    --------
    >>> explorer = BrierExplorer(BrierModel([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.8]), plot=False)
    >>> explorer.controls["temperature"].value = 2.0
    >>> explorer.model.temperature
    2.0
    """

    def __init__(self, model: BrierModel, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model
        style = {"description_width": "150px"}
        layout = widgets.Layout(width="520px")
        slider = {"style": style, "layout": layout, "continuous_update": False}
        controls = {
            "temperature": widgets.FloatLogSlider(
                value=model.temperature, base=10, min=np.log10(TEMPERATURE_RANGE[0]),
                max=np.log10(TEMPERATURE_RANGE[1]), step=0.05,
                description="temperature T", **slider),
            "odds_factor": widgets.FloatLogSlider(
                value=model.odds_factor, base=10, min=np.log10(ODDS_RANGE[0]),
                max=np.log10(ODDS_RANGE[1]), step=0.05, description="bias: odds × c",
                **slider),
            "n_bins": widgets.IntSlider(value=model.n_bins, min=2, max=30,
                                        description="bins", **slider),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [
            ("Brier score (one column)", _format(s["brier"], 4)),
            ("reliability (lower is better)", _format(s["reliability"], 4)),
            ("resolution (higher is better)", _format(s["resolution"], 4)),
            ("uncertainty (the data)", _format(s["uncertainty"], 4)),
            ("within-bin variance", _format(s["within_bin_variance"], 4)),
            ("within-bin covariance", _format(s["within_bin_covariance"], 4)),
            ("mean forecast", _format(s["mean_forecast"], 3)),
            ("share of positives", _format(s["base_rate"], 3)),
        ]
        return _table(rows, f"Brier decomposition, {s['n_bins']} bins")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        s = self.model.summary()
        forecasts, outcomes = self.model.forecasts(), self.model.outcomes()
        figure, (left, right) = plt.subplots(1, 2, figsize=(9.5, 3.6))
        edges = np.linspace(0, 1, self.model.n_bins + 1)
        left.hist([forecasts[outcomes == 1], forecasts[outcomes == 0]], bins=edges,
                  stacked=True, color=[OKABE_ITO["vermillion"], OKABE_ITO["blue"]],
                  hatch="//", edgecolor="white", label=["positive", "negative"])
        left.set(xlabel="forecast probability of the positive class", ylabel="cases",
                 title="Forecasts, by outcome")
        left.legend(fontsize=8)
        names = ["reliability", "resolution", "uncertainty", "brier"]
        right.barh(names, [s[name] for name in names],
                   color=[OKABE_ITO["vermillion"], OKABE_ITO["bluish green"], "#888888",
                          OKABE_ITO["blue"]])
        right.set(xlabel="value (one-column Brier scale)",
                  xlim=(0, max(0.5, 1.1 * max(s[name] for name in names))),
                  title="The terms of the Brier score")
        right.invert_yaxis()
        figure.tight_layout()
        return figure
