"""The interpolation explorer: a recall level on a ranking's curve, raw and interpolated."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_option, check_scalar
from ..ranking import (
    ELEVEN_POINTS,
    INTERPOLATION_CONVENTIONS,
    eleven_point_average,
    interpolated_precision,
    r_precision,
)
from ._base import _Explorer, _format, _table
from ._ranked_list import _RankedList
from ._state import keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets


class InterpolationModel(_RankedList):
    """A ranked list, a recall level and a convention: raw against interpolated precision.

    The state behind :class:`InterpolationExplorer`. A user who wants recall ``recall_level``
    stops at the first rank that reaches it and sees the raw precision there; interpolated
    precision reports the best precision at that recall *or more*
    (:func:`evalkit.interpolated_precision`, under ``convention``). :meth:`summary` gives both
    and the gap between them. The list and its editing are those of every ranked-list model
    (:class:`RelevanceModel` shares them).

    Parameters
    ----------
    relevance : array-like of numbers
        Judgements (or grades) in rank order, top first.
    n_relevant : int, optional
        R. By default R is the number of relevant documents in the list (and follows toggles).
    recall_level : float in [0, 1], default 0.5
        The recall level r.
    convention : {"textbook", "trec_eval", "trec_eval_10"}, default "textbook"
        How a recall level becomes a count of relevant documents (see
        :func:`evalkit.interpolated_precision`).
    relevance_level : number, default 1
        Grades at or above this count as relevant.
    doc_ids : list of str, optional
        Names of the documents; default d1, d2, ...

    Examples
    --------
    >>> model = InterpolationModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1], recall_level=0.6)
    >>> s = model.summary()
    >>> s["stop_rank"], round(s["precision_at_stop"], 3), s["interpolated_precision"]
    (9, 0.333, 0.4)
    >>> model.toggle(2)  # rank 2 becomes relevant: R = 5, recall 0.6 at rank 3
    >>> s = model.summary()
    >>> s["stop_rank"], s["interpolated_precision"]
    (3, 1.0)
    """

    def __init__(self, relevance: Any, *, n_relevant: int | None = None,
                 recall_level: float = 0.5, convention: str = "textbook",
                 relevance_level: float = 1, doc_ids: Any = None) -> None:
        super().__init__(relevance, n_relevant=n_relevant, relevance_level=relevance_level,
                         doc_ids=doc_ids)
        self.recall_level, self.convention = 0.5, "textbook"
        self.set(recall_level=recall_level, convention=convention)

    SETTINGS = ("recall_level", "convention", "relevance_level")

    @staticmethod
    def _checks() -> dict[str, Any]:
        checks = _RankedList._checks()
        checks["recall_level"] = lambda v: check_scalar(v, "recall_level", low=0.0, high=1.0)
        checks["convention"] = lambda v: check_option(v, "convention",
                                                      INTERPOLATION_CONVENTIONS)
        return checks

    def curve(self) -> np.ndarray:
        """The 11-point interpolated curve (levels 0.0, 0.1, …, 1.0) under the convention."""
        return interpolated_precision(self.relevance, n_relevant=self.n_relevant,
                                      relevance_level=self.relevance_level,
                                      convention=self.convention)

    def summary(self) -> dict[str, Any]:
        """What the explorer shows, computed by the library's functions.

        Keys: ``n_relevant`` (R), ``recall_level``, ``convention``, ``stop_rank`` (the first
        rank whose recall reaches the level; None when the list never does),
        ``recall_at_stop`` and ``precision_at_stop`` (the raw point there; 0 when never
        reached), ``interpolated_precision`` (at the level, under the convention), ``gap``
        (interpolated minus raw precision at the stop), ``eleven_point_average`` (mean of the
        11-point curve under the convention) and ``r_precision``.
        """
        points = self.points()
        level, total = self.recall_level, self.n_relevant
        reached = np.flatnonzero(points.recall.to_numpy() >= level) if total else []
        stop = int(points["rank"].iloc[reached[0]]) if len(reached) else None
        raw = float(points.precision.iloc[reached[0]]) if len(reached) else 0.0
        at_stop = float(points.recall.iloc[reached[0]]) if len(reached) else 0.0
        interpolated = float(interpolated_precision(
            self.relevance, recall_levels=[level], n_relevant=total,
            relevance_level=self.relevance_level, convention=self.convention)[0])
        return {
            "n_relevant": total,
            "recall_level": float(level),
            "convention": self.convention,
            "stop_rank": stop,
            "recall_at_stop": at_stop,
            "precision_at_stop": raw,
            "interpolated_precision": interpolated,
            "gap": interpolated - raw,
            "eleven_point_average": eleven_point_average(
                self.relevance, n_relevant=total, relevance_level=self.relevance_level,
                convention=self.convention),
            "r_precision": r_precision(self.relevance, n_relevant=total,
                                       relevance_level=self.relevance_level,
                                       zero_division=0.0),
        }


@keyword_options
class InterpolationExplorer(_Explorer):
    """Move a recall level along a ranking's precision-recall curve: raw and interpolated.

    Controls: one toggle button per rank, ``"rank 1"``, ``"rank 2"``, … (pressed = relevant),
    the slider ``"recall_level"`` (the 11 standard levels) and ``"convention"`` (textbook,
    trec_eval 9, trec_eval 10). The table shows where a user who wants that recall stops,
    the raw precision there, the interpolated precision and the gap, the 11-point average and
    R-precision; the plot marks the stop and the interpolated value on the curve.

    Examples
    --------
    >>> from evalkit.widgets import InterpolationModel
    >>> explorer = InterpolationExplorer(InterpolationModel([1, 0, 0, 1, 0, 0, 1]), plot=False)
    >>> explorer.controls["recall_level"].value = 0.7
    >>> round(explorer.model.summary()["interpolated_precision"], 3)
    0.429
    >>> explorer.controls["convention"].value = "trec_eval"  # 0.7 * 3 + 0.9 = 2.9999...
    >>> explorer.model.summary()["interpolated_precision"]
    0.5
    """

    def __init__(self, model: InterpolationModel | None = None, *,
                 plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or InterpolationModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1])
        relevant = self.model.relevant
        self.rank_buttons = [
            widgets.ToggleButton(value=bool(relevant[i]), description=str(i + 1),
                                 tooltip=f"rank {i + 1}: {self.model.doc_ids[i]}",
                                 icon="check" if relevant[i] else "",
                                 layout=widgets.Layout(width="56px"))
            for i in range(self.model.relevance.size)
        ]
        levels = [float(r) for r in ELEVEN_POINTS]
        level = min(levels, key=lambda r: abs(r - self.model.recall_level))
        style = {"description_width": "110px"}
        controls: dict[str, widgets.Widget] = {
            f"rank {i + 1}": button for i, button in enumerate(self.rank_buttons)}
        # A SelectionSlider keeps the levels exact: 0.7 stays 0.7, where trec_eval 9 slips.
        controls["recall_level"] = widgets.SelectionSlider(
            options=levels, value=level, description="recall level r", style=style,
            layout=widgets.Layout(width="420px"))
        controls["convention"] = widgets.ToggleButtons(
            options=list(INTERPOLATION_CONVENTIONS), value=self.model.convention,
            description="convention", style=style)
        super().__init__(controls, plot=plot)
        legend = widgets.HTML("<b>Relevant?</b> Click a rank (relevant: ticked ✓, green):")
        ranks = widgets.HBox(self.rank_buttons, layout=widgets.Layout(flex_flow="row wrap"))
        self.widget = widgets.VBox([legend, ranks, controls["recall_level"],
                                    controls["convention"], self._summary_beside_plot()])

    def update_model(self) -> None:
        for rank, button in enumerate(self.rank_buttons, start=1):
            if button.value != bool(self.model.relevant[rank - 1]):
                self.model.toggle(rank)
            button.button_style = "success" if button.value else ""
            button.icon = "check" if button.value else ""  # not colour alone
        self.model.set(recall_level=self.controls["recall_level"].value,
                       convention=self.controls["convention"].value)

    def render_summary(self) -> str:
        s = self.model.summary()
        r = f"{s['recall_level']:.1f}"
        stop = "never" if s["stop_rank"] is None else (
            f"rank {s['stop_rank']} (recall {s['recall_at_stop']:.2f})")
        rows = [
            ("R (relevant documents)", str(s["n_relevant"])),
            (f"first rank with recall ≥ {r}", stop),
            ("raw precision there", _format(s["precision_at_stop"])),
            (f"interpolated precision at {r}", _format(s["interpolated_precision"])),
            ("gap (interpolated - raw)", _format(s["gap"])),
            ("11-point average", _format(s["eleven_point_average"])),
            ("R-precision", _format(s["r_precision"])),
        ]
        return _table(rows, f"Recall level {r}, {s['convention']} convention")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import OKABE_ITO, plot_precision_recall

        m, s = self.model, self.model.summary()
        figure, ax = plt.subplots(figsize=(5.4, 4.0))
        plot_precision_recall(m.points(), interpolated=m.curve(), ax=ax,
                              title=f"Interpolated ({s['convention']}) against raw")
        ax.axvline(s["recall_level"], color="grey", linestyle=":", linewidth=1)
        if s["stop_rank"] is not None:
            ax.plot(s["recall_at_stop"], s["precision_at_stop"], linestyle="none", marker="o",
                    markersize=14, markerfacecolor="none",
                    markeredgecolor=OKABE_ITO["bluish green"],
                    markeredgewidth=2, label=f"user stops at rank {s['stop_rank']}")
        ax.plot(s["recall_level"], s["interpolated_precision"], linestyle="none", marker="*",
                markersize=14, color=OKABE_ITO["vermillion"],
                label=f"interpolated at r = {s['recall_level']:.1f}")
        ax.legend(loc="best", fontsize=8)
        figure.tight_layout()
        return figure
