"""Every explorer is usable without colour vision and from the keyboard: its figure draws in
the Okabe-Ito palette (or greys), and every control has a visible label."""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from evalkit.plots import style  # noqa: E402

from .._accessibility import all_explorers, drawn_colours, off_palette  # noqa: E402

pytest.importorskip("ipywidgets")
pytest.importorskip("sklearn")


@pytest.fixture(scope="module")
def explorers():
    return all_explorers(plot=False)


def _controls(widget):
    """Every widget in a view that takes input from the reader."""
    import ipywidgets as widgets

    interactive = (widgets.ValueWidget, widgets.Button)
    found = [widget] if isinstance(widget, interactive) else []
    for child in getattr(widget, "children", ()):
        found += _controls(child)
    return found


def test_every_explorer_is_covered(explorers):
    from evalkit import widgets

    assert len(explorers) == sum(name.endswith("Explorer") for name in widgets.__all__)


def test_every_explorer_figure_draws_only_in_the_palette(explorers):
    wrong = {}
    for name, explorer in explorers.items():
        with style():
            figure = explorer.draw()
        colours = off_palette(drawn_colours(figure))
        plt.close(figure)
        if colours:
            wrong[name] = colours
    assert wrong == {}


def test_every_control_has_a_label(explorers):
    """A visible ``description`` (ipywidgets renders it as the control's <label>), or for a
    widget with no description an ``aria-label`` given through ``tooltip``."""
    unlabelled = {}
    for name, explorer in explorers.items():
        for control in _controls(explorer.widget):
            if isinstance(control, __import__("ipywidgets").HTML):
                continue  # output text, not a control
            label = (getattr(control, "description", "") or getattr(control, "tooltip", "")
                     or "").strip()
            if not label:
                unlabelled.setdefault(name, []).append(type(control).__name__)
    assert unlabelled == {}


def test_every_explorer_figure_has_an_accessible_name(explorers):
    for name, explorer in explorers.items():
        assert explorer.figure_description().strip(), name
        assert len(explorer.figure_description().split()) >= 5, name
