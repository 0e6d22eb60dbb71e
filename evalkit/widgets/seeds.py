"""The seeds explorer: runs per model and the true difference against Welch's p and power."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_scalar
from ..plots import OKABE_ITO
from ..stats import compare_systems, t_test_power
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

#: The largest number of runs the power search and the power curve look at.
MAX_RUNS = 1000


@keyword_options
class SeedsModel(SettingsModel):
    r"""Two models trained ``n_runs`` times each, whose true means differ by ``effect_size``
    seed-to-seed standard deviations.

    One simulated experiment draws ``n_runs`` normal scores per model (SD 1, so the true
    Cohen's d is ``effect_size``) and compares them with Welch's test and Cohen's d through
    :func:`evalkit.compare_systems` (``paired=False``). The power, the chance that such an
    experiment finds the difference at level ``alpha``, comes from
    :func:`evalkit.t_test_power` (Student's test; Welch's is a little lower), and so does the
    number of runs per model that 80% power needs.

    This is the state behind :class:`evalkit.widgets.SeedsExplorer`.

    Parameters
    ----------
    n_runs : int, default 5
        Runs (seeds) per model, at least 2.
    effect_size : float, default 1.0
        The true d, in [0, 5].
    alpha : float, default 0.05
    seed : int, default 0

    Examples
    --------
    >>> model = SeedsModel(n_runs=5, effect_size=0.8)
    >>> round(model.summary()["power"], 3), model.summary()["runs_for_80_percent_power"]
    (0.201, 26)
    """

    def __init__(self, *, n_runs: int = 5, effect_size: float = 1.0, alpha: float = 0.05,
                 seed: int = 0) -> None:
        self.n_runs, self.effect_size, self.alpha, self.seed = 5, 1.0, 0.05, 0
        self.set(n_runs=n_runs, effect_size=effect_size, alpha=alpha, seed=seed)

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "n_runs": lambda v: check_scalar(v, "n_runs", kind="int", low=2, high=MAX_RUNS),
            "effect_size": lambda v: check_scalar(v, "effect_size", low=0.0, high=5.0),
            "alpha": lambda v: check_scalar(v, "alpha", low=0, high=1, low_inclusive=False,
                                            high_inclusive=False),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def runs(self) -> tuple[np.ndarray, np.ndarray]:
        """The simulated scores of model A (better by ``effect_size``) and model B."""
        noise = np.random.default_rng(self.seed).standard_normal((2, self.n_runs))
        return noise[0] + self.effect_size, noise[1]

    def power_curve(self, run_counts: Any) -> np.ndarray:
        """The power at each number of runs per model."""
        return np.array([t_test_power(self.effect_size, int(n), alpha=self.alpha)
                         for n in run_counts])

    def _runs_for_power(self, target: float = 0.8) -> int | None:
        """The fewest runs per model with power >= target (bisection: power grows with n)."""
        if t_test_power(self.effect_size, MAX_RUNS, alpha=self.alpha) < target:
            return None
        low, high = 2, MAX_RUNS
        while low < high:
            middle = (low + high) // 2
            if t_test_power(self.effect_size, middle, alpha=self.alpha) >= target:
                high = middle
            else:
                low = middle + 1
        return low

    def summary(self) -> dict[str, Any]:
        """The numbers the explorer shows.

        Keys: ``n_runs``, ``effect_size``, ``alpha``, ``power``, ``runs_for_80_percent_power``
        (None when more than 1,000 would be needed), and for the one simulated experiment
        ``difference``, ``observed_d``, ``effect_size_label`` and ``pvalue`` (Welch).
        """
        a, b = self.runs()
        result = compare_systems(a, b, paired=False, test="t").iloc[0]
        return {
            "n_runs": int(self.n_runs),
            "effect_size": float(self.effect_size),
            "alpha": float(self.alpha),
            "power": t_test_power(self.effect_size, self.n_runs, alpha=self.alpha),
            "runs_for_80_percent_power": self._runs_for_power(),
            "difference": float(result["difference"]),
            "observed_d": float(result["cohens_d"]),
            "effect_size_label": str(result["effect_size_label"]),
            "pvalue": float(result["pvalue"]),
        }


@keyword_options
class SeedsExplorer(_Explorer):
    """What can n runs per model tell? Welch's p, Cohen's d and the power of the comparison.

    Controls: ``n_runs``, ``effect_size`` (the true d) and ``seed`` (another experiment).
    Shows one simulated experiment's p and d beside the power, the runs, and the power curve.

    Examples
    --------
    >>> explorer = SeedsExplorer(plot=False)
    >>> explorer.controls["n_runs"].value = 20
    >>> explorer.model.n_runs
    20
    """

    def __init__(self, model: SeedsModel | None = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or SeedsModel()
        style = {"description_width": "140px"}
        layout = widgets.Layout(width="520px")
        controls = {
            "n_runs": widgets.IntSlider(value=self.model.n_runs, min=2,
                                        max=max(50, self.model.n_runs),
                                        description="runs per model", style=style,
                                        layout=layout, continuous_update=False),
            "effect_size": widgets.FloatSlider(value=self.model.effect_size, min=0.0,
                                               max=max(3.0, self.model.effect_size), step=0.1,
                                               description="true d", style=style,
                                               layout=layout, continuous_update=False),
            "seed": widgets.IntSlider(value=self.model.seed, min=0,
                                      max=max(20, self.model.seed),
                                      description="experiment (seed)", style=style,
                                      layout=layout, continuous_update=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        needed = s["runs_for_80_percent_power"]
        rows = [
            ("runs per model", str(s["n_runs"])),
            ("true d", _format(s["effect_size"], 2)),
            (f"power (alpha = {s['alpha']:g})", f"{s['power']:.1%}"),
            ("runs for 80% power", "over 1000" if needed is None else str(needed)),
            ("this experiment: difference", _format(s["difference"], 2)),
            ("this experiment: Cohen's d", f"{s['observed_d']:.2f} ({s['effect_size_label']})"),
            ("this experiment: Welch p", f"{s['pvalue']:.3g}"),
        ]
        return _table(rows, "Two models, n seeds each")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        a, b = self.model.runs()
        figure, (left, right) = plt.subplots(1, 2, figsize=(8.5, 3.2))
        left.plot(np.zeros(len(a)), a, "o", alpha=0.6, label="model A")
        left.plot(np.ones(len(b)), b, "s", alpha=0.6, label="model B")
        left.set(xticks=[0, 1], xticklabels=["A", "B"], xlim=(-0.5, 1.5),
                 title="this experiment's runs", ylabel="score (seed SDs)")
        counts = np.arange(2, 51)
        right.plot(counts, self.model.power_curve(counts), "-")
        right.plot([self.model.n_runs], [self.model.summary()["power"]], "o",
                   color=OKABE_ITO["vermillion"])
        right.axhline(0.8, color="0.6", ls=":")
        right.set(title=f"power at true d = {self.model.effect_size:g}",
                  xlabel="runs per model", ylabel="power", ylim=(0, 1.02))
        figure.tight_layout()
        return figure
