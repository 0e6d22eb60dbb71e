"""The cost explorer: a decision threshold, the price of each error, and what the decisions cost."""

from __future__ import annotations

import html
import math
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._validation import (
    check_consistent_length,
    check_finite_scores,
    check_labels,
    check_scalar,
)
from ..agreement import labels_from_table
from ..classification import accuracy
from ..costs import (
    ThresholdCost,
    cost_optimal_threshold,
    costs_by_threshold,
    expected_cost,
    probability_threshold,
    total_cost,
)
from ._base import _Explorer, _format, _grid, _table
from ._state import check_changes, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets

#: The four costs of :class:`CostModel`, in the order of ``cost_matrix.ravel()``.
COST_NAMES = ("cost_tn", "cost_fp", "cost_fn", "cost_tp")


def _check_cost(value: Any, name: str) -> float:
    """A cost: any finite number (negative for a benefit)."""
    return check_scalar(value, name)


def _check_threshold(value: Any, name: str = "threshold") -> float:
    """A threshold: any number, ``inf`` meaning "never positive"."""
    return check_scalar(value, name, allow_inf=True)


@keyword_options
@dataclass(eq=False)
class CostModel:
    r"""A scorer, a 2x2 cost matrix and a decision threshold: what the decisions cost.

    A sample is predicted positive when its score is at least ``threshold``. The model gives
    the confusion matrix at that threshold, its total and expected cost and its accuracy, the
    cheapest threshold on these data (:func:`costs_by_threshold`, recomputed only when a cost
    changes, so moving the threshold is a table look-up) and, for calibrated probabilities,
    the theoretical threshold of Elkan (2001):

    .. math::

        \mathrm{cost}(t) = TN(t)\,C_{TN} + FP(t)\,C_{FP} + FN(t)\,C_{FN} + TP(t)\,C_{TP},
        \qquad
        p^* = \frac{C_{FP} - C_{TN}}{C_{FP} - C_{TN} + C_{FN} - C_{TP}}

    Predicting positive is cheaper in expectation exactly when
    :math:`P(+ \mid x) \ge p^*`. This is the state behind
    :class:`evalkit.widgets.CostExplorer`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; ``pos_label`` against all other labels. Both must occur.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive (probabilities or decision values).
    pos_label : int or str, default 1
        The positive class.
    cost_tn, cost_fp, cost_fn, cost_tp : float
        The cost matrix in the order (negative, positive):
        ``[[cost_tn, cost_fp], [cost_fn, cost_tp]]``. Negative costs are benefits. Default:
        0 for a right decision, 1 for an error (the cost is then the error count).
    threshold : float, default 0.5
        Predict positive when ``y_score >= threshold``; ``inf`` means never.

    Attributes
    ----------
    table : DataFrame
        :func:`costs_by_threshold` for the current costs: one row per distinct threshold.

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978.

    Examples
    --------
    >>> model = CostModel([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], cost_fn=5)
    >>> model.confusion()  # rows true (neg, pos), columns predicted (neg, pos)
    array([[2, 0],
           [1, 1]])
    >>> model.total_cost(), model.accuracy()
    (5.0, 0.75)
    >>> model.optimum()
    ThresholdCost(threshold=0.35, cost=1.0)
    >>> round(model.theoretical_threshold(), 4)  # (1 - 0) / (1 - 0 + 5 - 0)
    0.1667
    >>> model.set(threshold=0.35).total_cost()
    1.0
    """

    y_true: Any = field(repr=False)
    y_score: Any = field(repr=False)
    _: KW_ONLY
    pos_label: Any = 1
    cost_tn: float = 0.0
    cost_fp: float = 1.0
    cost_fn: float = 1.0
    cost_tp: float = 0.0
    threshold: float = 0.5
    table: pd.DataFrame = field(init=False, repr=False)

    def __post_init__(self) -> None:
        y_true = check_labels(self.y_true, "y_true")
        y_score = check_finite_scores(self.y_score, "y_score")
        check_consistent_length(y_true=y_true, y_score=y_score)
        self.y_true, self.y_score = y_true, y_score
        for name in COST_NAMES:
            setattr(self, name, _check_cost(getattr(self, name), name))
        self.threshold = _check_threshold(self.threshold)
        self._recompute()  # also checks pos_label against y_true
        first = self.table.iloc[0]  # threshold +inf: every sample predicted negative
        self.n_positive, self.n_negative = int(first["fn"]), int(first["tn"])
        if self.n_positive == 0 or self.n_negative == 0:
            missing = "positive" if self.n_positive == 0 else "negative"
            raise ValueError(
                f"y_true must contain both classes; it has no {missing} sample "
                f"(pos_label={self.pos_label!r})"
            )

    def _recompute(self) -> None:
        """The sweep and its costs: once per cost change, never per threshold move."""
        self.table = costs_by_threshold(self.y_true, self.y_score, self.cost_matrix,
                                        pos_label=self.pos_label)
        self._optimum = cost_optimal_threshold(self.y_true, self.y_score, self.cost_matrix,
                                               pos_label=self.pos_label)
        # Finite thresholds, decreasing: the look-up table for confusion().
        self._descending = self.table["threshold"].to_numpy()[1:]

    def set(self, **changes: Any) -> CostModel:
        """Change the threshold and/or some of the four costs, and return the model.

        The whole change is checked before any of it is applied: a bad value or an unknown
        name leaves the model as it was. The cheapest threshold is found again only when a
        cost changes.
        """
        checks = {name: (lambda v, name=name: _check_cost(v, name)) for name in COST_NAMES}
        checks["threshold"] = _check_threshold
        checked = check_changes(changes, checks)
        changed = any(getattr(self, name) != value for name, value in checked.items()
                      if name != "threshold")
        for name, value in checked.items():
            setattr(self, name, value)
        if changed:
            self._recompute()
        return self

    @property
    def cost_matrix(self) -> np.ndarray:
        """``[[cost_tn, cost_fp], [cost_fn, cost_tp]]``: rows true, columns predicted."""
        return np.array([[self.cost_tn, self.cost_fp], [self.cost_fn, self.cost_tp]])

    @property
    def n_samples(self) -> int:
        return self.n_positive + self.n_negative

    def confusion(self, threshold: float | None = None) -> np.ndarray:
        """``[[TN, FP], [FN, TP]]`` at ``threshold`` (default: the model's), as
        :func:`evalkit.confusion_matrix` lays out 0/1 labels."""
        t = self.threshold if threshold is None else _check_threshold(threshold)
        # Scores >= t are those >= the smallest distinct score that is >= t: row k of the
        # sweep, k = the number of distinct scores >= t (row 0 is +inf, nothing positive).
        k = int(np.searchsorted(-self._descending, -t, side="right"))
        row = self.table.iloc[k]
        return np.array([[row["tn"], row["fp"]], [row["fn"], row["tp"]]], dtype=np.int64)

    def total_cost(self) -> float:
        """The summed cost of every decision at the current threshold."""
        return total_cost(self.confusion(), self.cost_matrix)

    def expected_cost(self) -> float:
        """The average cost per sample at the current threshold."""
        return expected_cost(self.confusion(), self.cost_matrix)

    def accuracy(self) -> float:
        """The share of right decisions at the current threshold."""
        return accuracy(*labels_from_table(self.confusion()))

    def optimum(self) -> ThresholdCost:
        """The cheapest threshold on these data and its total cost (the highest of ties)."""
        return self._optimum

    def theoretical_threshold_issue(self) -> str | None:
        """Why :math:`p^*` does not apply here, or None when it does."""
        if self.y_score.min() < 0 or self.y_score.max() > 1:
            return "the scores are not probabilities (some lie outside [0, 1])"
        if not (self.cost_fp > self.cost_tn and self.cost_fn > self.cost_tp):
            return ("an error must cost more than the right decision "
                    "(cost_fp > cost_tn and cost_fn > cost_tp)")
        return None

    def theoretical_threshold(self) -> float | None:
        """:math:`p^*`, the cost-optimal threshold for calibrated probabilities; None when
        it does not apply (see :meth:`theoretical_threshold_issue`)."""
        if self.theoretical_threshold_issue() is not None:
            return None
        return probability_threshold(self.cost_matrix)

    def summary(self) -> dict[str, Any]:
        """Every number the explorer shows, by name.

        Keys: ``threshold``, ``n_samples``, ``n_positive``, ``accuracy``, ``total_cost`` and
        ``expected_cost`` (at the threshold), ``cheapest_threshold``, ``cheapest_cost`` and
        ``cheapest_accuracy`` (of :meth:`optimum`), ``extra_cost`` (what the chosen threshold
        costs above the cheapest), ``p_star`` and ``p_star_cost`` (None when :math:`p^*` does
        not apply) and ``p_star_issue`` (why not, or None).
        """
        best = self.optimum()
        best_confusion = self.confusion(best.threshold)
        p_star = self.theoretical_threshold()
        p_star_cost = (None if p_star is None
                       else total_cost(self.confusion(p_star), self.cost_matrix))
        return {
            "threshold": self.threshold,
            "n_samples": self.n_samples,
            "n_positive": self.n_positive,
            "accuracy": self.accuracy(),
            "total_cost": self.total_cost(),
            "expected_cost": self.expected_cost(),
            "cheapest_threshold": best.threshold,
            "cheapest_cost": best.cost,
            "cheapest_accuracy": accuracy(*labels_from_table(best_confusion)),
            "extra_cost": self.total_cost() - best.cost,
            "p_star": p_star,
            "p_star_cost": p_star_cost,
            "p_star_issue": self.theoretical_threshold_issue(),
        }


@keyword_options
class CostExplorer(_Explorer):
    """Move the decision threshold and the price of each error; watch the cost follow.

    Controls: ``threshold`` (first; predict positive when the score is at least it),
    ``cost_fn`` and ``cost_fp`` (sliders from 0 to ``max_cost``), ``cost_tp`` and
    ``cost_tn`` (number boxes; a negative cost is a benefit). The summary shows the
    confusion matrix at the threshold, accuracy, total and expected cost, the cheapest
    threshold on these data with its cost and accuracy, and :math:`p^*`, the threshold that is
    optimal for calibrated probabilities; the plot shows the cost of every threshold
    (:func:`evalkit.plots.plot_cost_curve`) and the confusion matrix as a heat map. The
    numbers come from :class:`evalkit.widgets.CostModel`, which finds the cheapest
    threshold once per change of the costs.

    Examples
    --------
    >>> from evalkit.widgets import CostModel
    >>> model = CostModel([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], cost_fn=5)
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
        import ipywidgets as widgets
        import numpy as np


        if model is None:
            # 400 cases whose scores are calibrated by construction: a case with score s is
            # positive with probability s, so p* is the right threshold on average.
            rng = np.random.default_rng(0)
            y_score = np.round(rng.beta(1.2, 2.5, 400), 3)
            y_true = (rng.random(400) < y_score).astype(int)
            model = CostModel(y_true, y_score, cost_fn=5.0)
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

    def _threshold_text(self, threshold: float) -> str:
        return "inf (never positive)" if math.isinf(threshold) else f"{threshold:.4g}"

    def render_summary(self) -> str:
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
        s = m.summary()
        rows = [
            ("accuracy", _format(s["accuracy"])),
            ("total cost", _format(s["total_cost"], 2)),
            ("expected cost per case", _format(s["expected_cost"], 4)),
            ("cheapest threshold on these data", self._threshold_text(s["cheapest_threshold"])),
            ("its total cost", _format(s["cheapest_cost"], 2)),
            ("its accuracy", _format(s["cheapest_accuracy"])),
            ("extra cost of the chosen threshold", _format(s["extra_cost"], 2)),
        ]
        if s["p_star"] is None:
            rows.append(("p* (calibrated probabilities)", f"not applicable: {s['p_star_issue']}"))
        else:
            rows.append(("p* (calibrated probabilities)", f"{s['p_star']:.4f}"))
            rows.append(("total cost at p*", _format(s["p_star_cost"], 2)))
        heading = (f"<p><b>Predict {html.escape(positive)} when the score ≥ "
                   f"{m.threshold:.4g}</b> ({m.n_samples} cases, {m.n_positive} of them "
                   f"{html.escape(positive)})</p>")
        return (heading + "<div style='display:flex;flex-wrap:wrap;gap:28px;"
                "align-items:flex-start'>" + counts + prices + _table(rows, "Costs") + "</div>")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import plot_confusion_matrix, plot_cost_curve

        m = self.model
        figure, (left, right) = plt.subplots(1, 2, figsize=(10.5, 3.9),
                                             gridspec_kw={"width_ratios": [1.7, 1]})
        plot_cost_curve(m.table["threshold"], m.table["cost"], optimum=m.optimum(),
                        current=m.threshold, ax=left)
        p_star = m.theoretical_threshold()
        if p_star is not None:
            left.axvline(p_star, color="#555555", linestyle=":", linewidth=1.5,
                         label=f"p* = {p_star:.3g}")
            left.legend(loc="best", fontsize=8)
        # Near threshold 1 a good classifier misses every positive, and that cost would squash
        # the interesting part: show from the optimum to a margin above the current cost.
        best, now = m.optimum().cost, m.total_cost()
        top = min(float(m.table["cost"].max()), now + max(now - best, abs(best), 1.0))
        pad = 0.08 * (top - best) or 1.0
        left.set_ylim(best - pad, top + pad)
        left.set_title(f"Total cost of each threshold (cost now {now:.4g})")
        plot_confusion_matrix(m.confusion(), labels=list(self.labels), ax=right,
                              title=f"At t = {m.threshold:.3g}: accuracy {m.accuracy():.3f}")
        figure.tight_layout()
        return figure
