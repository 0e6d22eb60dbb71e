"""The temperature explorer: sharpen or soften a model's probabilities and watch which
metrics notice (cF1, Brier, ECE) and which cannot (F1, accuracy: the argmax never moves)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_labels, check_scalar
from ..calibration import (
    brier_score,
    expected_calibration_error,
    reliability_curve,
    temperature_scale,
)
from ..classification import accuracy, f1_score
from ..probabilistic import c_f1
from ._base import _Explorer, _format, _table
from ._state import SettingsModel, keyword_options

#: Where the explorer's slider starts and stops: a tenth to ten times the temperature.
TEMPERATURE_RANGE = (0.1, 10.0)


@keyword_options
class TemperatureModel(SettingsModel):
    """One model's test-set probabilities under a temperature, and every metric of them.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_proba : array-like of shape (n_samples, n_classes)
        The model's probabilities, columns in the order of the sorted labels of ``y_true``.
    temperature : float, default 1.0
        The temperature *T* > 0 (1: the model as it is).
    n_bins : int, default 10
        Equal-width bins of the ECE and the reliability diagram.

    Examples
    --------
    >>> model = TemperatureModel([0, 1, 1], [[0.6, 0.4], [0.3, 0.7], [0.45, 0.55]])
    >>> before = model.summary()
    >>> after = model.set(temperature=0.5).summary()
    >>> before["f1_macro"] == after["f1_macro"], after["c_f1_macro"] > before["c_f1_macro"]
    (True, True)
    """

    SETTINGS = ("temperature", "n_bins")

    def __init__(self, y_true: Any, y_proba: Any, *, temperature: float = 1.0,
                 n_bins: int = 10) -> None:
        self.y_true = check_labels(y_true, "y_true")
        # Validate once, through a metric: a bad y_proba fails here with its own message.
        brier_score(self.y_true, y_proba)
        self.y_proba = np.asarray(y_proba, dtype=np.float64)
        if self.y_proba.ndim != 2:
            raise ValueError("y_proba must be an (n_samples, n_classes) matrix for the "
                             f"temperature explorer; got shape {self.y_proba.shape}")
        self.temperature, self.n_bins = 1.0, 10
        self.set(temperature=temperature, n_bins=n_bins)

    @staticmethod
    def _checks() -> dict[str, Any]:
        return {
            "temperature": lambda v: check_scalar(v, "temperature", low=0,
                                                  low_inclusive=False),
            "n_bins": lambda v: check_scalar(v, "n_bins", kind="int", low=1),
        }

    def scaled(self) -> np.ndarray:
        """The probabilities at the current temperature (:func:`evalkit.temperature_scale`)."""
        return temperature_scale(self.y_proba, temperature=self.temperature)

    def summary(self) -> dict[str, float]:
        """Keys: ``temperature``, ``accuracy`` and ``f1_macro`` (of the argmax),
        ``c_f1_macro``, ``brier``, ``ece`` and ``mean_confidence`` (of the scaled
        probabilities)."""
        proba = self.scaled()
        columns = np.unique(self.y_true)
        predicted = columns[np.argmax(proba, axis=1)]
        return {
            "temperature": float(self.temperature),
            "accuracy": accuracy(self.y_true, predicted),
            "f1_macro": f1_score(self.y_true, predicted, average="macro", zero_division=0.0),
            "c_f1_macro": c_f1(self.y_true, proba, average="macro", zero_division=0.0),
            "brier": brier_score(self.y_true, proba),
            "ece": expected_calibration_error(self.y_true, proba, n_bins=self.n_bins),
            "mean_confidence": float(proba.max(axis=1).mean()),
        }

    def reliability(self) -> Any:
        """The reliability curve at the current temperature."""
        return reliability_curve(self.y_true, self.scaled(), n_bins=self.n_bins)


@keyword_options
class TemperatureExplorer(_Explorer):
    """Move a temperature slider over one model's probabilities.

    Controls: ``temperature`` (log scale, 0.1 to 10) and ``n_bins``. The summary shows that
    accuracy and F1 stay put while cF1, the Brier score and the ECE move; the plot is the
    reliability diagram at that temperature.

    Examples
    --------
    >>> explorer = TemperatureExplorer(TemperatureModel([0, 1, 1], [[0.6, 0.4], [0.3, 0.7],
    ...                                                         [0.45, 0.55]]), plot=False)
    >>> explorer.controls["temperature"].value = 2.0
    >>> explorer.model.temperature
    2.0
    """

    def __init__(self, model: TemperatureModel, *, plot: bool = True) -> None:
        import ipywidgets as widgets

        self.model = model
        style = {"description_width": "120px"}
        layout = widgets.Layout(width="520px")
        low, high = np.log10(TEMPERATURE_RANGE)
        controls = {
            "temperature": widgets.FloatLogSlider(
                value=model.temperature, base=10, min=low, max=high, step=0.05,
                description="temperature T", style=style, layout=layout,
                continuous_update=False),
            "n_bins": widgets.IntSlider(value=model.n_bins, min=2, max=30,
                                        description="bins (ECE)", style=style, layout=layout,
                                        continuous_update=False),
        }
        super().__init__(controls, plot=plot)

    def render_summary(self) -> str:
        s = self.model.summary()
        rows = [
            ("temperature T", _format(s["temperature"], 2)),
            ("accuracy (argmax)", _format(s["accuracy"])),
            ("macro F1 (argmax)", _format(s["f1_macro"])),
            ("macro cF1", _format(s["c_f1_macro"])),
            ("Brier score", _format(s["brier"])),
            (f"ECE ({self.model.n_bins} bins)", _format(s["ece"])),
            ("mean confidence", _format(s["mean_confidence"])),
        ]
        return _table(rows, "Metrics at this temperature")

    def draw(self) -> Any:
        import matplotlib.pyplot as plt

        from ..plots import plot_reliability_diagram

        figure, ax = plt.subplots(figsize=(4.8, 4.6))
        plot_reliability_diagram(self.model.y_true, self.model.scaled(),
                                 n_bins=self.model.n_bins, ax=ax)
        figure.tight_layout()
        return figure
