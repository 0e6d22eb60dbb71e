"""The relevance explorer: mark ranks relevant and watch P@k, AP, RR and the P-R curve."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from ..ranking import (
    average_precision,
    ndcg,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)
from ._base import _Explorer, _format, _table
from ._ranked_list import _RankedList
from ._state import keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets


class RelevanceModel(_RankedList):
    """A ranked list whose judgements can be clicked: P@k, R@k, R-precision, AP, RR and P-R.

    The state behind :class:`RelevanceExplorer`; the list and its editing are those of every
    ranked-list model (:class:`DCGModel` shares them), and :meth:`summary`, :meth:`points`
    and :meth:`interpolated` give what this explorer shows.

    Parameters
    ----------
    relevance : array-like of numbers
        Judgements (or grades) in rank order, top first.
    n_relevant : int, optional
        R. By default R is the number of relevant documents in the list (and follows toggles).
    ideal : array-like of numbers, optional
        All judged grades of the query, for nDCG; default: the grades in the list.
    relevance_level : number, default 1
        Grades at or above this count as relevant.
    k : int, default 5
        The cutoff of P@k and R@k.
    doc_ids : list of str, optional
        Names of the documents; default d1, d2, ...

    Examples
    --------
    >>> model = RelevanceModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1])
    >>> s = model.summary()
    >>> round(s["average_precision"], 2), s["r_precision"]
    (0.6, 0.5)
    >>> model.toggle(2)  # rank 2 becomes relevant
    >>> model.summary()["r_precision"]
    0.6
    """

    def summary(self) -> dict[str, float]:
        """Every measure of the current list, computed by the library's functions.

        Keys: ``k``, ``n_relevant`` (R), ``precision_at_k``, ``recall_at_k``,
        ``r_precision``, ``average_precision``, ``reciprocal_rank``, ``ndcg_at_k`` and
        ``ndcg``. An empty judgement set shows 0 (without a warning per redraw).
        """
        grades, total, k = self.relevance, self.n_relevant, self.k
        level = self.relevance_level
        policy = 0.0
        ideal = self.ideal if self.ideal is not None else grades
        return {
            "k": k,
            "n_relevant": total,
            "precision_at_k": precision_at_k(grades, k=k, relevance_level=level),
            "recall_at_k": recall_at_k(grades, k=k, n_relevant=total, relevance_level=level,
                                       zero_division=policy),
            "r_precision": r_precision(grades, n_relevant=total, relevance_level=level,
                                       zero_division=policy),
            "average_precision": average_precision(grades, n_relevant=total, relevance_level=level,
                                                   zero_division=policy),
            "reciprocal_rank": reciprocal_rank(grades, relevance_level=level),
            "ndcg_at_k": ndcg(grades, k=k, ideal=ideal, zero_division=policy),
            "ndcg": ndcg(grades, ideal=ideal, zero_division=policy),
        }


@keyword_options
class RelevanceExplorer(_Explorer):
    """Click ranks to mark them relevant and watch P@k, R-precision, AP and the P-R curve.

    Controls: one toggle button per rank, ``"rank 1"``, ``"rank 2"``, … (pressed = relevant),
    and ``"k"``, the cutoff of P@k and R@k. The table shows the measures of
    :meth:`evalkit.widgets.RelevanceModel.summary` and how AP is averaged; the plot shows the
    raw precision-recall points and the 11-point interpolated curve
    (:func:`evalkit.plots.plot_precision_recall`). R is the model's ``n_relevant``: fixed when
    the model was built with one (relevant documents that were never retrieved), otherwise the
    relevant documents in the list, so it follows the clicks.

    Examples
    --------
    >>> from evalkit.widgets import RelevanceModel
    >>> explorer = RelevanceExplorer(RelevanceModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1]),
    ...                              plot=False)
    >>> round(explorer.model.summary()["average_precision"], 3)
    0.6
    >>> explorer.controls["rank 2"].value = True  # rank 2 becomes relevant: R = 5
    >>> round(explorer.model.summary()["average_precision"], 3)
    0.789
    """

    def __init__(self, model: RelevanceModel | None = None, *, k: int | None = None,
                 plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or RelevanceModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1])
        n = self.model.relevance.size
        relevant = self.model.relevant
        self.rank_buttons = [
            widgets.ToggleButton(value=bool(relevant[i]), description=str(i + 1),
                                 tooltip=f"rank {i + 1}: {self.model.doc_ids[i]}",
                                 icon="check" if relevant[i] else "",
                                 layout=widgets.Layout(width="56px"))
            for i in range(n)
        ]
        controls: dict[str, widgets.Widget] = {
            f"rank {i + 1}": button for i, button in enumerate(self.rank_buttons)
        }
        controls["k"] = widgets.IntSlider(
            value=min(self.model.k if k is None else int(k), n), min=1, max=n,
            description="cutoff k", style={"description_width": "110px"},
            layout=widgets.Layout(width="420px"))
        super().__init__(controls, plot=plot)
        legend = widgets.HTML("<b>Relevant?</b> Click a rank (relevant: ticked ✓, green):")
        ranks = widgets.HBox(self.rank_buttons, layout=widgets.Layout(flex_flow="row wrap"))
        self.widget = widgets.VBox(
            [legend, ranks, controls["k"], self._summary_beside_plot()])

    def update_model(self) -> None:
        for rank, button in enumerate(self.rank_buttons, start=1):
            if button.value != bool(self.model.relevant[rank - 1]):
                self.model.toggle(rank)
            button.button_style = "success" if button.value else ""
            button.icon = "check" if button.value else ""  # not colour alone
        self.model.set(k=self.controls["k"].value)

    def render_summary(self) -> str:
        m, k = self.model, self.model.k
        s = m.summary()
        ranks = [str(i + 1) for i in range(m.relevance.size) if m.relevant[i]]
        rows = [
            ("relevant ranks", ", ".join(ranks) or "none"),
            ("R (relevant documents)", str(s["n_relevant"])),
            (f"P@{k}", _format(s["precision_at_k"])),
            (f"R@{k}", _format(s["recall_at_k"])),
            ("R-precision", _format(s["r_precision"])),
            ("AP", _format(s["average_precision"])),
        ]  # RR stays in the model's summary; notebook 06 introduces it, after this explorer
        # Spell AP out: the precisions at the relevant ranks, and a 0 for each missed one.
        points = m.points()
        terms = [f"{p:.3g}" for p in points.precision[points.relevant]]
        missed = m.n_relevant - len(terms)
        if missed:
            terms.append(f"0 × {missed} never retrieved")
        if m.n_relevant:
            sums = f"AP = ({' + '.join(terms)}) / {m.n_relevant} = {s['average_precision']:.3f}"
        else:
            sums = "AP: no relevant document (R = 0), shown as 0"
        return _table(rows, "Measures") + f"<p style='max-width:420px'>{html.escape(sums)}</p>"

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import OKABE_ITO, plot_precision_recall

        m, k = self.model, self.model.k
        ap = m.summary()["average_precision"]
        figure, ax = plt.subplots(figsize=(5.4, 4.0))
        points = m.points()
        plot_precision_recall(points, interpolated=m.interpolated(), ax=ax,
                              title=f"AP = {ap:.3f}, R = {m.n_relevant}")
        if k <= len(points) and m.n_relevant:
            ax.plot(points.recall[k - 1], points.precision[k - 1], linestyle="none", marker="o",
                    markersize=14, markerfacecolor="none",
                    markeredgecolor=OKABE_ITO["bluish green"],
                    markeredgewidth=2, label=f"after rank k = {k}")
            ax.legend(loc="best", fontsize=8)
        figure.tight_layout()
        return figure
