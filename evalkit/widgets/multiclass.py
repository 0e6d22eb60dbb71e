"""The multi-class averaging explorer: grow one class of a confusion matrix, or leave it out."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._validation import check_bool, check_scalar
from ..classification import accuracy, class_weights, classification_report
from ._base import _Explorer, _format, _grid, _table
from ._state import SettingsModel, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets

#: The averages :class:`MulticlassAveragingModel` reports, from "every sample counts the
#: same" (micro) to "every class counts the same" (macro), then the other macro-F.
MULTICLASS_AVERAGES = ("micro", "weighted", "dodrans", "entropy", "macro", "macro_pr")

#: The course notes' nine fruits: rows true class, columns predicted class.
FRUIT_CONFUSION = ((1, 2, 2), (0, 1, 1), (0, 0, 2))
FRUIT_LABELS = ("orange", "lemon", "apple")


@keyword_options
@dataclass(eq=False)
class MulticlassAveragingModel(SettingsModel):
    r"""One multi-class confusion matrix, one class grown or shrunk, and every average.

    The state behind :class:`evalkit.widgets.MulticlassAveragingExplorer`. The *focus*
    class (the first label) has its row of the confusion matrix, its true samples,
    multiplied by ``scale`` and rounded half up. Its recall and its own precision stay as
    they were, but its errors are false positives of the classes it is confused with, so
    their precision moves. Micro and weighted averages follow the class as it grows; macro
    does not care how big it is. With ``exclude_focus`` the class is left out of the
    averages (``exclude=`` of :func:`evalkit.classification_report`), yet its samples still
    count: predicted as another class they are that class's false positives, and the
    entropy weights still use :math:`N` = all samples. Micro-F1 is then no longer accuracy.

    Every number comes from :func:`evalkit.classification_report`,
    :func:`evalkit.accuracy` and :func:`evalkit.class_weights` on labels rebuilt from the
    scaled matrix; the model adds no formula of its own.

    Parameters
    ----------
    confusion : array-like of shape (k, k), default the course notes' nine fruits
        Counts, rows true class and columns predicted class; every row needs a sample.
    labels : sequence of k labels, default ("orange", "lemon", "apple")
        The classes in the order of ``confusion``; the first is the focus class.
    scale : float, default 1.0
        Factor on the focus class's row, > 0 (the row must keep at least one sample).
    exclude_focus : bool, default False
        Leave the focus class out of the averages.

    Examples
    --------
    >>> model = MulticlassAveragingModel()
    >>> model.scaled_confusion().tolist()
    [[1, 2, 2], [0, 1, 1], [0, 0, 2]]
    >>> s = model.summary()
    >>> round(s["f1_micro"], 4), round(s["accuracy"], 4), round(s["f1_macro"], 4)
    (0.4444, 0.4444, 0.4349)
    >>> s = model.set(scale=4.0).summary()  # four times as many oranges
    >>> s["support"], round(s["f1_micro"], 4), round(s["f1_macro"], 4)
    ([20, 2, 2], 0.2917, 0.2743)
    >>> s = model.set(exclude_focus=True).summary()
    >>> s["averaged_classes"], round(s["f1_micro"], 4), round(s["accuracy"], 4)
    (['lemon', 'apple'], 0.25, 0.2917)
    """

    confusion: Any = FRUIT_CONFUSION
    _: KW_ONLY
    labels: Any = FRUIT_LABELS
    scale: float = 1.0
    exclude_focus: bool = False
    _report: pd.DataFrame | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        confusion = np.asarray(self.confusion)
        if (confusion.ndim != 2 or confusion.shape[0] != confusion.shape[1]
                or confusion.shape[0] < 2):
            raise ValueError(f"confusion must be a square matrix of at least 2 classes; got "
                             f"shape {confusion.shape}")
        if not np.issubdtype(confusion.dtype, np.integer) or (confusion < 0).any():
            raise ValueError("confusion must hold whole counts >= 0")
        if (confusion.sum(axis=1) == 0).any():
            raise ValueError("confusion needs at least one true sample of every class "
                             "(a row of zeros has no recall)")
        labels = list(self.labels)
        if len(labels) != confusion.shape[0] or len(set(labels)) != len(labels):
            raise ValueError(f"labels must name the {confusion.shape[0]} classes of confusion, "
                             f"each once; got {labels!r}")
        self.confusion, self.labels = confusion, labels
        self.set(scale=self.scale, exclude_focus=self.exclude_focus)

    def _checks(self) -> dict[str, Any]:
        return {
            "scale": lambda v: check_scalar(v, "scale", low=0.0, low_inclusive=False),
            "exclude_focus": lambda v: check_bool(v, "exclude_focus"),
        }

    def _check_together(self, checked: dict[str, Any]) -> None:
        scale = checked.get("scale", self.scale)
        if self._scaled_row(scale).sum() == 0:
            raise ValueError(f"scale must leave the class {self.focus!r} at least one sample; "
                             f"got {scale}")

    def set(self, **changes: Any) -> MulticlassAveragingModel:
        super().set(**changes)
        self._report = None
        return self

    @property
    def focus(self) -> Any:
        """The class that is grown, shrunk or left out: the first label."""
        return self.labels[0]

    def _scaled_row(self, scale: float) -> np.ndarray:
        return np.floor(self.confusion[0] * scale + 0.5).astype(np.int64)

    def scaled_confusion(self) -> np.ndarray:
        """The confusion matrix with the focus class's row scaled (rounded half up)."""
        matrix = self.confusion.copy()
        matrix[0] = self._scaled_row(self.scale)
        return matrix

    def to_labels(self) -> tuple[np.ndarray, np.ndarray]:
        """``(y_true, y_pred)``: one pair of labels per sample of :meth:`scaled_confusion`."""
        k = len(self.labels)
        counts = self.scaled_confusion().ravel()
        names = np.asarray(self.labels, dtype=object)
        return np.repeat(np.repeat(names, k), counts), np.repeat(np.tile(names, k), counts)

    @property
    def averaged_classes(self) -> list[Any]:
        return self.labels[1:] if self.exclude_focus else list(self.labels)

    def report(self) -> pd.DataFrame:
        """:func:`evalkit.classification_report`: per-class rows, then every average."""
        if self._report is None:
            y_true, y_pred = self.to_labels()
            exclude = [self.focus] if self.exclude_focus else None
            self._report = classification_report(y_true, y_pred, labels=self.labels,
                                                  exclude=exclude, zero_division=0.0)
        return self._report.copy()

    def weights(self) -> pd.DataFrame:
        """Each averaged class's weight per scheme (:func:`evalkit.class_weights`)."""
        support = self.scaled_confusion().sum(axis=1)
        kept = [self.labels.index(label) for label in self.averaged_classes]
        n_samples = int(support.sum())  # entropy's N counts every sample, also excluded ones
        return pd.DataFrame({scheme: class_weights(support[kept], scheme=scheme,
                                                   n_samples=n_samples)
                             for scheme in ("weighted", "dodrans", "entropy", "macro")},
                            index=pd.Index(self.averaged_classes, name="class"))

    def summary(self) -> dict[str, Any]:
        """What the explorer shows.

        Keys: ``focus``, ``scale``, ``exclude_focus``, ``averaged_classes``, ``support``,
        ``precision_per_class``, ``recall_per_class``, ``f1_per_class`` (lists in label
        order), ``n_samples``, ``accuracy``, ``f1_<scheme>`` for each of
        ``MULTICLASS_AVERAGES``, ``f1_gap`` (highest minus lowest of those) and
        ``micro_is_accuracy``.
        """
        report = self.report()
        per_class = report.loc[self.labels]
        y_true, y_pred = self.to_labels()
        shown: dict[str, Any] = {
            "focus": self.focus, "scale": self.scale, "exclude_focus": self.exclude_focus,
            "averaged_classes": self.averaged_classes,
            "support": [int(n) for n in per_class["support"]],
            "precision_per_class": [float(v) for v in per_class["precision"]],
            "recall_per_class": [float(v) for v in per_class["recall"]],
            "f1_per_class": [float(v) for v in per_class["f_score"]],
            "n_samples": len(y_true), "accuracy": accuracy(y_true, y_pred),
        }
        f1 = report.loc[list(MULTICLASS_AVERAGES), "f_score"]
        shown.update({f"f1_{scheme}": float(f1[scheme]) for scheme in MULTICLASS_AVERAGES})
        shown["f1_gap"] = float(f1.max() - f1.min())
        shown["micro_is_accuracy"] = bool(np.isclose(shown["f1_micro"], shown["accuracy"]))
        return shown


@keyword_options
class MulticlassAveragingExplorer(_Explorer):
    """Grow or shrink one class of a confusion matrix, or leave it out, and watch every average.

    Controls: ``scale`` (how many times its true samples the first class has; its recall
    stays, but its errors pile up in the other classes' columns) and ``exclude_focus``
    (leave it out of the averages, as a "no relation" class). The summary shows the scaled
    confusion matrix, each class's precision, recall and F1, and F1 under micro, weighted,
    dodrans, entropy, macro and macro_pr averaging beside accuracy; the plot shows the
    weights each scheme gives the averaged classes and the per-class F1 with each average.

    Examples
    --------
    >>> explorer = MulticlassAveragingExplorer(plot=False)
    >>> explorer.controls["scale"].value = 4.0
    >>> explorer.model.summary()["support"]
    [20, 2, 2]
    """

    def __init__(self, model: Any = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or MulticlassAveragingModel()
        focus = self.model.focus
        style = {"description_width": "230px"}
        layout = widgets.Layout(width="560px")
        controls: dict[str, widgets.Widget] = {
            "scale": widgets.FloatSlider(
                value=self.model.scale, min=0.5, max=max(10.0, self.model.scale), step=0.5,
                description=f"samples of '{focus}' × (its row)", style=style, layout=layout,
                continuous_update=False),
            "exclude_focus": widgets.Checkbox(
                value=self.model.exclude_focus,
                description=f"leave '{focus}' out of the averages", indent=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        m = self.model
        s = m.summary()
        matrix = m.scaled_confusion()
        confusion = _grid([""] + [f"pred {label}" for label in m.labels],
                          [[f"true {label}"] + [str(int(n)) for n in row]
                           for label, row in zip(m.labels, matrix, strict=True)],
                          f"{s['n_samples']} samples: rows true, columns predicted")
        per_class = _grid(
            ["class", "support", "precision", "recall", "F1"],
            [[str(label), str(n), _format(p), _format(r), _format(f)] for label, n, p, r, f in
             zip(m.labels, s["support"], s["precision_per_class"], s["recall_per_class"],
                 s["f1_per_class"], strict=True)],
            "Per class")
        rows = [(f"F1, {scheme}", _format(s[f"f1_{scheme}"])) for scheme in MULTICLASS_AVERAGES]
        rows += [("accuracy", _format(s["accuracy"])),
                 ("averaged over", ", ".join(map(str, s["averaged_classes"]))),
                 ("micro-F1 = accuracy?", "yes" if s["micro_is_accuracy"] else "no")]
        return confusion + per_class + _table(rows, "Averages of the same predictions")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import OKABE_ITO, plot_class_weights

        m = self.model
        s = m.summary()
        figure, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8))
        weights_support = [s["support"][m.labels.index(c)] for c in s["averaged_classes"]]
        plot_class_weights(weights_support, labels=s["averaged_classes"],
                           n_samples=s["n_samples"], ax=left)
        left.set_ylim(0, 1.05)  # room for the legend: a weight is at most 1
        left.set_title("Weight of each averaged class, per scheme")
        colors = ["#bbbbbb" if (m.exclude_focus and label == m.focus) else OKABE_ITO["blue"]
                  for label in m.labels]
        hatches = ["//" if (m.exclude_focus and label == m.focus) else ""
                   for label in m.labels]
        right.bar([str(label) for label in m.labels], s["f1_per_class"], color=colors,
                  hatch=hatches, edgecolor="white", alpha=0.8)
        styles = {"micro": (OKABE_ITO["vermillion"], "-"), "weighted": (OKABE_ITO["orange"], "--"),
                  "entropy": (OKABE_ITO["bluish green"], "-."), "macro": (OKABE_ITO["black"], ":")}
        for scheme, (color, style) in styles.items():
            right.axhline(s[f"f1_{scheme}"], color=color, linestyle=style,
                          label=f"{scheme}-F1 {s[f'f1_{scheme}']:.3f}")
        right.set_ylim(0, 1.05)
        right.set_ylabel("F1")
        right.set_xlabel("class (grey, hatched: left out)")
        right.set_title("Per-class F1 and the averages")
        right.legend(loc="upper left", fontsize=8)
        figure.tight_layout()
        return figure
