"""The weighted-kappa explorer: how far apart two judges' grades are, and what weights charge."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_bool, check_scalar
from ..agreement import KAPPA_WEIGHTS, kappa_from_table, labels_from_table
from ..classification import accuracy
from ._base import _Explorer, _format, _grid, _table
from ._state import SettingsModel, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets


@keyword_options
class WeightedKappaModel(SettingsModel):
    r"""Two judges grade items on an ordered scale; a few disagreements, a chosen distance apart.

    The state behind :class:`evalkit.widgets.WeightedKappaExplorer`. On ``n_grades`` grades
    (0 = lowest), the judges agree on ``n_agreed`` items of every grade; on
    ``n_disagreements`` more items judge A gives the top grade and judge B a grade
    ``distance`` steps lower. Plain kappa only sees *that* they disagree; weighted kappa
    (Cohen 1968) charges a disagreement by its distance, linearly (:math:`|i - j|`) or
    quadratically (:math:`(i - j)^2`):

    .. math::

        \kappa_w = 1 - \frac{\sum_{ij} w_{ij}\, p_{ij}}{\sum_{ij} w_{ij}\, e_{ij}}

    Every kappa comes from :func:`evalkit.kappa_from_table` and the observed agreement from
    :func:`evalkit.accuracy` of the judges' labels (:func:`evalkit.labels_from_table`);
    ``pooled=True`` takes chance from the pooled marginals (Scott's pi).

    Parameters
    ----------
    n_agreed : int, default 5
        Items of each grade on which the judges agree (>= 1).
    n_disagreements : int, default 1
        Items graded top by A and ``distance`` lower by B (>= 0).
    distance : int, default 1
        How many grades apart a disagreement is (1 to ``n_grades - 1``).
    pooled : bool, default False
        Chance agreement from the pooled marginals instead of each judge's own.
    n_grades : int, default 4
        The size of the scale; fixed when the model is built.

    References
    ----------
    Cohen, J. (1968). Weighted kappa: nominal scale agreement with provision for scaled
    disagreement or partial credit. Psychological Bulletin 70(4), 213–220.

    Examples
    --------
    >>> model = WeightedKappaModel()  # 20 agreed items, one 3-vs-2 disagreement
    >>> {w: round(k, 4) for w, k in model.kappas().items()}
    {'unweighted': 0.9366, 'linear': 0.9619, 'quadratic': 0.9809}
    >>> {w: round(k, 4) for w, k in model.set(distance=3).kappas().items()}  # 3 vs 0
    {'unweighted': 0.9366, 'linear': 0.8881, 'quadratic': 0.8355}
    """

    def __init__(self, *, n_agreed: int = 5, n_disagreements: int = 1, distance: int = 1,
                 pooled: bool = False, n_grades: int = 4) -> None:
        self.n_grades = check_scalar(n_grades, "n_grades", kind="int", low=2)
        self.n_agreed, self.n_disagreements, self.distance, self.pooled = 1, 0, 1, False
        self.set(n_agreed=n_agreed, n_disagreements=n_disagreements, distance=distance,
                 pooled=pooled)

    def _checks(self) -> dict[str, Any]:
        return {
            "n_agreed": lambda v: check_scalar(v, "n_agreed", kind="int", low=1),
            "n_disagreements": lambda v: check_scalar(v, "n_disagreements", kind="int", low=0),
            "distance": lambda v: check_scalar(v, "distance", kind="int", low=1,
                                               high=self.n_grades - 1),
            "pooled": lambda v: check_bool(v, "pooled"),
        }

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(n_agreed={self.n_agreed}, "
                f"n_disagreements={self.n_disagreements}, distance={self.distance}, "
                f"pooled={self.pooled}, n_grades={self.n_grades})")

    @property
    def marginals(self) -> str:
        return "pooled" if self.pooled else "separate"

    def table(self, distance: int | None = None) -> np.ndarray:
        """The k×k table: rows judge A's grade, columns judge B's (grade 0 first)."""
        distance = self.distance if distance is None else distance
        top = self.n_grades - 1
        table = np.diag(np.full(self.n_grades, self.n_agreed))
        table[top, top - distance] += self.n_disagreements
        return table

    def observed_agreement(self) -> float:
        """P(a): the share of items both judges grade alike."""
        return accuracy(*labels_from_table(self.table()))

    def kappas(self, distance: int | None = None) -> dict[str, float]:
        """Kappa unweighted, with linear and with quadratic weights (at ``distance``)."""
        table = self.table(distance)
        return {weights or "unweighted": kappa_from_table(table, weights=weights,
                                                          marginals=self.marginals)
                for weights in KAPPA_WEIGHTS}

    def kappa_by_distance(self) -> dict[str, np.ndarray]:
        """Each weighting's kappa at every distance 1 .. n_grades - 1, the rest as now."""
        rows = [self.kappas(d) for d in range(1, self.n_grades)]
        return {name: np.array([row[name] for row in rows]) for name in rows[0]}

    def summary(self) -> dict[str, Any]:
        """Every number the explorer shows, by name.

        Keys: ``n_items``, ``n_grades``, ``distance``, ``n_disagreements``, ``marginals``,
        ``observed_agreement`` and ``kappa_unweighted``, ``kappa_linear``,
        ``kappa_quadratic``.
        """
        result: dict[str, Any] = {
            "n_items": int(self.table().sum()),
            "n_grades": self.n_grades,
            "distance": self.distance,
            "n_disagreements": self.n_disagreements,
            "marginals": self.marginals,
            "observed_agreement": self.observed_agreement(),
        }
        result.update({f"kappa_{name}": value for name, value in self.kappas().items()})
        return result


@keyword_options
class WeightedKappaExplorer(_Explorer):
    """Move a disagreement further apart and watch plain, linear and quadratic kappa.

    Controls, in this order: ``distance`` (how many grades apart the disagreements are),
    ``n_disagreements`` and ``pooled`` (Scott's pooled marginals). The summary shows the
    table, P(a) and the three kappas; the figure draws each kappa against the distance, the
    current setting as dots. Plain kappa barely moves with the distance; the weighted ones
    fall, quadratic fastest. The state is a :class:`WeightedKappaModel`.

    Examples
    --------
    >>> explorer = WeightedKappaExplorer(plot=False)
    >>> explorer.controls["distance"].value = 3
    >>> round(explorer.model.summary()["kappa_quadratic"], 4)
    0.8355
    """

    def __init__(self, model: Any = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or WeightedKappaModel()
        m = self.model
        style = {"description_width": "200px"}
        layout = widgets.Layout(width="480px")
        controls: dict[str, widgets.Widget] = {
            "distance": widgets.IntSlider(
                value=m.distance, min=1, max=m.n_grades - 1, step=1,
                description="grades apart (A top, B lower)", style=style, layout=layout,
                continuous_update=False),
            "n_disagreements": widgets.IntSlider(
                value=m.n_disagreements, min=0, max=max(20, m.n_disagreements), step=1,
                description="number of disagreements", style=style, layout=layout,
                continuous_update=False),
            "pooled": widgets.Checkbox(value=m.pooled, description="pooled marginals (Scott)",
                                       indent=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        m = self.model
        s = m.summary()
        table = m.table()
        grid = _grid([""] + [f"B: {g}" for g in range(m.n_grades)],
                     [[f"A: {g}"] + [str(v) for v in row] for g, row in enumerate(table)],
                     f"{s['n_items']} items, grades 0 to {m.n_grades - 1}")
        rows = [
            ("observed agreement P(a)", _format(s["observed_agreement"], 4)),
            ("kappa, unweighted", _format(s["kappa_unweighted"], 4)),
            ("kappa, linear weights", _format(s["kappa_linear"], 4)),
            ("kappa, quadratic weights", _format(s["kappa_quadratic"], 4)),
        ]
        return grid + _table(rows, f"Kappa ({s['marginals']} marginals)")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        m = self.model
        distances = np.arange(1, m.n_grades)
        figure, ax = plt.subplots(figsize=(5.6, 3.6))
        now = m.kappas()
        for (name, curve), marker in zip(m.kappa_by_distance().items(), "osD", strict=True):
            ax.plot(distances, curve, marker=marker, label=name, alpha=0.8)
            ax.plot([m.distance], [now[name]], marker=marker, markersize=11,
                    markerfacecolor="none", color="black")
        ax.set_xticks(distances)
        ax.set(xlabel="grades apart (judge A top grade, judge B lower)", ylabel="kappa",
               title=f"{m.n_disagreements} disagreement(s) among {int(m.table().sum())} items")
        ax.legend(title="weights", fontsize=8)
        ax.grid(alpha=0.3)
        figure.tight_layout()
        return figure
