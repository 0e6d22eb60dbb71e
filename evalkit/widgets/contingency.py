"""The contingency explorer: the retrieved/relevant table of one query and every measure."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_scalar
from ..agreement import labels_from_table
from ..classification import accuracy, error_rate, f1_score, f_score, precision, recall, specificity
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets


@keyword_options
@dataclass
class ContingencyModel(SettingsModel):
    """The retrieved/relevant contingency table of one query, and every measure it gives.

    This is the state behind :class:`evalkit.widgets.ContingencyExplorer`: set the four
    counts and read :meth:`summary`. ``tp`` relevant documents were retrieved, ``fp``
    non-relevant documents were retrieved, ``fn`` relevant documents were missed and ``tn``
    non-relevant documents were (rightly) left out.

    Examples
    --------
    >>> model = ContingencyModel(tp=30, fp=0, fn=10, tn=60)
    >>> model.summary()["recall"]
    0.75
    """

    tp: int = 30
    fp: int = 0
    fn: int = 10
    tn: int = 60
    _: KW_ONLY
    beta: float = 1.0

    def __post_init__(self) -> None:
        self.set(**{name: getattr(self, name) for name in self.SETTINGS})

    SETTINGS = ("tp", "fp", "fn", "tn", "beta")

    @staticmethod
    def _checks() -> dict[str, Any]:
        checks: dict[str, Any] = {
            name: (lambda v, name=name: check_scalar(v, name, kind="int", low=0))
            for name in ("tp", "fp", "fn", "tn")
        }
        checks["beta"] = lambda v: check_scalar(v, "beta", low=0.0)
        return checks

    def _check_together(self, checked: dict[str, Any]) -> None:
        counts = [checked.get(name, getattr(self, name)) for name in ("tp", "fp", "fn", "tn")]
        if sum(counts) == 0:
            raise ValueError("the collection is empty: tp + fp + fn + tn must be at least 1")

    @property
    def n_documents(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    def labels(self) -> tuple[np.ndarray, np.ndarray]:
        """One (relevant, retrieved) pair of 0/1 labels per document, for the metric functions:
        the items of the confusion matrix ``[[TN, FP], [FN, TP]]``, from
        :func:`evalkit.labels_from_table`."""
        return labels_from_table(self.confusion(), labels=[0, 1])

    def confusion(self) -> np.ndarray:
        """``[[TN, FP], [FN, TP]]``: rows relevant (0 = no, 1 = yes), columns retrieved, as
        :func:`evalkit.confusion_matrix` lays out 0/1 labels."""
        return np.array([[self.tn, self.fp], [self.fn, self.tp]], dtype=np.int64)

    def summary(self) -> dict[str, Any]:
        """The table's sizes and every set-based measure, computed by the library's functions.

        Keys: ``n_documents``, ``n_relevant`` (tp + fn), ``n_retrieved`` (tp + fp), then
        ``accuracy``, ``error_rate``, ``precision``, ``recall``, ``specificity``, ``f1`` and
        ``f_beta`` (for the model's ``beta``). Undefined ratios (nothing retrieved, nothing
        relevant) are NaN here, so a reader sees "undefined" rather than a silent 0.
        """
        y_true, y_pred = self.labels()
        options = {"zero_division": np.nan, "pos_label": 1}
        return {
            "n_documents": self.n_documents,
            "n_relevant": self.tp + self.fn,
            "n_retrieved": self.tp + self.fp,
            "accuracy": accuracy(y_true, y_pred),
            "error_rate": error_rate(y_true, y_pred),
            "precision": precision(y_true, y_pred, **options),
            "recall": recall(y_true, y_pred, **options),
            "specificity": specificity(y_true, y_pred, **options),
            "f1": f1_score(y_true, y_pred, **options),
            "f_beta": f_score(y_true, y_pred, beta=self.beta, **options),
        }

    def table(self) -> np.ndarray:
        """The table as the slides draw it: rows retrieved / not, columns relevant / not."""
        return np.array([[self.tp, self.fp], [self.fn, self.tn]])


@keyword_options
class ContingencyExplorer(_Explorer):
    """Set the four cells of the retrieved/relevant table and watch every measure respond.

    Controls: ``tp``, ``fp``, ``fn``, ``tn`` (sliders up to ``max_count``) and ``beta`` for
    the F-beta row. Undefined ratios (nothing retrieved, nothing relevant) show "undefined".

    Examples
    --------
    >>> explorer = ContingencyExplorer(plot=False)
    >>> explorer.controls["fp"].value = 30
    >>> round(explorer.model.summary()["precision"], 3)
    0.5
    """

    def __init__(self, model: ContingencyModel | None = None, *, max_count: int = 200,
                 plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or ContingencyModel()
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

    LABELS = {"accuracy": "accuracy", "error_rate": "error rate", "precision": "precision",
              "recall": "recall", "specificity": "specificity", "f1": "F1"}

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [("documents", str(s["n_documents"])),
                ("relevant | retrieved", f"{s['n_relevant']} | {s['n_retrieved']}")]
        rows += [(label, _format(s[key])) for key, label in self.LABELS.items()]
        rows.append((f"F-beta (beta={self.model.beta:.3g})", _format(s["f_beta"])))
        return _table(rows, "Measures")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import plot_retrieval_sets

        figure, ax = plt.subplots(figsize=(5.2, 4.6))
        plot_retrieval_sets(self.model.tp, self.model.fp, self.model.fn, self.model.tn, ax=ax)
        figure.tight_layout()
        return figure
