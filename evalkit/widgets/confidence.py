"""The confidence explorer: a small test set drawn from a pool, its probabilistic confusion
matrix, and per class P, R and F1 beside cPrecision, cRecall and cF1, with what is undefined."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_labels, check_scalar
from ..calibration import temperature_scale
from ..classification import f1_score, precision, recall
from ..probabilistic import c_f1, c_precision, c_recall, probabilistic_confusion_matrix
from ._base import _Explorer, _format, _grid, _table
from ._state import SettingsModel, keyword_options

#: Where the explorer's temperature slider starts and stops.
TEMPERATURE_RANGE = (0.1, 10.0)

#: The per-class columns of :meth:`ConfidenceModel.table`, in order.
COLUMNS = ("support", "precision", "recall", "f1", "c_precision", "c_recall", "c_f1")


@keyword_options
class ConfidenceModel(SettingsModel):
    r"""The first ``n_samples`` items of a pool as a test set: counts against probabilities.

    The state behind :class:`evalkit.widgets.ConfidenceExplorer`. The pool is a classifier's
    labelled test items with their class probabilities; the test set is its first
    ``n_samples`` items, with the probabilities sharpened or softened by ``temperature``
    (:func:`evalkit.temperature_scale`; the argmax, and so P, R and F1, never move). Every
    number comes from a public function: :func:`evalkit.probabilistic_confusion_matrix`,
    :func:`evalkit.precision`, :func:`evalkit.recall`, :func:`evalkit.f1_score` (of the
    argmax) and :func:`evalkit.c_precision`, :func:`evalkit.c_recall`, :func:`evalkit.c_f1`,
    all with ``zero_division=np.nan`` so that an undefined value shows as NaN.

    evalkit's F1 and cF1 are the count forms :math:`2TP / (2TP + FP + FN)`, undefined only
    when a class is neither in the test set nor predicted (nor given any probability).
    The paper's cF1 is the harmonic mean :math:`2\,cP\,cR / (cP + cR)`, undefined whenever
    cPrecision or cRecall is; :meth:`summary` counts both.

    Parameters
    ----------
    y_true : array-like of shape (n_pool,)
        True labels of the pool.
    y_proba : array-like of shape (n_pool, n_classes)
        The classifier's probabilities, columns in the order of the sorted labels of
        ``y_true`` (every class must occur in the pool).
    n_samples : int, optional
        Size of the test set (1 to the size of the pool). Default: 10, or the whole pool if
        it is smaller.
    temperature : float, default 1.0
        The temperature *T* > 0 applied to the probabilities (1: as they are).

    Examples
    --------
    >>> model = ConfidenceModel([0, 1, 2, 0, 1, 2], [[0.6, 0.3, 0.1], [0.2, 0.7, 0.1],
    ...                                              [0.3, 0.3, 0.4], [0.5, 0.4, 0.1],
    ...                                              [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]],
    ...                         n_samples=2)
    >>> s = model.summary()
    >>> s["classes_absent"], s["undefined_recall"], s["undefined_c_precision"]
    (1, 1, 0)
    >>> s["undefined_c_f1"], s["undefined_c_f1_harmonic"]
    (0, 1)
    """

    SETTINGS = ("n_samples", "temperature")

    def __init__(self, y_true: Any, y_proba: Any, *, n_samples: int | None = None,
                 temperature: float = 1.0) -> None:
        self.y_true = check_labels(y_true, "y_true")
        # Validate once, through a metric: a bad y_proba fails here with its own message.
        probabilistic_confusion_matrix(self.y_true, y_proba)
        self.y_proba = np.asarray(y_proba, dtype=np.float64)
        if self.y_proba.ndim != 2:
            raise ValueError("y_proba must be an (n_samples, n_classes) matrix for the "
                             f"confidence explorer; got shape {self.y_proba.shape}")
        self.classes = np.unique(self.y_true)
        if n_samples is None:
            n_samples = min(10, len(self.y_true))
        self.n_samples, self.temperature = 1, 1.0
        self.set(n_samples=n_samples, temperature=temperature)

    def _checks(self) -> dict[str, Any]:
        n_pool = len(self.y_true)
        return {
            "n_samples": lambda v: check_scalar(v, "n_samples", kind="int", low=1,
                                                high=n_pool),
            "temperature": lambda v: check_scalar(v, "temperature", low=0,
                                                  low_inclusive=False),
        }

    def test_set(self) -> tuple[np.ndarray, np.ndarray]:
        """The test set's labels and its probabilities at the current temperature."""
        proba = temperature_scale(self.y_proba[: self.n_samples], temperature=self.temperature)
        return self.y_true[: self.n_samples], proba

    def matrix(self) -> pd.DataFrame:
        """The probabilistic confusion matrix of the test set: rows true, columns predicted."""
        y, proba = self.test_set()
        values = probabilistic_confusion_matrix(y, proba, labels=self.classes)
        return pd.DataFrame(values, index=self.classes, columns=self.classes)

    def table(self) -> pd.DataFrame:
        """Per class: ``support`` and P, R, F1 (of the argmax) beside cP, cR, cF1; NaN where
        a value is undefined."""
        y, proba = self.test_set()
        predicted = self.classes[np.argmax(proba, axis=1)]
        shared = {"labels": self.classes, "average": None, "zero_division": np.nan}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the undefined values are what is shown
            values = {
                "support": np.array([np.sum(y == c) for c in self.classes]),
                "precision": precision(y, predicted, **shared),
                "recall": recall(y, predicted, **shared),
                "f1": f1_score(y, predicted, **shared),
                "c_precision": c_precision(y, proba, **shared),
                "c_recall": c_recall(y, proba, **shared),
                "c_f1": c_f1(y, proba, **shared),
            }
        return pd.DataFrame(values, index=self.classes)

    def summary(self) -> dict[str, Any]:
        """Every number the explorer shows, by name.

        Keys: ``n_samples``, ``temperature``, ``classes_absent`` (classes with no item in the
        test set), ``undefined_<m>`` for ``<m>`` in ``precision``, ``recall``, ``f1``,
        ``c_precision``, ``c_recall``, ``c_f1`` (how many classes have that value undefined;
        F1 and cF1 in evalkit's count form) and ``undefined_c_f1_harmonic`` (cF1 as the
        harmonic mean of cP and cR, undefined where either is), then ``f1_macro`` and
        ``c_f1_macro`` (means over the classes where they are defined: :func:`evalkit.f1_score`
        and :func:`evalkit.c_f1` with ``average="macro"`` and ``zero_division=np.nan``).
        """
        table = self.table()
        undefined = table.drop(columns="support").isna().sum()
        result: dict[str, Any] = {
            "n_samples": self.n_samples,
            "temperature": float(self.temperature),
            "classes_absent": int((table["support"] == 0).sum()),
        }
        result.update({f"undefined_{name}": int(count) for name, count in undefined.items()})
        result["undefined_c_f1_harmonic"] = int(
            (table["c_precision"].isna() | table["c_recall"].isna()).sum())
        y, proba = self.test_set()
        predicted = self.classes[np.argmax(proba, axis=1)]
        macro = {"labels": self.classes, "average": "macro", "zero_division": np.nan}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an undefined class is left out, as shown
            result["f1_macro"] = float(f1_score(y, predicted, **macro))
            result["c_f1_macro"] = float(c_f1(y, proba, **macro))
        return result


@keyword_options
class ConfidenceExplorer(_Explorer):
    """Draw a smaller or larger test set from a pool and sharpen or soften its probabilities.

    Controls, in this order: ``n_samples`` (the size of the test set: its first items of the
    pool) and ``temperature`` (log scale, 0.1 to 10; it moves cP, cR and cF1 but never P, R
    or F1). The summary shows per class the support, P, R, F1 and cP, cR, cF1 ("undefined"
    where a value is 0/0), and how many classes have each undefined; the figure is the
    probabilistic confusion matrix. The state is a :class:`evalkit.widgets.ConfidenceModel`.

    Examples
    --------
    >>> explorer = ConfidenceExplorer(ConfidenceModel([0, 1, 0, 1], [[0.8, 0.2], [0.3, 0.7],
    ...                                                            [0.4, 0.6], [0.1, 0.9]]),
    ...                               plot=False)
    >>> explorer.controls["n_samples"].value = 3
    >>> explorer.model.n_samples
    3
    """

    def __init__(self, model: ConfidenceModel, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model
        style = {"description_width": "140px"}
        layout = widgets.Layout(width="520px")
        low, high = np.log10(TEMPERATURE_RANGE)
        controls = {
            "n_samples": widgets.IntSlider(
                value=model.n_samples, min=1, max=min(len(model.y_true), 200),
                description="test-set size", style=style, layout=layout,
                continuous_update=False),
            "temperature": widgets.FloatLogSlider(
                value=model.temperature, base=10, min=low, max=high, step=0.05,
                description="temperature T", style=style, layout=layout,
                continuous_update=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        table = self.model.table()
        s = self.model.summary()
        header = ["class", "n", "P", "R", "F1", "cP", "cR", "cF1"]
        rows = [[str(label), str(int(row["support"]))]
                + [_format(row[name]) for name in COLUMNS[1:]]
                for label, row in table.iterrows()]
        grid = _grid(header, rows, f"{s['n_samples']} test items, T = {s['temperature']:.2f}")
        counts = [
            ("classes not in the test set", str(s["classes_absent"])),
            ("undefined: precision | recall | F1",
             f"{s['undefined_precision']} | {s['undefined_recall']} | {s['undefined_f1']}"),
            ("undefined: cP | cR | cF1 (count form)",
             f"{s['undefined_c_precision']} | {s['undefined_c_recall']} | "
             f"{s['undefined_c_f1']}"),
            ("undefined: cF1 as 2cPcR / (cP + cR)", str(s["undefined_c_f1_harmonic"])),
            ("macro F1 | macro cF1 (defined classes)",
             f"{_format(s['f1_macro'])} | {_format(s['c_f1_macro'])}"),
        ]
        return grid + _table(counts, "Undefined values (classes)")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        matrix = self.model.matrix()
        k = len(matrix)
        figure, ax = plt.subplots(figsize=(4.8, 4.4))
        image = ax.imshow(matrix.to_numpy(), cmap="Blues", vmin=0)
        ax.set_xticks(range(k), [str(c) for c in matrix.columns])
        ax.set_yticks(range(k), [str(c) for c in matrix.index])
        if k <= 10:
            for (row, column), value in np.ndenumerate(matrix.to_numpy()):
                ax.text(column, row, f"{value:.1f}", ha="center", va="center", fontsize=7)
        ax.set_xlabel("class given the probability")
        ax.set_ylabel("true class")
        ax.set_title("Probabilistic confusion matrix (sum of p)", fontsize=10)
        figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
        figure.tight_layout()
        return figure
