"""The DCG explorer: reorder a graded ranking and watch DCG and nDCG under three conventions."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from ..ranking import DCG_VARIANTS
from ._base import _Explorer, _format, _grid
from ._ranked_list import _RankedList
from ._state import keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets


@keyword_options
class DCGModel(_RankedList):
    """A graded ranking whose documents can be moved: DCG, IDCG and nDCG per convention.

    The state behind :class:`DCGExplorer`; the list and its editing are those of every
    ranked-list model (:class:`RelevanceModel` shares them), and :meth:`dcg_table` gives what
    this explorer shows.

    Parameters
    ----------
    gains : array-like of numbers
        Grades in rank order, top first: the list DCG reads (named as in :func:`evalkit.dcg`;
        the model keeps it as ``relevance``, the ranked-list state it shares).
    n_relevant : int, optional
        R. By default R is the number of relevant documents in the list.
    ideal : array-like of numbers, optional
        All judged grades of the query, for IDCG; default: the grades in the list.
    relevance_level : number, default 1
        Grades at or above this count as relevant.
    k : int, default 5
        The cutoff of DCG@k and nDCG@k.
    doc_ids : list of str, optional
        Names of the documents, kept in step with :meth:`move`; default d1, d2, ...

    Examples
    --------
    >>> model = DCGModel([2, 1, 0, 2, 0], ideal=[2, 2, 1, 1, 0])
    >>> model.move(4, 2)  # the document at rank 4 moves up to rank 2
    >>> model.relevance.tolist()
    [2.0, 2.0, 1.0, 0.0, 0.0]
    >>> model.dcg_table(5).loc["trec", "nDCG"].round(4).item()  # 3.7619 / 4.1926
    0.8973
    >>> round(model.summary()["ndcg_trec"], 4)
    0.8973
    """

    _LIST_NAME = "gains"

    def __init__(self, gains: Any, *, n_relevant: int | None = None, ideal: Any = None,
                 relevance_level: float = 1, k: int = 5, doc_ids: Any = None) -> None:
        super().__init__(gains, n_relevant=n_relevant, ideal=ideal,
                         relevance_level=relevance_level, k=k, doc_ids=doc_ids)

    def summary(self) -> dict[str, float]:
        """DCG@k, IDCG@k and nDCG@k under each convention, from :meth:`dcg_table`.

        Keys: ``k``, then ``dcg_<variant>``, ``idcg_<variant>`` and ``ndcg_<variant>`` for
        each variant of :func:`evalkit.dcg` (``trec``, ``exponential``, ``jarvelin``).
        """
        table = self.dcg_table(self.k)
        shown: dict[str, float] = {"k": self.k}
        for variant, row in table.iterrows():
            shown.update({f"dcg_{variant}": float(row["DCG"]),
                          f"idcg_{variant}": float(row["IDCG"]),
                          f"ndcg_{variant}": float(row["nDCG"])})
        return shown


@keyword_options
class DCGExplorer(_Explorer):
    """Reorder a graded ranking and watch DCG and nDCG under the three conventions.

    Controls: ``rank`` (which document is selected), ``k`` (the cutoff), ``variant`` (the
    convention drawn in the bar chart) and, when the model has judged grades from the qrels,
    ``ideal`` (build IDCG from the qrels or from the list itself). The buttons in
    :attr:`buttons`, ``"up"`` and ``"down"``, move the selected document one rank; the
    selection follows it. The table shows DCG@k, IDCG@k and nDCG@k for ``"trec"``,
    ``"exponential"`` and ``"jarvelin"`` (see :func:`evalkit.dcg`), from
    :meth:`evalkit.widgets.DCGModel.summary`.

    Examples
    --------
    >>> from evalkit.widgets import DCGModel
    >>> explorer = DCGExplorer(DCGModel([2, 1, 0, 2, 0]), plot=False)
    >>> explorer.controls["rank"].value = 4
    >>> explorer.buttons["up"].click()
    >>> explorer.buttons["up"].click()
    >>> explorer.model.relevance.tolist()
    [2.0, 2.0, 1.0, 0.0, 0.0]
    >>> explorer.model.dcg_table(5).loc["jarvelin", "nDCG"].round(3).item()
    1.0
    """

    IDEAL_OPTIONS = (("the qrels", "qrels"), ("this list", "list"))

    def __init__(self, model: DCGModel | None = None, *, k: int | None = None,
                 plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or DCGModel([2, 1, 0, 2, 0],
                                              doc_ids=["D1", "D2", "D3", "D4", "D5"])
        n = self.model.relevance.size
        self._qrels_ideal = self.model.ideal  # None: the ideal comes from the list
        start_k = min(self.model.k if k is None else int(k), n)
        style = {"description_width": "110px"}
        toggle_style = {"description_width": "110px", "button_width": "100px"}
        controls: dict[str, widgets.Widget] = {
            "rank": widgets.IntSlider(value=1, min=1, max=max(n, 1), description="selected rank",
                                      style=style, layout=widgets.Layout(width="360px")),
            "k": widgets.IntSlider(value=start_k, min=1, max=max(n, 1), description="cutoff k",
                                   style=style, layout=widgets.Layout(width="360px")),
            "variant": widgets.ToggleButtons(options=list(DCG_VARIANTS), value="trec",
                                             description="bar chart", style=toggle_style),
        }
        if self._qrels_ideal is not None:
            controls["ideal"] = widgets.ToggleButtons(options=list(self.IDEAL_OPTIONS),
                                                      value="qrels", description="ideal from",
                                                      style=toggle_style)
        self.buttons = {
            "up": widgets.Button(description="move up", icon="arrow-up",
                                 layout=widgets.Layout(width="130px")),
            "down": widgets.Button(description="move down", icon="arrow-down",
                                   layout=widgets.Layout(width="130px")),
        }
        self.buttons["up"].on_click(lambda _: self.move_selected(-1))
        self.buttons["down"].on_click(lambda _: self.move_selected(+1))
        super().__init__(controls, plot=plot)
        rows = [widgets.HBox([controls["rank"], self.buttons["up"], self.buttons["down"]]),
                controls["k"], controls["variant"]]
        if "ideal" in controls:
            rows.append(controls["ideal"])
        self.widget = widgets.VBox(rows + [self._summary_beside_plot()])

    def move_selected(self, step: int) -> None:
        """Move the selected document ``step`` ranks (-1: up, +1: down); the selection follows."""
        with self.output:
            rank = self.controls["rank"].value
            target = min(max(rank + step, 1), self.model.relevance.size)
            if target == rank:
                return  # already at the top (or bottom)
            self.model.move(rank, target)
            self.controls["rank"].value = target  # the slider's observer redraws

    def update_model(self) -> None:
        changes: dict[str, Any] = {"k": self.controls["k"].value}
        if "ideal" in self.controls:
            use_qrels = self.controls["ideal"].value == "qrels"
            changes["ideal"] = self._qrels_ideal if use_qrels else None
        self.model.set(**changes)

    def render_summary(self) -> str:
        k, rank = self.model.k, self.controls["rank"].value
        grades = self.model.relevance
        ranking = _grid(
            ["rank"] + [str(i) for i in range(1, grades.size + 1)],
            [["document"] + self.model.doc_ids, ["grade"] + [f"{g:g}" for g in grades]],
            shaded_column=rank,
        )
        s = self.model.summary()
        rows = [[variant] + [_format(s[f"{measure}_{variant}"])
                             for measure in ("dcg", "idcg", "ndcg")]
                for variant in DCG_VARIANTS]
        chosen = DCG_VARIANTS.index(self.controls["variant"].value)
        measures = _grid(["convention", f"DCG@{k}", f"IDCG@{k}", f"nDCG@{k}"], rows,
                         bold_row=chosen)
        if self.model.ideal is None:
            ideal_text = "the grades in this list"
        else:
            ideal_text = "all judged grades of the query (qrels)"
        ideal = sorted((self.model.relevance if self.model.ideal is None else self.model.ideal),
                       reverse=True)
        doc = self.model.doc_ids[rank - 1]
        return (
            f"<p><b>Selected:</b> rank {rank}, {html.escape(doc)} (grade {grades[rank - 1]:g})"
            "</p>" + ranking
            + f"<p><b>Ideal ranking</b> from {ideal_text}: "
            + html.escape(", ".join(f"{g:g}" for g in ideal)) + "</p>" + measures
        )

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import plot_dcg_gains

        figure, ax = plt.subplots(figsize=(5.6, 3.4))
        plot_dcg_gains(self.model.relevance, k=self.model.k,
                       variant=self.controls["variant"].value, doc_ids=self.model.doc_ids,
                       highlight=self.controls["rank"].value, ax=ax)
        figure.tight_layout()
        return figure
