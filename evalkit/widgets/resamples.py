"""The resamples explorer: a test of equal variance on R bootstrap-like values, as R grows."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_option, check_scalar
from ..plots import OKABE_ITO
from ..stats import VARIANCE_TESTS, equal_variance_test
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options, renamed_setting

#: Numbers of resamples offered by the explorer's slider.
RESAMPLE_COUNTS = (10, 30, 100, 300, 1000, 3000, 10000)


@keyword_options
class ResamplesModel(SettingsModel):
    r"""Many simulated comparisons of two variances from ``n_resamples`` values each.

    Each experiment draws ``n_resamples`` values of metric A with variance ``variance_ratio``
    and as many of metric B with variance 1 (normal, independent), as if they were the
    bootstrap values of two metrics, and tests equal variance with
    :func:`evalkit.equal_variance_test`. The true ratio stays fixed; only the number of
    values, which the analyst chooses, changes. :meth:`summary` reports the median p-value and
    the share of experiments with :math:`p < \alpha`: with enough resamples any ratio other
    than 1 becomes "significant" (Yacouby & Axman 2020 used 1,000).

    This is the state behind :class:`evalkit.widgets.ResamplesExplorer`.

    Parameters
    ----------
    n_resamples : int, default 100
        Values per metric, at least 3.
    variance_ratio : float, default 0.9
        The true var(A) / var(B), in (0, 4].
    test : {"f", "bartlett", "levene"}, default "levene"
    alpha : float, default 0.05
    n_repeats : int, default 200
        Simulated experiments.
    seed : int, default 0
    n_experiments : int, optional
        Deprecated name of ``n_repeats`` (one name for the number of simulated repetitions);
        it still works, also in :meth:`set` and as an attribute, with a DeprecationWarning,
        and will be removed in the next release.

    Examples
    --------
    >>> model = ResamplesModel(n_resamples=30, variance_ratio=0.9)
    >>> model.summary()["share_significant"] < 0.2
    True
    >>> model.set(n_resamples=10000).summary()["share_significant"] > 0.95
    True
    """

    RENAMED = {"n_experiments": "n_repeats"}

    def __init__(self, *, n_resamples: int = 100, variance_ratio: float = 0.9,
                 test: str = "levene", alpha: float = 0.05, n_repeats: int = 200,
                 seed: int = 0, n_experiments: int | None = None) -> None:
        n_repeats = renamed_setting("ResamplesModel", "n_experiments", n_experiments,
                                    "n_repeats", n_repeats, 200)
        self.n_resamples, self.variance_ratio, self.test = 100, 0.9, "levene"
        self.alpha, self.n_repeats, self.seed = 0.05, 200, 0
        self._cache: dict[str, Any] = {}
        self.set(n_resamples=n_resamples, variance_ratio=variance_ratio, test=test,
                 alpha=alpha, n_repeats=n_repeats, seed=seed)

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "n_resamples": lambda v: check_scalar(v, "n_resamples", kind="int", low=3),
            "variance_ratio": lambda v: check_scalar(v, "variance_ratio", low=0, high=4,
                                                     low_inclusive=False),
            "test": lambda v: check_option(v, "test", VARIANCE_TESTS),
            "alpha": lambda v: check_scalar(v, "alpha", low=0, high=1, low_inclusive=False,
                                            high_inclusive=False),
            "n_repeats": lambda v: check_scalar(v, "n_repeats", kind="int", low=1),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def _noise(self) -> np.ndarray:
        """Standard-normal values (experiments, 2, resamples), cached: moving the ratio or
        the test rescales the same draws."""
        key = (self.n_resamples, self.n_repeats, self.seed)
        if self._cache.get("key") != key:
            rng = np.random.default_rng(self.seed)
            self._cache = {"key": key, "noise": rng.standard_normal(
                (self.n_repeats, 2, self.n_resamples))}
        return self._cache["noise"]

    def results(self) -> list[Any]:
        """The :func:`evalkit.equal_variance_test` result of each experiment."""
        noise = self._noise()
        key = (self.n_resamples, self.n_repeats, self.seed, self.variance_ratio, self.test)
        if self._cache.get("results_key") != key:
            scale = np.sqrt(self.variance_ratio)
            self._cache["results"] = [equal_variance_test(scale * a, b, test=self.test)
                                      for a, b in noise]
            self._cache["results_key"] = key
        return self._cache["results"]

    def summary(self) -> dict[str, Any]:
        """The numbers the explorer shows.

        Keys: ``n_resamples``, ``variance_ratio`` (the truth), ``test``, ``alpha``,
        ``median_observed_ratio``, ``median_pvalue`` and ``share_significant`` (share of
        experiments with p < alpha).
        """
        results = self.results()
        pvalues = np.array([r.pvalue for r in results])
        ratios = np.array([r.variance_ratio for r in results])
        return {
            "n_resamples": int(self.n_resamples),
            "variance_ratio": float(self.variance_ratio),
            "test": self.test,
            "alpha": float(self.alpha),
            "median_observed_ratio": float(np.median(ratios)),
            "median_pvalue": float(np.median(pvalues)),
            "share_significant": float((pvalues < self.alpha).mean()),
        }


@keyword_options
class ResamplesExplorer(_Explorer):
    """Does a test of equal variance on bootstrap values say more about R than the metrics?

    Controls: ``n_resamples`` (R), ``variance_ratio`` (the true ratio) and ``test``. Shows
    the median p-value and the share of significant experiments, and the p-values' histogram.

    Examples
    --------
    >>> explorer = ResamplesExplorer(plot=False)
    >>> explorer.controls["n_resamples"].value = 1000
    >>> explorer.model.n_resamples
    1000
    """

    def __init__(self, model: ResamplesModel | None = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or ResamplesModel()
        counts = sorted(set(RESAMPLE_COUNTS) | {self.model.n_resamples})
        style = {"description_width": "140px"}
        layout = widgets.Layout(width="520px")
        controls = {
            "n_resamples": widgets.SelectionSlider(options=counts,
                                                   value=self.model.n_resamples,
                                                   description="resamples R", style=style,
                                                   layout=layout, continuous_update=False),
            "variance_ratio": widgets.FloatSlider(value=self.model.variance_ratio,
                                                  min=min(0.5, self.model.variance_ratio),
                                                  max=max(1.5, self.model.variance_ratio),
                                                  step=0.01,
                                                  description="true variance ratio",
                                                  style=style, layout=layout,
                                                  continuous_update=False),
            "test": widgets.Dropdown(options=list(VARIANCE_TESTS), value=self.model.test,
                                     description="test", style=style),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [
            ("resamples R", str(s["n_resamples"])),
            ("true variance ratio", _format(s["variance_ratio"], 2)),
            ("test", s["test"]),
            ("median observed ratio", _format(s["median_observed_ratio"])),
            ("median p-value", f"{s['median_pvalue']:.3g}"),
            (f"share with p < {s['alpha']:g}", f"{s['share_significant']:.1%}"),
        ]
        return _table(rows, f"{self.model.n_repeats} simulated comparisons")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        pvalues = np.array([r.pvalue for r in self.model.results()])
        figure, ax = plt.subplots(figsize=(5.5, 3.2))
        ax.hist(pvalues, bins=20, range=(0.0, 1.0), color="0.6")
        ax.axvline(self.model.alpha, color=OKABE_ITO["vermillion"],
                   label=f"alpha = {self.model.alpha:g}")
        ax.set(title=f"p-values, R = {self.model.n_resamples}", xlabel="p-value",
               ylabel="experiments")
        ax.legend()
        figure.tight_layout()
        return figure
