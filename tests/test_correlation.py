"""Kendall's tau and Spearman's rho: scipy as the oracle, pair counting by brute force."""

from __future__ import annotations

import contextlib
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import evalkit as ek
from evalkit import _levels, _sorting, correlation
from evalkit.correlation import (
    _average_ranks,
    _inversions,
    _Ranking,
    _sorted_pair_counts,
    _table_pair_counts,
)
from evalkit.exceptions import UndefinedMetricWarning


def _pairs_by_brute_force(x, y):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    upper = np.triu_indices(len(x), 1)
    sx = np.sign(np.subtract.outer(x, x))[upper]
    sy = np.sign(np.subtract.outer(y, y))[upper]
    return (int(((sx * sy) > 0).sum()), int(((sx * sy) < 0).sum()),
            int(((sx == 0) & (sy != 0)).sum()), int(((sx != 0) & (sy == 0)).sum()),
            int(((sx == 0) & (sy == 0)).sum()))


def test_notes_example():
    truth, result = [1, 2, 3, 4, 5], [2, 1, 5, 3, 4]
    counts = ek.concordant_discordant(truth, result)
    assert counts[:2] == (7, 3)
    assert counts.concordant + counts.discordant == 5 * 4 // 2  # n(n-1)/2 = 10, not n(n+1)/2
    assert ek.kendall_tau(truth, result) == 0.4
    assert ek.kendall_tau(truth, result, variant="a") == 0.4
    assert (7 - 3) / (5 * 6 / 2) != 0.4  # the notes' n(n+1)/2 would give 0.267


def test_concordant_discordant_unpacks_to_c_and_d():
    # The contract: `c, d = concordant_discordant(x, y)`, ties as attributes (scipy's style).
    result = ek.concordant_discordant([1, 1, 2, 3, 4], [2, 1, 2, 3, 3])
    c, d = result
    assert (c, d) == (result.concordant, result.discordant) == (7, 0)
    assert (result.tied_x, result.tied_y, result.tied_xy) == (1, 2, 0)
    assert len(result) == 2 and result == (7, 0)
    assert "tied_xy=0" in repr(result)
    with pytest.raises(AttributeError):
        result.concordant = 0


def test_tau_a_and_b_differ_with_ties():
    x, y = [1, 1, 2, 3], [1, 2, 2, 3]
    counts = ek.concordant_discordant(x, y)
    assert tuple(counts._asdict().values()) == (4, 0, 1, 1, 0)
    assert ek.kendall_tau(x, y, variant="a") == pytest.approx(4 / 6)
    assert ek.kendall_tau(x, y, variant="b") == pytest.approx(4 / np.sqrt(5 * 5))


values = st.one_of(st.integers(0, 5), st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False))


@st.composite
def paired(draw, elements=values):
    n = draw(st.integers(2, 70))
    x = draw(st.lists(elements, min_size=n, max_size=n))
    y = draw(st.lists(elements, min_size=n, max_size=n))
    return np.array(x, dtype=float), np.array(y, dtype=float)


SORT_ROUTES = ("numpy's default sorts", "radix argsorts and stable merges")


@contextlib.contextmanager
def _sort_route(route):
    """Take one of the two routes of evalkit._sorting, whatever this CPU measures faster, from
    the smallest inputs on: ranks by numpy's argsort and merges by its default sort, or ranks
    and joint codes by radix sorts and merges of runs of 2 or more by the stable sort."""
    radix = route == SORT_ROUTES[1]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_sorting, "_radix_wins", lambda: radix)
        patch.setattr(_sorting, "RADIX_MIN", 2)
        patch.setattr(correlation, "merge_kind", lambda: "stable" if radix else None)
        patch.setattr(correlation, "_MERGE_MIN", 2)
        yield


@given(paired())
def test_kendall_tau_matches_scipy_and_brute_force(data):
    for route in SORT_ROUTES:
        with _sort_route(route):
            _check_kendall_tau_against_scipy_and_brute_force(data)


def _check_kendall_tau_against_scipy_and_brute_force(data):
    x, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs_b = stats.kendalltau(x, y).statistic
        ours_b = ek.kendall_tau(x, y)
    np.testing.assert_allclose(ours_b, theirs_b, rtol=1e-12, atol=1e-12, equal_nan=True)
    counts = _pairs_by_brute_force(x, y)
    assert tuple(ek.concordant_discordant(x, y)._asdict().values()) == counts
    n = len(x)
    assert ek.kendall_tau(x, y, variant="a") == pytest.approx(
        (counts[0] - counts[1]) / (n * (n - 1) / 2), abs=1e-12)


@given(paired())
def test_spearman_matches_scipy(data):
    x, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = stats.spearmanr(x, y).statistic
        for route in SORT_ROUTES:
            with _sort_route(route):
                ours = ek.spearman_rho(x, y)
            np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, equal_nan=True)


@given(st.lists(st.integers(0, 40), min_size=1, max_size=300))
def test_inversion_count_by_brute_force(values):
    array = np.array(values, dtype=np.int64)
    expected = sum(int((array[i] > array[i + 1:]).sum()) for i in range(len(array)))
    assert _inversions(array) == expected
    # Values too large for the 32-bit tagging take 64 bits; the count is the same.
    assert _inversions(array + 2**40) == expected


@pytest.mark.parametrize("route", SORT_ROUTES)
@pytest.mark.parametrize("block", [2, 5, 32])
@pytest.mark.parametrize("n", [33, 1000, 4099])
def test_inversion_count_on_long_arrays(monkeypatch, rng, block, n, route):
    # Lengths that are not a block times a power of two (so the last blocks are padded), block
    # lengths that leave many merge levels, permutations and heavy ties, 32- and 64-bit tags;
    # merges by the default and by the stable sort.
    for array in (rng.permutation(n), rng.integers(0, 7, n), rng.permutation(n) + 2**40):
        expected = sum(int((array[i] > array[i + 1:]).sum()) for i in range(n))
        with _sort_route(route):
            assert _inversions(array, block=block) == expected
            assert _inversions(array) == expected


@pytest.mark.parametrize("chosen", correlation._BLOCKS)
def test_inversion_count_with_either_probed_block(monkeypatch, rng, chosen):
    # Long arrays take the block length the CPU probe chose; each candidate counts the same
    # (against the count from blocks of 16 checked above, and a hand-computed reversal).
    assert correlation._block_length.__wrapped__() in correlation._BLOCKS  # the probe itself
    monkeypatch.setattr(correlation, "_block_length", lambda: chosen)
    n = correlation._UNPROBED + 1000
    array = rng.permutation(n)
    assert _inversions(array) == _inversions(array, block=16)
    assert _inversions(np.arange(n)[::-1].copy()) == n * (n - 1) // 2


@given(paired())
def test_tau_properties(data):
    x, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tau = ek.kendall_tau(x, y)
        if np.isnan(tau):
            return
        assert -1 - 1e-12 <= tau <= 1 + 1e-12
        assert ek.kendall_tau(y, x) == pytest.approx(tau, abs=1e-12)  # symmetric
        assert ek.kendall_tau(x, -y) == pytest.approx(-tau, abs=1e-12)  # reversing flips it
        assert ek.kendall_tau(4 * x, y) == pytest.approx(tau, abs=1e-12)  # monotone, exact


def test_large_inputs_match_scipy(rng):
    x = rng.random(300_000)
    y = x + rng.random(300_000)
    assert ek.kendall_tau(x, y) == pytest.approx(stats.kendalltau(x, y).statistic, rel=1e-12)
    xi, yi = rng.integers(0, 50, 300_000), rng.integers(0, 50, 300_000)
    assert ek.kendall_tau(xi, yi) == pytest.approx(stats.kendalltau(xi, yi).statistic, rel=1e-12)
    assert ek.spearman_rho(x, y) == pytest.approx(stats.spearmanr(x, y).statistic, rel=1e-12)
    assert ek.spearman_rho(xi, yi) == pytest.approx(stats.spearmanr(xi, yi).statistic,
                                                    rel=1e-12)
    # Ties in one ranking only, and a float ranking of 100 levels (table, ranked by argsort).
    xs = rng.integers(0, 1000, 300_000)
    assert ek.kendall_tau(x, xs) == pytest.approx(stats.kendalltau(x, xs).statistic, rel=1e-12)
    xf, yf = xi / 7, (yi + 0.5) * 3
    assert ek.kendall_tau(xf, yf) == pytest.approx(stats.kendalltau(xf, yf).statistic, rel=1e-12)
    assert ek.spearman_rho(xf, yf) == pytest.approx(stats.spearmanr(xf, yf).statistic,
                                                    rel=1e-12)


def test_every_counting_path_matches_brute_force(rng):
    # n * levels above the table's limit, so each pair takes one of the sorted paths:
    # x untied (y read in x's order, untied or tied, ranked by argsort or by lookup),
    # only y untied, and both tied (the joint sort).
    n = 2_000
    floats, permutation = rng.random(n), rng.permutation(n)
    many, others = rng.integers(0, 1_500, n).astype(float), rng.integers(0, 1_500, n)
    pairs = [(floats, floats + rng.random(n)), (floats, many), (permutation, floats),
             (permutation, rng.permutation(n)), (floats, permutation), (many, floats),
             (many, others), (others, many[::-1])]
    for x, y in pairs:
        assert len(np.unique(x)) * len(np.unique(y)) > correlation._TABLE_CELLS
        counts = ek.concordant_discordant(x, y)
        assert tuple(counts._asdict().values()) == _pairs_by_brute_force(x, y)
        assert ek.kendall_tau(x, y) == pytest.approx(stats.kendalltau(x, y).statistic,
                                                     rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("untied", [True, False])
def test_ranking_is_the_same_whichever_way_the_sample_points(monkeypatch, rng, untied):
    # _Ranking guesses from a sample whether the values are untied (argsort at once) or may
    # have few levels (sort first, maybe hash): either guess gives scipy's dense ranks.
    n = 50_000
    x = rng.random(n)
    few_ties = x.copy()
    few_ties[rng.integers(0, n, 30)] = few_ties[rng.integers(0, n, 30)]
    signed = rng.normal(size=n).round(1)
    signed[rng.random(n) < 0.1] = -0.0
    monkeypatch.setattr(correlation, "_looks_untied", lambda values: untied)
    with _sort_route("numpy"):
        for values in (x, few_ties, rng.integers(0, 3000, n) / 7, signed):
            ranking = _Ranking(values)
            expected = stats.rankdata(values, method="dense") - 1
            np.testing.assert_array_equal(ranking.ranks, expected)
            assert ranking.levels == expected.max() + 1


def test_the_untied_guess_sees_few_levels(rng):
    # Values with n / 16 levels or fewer repeat in the sample; untied values never do.
    for n in (1_000, 100_000, 2_000_000):
        assert correlation._looks_untied(rng.random(n))
        assert not correlation._looks_untied(rng.integers(0, n // 16, n) / 3)
        assert not correlation._looks_untied(np.repeat(rng.random(n // 16), 16))
        assert not correlation._looks_untied(np.tile(rng.random(n // 16), 16))


def test_identical_and_reversed_rankings():
    ranks = np.arange(1000)
    assert ek.kendall_tau(ranks, ranks) == 1.0
    assert ek.kendall_tau(ranks, ranks[::-1]) == -1.0
    assert ek.concordant_discordant(ranks, ranks[::-1])[:2] == (0, 1000 * 999 // 2)


def test_constant_input_is_nan_for_tau_b_with_a_warning():
    # scipy returns NaN too, with its ConstantInputWarning; ours is evalkit's warning class.
    with pytest.warns(UndefinedMetricWarning, match="tau-b is undefined"):
        assert np.isnan(ek.kendall_tau([1, 1, 1], [1, 2, 3]))
    with pytest.warns(UndefinedMetricWarning, match="tau-b is undefined"):
        assert np.isnan(ek.kendall_tau([1.0, 2.0, 3.0], [4.0, 4.0, 4.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # tau-a is defined (0) for constant input: no warning
        assert ek.kendall_tau([1, 1, 1], [1, 2, 3], variant="a") == 0.0
        assert ek.kendall_tau([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)
        assert ek.spearman_rho([1, 2, 3], [1, 3, 2]) == pytest.approx(0.5)
    with pytest.warns(UndefinedMetricWarning, match="rho is undefined"):
        assert np.isnan(ek.spearman_rho([1, 1, 1], [1, 2, 3]))


def _counts_by_brute_force(x, y):
    concordant, discordant, x_only, y_only, both = _pairs_by_brute_force(x, y)
    return discordant, x_only + both, y_only + both, both


@given(paired())
def test_table_and_sorted_pair_counts_agree_with_brute_force(data):
    # Small inputs always take the table; the sorted path is checked here on the same data,
    # with x's and y's orders given (float ranking) and absent (integer lookup ranking).
    x, y = data
    expected = _counts_by_brute_force(x, y)
    for xs, ys in ((x, y), (x.astype(np.int64) if (x == x.round()).all() else x, y)):
        for route in SORT_ROUTES:
            with _sort_route(route):
                assert _table_pair_counts(_Ranking(xs), _Ranking(ys)) == expected
                assert _sorted_pair_counts(_Ranking(xs), _Ranking(ys)) == expected


@given(st.permutations(range(12)), st.lists(st.integers(0, 3), min_size=12, max_size=12))
def test_sorted_pair_counts_without_ties_in_x_or_y(permutation, levels):
    # The paths that skip the joint sort: x (or y) untied, ranked by lookup or by argsort.
    x = np.array(permutation)
    y = np.array(levels)
    for xs, ys in ((x, y), (y, x), (x.astype(float), y), (y, x.astype(float))):
        for route in SORT_ROUTES:
            with _sort_route(route):
                assert (_sorted_pair_counts(_Ranking(xs), _Ranking(ys))
                        == _counts_by_brute_force(xs, ys))


@given(st.lists(st.integers(-5, 5), min_size=1, max_size=60))
def test_average_ranks_match_scipy_for_integers_and_floats(values):
    array = np.array(values)
    for route in SORT_ROUTES:
        with _sort_route(route):
            np.testing.assert_array_equal(_average_ranks(array), stats.rankdata(array))
            np.testing.assert_array_equal(_average_ranks(array.astype(float)),
                                          stats.rankdata(array))
            # Integers too far apart for the lookup table are argsorted.
            np.testing.assert_array_equal(_average_ranks(array * 2**40), stats.rankdata(array))


@pytest.mark.parametrize("function", [ek.kendall_tau, ek.concordant_discordant, ek.spearman_rho])
def test_bad_input(function):
    with pytest.raises(ValueError, match=r"x and y have different lengths \(3 != 2\)"):
        function([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="x is empty"):
        function([], [])
    with pytest.raises(ValueError, match="need at least 2 items"):
        function([1], [2])
    with pytest.raises(ValueError, match="y contains NaN at position 1"):
        function([1, 2], [1, np.nan])
    with pytest.raises(ValueError, match="x must hold numbers"):
        function(["a", "b"], [1, 2])
    with pytest.raises(ValueError, match="y must be 1-D"):
        function([1, 2], [[1, 2], [3, 4]])


def test_unknown_variant():
    with pytest.raises(ValueError, match=r"variant must be one of 'a' or 'b'|variant must be one"):
        ek.kendall_tau([1, 2], [1, 2], variant="c")


def _shapes(rng, n):
    """(label, x, y) pairs covering every ranking route at size n: untied, tied by few or many
    float levels (hashed or argsorted), whole-number floats, negatives with -0.0, 64-bit ints."""
    x = rng.random(n)
    few = rng.integers(0, 700, n) / 7 - 50  # float levels, not whole numbers: hashed
    signed = rng.normal(size=n).round(2)
    signed[rng.random(n) < 0.01] = -0.0  # equal to 0.0 (same rank), other bits
    wide = rng.integers(-2**62, 2**62, 300)[rng.integers(0, 300, n)]  # no lookup table
    yield "no ties, independent", x, rng.random(n)
    yield "no ties, correlated", x, x + rng.random(n)
    yield "no ties, reversed", x, -x + 0.01 * rng.random(n)
    yield "ties in y, float levels", x, few
    yield "ties in x, float levels", few, x
    yield "ties in both, float levels", few, rng.permutation(few)
    yield "ties in both, whole-number floats", np.floor(x * 3000), rng.integers(0, 3000, n) * 1.0
    yield "signed with -0.0", signed, rng.permutation(signed)
    yield "wide integers", wide, rng.permutation(wide)
    yield "many float levels", np.round(x, 3), np.round(rng.random(n), 3)


@pytest.mark.parametrize("route", SORT_ROUTES)
@pytest.mark.parametrize("n", [1_000, 120_000])
def test_random_shapes_match_scipy_differentially(n, route):
    rng = np.random.default_rng(n)
    with _sort_route(route):
        _check_shapes_against_scipy(rng, n)


def _check_shapes_against_scipy(rng, n):
    for label, x, y in _shapes(rng, n):
        expected = stats.kendalltau(x, y).statistic
        assert ek.kendall_tau(x, y) == pytest.approx(expected, rel=1e-12, abs=1e-15), label
        # tau-a: scipy's tau-b rescaled by the untied pairs.
        pairs = n * (n - 1) / 2
        untied = [pairs - float((c * (c - 1) / 2).sum())
                  for c in (np.unique(v, return_counts=True)[1].astype(float) for v in (x, y))]
        assert ek.kendall_tau(x, y, variant="a") == pytest.approx(
            expected * np.sqrt(untied[0] * untied[1]) / pairs, rel=1e-12, abs=1e-15), label
        if n <= 1_000:
            counts = ek.concordant_discordant(x, y)
            assert tuple(counts._asdict().values()) == _pairs_by_brute_force(x, y), label


@pytest.mark.parametrize("kind", ["float", "int"])
def test_a_level_ranker_ranks_chunks_as_level_ranks_ranks_all(rng, kind):
    # The table made once, ranks written a chunk at a time into int32: as level_ranks, and
    # the caller's values left as they were.
    levels = np.unique(rng.integers(-50, 50, 300) * (0.5 if kind == "float" else 1))
    values = levels[rng.integers(0, len(levels), 10_000)]
    before = values.copy()
    rank = _levels.level_ranker(levels)
    out = np.empty(values.size, dtype=np.int32)
    for start in range(0, values.size, 999):
        rank(values[start:start + 999], out[start:start + 999])
    assert np.array_equal(out, np.searchsorted(levels, values))
    assert np.array_equal(out, _levels.level_ranks(values, levels))
    assert np.array_equal(values, before)


def test_level_ranks_resolve_shared_slots(monkeypatch, rng):
    levels = np.unique(np.concatenate([rng.normal(size=500).round(3), [0.0]]))
    values = np.concatenate([levels[rng.integers(0, len(levels), 20_000)], [-0.0]])
    expected = np.searchsorted(levels, values)
    assert np.array_equal(_levels.level_ranks(values, levels), expected)
    # Every level in one slot: every value is searched instead.
    monkeypatch.setattr(_levels, "_GOLDEN", np.uint64(0))
    assert np.array_equal(_levels.level_ranks(values, levels), expected)
    assert np.array_equal(_levels.level_ranks(values.astype(np.int64) * 0 + 7,
                                               np.array([7])), np.zeros(len(values)))
