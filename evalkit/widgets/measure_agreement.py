"""The measure-agreement explorer: how far apart systems are, against τ between two measures."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_scalar
from ..correlation import kendall_tau
from ..plots import OKABE_ITO
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets

#: Kendall's τ at or above this counts as "equivalent" rankings (Voorhees 2001).
EQUIVALENT = 0.9


@keyword_options
class MeasureAgreementModel(SettingsModel):
    r"""Two measures score the same systems on the same topics; how alike are their rankings?

    The state behind :class:`evalkit.widgets.MeasureAgreementExplorer`: a simulation, not
    data. ``n_systems`` systems have true qualities evenly spaced over a range of width
    ``spread``. On each of ``n_topics`` topics each of two measures (say MAP and nDCG@10) sees
    a system's quality plus per-topic noise, normal with standard deviation ``noise``; a
    system's score under a measure is its mean over the topics. The two measures score the
    *same* topics, so their noise on one (system, topic) is correlated, with correlation
    ``correlation`` (0: as if each measure had drawn its own topics). Both measures agree on
    the truth, so any disagreement between their system rankings is noise. The model
    repeats this ``n_repeats`` times (seeded) and reports Kendall's τ-b between the two
    rankings (:func:`evalkit.kendall_tau`): its mean, 5th and 95th percentiles, and the share
    of repeats at or above Voorhees's 0.9.

    .. math::

        s_{m,j} = q_j + \frac{1}{T}\sum_{t=1}^{T} \varepsilon_{m,j,t}, \qquad
        q_j = q_1 + \frac{j - 1}{n - 1}\,\text{spread}, \qquad
        \varepsilon_{m,j,t} \sim N(0, \text{noise}^2), \qquad
        \operatorname{corr}(\varepsilon_{1,j,t}, \varepsilon_{2,j,t}) = \rho

    τ rises towards 1 as the systems spread out or the correlation grows, and falls as the
    per-topic noise grows or the topics get fewer: a τ below 0.9 can come from close systems
    alone (Sanderson & Soboroff 2007). The second measure's noise is
    :math:`\rho\,\varepsilon_1 + \sqrt{1 - \rho^2}\,\eta` with :math:`\eta` a fresh draw, so
    ``correlation=0`` gives the same numbers as independent noise.

    Parameters
    ----------
    spread : float, default 0.2
        Width of the range of true qualities (0 to 1).
    noise : float, default 0.1
        Standard deviation of a measure's per-topic noise (> 0, at most 1).
    correlation : float, default 0.0
        Correlation :math:`\rho` of the two measures' noise on the same system and topic
        (-1 to 1).
    n_topics : int, default 40
    n_systems : int, default 19
    n_repeats : int, default 100
    seed : int, default 0

    References
    ----------
    Voorhees, E. M. (2001). Evaluation by highly relevant documents. Proceedings of SIGIR
    2001, 74–82 (τ >= 0.9 as equivalent).
    Sanderson, M. and Soboroff, I. (2007). Problems with Kendall's tau. Proceedings of SIGIR
    2007, 839–840.

    Examples
    --------
    >>> model = MeasureAgreementModel(spread=0.2, noise=0.1)
    >>> s = model.summary()
    >>> bool(s["tau_low"] < s["tau_mean"] < s["tau_high"])
    True
    >>> model.set(spread=1.0).summary()["tau_mean"] > s["tau_mean"]
    True
    >>> model.set(spread=0.2, correlation=0.8).summary()["tau_mean"] > s["tau_mean"]
    True
    """

    def __init__(self, *, spread: float = 0.2, noise: float = 0.1, correlation: float = 0.0,
                 n_topics: int = 40, n_systems: int = 19, n_repeats: int = 100,
                 seed: int = 0) -> None:
        self.spread, self.noise, self.correlation, self.n_topics = 0.2, 0.1, 0.0, 40
        self.n_systems, self.n_repeats, self.seed = 19, 100, 0
        self.set(spread=spread, noise=noise, correlation=correlation, n_topics=n_topics,
                 n_systems=n_systems, n_repeats=n_repeats, seed=seed)

    def _checks(self) -> dict[str, Any]:
        return {
            "spread": lambda v: check_scalar(v, "spread", low=0.0, high=1.0),
            "noise": lambda v: check_scalar(v, "noise", low=0.0, high=1.0,
                                            low_inclusive=False),
            "correlation": lambda v: check_scalar(v, "correlation", low=-1.0, high=1.0),
            "n_topics": lambda v: check_scalar(v, "n_topics", kind="int", low=1, high=1000),
            "n_systems": lambda v: check_scalar(v, "n_systems", kind="int", low=3, high=100),
            "n_repeats": lambda v: check_scalar(v, "n_repeats", kind="int", low=10,
                                                high=5000),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(spread={self.spread}, noise={self.noise}, "
                f"correlation={self.correlation}, n_topics={self.n_topics}, "
                f"n_systems={self.n_systems}, n_repeats={self.n_repeats}, seed={self.seed})")

    def true_quality(self, spread: float | None = None) -> np.ndarray:
        """The systems' true qualities, evenly spaced over ``spread``, from 0.3 up."""
        spread = self.spread if spread is None else spread
        return 0.3 + np.linspace(0.0, spread, self.n_systems)

    def scores(self, spread: float | None = None, n_repeats: int | None = None) -> np.ndarray:
        """Simulated system scores, shape (n_repeats, 2 measures, n_systems)."""
        n_repeats = self.n_repeats if n_repeats is None else n_repeats
        rng = np.random.default_rng(self.seed)
        noise = rng.normal(0.0, self.noise, (n_repeats, 2, self.n_systems, self.n_topics))
        if self.correlation != 0.0:  # the same topics: the second measure shares some noise
            rho = self.correlation
            noise[:, 1] = rho * noise[:, 0] + np.sqrt(1.0 - rho**2) * noise[:, 1]
        return self.true_quality(spread) + noise.mean(axis=3)

    def taus(self, spread: float | None = None, n_repeats: int | None = None) -> np.ndarray:
        """Kendall's τ-b between the two measures' rankings, one per repeat."""
        scores = self.scores(spread, n_repeats)
        return np.array([kendall_tau(first, second) for first, second in scores])

    def tau_curve(self, spreads: Any, n_repeats: int | None = None) -> dict[str, np.ndarray]:
        """Mean, 5th and 95th percentile of τ at each spread (the rest as now)."""
        rows = [self.taus(float(s), n_repeats) for s in np.asarray(spreads, dtype=float)]
        return {"mean": np.array([r.mean() for r in rows]),
                "low": np.array([np.percentile(r, 5) for r in rows]),
                "high": np.array([np.percentile(r, 95) for r in rows])}

    def summary(self) -> dict[str, Any]:
        """Every number the explorer shows, by name.

        Keys: ``spread``, ``noise``, ``correlation``, ``n_topics``, ``n_systems``, ``n_repeats``,
        ``neighbour_gap`` (true quality gap between neighbouring systems),
        ``score_noise`` (standard deviation of a system's simulated score over the repeats,
        averaged over systems and measures), ``tau_mean``, ``tau_low`` and ``tau_high``
        (5th and 95th percentiles) and ``share_equivalent`` (share of repeats with τ >= 0.9).
        """
        scores = self.scores()
        taus = np.array([kendall_tau(first, second) for first, second in scores])
        quality = self.true_quality()
        return {
            "spread": self.spread, "noise": self.noise, "correlation": self.correlation,
            "n_topics": self.n_topics,
            "n_systems": self.n_systems, "n_repeats": self.n_repeats,
            "neighbour_gap": float(quality[1] - quality[0]),
            "score_noise": float(scores.std(axis=0).mean()),
            "tau_mean": float(taus.mean()),
            "tau_low": float(np.percentile(taus, 5)),
            "tau_high": float(np.percentile(taus, 95)),
            "share_equivalent": float(np.mean(taus >= EQUIVALENT)),
        }


@keyword_options
class MeasureAgreementExplorer(_Explorer):
    """Spread the systems out, or add noise, and watch τ between two measures' rankings.

    Controls, in this order: ``spread`` (range of the systems' true qualities), ``noise``
    (per-topic noise of each measure), ``correlation`` (of the two measures' noise on the
    same topic) and ``n_topics``. The summary shows the gap between
    neighbouring systems, the noise in a system's score, and τ between the two measures'
    rankings over the repeats (mean, 5th–95th percentile, share >= 0.9); the figure draws τ
    against the spread with the current setting marked. The state is a
    :class:`MeasureAgreementModel`.

    Examples
    --------
    >>> explorer = MeasureAgreementExplorer(plot=False)
    >>> before = explorer.model.summary()["tau_mean"]
    >>> explorer.controls["spread"].value = 0.5
    >>> explorer.model.summary()["tau_mean"] > before
    True
    """

    def __init__(self, model: Any = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or MeasureAgreementModel()
        m = self.model
        style = {"description_width": "220px"}
        layout = widgets.Layout(width="500px")
        common = {"style": style, "layout": layout, "continuous_update": False}
        controls: dict[str, widgets.Widget] = {
            "spread": widgets.FloatSlider(value=m.spread, min=0.0, max=max(0.6, m.spread),
                                          step=0.01,
                                          description="spread of true system scores",
                                          **common),
            "noise": widgets.FloatSlider(value=m.noise, min=0.01, max=1.0, step=0.01,
                                         description="per-topic noise of a measure", **common),
            "correlation": widgets.FloatSlider(value=m.correlation, min=-1.0, max=1.0,
                                               step=0.05,
                                               description="noise correlation of the measures",
                                               **common),
            "n_topics": widgets.IntSlider(value=m.n_topics, min=5, max=max(200, m.n_topics),
                                          step=5, description="topics", **common),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [
            ("systems", str(s["n_systems"])),
            ("gap between neighbouring systems", _format(s["neighbour_gap"], 4)),
            ("noise in a system's score (sd)", _format(s["score_noise"], 4)),
            ("tau between the measures, mean", _format(s["tau_mean"], 3)),
            ("tau, 5th to 95th percentile",
             f"{_format(s['tau_low'], 3)} to {_format(s['tau_high'], 3)}"),
            ("share of repeats with tau >= 0.9", f"{s['share_equivalent']:.0%}"),
        ]
        return _table(rows, f"Simulation: {s['n_repeats']} repeats, {s['n_topics']} topics")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        m = self.model
        spreads = np.linspace(0.0, max(0.6, m.spread), 13)
        curve = m.tau_curve(spreads, n_repeats=max(10, m.n_repeats // 2))
        s = m.summary()
        figure, ax = plt.subplots(figsize=(5.8, 3.8))
        ax.fill_between(spreads, curve["low"], curve["high"], alpha=0.25,
                        label="5th to 95th percentile")
        ax.plot(spreads, curve["mean"], marker="o", label="mean τ")
        ax.errorbar([m.spread], [s["tau_mean"]],
                    yerr=[[s["tau_mean"] - s["tau_low"]], [s["tau_high"] - s["tau_mean"]]],
                    color="black", marker="s", capsize=4, label="current setting")
        ax.axhline(EQUIVALENT, color=OKABE_ITO["vermillion"], linestyle="--", linewidth=1,
                   label="τ = 0.9 (Voorhees)")
        ax.set(xlabel="spread of true system scores", ylabel="Kendall's τ-b between measures",
               title=f"{m.n_systems} systems, noise {m.noise:.2f} (correlation "
                     f"{m.correlation:.2f}), {m.n_topics} topics",
               ylim=(-0.2, 1.02))
        ax.legend(fontsize=8, loc="lower right")
        ax.grid(alpha=0.3)
        figure.tight_layout()
        return figure
