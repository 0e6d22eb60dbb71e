"""The power explorer: how the number of topics and the true effect shape the p-values."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_scalar
from ..plots import OKABE_ITO
from ..stats import simulate_paired_t_tests, t_test_power
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options, renamed_setting

#: Numbers of topics offered by the explorer's slider.
TOPIC_COUNTS = (5, 10, 20, 30, 40, 50, 75, 100, 150, 200, 300, 500)


@keyword_options
class PowerModel(SettingsModel):
    r"""Many simulated experiments comparing two systems with a paired t test.

    Each experiment draws ``n_topics`` per-topic differences :math:`d_i \sim N(\delta, 1)`, so
    ``effect_size`` :math:`\delta` is the true standardized effect (Cohen's :math:`d_z`;
    0: the null hypothesis holds), and runs the two-sided paired t test at level ``alpha``;
    both come from :func:`evalkit.simulate_paired_t_tests` (the observed :math:`d_z` and the
    p-value of each experiment). :meth:`summary`
    reports the share of experiments with :math:`p < \alpha` (the power, or the false-positive
    rate when :math:`\delta = 0`), the power the non-central t distribution predicts, and the
    effect the significant experiments report on average (larger than the truth when power is
    low: the "winner's curse").

    This is the state behind :class:`evalkit.widgets.PowerExplorer`.

    Parameters
    ----------
    n_topics : int, default 40
        Topics per experiment, at least 2.
    effect_size : float, default 0.4
        The true :math:`d_z`, in [-3, 3].
    alpha : float, default 0.05
        Significance level, in (0, 1).
    n_repeats : int, default 4000
        Simulated experiments.
    seed : int, default 0
    n_experiments : int, optional
        Deprecated name of ``n_repeats`` (one name for the number of simulated repetitions);
        it still works, also in :meth:`set` and as an attribute, with a DeprecationWarning,
        and will be removed in the next release.

    Examples
    --------
    >>> model = PowerModel(n_topics=40, effect_size=0.0, seed=0)
    >>> 0.04 < model.summary()["share_significant"] < 0.06
    True
    >>> round(model.set(effect_size=0.5).summary()["power_theory"], 3)
    0.869
    """

    SETTINGS = ("n_topics", "effect_size", "alpha", "n_repeats", "seed")
    RENAMED = {"n_experiments": "n_repeats"}

    def __init__(self, *, n_topics: int = 40, effect_size: float = 0.4, alpha: float = 0.05,
                 n_repeats: int = 4000, seed: int = 0, n_experiments: int | None = None
                 ) -> None:
        n_repeats = renamed_setting("PowerModel", "n_experiments", n_experiments, "n_repeats",
                                    n_repeats, 4000)
        self.n_topics, self.effect_size, self.alpha = 40, 0.4, 0.05
        self.n_repeats, self.seed = 4000, 0
        self._cache: dict[str, Any] = {}
        self.set(n_topics=n_topics, effect_size=effect_size, alpha=alpha,
                 n_repeats=n_repeats, seed=seed)

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "n_topics": lambda v: check_scalar(v, "n_topics", kind="int", low=2),
            "effect_size": lambda v: check_scalar(v, "effect_size", low=-3.0, high=3.0),
            "alpha": lambda v: check_scalar(v, "alpha", low=0, high=1, low_inclusive=False,
                                            high_inclusive=False),
            "n_repeats": lambda v: check_scalar(v, "n_repeats", kind="int", low=1),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def _experiments(self) -> tuple[np.ndarray, np.ndarray]:
        """(observed d_z, p-value) of every experiment, from
        :func:`evalkit.simulate_paired_t_tests`; the same seed draws the same noise, so
        moving the effect size shifts the same experiments."""
        key = (self.n_topics, self.effect_size, self.n_repeats, self.seed)
        if self._cache.get("key") != key:
            self._cache = {"key": key, "result": simulate_paired_t_tests(
                self.n_topics, self.effect_size, n_repeats=self.n_repeats, seed=self.seed)}
        result = self._cache["result"]
        return result.d_z, result.pvalue

    def pvalues(self) -> np.ndarray:
        """The p-value of each simulated experiment."""
        return self._experiments()[1]

    def summary(self) -> dict[str, float]:
        """The numbers the explorer shows.

        Keys: ``n_topics``, ``effect_size``, ``alpha``, ``share_significant`` (experiments
        with p < alpha), ``power_theory`` (from the non-central t distribution with
        ``n_topics - 1`` degrees of freedom and non-centrality :math:`\\delta\\sqrt n`; alpha
        itself when :math:`\\delta = 0`), ``median_pvalue``, ``mean_observed_effect`` (the
        mean observed :math:`d_z`) and ``mean_significant_effect`` (its mean over the
        significant experiments with the true effect's sign; NaN if there are none).
        """
        observed, pvalues = self._experiments()
        power = t_test_power(self.effect_size, self.n_topics, paired=True, alpha=self.alpha)
        significant = pvalues < self.alpha
        direction = 1.0 if self.effect_size >= 0 else -1.0
        winners = significant & (np.sign(observed) == direction)
        return {
            "n_topics": int(self.n_topics),
            "effect_size": float(self.effect_size),
            "alpha": float(self.alpha),
            "share_significant": float(significant.mean()),
            "power_theory": float(power),
            "median_pvalue": float(np.median(pvalues)),
            "mean_observed_effect": float(observed.mean()),
            "mean_significant_effect": (float(observed[winners].mean()) if winners.any()
                                        else float("nan")),
        }


@keyword_options
class PowerExplorer(_Explorer):
    """How do the number of topics and the true effect shape the p-values of a paired test?

    Controls: ``n_topics``, ``effect_size`` (the true :math:`d_z`) and ``alpha``. Shows the
    share of significant experiments beside the theoretical power, and the histogram of the
    p-values.

    Examples
    --------
    >>> explorer = PowerExplorer(plot=False)
    >>> explorer.controls["n_topics"].value = 100
    >>> explorer.model.n_topics
    100
    """

    def __init__(self, model: PowerModel | None = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or PowerModel()
        counts = sorted(set(TOPIC_COUNTS) | {self.model.n_topics})
        style = {"description_width": "140px"}
        layout = widgets.Layout(width="520px")
        controls = {
            "n_topics": widgets.SelectionSlider(options=counts, value=self.model.n_topics,
                                                description="topics", style=style,
                                                layout=layout, continuous_update=False),
            "effect_size": widgets.FloatSlider(value=self.model.effect_size, min=0.0, max=1.5,
                                               step=0.05, description="true effect d_z",
                                               style=style, layout=layout,
                                               continuous_update=False),
            "alpha": widgets.SelectionSlider(options=sorted({0.001, 0.01, 0.05, 0.1,
                                                             self.model.alpha}),
                                             value=self.model.alpha, description="alpha",
                                             style=style, layout=layout,
                                             continuous_update=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [
            ("topics", str(s["n_topics"])),
            ("true effect d_z", _format(s["effect_size"], 2)),
            ("alpha", f"{s['alpha']:g}"),
            ("share with p < alpha", f"{s['share_significant']:.1%}"),
            ("power in theory (non-central t)", f"{s['power_theory']:.1%}"),
            ("median p-value", _format(s["median_pvalue"])),
            ("mean observed d_z", _format(s["mean_observed_effect"])),
            ("mean d_z of the significant ones", _format(s["mean_significant_effect"])),
        ]
        return _table(rows, f"{self.model.n_repeats} simulated experiments, paired t test")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        figure, ax = plt.subplots(figsize=(5.5, 3.2))
        ax.hist(self.model.pvalues(), bins=20, range=(0.0, 1.0), color="0.6")
        ax.axvline(self.model.alpha, color=OKABE_ITO["vermillion"],
                   label=f"alpha = {self.model.alpha:g}")
        ax.set(title="p-values of the simulated experiments", xlabel="p-value",
               ylabel="experiments")
        ax.legend()
        figure.tight_layout()
        return figure
