"""The spread explorer: how much do macro F1 and macro cF1 move from one test set to the next?"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_scalar
from ..classification import f1_score
from ..probabilistic import c_f1
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

#: Test-set sizes offered by the explorer's slider (capped at the data's size).
TEST_SIZES = (20, 50, 100, 200, 500, 1000, 2000, 5000)


def _example_data(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A made-up 3-class model: 600 items, right about 85% of the time, fairly confident."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 3, 600)
    y_proba = rng.dirichlet(np.ones(3), 600)
    confident = rng.random(600) < 0.85
    y_proba[confident] = 0.25 * y_proba[confident] + 0.75 * np.eye(3)[y_true[confident]]
    return y_true, y_proba


@keyword_options
class SpreadModel(SettingsModel):
    r"""Macro F1 and macro cF1 of one model on many test sets of ``n_items`` items.

    Each test set draws ``n_items`` items with replacement from the given items (a
    bootstrap resample when ``n_items`` is their number; a smaller or larger test set
    otherwise) and scores it with :func:`evalkit.f1_score` (predictions: the most probable
    class) and :func:`evalkit.c_f1` (the probabilities), both macro-averaged over all classes
    (a class absent from a test set scores 0). :meth:`summary` reports the mean and the
    standard deviation of each over the ``n_resamples`` test sets: the spread that
    Yacouby & Axman (2020) compare in their experiment C.

    This is the state behind :class:`evalkit.widgets.SpreadExplorer`.

    Parameters
    ----------
    y_true : array-like of shape (n,), optional
        True classes; with ``y_proba``. Default: a made-up 3-class model.
    y_proba : array-like of shape (n, k), optional
        Probabilities, columns in the order of the sorted classes.
    n_items : int, default 200
        Items per test set, at least 2.
    n_resamples : int, default 200
        Test sets drawn, at least 2.
    seed : int, default 0

    Examples
    --------
    >>> model = SpreadModel(n_items=100)
    >>> small = model.summary()["sd_f1"]
    >>> small > model.set(n_items=2000).summary()["sd_f1"]
    True
    """

    def __init__(self, y_true: Any = None, y_proba: Any = None, *, n_items: int = 200,
                 n_resamples: int = 200, seed: int = 0) -> None:
        if y_true is None and y_proba is None:
            y_true, y_proba = _example_data()
        self.y_true = np.asarray(y_true)
        self.y_proba = np.asarray(y_proba, dtype=float)
        self.labels = np.unique(self.y_true)
        # One call checks the data (lengths, probabilities, columns) before any state is set.
        c_f1(self.y_true, self.y_proba, average="macro", labels=self.labels)
        self.n_items, self.n_resamples, self.seed = 200, 200, 0
        self._cache: dict[str, Any] = {}
        self.set(n_items=n_items, n_resamples=n_resamples, seed=seed)

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "n_items": lambda v: check_scalar(v, "n_items", kind="int", low=2),
            "n_resamples": lambda v: check_scalar(v, "n_resamples", kind="int", low=2),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def scores(self) -> tuple[np.ndarray, np.ndarray]:
        """(macro F1, macro cF1) on each of the ``n_resamples`` test sets."""
        key = (self.n_items, self.n_resamples, self.seed)
        if self._cache.get("key") != key:
            rng = np.random.default_rng(self.seed)
            rows = rng.integers(0, len(self.y_true), size=(self.n_resamples, self.n_items))
            predicted = self.labels[self.y_proba.argmax(axis=1)]
            f1 = np.array([f1_score(self.y_true[r], predicted[r], average="macro",
                                    labels=self.labels, zero_division=0.0) for r in rows])
            cf1 = np.array([c_f1(self.y_true[r], self.y_proba[r], average="macro",
                                 labels=self.labels, zero_division=0.0) for r in rows])
            self._cache = {"key": key, "scores": (f1, cf1)}
        return self._cache["scores"]

    def summary(self) -> dict[str, float]:
        """The numbers the explorer shows.

        Keys: ``n_items``, ``n_resamples``, ``mean_f1``, ``mean_c_f1``, ``sd_f1`` and
        ``sd_c_f1`` (sample standard deviations over the test sets) and ``sd_ratio``
        (``sd_c_f1 / sd_f1``; below 1 when cF1 varies less; NaN when F1 never moved).
        """
        f1, cf1 = self.scores()
        sd_f1, sd_cf1 = float(f1.std(ddof=1)), float(cf1.std(ddof=1))
        return {
            "n_items": int(self.n_items),
            "n_resamples": int(self.n_resamples),
            "mean_f1": float(f1.mean()),
            "mean_c_f1": float(cf1.mean()),
            "sd_f1": sd_f1,
            "sd_c_f1": sd_cf1,
            "sd_ratio": sd_cf1 / sd_f1 if sd_f1 > 0 else float("nan"),
        }


@keyword_options
class SpreadExplorer(_Explorer):
    """How much do macro F1 and macro cF1 vary over test sets of a given size?

    Controls: ``n_items`` (the test-set size) and ``n_resamples``. Shows both metrics' mean
    and standard deviation over the test sets, their ratio, and the two distributions.

    Examples
    --------
    >>> explorer = SpreadExplorer(plot=False)
    >>> explorer.controls["n_items"].value = 500
    >>> explorer.model.n_items
    500
    """

    def __init__(self, model: SpreadModel | None = None, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model or SpreadModel()
        sizes = sorted(set(TEST_SIZES) | {self.model.n_items})
        style = {"description_width": "120px"}
        layout = widgets.Layout(width="520px")
        controls = {
            "n_items": widgets.SelectionSlider(options=sizes, value=self.model.n_items,
                                               description="test-set size", style=style,
                                               layout=layout, continuous_update=False),
            "n_resamples": widgets.SelectionSlider(
                options=sorted({50, 100, 200, 500, self.model.n_resamples}),
                value=self.model.n_resamples, description="test sets drawn", style=style,
                layout=layout, continuous_update=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [
            ("test-set size", str(s["n_items"])),
            ("test sets drawn", str(s["n_resamples"])),
            ("mean macro F1", _format(s["mean_f1"])),
            ("mean macro cF1", _format(s["mean_c_f1"])),
            ("SD of macro F1", _format(s["sd_f1"], 4)),
            ("SD of macro cF1", _format(s["sd_c_f1"], 4)),
            ("SD ratio cF1 / F1", _format(s["sd_ratio"], 2)),
        ]
        return _table(rows, "Spread over resampled test sets")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        f1, cf1 = self.model.scores()
        figure, ax = plt.subplots(figsize=(5.5, 3.2))
        low = min(f1.min(), cf1.min())
        high = max(f1.max(), cf1.max())
        bins = np.linspace(low, high, 31) if high > low else 10
        ax.hist(f1, bins=bins, alpha=0.6, label="macro F1")
        ax.hist(cf1, bins=bins, alpha=0.6, label="macro cF1")
        ax.set(title=f"{self.model.n_resamples} test sets of {self.model.n_items} items",
               xlabel="score", ylabel="test sets")
        ax.legend()
        figure.tight_layout()
        return figure
