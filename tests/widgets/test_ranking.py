"""RankingExplorer and its model: every pair, Kendall's tau and Spearman's rho."""

from __future__ import annotations

import re

import numpy as np
import pytest

from evalkit.widgets import RankingExplorer, RankingModel

from .helpers import cells

# ---------------------------------------------------------------------------------------------
# RankingModel and RankingExplorer (notebook 16, Kendall's tau and Spearman's rho)
# ---------------------------------------------------------------------------------------------


def _brute_force_pairs(x, y):
    """Every pair's verdict by the definition: sign(x_i - x_j) * sign(y_i - y_j)."""
    from itertools import combinations

    verdicts = {}
    for i, j in combinations(range(len(x)), 2):
        product = np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
        if x[i] == x[j]:
            verdicts[frozenset((i, j))] = "tied in reference"
        else:
            verdicts[frozenset((i, j))] = "concordant" if product > 0 else "discordant"
    return verdicts


def _random_pairs_model(rng, n, ties):

    items = [f"s{k}" for k in range(n)]
    reference = rng.integers(1, max(2, n // 2), n) if ties else rng.permutation(n) + 1
    order = [items[k] for k in rng.permutation(n)]
    return RankingModel(items, order, reference=reference, seed=int(rng.integers(100)))


@pytest.mark.parametrize("ties", [False, True])
def test_ranking_model_classifies_every_pair_like_brute_force_and_scipy(rng, ties):
    from scipy import stats

    for _ in range(40):
        n = int(rng.integers(2, 13))
        model = _random_pairs_model(rng, n, ties)
        x, y = model.x, model.y
        expected = _brute_force_pairs(x, y)
        pairs = model.pairs()
        index = {name: k for k, name in enumerate(model.items)}
        got = {frozenset((index[a], index[b])): v
               for a, b, v in zip(pairs["first"], pairs["second"], pairs["verdict"], strict=True)}
        assert len(pairs) == n * (n - 1) // 2 == len(got)
        assert got == expected
        s = model.summary()
        tally = pairs.verdict.value_counts()
        assert s["concordant"] == tally.get("concordant", 0)
        assert s["discordant"] == tally.get("discordant", 0)
        assert s["tied"] == tally.get("tied in reference", 0)
        assert s["tau_a"] == pytest.approx((s["concordant"] - s["discordant"]) / s["n_pairs"])
        if len(set(x.tolist())) > 1:
            assert s["tau_b"] == pytest.approx(stats.kendalltau(x, y).statistic)
            assert s["rho"] == pytest.approx(stats.spearmanr(x, y).statistic)
        else:
            assert np.isnan(s["tau_b"]) and np.isnan(s["rho"])
        # The first item of a pair is above (or tied with) the second in the reference.
        first = pairs["first"].map(index).to_numpy()
        second = pairs["second"].map(index).to_numpy()
        assert (x[first] <= x[second]).all()


def test_ranking_model_reproduces_the_course_notes():
    from scipy import stats


    model = RankingModel.course_notes()
    assert model.reference_order == ["1", "2", "3", "4", "5"]
    assert model.order == ["2", "1", "5", "3", "4"]
    pairs = model.pairs()
    discordant = pairs[pairs.verdict == "discordant"][["first", "second"]].values.tolist()
    assert discordant == [["1", "2"], ["3", "5"], ["4", "5"]]
    assert (pairs.verdict == "concordant").sum() == 7
    s = model.summary()
    assert (s["concordant"], s["discordant"], s["n_pairs"]) == (7, 3, 10)
    assert s["tau_a"] == s["tau_b"] == pytest.approx(0.4)  # (7 - 3) / 10, not / 15
    assert s["rho"] == pytest.approx(0.6)  # 1 - 6 * 8 / (5 * 24)
    assert model.y.tolist() == [2, 1, 4, 5, 3]
    assert s["tau_b"] == pytest.approx(stats.kendalltau([1, 2, 3, 4, 5], [2, 1, 5, 3, 4])[0])


@pytest.mark.parametrize("reference", [None, [1, 2, 2, 3, 3, 3, 4]])
def test_scramble_adds_one_discordant_pair_per_step(reference):

    items = list("abcdefg")
    model = RankingModel(items, reference=reference, seed=3)
    n_pairs = 21
    assert model.max_discordant == (n_pairs if reference is None else n_pairs - 1 - 3)
    previous = None
    for d in range(model.max_discordant + 1):
        order = model.scramble(d).order
        assert model.summary()["discordant"] == d
        assert _brute_force_pairs(model.x, model.y) and sorted(order) == items
        if reference is None:
            assert model.tau("a") == pytest.approx(1 - 2 * d / n_pairs)
        if previous is not None:  # one more swap of neighbours
            changed = [k for k in range(7) if order[k] != previous[k]]
            assert len(changed) == 2 and changed[1] == changed[0] + 1
        previous = order
    # Deterministic per value and seed; another seed takes another path.
    again = RankingModel(items, reference=reference, seed=3)
    assert again.scramble(5).order == model.scramble(5).order
    others = {tuple(RankingModel(items, reference=reference, seed=s).scramble(5).order)
              for s in range(10)}
    assert len(others) > 1
    with pytest.raises(ValueError, match="n_discordant must be at most"):
        model.scramble(model.max_discordant + 1)


def test_ranking_model_edits():

    model = RankingModel(items=["a", "b", "c", "d"], order=["d", "c", "b", "a"])
    assert model.summary()["tau_b"] == pytest.approx(-1.0)
    model.swap(1)
    assert model.order == ["c", "d", "b", "a"]
    assert model.move(4, -3) == 1
    assert model.order == ["a", "c", "d", "b"]
    assert model.summary()["discordant"] == 2  # c-b and d-b
    model.set_order(["a", "b", "c", "d"])
    assert model.summary()["tau_a"] == 1.0
    model.reset()
    assert model.order == ["d", "c", "b", "a"]
    presets = model.presets()
    assert presets["as built"] == ["d", "c", "b", "a"]
    assert presets["reversed"] == ["d", "c", "b", "a"]
    taus = {}
    for name in ("top two swapped", "bottom two swapped"):
        taus[name] = model.set_order(presets[name]).tau()
    # Kendall's tau weighs a swap at the top like one at the bottom.
    assert taus["top two swapped"] == taus["bottom two swapped"] == pytest.approx(1 - 2 / 6)
    assert model.set_order(presets["best item last"]).summary()["discordant"] == 3


def test_ranking_model_refuses_bad_input():

    with pytest.raises(ValueError, match="items must be distinct; repeated: a"):
        RankingModel(["a", "b", "a"])
    with pytest.raises(ValueError, match="at least 2 items"):
        RankingModel(["a"])
    with pytest.raises(ValueError, match=r"order must list every item exactly once \(missing 3"):
        RankingModel(order=["1", "2", "4", "5"])
    with pytest.raises(ValueError, match="unknown 9"):
        RankingModel(order=["1", "2", "3", "4", "9"])
    with pytest.raises(ValueError, match="appear twice"):
        RankingModel(order=["1", "2", "3", "4", "5", "5"])
    with pytest.raises(ValueError, match="reference and items have different lengths"):
        RankingModel(reference=[1, 2, 3])
    with pytest.raises(ValueError, match="reference contains NaN at position 1"):
        RankingModel(reference=[1, np.nan, 3, 4, 5])
    with pytest.raises(ValueError, match="reference must hold numbers"):
        RankingModel(reference=list("abcde"))
    with pytest.raises(ValueError, match="seed must be a whole number >= 0"):
        RankingModel(seed=-1)
    model = RankingModel()
    with pytest.raises(ValueError, match="position must be between 1 and 4; got 5"):
        model.swap(5)
    with pytest.raises(ValueError, match="target 0 is outside 1..5"):
        model.move(1, -1)
    with pytest.raises(ValueError, match="step must be a whole number"):
        model.move(2, 0.5)
    with pytest.raises(TypeError, match="step must be a whole number"):
        model.move(2, True)
    with pytest.raises(ValueError, match="unknown setting 'ordre'; the settings are order"):
        model.set(ordre=["5", "4", "3", "2", "1"])
    with pytest.raises(ValueError, match="order must list every item exactly once"):
        model.set(order=["5", "4", "3", "2"])
    assert model.order == ["1", "2", "3", "4", "5"]  # nothing changed


def _ranking_shown(explorer):
    """The explorer's summary table as {row name: value}, HTML entities decoded."""
    import html

    return {html.unescape(name): html.unescape(value)
            for name, value in cells(explorer.summary.value).items()}


def _pair_rows(html_text):
    """The explorer's pair table as [(first, second, verdict)]."""

    return re.findall(r"<td[^>]*>\{(.+?), (.+?)\}</td><td[^>]*>.*?</td><td[^>]*>.*?</td>"
                      r"<td[^>]*>(.*?)</td></tr>", html_text)


def test_ranking_explorer_first_control_is_the_discordant_slider_and_moves_tau():
    import ipywidgets as widgets


    explorer = RankingExplorer(plot=False)
    first_name, first = next(iter(explorer.controls.items()))
    assert first_name == "discordant" and isinstance(first, widgets.IntSlider)
    assert (first.value, first.min, first.max) == (3, 0, 10)
    shown = _ranking_shown(explorer)
    assert shown["discordant pairs D"] == "3"
    assert shown["Kendall's τ-b (scipy's default)"] == "0.400"
    seen = set()
    for d in range(11):
        first.value = d
        shown = _ranking_shown(explorer)
        assert explorer.model.summary()["discordant"] == d
        assert shown["discordant pairs D"] == str(d)
        assert shown["concordant pairs C"] == str(10 - d)
        assert shown["Kendall's τ-a = (C - D) / pairs"] == f"{1 - 2 * d / 10:.3f}"
        assert shown["Spearman's ρ"] == f"{explorer.model.rho():.3f}"
        seen.add(shown["Kendall's τ-b (scipy's default)"])
        rows = _pair_rows(explorer.summary.value)
        assert sum(verdict == "discordant" for *_, verdict in rows) == d
    assert len(seen) == 11
    assert explorer.model.order == ["5", "4", "3", "2", "1"]
    assert explorer.controls["preset"].value == "reversed"


def test_ranking_explorer_buttons_move_the_selected_item():
    from scipy import stats


    explorer = RankingExplorer(plot=False)
    explorer.controls["selected"].value = 3  # item 5
    assert "position 3, item 5" in explorer.summary.value
    explorer.buttons["up"].click()
    explorer.buttons["up"].click()
    assert explorer.model.order == ["5", "2", "1", "3", "4"]
    assert explorer.controls["selected"].value == 1
    explorer.buttons["up"].click()  # already at the top: nothing happens
    assert explorer.model.order == ["5", "2", "1", "3", "4"]
    shown = _ranking_shown(explorer)
    # 5 above everything (4 discordant pairs) and 2 above 1: D = 5, C = 5, tau = 0.
    assert shown["discordant pairs D"] == "5" and shown["concordant pairs C"] == "5"
    assert shown["Kendall's τ-b (scipy's default)"] == "0.000"
    assert explorer.controls["discordant"].value == 5  # the slider follows, silently
    assert explorer.model.order == ["5", "2", "1", "3", "4"]
    expected_rho = stats.spearmanr([1, 2, 3, 4, 5], explorer.model.y).statistic
    assert shown["Spearman's ρ"] == f"{expected_rho:.3f}"
    for _ in range(4):
        explorer.buttons["down"].click()
    assert explorer.model.order == ["2", "1", "3", "4", "5"]
    assert explorer.controls["selected"].value == 5
    assert explorer.controls["preset"].value == "top two swapped"
    assert _ranking_shown(explorer)["discordant pairs D"] == "1"
    explorer.buttons["reset"].click()
    assert explorer.model.order == ["2", "1", "5", "3", "4"]
    assert explorer.controls["preset"].value == "as built"
    assert _ranking_shown(explorer)["Kendall's τ-a = (C - D) / pairs"] == "0.400"


def test_ranking_explorer_presets_and_pair_table():

    explorer = RankingExplorer(plot=False)
    rows = _pair_rows(explorer.summary.value)
    assert [(a, b) for a, b, v in rows if v == "discordant"] == [("1", "2"), ("3", "5"),
                                                                ("4", "5")]
    assert len(rows) == 10
    explorer.controls["preset"].value = "bottom two swapped"
    assert explorer.model.order == ["1", "2", "3", "5", "4"]
    bottom = _ranking_shown(explorer)["Kendall's τ-b (scipy's default)"]
    explorer.controls["preset"].value = "top two swapped"
    assert _ranking_shown(explorer)["Kendall's τ-b (scipy's default)"] == bottom == "0.800"
    assert explorer.controls["discordant"].value == 1
    explorer.controls["selected"].value = 2
    explorer.buttons["down"].click()  # no preset matches now
    assert explorer.controls["preset"].value is None
    assert explorer.model.order == ["2", "3", "1", "4", "5"]


def test_ranking_explorer_with_ties_and_many_items():

    model = RankingModel(list("abcde"), ["e", "d", "c", "b", "a"],
                              reference=[1, 1, 2, 3, 3])
    explorer = RankingExplorer(model, plot=False)
    shown = _ranking_shown(explorer)
    assert shown["pairs tied in the reference"] == "2"
    assert shown["discordant pairs D"] == "8"
    assert shown["Kendall's τ-a = (C - D) / pairs"] == "-0.800"
    assert shown["Kendall's τ-b (scipy's default)"] == f"{-8 / np.sqrt(8 * 10):.3f}"
    assert explorer.controls["discordant"].max == 8
    rows = _pair_rows(explorer.summary.value)
    assert sorted((a, b) for a, b, v in rows if v == "tied in reference") == [("a", "b"),
                                                                             ("d", "e")]
    big = RankingExplorer(RankingModel(range(1, 13)), plot=False)
    big.controls["discordant"].value = 4
    listed = _pair_rows(big.summary.value)
    assert len(listed) == 4 and all(v == "discordant" for *_, v in listed)
    assert "The 4 discordant pairs" in big.summary.value


def test_ranking_explorer_draws_one_dot_per_crossing():

    explorer = RankingExplorer()
    explorer.controls["selected"].value = 3
    ax = explorer.draw().axes[0]
    assert len(ax.collections[0].get_offsets()) == 3
    assert ax.get_title() == "C = 7, D = 3 crossings, τ-b = 0.40"
    widths = [line.get_linewidth() for line in ax.lines]
    assert widths.count(max(widths)) == 1  # the selected item, 5
    thick = ax.lines[widths.index(max(widths))]
    assert thick.get_ydata().tolist() == [5.0, 3.0]
    explorer.controls["discordant"].value = 7
    assert len(explorer.draw().axes[0].collections[0].get_offsets()) == 7
    assert "application/vnd.jupyter.widget-view+json" in explorer._repr_mimebundle_()
