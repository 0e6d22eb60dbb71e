"""The peeking explorer: how much the best of many test scores overstates a model's accuracy."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import check_scalar
from ..plots import OKABE_ITO
from ..stats import proportion_ci, simulate_test_accuracies
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

#: Test-set sizes offered by the explorer (360 is notebook 01's digits test set).
PEEKING_TEST_SIZES = (50, 100, 200, 360, 500, 1000, 2000, 5000)


@keyword_options
@dataclass(kw_only=True)
class PeekingModel(SettingsModel):
    r"""Try ``n_models`` equally good models on one test set and report the best test score.

    Every model has the same true accuracy :math:`p`; each one's test score is an accuracy
    measured on ``n_test`` items (:func:`evalkit.simulate_test_accuracies`), so the scores
    differ by luck alone. *Peeking* keeps the model with the best test score and reports that
    score. Over ``n_repeats`` simulated experiments, :meth:`summary` reports how far the
    reported score lies above :math:`p` (the *optimism*), what the same winner scores on a
    fresh test set of the same size, and how often the 95 % Wilson interval
    (:func:`evalkit.proportion_ci`) of the reported score contains :math:`p`.

    The models' scores are drawn independently, as if they erred on different items. Real
    models trained on the same data err on many of the same items, so their scores move
    together and the optimism is smaller: read the simulation as the size of the effect when
    the candidates differ a lot. This is the state behind
    :class:`evalkit.widgets.PeekingExplorer`.

    References
    ----------
    Cawley, G. C. and Talbot, N. L. C. (2010). On over-fitting in model selection and
    subsequent selection bias in performance evaluation. Journal of Machine Learning Research
    11, 2079–2107.

    Examples
    --------
    >>> model = PeekingModel(n_models=1, n_test=360, true_accuracy=0.8)
    >>> abs(model.summary()["optimism"]) < 0.002
    True
    >>> model.set(n_models=30).summary()["optimism"] > 0.03
    True
    """

    n_models: int = 30
    n_test: int = 360
    true_accuracy: float = 0.8
    n_repeats: int = 2000
    seed: int = 0
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    SETTINGS = ("n_models", "n_test", "true_accuracy", "n_repeats", "seed")

    def __post_init__(self) -> None:
        self.set(**{name: getattr(self, name) for name in self.SETTINGS})

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "n_models": lambda v: check_scalar(v, "n_models", kind="int", low=1),
            "n_test": lambda v: check_scalar(v, "n_test", kind="int", low=1),
            "true_accuracy": lambda v: check_scalar(v, "true_accuracy", low=0.0, high=1.0),
            "n_repeats": lambda v: check_scalar(v, "n_repeats", kind="int", low=2),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def simulate(self) -> tuple[np.ndarray, np.ndarray]:
        """``(scores, fresh)``: every model's test score, shape (n_repeats, n_models), and the
        peeked winner's score on a fresh test set, shape (n_repeats,)."""
        key = tuple(getattr(self, name) for name in self.SETTINGS)
        if self._cache.get("key") != key:
            rng = np.random.default_rng(self.seed)
            scores = simulate_test_accuracies(self.n_test, self.true_accuracy,
                                              n_repeats=self.n_repeats * self.n_models, seed=rng)
            fresh = simulate_test_accuracies(self.n_test, self.true_accuracy,
                                             n_repeats=self.n_repeats, seed=rng)
            self._cache = {"key": key, "scores": scores.reshape(self.n_repeats, self.n_models),
                           "fresh": fresh}
        return self._cache["scores"], self._cache["fresh"]

    def summary(self) -> dict[str, float]:
        """The numbers the explorer shows.

        Keys: ``n_models``, ``n_test``, ``true_accuracy``; ``sd_one_score`` (the spread of one
        model's test score); ``mean_reported`` (the mean best test score), ``optimism``
        (``mean_reported`` minus the true accuracy) and ``optimism_in_sds`` (the same in
        units of ``sd_one_score``); ``share_above_truth`` (share of experiments whose reported
        score is above the truth); ``mean_fresh`` (the winner on a fresh test set);
        ``wilson_coverage`` (share of experiments whose 95 % Wilson interval around the
        reported score contains the truth).
        """
        scores, fresh = self.simulate()
        reported = scores.max(axis=1)
        spread = float(scores[:, 0].std(ddof=1))
        optimism = float(reported.mean()) - self.true_accuracy
        low, high = proportion_ci(np.rint(reported * self.n_test).astype(np.int64), self.n_test)
        covered = (low <= self.true_accuracy) & (self.true_accuracy <= high)
        return {
            "n_models": int(self.n_models),
            "n_test": int(self.n_test),
            "true_accuracy": float(self.true_accuracy),
            "sd_one_score": spread,
            "mean_reported": float(reported.mean()),
            "optimism": optimism,
            "optimism_in_sds": optimism / spread if spread > 0 else float("nan"),
            "share_above_truth": float(np.mean(reported > self.true_accuracy)),
            "mean_fresh": float(fresh.mean()),
            "wilson_coverage": float(covered.mean()),
        }


@keyword_options
class PeekingExplorer(_Explorer):
    """How much does reporting the best of many test scores overstate the accuracy?

    Controls: ``n_models`` (how many equally good models were tried on the test set),
    ``n_test`` and ``true_accuracy``. Shows one model's test score beside the best of them,
    the optimism, the winner on a fresh test set and how often the reported interval holds
    the truth.

    Examples
    --------
    >>> explorer = PeekingExplorer(plot=False)
    >>> explorer.controls["n_models"].value = 1
    >>> explorer.model.n_models
    1
    """

    def __init__(self, model: PeekingModel | None = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or PeekingModel()
        style = {"description_width": "160px"}
        layout = widgets.Layout(width="520px")
        sizes = sorted(set(PEEKING_TEST_SIZES) | {self.model.n_test})
        controls = {
            "n_models": widgets.IntSlider(value=self.model.n_models, min=1,
                                          max=max(100, self.model.n_models),
                                          description="models tried on test", style=style,
                                          layout=layout, continuous_update=False),
            "n_test": widgets.SelectionSlider(options=sizes, value=self.model.n_test,
                                              description="test-set size", style=style,
                                              layout=layout, continuous_update=False),
            "true_accuracy": widgets.FloatSlider(value=self.model.true_accuracy, min=0.5,
                                                 max=0.99, step=0.01,
                                                 description="true accuracy (all)",
                                                 style=style, layout=layout,
                                                 continuous_update=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [
            ("models tried on the test set", str(s["n_models"])),
            ("true accuracy of each", _format(s["true_accuracy"], 2)),
            ("SD of one model's test score", _format(s["sd_one_score"], 4)),
            ("best test score, reported (mean)", _format(s["mean_reported"], 4)),
            ("optimism (reported - true)", _format(s["optimism"], 4)),
            ("optimism in SDs of one score", _format(s["optimism_in_sds"], 1)),
            ("reported score above the truth", f"{s['share_above_truth']:.1%}"),
            ("the winner on a fresh test set", _format(s["mean_fresh"], 4)),
            ("95% Wilson intervals holding the truth", f"{s['wilson_coverage']:.1%}"),
        ]
        return _table(rows, f"{self.model.n_repeats} simulated experiments, "
                            f"{s['n_test']} test items")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        scores, _ = self.model.simulate()
        p = self.model.true_accuracy
        bins = np.arange(self.model.n_test + 2) / self.model.n_test - 0.5 / self.model.n_test
        figure, ax = plt.subplots(figsize=(6.5, 3.4))
        ax.hist(scores[:, 0], bins=bins, color=OKABE_ITO["sky blue"], alpha=0.8, label="one model")
        ax.hist(scores.max(axis=1), bins=bins, color=OKABE_ITO["orange"], alpha=0.7,
                histtype="step", linewidth=2,
                label=f"best of {self.model.n_models} (reported)")
        ax.axvline(p, color=OKABE_ITO["vermillion"], linewidth=2, label=f"true accuracy {p:.2f}")
        spread = max(scores[:, 0].std(), 1.0 / self.model.n_test)
        ax.set_xlim(max(0.0, p - 4 * spread), min(1.0, p + 6 * spread))
        ax.set_xlabel("test accuracy")
        ax.set_ylabel("simulated experiments")
        ax.legend(fontsize=8)
        figure.tight_layout()
        return figure
