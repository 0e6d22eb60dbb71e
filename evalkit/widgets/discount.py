"""The discount explorer: move one graded document down a list and watch RR, AP and nDCG fall."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._validation import check_bool, check_scalar
from ..plots import MARKERS, OKABE_ITO
from ..ranking import DCG_VARIANTS, average_precision, dcg, ndcg, reciprocal_rank
from ._base import _Explorer, _format, _grid, _table
from ._state import SettingsModel, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets


@keyword_options
class DiscountModel(SettingsModel):
    r"""One graded document at a chosen rank of a list: how each measure discounts its rank.

    The state behind :class:`evalkit.widgets.DiscountExplorer`. The list has ``n_ranks``
    documents; the one at ``rank`` has grade ``grade``, the others are not relevant. With
    ``marginal_on_top`` a second, marginally relevant document (grade 1) takes rank 1 (rank 2
    when the graded document is itself at rank 1). The query's judged documents are these one
    or two, so the ideal ranking puts them first. With one relevant document at rank *r*,

    .. math::

        \mathrm{RR} = \mathrm{AP} = \frac{1}{r}, \qquad
        \mathrm{nDCG} = \frac{1}{\log_2(r + 1)}\ \text{(trec, exponential)}, \qquad
        \mathrm{nDCG} = \frac{1}{\max(1, \log_2 r)}\ \text{(Järvelin \& Kekäläinen)},

    so RR halves at rank 2 while nDCG keeps 63 % (trec) or all of it (Järvelin &
    Kekäläinen). Every number comes from :func:`evalkit.reciprocal_rank`,
    :func:`evalkit.average_precision`, :func:`evalkit.dcg` and :func:`evalkit.ndcg` (with
    ``ideal=`` the judged grades); RR and AP count grades >= 1 as relevant.

    Parameters
    ----------
    rank : int, default 1
        Where the graded document sits, 1 = top; at most ``n_ranks``.
    grade : int, default 3
        Its grade (>= 1).
    marginal_on_top : bool, default False
        Put a grade-1 document at the top rank the graded document leaves free.
    n_ranks : int, default 10
        The length of the list (>= 2).

    Examples
    --------
    >>> model = DiscountModel(rank=3)
    >>> model.ranking().tolist()
    [0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    >>> s = model.summary()
    >>> round(s["reciprocal_rank"], 4), round(s["ndcg_trec"], 4), round(s["ndcg_jarvelin"], 4)
    (0.3333, 0.5, 0.6309)
    >>> s = model.set(marginal_on_top=True).summary()  # RR jumps to 1, nDCG far less
    >>> s["first_relevant_rank"], s["reciprocal_rank"], round(s["ndcg_trec"], 4)
    (1, 1.0, 0.6885)
    """

    SETTINGS = ("rank", "grade", "marginal_on_top", "n_ranks")

    def __init__(self, *, rank: int = 1, grade: int = 3, marginal_on_top: bool = False,
                 n_ranks: int = 10) -> None:
        self.rank, self.grade, self.marginal_on_top, self.n_ranks = 1, 3, False, 10
        self.set(rank=rank, grade=grade, marginal_on_top=marginal_on_top, n_ranks=n_ranks)

    def __repr__(self) -> str:
        settings = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.SETTINGS)
        return f"{type(self).__name__}({settings})"

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "rank": lambda v: check_scalar(v, "rank", kind="int", low=1),
            "grade": lambda v: check_scalar(v, "grade", kind="int", low=1),
            "marginal_on_top": lambda v: check_bool(v, "marginal_on_top"),
            "n_ranks": lambda v: check_scalar(v, "n_ranks", kind="int", low=2),
        }

    def _check_together(self, checked: dict[str, Any]) -> None:
        rank = checked.get("rank", self.rank)
        n_ranks = checked.get("n_ranks", self.n_ranks)
        if rank > n_ranks:
            raise ValueError(f"rank must be between 1 and n_ranks = {n_ranks}; got {rank}")

    # -- the list -----------------------------------------------------------------------------

    def ranking(self, rank: int | None = None) -> np.ndarray:
        """The grades in rank order, with the graded document at ``rank`` (default: its own)."""
        rank = self.rank if rank is None else self._checks()["rank"](rank)
        if rank > self.n_ranks:
            raise ValueError(f"rank must be between 1 and n_ranks = {self.n_ranks}; got {rank}")
        grades = np.zeros(self.n_ranks)
        grades[rank - 1] = self.grade
        if self.marginal_on_top:
            grades[0 if rank > 1 else 1] = 1.0
        return grades

    @property
    def judged(self) -> np.ndarray:
        """The query's judged grades (the ideal ranking comes from these)."""
        return np.array([self.grade, 1.0] if self.marginal_on_top else [self.grade], float)

    def _measures(self, grades: np.ndarray) -> dict[str, float]:
        shown = {"reciprocal_rank": reciprocal_rank(grades),
                 "average_precision": average_precision(grades)}
        for variant in DCG_VARIANTS:
            shown[f"dcg_{variant}"] = dcg(grades, variant=variant)
            shown[f"ndcg_{variant}"] = ndcg(grades, variant=variant, ideal=self.judged)
        return shown

    def summary(self) -> dict[str, Any]:
        """Every number the explorer shows, by name.

        Keys: ``rank``, ``grade``, ``marginal_on_top``, ``n_ranks``, ``first_relevant_rank``,
        ``reciprocal_rank``, ``average_precision``, then ``dcg_<variant>`` and
        ``ndcg_<variant>`` for each variant of :func:`evalkit.dcg` (``trec``,
        ``exponential``, ``jarvelin``).
        """
        grades = self.ranking()
        shown: dict[str, Any] = {name: getattr(self, name) for name in self.SETTINGS}
        shown["first_relevant_rank"] = int(np.flatnonzero(grades >= 1)[0]) + 1
        shown.update(self._measures(grades))
        return shown

    def curves(self) -> pd.DataFrame:
        """RR, AP and nDCG per convention with the graded document at each rank (rows)."""
        ranks = np.arange(1, self.n_ranks + 1)
        rows = [self._measures(self.ranking(rank)) for rank in ranks]
        columns = ["reciprocal_rank", "average_precision"] + [f"ndcg_{v}" for v in DCG_VARIANTS]
        return pd.DataFrame(rows, index=pd.Index(ranks, name="rank"))[columns]


@keyword_options
class DiscountExplorer(_Explorer):
    """Move one graded document down the list: how fast do RR, AP and nDCG discount its rank?

    Controls, in this order: ``rank`` (where the graded document sits), ``grade`` (its grade)
    and ``marginal_on_top`` (a checkbox that puts a grade-1 document above it). The summary
    shows the list, RR, AP, and DCG and nDCG under the three conventions of
    :func:`evalkit.dcg`; the figure draws each measure against the rank of the graded document,
    with the current rank marked. The state is an :class:`evalkit.widgets.DiscountModel`.

    Examples
    --------
    >>> explorer = DiscountExplorer(plot=False)
    >>> explorer.controls["rank"].value = 2
    >>> explorer.model.summary()["reciprocal_rank"], round(explorer.model.summary()["ndcg_trec"], 4)
    (0.5, 0.6309)
    """

    LABELS = {"reciprocal_rank": "RR", "average_precision": "AP",
              "ndcg_trec": "nDCG, trec", "ndcg_exponential": "nDCG, exponential",
              "ndcg_jarvelin": "nDCG, Järvelin & Kekäläinen"}

    def __init__(self, model: DiscountModel | None = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or DiscountModel()
        style = {"description_width": "190px"}
        layout = widgets.Layout(width="480px")
        controls: dict[str, widgets.Widget] = {
            "rank": widgets.IntSlider(value=self.model.rank, min=1, max=self.model.n_ranks,
                                      description="rank of the graded document", style=style,
                                      layout=layout, continuous_update=False),
            "grade": widgets.IntSlider(value=min(self.model.grade, 3), min=1,
                                       max=max(self.model.grade, 3), description="its grade",
                                       style=style, layout=layout, continuous_update=False),
            "marginal_on_top": widgets.Checkbox(value=self.model.marginal_on_top,
                                                description="a grade-1 document on top",
                                                style=style, layout=layout),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        grades = self.model.ranking()
        ranking = _grid(["rank"] + [str(i) for i in range(1, grades.size + 1)],
                        [["grade"] + [f"{g:g}" for g in grades]], shaded_column=s["rank"])
        binary = _table([("first relevant document at rank", str(s["first_relevant_rank"])),
                         ("RR", _format(s["reciprocal_rank"], 4)),
                         ("AP", _format(s["average_precision"], 4))], "Binary measures")
        rows = [[variant, _format(s[f"dcg_{variant}"]), _format(s[f"ndcg_{variant}"])]
                for variant in DCG_VARIANTS]
        graded = _grid(["convention", "DCG", "nDCG"], rows, "Graded measures")
        return ranking + binary + graded

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        curves = self.model.curves()
        rank = self.model.rank
        figure, ax = plt.subplots(figsize=(7.6, 3.6))
        styles = {"reciprocal_rank": ("k", "-"), "average_precision": ("grey", ":"),
                  "ndcg_trec": (OKABE_ITO["blue"], (0, (5, 1))),
                  "ndcg_exponential": (OKABE_ITO["bluish green"], "--"),
                  "ndcg_jarvelin": (OKABE_ITO["vermillion"], "-.")}
        for (column, (colour, line)), marker in zip(styles.items(), MARKERS, strict=False):
            ax.plot(curves.index, curves[column], linestyle=line, color=colour, marker=marker,
                    markersize=3,
                    label=self.LABELS[column])
            ax.plot([rank], [curves.loc[rank, column]], "o", color=colour)
        ax.axvline(rank, color="#999999", linewidth=0.8)
        ax.set(xlabel="rank of the graded document", ylabel="score (0 to 1)", ylim=(0, 1.05),
               title="How each measure discounts the rank")
        ax.set_xticks(curves.index)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
        figure.tight_layout()
        return figure
