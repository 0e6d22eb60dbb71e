"""ek.check: the one line an exercise's check cell prints; it never raises."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalkit as ek


def line(capsys, *args, **kwargs) -> str:
    result = ek.check(*args, **kwargs)
    assert result is None  # a check cell shows its printed line, never an echoed value
    out = capsys.readouterr().out
    assert out.count("\n") == 1, out
    return out.rstrip("\n")


@pytest.mark.parametrize("value, expected, tol", [
    (0.5, 1 / 2, 1e-9),
    (0.4999, 0.5, 5e-4),
    (3, 3.0, 1e-9),
    ((0.8, 0.5), (0.8, 0.5), 1e-9),
    ([1, 2, 3], np.array([1.0, 2.0, 3.0]), 1e-9),
    (np.array([[1, 0], [0, 1]]), [[1, 0], [0, 1]], 0.0),
    (pd.Series([0.1, 0.2]), [0.1, 0.2], 1e-12),
    (np.float32(0.1), 0.1, 1e-7),
    (float("nan"), float("nan"), 1e-9),
    (True, True, 1e-9),
    ("macro", "macro", 1e-9),
    ({"a", "b"}, {"b", "a"}, 1e-9),
])
def test_right_answers_get_a_tick(capsys, value, expected, tol):
    assert line(capsys, "answer_1", value, expected, tol=tol) == "✓ answer_1"


@pytest.mark.parametrize("value, expected, tol, message", [
    (0.55, 0.5, 0.01, "✗ q: expected 0.5, got 0.55"),
    # the tolerance is absolute; digits enough to see the difference
    (0.5 + 2e-9, 0.5, 1e-9, "✗ q: expected 0.5, got 0.500000002"),
    ((0.8, 0.4), (0.8, 0.5), 1e-3, "✗ q: expected (0.8, 0.5), got (0.8, 0.4)"),
    (0.8, (0.8, 0.5), 1e-3, "✗ q: expected 2 numbers like (0.8, 0.5), got 0.8"),
    ((0.8, 0.5), 0.8, 1e-3, "✗ q: expected a single number like 0.8, got (0.8, 0.5)"),
    ("0.5", 0.5, 1e-3, "✗ q: expected 0.5, got '0.5' (not a number)"),
    (None, 0.5, 1e-3, "✗ q: expected 0.5, got None (not a number)"),
    ("micro", "macro", 1e-9, "✗ q: expected 'macro', got 'micro'"),
    (False, True, 1e-9, "✗ q: expected True, got False"),
    (float("nan"), 0.5, 1e-3, "✗ q: expected 0.5, got nan"),
])
def test_wrong_answers_say_what_was_expected(capsys, value, expected, tol, message):
    assert line(capsys, "q", value, expected, tol=tol) == message


def test_a_hint_follows_a_wrong_answer_only(capsys):
    assert line(capsys, "q", 0.3, 0.5, hint="use beta**2") == (
        "✗ q: expected 0.5, got 0.3 — use beta**2")
    assert line(capsys, "q", 0.5, 0.5, hint="use beta**2") == "✓ q"


@pytest.mark.parametrize("stub", [..., NotImplemented, NotImplementedError,
                                  NotImplementedError("write me"), (..., ...), [0.5, ...]])
def test_student_stubs_read_not_answered_yet(capsys, stub):
    assert line(capsys, "answer_2", stub, (0.8, 0.5)) == (
        "… answer_2: not answered yet (replace the ... with your answer)")


def test_long_values_are_shortened(capsys):
    out = line(capsys, "q", "x" * 500, "y")
    assert len(out) < 160 and out.endswith("…")
    out = line(capsys, "q", np.arange(1000.0), np.zeros(1000))
    assert "..." in out and len(out) < 200


@pytest.mark.parametrize("tol", [-1, float("nan"), "0.1", True])
def test_a_bad_tolerance_is_reported_not_raised(capsys, tol):
    assert line(capsys, "q", 0.5, 0.5, tol=tol).startswith("✗ q: cannot check: tol must be")


class Awkward:
    def __eq__(self, other):
        raise RuntimeError("no comparing me")

    __hash__ = None


def test_an_answer_that_cannot_be_compared_is_reported_not_raised(capsys):
    awkward = Awkward()
    assert line(capsys, "q", awkward, "x") == f"✗ q: expected 'x', got {awkward!r}"


answers = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=20),
    st.lists(st.floats(allow_nan=True), max_size=5), st.tuples(st.floats(), st.integers()),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    st.lists(st.one_of(st.integers(), st.text(max_size=3)), max_size=4),
    st.just(...), st.just(np.array([[1, 2], [3, 4]])), st.just(object()),
)


@given(value=answers, expected=answers)
def test_check_never_raises_and_prints_one_line(value, expected):
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert ek.check("q", value, expected) is None
    out = buffer.getvalue()
    assert out.count("\n") == 1 and out[0] in "✓✗…", out


# --- AnswerDigest: the student edition's expected values, as salted hashes ------------------

from hypothesis import settings  # noqa: E402

from evalkit import check  # noqa: E402
from evalkit.course.checks import AnswerDigest  # noqa: E402

_finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
_tols = st.sampled_from([1e-9, 1e-4, 5e-4, 1e-3, 0.01, 0.5])


@settings(max_examples=40, deadline=None)
@given(_finite, _tols, st.floats(min_value=0, max_value=3))
def test_a_digest_matches_within_seven_eighths_of_tol_and_never_past_nine_eighths(
        expected, tol, distance):
    digest = AnswerDigest.of(expected, tol=tol)
    answer = expected + distance * tol
    if abs(answer - expected) <= 0.875 * tol - 1e-12 * max(1.0, abs(expected)):
        assert digest.matches(answer)
    elif abs(answer - expected) > 1.125 * tol + 1e-12 * max(1.0, abs(expected)):
        assert not digest.matches(answer)


@settings(max_examples=20, deadline=None)
@given(st.lists(_finite, min_size=1, max_size=4), _tols)
def test_a_digest_of_numbers_checks_each_entry_and_the_shape(values, tol):
    digest = AnswerDigest(str(AnswerDigest.of(tuple(values), tol=tol)))  # through its text
    assert digest.matches(tuple(values)) and digest.matches(list(values))
    assert not digest.matches(tuple(values) + (0.0,))
    wrong = list(values)
    wrong[-1] += 3 * tol
    assert not digest.matches(wrong)
    assert "1 numbers" not in (digest.problem(values[0]) or "")


def test_a_digest_of_text_sets_and_pairs_is_exact_and_hides_the_value():
    for value, same, other in [("micro", "micro", "macro"), ({1, 2}, {2, 1}, {1, 3}),
                               (("micro", 0.5), ("micro", 0.5), ("micro", 0.25)),
                               (True, 1, False)]:
        digest = AnswerDigest.of(value)
        assert digest.matches(same) and not digest.matches(other)
    text = str(AnswerDigest.of("a secret answer"))
    assert "secret" not in text and "secret" not in __import__("base64").urlsafe_b64decode(
        text[5:]).decode()
    numbers = str(AnswerDigest.of(0.8333333333333334, tol=1e-3))
    decoded = __import__("base64").urlsafe_b64decode(numbers[5:]).decode()
    assert "0.83" not in decoded and "833" not in decoded.split('"h"')[0]


def test_two_digests_of_one_answer_differ_by_their_salt():
    assert str(AnswerDigest.of(0.5)) != str(AnswerDigest.of(0.5))


def test_check_with_a_digest_says_right_wrong_or_hidden_and_never_the_answer(capsys):
    check("answer_1", 0.25, AnswerDigest.of(0.25, tol=1e-3))
    check("answer_1", 0.3, AnswerDigest.of(0.25, tol=1e-3), hint="a quarter")
    check("answer_2", (1, 2), AnswerDigest.of(0.25))
    check("answer_3", 7, AnswerDigest.hidden())
    check("answer_3", ..., AnswerDigest.hidden())
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "✓ answer_1"
    assert lines[1] == "✗ answer_1: 0.3 is not the expected answer — a quarter"
    assert lines[2].startswith("✗ answer_2: expected a single number, got (1")
    assert "no self-check" in lines[3] and "not answered yet" in lines[4]
    assert "0.25" not in "\n".join(lines[1:])


def test_a_bad_digest_or_tolerance_is_a_clear_error():
    with pytest.raises(ValueError, match="text: expected an answer digest"):
        AnswerDigest("0.25")
    with pytest.raises(ValueError, match="text: not a readable answer digest"):
        AnswerDigest("ekd1:!!!")
    with pytest.raises(ValueError, match="tol: expected a number >= 0"):
        AnswerDigest.of(0.5, tol=-1)


def test_the_old_home_of_check_re_exports_the_course_package():
    # Student editions already handed out import evalkit.checks (and API.md names it): it
    # stays, as a re-export of evalkit.course. The grader has one home, evalkit.course.grading
    # (make grade runs `python -m evalkit.course.grading`; the command is `evalkit grade`).
    import importlib.util

    import evalkit.checks
    import evalkit.course.checks

    assert ek.check is evalkit.checks.check is evalkit.course.checks.check is ek.course.check
    assert evalkit.checks.AnswerDigest is evalkit.course.checks.AnswerDigest
    assert importlib.util.find_spec("evalkit.grading") is None
