"""The shared argument checks: each error names the argument and says what was expected."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalkit import _validation as v


def test_check_1d_accepts_column_vectors_and_series():
    np.testing.assert_array_equal(v.check_1d(np.array([[1], [2]]), "x"), [1, 2])
    np.testing.assert_array_equal(v.check_1d(pd.Series([3, 4]), "x"), [3, 4])
    np.testing.assert_array_equal(v.check_1d(pd.DataFrame({"a": [5, 6]}), "x"), [5, 6])


@pytest.mark.parametrize("value, error, message", [
    (5, ValueError, "x must be 1-D; got a single value 5"),
    ([[1, 2], [3]], ValueError, "x must be a flat 1-D array-like"),
    ({"a": 1}, TypeError, "x must be an ordered array-like .* got a dict"),
    (pd.DataFrame({"a": [1], "b": [2]}), ValueError, "x must be 1-D; got a DataFrame with 2"),
    ([], ValueError, "x is empty"),
])
def test_check_1d_errors(value, error, message):
    with pytest.raises(error, match=message):
        v.check_1d(value, "x")


def test_check_labels_normalises_types():
    assert v.check_labels([True, False], "y").dtype == np.int64
    assert v.check_labels([1.0, 2.0], "y").dtype == np.int64
    assert v.check_labels([0.5, 2.0], "y").dtype == np.float64
    assert v.check_labels(np.array(["a", "b"], dtype=object), "y").dtype.kind == "U"
    with pytest.raises(ValueError, match="y mixes strings and numbers \\(or holds None\\)"):
        v.check_labels(["a", None], "y")


def test_check_finite_scores():
    np.testing.assert_array_equal(v.check_finite_scores([1, 2], "y_score"), [1.0, 2.0])
    with pytest.raises(ValueError, match="y_score contains an infinite value at position 2"):
        v.check_finite_scores([0.1, 0.2, np.inf], "y_score")
    with pytest.raises(ValueError, match="y_score must hold numbers"):
        v.check_finite_scores(["a"], "y_score")


@pytest.mark.parametrize("good", ["warn", 0, 1, 0.0, 1.0, np.nan])
def test_zero_division_accepts_the_policies(good):
    assert v.check_zero_division(good) is not None


@pytest.mark.parametrize("bad", ["nan", 0.5, True, None, "error"])
def test_zero_division_rejects_others(bad):
    with pytest.raises(ValueError, match="zero_division must be"):
        v.check_zero_division(bad)


@pytest.mark.parametrize("value, kind, expected", [
    (3, "int", 3), (3.0, "int", 3), (np.int16(7), "int", 7), (np.float32(2.0), "int", 2),
    (2, "real", 2.0), (0.25, "real", 0.25), (np.float64(1e-3), "real", 1e-3),
])
def test_check_scalar_accepts_and_converts(value, kind, expected):
    result = v.check_scalar(value, "x", kind=kind, low=0)
    assert result == expected and type(result) is (int if kind == "int" else float)


@pytest.mark.parametrize("value, shown", [
    (True, "True (a bool)"), (np.True_, "True (a bool)"), ("3", "the string '3'"),
    (None, "None (a NoneType)"), ([1], "[1] (a list)"), (1 + 2j, "(1+2j) (a complex)"),
])
def test_check_scalar_wrong_kind_is_a_type_error(value, shown):
    expected = "k must be a whole number >= 1; got " + shown
    with pytest.raises(TypeError, match=f"^{re.escape(expected)}$"):
        v.check_scalar(value, "k", kind="int", low=1)


@pytest.mark.parametrize("value, kwargs, message", [
    (1.5, {"kind": "int", "low": 1}, "k must be a whole number >= 1; got 1.5"),
    (0, {"kind": "int", "low": 1}, "k must be a whole number >= 1; got 0"),
    (float("nan"), {}, "k must be a real number; got nan"),
    (float("inf"), {}, r"k must be a real number \(finite\); got inf"),
    (0.0, {"low": 0, "low_inclusive": False}, "k must be a real number > 0; got 0.0"),
    (1.0, {"low": 0, "high": 1, "high_inclusive": False},
     r"k must be a real number in \[0, 1\); got 1.0"),
    (5, {"high": 2}, "k must be a real number <= 2; got 5"),
])
def test_check_scalar_bad_value_is_a_value_error(value, kwargs, message):
    with pytest.raises(ValueError, match=rf"^{message}$"):
        v.check_scalar(value, "k", **kwargs)


def test_check_scalar_infinity_and_none_when_allowed():
    assert v.check_scalar(float("inf"), "t", allow_inf=True) == float("inf")
    assert v.check_scalar(None, "k", kind="int", allow_none=True) is None
    with pytest.raises(TypeError, match=r"k must be a whole number \(or None\); got 'x'|"
                                        r"k must be a whole number \(or None\); got the string"):
        v.check_scalar("x", "k", kind="int", allow_none=True)
    with pytest.raises(ValueError, match="kind must be one of 'int', 'real'"):
        v.check_scalar(1, "k", kind="float")


def test_square_matrix_wrong_kind_of_object_is_a_type_error_like_a_vector():
    from evalkit._validation import check_1d, check_square_matrix

    with pytest.raises(TypeError, match="y_true must be an array-like .*got None"):
        check_1d(None, "y_true")
    with pytest.raises(TypeError, match=r"table must be a square \(k, k\) matrix of counts "
                                        r"\(nested list, numpy array or pandas DataFrame\); "
                                        "got None"):
        check_square_matrix(None, "table", counts=True)
    with pytest.raises(TypeError, match="cost_matrix must be .* of numbers .*got the string"):
        check_square_matrix("[[0, 1], [1, 0]]", "cost_matrix")
    with pytest.raises(TypeError, match="confusion must be .*; got a dict"):
        check_square_matrix({0: [1, 2]}, "confusion")
    with pytest.raises(TypeError, match="table must be .* of counts; got dtype <U1"):
        check_square_matrix([["a", "b"], ["c", "d"]], "table", counts=True)
    with pytest.raises(ValueError, match="could not read it"):
        check_square_matrix([[1, 2], [3]], "table")
    np.testing.assert_array_equal(check_square_matrix([[1, 2], [3, 4]], "table"),
                                  [[1.0, 2.0], [3.0, 4.0]])


def test_string_labels_keep_numpy_strings_and_refuse_a_trailing_nul():
    # Class labels (few distinct) and mostly distinct ones take different routes.
    few = np.array(["b", "a\0b", "ccc", "b"] * 2000, dtype=object)
    many = np.array([f"id{i}\0x" for i in range(6000)], dtype=object)
    for labels in (few, many, few.tolist(), tuple(many), pd.Series(few)):
        checked = v.check_labels(labels, "y")
        expected = np.asarray(labels, dtype=object).astype(str)
        assert checked.dtype == expected.dtype and (checked == expected).all()
    assert v.check_labels([b"x", b"yz"], "y").tolist() == ["x", "yz"]
    # numpy would read "a\0" as "a": refused, naming the argument and the label.
    for labels in (["a", "a\0"], np.array(["a\0", "b"], dtype=object), [b"a", b"a\0"]):
        with pytest.raises(ValueError, match=r"^y holds the label b?'a\\x00', which ends in"):
            v.check_labels(labels, "y")
    late = many.copy()
    late[5999] = "z\0"  # after a label holding a NUL (and \1) that does not end in one
    late[3] = "q\0\1q"
    with pytest.raises(ValueError, match=r"label 'z\\x00'"):
        v.check_labels(late, "y")
    # A second chunk (2^16 labels a chunk) whose one NUL ends its last label; bytes too.
    clean = np.array([f"id{i}" for i in range(70_000)], dtype=object)
    for text, nul in ((clean, "\0"), (clean.astype(bytes).astype(object), b"\0")):
        assert v.check_labels(text, "y").size == 70_000
        ending = text.copy()
        ending[-1] = ending[-1] + nul
        with pytest.raises(ValueError, match=r"label b?'id69999\\x00'"):
            v.check_labels(ending, "y")
    with pytest.raises(ValueError, match="mixes strings and numbers"):
        v.check_labels(["a", 1], "y")


@given(st.lists(st.sampled_from(["a", "a\0b", "a\0c", "b", "\0", "é\0z", "ab"]),
                min_size=1, max_size=40),
       st.lists(st.sampled_from(["a", "a\0b", "a\0c", "b", "\0", "é\0z", "ab"]),
                min_size=1, max_size=40))
def test_labels_holding_nuls_score_as_scikit_learn_scores_them(y_true, y_pred):
    from sklearn.metrics import accuracy_score, f1_score

    import evalkit as ek

    n = min(len(y_true), len(y_pred))
    y_true, y_pred = y_true[:n], y_pred[:n]
    if "\0" in y_true + y_pred:  # the label "\0" ends in a NUL: refused
        with pytest.raises(ValueError, match="ends in a NUL character"):
            ek.accuracy(y_true, y_pred)
        return
    assert ek.accuracy(y_true, y_pred) == pytest.approx(accuracy_score(y_true, y_pred))
    assert ek.f1_score(np.array(y_true, dtype=object), np.array(y_pred, dtype=object),
                       average="macro", zero_division=0) == pytest.approx(
        f1_score(y_true, y_pred, average="macro", zero_division=0))
