"""KappaExplorer and its model: two judges' yes/no table, kappa and its paradoxes."""

from __future__ import annotations

import numpy as np
import pytest

from evalkit.widgets import KappaExplorer, KappaModel

from .helpers import grid_rows

# ---------------------------------------------------------------------------------------------
# KappaModel and KappaExplorer: two judges' yes/no table, kappa and its paradoxes
# ---------------------------------------------------------------------------------------------

# (both_yes, a_yes_b_no, a_no_b_yes, both_no)
KAPPA_TABLES = {
    "slides, 400 documents": (300, 20, 10, 70),
    "notes example 1": (10, 0, 5, 15),
    "notes example 2, left": (45, 15, 25, 15),
    "notes example 2, right": (25, 35, 5, 35),
    "Feinstein & Cicchetti A": (40, 9, 6, 45),
    "Feinstein & Cicchetti B": (80, 10, 5, 5),
    "one judge says no to all": (0, 0, 7, 13),
    "no agreement at all": (0, 6, 4, 0),
}


def _kappa_shown(explorer) -> dict[str, list[str]]:
    import html

    rows = grid_rows(explorer.summary.value)
    return {html.unescape(name): values for name, values in rows.items()}


def _hand_kappas(cells) -> dict[str, float]:
    """P(a), P(e) and kappa both ways from the four counts, written out by hand."""
    a, b, c, d = (float(x) for x in cells)
    n = a + b + c + d
    p_a_yes, p_b_yes = (a + b) / n, (a + c) / n
    observed = (a + d) / n
    separate = p_a_yes * p_b_yes + (1 - p_a_yes) * (1 - p_b_yes)
    pooled_yes = (p_a_yes + p_b_yes) / 2
    pooled = pooled_yes**2 + (1 - pooled_yes) ** 2
    return {"P(a)": observed, "P(e) separate": separate, "P(e) pooled": pooled,
            "kappa separate": (observed - separate) / (1 - separate),
            "kappa pooled": (observed - pooled) / (1 - pooled)}


@pytest.mark.parametrize("cells", list(KAPPA_TABLES.values()), ids=list(KAPPA_TABLES))
def test_kappa_model_equals_scikit_learn_statsmodels_and_hand(cells):
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa


    model = KappaModel(*cells)
    rater_a, rater_b = model.to_labels()
    assert len(rater_a) == model.n_items == sum(cells)
    # the labels rebuild the table: rows judge A, columns judge B, "yes" first
    rebuilt = [[np.sum((rater_a == i) & (rater_b == j)) for j in (1, 0)] for i in (1, 0)]
    np.testing.assert_array_equal(model.table, rebuilt)
    hand = _hand_kappas(cells)
    assert model.observed_agreement() == pytest.approx(np.mean(rater_a == rater_b))
    assert model.observed_agreement() == pytest.approx(hand["P(a)"])
    assert model.chance_agreement("separate") == pytest.approx(hand["P(e) separate"])
    assert model.chance_agreement("pooled") == pytest.approx(hand["P(e) pooled"])
    assert model.kappa("separate") == pytest.approx(hand["kappa separate"])
    assert model.kappa("pooled") == pytest.approx(hand["kappa pooled"])
    # scikit-learn uses separate marginals; Fleiss' kappa of two raters is Scott's pi
    assert model.kappa("separate") == pytest.approx(cohen_kappa_score(rater_a, rater_b))
    counts, _ = aggregate_raters(np.column_stack([rater_a, rater_b]))
    assert model.kappa("pooled") == pytest.approx(fleiss_kappa(counts, method="fleiss"))
    shares = model.marginals()
    assert shares["judge A"][0] == pytest.approx(np.mean(rater_a))
    assert shares["judge B"][0] == pytest.approx(np.mean(rater_b))
    assert shares["pooled"][0] == pytest.approx(np.mean(np.r_[rater_a, rater_b]))
    summary = model.summary()
    assert summary["kappa_separate"] == model.kappa()
    assert summary["observed_agreement"] == hand["P(a)"]


def test_kappa_model_prints_the_sources_numbers():

    slides = KappaModel(300, 20, 10, 70)
    assert slides.observed_agreement() == 0.925
    assert round(slides.marginals()["pooled"][0], 4) == 0.7875  # the slides print 0.7878
    assert round(slides.chance_agreement("pooled"), 4) == 0.6653
    assert round(slides.kappa("pooled"), 4) == 0.7759
    assert round((0.925 - 0.665) / (1 - 0.665), 4) == 0.7761  # the slides' rounded P(E)
    assert slides.interpret("pooled") == "substantial"
    assert slides.interpret("pooled", scale="carletta") == "tentative"
    notes = KappaModel(10, 0, 5, 15)
    assert notes.chance_agreement() == pytest.approx(0.5)
    assert round(notes.kappa(), 4) == 0.6667  # the notes truncate to 0.66
    left, right = KappaModel(45, 15, 25, 15), KappaModel(25, 35, 5, 35)
    assert left.observed_agreement() == right.observed_agreement() == 0.6
    assert (round(left.chance_agreement(), 2), round(right.chance_agreement(), 2)) == (0.54, 0.46)
    assert (round(left.kappa(), 4), round(right.kappa(), 4)) == (0.1304, 0.2593)


def test_pooled_kappa_is_never_above_separate(rng):

    for _ in range(200):
        cells = rng.integers(0, 30, size=4)
        if cells.sum() == 0 or cells[0] + cells[3] == cells.sum():
            continue  # empty, or perfect agreement (both kappas 1 or undefined)
        model = KappaModel(*cells.tolist())
        shares = model.marginals()
        gap = (shares["judge A"][0] - shares["judge B"][0]) ** 2 / 2
        assert model.chance_agreement("pooled") - model.chance_agreement() == pytest.approx(gap)
        if not np.isnan(model.kappa()):
            assert model.kappa("pooled") <= model.kappa() + 1e-12
            same = np.isclose(shares["judge A"][0], shares["judge B"][0])
            assert np.isclose(model.kappa("pooled"), model.kappa()) == same


def test_first_paradox_same_agreement_lower_kappa_when_yes_dominates():

    # Feinstein & Cicchetti (1990): P(a) = 0.85 both times, kappa 0.70 and 0.32
    balanced = KappaModel.from_shares(100, 0.85, yes_share=40 / 85, a_yes_share=9 / 15)
    lopsided = KappaModel.from_shares(100, 0.85, yes_share=80 / 85, a_yes_share=10 / 15)
    assert balanced.table.tolist() == [[40, 9], [6, 45]]
    assert lopsided.table.tolist() == [[80, 10], [5, 5]]
    assert balanced.observed_agreement() == lopsided.observed_agreement() == 0.85
    assert (round(balanced.kappa(), 2), round(lopsided.kappa(), 2)) == (0.70, 0.32)
    # along the curve P(a) stays, kappa peaks near a balanced split and falls at the extremes
    model = KappaModel(300, 20, 10, 70)
    shares = np.linspace(0, 1, 101)
    curve = model.kappa_curve("yes_share", shares)
    assert curve[0] < 0 and curve[-1] < 0 and curve.max() > model.kappa() > 0.7
    assert 0.3 < shares[np.argmax(curve)] < 0.7
    for share in (0.0, 0.25, 0.95, 1.0):  # whole counts: the curve is the table's kappa
        copy = KappaModel(300, 20, 10, 70).set_shares(yes_share=share)
        assert copy.observed_agreement() == 0.925
        exact = copy.both_yes / copy.n_agreements
        assert model.kappa_curve("yes_share", [exact])[0] == pytest.approx(copy.kappa())
        assert model.kappa_curve("yes_share", [exact], marginals="pooled")[0] == pytest.approx(
            copy.kappa("pooled"))


def test_second_paradox_lopsided_disagreements_raise_cohen_not_scott():

    model = KappaModel(45, 20, 20, 15)  # P(a) = 0.6, disagreements split evenly
    shares = np.linspace(0, 1, 41)
    separate = model.kappa_curve("a_yes_share", shares)
    pooled = model.kappa_curve("a_yes_share", shares, marginals="pooled")
    assert shares[np.argmin(separate)] == 0.5
    np.testing.assert_allclose(separate, separate[::-1])  # symmetric about one half
    np.testing.assert_allclose(pooled, pooled[0])  # the pooled marginals do not move
    assert separate[0] > separate[20] == pytest.approx(pooled[0])
    lopsided = KappaModel(45, 40, 0, 15)
    assert lopsided.kappa() == pytest.approx(separate[-1])
    assert lopsided.kappa("pooled") == pytest.approx(model.kappa("pooled"))


def test_kappa_model_shares_round_half_up_and_keep_n():

    model = KappaModel(300, 20, 10, 70)
    assert (model.yes_share, model.a_yes_share) == (300 / 370, 20 / 30)
    model.set_shares(agreement=0.85)  # the other two shares stay
    assert model.table.tolist() == [[276, 40], [20, 64]] and model.n_items == 400
    model.set_shares(agreement=0.0)
    assert model.table.tolist() == [[0, 267], [133, 0]] and np.isnan(model.yes_share)
    model.set_shares(agreement=1.0, yes_share=1.0)
    assert model.table.tolist() == [[400, 0], [0, 0]] and np.isnan(model.a_yes_share)
    assert np.isnan(model.kappa()) and model.interpret() == "undefined"
    assert model.summary()["carletta_pooled"] == "undefined"
    assert KappaModel.from_shares(3, 0.5).table.sum() == 3


@pytest.mark.parametrize("call, error, message", [
    (lambda M: M(-1, 0, 0, 1), ValueError, "both_yes must be a whole number >= 0"),
    (lambda M: M(1.5, 0, 0, 1), ValueError, "both_yes must be a whole number"),
    (lambda M: M(True, 0, 0, 1), TypeError, "both_yes must be a whole number"),
    (lambda M: M(0, 0, 0, 0), ValueError, "the table is empty"),
    (lambda M: M().set(both=1), ValueError, "unknown setting 'both'; the settings are both_yes"),
    (lambda M: M().set_shares(agreement=1.2), ValueError,
     r"agreement must be a real number in \[0, 1\]"),
    (lambda M: M().set_shares(yes_share="half"), TypeError, "yes_share must be a real number"),
    (lambda M: M().set_shares(a_yes_share=float("nan")), ValueError,
     "a_yes_share must be a real number"),
    (lambda M: M.from_shares(0, 0.5), ValueError, "n_items must be a whole number >= 1"),
    (lambda M: M().chance_agreement("mixed"), ValueError, "marginals"),
    (lambda M: M().kappa_curve("agreement", [0.5]), ValueError, "parameter"),
    (lambda M: M().kappa_curve("yes_share", [1.5]), ValueError,
     "values must be numbers from 0 to 1"),
])
def test_kappa_model_refuses_bad_input(call, error, message):

    with pytest.raises(error, match=message):
        call(KappaModel)


def test_kappa_model_failed_set_changes_nothing():

    model = KappaModel(3, 0, 0, 0)
    with pytest.raises(ValueError, match="empty"):
        model.set(both_yes=0)
    with pytest.raises(ValueError):
        model.set(both_no=5, a_yes_b_no=-2)
    assert model == KappaModel(3, 0, 0, 0)
    assert repr(model) == "KappaModel(both_yes=3, a_yes_b_no=0, a_no_b_yes=0, both_no=0)"


def test_kappa_explorer_first_control_moves_kappa_but_not_agreement():
    import ipywidgets as widgets
    from sklearn.metrics import cohen_kappa_score


    explorer = KappaExplorer(plot=False)
    first = list(explorer.controls)[0]
    assert first == "yes_share" and isinstance(explorer.controls[first], widgets.FloatSlider)
    shown = _kappa_shown(explorer)
    assert shown["A yes"] == ["300", "20", "320"] and shown["total"] == ["310", "90", "400"]
    assert shown["observed agreement P(a)"] == ["0.9250"]
    assert shown["P(e), pooled marginals"] == ["0.6653"]
    assert shown["kappa, separate (Cohen)"] == ["0.7761"]
    assert shown["kappa, pooled (Scott)"] == ["0.7759"]
    assert shown["Landis & Koch: separate | pooled"] == ["substantial | substantial"]
    assert shown["Carletta: separate | pooled"] == ["tentative | tentative"]

    explorer.controls["yes_share"].value = 0.99  # almost every agreed item is a "yes"
    shown = _kappa_shown(explorer)
    assert explorer.model.table.tolist() == [[366, 20], [10, 4]]
    assert shown["observed agreement P(a)"] == ["0.9250"]
    expected = cohen_kappa_score(*explorer.model.to_labels())
    assert shown["kappa, separate (Cohen)"] == [f"{expected:.4f}"]
    assert expected < 0.2
    assert shown["Landis & Koch: separate | pooled"][0].startswith("slight")
    assert shown["Carletta: separate | pooled"] == ["discard | discard"]


def test_kappa_explorer_other_controls_reach_the_model():
    from sklearn.metrics import cohen_kappa_score


    explorer = KappaExplorer(KappaModel(45, 20, 20, 15), plot=False)
    assert explorer.controls["agreement"].value == 0.6
    assert explorer.controls["a_yes_share"].value == 0.5
    before = _kappa_shown(explorer)
    assert before["kappa, separate (Cohen)"] == before["kappa, pooled (Scott)"]
    explorer.controls["a_yes_share"].value = 1.0  # every disagreement: A yes, B no
    shown = _kappa_shown(explorer)
    assert explorer.model.table.tolist() == [[45, 40], [0, 15]]
    assert shown["judge A says yes"] == ["0.8500"] and shown["judge B says yes"] == ["0.4500"]
    assert shown["kappa, pooled (Scott)"] == before["kappa, pooled (Scott)"]
    assert float(shown["kappa, separate (Cohen)"][0]) > float(before["kappa, separate (Cohen)"][0])
    explorer.controls["agreement"].value = 0.8
    assert explorer.model.table.tolist() == [[60, 20], [0, 20]]
    expected = cohen_kappa_score(*explorer.model.to_labels())
    assert _kappa_shown(explorer)["kappa, separate (Cohen)"] == [f"{expected:.4f}"]


def test_kappa_explorer_shows_undefined_kappa():

    explorer = KappaExplorer(KappaModel(12, 0, 0, 0), plot=False)
    shown = _kappa_shown(explorer)
    assert shown["kappa, separate (Cohen)"] == ["undefined"]
    assert shown["Carletta: separate | pooled"] == ["undefined | undefined"]
    assert explorer.controls["a_yes_share"].value == 0.5  # no disagreements: starts halfway
    explorer.controls["agreement"].value = 0.5
    assert explorer.model.table.tolist() == [[6, 3], [3, 0]]
    figure = explorer.draw()
    assert len(figure.axes) == 2


def test_kappa_explorer_draws_both_curves_with_the_current_point():

    explorer = KappaExplorer()
    left, right = explorer.draw().axes
    assert left.get_xlabel() == "share of agreed items both call 'yes'"
    assert right.get_xlabel() == "share of disagreements where A says yes"
    assert left.get_ylabel() == "kappa"
    labels = [text.get_text() for text in right.get_legend().get_texts()]
    assert labels == ["kappa, Cohen (separate)", "kappa, Scott (pooled)", "P(a) = 0.925"]
    points = [line for line in left.lines if line.get_marker() == "o"]
    assert [p.get_xdata()[0] for p in points] == pytest.approx([300 / 370] * 2)
    assert [p.get_ydata()[0] for p in points] == pytest.approx(
        [explorer.model.kappa(), explorer.model.kappa("pooled")])


def test_kappa_explorer_displays_as_its_widget():

    explorer = KappaExplorer(plot=False)
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_kappa_model_terms_come_from_kappa_terms():
    import evalkit as ek

    model = KappaModel(both_yes=3, a_yes_b_no=7, a_no_b_yes=2, both_no=9)
    for marginals in ("separate", "pooled"):
        terms = ek.kappa_terms(model.table, marginals=marginals)
        assert model.chance_agreement(marginals) == terms.expected
        assert model.kappa(marginals) == terms.kappa
    assert model.observed_agreement() == 12 / 21
    shares = model.marginals()
    assert shares["judge A"] == pytest.approx((10 / 21, 11 / 21), abs=1e-15)
    assert shares["judge B"] == pytest.approx((5 / 21, 16 / 21), abs=1e-15)
    assert shares["pooled"] == pytest.approx((7.5 / 21, 13.5 / 21), abs=1e-15)
    # by hand: P(e) = (10 * 5 + 11 * 16) / 21^2 with separate marginals
    assert model.chance_agreement() == pytest.approx(226 / 441, abs=1e-15)
