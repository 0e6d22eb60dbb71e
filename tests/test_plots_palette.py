"""Every colour evalkit's plots draw with is an Okabe-Ito colour or a grey, and every plot
with more than one series tells them apart by more than colour (WCAG 2.1, 1.4.1)."""

from __future__ import annotations

import doctest

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from evalkit import plots  # noqa: E402

from ._accessibility import drawn_colours, off_palette  # noqa: E402

PLOT_FUNCTIONS = [name for name in plots.__all__ if name.startswith("plot_")]


def _run_examples(function) -> list:
    """Run a plot function's docstring examples; return the figures they drew."""
    plt.close("all")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(function.__doc__, {**vars(plots), **vars(
        __import__(function.__module__, fromlist=["x"]))}, function.__name__, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, clear_globs=False)
    assert runner.failures == 0
    return [plt.figure(number) for number in plt.get_fignums()]


@pytest.mark.parametrize("name", PLOT_FUNCTIONS)
def test_every_plot_draws_only_in_the_palette(name):
    figures = _run_examples(getattr(plots, name))
    assert figures, f"{name}'s examples drew nothing"
    for figure in figures:
        assert off_palette(drawn_colours(figure)) == [], name
    plt.close("all")


def test_a_fresh_axes_cycles_the_palette_with_line_styles():
    ax = plots.plot_roc_curve([0, 0.5, 1], [0, 0.8, 1])
    first, second = ax.plot([0, 1], [0, 1]), ax.plot([0, 1], [1, 0])
    colours = [line[0].get_color() for line in (first, second)]
    assert all(c.upper() in plots.OKABE_ITO.values() for c in colours)
    assert first[0].get_linestyle() != second[0].get_linestyle()
    plt.close("all")


def test_use_style_is_explicit_and_sets_the_cycle():
    with plt.rc_context():
        before = plt.rcParams["axes.prop_cycle"]
        import evalkit  # noqa: F401  importing changes no global setting

        assert plt.rcParams["axes.prop_cycle"] == before
        plots.use_style()
        cycle = plt.rcParams["axes.prop_cycle"].by_key()
        assert [c.upper() for c in cycle["color"]] == list(plots.OKABE_ITO.values())
        assert len(set(map(str, cycle["linestyle"]))) >= 6


def test_palette_is_okabe_ito():
    assert set(plots.OKABE_ITO.values()) == {"#000000", "#E69F00", "#56B4E9", "#009E73",
                                            "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}
