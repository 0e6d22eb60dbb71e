"""Interactive explorers for the notebooks.

Each explorer wires ipywidgets controls to a plain model object that holds the state and
computes what is shown (the model lives in the module that owns the maths). A test can set a
control's ``value`` and read :attr:`summary` ``.value`` without a browser; the notebooks
display the explorer by leaving it as the last expression of a cell.

Callbacks run inside ``with self.output:`` so that an error in one shows up in the notebook
(and in tests) instead of vanishing.
"""

from __future__ import annotations

import html
import math
from typing import Any

import ipywidgets as widgets
from IPython.display import display

from .classification import SetRetrievalModel
from .ranking import DCG_VARIANTS, RankedListModel
from .stats import TEST_SET_SIZES, AccuracySamplingModel

__all__ = ["TestSetExplorer", "ContingencyExplorer", "DCGExplorer", "RelevanceExplorer"]


def _format(value: float, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "undefined"
    return f"{value:.{digits}f}"


def _table(rows: list[tuple[str, str]], caption: str = "") -> str:
    body = "".join(
        f"<tr><td style='padding:1px 10px 1px 0'>{html.escape(name)}</td>"
        f"<td style='text-align:right;font-family:monospace'>{html.escape(value)}</td></tr>"
        for name, value in rows
    )
    heading = ""
    if caption:
        heading = f"<caption style='text-align:left'><b>{html.escape(caption)}</b></caption>"
    return f"<table class='evalkit-summary'>{heading}{body}</table>"


class _Explorer:
    """Shared plumbing: a summary (HTML), a plot (Output) and controls that refresh both."""

    def __init__(self, controls: dict[str, widgets.Widget], *, plot: bool = True) -> None:
        self.controls = controls
        self.summary = widgets.HTML()
        self.output = widgets.Output()
        self.plot = plot
        for control in controls.values():
            control.observe(self._on_change, names="value")
        self.widget = widgets.VBox(
            [widgets.VBox(list(controls.values())), widgets.HBox([self.summary, self.output])]
        )
        self.refresh()

    def _on_change(self, change: dict[str, Any]) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Read the controls into the model, then redraw the summary and the plot."""
        with self.output:
            self.update_model()
            self.summary.value = self.render_summary()
            if self.plot:
                import matplotlib.pyplot as plt
                from IPython.display import clear_output

                clear_output(wait=True)
                figure = self.draw()
                display(figure)
                plt.close(figure)

    def update_model(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def render_summary(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def draw(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


class TestSetExplorer(_Explorer):
    """How much does a measured accuracy vary with the size of the test set?

    Controls: ``n_test`` (test-set size), ``true_accuracy``, ``confidence`` and ``method``
    (the interval). Shows the spread of accuracies measured on many simulated test sets and
    the interval that a single test set would report.

    Examples
    --------
    >>> explorer = TestSetExplorer(plot=False)
    >>> explorer.controls["n_test"].value = 1000
    >>> explorer.model.n_test
    1000
    """

    __test__ = False  # not a pytest test class, despite its name

    def __init__(self, model: AccuracySamplingModel | None = None, *, plot: bool = True) -> None:
        self.model = model or AccuracySamplingModel()
        sizes = sorted(set(TEST_SET_SIZES) | {self.model.n_test})
        style = {"description_width": "140px"}
        layout = widgets.Layout(width="520px")
        controls = {
            "n_test": widgets.SelectionSlider(options=sizes, value=self.model.n_test,
                                              description="test-set size", style=style,
                                              layout=layout, continuous_update=False),
            "true_accuracy": widgets.FloatSlider(value=self.model.true_accuracy, min=0.5,
                                                 max=0.99, step=0.01,
                                                 description="true accuracy", style=style,
                                                 layout=layout, continuous_update=False),
            "confidence": widgets.SelectionSlider(options=[0.8, 0.9, 0.95, 0.99],
                                                  value=self.model.confidence,
                                                  description="confidence level", style=style,
                                                  layout=layout, continuous_update=False),
            "method": widgets.ToggleButtons(options=["wilson", "normal", "exact"],
                                            value=self.model.method, description="interval",
                                            style=style),
        }
        super().__init__(controls, plot=plot)

    def update_model(self) -> None:
        self.model.set(**{name: control.value for name, control in self.controls.items()})

    def render_summary(self) -> str:
        s = self.model.summary()
        share = f"{self.model.confidence:.0%}"
        rows = [
            ("true accuracy", _format(s["true accuracy"], 2)),
            ("test-set size", str(s["test-set size"])),
            ("mean of measured accuracies", _format(s["mean measured"])),
            ("spread (SD) of measured accuracies", _format(s["sd measured"])),
            ("SD in theory, sqrt(p(1-p)/n)", _format(s["sd (theory)"])),
            (f"middle {share} of measured accuracies",
             f"{_format(s['middle low'])} – {_format(s['middle high'])}"),
            ("one test set measured", _format(s["one test set"])),
            (f"its {share} {self.model.method} interval",
             f"{_format(s['CI low'])} – {_format(s['CI high'])}"),
            ("intervals containing the truth", f"{s['coverage']:.1%}"),
        ]
        return _table(rows, f"{self.model.n_repeats} simulated test sets")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from .plots import plot_accuracy_spread

        s = self.model.summary()
        figure, ax = plt.subplots(figsize=(6.5, 3.4))
        plot_accuracy_spread(self.model.simulate(), self.model.true_accuracy,
                             interval=(s["CI low"], s["CI high"]), ax=ax)
        ax.set_xlim(max(0.0, self.model.true_accuracy - 0.35),
                    min(1.0, self.model.true_accuracy + 0.25))
        figure.tight_layout()
        return figure


class ContingencyExplorer(_Explorer):
    """Set the four cells of the retrieved/relevant table and watch every measure respond.

    Controls: ``tp``, ``fp``, ``fn``, ``tn`` (sliders up to ``max_count``) and ``beta`` for
    the F-beta row. Undefined ratios (nothing retrieved, nothing relevant) show "undefined".

    Examples
    --------
    >>> explorer = ContingencyExplorer(plot=False)
    >>> explorer.controls["fp"].value = 30
    >>> round(explorer.model.measures()["precision"], 3)
    0.5
    """

    def __init__(self, model: SetRetrievalModel | None = None, *, max_count: int = 200,
                 plot: bool = True) -> None:
        self.model = model or SetRetrievalModel()
        largest = max(self.model.tp, self.model.fp, self.model.fn, self.model.tn)
        max_count = max(int(max_count), largest)
        style = {"description_width": "170px"}
        layout = widgets.Layout(width="520px")
        descriptions = {
            "tp": "TP relevant, retrieved",
            "fp": "FP not relevant, retrieved",
            "fn": "FN relevant, missed",
            "tn": "TN not relevant, missed",
        }
        controls: dict[str, widgets.Widget] = {
            name: widgets.IntSlider(value=getattr(self.model, name), min=0, max=max_count,
                                    description=text, style=style, layout=layout)
            for name, text in descriptions.items()
        }
        controls["beta"] = widgets.FloatLogSlider(value=self.model.beta, base=10, min=-1, max=1,
                                                  step=0.05, description="β for F-beta",
                                                  style=style, layout=layout)
        self._last_valid = {name: control.value for name, control in controls.items()}
        super().__init__(controls, plot=plot)

    def update_model(self) -> None:
        values = {name: control.value for name, control in self.controls.items()}
        if values["tp"] + values["fp"] + values["fn"] + values["tn"] == 0:
            # An empty collection has no measures: put back the control just moved to 0.
            for name, control in self.controls.items():
                if control.value != self._last_valid[name]:
                    control.value = self._last_valid[name]
            return
        self.model.set(**values)
        self._last_valid = values

    def render_summary(self) -> str:
        m = self.model
        measures = m.measures()
        rows = [(name, _format(value)) for name, value in measures.items()]
        rows.insert(0, ("documents", str(m.n_documents)))
        rows.insert(1, ("relevant | retrieved", f"{m.tp + m.fn} | {m.tp + m.fp}"))
        return _table(rows, "Measures")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from .plots import plot_retrieval_sets

        figure, ax = plt.subplots(figsize=(5.2, 4.6))
        plot_retrieval_sets(self.model.tp, self.model.fp, self.model.fn, self.model.tn, ax=ax)
        figure.tight_layout()
        return figure


def _grid(header: list[str], rows: list[list[str]], caption: str = "",
          bold_row: int | None = None, shaded_column: int | None = None) -> str:
    """An HTML table with a header row; ``bold_row`` and ``shaded_column`` are 0-based."""
    def shade(column: int) -> str:
        return "background:#fde2d7;" if column == shaded_column else ""

    head = "".join(f"<th style='padding:1px 8px;text-align:right;{shade(j)}'>"
                   f"{html.escape(h)}</th>" for j, h in enumerate(header))
    body = ""
    for index, row in enumerate(rows):
        weight = "font-weight:bold;" if index == bold_row else ""
        body += "<tr>" + "".join(
            f"<td style='padding:1px 8px;text-align:right;font-family:monospace;{weight}"
            f"{shade(j)}'>{html.escape(cell)}</td>" for j, cell in enumerate(row)) + "</tr>"
    heading = ""
    if caption:
        heading = f"<caption style='text-align:left'><b>{html.escape(caption)}</b></caption>"
    return f"<table class='evalkit-grid'>{heading}<tr>{head}</tr>{body}</table>"


class DCGExplorer(_Explorer):
    """Reorder a graded ranking and watch DCG and nDCG under the three conventions.

    Controls: ``rank`` (which document is selected), ``k`` (the cutoff), ``variant`` (the
    convention drawn in the bar chart) and, when the model has judged grades from the qrels,
    ``ideal`` (build IDCG from the qrels or from the list itself). The buttons in
    :attr:`buttons`, ``"up"`` and ``"down"``, move the selected document one rank; the
    selection follows it. The table shows DCG@k, IDCG@k and nDCG@k for ``"trec"``,
    ``"exponential"`` and ``"jarvelin"`` (see :func:`evalkit.dcg`), from
    :meth:`evalkit.ranking.RankedListModel.dcg_table`.

    Examples
    --------
    >>> from evalkit.ranking import RankedListModel
    >>> explorer = DCGExplorer(RankedListModel([2, 1, 0, 2, 0]), plot=False)
    >>> explorer.controls["rank"].value = 4
    >>> explorer.buttons["up"].click()
    >>> explorer.buttons["up"].click()
    >>> explorer.model.relevance.tolist()
    [2.0, 2.0, 1.0, 0.0, 0.0]
    >>> explorer.model.dcg_table(5).loc["jarvelin", "nDCG"].round(3).item()
    1.0
    """

    IDEAL_OPTIONS = (("the qrels", "qrels"), ("this list", "list"))

    def __init__(self, model: RankedListModel | None = None, *, k: int | None = None,
                 plot: bool = True) -> None:
        self.model = model or RankedListModel([2, 1, 0, 2, 0],
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
        self.widget = widgets.VBox(rows + [widgets.HBox([self.summary, self.output])])

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
        self.model.k = self.controls["k"].value
        if "ideal" in self.controls:
            use_qrels = self.controls["ideal"].value == "qrels"
            self.model.ideal = self._qrels_ideal if use_qrels else None

    def render_summary(self) -> str:
        k, rank = self.model.k, self.controls["rank"].value
        grades = self.model.relevance
        ranking = _grid(
            ["rank"] + [str(i) for i in range(1, grades.size + 1)],
            [["document"] + self.model.doc_ids, ["grade"] + [f"{g:g}" for g in grades]],
            shaded_column=rank,
        )
        table = self.model.dcg_table(k)
        rows = [[variant, _format(row.DCG), _format(row.IDCG), _format(row.nDCG)]
                for variant, row in table.iterrows()]
        chosen = list(table.index).index(self.controls["variant"].value)
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

        from .plots import plot_dcg_gains

        figure, ax = plt.subplots(figsize=(5.6, 3.4))
        plot_dcg_gains(self.model.relevance, k=self.model.k,
                       variant=self.controls["variant"].value, doc_ids=self.model.doc_ids,
                       highlight=self.controls["rank"].value, ax=ax)
        figure.tight_layout()
        return figure


class RelevanceExplorer(_Explorer):
    """Click ranks to mark them relevant and watch P@k, R-precision, AP, RR and the P-R curve.

    Controls: one toggle button per rank, ``"rank 1"``, ``"rank 2"``, … (pressed = relevant),
    and ``"k"``, the cutoff of P@k and R@k. The table shows the measures of
    :meth:`evalkit.ranking.RankedListModel.measures` and how AP is averaged; the plot shows the
    raw precision-recall points and the 11-point interpolated curve
    (:func:`evalkit.plots.plot_precision_recall`). R is the model's ``n_relevant``: fixed when
    the model was built with one (relevant documents that were never retrieved), otherwise the
    relevant documents in the list, so it follows the clicks.

    Examples
    --------
    >>> from evalkit.ranking import RankedListModel
    >>> explorer = RelevanceExplorer(RankedListModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1]),
    ...                              plot=False)
    >>> round(explorer.model.measures()["AP"], 3)
    0.6
    >>> explorer.controls["rank 2"].value = True  # rank 2 becomes relevant: R = 5
    >>> round(explorer.model.measures()["AP"], 3)
    0.789
    """

    def __init__(self, model: RankedListModel | None = None, *, k: int | None = None,
                 plot: bool = True) -> None:
        self.model = model or RankedListModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1])
        n = self.model.relevance.size
        relevant = self.model.relevant
        self.rank_buttons = [
            widgets.ToggleButton(value=bool(relevant[i]), description=str(i + 1),
                                 tooltip=f"rank {i + 1}: {self.model.doc_ids[i]}",
                                 layout=widgets.Layout(width="42px"))
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
        legend = widgets.HTML("<b>Relevant?</b> Click a rank (green = relevant):")
        ranks = widgets.HBox(self.rank_buttons, layout=widgets.Layout(flex_flow="row wrap"))
        self.widget = widgets.VBox(
            [legend, ranks, controls["k"], widgets.HBox([self.summary, self.output])])

    def update_model(self) -> None:
        for rank, button in enumerate(self.rank_buttons, start=1):
            if button.value != bool(self.model.relevant[rank - 1]):
                self.model.toggle(rank)
            button.button_style = "success" if button.value else ""
        self.model.k = self.controls["k"].value

    def render_summary(self) -> str:
        m, k = self.model, self.model.k
        measures = m.measures()
        ranks = [str(i + 1) for i in range(m.relevance.size) if m.relevant[i]]
        rows = [
            ("relevant ranks", ", ".join(ranks) or "none"),
            ("R (relevant documents)", str(m.n_relevant)),
            (f"P@{k}", _format(measures[f"P@{k}"])),
            (f"R@{k}", _format(measures[f"R@{k}"])),
            ("R-precision", _format(measures["R-prec"])),
            ("AP", _format(measures["AP"])),
            ("RR", _format(measures["RR"])),
        ]
        # Spell AP out: the precisions at the relevant ranks, and a 0 for each missed one.
        points = m.points()
        terms = [f"{p:.3g}" for p in points.precision[points.relevant]]
        missed = m.n_relevant - len(terms)
        if missed:
            terms.append(f"0 × {missed} never retrieved")
        if m.n_relevant:
            sums = f"AP = ({' + '.join(terms)}) / {m.n_relevant} = {measures['AP']:.3f}"
        else:
            sums = "AP: no relevant document (R = 0), shown as 0"
        return _table(rows, "Measures") + f"<p style='max-width:420px'>{html.escape(sums)}</p>"

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from .plots import plot_precision_recall

        m, k = self.model, self.model.k
        measures = m.measures()
        figure, ax = plt.subplots(figsize=(5.4, 4.0))
        points = m.points()
        plot_precision_recall(points, m.interpolated(), ax=ax,
                              title=f"AP = {measures['AP']:.3f}, R = {m.n_relevant}")
        if k <= len(points) and m.n_relevant:
            ax.plot(points.recall[k - 1], points.precision[k - 1], linestyle="none", marker="o",
                    markersize=14, markerfacecolor="none", markeredgecolor="#2a9d8f",
                    markeredgewidth=2, label=f"after rank k = {k}")
            ax.legend(loc="best", fontsize=8)
        figure.tight_layout()
        return figure
