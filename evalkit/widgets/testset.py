"""The test-set explorer: how much a measured accuracy varies with the size of the test set."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import check_option, check_scalar
from ..stats import (
    CI_METHODS,
    interval_coverage,
    proportion_ci,
    proportion_se,
    simulate_test_accuracies,
)
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

#: Test-set sizes offered by the explorer, from tiny to large.
TEST_SET_SIZES = (10, 20, 30, 50, 100, 200, 300, 500, 1000, 2000, 5000, 10000)


@keyword_options
@dataclass(kw_only=True)
class TestSetModel(SettingsModel):
    """Simulate measuring one classifier's accuracy on many independent test sets.

    The classifier's true accuracy is ``true_accuracy``. Each simulated test set has
    ``n_test`` items, each answered correctly with that probability, so the measured accuracy
    varies from test set to test set. :meth:`summary` reports that spread and how often the
    confidence interval computed from a single test set contains the true accuracy.

    This is the state behind :class:`evalkit.widgets.TestSetExplorer`.

    Examples
    --------
    >>> model = TestSetModel(n_test=100, true_accuracy=0.8, seed=0)
    >>> summary = model.summary()
    >>> round(summary["sd_theory"], 3)
    0.04
    >>> 0.93 < summary["coverage"] < 0.97
    True
    """

    __test__ = False  # not a pytest test class, despite its name

    n_test: int = 100
    true_accuracy: float = 0.8
    confidence: float = 0.95
    method: str = "wilson"
    n_repeats: int = 5000
    seed: int = 0
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.set(**{name: getattr(self, name) for name in self.SETTINGS})

    SETTINGS = ("n_test", "true_accuracy", "confidence", "method", "n_repeats", "seed")

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "n_test": lambda v: check_scalar(v, "n_test", kind="int", low=1),
            "true_accuracy": lambda v: check_scalar(v, "true_accuracy", low=0.0, high=1.0),
            "confidence": lambda v: check_scalar(v, "confidence", low=0.0, high=1.0,
                                                 low_inclusive=False, high_inclusive=False),
            "method": lambda v: check_option(v, "method", CI_METHODS),
            "n_repeats": lambda v: check_scalar(v, "n_repeats", kind="int", low=1),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def simulate(self) -> np.ndarray:
        """Measured accuracy on each of ``n_repeats`` simulated test sets."""
        return self._correct() / self.n_test

    def _correct(self) -> np.ndarray:
        key = (self.n_test, self.true_accuracy, self.n_repeats, self.seed)
        if self._cache.get("key") != key:
            measured = simulate_test_accuracies(self.n_test, self.true_accuracy,
                                                n_repeats=self.n_repeats, seed=self.seed)
            self._cache = {"key": key,
                           "correct": np.rint(measured * self.n_test).astype(np.int64)}
        return self._cache["correct"]

    def summary(self) -> dict[str, float]:
        """The numbers the explorer shows.

        Keys: ``true_accuracy``, ``n_test``, ``mean_measured`` and ``sd_measured`` (over the
        simulated test sets), ``sd_theory`` (:math:`\\sqrt{p(1-p)/n}`, from
        :func:`evalkit.proportion_se`), ``middle_low`` and
        ``middle_high`` (bounds of the middle ``confidence`` share of the measured
        accuracies), ``one_test_set`` (the first test set's accuracy), ``ci_low`` and
        ``ci_high`` (the interval computed from that test set alone: what a real experiment
        sees) and ``coverage`` (the share of test sets whose interval contains the true
        accuracy).
        """
        correct = self._correct()
        measured = correct / self.n_test
        tail = (1.0 - self.confidence) / 2.0
        low, high = proportion_ci(correct, self.n_test, confidence=self.confidence,
                                  method=self.method)
        covered = (low <= self.true_accuracy) & (self.true_accuracy <= high)
        p = self.true_accuracy
        return {
            "true_accuracy": float(p),
            "n_test": int(self.n_test),
            "mean_measured": float(measured.mean()),
            "sd_measured": float(measured.std(ddof=1)) if len(measured) > 1 else 0.0,
            "sd_theory": proportion_se(p, self.n_test),
            "middle_low": float(np.quantile(measured, tail)),
            "middle_high": float(np.quantile(measured, 1.0 - tail)),
            "one_test_set": float(measured[0]),
            "ci_low": float(low[0]),
            "ci_high": float(high[0]),
            "coverage": float(covered.mean()),
            "coverage_exact": interval_coverage(self.n_test, p, method=self.method,
                                                confidence=self.confidence),
        }


@keyword_options
class TestSetExplorer(_Explorer):
    """How much does a measured accuracy vary with the size of the test set?

    Controls: ``n_test`` (test-set size), ``true_accuracy``, ``confidence`` and ``method``
    (the interval). Shows the spread of accuracies measured on many simulated test sets and
    the interval that a single test set would report.

    Examples
    --------
    >>> explorer = TestSetExplorer(plot=False)
    >>> explorer.controls["n_test"].value = 1000
    >>> explorer.model.n_test
    1000
    """

    __test__ = False  # not a pytest test class, despite its name

    def __init__(self, model: TestSetModel | None = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or TestSetModel()
        sizes = sorted(set(TEST_SET_SIZES) | {self.model.n_test})
        style = {"description_width": "140px"}
        layout = widgets.Layout(width="520px")
        controls = {
            "n_test": widgets.SelectionSlider(options=sizes, value=self.model.n_test,
                                              description="test-set size", style=style,
                                              layout=layout, continuous_update=False),
            "true_accuracy": widgets.FloatSlider(value=self.model.true_accuracy, min=0.5,
                                                 max=0.99, step=0.01,
                                                 description="true accuracy", style=style,
                                                 layout=layout, continuous_update=False),
            "confidence": widgets.SelectionSlider(options=[0.8, 0.9, 0.95, 0.99],
                                                  value=self.model.confidence,
                                                  description="confidence level", style=style,
                                                  layout=layout, continuous_update=False),
            "method": widgets.ToggleButtons(options=["wilson", "normal", "exact"],
                                            value=self.model.method, description="interval",
                                            style=style),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        share = f"{self.model.confidence:.0%}"
        rows = [
            ("true accuracy", _format(s["true_accuracy"], 2)),
            ("test-set size", str(s["n_test"])),
            ("mean of measured accuracies", _format(s["mean_measured"])),
            ("spread (SD) of measured accuracies", _format(s["sd_measured"])),
            ("SD in theory, sqrt(p(1-p)/n)", _format(s["sd_theory"])),
            (f"middle {share} of measured accuracies",
             f"{_format(s['middle_low'])} – {_format(s['middle_high'])}"),
            ("one test set measured", _format(s["one_test_set"])),
            (f"its {share} {self.model.method} interval",
             f"{_format(s['ci_low'])} – {_format(s['ci_high'])}"),
            ("intervals containing the truth", f"{s['coverage']:.1%}"),
            ("exact coverage of the method", f"{s['coverage_exact']:.1%}"),
        ]
        return _table(rows, f"{self.model.n_repeats} simulated test sets")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import plot_accuracy_spread

        s = self.model.summary()
        figure, ax = plt.subplots(figsize=(6.5, 3.4))
        plot_accuracy_spread(self.model.simulate(), self.model.true_accuracy,
                             interval=(s["ci_low"], s["ci_high"]), ax=ax)
        ax.set_xlim(max(0.0, self.model.true_accuracy - 0.35),
                    min(1.0, self.model.true_accuracy + 0.25))
        figure.tight_layout()
        return figure
