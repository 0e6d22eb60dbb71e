"""Shared plumbing of the plots: the colour-blind-safe style, a fresh Axes when none is
given, and argument checks that more than one plot file needs."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from .._validation import check_1d

__all__ = ["OKABE_ITO", "NEUTRALS", "LINE_STYLES", "MARKERS", "HATCHES", "series_style",
           "style_rc", "use_style", "style"]

# Okabe & Ito (2008), "Color Universal Design": eight colours that stay distinct under
# protanopia, deuteranopia and tritanopia. Yellow is last: on white it has too little contrast
# for a thin line, so it is used only when seven series come before it.
OKABE_ITO: dict[str, str] = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "bluish green": "#009E73",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
    "sky blue": "#56B4E9",
    "black": "#000000",
    "yellow": "#F0E442",
}
# Neutrals for reference lines, grids, edges and "not counted" shading: no hue, so they never
# compete with a series' colour.
NEUTRALS: dict[str, str] = {"black": "#000000", "dark grey": "#555555", "grey": "#888888",
                            "light grey": "#CCCCCC", "white": "#FFFFFF"}
# Every series differs by more than its colour: a line style cycles with the colour (the
# WCAG 2.1 rule "use of colour", 1.4.1), and a marker when a function asks for one.
LINE_STYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)), "-", "--")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
# Bars of different series differ by a hatch as well as by their colour.
HATCHES = ("", "//", "..", "xx", "\\\\", "oo", "++", "--")


def series_style(index: int, *, marker: bool = False) -> dict[str, Any]:
    """The colour, line style (and marker) of the ``index``-th series of a plot."""
    k = index % len(OKABE_ITO)
    style: dict[str, Any] = {"color": list(OKABE_ITO.values())[k], "linestyle": LINE_STYLES[k]}
    if marker:
        style["marker"] = MARKERS[k]
    return style


def style_rc() -> dict[str, Any]:
    """The matplotlib settings of evalkit's style: the Okabe-Ito colours cycled with line
    styles, a legend frame, and text large enough to read on a projector."""
    from cycler import cycler

    return {
        "axes.prop_cycle": cycler(color=list(OKABE_ITO.values()), linestyle=list(LINE_STYLES)),
        "image.cmap": "cividis",
        "legend.frameon": True,
        "axes.titlesize": "medium",
        "font.size": 10,
    }


def use_style() -> None:
    """Make evalkit's colour-blind-safe style matplotlib's default for this session.

    evalkit's own plots and explorers always draw in this style; a notebook calls
    ``ek.plots.use_style()`` once, in its set-up cell, so that its own ``ax.plot`` calls
    without a ``color=`` get the same colours and line styles. Importing evalkit changes no
    global setting: that is the reader's choice, made here explicitly.

    Examples
    --------
    >>> import evalkit as ek
    >>> ek.plots.use_style()
    >>> import matplotlib.pyplot as plt
    >>> plt.rcParams["axes.prop_cycle"].by_key()["color"][0]
    '#0072B2'
    """
    import matplotlib.pyplot as plt

    plt.rcParams.update(style_rc())


@contextlib.contextmanager
def style() -> Iterator[None]:
    """evalkit's style for what is drawn inside the ``with`` block only."""
    import matplotlib.pyplot as plt

    with plt.rc_context(style_rc()):
        yield


def _axes(ax: Any, figsize: tuple[float, float]) -> Any:
    """``ax``, or a new Axes; either way one whose colour cycle is evalkit's when it holds
    nothing yet (an Axes the caller already drew on keeps its cycle and its place in it)."""
    if ax is None:
        import matplotlib.pyplot as plt

        with style():
            _, ax = plt.subplots(figsize=figsize)
    if not (ax.lines or ax.patches or ax.collections or ax.images):
        ax.set_prop_cycle(style_rc()["axes.prop_cycle"])
    return ax


def _operating_point(point: Any, name: str) -> tuple[float, float] | None:
    if point is None:
        return None
    values = np.asarray(point, dtype=np.float64)
    if values.shape != (2,):
        raise ValueError(f"{name} must be a pair of numbers (x, y); got {point!r}")
    return float(values[0]), float(values[1])


def _curve_arrays(x: Any, y: Any, x_name: str, y_name: str) -> tuple[np.ndarray, np.ndarray]:
    x = check_1d(x, x_name).astype(np.float64)
    y = check_1d(y, y_name).astype(np.float64)
    if len(x) != len(y):
        raise ValueError(f"{x_name} and {y_name} have different lengths ({len(x)} != {len(y)})")
    return x, y
