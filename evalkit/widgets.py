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
from .stats import TEST_SET_SIZES, AccuracySamplingModel

__all__ = ["TestSetExplorer", "ContingencyExplorer"]


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

