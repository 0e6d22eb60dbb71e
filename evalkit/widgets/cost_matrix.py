"""The cost-matrix explorer: price each cell, and see which classifier is cheapest and p*."""

from __future__ import annotations

import math
from dataclasses import KW_ONLY, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_bool, check_scalar
from ..classification import accuracy
from ..costs import expected_cost, probability_threshold, total_cost
from ._base import _Explorer, _format, _grid, _table
from ._state import SettingsModel, keyword_options

if TYPE_CHECKING:  # ipywidgets loads when a view is built, not with the model
    import ipywidgets as widgets

#: The course notes' models M1 and M2 and notebook 10's M3 (on M1's patients), in evalkit's
#: order: rows true (healthy, sick), columns predicted (healthy, sick), [[TN, FP], [FN, TP]].
NOTES_CONFUSIONS = {
    "M1": ((250, 60), (40, 150)),
    "M2": ((200, 5), (45, 250)),
    "M3": ((300, 10), (60, 130)),
}

#: The four costs of :class:`CostMatrixModel`, in the order of ``cost_matrix.ravel()``.
MATRIX_COSTS = ("cost_tn", "cost_fp", "cost_fn", "cost_tp")


@keyword_options
@dataclass(eq=False)
class CostMatrixModel(SettingsModel):
    r"""A 2×2 cost matrix priced cell by cell, and what it does to a few classifiers.

    The state behind :class:`evalkit.widgets.CostMatrixExplorer`. Each classifier is a
    confusion matrix in evalkit's order, ``[[TN, FP], [FN, TP]]``; the cost matrix is
    ``[[cost_tn, cost_fp], [cost_fn, cost_tp]]`` (a negative cost is a benefit). For each
    classifier the model gives its accuracy (:func:`evalkit.accuracy`, which no cost
    changes), its total cost (:func:`evalkit.total_cost`) and its expected cost per case
    (:func:`evalkit.expected_cost`): at its own test set's class mix, or, with
    ``same_mix``, at one share of positives for all (``priors=[1 - prevalence,
    prevalence]``). It also gives Elkan's threshold for calibrated probabilities,
    :math:`p^* =` :func:`evalkit.probability_threshold` (NaN when an error is not dearer
    than the right decision, and no threshold exists):

    .. math::

        \text{expected cost} = \sum_i \pi_i \sum_j \frac{N_{ij}}{n_i}\, C_{ij}, \qquad
        p^* = \frac{C_{FP} - C_{TN}}{(C_{FP} - C_{TN}) + (C_{FN} - C_{TP})}

    The model adds no formula of its own.

    Parameters
    ----------
    confusions : dict of name -> 2×2 counts, default the notes' M1, M2 and notebook 10's M3
    cost_tn, cost_fp, cost_fn, cost_tp : float, default 0, 1, 100, -1 (the course notes)
    same_mix : bool, default False
        Compare the expected costs at one class mix instead of each test set's own.
    prevalence : float, default 0.38
        The share of positives used when ``same_mix`` is on, in [0, 1].

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978.

    Examples
    --------
    >>> model = CostMatrixModel()
    >>> s = model.summary()
    >>> s["total_cost"], s["accuracy"]
    ({'M1': 3910.0, 'M2': 4255.0, 'M3': 5880.0}, {'M1': 0.8, 'M2': 0.9, 'M3': 0.86})
    >>> s["cheapest"], s["most_accurate"], round(s["p_star"], 4)
    ('M1', 'M2', 0.0098)
    >>> model.set(same_mix=True).summary()["cheapest"]  # at one class mix M2 is cheaper
    'M2'
    """

    confusions: Any = None
    _: KW_ONLY
    cost_tn: float = 0.0
    cost_fp: float = 1.0
    cost_fn: float = 100.0
    cost_tp: float = -1.0
    same_mix: bool = False
    prevalence: float = 0.38

    def __post_init__(self) -> None:
        raw = NOTES_CONFUSIONS if self.confusions is None else self.confusions
        if not isinstance(raw, dict) or not raw:
            raise TypeError("confusions must be a non-empty dict of name -> 2x2 counts")
        confusions = {}
        for name, counts in raw.items():
            counts = np.asarray(counts)
            if (counts.shape != (2, 2) or not np.issubdtype(counts.dtype, np.integer)
                    or (counts < 0).any() or (counts.sum(axis=1) == 0).any()):
                raise ValueError(f"confusions[{name!r}] must be 2x2 whole counts >= 0, "
                                 f"[[TN, FP], [FN, TP]], with samples of both classes")
            confusions[str(name)] = counts
        self.confusions = confusions
        self.set(**{name: getattr(self, name) for name in self._checks()})

    def _checks(self) -> dict[str, Any]:
        checks: dict[str, Any] = {name: (lambda v, name=name: check_scalar(v, name))
                                  for name in MATRIX_COSTS}
        checks["same_mix"] = lambda v: check_bool(v, "same_mix")
        checks["prevalence"] = lambda v: check_scalar(v, "prevalence", low=0.0, high=1.0)
        return checks

    @property
    def cost_matrix(self) -> np.ndarray:
        """``[[cost_tn, cost_fp], [cost_fn, cost_tp]]``: rows true, columns predicted."""
        return np.array([[self.cost_tn, self.cost_fp], [self.cost_fn, self.cost_tp]])

    @property
    def priors(self) -> list[float] | None:
        """``[1 - prevalence, prevalence]`` with ``same_mix``, else None (each own mix)."""
        return [1.0 - self.prevalence, self.prevalence] if self.same_mix else None

    def p_star(self) -> float:
        """:func:`evalkit.probability_threshold` of the cost matrix, NaN when none exists."""
        try:
            return probability_threshold(self.cost_matrix)
        except ValueError:
            return math.nan

    def accuracy(self, name: str) -> float:
        """:func:`evalkit.accuracy` of one classifier's decisions (labels from its counts)."""
        counts = self.confusions[name].ravel()
        y_true = np.repeat([0, 0, 1, 1], counts)
        y_pred = np.repeat([0, 1, 0, 1], counts)
        return accuracy(y_true, y_pred)

    def expected_costs(self, cost_matrix: Any = None) -> dict[str, float]:
        """Expected cost per case of each classifier (at the chosen class mix)."""
        matrix = self.cost_matrix if cost_matrix is None else cost_matrix
        return {name: expected_cost(counts, matrix, priors=self.priors)
                for name, counts in self.confusions.items()}

    def summary(self) -> dict[str, Any]:
        """What the explorer shows.

        Keys: ``cost_matrix`` (nested list), ``p_star``, ``same_mix``, ``prevalence``,
        ``positive_share`` (name -> share of positives in that test set), ``accuracy``,
        ``total_cost`` and ``expected_cost`` (name -> value), ``cheapest`` (lowest expected
        cost), ``most_accurate`` and ``accuracy_misleads`` (the two differ).
        """
        names = list(self.confusions)
        expected = self.expected_costs()
        accuracies = {name: self.accuracy(name) for name in names}
        cheapest = min(names, key=lambda name: expected[name])
        most_accurate = max(names, key=lambda name: accuracies[name])
        return {
            "cost_matrix": self.cost_matrix.tolist(), "p_star": self.p_star(),
            "same_mix": self.same_mix, "prevalence": self.prevalence,
            "positive_share": {name: float(c[1].sum() / c.sum())
                               for name, c in self.confusions.items()},
            "accuracy": accuracies,
            "total_cost": {name: total_cost(c, self.cost_matrix)
                           for name, c in self.confusions.items()},
            "expected_cost": expected, "cheapest": cheapest, "most_accurate": most_accurate,
            "accuracy_misleads": cheapest != most_accurate,
        }


@keyword_options
class CostMatrixExplorer(_Explorer):
    """Price the four cells of a cost matrix and see which classifier is cheapest, and p*.

    Controls: the cost of a miss (FN), of a false alarm (FP), of a found positive (TP) and
    of a cleared negative (TN), and whether to compare the expected costs at one share of
    positives (``same_mix``, ``prevalence``). The summary shows the cost matrix, Elkan's
    :math:`p^*`, and each classifier's accuracy, total cost and expected cost; the plot
    shows each classifier's expected cost as the cost of a miss varies.

    Examples
    --------
    >>> explorer = CostMatrixExplorer(plot=False)
    >>> explorer.controls["cost_fn"].value = 20
    >>> explorer.model.summary()["cheapest"]
    'M2'
    """

    def __init__(self, model: Any = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or CostMatrixModel()
        m = self.model
        style = {"description_width": "210px"}
        layout = widgets.Layout(width="540px")
        slider = {"style": style, "layout": layout, "continuous_update": False}
        controls: dict[str, widgets.Widget] = {
            "cost_fn": widgets.FloatSlider(value=m.cost_fn, min=0, max=max(200, m.cost_fn),
                                           step=1, description="cost of a miss (FN)", **slider),
            "cost_fp": widgets.FloatSlider(value=m.cost_fp, min=0, max=max(20, m.cost_fp),
                                           step=0.5, description="cost of a false alarm (FP)",
                                           **slider),
            "cost_tp": widgets.FloatSlider(value=m.cost_tp, min=min(-10, m.cost_tp), max=10,
                                           step=0.5, description="cost of a hit (TP)",
                                           **slider),
            "cost_tn": widgets.FloatSlider(value=m.cost_tn, min=min(-10, m.cost_tn), max=10,
                                           step=0.5, description="cost of a correct no (TN)",
                                           **slider),
            "same_mix": widgets.Checkbox(value=m.same_mix, indent=False,
                                         description="compare at one share of positives"),
            "prevalence": widgets.FloatSlider(value=m.prevalence, min=0.0, max=1.0,
                                              step=0.01, readout_format=".0%",
                                              description="share of positives", **slider),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        m = self.model
        s = m.summary()
        matrix = _grid(["", "predicted −", "predicted +"],
                       [["true −", _format(m.cost_tn, 1), _format(m.cost_fp, 1)],
                        ["true +", _format(m.cost_fn, 1), _format(m.cost_tp, 1)]],
                       "The cost matrix")
        mix = (f"all at {m.prevalence:.0%} positives" if m.same_mix
               else "each at its own test mix")
        names = list(m.confusions)
        models = _grid(
            ["model", "positives", "accuracy", "total cost", "expected cost"],
            [[name, f"{s['positive_share'][name]:.0%}", _format(s["accuracy"][name]),
              _format(s["total_cost"][name], 0), _format(s["expected_cost"][name], 3)]
             for name in names],
            f"Expected cost per case, {mix}", bold_row=names.index(s["cheapest"]))
        p_star = s["p_star"]
        facts = [("p* (act when P(+) ≥ p*)",
                  _format(p_star, 4) if not math.isnan(p_star) else "none: an error is no dearer"),
                 ("cheapest model", s["cheapest"]),
                 ("most accurate model", s["most_accurate"])]
        return matrix + models + _table(facts, "Decisions")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        m = self.model
        misses = np.linspace(0, max(200.0, m.cost_fn), 201)
        curves = {name: [] for name in m.confusions}
        for miss in misses:
            matrix = m.cost_matrix.copy()
            matrix[1, 0] = miss
            for name, value in m.expected_costs(matrix).items():
                curves[name].append(value)
        figure, ax = plt.subplots(figsize=(6.2, 3.8))
        for name, values in curves.items():
            ax.plot(misses, values, label=name)
        ax.axvline(m.cost_fn, color="grey", linestyle="--", label="current cost of a miss")
        ax.set_xlabel("cost of a miss (FN)")
        ax.set_ylabel("expected cost per case")
        mix = f"{m.prevalence:.0%} positives" if m.same_mix else "each test set's own mix"
        ax.set_title(f"Expected cost against the price of a miss ({mix})", fontsize=10)
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
        figure.tight_layout()
        return figure
