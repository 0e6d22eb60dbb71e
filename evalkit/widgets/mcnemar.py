"""The McNemar explorer: how test-set size, two accuracies and disagreement decide the test."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import check_scalar
from ..plots import OKABE_ITO
from ..stats import mcnemar_test
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

#: Test-set sizes offered by the explorer's slider.
TEST_SET_SIZES = (20, 50, 100, 200, 300, 500, 1000, 2000, 5000)

#: McNemar's four p-values, in the order shown, and their keys in :meth:`McNemarModel.summary`.
METHODS = ("exact", "mid-p", "chi2", "chi2-uncorrected")
_KEYS = {"exact": "exact", "mid-p": "mid_p", "chi2": "chi2",
         "chi2-uncorrected": "chi2_uncorrected"}

__all__ = ["McNemarModel", "McNemarExplorer"]


def _disagreement_range(accuracy_a: float, accuracy_b: float) -> tuple[float, float]:
    """The shares of items on which exactly one of two classifiers is right that these two
    accuracies allow: at least their difference, at most what the errors leave room for."""
    low = abs(accuracy_a - accuracy_b)
    high = min(accuracy_a + accuracy_b, 2.0 - accuracy_a - accuracy_b)
    return low, high


@keyword_options
class McNemarModel(SettingsModel):
    r"""Two classifiers on test sets of ``n_items`` items, compared with McNemar's test.

    Each test item falls in one of four cells: both classifiers right, only A right, only
    B right, both wrong. The accuracies fix the difference of the two middle cells and
    ``disagreement`` (the share of items on which exactly one is right) their sum:

    .. math::

        \pi_{A} = \tfrac12(\delta + a_A - a_B), \qquad
        \pi_{B} = \tfrac12(\delta - a_A + a_B)

    with :math:`a_A, a_B` the accuracies and :math:`\delta` the disagreement. :meth:`summary`
    reports the expected discordant counts :math:`n\pi_A, n\pi_B`, the p-values of
    :func:`evalkit.mcnemar_test`'s four methods on the typical test set (the counts rounded)
    and, from ``n_repeats`` test sets drawn from the multinomial of the four cells, the share
    with :math:`p < \alpha` for each method: the power, or the false-positive rate when the
    accuracies are equal.

    This is the state behind :class:`evalkit.widgets.McNemarExplorer`.

    Parameters
    ----------
    n_items : int, default 200
        Items in the test set, at least 2.
    accuracy_a, accuracy_b : float, default 0.85 and 0.80
        The two classifiers' accuracies, in (0, 1).
    disagreement : float, default 0.15
        Share of items on which exactly one classifier is right; at least
        ``|accuracy_a - accuracy_b|`` and at most ``min(a_A + a_B, 2 - a_A - a_B)``.
    alpha : float, default 0.05
        Significance level, in (0, 1).
    n_repeats : int, default 2000
        Simulated test sets.
    seed : int, default 0

    Examples
    --------
    >>> model = McNemarModel(n_items=200, accuracy_a=0.85, accuracy_b=0.80, disagreement=0.15)
    >>> summary = model.summary()
    >>> summary["a_only_correct"], summary["b_only_correct"]
    (20, 10)
    >>> round(summary["pvalue_exact"], 4)
    0.0987
    >>> model.set(disagreement=0.01)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: disagreement must be in [0.05, 0.35] for accuracies 0.85 and 0.8 (...); got 0.01
    """

    def __init__(self, *, n_items: int = 200, accuracy_a: float = 0.85,
                 accuracy_b: float = 0.80, disagreement: float = 0.15, alpha: float = 0.05,
                 n_repeats: int = 2000, seed: int = 0) -> None:
        self.n_items, self.accuracy_a, self.accuracy_b = 200, 0.85, 0.80
        self.disagreement, self.alpha, self.n_repeats, self.seed = 0.15, 0.05, 2000, 0
        self._pvalue_cache: dict[tuple[int, int, str], float] = {}
        self._summary_cache: dict[str, Any] = {}
        self.set(n_items=n_items, accuracy_a=accuracy_a, accuracy_b=accuracy_b,
                 disagreement=disagreement, alpha=alpha, n_repeats=n_repeats, seed=seed)

    @staticmethod
    def _checks() -> dict[str, Any]:
        def share(name: str) -> Any:
            return lambda v: check_scalar(v, name, low=0, high=1, low_inclusive=False,
                                          high_inclusive=False)
        return {
            "n_items": lambda v: check_scalar(v, "n_items", kind="int", low=2),
            "accuracy_a": share("accuracy_a"),
            "accuracy_b": share("accuracy_b"),
            "disagreement": lambda v: check_scalar(v, "disagreement", low=0, high=1),
            "alpha": share("alpha"),
            "n_repeats": lambda v: check_scalar(v, "n_repeats", kind="int", low=1),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def _check_together(self, checked: dict[str, Any]) -> None:
        accuracy_a = checked.get("accuracy_a", self.accuracy_a)
        accuracy_b = checked.get("accuracy_b", self.accuracy_b)
        disagreement = checked.get("disagreement", self.disagreement)
        low, high = _disagreement_range(accuracy_a, accuracy_b)
        if not low - 1e-12 <= disagreement <= high + 1e-12:
            raise ValueError(
                f"disagreement must be in [{low:.4g}, {high:.4g}] for accuracies "
                f"{accuracy_a:g} and {accuracy_b:g} (exactly one classifier is right on at "
                f"least the share by which the accuracies differ); got {disagreement:g}")

    def cell_shares(self) -> np.ndarray:
        """Shares of the four cells: both right, only A right, only B right, both wrong."""
        gap = self.accuracy_a - self.accuracy_b
        a_only = max((self.disagreement + gap) / 2, 0.0)
        b_only = max((self.disagreement - gap) / 2, 0.0)
        both_right = max(self.accuracy_a - a_only, 0.0)
        both_wrong = max(1.0 - both_right - a_only - b_only, 0.0)
        shares = np.array([both_right, a_only, b_only, both_wrong])
        return shares / shares.sum()

    def pvalue(self, a_only: int, b_only: int, method: str) -> float:
        """The p-value of :func:`evalkit.mcnemar_test` for a test set with these discordant
        counts (the concordant items do not change it)."""
        # every method's p-value is symmetric in the two counts: one call serves both orders
        low, high = sorted((int(a_only), int(b_only)))
        key = (low, high, method)
        if key not in self._pvalue_cache:
            # low items only A gets right, high only B, and one item both get right
            y_true = np.zeros(low + high + 1, dtype=int)
            y_pred_a = np.r_[np.zeros(low), np.ones(high), 0].astype(int)
            y_pred_b = np.r_[np.ones(low), np.zeros(high), 0].astype(int)
            self._pvalue_cache[key] = float(
                mcnemar_test(y_true, y_pred_a, y_pred_b, method=method).pvalue)
        return self._pvalue_cache[key]

    def simulated_counts(self) -> np.ndarray:
        """(n_repeats, 2) discordant counts (only A right, only B right) of the simulated
        test sets; the same seed draws the same test sets."""
        rng = np.random.default_rng(self.seed)
        cells = rng.multinomial(self.n_items, self.cell_shares(), size=self.n_repeats)
        return cells[:, 1:3]

    def simulated_pvalues(self) -> dict[str, np.ndarray]:
        """Each method's p-value on every simulated test set."""
        counts = self.simulated_counts()
        pairs, where = np.unique(counts, axis=0, return_inverse=True)
        return {method: np.array([self.pvalue(b, c, method) for b, c in pairs])[where.ravel()]
                for method in METHODS}

    def summary(self) -> dict[str, Any]:
        """The numbers the explorer shows.

        Keys: the settings ``n_items``, ``accuracy_a``, ``accuracy_b``, ``disagreement``,
        ``alpha``; ``expected_a_only`` and ``expected_b_only`` (:math:`n\\pi_A, n\\pi_B`);
        ``a_only_correct`` and ``b_only_correct`` (those rounded: the typical test set);
        ``pvalue_<method>`` on the typical test set and ``power_<method>`` (share of the
        simulated test sets with p < alpha) for the methods ``exact``, ``mid_p``, ``chi2`` and
        ``chi2_uncorrected``.
        """
        key = (self.n_items, self.accuracy_a, self.accuracy_b, self.disagreement, self.alpha,
               self.n_repeats, self.seed)
        if self._summary_cache.get("key") == key:
            return dict(self._summary_cache["summary"])
        shares = self.cell_shares()
        expected_a, expected_b = self.n_items * shares[1], self.n_items * shares[2]
        a_only, b_only = int(round(expected_a)), int(round(expected_b))
        result: dict[str, Any] = {
            "n_items": int(self.n_items), "accuracy_a": float(self.accuracy_a),
            "accuracy_b": float(self.accuracy_b), "disagreement": float(self.disagreement),
            "alpha": float(self.alpha), "expected_a_only": float(expected_a),
            "expected_b_only": float(expected_b), "a_only_correct": a_only,
            "b_only_correct": b_only,
        }
        simulated = self.simulated_pvalues()
        for method in METHODS:
            result[f"pvalue_{_KEYS[method]}"] = self.pvalue(a_only, b_only, method)
        for method in METHODS:
            result[f"power_{_KEYS[method]}"] = float(np.mean(simulated[method] < self.alpha))
        self._summary_cache = {"key": key, "summary": dict(result)}
        return result


@keyword_options
class McNemarExplorer(_Explorer):
    """How do test-set size, two accuracies and their disagreement decide McNemar's test?

    Controls: ``n_items``, ``accuracy_a``, ``accuracy_b`` and ``disagreement`` (the share of
    items on which exactly one classifier is right; moved into its allowed range when the
    accuracies change). Shows the discordant counts of the typical test set, the four
    methods' p-values on it, and how often each reaches p < alpha over simulated test sets.

    Examples
    --------
    >>> explorer = McNemarExplorer(McNemarModel(n_repeats=200), plot=False)
    >>> explorer.controls["n_items"].value = 1000
    >>> explorer.model.n_items
    1000
    """

    def __init__(self, model: McNemarModel | None = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or McNemarModel()
        sizes = sorted(set(TEST_SET_SIZES) | {self.model.n_items})
        style = {"description_width": "150px"}
        layout = widgets.Layout(width="520px")

        def share(value: float, low: float, high: float, text: str) -> Any:
            return widgets.FloatSlider(value=value, min=low, max=high, step=0.01,
                                       description=text, style=style, layout=layout,
                                       continuous_update=False, readout_format=".2f")

        controls = {
            "n_items": widgets.SelectionSlider(options=sizes, value=self.model.n_items,
                                               description="test items", style=style,
                                               layout=layout, continuous_update=False),
            "accuracy_a": share(self.model.accuracy_a, 0.5, 0.99, "accuracy of A"),
            "accuracy_b": share(self.model.accuracy_b, 0.5, 0.99, "accuracy of B"),
            "disagreement": share(self.model.disagreement, 0.0, 0.5,
                                  "exactly one right"),
        }
        self._moving = False
        super().__init__(controls, plot=plot)

    def _on_change(self, change: dict[str, Any]) -> None:
        if not self._moving:
            self.refresh()

    def update_model(self) -> None:
        """Pass the controls to the model, first moving ``disagreement`` into the range the
        two accuracies allow (the slider shows where it went)."""
        values = {name: control.value for name, control in self.controls.items()}
        low, high = _disagreement_range(values["accuracy_a"], values["accuracy_b"])
        moved = values["disagreement"]
        if moved < low:   # the next step of the slider inside the range
            moved = math.ceil(round(low * 100, 6)) / 100
        elif moved > high:
            moved = math.floor(round(high * 100, 6)) / 100
        if moved != values["disagreement"]:
            self._moving = True
            try:
                self.controls["disagreement"].value = moved
            finally:
                self._moving = False
            values["disagreement"] = moved
        self.model.set(**values)

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [
            ("test items", str(s["n_items"])),
            ("accuracies A, B", f"{s['accuracy_a']:.2f}, {s['accuracy_b']:.2f}"),
            ("items only A gets right", f"{s['a_only_correct']} (expected "
                                        f"{s['expected_a_only']:.1f})"),
            ("items only B gets right", f"{s['b_only_correct']} (expected "
                                        f"{s['expected_b_only']:.1f})"),
        ]
        for method in METHODS:
            rows.append((f"p ({method})", _format(s[f"pvalue_{_KEYS[method]}"], 4)))
        for method in METHODS:
            rows.append((f"share with p < {s['alpha']:g} ({method})",
                         f"{s[f'power_{_KEYS[method]}']:.1%}"))
        return _table(rows, f"McNemar's test; {self.model.n_repeats} simulated test sets")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        summary = self.model.summary()
        shares = [summary[f"power_{_KEYS[method]}"] for method in METHODS]
        figure, ax = plt.subplots(figsize=(5.5, 3.2))
        ax.bar(METHODS, shares, color=list(OKABE_ITO.values())[:4])
        ax.axhline(self.model.alpha, color="0.3", linestyle="--",
                   label=f"alpha = {self.model.alpha:g}")
        ax.set(ylim=(0, 1), title="How often each method finds p < alpha",
               xlabel="method", ylabel="share of simulated test sets")
        ax.legend()
        figure.tight_layout()
        return figure
