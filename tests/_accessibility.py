"""Shared by the accessibility tests: every explorer built on small data, and the colours a
matplotlib figure draws with."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.colors import to_rgba


def _incomplete_model() -> Any:
    from evalkit import widgets
    from evalkit.datasets import load_collection

    collection = load_collection("stdlib-docs")
    return widgets.IncompleteJudgementsModel(
        collection.qrels, collection.runs,
        pool_runs={**collection.runs, "manual": collection.manual_run})


def all_explorers(*, plot: bool = False) -> dict[str, Any]:
    """Every explorer of ``evalkit.widgets``, on its own example or on small data."""
    import pandas as pd

    from evalkit import widgets

    rng = np.random.default_rng(4)
    logits = rng.normal(size=(120, 4)) * 2
    y_true = np.argmax(logits + rng.normal(size=(120, 4)) * 2, axis=1)
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    p = rng.uniform(0.02, 0.98, 200)
    y = (rng.random(200) < p).astype(int)
    scores = pd.DataFrame(rng.normal(size=(30, 5)) + np.linspace(0, 1.5, 5),
                          columns=[f"s{j}" for j in range(5)])
    needs_data = {
        "TemperatureExplorer": lambda: widgets.TemperatureModel(y_true, proba),
        "ConfidenceExplorer": lambda: widgets.ConfidenceModel(y_true, proba, n_samples=5),
        "BrierExplorer": lambda: widgets.BrierModel(y, p),
        "CriticalDifferenceExplorer": lambda: widgets.CriticalDifferenceModel(scores),
        "EstimationExplorer": lambda: widgets.EstimationModel(_estimates()),
        "IncompleteJudgementsExplorer": _incomplete_model,
    }
    explorers = {}
    for name in widgets.__all__:
        if not name.endswith("Explorer"):
            continue
        cls = getattr(widgets, name)
        explorers[name] = (cls(needs_data[name](), plot=plot) if name in needs_data
                           else cls(plot=plot))
    return explorers


def _estimates() -> Any:
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    from evalkit import simulate_estimates

    X, y = load_iris(return_X_y=True)
    return simulate_estimates(GaussianNB(), X, y, n_available=30, n_repeats=2,
                              k_values=(2, 5, 10), test_fractions=(0.2, 1 / 3, 0.5), seed=7)


def drawn_colours(figure: Any) -> set[tuple[float, float, float]]:
    """The RGB colours of the lines, markers, patches and collections a figure draws (not
    its text, its frames, its legend's copies, nor colour-mapped images and meshes)."""
    colours: list[Any] = []
    for ax in figure.axes:
        for line in ax.lines:
            colours += [line.get_color(), line.get_markerfacecolor(), line.get_markeredgecolor()]
        for patch in ax.patches:
            if patch.get_fill():
                colours.append(patch.get_facecolor())
            if patch.get_linewidth() > 0:
                colours.append(patch.get_edgecolor())
        for collection in ax.collections:
            if collection.get_array() is not None:  # colour-mapped: the colour is a value
                continue
            colours += list(collection.get_facecolors()) + list(collection.get_edgecolors())
    found = set()
    for colour in colours:
        if isinstance(colour, str) and colour.lower() in ("none", "auto"):
            continue
        rgba = to_rgba(colour)
        if rgba[3] == 0:
            continue
        found.add(tuple(round(c, 3) for c in rgba[:3]))
    return found


def off_palette(colours: set[tuple[float, float, float]]) -> list[str]:
    """The colours that are neither an Okabe-Ito colour nor a grey (no hue), as hex."""
    from matplotlib.colors import to_hex

    from evalkit.plots import OKABE_ITO

    palette = {tuple(round(c, 3) for c in to_rgba(h)[:3]) for h in OKABE_ITO.values()}
    return sorted(to_hex(c) for c in colours
                  if c not in palette and max(c) - min(c) > 0.005)
