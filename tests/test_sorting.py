"""The CPU-dependent sorts of evalkit._sorting: each spelling against numpy's plain sort."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalkit import _sorting

EDGE_FLOATS = [0.0, -0.0, np.inf, -np.inf, 5e-324, -5e-324, 1.5, -1.5, 1e308, -1e308, 2.0**-1022]
EDGE_INTS = [0, 1, -1, np.iinfo(np.int64).max, np.iinfo(np.int64).min, 2**32, -(2**32)]


@pytest.fixture
def radix(monkeypatch):
    """The radix route, whatever this CPU measures, from the smallest arrays on."""
    monkeypatch.setattr(_sorting, "_radix_wins", lambda: True)
    monkeypatch.setattr(_sorting, "RADIX_MIN", 2)


@given(st.lists(st.one_of(st.sampled_from(EDGE_FLOATS),
                          st.floats(allow_nan=False, allow_subnormal=True)),
                min_size=2, max_size=200))
def test_radix_argsort_orders_floats(values):
    array = np.array(values, dtype=np.float64)
    order = _sorting._radix_argsort(array)
    assert sorted(order.tolist()) == list(range(len(array)))  # a permutation
    np.testing.assert_array_equal(array[order], np.sort(array))
    if not (array == 0).any():  # stable (-0.0 and 0.0 are equal but keyed apart)
        np.testing.assert_array_equal(order, np.argsort(array, kind="stable"))


@given(st.lists(st.one_of(st.sampled_from(EDGE_INTS),
                          st.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max)),
                min_size=2, max_size=200))
def test_radix_argsort_is_a_stable_sort_of_int64(values):
    array = np.array(values, dtype=np.int64)
    np.testing.assert_array_equal(_sorting._radix_argsort(array),
                                  np.argsort(array, kind="stable"))


@given(st.lists(st.integers(0, 2**64 - 1), min_size=2, max_size=200))
def test_radix_argsort_is_a_stable_sort_of_uint64(values):
    array = np.array(values, dtype=np.uint64)
    array[::3] = array[0]  # ties
    np.testing.assert_array_equal(_sorting._radix_argsort(array),
                                  np.argsort(array, kind="stable"))


def test_minus_zero_sorts_before_zero_and_ties_keep_their_order():
    array = np.array([0.0, -0.0, 1.0, 0.0, -0.0, -1.0, 1.0])
    assert _sorting._radix_argsort(array).tolist() == [5, 1, 4, 0, 3, 2, 6]


@pytest.mark.parametrize("bits", [1, 15, 16, 17, 33, 48, 62])
def test_sort_codes_sorts_by_the_used_digits_only(radix, rng, bits):
    codes = rng.integers(0, 2**bits, 5_000, dtype=np.int64)
    codes[:10] = 2**bits - 1  # the largest code, and ties
    np.testing.assert_array_equal(_sorting.sort_codes(codes, bits), np.sort(codes))


def test_sort_codes_and_argsort_numbers_on_the_default_route(monkeypatch, rng):
    monkeypatch.setattr(_sorting, "_radix_wins", lambda: False)
    values = rng.normal(size=70_000)
    np.testing.assert_array_equal(_sorting.argsort_numbers(values), np.argsort(values))
    codes = rng.integers(0, 2**20, 70_000)
    np.testing.assert_array_equal(_sorting.sort_codes(codes, 20), np.sort(codes))


def test_route_choice(monkeypatch, rng):
    values = rng.normal(size=100)
    monkeypatch.setattr(_sorting, "_radix_wins", lambda: True)
    assert not _sorting.simd_sort_is_slow(values)  # shorter than RADIX_MIN: no probe, numpy
    monkeypatch.setattr(_sorting, "RADIX_MIN", 100)
    assert _sorting.simd_sort_is_slow(values)
    assert _sorting.simd_sort_is_slow(values.astype(np.int64))
    assert _sorting.simd_sort_is_slow(values.astype(np.uint64))
    assert not _sorting.simd_sort_is_slow(values.astype(np.float32))  # other dtypes: numpy
    assert not _sorting.simd_sort_is_slow(values.astype(np.int32))
    np.testing.assert_array_equal(_sorting.argsort_numbers(values.astype(np.float32)),
                                  np.argsort(values.astype(np.float32)))
    assert _sorting.takes_radix(values)
    monkeypatch.setattr(_sorting, "RADIX_MAX", 99)  # too long for the radix sort's passes
    assert _sorting.simd_sort_is_slow(values) and not _sorting.takes_radix(values)
    monkeypatch.setattr(_sorting, "_radix_argsort", None)  # not called
    np.testing.assert_array_equal(_sorting.argsort_numbers(values), np.argsort(values))
    codes = np.arange(100)[::-1].copy()
    np.testing.assert_array_equal(_sorting.sort_codes(codes, 7), np.arange(100))


def test_probes_answer_and_are_measured_once():
    # The answers depend on this CPU; both are valid, and each is measured once a process.
    assert _sorting._radix_wins() in (True, False)
    assert _sorting.merge_kind() in (None, "stable")
    assert _sorting._radix_wins.cache_info().misses == 1
    assert _sorting.merge_kind.cache_info().misses == 1
    assert _sorting.merge_kind() is _sorting.merge_kind()
