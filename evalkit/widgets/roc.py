"""The ROC explorer: one scorer at any class balance, its ROC and PR curves and its cost."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_scalar, check_square_matrix
from ..classification import (
    accuracy,
    confusion_matrix,
    precision,
    recall,
    specificity,
)
from ..costs import cost_optimal_threshold, expected_cost, total_cost
from ..curves import (
    binormal_auc,
    binormal_test_set,
    precision_recall_curve,
    roc_auc,
    roc_curve,
    youden_index,
)
from ._base import _Explorer, _format, _grid, _table
from ._state import SettingsModel, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets


def _check_share_of_positives(value: Any) -> float:
    share = check_scalar(value, "prevalence", low=0.01, high=0.99)
    percent = share * 100.0
    if abs(percent - round(percent)) > 1e-6:
        raise ValueError(
            f"prevalence must be a whole number of percent (0.01, 0.02, ..., 0.99), so that "
            f"every pooled score stands for a whole number of test cases; got {value!r}"
        )
    return round(percent) / 100.0


def _check_cost_matrix(value: Any) -> np.ndarray | None:
    if value is None:
        return None
    matrix = check_square_matrix(value, "cost_matrix")
    if matrix.shape != (2, 2):
        raise ValueError("cost_matrix must be 2x2, rows and columns in the order (negative "
                         f"class, positive class); got shape {matrix.shape}")
    return matrix


@keyword_options
@dataclass(kw_only=True, eq=False)
class ROCModel(SettingsModel):
    r"""One fixed scorer, tested at any class balance: confusion matrix, ROC and PR curves, cost.

    This is the state behind :class:`evalkit.widgets.ROCExplorer`. The scorer is *binormal*:
    a negative case's score is drawn from :math:`N(0, 1)`, a positive case's from
    :math:`N(d, 1)` with :math:`d` = ``separation``. A seeded generator draws ``n_pool``
    standard-normal values per class once; the positive scores are those values plus
    :math:`d`, so moving ``separation`` slides the positives without redrawing them. A case
    is predicted positive when its score is at least ``threshold``.

    **How the class balance is realised.** The test set always has
    :math:`n = 100 \cdot` ``n_pool`` cases. With a share :math:`\pi` of positives (a whole
    number of percent, :math:`100\pi`), every pooled positive score stands for :math:`100\pi`
    test cases and every pooled negative score for :math:`100(1 - \pi)`: the test set is the
    two pools repeated that many times. Repetition inside a class leaves every within-class
    share unchanged, so

    .. math::

        \mathrm{TPR}(t) = \frac{TP(t)}{P}, \qquad \mathrm{FPR}(t) = \frac{FP(t)}{N}

    and with them the ROC curve, its AUC and Youden's J are *exactly* the same at every
    balance: no resampling, so no sampling noise that could be mistaken for an effect of the
    balance. (Drawing a fresh test set per balance would leave only 1% of the cases positive
    at 1% prevalence, and the ROC curve would wobble for that reason alone.) Measures that mix
    the classes do move:

    .. math::

        \text{precision}(t) = \frac{\pi\,\mathrm{TPR}(t)}{\pi\,\mathrm{TPR}(t) +
        (1 - \pi)\,\mathrm{FPR}(t)}, \qquad
        \mathrm{cost}(t) = TN\,C_{00} + FP\,C_{01} + FN\,C_{10} + TP\,C_{11}.

    The counts are whole numbers and :meth:`test_set` returns the cases themselves, so any
    tool (scikit-learn included) gives the same numbers from them. The pools hold distinct
    scores with probability 1, so positives and negatives never tie.

    Parameters
    ----------
    prevalence : float, default 0.5
        Share of positives in the test set: 0.01, 0.02, ..., 0.99.
    threshold : float, default 1.0
        Predict positive when the score is at least this.
    separation : float, default 1.5
        Mean score of the positives (the negatives' is 0; both have standard deviation 1).
        The population AUC is :math:`\Phi(d / \sqrt{2})`.
    cost_matrix : array-like of shape (2, 2), optional
        ``[[C_TN, C_FP], [C_FN, C_TP]]`` (rows true class, columns predicted, in the order
        negative, positive), as in :func:`evalkit.cost_optimal_threshold`.
    n_pool : int, default 200
        Scores drawn per class; the test set has ``100 * n_pool`` cases.
    seed : int, default 0
        Seed of ``np.random.default_rng``.

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27(8),
    861–874 (section 4.2: ROC curves are insensitive to class distribution).
    Davis, J. and Goadrich, M. (2006). The relationship between precision-recall and ROC
    curves. ICML 2006, 233–240.

    Examples
    --------
    >>> model = ROCModel(prevalence=0.5, threshold=1.0, cost_matrix=[[0, 1], [10, 0]])
    >>> model.n_test, model.n_positive, model.n_negative
    (20000, 10000, 10000)
    >>> model.confusion()  # [[TN, FP], [FN, TP]]
    array([[8250, 1750],
           [3600, 6400]])
    >>> rates = model.rates()
    >>> rates["tpr"], rates["fpr"], round(rates["precision"], 3)
    (0.64, 0.175, 0.785)
    >>> auc = model.auc()
    >>> model.set(prevalence=0.01).confusion()
    array([[16335,  3465],
           [   72,   128]])
    >>> rare = model.rates()
    >>> rare["tpr"], rare["fpr"], round(rare["precision"], 3), model.auc() == auc
    (0.64, 0.175, 0.036, True)
    >>> round(auc, 4), model.cost()
    (0.8432, 4185.0)
    """

    prevalence: float = 0.5
    threshold: float = 1.0
    separation: float = 1.5
    cost_matrix: Any = None
    n_pool: int = 200
    seed: int = 0

    SETTINGS = ("prevalence", "threshold", "separation", "cost_matrix", "n_pool", "seed")

    def __post_init__(self) -> None:
        self._pool: dict[str, Any] = {}
        self.set(**{name: getattr(self, name) for name in self.SETTINGS})

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "prevalence": _check_share_of_positives,
            "threshold": lambda v: check_scalar(v, "threshold"),
            "separation": lambda v: check_scalar(v, "separation"),
            "cost_matrix": _check_cost_matrix,
            "n_pool": lambda v: check_scalar(v, "n_pool", kind="int", low=1),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    # -- the scores ---------------------------------------------------------------------------

    def _standard_draws(self) -> tuple[np.ndarray, np.ndarray]:
        key = (self.n_pool, self.seed)
        if self._pool.get("key") != key:
            draws = np.random.default_rng(self.seed).standard_normal((2, self.n_pool))
            self._pool = {"key": key, "negative": np.sort(draws[0]),
                          "positive": np.sort(draws[1])}
        return self._pool["negative"], self._pool["positive"]

    @property
    def negative_scores(self) -> np.ndarray:
        """The pooled scores of the negatives, ascending (``n_pool`` of them)."""
        return self._standard_draws()[0]

    @property
    def positive_scores(self) -> np.ndarray:
        """The pooled scores of the positives, ascending: the standard draws + ``separation``."""
        return self._standard_draws()[1] + self.separation

    @property
    def weights(self) -> tuple[int, int]:
        """How many test cases each pooled (negative, positive) score stands for."""
        percent = round(self.prevalence * 100)
        return 100 - percent, percent

    @property
    def n_positive(self) -> int:
        """P, the positives in the test set."""
        return self.weights[1] * self.n_pool

    @property
    def n_negative(self) -> int:
        """N, the negatives in the test set."""
        return self.weights[0] * self.n_pool

    @property
    def n_test(self) -> int:
        """Cases in the test set, ``100 * n_pool`` at every balance."""
        return 100 * self.n_pool

    @property
    def population_auc(self) -> float:
        r"""The AUC of the binormal scorer itself, :math:`\Phi(d/\sqrt{2})`, without sampling
        (:func:`evalkit.binormal_auc`)."""
        return binormal_auc(self.separation)

    def test_set(self) -> tuple[np.ndarray, np.ndarray]:
        """The test set's ``y_true`` (1 = positive) and ``y_score``: negatives first, from
        :func:`evalkit.binormal_test_set`."""
        return binormal_test_set(separation=self.separation, prevalence=self.prevalence,
                                 n_pool=self.n_pool, seed=self.seed)

    # -- at the threshold ---------------------------------------------------------------------

    def confusion(self) -> np.ndarray:
        """``[[TN, FP], [FN, TP]]`` at the threshold (rows true, columns predicted), from
        :func:`evalkit.confusion_matrix` of the test set."""
        return confusion_matrix(*self._decisions(), labels=[0, 1])

    def _decisions(self) -> tuple[np.ndarray, np.ndarray]:
        """The test set's ``y_true`` and the 0/1 decisions at the threshold."""
        y_true, y_score = self.test_set()
        return y_true, (y_score >= self.threshold).astype(np.int64)

    def rates(self) -> dict[str, float]:
        """TPR (= recall), FPR, precision (NaN when nothing is predicted positive),
        specificity and accuracy at the threshold."""
        y_true, y_pred = self._decisions()
        options = {"pos_label": 1, "zero_division": np.nan}
        tpr = recall(y_true, y_pred, **options)
        tnr = specificity(y_true, y_pred, **options)
        return {
            "tpr": tpr,
            # FPR is the share of the negatives that are flagged: recall with the roles swapped.
            "fpr": recall(1 - y_true, y_pred, **options),
            "precision": precision(y_true, y_pred, **options),
            "recall": tpr,
            "specificity": tnr,
            "accuracy": accuracy(y_true, y_pred),
        }

    def _costs(self) -> np.ndarray:
        if self.cost_matrix is None:
            raise ValueError("cost_matrix is not set; pass cost_matrix=[[C_TN, C_FP], "
                             "[C_FN, C_TP]] to the model or to set()")
        return self.cost_matrix

    def cost(self) -> float:
        """Total cost of the test set's decisions at the threshold (needs ``cost_matrix``)."""
        return total_cost(self.confusion(), self._costs())

    def expected_cost(self) -> float:
        """Cost per test case at the threshold (needs ``cost_matrix``)."""
        return expected_cost(self.confusion(), self._costs())

    # -- over all thresholds ------------------------------------------------------------------

    def roc_curve(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(fpr, tpr, thresholds)`` of the test set, from :func:`evalkit.roc_curve`."""
        return roc_curve(*self.test_set())

    def pr_curve(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(precision, recall, thresholds)``, from :func:`evalkit.precision_recall_curve`."""
        return precision_recall_curve(*self.test_set())

    def auc(self) -> float:
        """Area under the ROC curve of the test set (:func:`evalkit.roc_auc`)."""
        return roc_auc(*self.test_set())

    def average_precision(self) -> float:
        r"""Average precision as scikit-learn defines it: :math:`\sum_k (R_k - R_{k-1}) P_k`
        over the thresholds (a step sum, not the trapezoidal area under the PR curve)."""
        precision, recall, _ = self.pr_curve()
        return float(-np.sum(np.diff(recall) * precision[:-1]))

    def youden(self) -> tuple[float, float]:
        """Youden's ``(threshold, J)`` (:func:`evalkit.curves.youden_index`): one per scorer,
        whatever the balance."""
        return youden_index(*self.test_set())

    def cost_optimal_threshold(self) -> tuple[float, float]:
        """The cheapest threshold at this balance and its total cost
        (:func:`evalkit.cost_optimal_threshold`; needs ``cost_matrix``)."""
        return cost_optimal_threshold(*self.test_set(), self._costs())

    def summary(self) -> dict[str, Any]:
        """Every number the explorer shows, by name."""
        rates = self.rates()
        youden_threshold, youden_j = self.youden()
        shown: dict[str, Any] = {
            "n_test": self.n_test, "n_positive": self.n_positive,
            "n_negative": self.n_negative, "confusion": self.confusion(), **rates,
            "auc": self.auc(), "average_precision": self.average_precision(),
            "youden_threshold": youden_threshold, "youden_j": youden_j,
        }
        if self.cost_matrix is not None:
            best_threshold, best_cost = self.cost_optimal_threshold()
            shown.update(cost=self.cost(), expected_cost=self.expected_cost(),
                         cheapest_threshold=best_threshold, cheapest_cost=best_cost)
        return shown


@keyword_options
class ROCExplorer(_Explorer):
    """Change the class balance and the threshold of one scorer; watch ROC and PR respond.

    Controls, in this order: ``prevalence`` (the share of positives in the test set, 1% to
    99%; the scorer stays the same), ``threshold`` (predict positive when the score is at
    least this) and ``separation`` (how far the positives' scores lie above the negatives').
    The summary shows the confusion matrix, TPR, FPR, precision, the cost (when the model has
    a cost matrix), AUC, average precision, Youden's threshold and the cheapest threshold;
    the figure shows the operating point on the ROC curve and on the PR curve side by side.
    Moving the balance changes precision, the PR curve and the cost, but not TPR, FPR, the
    ROC curve or its AUC. The state is a :class:`evalkit.widgets.ROCModel`.

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

        import ipywidgets as widgets

        self.model = model or ROCModel(cost_matrix=[[0, 1], [10, 0]])
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

        from ..plots import plot_pr_curve, plot_roc_curve

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
