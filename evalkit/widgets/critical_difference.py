"""The critical-difference explorer: Friedman's test, Nemenyi's critical difference and
Demšar's diagram for a chosen set of systems on a chosen number of topics (or data sets)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_scalar
from ..stats import friedman_test, nemenyi_test
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

#: Significance levels offered by the explorer's slider.
ALPHAS = (0.01, 0.05, 0.1)


def _check_table(scores: Any) -> pd.DataFrame:
    """The score table as a DataFrame with unique string-able column names, or raise."""
    if not isinstance(scores, pd.DataFrame):
        raise TypeError("scores must be a pandas DataFrame (one row per topic or data set, "
                        f"one named column per system); got {type(scores).__name__}")
    if scores.shape[0] < 2 or scores.shape[1] < 2:
        raise ValueError("scores must have at least 2 rows (topics or data sets) and 2 "
                         f"columns (systems); got shape {scores.shape}")
    if not scores.columns.is_unique:
        raise ValueError("scores must name each system (column) once")
    friedman_test(scores)  # the maths function's checks: numbers, finite, no missing values
    return scores


@keyword_options
class CriticalDifferenceModel(SettingsModel):
    r"""Friedman's and Nemenyi's tests on a chosen part of a table of scores.

    ``scores`` holds one row per topic (or data set) and one column per system, higher is
    better. The model takes the columns named in ``systems`` and ``n_topics`` of the rows:
    the first ``n_topics`` of a random order of the rows drawn with ``seed`` (so with one
    seed, more topics add rows to the ones already used). :meth:`summary` reports
    :func:`evalkit.friedman_test` (Friedman's :math:`\chi^2_F` and Iman and Davenport's
    :math:`F_F` with their p-values) and :func:`evalkit.nemenyi_test` (the critical
    difference :math:`CD = q_\alpha \sqrt{k (k + 1) / (6 N)}` and how many pairs of systems
    have average ranks at least one CD apart) on that part of the table.

    This is the state behind :class:`evalkit.widgets.CriticalDifferenceExplorer`.

    Parameters
    ----------
    scores : DataFrame
        One row per topic or data set, one named column per system; at least 2 of each.
    systems : sequence of str, optional
        The systems (column names) to compare, at least 2; default all.
    n_topics : int, optional
        How many rows to use, from 2 to the number of rows; default all.
    alpha : float, default 0.05
        Family-wise significance level of Nemenyi's test, in (0, 1).
    seed : int, default 0
        Seed of the random order of the rows.

    Examples
    --------
    >>> scores = pd.DataFrame({"a": [0.9, 0.8, 0.7, 0.9, 0.8, 0.6],
    ...                        "b": [0.5, 0.6, 0.4, 0.6, 0.7, 0.5],
    ...                        "c": [0.3, 0.2, 0.5, 0.4, 0.1, 0.2]})
    >>> summary = CriticalDifferenceModel(scores).summary()
    >>> summary["best_system"], round(summary["friedman_pvalue"], 4)
    ('a', 0.0057)
    >>> round(summary["critical_difference"], 3), summary["n_pairs_different"]
    (1.353, 1)
    """

    SETTINGS = ("systems", "n_topics", "alpha", "seed")

    def __init__(self, scores: Any, *, systems: Any = None, n_topics: int | None = None,
                 alpha: float = 0.05, seed: int = 0) -> None:
        self.scores = _check_table(scores)
        self.systems: tuple[Any, ...] = tuple(self.scores.columns)
        self.n_topics, self.alpha, self.seed = len(self.scores), 0.05, 0
        self.set(systems=self.systems if systems is None else systems,
                 n_topics=len(self.scores) if n_topics is None else n_topics,
                 alpha=alpha, seed=seed)

    def _check_systems(self, value: Any) -> tuple[Any, ...]:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise TypeError("systems must be a list or tuple of column names of scores; got "
                            f"{type(value).__name__}")
        chosen = tuple(value)
        unknown = [name for name in chosen if name not in self.scores.columns]
        if unknown:
            raise ValueError(f"systems must be columns of scores; unknown: {unknown!r}")
        if len(set(chosen)) != len(chosen):
            raise ValueError("systems must name each system once")
        if len(chosen) < 2:
            raise ValueError(f"systems must hold at least 2 systems; got {len(chosen)}")
        return chosen

    def _checks(self) -> dict[str, Any]:
        return {
            "systems": self._check_systems,
            "n_topics": lambda v: check_scalar(v, "n_topics", kind="int", low=2,
                                               high=len(self.scores)),
            "alpha": lambda v: check_scalar(v, "alpha", low=0, high=1, low_inclusive=False,
                                            high_inclusive=False),
            "seed": lambda v: check_scalar(v, "seed", kind="int", low=0),
        }

    def table(self) -> pd.DataFrame:
        """The part of ``scores`` the tests run on: ``n_topics`` rows, the chosen systems."""
        order = np.random.default_rng(self.seed).permutation(len(self.scores))
        rows = np.sort(order[: self.n_topics])  # keep the table's own row order
        return self.scores.iloc[rows][list(self.systems)]

    def summary(self) -> dict[str, Any]:
        """The numbers the explorer shows.

        Keys: ``n_topics`` (N), ``n_systems`` (k), ``alpha``, ``friedman_statistic`` and
        ``friedman_pvalue`` (tie-corrected :math:`\\chi^2_F`), ``f_statistic`` and
        ``f_pvalue`` (Iman-Davenport), ``critical_difference`` (Nemenyi's CD in ranks),
        ``n_pairs`` (k (k - 1) / 2), ``n_pairs_different`` (pairs with Nemenyi p < alpha),
        ``best_system`` and ``best_rank`` (lowest average rank), ``worst_system`` and
        ``worst_rank``.
        """
        table = self.table()
        friedman = friedman_test(table)
        nemenyi = nemenyi_test(table, alpha=self.alpha)
        k = len(self.systems)
        upper = np.triu_indices(k, 1)
        ranks = friedman.ranks
        return {
            "n_topics": int(self.n_topics),
            "n_systems": k,
            "alpha": float(self.alpha),
            "friedman_statistic": float(friedman.statistic),
            "friedman_pvalue": float(friedman.pvalue),
            "f_statistic": float(friedman.f_statistic),
            "f_pvalue": float(friedman.f_pvalue),
            "critical_difference": float(nemenyi.critical_difference),
            "n_pairs": int(k * (k - 1) // 2),
            "n_pairs_different": int(np.sum(nemenyi.pvalues.to_numpy()[upper] < self.alpha)),
            "best_system": ranks.idxmin(),
            "best_rank": float(ranks.min()),
            "worst_system": ranks.idxmax(),
            "worst_rank": float(ranks.max()),
        }


@keyword_options
class CriticalDifferenceExplorer(_Explorer):
    """Which systems, how many topics, which alpha: Friedman's p, Nemenyi's CD, the diagram.

    Controls: ``systems`` (a multiple selection), ``n_topics`` and ``alpha``. Shows the
    summary of :class:`CriticalDifferenceModel` beside Demšar's critical-difference diagram
    (:func:`evalkit.plots.plot_critical_difference`).

    Examples
    --------
    >>> scores = pd.DataFrame({"a": [0.9, 0.8, 0.7, 0.9], "b": [0.5, 0.6, 0.4, 0.6],
    ...                        "c": [0.3, 0.2, 0.5, 0.4]})
    >>> explorer = CriticalDifferenceExplorer(CriticalDifferenceModel(scores), plot=False)
    >>> explorer.controls["n_topics"].value = 3
    >>> explorer.model.n_topics
    3
    """

    def __init__(self, model: CriticalDifferenceModel, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        if not isinstance(model, CriticalDifferenceModel):
            raise TypeError("model must be a CriticalDifferenceModel; got "
                            f"{type(model).__name__}")
        self.model = model
        style = {"description_width": "120px"}
        layout = widgets.Layout(width="520px")
        names = list(model.scores.columns)
        controls = {
            "systems": widgets.SelectMultiple(
                options=[(str(name), name) for name in names], value=model.systems,
                rows=min(10, len(names)), description="systems", style=style,
                layout=layout),
            "n_topics": widgets.IntSlider(value=model.n_topics, min=2,
                                          max=len(model.scores), description="topics",
                                          style=style, layout=layout,
                                          continuous_update=False),
            "alpha": widgets.SelectionSlider(options=sorted(set(ALPHAS) | {model.alpha}),
                                             value=model.alpha, description="alpha",
                                             style=style, layout=layout,
                                             continuous_update=False),
        }
        super().__init__(controls, plot=plot)

    def update_model(self) -> None:
        """Pass the controls to the model; a selection of fewer than 2 systems is refused by
        the model and shown, and the selection returns to the model's systems."""
        values = {name: control.value for name, control in self.controls.items()}
        if len(values["systems"]) < 2:
            self.controls["systems"].value = self.model.systems
            values["systems"] = self.model.systems
        self.model.set(**values)

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [
            ("topics N", str(s["n_topics"])),
            ("systems k", str(s["n_systems"])),
            ("alpha", f"{s['alpha']:g}"),
            ("Friedman chi2_F", _format(s["friedman_statistic"], 2)),
            ("Friedman p", f"{s['friedman_pvalue']:.2g}"),
            ("Iman-Davenport p", f"{s['f_pvalue']:.2g}"),
            ("critical difference (ranks)", _format(s["critical_difference"], 2)),
            ("pairs that differ (Nemenyi)", f"{s['n_pairs_different']} of {s['n_pairs']}"),
            ("best average rank", f"{s['best_system']} ({s['best_rank']:.2f})"),
            ("worst average rank", f"{s['worst_system']} ({s['worst_rank']:.2f})"),
        ]
        return _table(rows, "Friedman and Nemenyi on the chosen systems and topics")

    def draw(self) -> Any:
        from ..plots import plot_critical_difference

        ax = plot_critical_difference(self.model.table(), alpha=self.model.alpha)
        return ax.figure
