"""The ROC-threshold explorer: one threshold moving along the ROC curve of fixed scores."""

from __future__ import annotations

import warnings
from dataclasses import KW_ONLY, dataclass
from typing import Any

import numpy as np

from .._validation import check_scalar
from ..classification import accuracy, confusion_matrix, recall
from ..curves import roc_auc, roc_curve
from ._base import _Explorer, _format, _grid, _table
from ._state import SettingsModel, keyword_options

#: The ten scored cases of notebook 11, section 1 (one positive and one negative tie at 0.60).
TEN_CASES = (
    (1, 1, 0, 0, 1, 0, 1, 0, 1, 0),
    (0.30, 0.85, 0.60, 0.10, 0.95, 0.45, 0.60, 0.20, 0.70, 0.80),
)


@keyword_options
@dataclass(eq=False)
class ROCThresholdModel(SettingsModel):
    r"""Fixed scores, one threshold: its confusion matrix and its point on the ROC curve.

    This is the state behind :class:`evalkit.widgets.ROCThresholdExplorer`. A case is
    predicted positive when its score is at least ``threshold``. At that threshold

    .. math::

        \mathrm{TPR} = \frac{TP}{P}, \qquad \mathrm{FPR} = \frac{FP}{N},

    the point :math:`(\mathrm{FPR}, \mathrm{TPR})` of the ROC curve. Lowering the threshold
    moves the point up (a positive passes it) or right (a negative passes it); the curve and
    its AUC belong to the scores and do not move. Everything is computed by evalkit's public
    functions: :func:`evalkit.confusion_matrix`, :func:`evalkit.recall` (TPR, and FPR
    as the recall of the negatives' flags), :func:`evalkit.accuracy`,
    :func:`evalkit.roc_curve` and :func:`evalkit.roc_auc`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), optional
        True labels, both classes present; default: the ten cases of notebook 11.
    y_score : array-like of shape (n_samples,), optional
        Scores, higher meaning more likely positive (given together with ``y_true``).
    threshold : float, default 0.5
        Predict positive when the score is at least this.
    pos_label : int or str, default 1
        The positive class.

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27(8),
    861–874 (section 3, the ROC curve as a threshold sweep).

    Examples
    --------
    >>> model = ROCThresholdModel(threshold=0.6)
    >>> model.confusion()  # [[TN, FP], [FN, TP]]
    array([[3, 2],
           [1, 4]])
    >>> s = model.summary()
    >>> s["tpr"], s["fpr"], s["auc"]
    (0.8, 0.4, 0.78)
    >>> model.set(threshold=0.61).summary()["fpr"]
    0.2
    """

    y_true: Any = None
    y_score: Any = None
    _: KW_ONLY
    threshold: float = 0.5
    pos_label: Any = 1

    SETTINGS = ("threshold",)

    def __post_init__(self) -> None:
        if (self.y_true is None) != (self.y_score is None):
            raise ValueError("give y_true and y_score together, or neither (the ten cases of "
                             "notebook 11)")
        if self.y_true is None:
            self.y_true, self.y_score = (np.array(values) for values in TEN_CASES)
        # roc_curve checks the data once (lengths, labels, finite scores).
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # one class only is an error, raised just below
            self._curve = roc_curve(self.y_true, self.y_score, pos_label=self.pos_label)
        self.y_true, self.y_score = np.asarray(self.y_true), np.asarray(self.y_score, float)
        self._is_positive = (self.y_true == self.pos_label).astype(np.int64)
        if self._is_positive.min() == self._is_positive.max():
            raise ValueError("y_true must contain both positive and negative cases (the "
                             f"positive class is pos_label={self.pos_label!r})")
        self._auc = roc_auc(self.y_true, self.y_score)
        self.set(threshold=self.threshold)

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {"threshold": lambda v: check_scalar(v, "threshold", allow_inf=True)}

    def predictions(self) -> np.ndarray:
        """1 where the score is at least the threshold, else 0."""
        return (self.y_score >= self.threshold).astype(np.int64)

    def confusion(self) -> np.ndarray:
        """``[[TN, FP], [FN, TP]]`` at the threshold (:func:`evalkit.confusion_matrix`)."""
        return confusion_matrix(self._is_positive, self.predictions(), labels=[0, 1])

    def roc_curve(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(fpr, tpr, thresholds)`` of the scores (:func:`evalkit.roc_curve`)."""
        return self._curve

    def summary(self) -> dict[str, Any]:
        """Every number the explorer shows, by name: ``threshold``, ``tn``, ``fp``, ``fn``,
        ``tp``, ``n_positive``, ``n_negative``, ``n_flagged``, ``tpr``, ``fpr``,
        ``accuracy`` and ``auc``."""
        (tn, fp), (fn, tp) = self.confusion().tolist()
        y_pred = self.predictions()
        return {
            "threshold": self.threshold, "tn": tn, "fp": fp, "fn": fn, "tp": tp,
            "n_positive": tp + fn, "n_negative": tn + fp, "n_flagged": tp + fp,
            "tpr": recall(self._is_positive, y_pred, zero_division=0.0),
            # FPR is the share of the negatives that are flagged: recall with the roles swapped.
            "fpr": recall(1 - self._is_positive, y_pred, zero_division=0.0),
            "accuracy": accuracy(self._is_positive, y_pred),
            "auc": self._auc,
        }


@keyword_options
class ROCThresholdExplorer(_Explorer):
    """Move one threshold along the ROC curve of fixed scores; read its confusion matrix.

    One control, ``threshold`` (predict positive when the score is at least this), spanning
    the scores. The summary shows the confusion matrix at the threshold and TPR, FPR and
    accuracy read off it, with the AUC of the whole curve; the figure shows the point on the
    ROC curve and the threshold among the two classes' scores. The state is a
    :class:`evalkit.widgets.ROCThresholdModel`.

    Examples
    --------
    >>> explorer = ROCThresholdExplorer(plot=False)
    >>> explorer.controls["threshold"].value = 0.6
    >>> explorer.model.summary()["tpr"]
    0.8
    """

    def __init__(self, model: ROCThresholdModel | None = None, *, plot: bool = True,
                 score_name: str = "score") -> None:
        import ipywidgets as widgets

        self.model = model or ROCThresholdModel()
        self.score_name = score_name
        low, high = float(self.model.y_score.min()), float(self.model.y_score.max())
        step = float(10 ** np.floor(np.log10((high - low) / 100))) if high > low else 0.01
        value = min(max(self.model.threshold, low), high)
        self.model.set(threshold=value)
        controls = {
            "threshold": widgets.FloatSlider(
                value=value, min=low, max=high, step=step, readout_format=".3g",
                description=f"threshold ({score_name} >=)", continuous_update=False,
                style={"description_width": "170px"}, layout=widgets.Layout(width="520px")),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        confusion = _grid(
            ["", "predicted negative", "predicted positive"],
            [["true negative", str(s["tn"]), str(s["fp"])],
             ["true positive", str(s["fn"]), str(s["tp"])]],
            f"{s['n_positive']} positive, {s['n_negative']} negative cases",
        )
        rows = [
            ("cases flagged positive", str(s["n_flagged"])),
            ("TPR = TP / P", _format(s["tpr"])),
            ("FPR = FP / N", _format(s["fpr"])),
            ("accuracy", _format(s["accuracy"])),
            ("AUC (whole curve)", _format(s["auc"])),
        ]
        return confusion + _table(rows, f"At threshold {s['threshold']:.3g}")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import OKABE_ITO, plot_roc_curve

        m = self.model
        s = m.summary()
        fpr, tpr, _ = m.roc_curve()
        figure, (left, right) = plt.subplots(1, 2, figsize=(10.5, 4.2))
        plot_roc_curve(fpr, tpr, auc=s["auc"], operating_point=(s["fpr"], s["tpr"]), ax=left,
                       title=f"ROC curve: the point at threshold {s['threshold']:.3g}")
        bins = np.histogram_bin_edges(m.y_score, bins=min(30, max(5, len(m.y_score) // 5)))
        right.hist(m.y_score[m._is_positive == 0], bins=bins, alpha=0.6, color=OKABE_ITO["blue"],
                   label=f"negatives (FP = {s['fp']} right of the line)")
        right.hist(m.y_score[m._is_positive == 1], bins=bins, histtype="step", linewidth=2,
                   color=OKABE_ITO["vermillion"],
                   label=f"positives (TP = {s['tp']} right of the line)")
        right.axvline(s["threshold"], color="black", linestyle="--", label="threshold")
        right.set(xlabel=self.score_name, ylabel="cases",
                  title="Scores of the two classes; flagged: right of the line")
        right.legend(fontsize=8)
        figure.tight_layout()
        return figure
