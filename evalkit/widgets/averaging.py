"""The averaging explorer: skewed class sizes, a classifier weak on rare classes, every average."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._validation import check_option, check_scalar
from ..classification import class_weights, classification_report, confusion_matrix
from ..datasets import ERROR_TARGETS, long_tailed_labels, long_tailed_support
from ._base import _Explorer, _format, _grid, _table
from ._state import SettingsModel

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets

#: The averages :class:`AveragingModel` reports, from "every sample counts the same"
#: (micro) to "every class counts the same" (macro), then the other macro-F.
EXPLORER_AVERAGES = ("micro", "weighted", "dodrans", "entropy", "macro", "macro_pr")


@dataclass
class AveragingModel(SettingsModel):
    r"""Synthetic labels of a long-tailed multi-class problem, and every average of P, R and F1.

    This is the state behind :class:`evalkit.widgets.AveragingExplorer`. Class :math:`i`
    (:math:`i = 0, \ldots, k-1`; class 0 is the largest) gets a share of the ``n_samples``
    that follows Zipf's law, and the classifier's recall falls on the rarer classes:

    .. math::

        n_i \propto (i + 1)^{-s}, \qquad
        r_i = r_{\text{top}} \left(\frac{n_i}{n_0}\right)^{w} = r_{\text{top}}\,(i + 1)^{-s w}

    with :math:`s` = ``skew`` (0: balanced classes; larger: a longer tail), :math:`w` =
    ``rare_weakness`` (0: equally good on every class) and :math:`r_{\text{top}}` =
    ``top_recall``, the recall on the largest class. The sizes are rounded to whole samples
    by largest remainders, and every class keeps at least one sample.

    The labels are drawn once, with no loop over samples: a seeded generator draws the
    correct predictions of class :math:`i` as :math:`TP_i \sim \mathrm{Binomial}(n_i, r_i)`,
    and sends the :math:`n_i - TP_i` errors to the other classes with one multinomial draw,
    to class :math:`j \ne i` with probability :math:`\propto n_j` (``errors_to=
    "proportional"``: the classifier leans towards frequent classes) or :math:`\propto 1`
    (``"uniform"``). The same settings and seed always give the same labels. The sizes and
    labels come from the public :func:`evalkit.datasets.long_tailed_support` and
    :func:`evalkit.datasets.long_tailed_labels`.

    Parameters
    ----------
    n_classes : int, default 8
        Number of classes, >= 2. The labels are the integers 0 .. n_classes - 1.
    skew : float, default 1.0
        Zipf exponent of the class sizes, between 0 and 10.
    rare_weakness : float, default 0.5
        How much worse the classifier is on rare classes (exponent ``w`` above), 0 to 10.
    top_recall : float, default 0.9
        Recall on the largest class, in (0, 1].
    errors_to : {"proportional", "uniform"}, default "proportional"
        Where misclassified samples go.
    n_samples : int, default 2000
        Size of the test set, at least ``n_classes``.
    seed : int, default 0
        Seed of ``np.random.default_rng``.

    Examples
    --------
    >>> model = AveragingModel(n_classes=4, skew=1.0, n_samples=100)
    >>> model.support.tolist()
    [47, 24, 16, 13]
    >>> print(model.weights().round(3).to_string(index_names=False))
       weighted  dodrans  entropy  macro
    0      0.47    0.411    0.283   0.25
    1      0.24    0.248    0.273   0.25
    2      0.16    0.183    0.233   0.25
    3      0.13    0.157    0.211   0.25
    >>> scores = model.averages()["f_score"]
    >>> bool(scores["micro"] > scores["macro"])
    True
    """

    n_classes: int = 8
    skew: float = 1.0
    rare_weakness: float = 0.5
    top_recall: float = 0.9
    errors_to: str = "proportional"
    n_samples: int = 2000
    seed: int = 0

    def __post_init__(self) -> None:
        self._cache: dict[str, Any] = {}
        self.set(**{name: getattr(self, name) for name in self.SETTINGS})

    SETTINGS = ("n_classes", "skew", "rare_weakness", "top_recall", "errors_to", "n_samples",
                "seed")

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "n_classes": lambda v: check_scalar(v, "n_classes", kind="int", low=2),
            "skew": lambda v: check_scalar(v, "skew", low=0.0, high=10.0),
            "rare_weakness": lambda v: check_scalar(v, "rare_weakness", low=0.0, high=10.0),
            "top_recall": lambda v: check_scalar(v, "top_recall", low=0.0, high=1.0,
                                                 low_inclusive=False),
            "errors_to": lambda v: check_option(v, "errors_to", ERROR_TARGETS),
            "n_samples": lambda v: check_scalar(v, "n_samples", kind="int", low=1),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def _check_together(self, checked: dict[str, Any]) -> None:
        n_classes = checked.get("n_classes", self.n_classes)
        n_samples = checked.get("n_samples", self.n_samples)
        if n_samples < n_classes:
            raise ValueError(f"n_samples must be at least n_classes ({n_classes}), so that every "
                             f"class has a sample; got {n_samples}")

    def _key(self) -> tuple:
        return (self.n_classes, self.skew, self.rare_weakness, self.top_recall, self.errors_to,
                self.n_samples, self.seed)

    @property
    def classes(self) -> np.ndarray:
        """The class labels, 0 .. n_classes - 1, largest class first."""
        return np.arange(self.n_classes)

    @property
    def support(self) -> np.ndarray:
        """Number of true samples of each class: :func:`evalkit.datasets.long_tailed_support`."""
        return long_tailed_support(self.n_samples, n_classes=self.n_classes, skew=self.skew)

    @property
    def designed_recall(self) -> np.ndarray:
        """The recall each class is drawn with, ``top_recall * (i + 1) ** -(skew * weakness)``."""
        ranks = np.arange(1, self.n_classes + 1, dtype=np.float64)
        return self.top_recall * ranks ** -(self.skew * self.rare_weakness)

    def confusion(self) -> np.ndarray:
        """The drawn confusion matrix: rows true class, columns predicted class."""
        key = self._key()
        if self._cache.get("key") != key:
            y_true, y_pred = long_tailed_labels(
                self.n_samples, n_classes=self.n_classes, skew=self.skew,
                rare_weakness=self.rare_weakness, top_recall=self.top_recall,
                errors_to=self.errors_to, seed=self.seed)
            matrix = confusion_matrix(y_true, y_pred, labels=self.classes)
            self._cache = {"key": key, "matrix": matrix, "labels": (y_true, y_pred)}
        return self._cache["matrix"].copy()

    def labels(self) -> tuple[np.ndarray, np.ndarray]:
        """``(y_true, y_pred)``, one pair of integer labels per sample, in shuffled order."""
        self.confusion()
        y_true, y_pred = self._cache["labels"]
        return y_true.copy(), y_pred.copy()

    def weights(self, schemes: Any = ("weighted", "dodrans", "entropy", "macro")) -> pd.DataFrame:
        """Each class's weight under each scheme (:func:`class_weights`), one column a scheme."""
        support = self.support
        table = {scheme: class_weights(support, scheme=scheme) for scheme in schemes}
        return pd.DataFrame(table, index=pd.Index(self.classes, name="class"))

    def report(self) -> pd.DataFrame:
        """:func:`classification_report` of the drawn labels (a class never predicted: P = 0)."""
        y_true, y_pred = self.labels()
        return classification_report(y_true, y_pred, labels=self.classes, zero_division=0.0)

    def averages(self) -> pd.DataFrame:
        """Precision, recall and F1 under every average, in the order of ``EXPLORER_AVERAGES``."""
        return self.report().loc[list(EXPLORER_AVERAGES), ["precision", "recall", "f_score"]]

    @property
    def accuracy(self) -> float:
        """Share of the samples predicted correctly (= micro P = micro R = micro F1)."""
        return float(np.trace(self.confusion()) / self.n_samples)

    def entropy_breaks_d1(self) -> int | None:
        """The first class whose entropy weight is below the next (smaller) class's, or None.

        Sizes fall with the class index, so the entropy scheme breaks desideratum D1 (a larger
        class never weighs less) where its weight rises again, which can happen only for a
        class holding more than N/e of the samples.
        """
        entropy = self.weights(["entropy"])["entropy"].to_numpy()
        rises = np.flatnonzero(entropy[1:] > entropy[:-1] + 1e-12)
        return int(rises[0]) if rises.size else None

    def summary(self) -> dict[str, Any]:
        """What the explorer shows besides the table of :meth:`averages`.

        Keys: ``n_samples``, ``n_classes``, ``accuracy``, ``f1_<scheme>`` for each scheme of
        ``EXPLORER_AVERAGES``, ``f1_gap`` (highest minus lowest of those F1 averages) and
        ``entropy_breaks_d1`` (see :meth:`entropy_breaks_d1`).
        """
        f1 = self.averages()["f_score"]
        shown: dict[str, Any] = {"n_samples": self.n_samples, "n_classes": self.n_classes,
                                 "accuracy": self.accuracy}
        shown.update({f"f1_{scheme}": float(f1[scheme]) for scheme in f1.index})
        shown["f1_gap"] = float(f1.max() - f1.min())
        shown["entropy_breaks_d1"] = self.entropy_breaks_d1()
        return shown


class AveragingExplorer(_Explorer):
    """Skew the class sizes, weaken the classifier on rare classes, and watch the averages part.

    Controls: ``skew`` (Zipf exponent of the class sizes; 0 = balanced), ``rare_weakness``
    (how much worse the classifier is on rare classes), ``top_recall`` (its recall on the
    largest class), ``n_classes`` and ``errors_to`` (where misclassified samples go). The
    table shows precision, recall and F1 under micro, weighted, dodrans, entropy, macro and
    macro_pr averaging, from :meth:`evalkit.widgets.AveragingModel.averages`; the
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

        import ipywidgets as widgets

        self.model = model or AveragingModel()
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

    def render_summary(self) -> str:
        m = self.model
        averages = m.averages()
        rows = [[scheme] + [_format(averages.loc[scheme, column]) for column in averages.columns]
                for scheme in averages.index]
        table = _grid(["average", "precision", "recall", "F1"], rows,
                      "Averages of the same predictions", bold_row=None)
        s = m.summary()
        support = m.support
        facts = [
            ("class sizes (largest first)", ", ".join(str(int(n)) for n in support)),
            ("recall by design", ", ".join(f"{r:.2f}" for r in m.designed_recall)),
            ("accuracy", _format(s["accuracy"])),
            ("F1: highest − lowest average", _format(s["f1_gap"])),
        ]
        i = s["entropy_breaks_d1"]
        if i is not None:
            facts.append(("entropy breaks D1",
                          f"class {i} (n = {support[i]} > N/e = {m.n_samples / math.e:.0f}) "
                          f"weighs less than class {i + 1} (n = {support[i + 1]})"))
        return table + _table(facts, "The data")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import plot_averages, plot_class_weights

        figure, (left, right) = plt.subplots(1, 2, figsize=(11.5, 3.9),
                                             gridspec_kw={"width_ratios": [1.25, 1]})
        plot_class_weights(self.model.support, ax=left)
        plot_averages(self.model.averages(), ax=right)
        right.set_ylabel("F1")
        right.set_xlabel("averaging scheme")
        right.set_title(f"F1 of the same predictions (accuracy {self.model.accuracy:.3f})")
        figure.tight_layout()
        return figure
