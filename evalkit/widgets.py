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

__all__ = [
    "TestSetExplorer",
    "ContingencyExplorer",
    "DCGExplorer",
    "RelevanceExplorer",
    "AveragingExplorer",
    "CostExplorer",
    "ROCExplorer",
    "KappaExplorer",
    "RankingExplorer",
]


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


class AveragingExplorer(_Explorer):
    """Skew the class sizes, weaken the classifier on rare classes, and watch the averages part.

    Controls: ``skew`` (Zipf exponent of the class sizes; 0 = balanced), ``rare_weakness``
    (how much worse the classifier is on rare classes), ``top_recall`` (its recall on the
    largest class), ``n_classes`` and ``errors_to`` (where misclassified samples go). The
    table shows precision, recall and F1 under micro, weighted, dodrans, entropy, macro and
    macro_pr averaging, from :meth:`evalkit.classification.ClassImbalanceModel.averages`; the
    plot shows each class's weight per scheme and the F1 of each average.

    Examples
    --------
    >>> explorer = AveragingExplorer(plot=False)
    >>> explorer.controls["skew"].value = 0.0
    >>> explorer.controls["rare_weakness"].value = 0.0
    >>> explorer.model.support.tolist()
    [250, 250, 250, 250, 250, 250, 250, 250]
    """

    ERRORS_TO = (("to larger classes", "proportional"), ("to any class", "uniform"))

    def __init__(self, model: Any = None, *, plot: bool = True) -> None:
        from .classification import ClassImbalanceModel

        self.model = model or ClassImbalanceModel()
        style = {"description_width": "170px"}
        layout = widgets.Layout(width="520px")
        slider = {"style": style, "layout": layout, "continuous_update": False}
        controls: dict[str, widgets.Widget] = {
            "skew": widgets.FloatSlider(value=self.model.skew, min=0.0, max=3.0, step=0.1,
                                        description="skew of class sizes", **slider),
            "rare_weakness": widgets.FloatSlider(value=self.model.rare_weakness, min=0.0,
                                                 max=1.5, step=0.1,
                                                 description="weakness on rare classes",
                                                 **slider),
            "top_recall": widgets.FloatSlider(value=self.model.top_recall, min=0.3, max=1.0,
                                              step=0.01, description="recall on largest class",
                                              **slider),
            "n_classes": widgets.IntSlider(value=self.model.n_classes, min=2,
                                           max=max(20, self.model.n_classes),
                                           description="number of classes", **slider),
            "errors_to": widgets.ToggleButtons(options=list(self.ERRORS_TO),
                                               value=self.model.errors_to,
                                               description="errors go", style=style),
        }
        super().__init__(controls, plot=plot)

    def update_model(self) -> None:
        self.model.set(**{name: control.value for name, control in self.controls.items()})

    def render_summary(self) -> str:
        m = self.model
        averages = m.averages()
        rows = [[scheme] + [_format(averages.loc[scheme, column]) for column in averages.columns]
                for scheme in averages.index]
        f1 = averages["f_score"]
        table = _grid(["average", "precision", "recall", "F1"], rows,
                      "Averages of the same predictions", bold_row=None)
        support = m.support
        facts = [
            ("class sizes (largest first)", ", ".join(str(int(n)) for n in support)),
            ("recall by design", ", ".join(f"{r:.2f}" for r in m.designed_recall)),
            ("accuracy", _format(m.accuracy)),
            ("F1: highest − lowest average", _format(float(f1.max() - f1.min()))),
        ]
        # Sizes fall with the class index, so entropy breaks D1 where its weight rises again
        # (possible only for a class holding more than N/e of the samples).
        entropy = m.weights(["entropy"])["entropy"].tolist()
        rises = [i for i in range(len(entropy) - 1) if entropy[i + 1] > entropy[i] + 1e-12]
        if rises:
            i = rises[0]
            facts.append(("entropy breaks D1",
                          f"class {i} (n = {support[i]} > N/e = {m.n_samples / math.e:.0f}) "
                          f"weighs less than class {i + 1} (n = {support[i + 1]})"))
        return table + _table(facts, "The data")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from .plots import plot_averages, plot_class_weights

        figure, (left, right) = plt.subplots(1, 2, figsize=(11.5, 3.9),
                                             gridspec_kw={"width_ratios": [1.25, 1]})
        plot_class_weights(self.model.support, ax=left)
        plot_averages(self.model.averages(), ax=right)
        right.set_ylabel("F1")
        right.set_xlabel("averaging scheme")
        right.set_title(f"F1 of the same predictions (accuracy {self.model.accuracy:.3f})")
        figure.tight_layout()
        return figure


class CostExplorer(_Explorer):
    """Move the decision threshold and the price of each error; watch the cost follow.

    Controls: ``threshold`` (first; predict positive when the score is at least it),
    ``cost_fn`` and ``cost_fp`` (sliders from 0 to ``max_cost``), ``cost_tp`` and
    ``cost_tn`` (number boxes; a negative cost is a benefit). The summary shows the
    confusion matrix at the threshold, accuracy, total and expected cost, the cheapest
    threshold on these data with its cost and accuracy, and :math:`p^*`, the threshold that is
    optimal for calibrated probabilities; the plot shows the cost of every threshold
    (:func:`evalkit.plots.plot_cost_curve`) and the confusion matrix as a heat map. The
    numbers come from :class:`evalkit.costs.CostThresholdModel`, which finds the cheapest
    threshold once per change of the costs.

    Examples
    --------
    >>> from evalkit.costs import CostThresholdModel
    >>> model = CostThresholdModel([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], cost_fn=5)
    >>> explorer = CostExplorer(model, plot=False)
    >>> explorer.controls["threshold"].value = 0.3  # 0.35, 0.4 and 0.8 predicted positive
    >>> explorer.model.confusion().tolist(), explorer.model.total_cost()
    ([[1, 1], [0, 2]], 1.0)
    >>> explorer.controls["cost_fp"].value = 10  # false alarms now cost more than misses
    >>> explorer.model.optimum()
    ThresholdCost(threshold=0.8, cost=5.0)
    """

    COSTS = ("cost_fn", "cost_fp", "cost_tp", "cost_tn")

    def __init__(self, model: Any = None, *, labels: Any = None, max_cost: float | None = None,
                 plot: bool = True) -> None:
        import numpy as np

        from .costs import CostThresholdModel

        if model is None:
            # 400 cases whose scores are calibrated by construction: a case with score s is
            # positive with probability s, so p* is the right threshold on average.
            rng = np.random.default_rng(0)
            y_score = np.round(rng.beta(1.2, 2.5, 400), 3)
            y_true = (rng.random(400) < y_score).astype(int)
            model = CostThresholdModel(y_true, y_score, cost_fn=5.0)
        self.model = model
        if labels is None:
            labels = ("negative", "positive")
        if len(labels) != 2:
            raise ValueError(f"labels must be two names (negative, positive); got {labels!r}")
        self.labels = (str(labels[0]), str(labels[1]))
        largest = max(abs(getattr(model, name)) for name in self.COSTS)
        max_cost = max(float(max_cost) if max_cost is not None else 2.0 * largest, largest, 1.0)
        low, high = float(model.y_score.min()), float(model.y_score.max())
        if low >= 0.0 and high <= 1.0:  # probabilities: the whole of [0, 1]
            low, high, step, fmt = 0.0, 1.0, 0.01, ".2f"
        else:
            step, fmt = (high - low) / 200 or 1.0, ".3g"
            high = high if high > low else low + 1.0
        style = {"description_width": "190px"}
        layout = widgets.Layout(width="560px")
        cost_step = 0.1 if max_cost <= 20 else 0.5
        controls: dict[str, widgets.Widget] = {
            "threshold": widgets.FloatSlider(
                value=min(max(model.threshold, low), high), min=low, max=high, step=step,
                readout_format=fmt, description="threshold (score ≥ t)", style=style,
                layout=layout, continuous_update=False),
            "cost_fn": widgets.FloatSlider(
                value=model.cost_fn, min=0.0, max=max_cost, step=cost_step,
                description="cost of a FN (a miss)", style=style, layout=layout,
                continuous_update=False),
            "cost_fp": widgets.FloatSlider(
                value=model.cost_fp, min=0.0, max=max_cost, step=cost_step,
                description="cost of a FP (false alarm)", style=style, layout=layout,
                continuous_update=False),
            "cost_tp": widgets.BoundedFloatText(
                value=model.cost_tp, min=-max_cost, max=max_cost, step=cost_step,
                description="cost of a TP (− = benefit)", style=style,
                layout=widgets.Layout(width="300px")),
            "cost_tn": widgets.BoundedFloatText(
                value=model.cost_tn, min=-max_cost, max=max_cost, step=cost_step,
                description="cost of a TN (− = benefit)", style=style,
                layout=widgets.Layout(width="300px")),
        }
        super().__init__(controls, plot=plot)
        # The three tables side by side, the two plots below them at full width.
        self.widget = widgets.VBox([widgets.VBox(list(controls.values())), self.summary,
                                    self.output])

    def update_model(self) -> None:
        self.model.set(**{name: control.value for name, control in self.controls.items()})

    def _threshold_text(self, threshold: float) -> str:
        return "inf (never positive)" if math.isinf(threshold) else f"{threshold:.4g}"

    def render_summary(self) -> str:
        from .costs import total_cost

        m = self.model
        negative, positive = self.labels
        confusion = m.confusion()
        counts = _grid(["", f"predicted {negative}", f"predicted {positive}"],
                       [[f"true {negative}", str(confusion[0, 0]), str(confusion[0, 1])],
                        [f"true {positive}", str(confusion[1, 0]), str(confusion[1, 1])]],
                       "Confusion matrix (TN FP / FN TP)")
        costs = m.cost_matrix
        prices = _grid(["", f"predicted {negative}", f"predicted {positive}"],
                       [[f"true {negative}", f"{costs[0, 0]:g}", f"{costs[0, 1]:g}"],
                        [f"true {positive}", f"{costs[1, 0]:g}", f"{costs[1, 1]:g}"]],
                       "Cost matrix (same layout)")
        best = m.optimum()
        best_confusion = m.confusion(best.threshold)
        rows = [
            ("accuracy", _format(m.accuracy())),
            ("total cost", _format(m.total_cost(), 2)),
            ("expected cost per case", _format(m.expected_cost(), 4)),
            ("cheapest threshold on these data", self._threshold_text(best.threshold)),
            ("its total cost", _format(best.cost, 2)),
            ("its accuracy", _format(float(best_confusion.trace() / m.n_samples))),
            ("extra cost of the chosen threshold", _format(m.total_cost() - best.cost, 2)),
        ]
        p_star = m.theoretical_threshold()
        if p_star is None:
            rows.append(("p* (calibrated probabilities)",
                         f"not applicable: {m.theoretical_threshold_issue()}"))
        else:
            rows.append(("p* (calibrated probabilities)", f"{p_star:.4f}"))
            rows.append(("total cost at p*",
                         _format(total_cost(m.confusion(p_star), m.cost_matrix), 2)))
        heading = (f"<p><b>Predict {html.escape(positive)} when the score ≥ "
                   f"{m.threshold:.4g}</b> ({m.n_samples} cases, {m.n_positive} of them "
                   f"{html.escape(positive)})</p>")
        return (heading + "<div style='display:flex;flex-wrap:wrap;gap:28px;"
                "align-items:flex-start'>" + counts + prices + _table(rows, "Costs") + "</div>")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from .plots import plot_confusion_matrix, plot_cost_curve

        m = self.model
        figure, (left, right) = plt.subplots(1, 2, figsize=(10.5, 3.9),
                                             gridspec_kw={"width_ratios": [1.7, 1]})
        plot_cost_curve(m.table["threshold"], m.table["cost"], optimum=m.optimum(),
                        current=m.threshold, ax=left)
        p_star = m.theoretical_threshold()
        if p_star is not None:
            left.axvline(p_star, color="#8d99ae", linestyle=":", linewidth=1.5,
                         label=f"p* = {p_star:.3g}")
            left.legend(loc="best", fontsize=8)
        # Near threshold 1 a good classifier misses every positive, and that cost would squash
        # the interesting part: show from the optimum to a margin above the current cost.
        best, now = m.optimum().cost, m.total_cost()
        top = min(float(m.table["cost"].max()), now + max(now - best, abs(best), 1.0))
        pad = 0.08 * (top - best) or 1.0
        left.set_ylim(best - pad, top + pad)
        left.set_title(f"Total cost of each threshold (cost now {now:.4g})")
        plot_confusion_matrix(m.confusion(), list(self.labels), ax=right,
                              title=f"At t = {m.threshold:.3g}: accuracy {m.accuracy():.3f}")
        figure.tight_layout()
        return figure


class ROCExplorer(_Explorer):
    """Change the class balance and the threshold of one scorer; watch ROC and PR respond.

    Controls, in this order: ``prevalence`` (the share of positives in the test set, 1% to
    99%; the scorer stays the same), ``threshold`` (predict positive when the score is at
    least this) and ``separation`` (how far the positives' scores lie above the negatives').
    The summary shows the confusion matrix, TPR, FPR, precision, the cost (when the model has
    a cost matrix), AUC, average precision, Youden's threshold and the cheapest threshold;
    the figure shows the operating point on the ROC curve and on the PR curve side by side.
    Moving the balance changes precision, the PR curve and the cost, but not TPR, FPR, the
    ROC curve or its AUC. The state is a :class:`evalkit.curves.ClassBalanceModel`.

    Examples
    --------
    >>> explorer = ROCExplorer(plot=False)
    >>> before = explorer.model.rates()
    >>> explorer.controls["prevalence"].value = 0.05
    >>> after = explorer.model.rates()
    >>> after["tpr"] == before["tpr"], after["precision"] < before["precision"]
    (True, True)
    """

    def __init__(self, model: Any = None, *, plot: bool = True) -> None:
        from .curves import ClassBalanceModel

        self.model = model or ClassBalanceModel(cost_matrix=[[0, 1], [10, 0]])
        style = {"description_width": "170px"}
        layout = widgets.Layout(width="520px")
        slider = {"style": style, "layout": layout, "continuous_update": False}
        threshold = self.model.threshold
        controls: dict[str, widgets.Widget] = {
            "prevalence": widgets.FloatSlider(value=self.model.prevalence, min=0.01, max=0.99,
                                              step=0.01, readout_format=".0%",
                                              description="positives in test set", **slider),
            "threshold": widgets.FloatSlider(value=threshold, min=min(-3.0, threshold),
                                             max=max(6.0, threshold), step=0.05,
                                             readout_format=".2f",
                                             description="threshold (score >=)", **slider),
            "separation": widgets.FloatSlider(value=self.model.separation,
                                              min=min(0.0, self.model.separation),
                                              max=max(4.0, self.model.separation), step=0.1,
                                              description="separation of the classes",
                                              **slider),
        }
        super().__init__(controls, plot=plot)

    def update_model(self) -> None:
        self.model.set(prevalence=round(self.controls["prevalence"].value, 2),
                       threshold=self.controls["threshold"].value,
                       separation=self.controls["separation"].value)

    def render_summary(self) -> str:
        m = self.model
        s = m.summary()
        (tn, fp), (fn, tp) = s["confusion"].tolist()
        confusion = _grid(
            ["", "predicted negative", "predicted positive"],
            [["true negative", str(tn), str(fp)], ["true positive", str(fn), str(tp)]],
            f"Test set: {s['n_test']} cases, {s['n_positive']} positive "
            f"({m.prevalence:.0%}), {s['n_negative']} negative",
        )
        at_threshold = [
            ("TPR (recall) = TP / P", _format(s["tpr"])),
            ("FPR = FP / N", _format(s["fpr"])),
            ("precision = TP / (TP + FP)", _format(s["precision"])),
            ("accuracy", _format(s["accuracy"])),
        ]
        if "cost" in s:
            (c_tn, c_fp), (c_fn, c_tp) = m.cost_matrix.tolist()
            at_threshold += [
                ("total cost", _format(s["cost"], 1)),
                ("cost per case", _format(s["expected_cost"])),
            ]
        whole_curve = [
            ("AUC (ROC)", _format(s["auc"])),
            ("average precision (PR)", _format(s["average_precision"])),
            ("PR baseline = prevalence", _format(m.prevalence, 2)),
            ("Youden's J threshold", _format(s["youden_threshold"])),
        ]
        if "cost" in s:
            whole_curve.append(("cheapest threshold here", _format(s["cheapest_threshold"])))
        note = ""
        if "cost" in s:
            note = (f"<p style='max-width:420px'>Costs: FP {c_fp:g}, FN {c_fn:g}, TN {c_tn:g}, "
                    f"TP {c_tp:g}.</p>")
        return (confusion + _table(at_threshold, f"At threshold {m.threshold:.2f}")
                + _table(whole_curve, "Over all thresholds") + note)

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from .plots import plot_pr_curve, plot_roc_curve

        m = self.model
        s = m.summary()
        fpr, tpr, _ = m.roc_curve()
        precision, recall, _ = m.pr_curve()
        figure, (left, right) = plt.subplots(1, 2, figsize=(10.5, 4.6))
        plot_roc_curve(fpr, tpr, auc=s["auc"], operating_point=(s["fpr"], s["tpr"]), ax=left,
                       title="ROC curve: the same at every balance")
        point = None if math.isnan(s["precision"]) else (s["recall"], s["precision"])
        plot_pr_curve(precision, recall, prevalence=m.prevalence, operating_point=point,
                      label=f"PR curve (AP {s['average_precision']:.3g})", ax=right,
                      title=f"Precision-recall curve at {m.prevalence:.0%} positives")
        figure.tight_layout()
        return figure


class KappaExplorer(_Explorer):
    """Two judges' yes/no table: move the prevalence and watch kappa move while P(a) stays.

    Controls, in this order: ``yes_share`` (the share of the agreed items that both judges
    call "yes"; moving it leaves the observed agreement alone and produces the first kappa
    paradox, high agreement with low kappa when one label dominates), ``agreement`` (the
    observed agreement :math:`P(a)`) and ``a_yes_share`` (the share of the disagreements
    where judge A says "yes" and B "no"; moving it away from one half makes the marginals
    lopsided, which raises Cohen's kappa but not Scott's: the second paradox). The number of
    items stays that of the model. The summary shows the table, :math:`P(a)`, each judge's
    share of "yes", :math:`P(e)` and kappa with separate (Cohen) and pooled (Scott) marginals,
    and the Landis & Koch and Carletta labels; the figure draws kappa against the first and
    the third control with :math:`P(a)` fixed. The state is an
    :class:`evalkit.agreement.AgreementTableModel`.

    Examples
    --------
    >>> explorer = KappaExplorer(plot=False)  # the 400-document table of IIR section 8.5
    >>> round(explorer.model.kappa(), 4), round(explorer.model.kappa("pooled"), 4)
    (0.7761, 0.7759)
    >>> explorer.controls["yes_share"].value = 0.95
    >>> explorer.model.table.tolist()
    [[352, 20], [10, 18]]
    >>> explorer.model.observed_agreement(), round(explorer.model.kappa(), 4)
    (0.925, 0.5056)
    """

    def __init__(self, model: Any = None, *, plot: bool = True) -> None:
        from .agreement import AgreementTableModel

        self.model = model or AgreementTableModel()

        def start(share: float) -> float:
            return 0.5 if math.isnan(share) else share

        style = {"description_width": "200px"}
        layout = widgets.Layout(width="540px")
        slider = {"style": style, "layout": layout, "continuous_update": False}
        controls: dict[str, widgets.Widget] = {
            "yes_share": widgets.FloatSlider(
                value=start(self.model.yes_share), min=0.0, max=1.0, step=0.01,
                readout_format=".0%", description="agreed items that are 'yes'", **slider),
            "agreement": widgets.FloatSlider(
                value=self.model.observed_agreement(), min=0.0, max=1.0, step=0.005,
                readout_format=".1%", description="observed agreement P(a)", **slider),
            "a_yes_share": widgets.FloatSlider(
                value=start(self.model.a_yes_share), min=0.0, max=1.0, step=0.05,
                readout_format=".0%", description="disagreements: A yes, B no", **slider),
        }
        super().__init__(controls, plot=plot)

    def update_model(self) -> None:
        self.model.set_shares(**{name: control.value for name, control in self.controls.items()})

    def render_summary(self) -> str:
        m = self.model
        s = m.summary()
        a_yes = m.both_yes + m.a_yes_b_no
        b_yes = m.both_yes + m.a_no_b_yes
        table = _grid(
            ["", "B yes", "B no", "total"],
            [["A yes", str(m.both_yes), str(m.a_yes_b_no), str(a_yes)],
             ["A no", str(m.a_no_b_yes), str(m.both_no), str(m.n_items - a_yes)],
             ["total", str(b_yes), str(m.n_items - b_yes), str(m.n_items)]],
            f"{m.n_items} items judged by A (rows) and B (columns)",
        )
        shares = [
            ("observed agreement P(a)", _format(s["P(a)"], 4)),
            ("judge A says yes", _format(s["A yes"], 4)),
            ("judge B says yes", _format(s["B yes"], 4)),
            ("pooled share of yes", _format(s["pooled yes"], 4)),
        ]
        kappas = [
            ("P(e), separate marginals", _format(s["P(e) separate"], 4)),
            ("P(e), pooled marginals", _format(s["P(e) pooled"], 4)),
            ("kappa, separate (Cohen)", _format(s["kappa separate"], 4)),
            ("kappa, pooled (Scott)", _format(s["kappa pooled"], 4)),
            ("Landis & Koch: separate | pooled",
             f"{s['landis-koch separate']} | {s['landis-koch pooled']}"),
            ("Carletta: separate | pooled",
             f"{s['carletta separate']} | {s['carletta pooled']}"),
        ]
        return table + _table(shares, "Agreement") + _table(kappas, "Chance and kappa")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt
        import numpy as np

        m = self.model
        grid = np.linspace(0.0, 1.0, 201)
        observed = m.observed_agreement()
        figure, axes = plt.subplots(1, 2, figsize=(10.5, 3.8), sharey=True)
        panels = [
            ("yes_share", "share of agreed items both call 'yes'",
             "Prevalence: same P(a), different kappa"),
            ("a_yes_share", "share of disagreements where A says yes",
             "Lopsided disagreements raise Cohen's kappa"),
        ]
        lowest = 0.0
        for ax, (parameter, xlabel, title) in zip(axes, panels, strict=True):
            now = getattr(m, parameter)
            for marginals, style, color in (("separate", "-", "#1f77b4"),
                                            ("pooled", "--", "#d62728")):
                curve = m.kappa_curve(parameter, grid, marginals=marginals)
                name = "Cohen (separate)" if marginals == "separate" else "Scott (pooled)"
                ax.plot(grid, curve, style, color=color, label=f"kappa, {name}")
                if np.isfinite(curve).any():
                    lowest = min(lowest, float(np.nanmin(curve)))
                if not math.isnan(now) and not math.isnan(m.kappa(marginals)):
                    ax.plot([now], [m.kappa(marginals)], "o", color=color)
            ax.axhline(observed, color="#555555", linestyle=":",
                       label=f"P(a) = {observed:.3f}")
            ax.set_xlabel(xlabel)
            ax.set_title(title, fontsize=10)
            ax.set_xlim(0, 1)
            ax.grid(alpha=0.3)
        axes[0].set_ylabel("kappa")
        axes[0].set_ylim(lowest - 0.05, 1.05)
        axes[1].legend(loc="lower center", fontsize=8)
        figure.tight_layout()
        return figure


_VERDICT_COLOURS = {"concordant": "#d8f3dc", "discordant": "#fde2d7",
                    "tied in reference": "#e9ecef"}


class RankingExplorer(_Explorer):
    """Permute a ranking and watch every pair, C, D, Kendall's tau and Spearman's rho.

    Controls, in this order: ``discordant`` (a slider: start from the reference order and
    make that many random swaps of neighbours, each of which turns one more pair discordant;
    the same value always gives the same ranking), ``selected`` (a position in the second
    ranking) and ``preset`` (named orders from
    :meth:`evalkit.correlation.RankingPairsModel.presets`). The buttons in :attr:`buttons`,
    ``"up"``, ``"down"`` and ``"reset"``, move the selected item one place (the selection
    follows it) or go back to the order the model was built with. After every change the
    ``discordant`` slider shows the current D and ``preset`` the matching name, if any.

    The summary shows both rankings, the counts and coefficients, and every pair marked
    concordant or discordant; the figure draws the two rankings with a line per item, where
    every crossing is a discordant pair (:func:`evalkit.plots.plot_rank_crossings`). The state
    is a :class:`evalkit.correlation.RankingPairsModel`.

    Examples
    --------
    >>> explorer = RankingExplorer(plot=False)  # the notes' 2 1 5 3 4
    >>> explorer.model.summary()["tau_b"]
    0.4
    >>> explorer.controls["selected"].value = 3  # item 5
    >>> explorer.buttons["down"].click()
    >>> explorer.model.order, explorer.controls["discordant"].value
    (['2', '1', '3', '5', '4'], 2)
    >>> explorer.controls["discordant"].value = 0
    >>> explorer.model.order, explorer.controls["preset"].value
    (['1', '2', '3', '4', '5'], 'same as the reference')
    """

    MAX_LISTED_PAIRS = 45  # list every pair up to 10 items; beyond, only the discordant ones

    def __init__(self, model: Any = None, *, plot: bool = True) -> None:
        from .correlation import RankingPairsModel

        self.model = model or RankingPairsModel.course_notes()
        self._presets = self.model.presets()
        self._syncing = False
        n = self.model.n_items
        style = {"description_width": "150px"}
        controls: dict[str, widgets.Widget] = {
            "discordant": widgets.IntSlider(
                value=self.model.counts().discordant, min=0, max=self.model.max_discordant,
                description="discordant pairs D", style=style,
                layout=widgets.Layout(width="460px")),
            "selected": widgets.IntSlider(value=1, min=1, max=n, description="selected position",
                                          style=style, layout=widgets.Layout(width="400px")),
            "preset": widgets.Dropdown(options=list(self._presets), value=None,
                                       description="set the ranking to", style=style,
                                       layout=widgets.Layout(width="400px")),
        }
        self.buttons = {
            "up": widgets.Button(description="move up", icon="arrow-up",
                                 layout=widgets.Layout(width="120px")),
            "down": widgets.Button(description="move down", icon="arrow-down",
                                   layout=widgets.Layout(width="120px")),
            "reset": widgets.Button(description="reset", icon="undo",
                                    layout=widgets.Layout(width="120px")),
        }
        self.buttons["up"].on_click(lambda _: self.move_selected(-1))
        self.buttons["down"].on_click(lambda _: self.move_selected(+1))
        self.buttons["reset"].on_click(lambda _: self.reset())
        super().__init__(controls, plot=plot)
        hint = widgets.HTML("<i>The slider starts from the reference order and swaps "
                            "neighbours at random: each step adds one discordant pair.</i>")
        self.widget = widgets.VBox([
            controls["discordant"], hint,
            widgets.HBox([controls["selected"], self.buttons["up"], self.buttons["down"]]),
            widgets.HBox([controls["preset"], self.buttons["reset"]]),
            widgets.HBox([self.summary, self.output]),
        ])

    def _on_change(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return  # update_model is setting the controls to match the model
        with self.output:
            owner = change["owner"]
            if owner is self.controls["discordant"]:
                self.model.scramble(change["new"])
            elif owner is self.controls["preset"] and change["new"] is not None:
                self.model.set_order(self._presets[change["new"]])
        self.refresh()

    def move_selected(self, step: int) -> None:
        """Move the selected item ``step`` places (-1: up, +1: down); the selection follows."""
        with self.output:
            position = self.controls["selected"].value
            target = min(max(position + step, 1), self.model.n_items)
            if target == position:
                return  # already at the top (or bottom)
            self.model.move(position, target - position)
            self.controls["selected"].value = target  # the slider's observer redraws

    def reset(self) -> None:
        """Go back to the order the model was built with."""
        with self.output:
            self.model.reset()
        self.refresh()

    def update_model(self) -> None:
        # The model changes through actions (slider, buttons, preset); here the controls are
        # set to show its state, without acting on their own change.
        self._syncing = True
        try:
            self.controls["discordant"].value = self.model.counts().discordant
            matching = [name for name, order in self._presets.items()
                        if order == self.model.order]
            self.controls["preset"].value = matching[0] if matching else None
        finally:
            self._syncing = False

    def render_summary(self) -> str:
        m = self.model
        s = m.summary()
        position = self.controls["selected"].value
        item = m.order[position - 1]
        places = dict(zip(m.items, m.reference.tolist(), strict=True))
        rankings = _grid(
            ["position"] + [str(i) for i in range(1, m.n_items + 1)],
            [["reference"] + m.reference_order,
             ["your ranking"] + list(m.order),
             ["its reference place"] + [f"{places[name]:g}" for name in m.order]],
            shaded_column=position,
        )
        difference = s["concordant"] - s["discordant"]
        rows = [
            ("items n", str(s["n_items"])),
            ("pairs n(n-1)/2", str(s["n_pairs"])),
            ("concordant pairs C", str(s["concordant"])),
            ("discordant pairs D", str(s["discordant"])),
            ("pairs tied in the reference", str(s["tied"])),
            ("Kendall's τ-a = (C - D) / pairs", _format(s["tau_a"])),
            ("Kendall's τ-b (scipy's default)", _format(s["tau_b"])),
            ("Spearman's ρ", _format(s["rho"])),
        ]
        sums = (f"τ-a = ({s['concordant']} - {s['discordant']}) / {s['n_pairs']} = "
                f"{difference} / {s['n_pairs']} = {_format(s['tau_a'])}")
        pairs = m.pairs()
        caption = "Every pair"
        if len(pairs) > self.MAX_LISTED_PAIRS:
            pairs = pairs[pairs.verdict == "discordant"]
            caption = f"The {len(pairs)} discordant pairs"
        body = "".join(
            "<tr>" + "".join(
                f"<td style='padding:1px 8px;font-family:monospace'>{html.escape(cell)}</td>"
                for cell in (f"{{{row.first}, {row.second}}}", row[2], row[3]))
            + f"<td style='padding:1px 8px;background:{_VERDICT_COLOURS[row.verdict]}'>"
            f"{html.escape(row.verdict)}</td></tr>"
            for row in pairs.itertuples(index=False))
        head = "".join(f"<th style='padding:1px 8px;text-align:left'>{name}</th>"
                       for name in ("pair", "reference", "your ranking", "verdict"))
        pair_table = (f"<table class='evalkit-pairs'><caption style='text-align:left'><b>"
                      f"{caption}</b></caption><tr>{head}</tr>{body}</table>")
        return (
            f"<p><b>Selected:</b> position {position}, item {html.escape(item)} "
            f"(reference place {places[item]:g})</p>" + rankings
            + _table(rows, "Counts and coefficients")
            + f"<p style='max-width:440px'>{html.escape(sums)}</p>" + pair_table
        )

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from .plots import plot_rank_crossings

        m = self.model
        selected = m.order[self.controls["selected"].value - 1]
        figure, ax = plt.subplots(figsize=(4.2, 0.45 * m.n_items + 1.6))
        plot_rank_crossings(m.reference, m.y, labels=m.items, highlight=selected,
                            right_title="your ranking", ax=ax)
        figure.tight_layout()
        return figure
