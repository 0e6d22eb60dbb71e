"""Ids that differ only after a NUL character stay apart (evalkit._factorize).

pandas before 3.0 numbered str as C strings, cut at their first NUL: ``pd.factorize`` gave
"a\\0b" and "a\\0c" one code, and evaluate scored two queries as one. These tests run on both
sides of that line (``make test`` on pandas 3, ``make test-oldest`` on pandas 2.2), and force
the object route on a pandas that does not need it, so that both routes run everywhere.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek
from evalkit import _factorize

ALPHABET = st.sampled_from(["\0", "a", "b", "é"])
IDS = st.lists(st.text(ALPHABET, max_size=4).map(lambda s: "q" + s), min_size=1, max_size=60)


def _first_appearance(values):
    """The reference numbering, a dict of whole Python strings."""
    seen: dict[str, int] = {}
    codes = [seen.setdefault(value, len(seen)) for value in values]
    return np.array(codes), list(seen)


@pytest.fixture(params=["as this pandas is", "object route forced"])
def route(request, monkeypatch):
    if request.param == "object route forced":
        monkeypatch.setattr(_factorize, "_cuts_at_nul", lambda: True)
    return request.param


@settings(max_examples=150, deadline=None)
@given(IDS)
def test_factorize_numbers_whole_strings(values):
    array = np.array(values, dtype=object)
    expected_codes, expected_uniques = _first_appearance(values)
    for cuts in (_factorize._cuts_at_nul(), True):  # this pandas' route, then objects
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_factorize, "_cuts_at_nul", lambda cuts=cuts: cuts)
            codes, uniques = _factorize.factorize(array)
            np.testing.assert_array_equal(codes, expected_codes)
            assert list(uniques) == expected_uniques
            assert list(_factorize.unique(array)) == expected_uniques


def test_the_probe_says_what_this_pandas_does():
    merged = len(pd.factorize(np.array(["a\0b", "a\0c"], dtype=object))[1]) == 1
    _factorize._cuts_at_nul.cache_clear()
    assert _factorize._cuts_at_nul() is merged
    # pandas 3 compares whole strings; every 2.x release we support cuts them.
    assert merged is (int(pd.__version__.split(".")[0]) < 3)


def test_arrays_without_nul_are_pandas_own(route):
    values = np.array(["q1", "q2", "q1", None, "q3"], dtype=object)
    codes, uniques = _factorize.factorize(values)
    expected = pd.factorize(values)
    np.testing.assert_array_equal(codes, expected[0])
    assert list(uniques) == list(expected[1])
    mixed = np.array(["a\0b", 1, "a\0c", 1], dtype=object)  # not only str: pandas' objects
    np.testing.assert_array_equal(_factorize.factorize(mixed)[0], [0, 1, 2, 1])


def test_series_and_python_strings(route):
    values = ["a\0b", "a\0c", "a", "a\0b"]
    for column in (pd.Series(values, dtype=object),
                   pd.Series(values, dtype=pd.StringDtype("python"))):
        codes, uniques = _factorize.factorize(column)
        np.testing.assert_array_equal(codes, [0, 1, 2, 0])
        assert list(uniques) == values[:3]


def _renamed(table: pd.DataFrame) -> pd.DataFrame:
    """The same table with each NUL written as "|" (no id of these tests holds one)."""
    table = table.copy()
    for column in ("query_id", "doc_id"):
        table[column] = [value.replace("\0", "|") for value in table[column]]
    return table


def _frames(storage: str, order: str, seed: int = 3):
    rng = np.random.default_rng(seed)
    queries = [f"q\0{i}" for i in range(40)] + ["q"]  # "q" equals all of them cut at NUL
    docs = np.array([f"d\0{i}" for i in range(50)] + ["d"], dtype=object)
    qrels_rows, run_rows = [], []
    for q in queries:
        judged = rng.choice(docs, size=12, replace=False)
        qrels_rows += [(q, d, int(g)) for d, g in zip(judged, rng.integers(0, 3, 12), strict=True)]
        for d, s in zip(rng.choice(docs, size=30, replace=False), rng.random(30), strict=True):
            run_rows.append((q, d, float(np.round(s * 8) / 8)))  # ties, broken by doc_id
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    if order == "interleaved":
        run = run.iloc[rng.permutation(len(run))].reset_index(drop=True)
    for table in (qrels, run):
        for column in ("query_id", "doc_id"):
            values = table[column].to_numpy(dtype=object)
            if storage == "object copies":  # one str object a row
                values = np.array([v.encode().decode() for v in values], dtype=object)
            table[column] = (pd.Series(values, dtype="str") if storage == "str"
                             else pd.Series(values, dtype=object))
    return qrels, run


METRICS = ["AP", "nDCG@10", "P@5", "RR", "NumRel", "NumRet", "NumRelRet"]


@pytest.mark.parametrize("order", ["grouped", "interleaved"])
@pytest.mark.parametrize("storage", ["object", "object copies", "str"])
def test_evaluate_keeps_queries_apart(storage, order, route):
    qrels, run = _frames(storage, order)
    ours = ek.evaluate(qrels, run, METRICS)
    assert len(ours) == 41
    expected = ek.evaluate(_renamed(qrels), _renamed(run), METRICS)
    expected.index = expected.index.str.replace("|", "\0")
    pd.testing.assert_frame_equal(ours, expected)


@pytest.mark.parametrize("kind", ["qrels", "run"])
def test_files_with_nul_are_refused_with_their_line(kind, tmp_path):
    # pandas' parser before 3.0 cut a field at a NUL; trec_eval fails on one: refused alike.
    good = {"qrels": "q1 0 d1 1\nq1 0 d2 0\n", "run": "q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n"}
    bad = {"qrels": "q\0x 0 d3 1\n", "run": "q1 Q0 d\0x 3 0.5 r\n"}
    path = tmp_path / kind
    path.write_bytes(("# x\n" * (kind == "run") + good[kind] + "\n" + bad[kind]).encode())
    line = 5 if kind == "run" else 4
    read = ek.read_qrels if kind == "qrels" else ek.read_run
    with pytest.raises(ValueError, match=rf"{kind}, line {line}: a NUL character"):
        read(path)
    qrels = tmp_path / "ok.qrels"
    qrels.write_text(good["qrels"])
    with pytest.raises(ValueError, match=rf"{kind}, line {line}: a NUL character"):
        if kind == "run":
            ek.evaluate(qrels, path, ["AP"])  # streamed a block at a time
        else:
            ek.evaluate(path, pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"],
                                            "score": [1.0]}), ["AP"])


def test_trec_ranking_pool_and_write_run_keep_queries_apart(tmp_path, route):
    import io

    qrels, run = _frames("object", "interleaved")
    for ours, renamed in (
        (ek.trec_ranking(qrels, run), ek.trec_ranking(_renamed(qrels), _renamed(run))),
        (ek.pool([run, run.iloc[::2]], depth=5), ek.pool([_renamed(run), _renamed(run).iloc[::2]],
                                                          depth=5)),
    ):
        assert len(set(ours["query_id"])) == 41  # (pandas 2 nunique cuts at NUL too)
        renamed = renamed.copy()
        for column in ("query_id", "doc_id"):
            renamed[column] = renamed[column].str.replace("|", "\0")
        pd.testing.assert_frame_equal(ours.astype(object), renamed.astype(object))
    written, expected = io.StringIO(), io.StringIO()
    ek.write_run(run, written)
    ek.write_run(_renamed(run), expected)
    assert written.getvalue() == expected.getvalue().replace("|", "\0")
