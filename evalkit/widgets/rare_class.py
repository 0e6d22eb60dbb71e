"""The rare-class explorer: accuracy against precision and recall when relevant items are rare."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_scalar
from ..classification import accuracy, precision, recall, specificity
from ..plots import OKABE_ITO
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

#: Numbers of relevant documents offered by the explorer (of 10,000 by default).
RELEVANT_COUNTS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
#: Numbers of non-relevant documents retrieved (false alarms) offered by the explorer.
FALSE_ALARM_COUNTS = (0, 1, 2, 5, 10, 12, 20, 50, 100, 200, 500, 1000)


@keyword_options
@dataclass(kw_only=True)
class RareClassModel(SettingsModel):
    r"""A system that finds a share of the relevant documents and lets in some false alarms.

    The collection has ``n_documents`` documents, ``n_relevant`` of them relevant. The system
    retrieves :math:`TP = \lfloor \text{recall\_target} \cdot n_\text{relevant} + \tfrac12
    \rfloor` of the relevant ones and ``n_false_alarms`` (FP) of the others; FN and TN are the
    rest. :meth:`summary` scores it, and a system that retrieves *nothing*, with evalkit's
    :func:`~evalkit.accuracy`, :func:`~evalkit.precision`, :func:`~evalkit.recall` and
    :func:`~evalkit.specificity` on the labels of :meth:`labels`.

    The lesson: when relevant documents are rare, retrieving nothing has an accuracy of
    :math:`1 - n_\text{relevant}/N`, which a useful system often cannot beat, while precision
    and recall tell the two apart. This is the state behind
    :class:`evalkit.widgets.RareClassExplorer`.

    Examples
    --------
    >>> model = RareClassModel(n_documents=10_000, n_relevant=10, recall_target=0.8,
    ...                        n_false_alarms=12)
    >>> model.counts()
    {'tp': 8, 'fp': 12, 'fn': 2, 'tn': 9978}
    >>> s = model.summary()
    >>> s["accuracy"], s["accuracy_retrieve_nothing"], s["precision"], s["recall"]
    (0.9986, 0.999, 0.4, 0.8)
    >>> s["beats_retrieving_nothing"]
    False
    """

    n_documents: int = 10_000
    n_relevant: int = 10
    recall_target: float = 0.8
    n_false_alarms: int = 12

    def __post_init__(self) -> None:
        values = {name: getattr(self, name) for name in self.SETTINGS}
        self.n_documents = self.n_relevant = self.n_false_alarms = 0
        self.recall_target = 0.0
        self.set(**values)

    SETTINGS = ("n_documents", "n_relevant", "recall_target", "n_false_alarms")

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "n_documents": lambda v: check_scalar(v, "n_documents", kind="int", low=2),
            "n_relevant": lambda v: check_scalar(v, "n_relevant", kind="int", low=1),
            "recall_target": lambda v: check_scalar(v, "recall_target", low=0.0, high=1.0),
            "n_false_alarms": lambda v: check_scalar(v, "n_false_alarms", kind="int", low=0),
        }

    def _check_together(self, checked: dict[str, Any]) -> None:
        new = {name: checked.get(name, getattr(self, name)) for name in self.SETTINGS}
        if new["n_relevant"] >= new["n_documents"]:
            raise ValueError(f"n_relevant must be below n_documents ({new['n_documents']}); "
                             f"got {new['n_relevant']}")
        room = new["n_documents"] - new["n_relevant"]
        if new["n_false_alarms"] > room:
            raise ValueError(f"n_false_alarms must be at most the {room} non-relevant "
                             f"documents; got {new['n_false_alarms']}")

    def counts(self) -> dict[str, int]:
        """TP, FP, FN and TN of the system."""
        tp = int(np.floor(self.recall_target * self.n_relevant + 0.5))
        fp = self.n_false_alarms
        fn = self.n_relevant - tp
        return {"tp": tp, "fp": fp, "fn": fn, "tn": self.n_documents - tp - fp - fn}

    def labels(self) -> tuple[np.ndarray, np.ndarray]:
        """``(y_true, y_pred)``: one (relevant, retrieved) pair of 0/1 labels per document."""
        c = self.counts()
        amounts = [c["tp"], c["fp"], c["fn"], c["tn"]]
        return np.repeat([1, 0, 1, 0], amounts), np.repeat([1, 1, 0, 0], amounts)

    def summary(self) -> dict[str, Any]:
        """The numbers the explorer shows.

        Keys: ``n_documents``, ``n_relevant``, ``tp``, ``fp``, ``fn``, ``tn``, the system's
        ``accuracy``, ``precision`` (NaN when nothing is retrieved), ``recall`` and
        ``specificity``; ``accuracy_retrieve_nothing`` and ``recall_retrieve_nothing`` (a
        system that retrieves no document); ``beats_retrieving_nothing`` (whether the
        system's accuracy is higher).
        """
        y_true, y_pred = self.labels()
        nothing = np.zeros_like(y_pred)
        system_accuracy = accuracy(y_true, y_pred)
        nothing_accuracy = accuracy(y_true, nothing)
        return {
            "n_documents": self.n_documents,
            "n_relevant": self.n_relevant,
            **self.counts(),
            "accuracy": system_accuracy,
            "precision": precision(y_true, y_pred, zero_division=np.nan),
            "recall": recall(y_true, y_pred),
            "specificity": specificity(y_true, y_pred),
            "accuracy_retrieve_nothing": nothing_accuracy,
            "recall_retrieve_nothing": recall(y_true, nothing),
            "beats_retrieving_nothing": bool(system_accuracy > nothing_accuracy),
        }


@keyword_options
class RareClassExplorer(_Explorer):
    """How rare must the relevant documents be before accuracy prefers retrieving nothing?

    Controls: ``n_relevant`` (how many of the documents are relevant), ``recall_target``
    (the share of them the system finds) and ``n_false_alarms`` (non-relevant documents it
    retrieves). Shows the four counts and accuracy, precision and recall, beside those of a
    system that retrieves nothing.

    Examples
    --------
    >>> explorer = RareClassExplorer(plot=False)
    >>> explorer.controls["n_relevant"].value = 1000
    >>> explorer.model.summary()["beats_retrieving_nothing"]
    True
    """

    def __init__(self, model: RareClassModel | None = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or RareClassModel()
        style = {"description_width": "200px"}
        layout = widgets.Layout(width="560px")

        def options(offered: tuple[int, ...], value: int, most: int) -> list[int]:
            return sorted({v for v in offered if v <= most} | {value})

        room = self.model.n_documents - 1
        controls = {
            "n_relevant": widgets.SelectionSlider(
                options=options(RELEVANT_COUNTS, self.model.n_relevant, room // 2),
                value=self.model.n_relevant, description="relevant documents",
                style=style, layout=layout, continuous_update=False),
            "recall_target": widgets.FloatSlider(
                value=self.model.recall_target, min=0.0, max=1.0, step=0.05,
                description="share of them retrieved", style=style, layout=layout,
                continuous_update=False),
            "n_false_alarms": widgets.SelectionSlider(
                options=options(FALSE_ALARM_COUNTS, self.model.n_false_alarms, room // 2),
                value=self.model.n_false_alarms,
                description="non-relevant retrieved (FP)", style=style, layout=layout,
                continuous_update=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [
            ("relevant documents", f"{s['n_relevant']} of {s['n_documents']}"),
            ("TP, FP, FN, TN", f"{s['tp']}, {s['fp']}, {s['fn']}, {s['tn']}"),
            ("accuracy", _format(s["accuracy"], 4)),
            ("precision", _format(s["precision"], 4)),
            ("recall", _format(s["recall"], 4)),
            ("specificity", _format(s["specificity"], 4)),
            ("retrieve nothing: accuracy", _format(s["accuracy_retrieve_nothing"], 4)),
            ("retrieve nothing: recall", _format(s["recall_retrieve_nothing"], 4)),
            ("accuracy prefers", "the system" if s["beats_retrieving_nothing"]
             else "retrieving nothing"),
        ]
        return _table(rows, f"{s['n_documents']} documents")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        s = self.model.summary()
        colours = {"the system": OKABE_ITO["blue"], "retrieve nothing": OKABE_ITO["orange"]}
        figure, (left, right) = plt.subplots(1, 2, figsize=(7.5, 3.2),
                                             gridspec_kw={"width_ratios": [1, 1.4]})
        # Accuracies of 0.9986 and 0.9990 look alike as bars; their errors do not.
        errors = {"the system": s["fp"] + s["fn"], "retrieve nothing": s["n_relevant"]}
        accuracies = {"the system": s["accuracy"],
                      "retrieve nothing": s["accuracy_retrieve_nothing"]}
        bars = left.bar(list(errors), list(errors.values()), color=list(colours.values()),
                        hatch=["", "//"], edgecolor="white")
        for bar, name in zip(bars, errors, strict=True):
            left.annotate(f"accuracy\n{accuracies[name]:.4f}",
                          (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                          ha="center", va="bottom", fontsize=8)
        left.set_ylim(0, max(errors.values()) * 1.35 + 1)
        left.set_ylabel("errors (FP + FN)")
        left.set_title("accuracy counts errors", fontsize=10)
        positions = np.arange(2)
        for offset, (name, values) in zip(
                (-0.2, 0.2),
                {"the system": [s["precision"], s["recall"]],
                 "retrieve nothing": [np.nan, s["recall_retrieve_nothing"]]}.items(),
                strict=True):
            right.bar(positions + offset, np.nan_to_num(values), width=0.4,
                      color=colours[name], hatch="" if offset < 0 else "//",
                      edgecolor="white", label=name)
        right.text(0.2, 0.02, "undefined", rotation=90, ha="center", va="bottom", fontsize=8)
        right.set_xticks(positions, ["precision", "recall"])
        right.set_ylim(0, 1.05)
        right.set_ylabel("score (0 to 1)")
        right.legend(loc="upper left", fontsize=8)
        right.set_title("precision and recall", fontsize=10)
        figure.suptitle(f"{s['n_relevant']} relevant of {s['n_documents']} documents",
                        fontsize=10)
        figure.tight_layout()
        return figure
