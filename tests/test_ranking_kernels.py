"""One kernel per formula: evalkit.ranking's single-list functions call the batch measures.

Each ranking formula (AP, P@k, R@k, R-precision, RR, interpolated precision, the 11-point
average, DCG and nDCG) is written once, as a measure of :mod:`evalkit.trec._measures` over a
judged run of any number of queries. The single-list functions of :mod:`evalkit.ranking`
check their arguments, make the list a run of one query and return that measure's value.
These tests fail if a formula is written a second time:

- each single-list function returns whatever its batch measure returns (the measure is
  replaced by one that returns a sentinel);
- evalkit/ranking.py holds no arithmetic over ranks, gains or discounts (no log, cumsum, sum,
  mean, bincount, division);
- so a single-list value and :func:`evalkit.evaluate`'s value for the same ranking are the same
  float, bit for bit.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import evalkit as ek
from evalkit import ranking
from evalkit.trec import _measures

SENTINEL = 0.123456789

# (single-list call, the batch measure it must call)
CALLS = [
    (lambda: ek.precision_at_k([1, 0, 1], k=2), "precision"),
    (lambda: ek.recall_at_k([1, 0, 1], k=2, n_relevant=4), "recall"),
    (lambda: ek.r_precision([1, 0, 1]), "r_precision"),
    (lambda: ek.average_precision([1, 0, 1], k=2), "average_precision"),
    (lambda: ek.average_precision([1, 0, 1], denominator="retrieved_relevant"),
     "average_precision"),
    (lambda: ek.reciprocal_rank([0, 1], k=1), "reciprocal_rank"),
    (lambda: ek.eleven_point_average([1, 0, 1], convention="trec_eval_10"),
     "eleven_point_average"),
    (lambda: ek.dcg([2, 0, 1], k=2, variant="jarvelin"), "dcg"),
    (lambda: ek.ndcg([2, 0, 1], ideal=[3, 2, 1], variant="exponential"), "ndcg"),
]


@pytest.mark.parametrize(("call", "kernel"), CALLS, ids=[kernel for _, kernel in CALLS])
def test_each_single_list_function_returns_its_batch_measure(monkeypatch, call, kernel):
    alias = f"_batch_{kernel}"
    # The name ranking.py calls is the batch measure itself, not a copy...
    assert getattr(ranking, alias) is getattr(_measures, kernel)
    seen = []

    def sentinel(run, *args, **kwargs):
        seen.append(run)
        return np.array([SENTINEL])

    # ...and what it returns is the single-list function's value.
    monkeypatch.setattr(ranking, alias, sentinel)
    assert call() == SENTINEL
    assert len(seen) == 1 and isinstance(seen[0], _measures.JudgedRun)
    assert seen[0].n_queries == 1


def test_interpolated_precision_returns_its_batch_measure_at_every_level(monkeypatch):
    assert ranking._batch_interpolated_precision is _measures.interpolated_precision
    monkeypatch.setattr(ranking, "_batch_interpolated_precision",
                        lambda run, levels, **kwargs: np.asarray(levels)[:, None] + SENTINEL)
    levels = [0.0, 0.25, 1.0]
    got = ek.interpolated_precision([1, 0, 1], recall_levels=levels, convention="textbook")
    np.testing.assert_array_equal(got, np.array(levels) + SENTINEL)


#: What computing a measure needs and checking arguments does not.
FORBIDDEN_CALLS = {"log", "log2", "cumsum", "cumprod", "sum", "mean", "bincount", "accumulate",
                   "reduceat", "sort", "argsort", "dot", "arange", "discounted_gain", "discount",
                   "gain", "precision_at_relevant", "relevant_needed", "within_cutoff",
                   "safe_divide"}
FORBIDDEN_OPERATORS = (ast.Div, ast.FloorDiv, ast.Pow, ast.Mult, ast.Add, ast.Sub)


def _arithmetic(source: str) -> list[str]:
    """Every call of a FORBIDDEN_CALLS name and every arithmetic operator in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else getattr(
                function, "id", None)
            if name in FORBIDDEN_CALLS:
                found.append(f"line {node.lineno}: {name}()")
        elif isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(
                node.op, FORBIDDEN_OPERATORS):
            # String concatenation in messages is not arithmetic.
            operands = [node.left, node.right] if isinstance(node, ast.BinOp) else []
            if any(isinstance(o, ast.Constant | ast.JoinedStr) and not isinstance(
                    getattr(o, "value", None), int | float) for o in operands):
                continue
            found.append(f"line {node.lineno}: {type(node.op).__name__}")
    return found


def test_ranking_py_holds_no_arithmetic_of_its_own():
    found = _arithmetic(Path(ranking.__file__).read_text())
    assert not found, ("evalkit/ranking.py computes a measure itself; call the batch measure "
                       "of evalkit.trec._measures instead: " + "; ".join(found))


def test_the_arithmetic_check_finds_a_formula_written_again():
    # The check above can fail: a single-list AP and DCG written out again are caught.
    again = (
        "def average_precision(relevant, total):\n"
        "    ranks = np.flatnonzero(relevant) + 1\n"
        "    return np.sum(np.arange(1, ranks.size + 1) / ranks) / total\n"
        "def dcg(gains):\n"
        "    return float(np.sum(gains / np.log2(np.arange(2, gains.size + 2))))\n"
    )
    found = _arithmetic(again)
    assert any("log2" in f for f in found) and any("Div" in f for f in found)
    assert not _arithmetic("def f(x):\n    raise ValueError('k must be ' + str(x))\n")


def _random_query(rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One query: a run of up to 60 documents, qrels judging some of them and others."""
    n = int(rng.integers(1, 60))
    docs = [f"d{i}" for i in range(n + 10)]
    run = pd.DataFrame({"query_id": "q", "doc_id": docs[:n], "score": -np.arange(n, dtype=float)})
    judged = rng.random(n + 10) < 0.6
    qrels = pd.DataFrame({"query_id": "q", "doc_id": np.array(docs)[judged],
                          "relevance": rng.integers(-1, 4, int(judged.sum()))})
    return run, qrels


def test_single_list_values_are_evaluates_values_bit_for_bit():
    rng = np.random.default_rng(31)
    checked = 0
    for _ in range(60):
        run, qrels = _random_query(rng)
        if not (qrels["relevance"] >= 1).any():
            continue
        grade_of = dict(zip(qrels["doc_id"], qrels["relevance"], strict=True))
        grades = np.array([grade_of.get(doc, 0) for doc in run["doc_id"]])
        n_rel = int((qrels["relevance"] >= 1).sum())
        judged = qrels["relevance"].to_numpy()
        row = ek.evaluate(qrels, run, ["AP", "AP@10", "P@5", "R@20", "RR", "RR@3", "Rprec",
                                       "nDCG", "nDCG@10", "IPrec@0.3", "IPrec@0.7", "IPrecAvg",
                                       "DCG@5"]).iloc[0]
        assert row["AP"] == ek.average_precision(grades, n_relevant=n_rel)
        assert row["AP@10"] == ek.average_precision(grades, n_relevant=n_rel, k=10)
        assert row["P@5"] == ek.precision_at_k(grades, k=5)
        assert row["R@20"] == ek.recall_at_k(grades, k=20, n_relevant=n_rel)
        assert row["RR"] == ek.reciprocal_rank(grades)
        assert row["RR@3"] == ek.reciprocal_rank(grades, k=3)
        assert row["Rprec"] == ek.r_precision(grades, n_relevant=n_rel)
        assert row["nDCG"] == ek.ndcg(grades, ideal=judged)
        assert row["nDCG@10"] == ek.ndcg(grades, k=10, ideal=judged)
        assert row["DCG@5"] == ek.dcg(grades, k=5)
        curve = ek.interpolated_precision(grades, n_relevant=n_rel, convention="trec_eval",
                                          recall_levels=[0.3, 0.7])
        assert [row["IPrec@0.3"], row["IPrec@0.7"]] == curve.tolist()
        assert row["IPrecAvg"] == ek.eleven_point_average(grades, n_relevant=n_rel,
                                                          convention="trec_eval")
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("n_queries, low, high", [(50, 0, 4), (3, -1, 30), (400, -1, 2),
                                                  (10, 0, 100_000)])
def test_the_ideal_ranking_sorts_each_querys_positive_grades_high_to_low(n_queries, low, high):
    # nDCG's ideal ranking: by a counting sort when queries x grades are few, else lexsort;
    # both must give every positive grade, grouped by query, high to low, ranked from 1.
    rng = np.random.default_rng(n_queries)
    codes = rng.integers(0, n_queries, 3_000)
    grades = rng.integers(low, high + 1, codes.size)
    run = _measures.JudgedRun(n_queries, 1, codes, grades, np.ones(n_queries, dtype=np.intp),
                              codes[:0], codes[:0], grades[:0])
    ideal_codes, ideal_grades, ranks = run.ideal
    expected = sorted((int(c), -int(g)) for c, g in zip(codes, grades, strict=True) if g > 0)
    assert list(zip(ideal_codes.tolist(), (-ideal_grades).tolist(), strict=True)) == expected
    assert ideal_codes.dtype == codes.dtype and ideal_grades.dtype == grades.dtype
    for code in np.unique(ideal_codes):
        assert ranks[ideal_codes == code].tolist() == list(range(1, np.sum(ideal_codes == code)
                                                                 + 1))


@pytest.mark.parametrize("n_queries, low, high", [(50, 0, 4), (3, -2, 30), (400, -1, 2),
                                                  (10, 0, 100_000), (1, -1, 3)])
@pytest.mark.parametrize("level", [1, 2, 0.5, 0])
def test_r_and_n_per_query_are_counted_as_the_judgements_say(n_queries, low, high, level):
    # R and N per query come from a table of counts per query and grade when the grades
    # are integers of a small range, else from the judgements one by one: both must count
    # what is_relevant says, a negative grade in neither.
    rng = np.random.default_rng(n_queries + high)
    codes = rng.integers(0, n_queries, 3_000)
    grades = rng.integers(low, high + 1, codes.size)
    run = _measures.JudgedRun(n_queries, level, codes, grades,
                              np.ones(n_queries, dtype=np.intp), codes[:0], codes[:0],
                              grades[:0])
    assert (run.grade_counts is None) == (high == 100_000)
    relevant = (grades >= level) & (grades >= 0)
    nonrelevant = (grades >= 0) & ~relevant
    for counted, wanted in ((run.n_relevant, relevant), (run.n_nonrelevant, nonrelevant)):
        assert counted.tolist() == [int(np.sum(wanted & (codes == q))) for q in
                                    range(n_queries)]
