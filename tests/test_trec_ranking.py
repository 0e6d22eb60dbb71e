"""ek.trec_ranking: a run's documents in trec_eval's order, with their grades.

Oracles: pytrec_eval (trec_eval 9.0.8), whose P@k and nDCG@k at every k reveal the
relevance and the grade at every rank of its own ranking; evaluate's P@k and nDCG@k from the
table; a plain ``sorted()`` in Python on runs with many ties and non-ASCII doc_ids.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek

pytrec_eval = pytest.importorskip("pytrec_eval")


def _collection(seed, *, n_queries=6, n_docs=30, unicode=False):
    """Random qrels and a shuffled run: graded and negative judgements, unjudged documents,
    run queries the qrels lack, many tied scores (float32-representable, as pytrec_eval
    stores them), doc_ids whose string order is not their numeric order."""
    rng = np.random.default_rng(seed)
    marks = ["", "é", "Ω", "z", "ä"] if unicode else [""]
    docs = np.array([f"d{i}{marks[i % len(marks)]}" for i in range(n_docs)], dtype=object)
    qrels_rows, run_rows = [], []
    for q in range(n_queries):
        query = f"q{q}"
        if q < n_queries - 1:  # the last query of the run is not judged
            judged = rng.choice(n_docs, size=int(rng.integers(1, n_docs // 2)), replace=False)
            grades = rng.choice([-1, 0, 0, 1, 2, 3], size=judged.size)
            grades[0] = max(grades[0], 1)  # one relevant document, for nDCG's ideal
            qrels_rows += [(query, docs[d], int(g)) for d, g in zip(judged, grades,
                                                                     strict=True)]
        retrieved = rng.choice(n_docs, size=int(rng.integers(1, n_docs)), replace=False)
        scores = rng.integers(0, 5, size=retrieved.size) / 4.0  # many ties
        run_rows += [(query, docs[d], float(s)) for d, s in zip(retrieved, scores, strict=True)]
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    return qrels, run.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def _pytrec(qrels, run, measures, relevance_level=1):
    qrel_dict: dict[str, dict[str, int]] = {}
    for q, d, r in qrels.itertuples(index=False):
        qrel_dict.setdefault(q, {})[d] = int(r)
    run_dict: dict[str, dict[str, float]] = {}
    for q, d, s in run.itertuples(index=False):
        run_dict.setdefault(q, {})[d] = float(s)
    return pytrec_eval.RelevanceEvaluator(qrel_dict, measures, relevance_level).evaluate(run_dict)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("relevance_level", [1, 2])
def test_relevance_at_every_rank_is_pytrec_evals(seed, relevance_level):
    # P@k at k = 1 … n gives trec_eval's relevant flag at each rank: k P@k - (k-1) P@(k-1).
    qrels, run = _collection(seed, unicode=bool(seed % 2))
    table = ek.trec_ranking(qrels, run, relevance_level=relevance_level)
    n = int(run.groupby("query_id").size().max())
    cutoffs = ",".join(map(str, range(1, n + 1)))
    result = _pytrec(qrels, run, {f"P.{cutoffs}"}, relevance_level)
    checked = 0
    for query, values in result.items():
        mine = table[table.query_id == query]
        hits = np.array([values[f"P_{k}"] * k for k in range(1, len(mine) + 1)])
        flags = np.round(np.diff(np.r_[0.0, hits])).astype(bool)
        np.testing.assert_array_equal(mine.relevant.to_numpy(), flags)
        checked += 1
    assert checked == run.query_id.nunique() - 1  # pytrec_eval skips the unjudged query


@pytest.mark.parametrize("seed", range(10))
def test_grade_at_every_rank_is_pytrec_evals(seed):
    # nDCG@k at k = 1 … n, times the ideal DCG@k, gives trec_eval's DCG@k; its steps are the
    # grades over log2(k + 1).
    qrels, run = _collection(100 + seed, unicode=bool(seed % 2))
    table = ek.trec_ranking(qrels, run)
    n = int(run.groupby("query_id").size().max())
    cutoffs = ",".join(map(str, range(1, n + 1)))
    result = _pytrec(qrels, run, {f"ndcg_cut.{cutoffs}"})
    for query, values in result.items():
        mine = table[table.query_id == query]
        ideal = np.sort(qrels[qrels.query_id == query].relevance.clip(lower=0))[::-1]
        ranks = np.arange(1, len(mine) + 1)
        ideal_dcg = np.cumsum(np.r_[ideal, np.zeros(len(mine))][: len(mine)]
                              / np.log2(ranks + 1))
        dcg = np.array([values[f"ndcg_cut_{k}"] for k in ranks]) * ideal_dcg
        grades = np.round(np.diff(np.r_[0.0, dcg]) * np.log2(ranks + 1)).astype(int)
        np.testing.assert_array_equal(mine.relevance.fillna(0).clip(lower=0).to_numpy(int),
                                      grades)


@pytest.mark.parametrize("seed", range(8))
def test_measures_from_the_table_equal_evaluates(seed):
    qrels, run = _collection(200 + seed, unicode=bool(seed % 2))
    table = ek.trec_ranking(qrels, run)
    n = int(run.groupby("query_id").size().max())
    labels = [f"P@{k}" for k in range(1, n + 1)] + [f"nDCG@{k}" for k in range(1, n + 1)]
    scores = ek.evaluate(qrels, run, labels)
    for query in scores.index:
        mine = table[table.query_id == query]
        ideal = qrels[qrels.query_id == query].relevance.to_numpy()
        gains = mine.relevance.fillna(0).to_numpy(float)
        for k in range(1, n + 1):
            assert ek.precision_at_k(mine.relevant, k=k) == scores.loc[query, f"P@{k}"]
            assert ek.ndcg(gains, ideal=ideal, k=k) == pytest.approx(
                scores.loc[query, f"nDCG@{k}"], abs=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_the_order_is_a_plain_sort_by_score_then_doc_id_both_descending(seed):
    qrels, run = _collection(300 + seed, n_docs=60, unicode=bool(seed % 2))
    table = ek.trec_ranking(qrels, run)
    expected = []
    for query in pd.unique(run.query_id):  # the run's order of first appearance
        rows = [r for r in run.itertuples(index=False) if r.query_id == query]
        ranked = sorted(rows, key=lambda r: (r.score, r.doc_id), reverse=True)
        expected += [(r.query_id, rank, r.doc_id, r.score)
                     for rank, r in enumerate(ranked, start=1)]
    got = list(table[["query_id", "rank", "doc_id", "score"]].itertuples(index=False,
                                                                          name=None))
    assert got == expected


def test_columns_judgements_and_grades():
    qrels = pd.DataFrame({"query_id": ["1"] * 4 + ["2"],
                          "doc_id": ["a", "b", "c", "d", "a"],
                          "relevance": [2, 0, -1, 1, 1]})
    run = pd.DataFrame({"query_id": ["2", "1", "1", "1", "1", "1", "3"],
                        "doc_id": ["a", "a", "b", "c", "d", "x", "a"],
                        "score": [1.0, 0.2, 0.9, 0.9, 0.1, 0.9, 5.0],
                        "rank": [1, 9, 9, 9, 9, 9, 1]})  # ignored, as trec_eval does
    table = ek.trec_ranking(qrels, run, relevance_level=2)
    assert tuple(table.columns) == ek.trec.RANKING_COLUMNS
    assert table.query_id.tolist() == ["2", "1", "1", "1", "1", "1", "3"]
    assert table["rank"].tolist() == [1, 1, 2, 3, 4, 5, 1]
    assert table.doc_id.tolist() == ["a", "x", "c", "b", "a", "d", "a"]
    assert str(table.relevance.dtype) == "Int64"
    assert table.relevance.tolist() == [1, pd.NA, -1, 0, 2, 1, pd.NA]
    # -1 is trec_eval's "in the pool but not judged": listed, not judged.
    assert table.judged.tolist() == [True, False, False, True, True, True, False]
    assert table.relevant.tolist() == [False, False, False, False, True, False, False]
    assert table["rank"].dtype == np.int64 and table.score.dtype == np.float64


def test_one_query_and_the_inputs_are_left_alone(tmp_path):
    qrels, run = _collection(7)
    before_qrels, before_run = qrels.copy(), run.copy()
    table = ek.trec_ranking(qrels, run)
    pd.testing.assert_frame_equal(qrels, before_qrels)
    pd.testing.assert_frame_equal(run, before_run)
    one = ek.trec_ranking(qrels, run, query_id="q2")
    pd.testing.assert_frame_equal(one, table[table.query_id == "q2"].reset_index(drop=True))
    # Files, as evaluate takes them; whole-number ids are read as their digits.
    ek.write_qrels(qrels.assign(query_id=qrels.query_id.str[1:]), tmp_path / "qrels")
    ek.write_run(run.assign(query_id=run.query_id.str[1:], run_id="r"), tmp_path / "run")
    from_files = ek.trec_ranking(str(tmp_path / "qrels"), tmp_path / "run", query_id=2)
    pd.testing.assert_frame_equal(from_files.drop(columns="query_id"),
                                  one.drop(columns="query_id"))
    assert (from_files.query_id == "2").all()


def test_the_measures_of_evaluate_see_this_order_on_the_course_data():
    coll = ek.datasets.load_collection("stdlib-docs")
    run = coll.runs["bm25"]
    table = ek.trec_ranking(coll.qrels, run)
    scores = ek.evaluate(coll.qrels, run, ["AP", "nDCG@10", "RR"])
    for query in scores.index:
        mine = table[table.query_id == query]
        judged = coll.qrels[coll.qrels.query_id == query]
        total = int((judged.relevance >= 1).sum())
        assert ek.average_precision(mine.relevant, n_relevant=total) == pytest.approx(
            scores.loc[query, "AP"], abs=1e-12)
        assert ek.ndcg(mine.relevance.fillna(0), ideal=judged.relevance, k=10) == (
            pytest.approx(scores.loc[query, "nDCG@10"], abs=1e-12))


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"query_id": "nope"}, ValueError, "query_id 'nope' is not in the run"),
    ({"query_id": 1.5}, TypeError, "query_id must be a str"),
    ({"query_id": True}, TypeError, "query_id must be a str"),
    ({"relevance_level": "1"}, TypeError, "relevance_level"),
])
def test_bad_options_raise(kwargs, error, message):
    qrels, run = _collection(1)
    with pytest.raises(error, match=message):
        ek.trec_ranking(qrels, run, **kwargs)


def test_bad_tables_raise():
    qrels, run = _collection(2)
    doubled = pd.concat([run, run.iloc[:1]])
    with pytest.raises(ValueError, match="retrieved twice"):
        ek.trec_ranking(qrels, doubled)
    with pytest.raises(ValueError, match="judged twice"):
        ek.trec_ranking(pd.concat([qrels, qrels.iloc[:1]]), run)
    with pytest.raises(ValueError, match="run lacks the column"):
        ek.trec_ranking(qrels, run.drop(columns="score"))
    with pytest.raises(ValueError, match="scores must be finite"):
        ek.trec_ranking(qrels, run.assign(score=np.nan))
    with pytest.raises(ValueError, match="whole numbers"):
        ek.trec_ranking(qrels.assign(relevance=0.5), run)
    with pytest.raises(TypeError, match="qrels must be a pandas DataFrame"):
        ek.trec_ranking([1, 2], run)
    with pytest.raises(TypeError):
        ek.trec_ranking(qrels, run, "q1")  # options are keyword-only


@pytest.mark.parametrize("spread", [1, 10**6])  # counted in a table; sorted
def test_all_distinct_tells_whether_a_query_number_comes_back(spread):
    from evalkit.trec._ordering import _all_distinct

    rng = np.random.default_rng(spread)
    codes = rng.permutation(5_000) * spread
    assert _all_distinct(codes)
    assert not _all_distinct(np.r_[codes, codes[1234]])
    assert _all_distinct(codes[:1]) and _all_distinct(codes[:0])


def _hard_scores(rng: np.random.Generator, n: int) -> np.ndarray:
    """Scores that a key of a float's top bits cannot tell apart: neighbours one unit in the
    last place apart, -0.0 beside 0.0, both signs, huge, tiny and subnormal magnitudes, and
    plain ties."""
    base = rng.choice([0.5, -0.5, 1e300, -1e-300, 5e-324, 3.0, 0.0, -0.0, 1.0, -7.25], n)
    steps = rng.integers(-3, 4, n)
    near = base.copy()
    for step in (1, 2, 3):  # nextafter, 1 to 3 units in the last place up or down
        up, down = steps >= step, steps <= -step
        near[up] = np.nextafter(near[up], np.inf)
        near[down] = np.nextafter(near[down], -np.inf)
    return np.where(rng.random(n) < 0.5, near, rng.normal(size=n) * 10.0 ** rng.integers(
        -5, 5, n))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("scores", ["a bit apart", "far apart"])
def test_the_order_by_query_and_score_is_exact(seed, scores, sort_route):
    # The rows of each query, high scores first, ties then broken by doc_id descending: a
    # plain sort, whatever the queries' spread. The rows are ranked by one sort of keys of
    # query, score and row bits; scores a unit in the last place apart share a key's top and
    # are sorted again; queries spread over too many numbers for a key are ranked by two
    # sorts.
    from evalkit.trec._ordering import _by_query_and_score, _trec_order

    rng = np.random.default_rng(seed)
    n = 400
    spread = [1, 50, 2**20, 2**30][seed % 4]
    query_code = (rng.integers(0, 6, n) * spread).astype(np.int64)
    if scores == "a bit apart":
        score = _hard_scores(rng, n)
    else:
        score = rng.choice([0.0, -0.0, 1e300, -1e300, 1e-300, -1e-300, 3.5, -3.5, 1.0], n)
        score = np.where(rng.random(n) < 0.5, score, rng.normal(size=n).round(2))
    doc_id = np.array([f"d{i}" for i in rng.permutation(n)], dtype=object)
    order = _trec_order(query_code, score, doc_id)
    expected = sorted(range(n), key=lambda i: (-query_code[i], score[i], doc_id[i]),
                      reverse=True)
    assert [(query_code[i], score[i], doc_id[i]) for i in order] == \
        [(query_code[i], score[i], doc_id[i]) for i in expected]
    keyed = _by_query_and_score(query_code, score)
    assert (keyed is None) == (spread == 2**30)  # 33 bits of queries and 9 of rows
    if keyed is not None:  # by query, then score descending (ties in any order)
        keyed, tied = keyed
        assert sorted(keyed.tolist()) == list(range(n))
        pairs = list(zip(query_code[keyed].tolist(), (-score[keyed]).tolist(), strict=True))
        assert pairs == sorted(pairs)
        assert tied.tolist() == [i for i in range(n - 1) if pairs[i] == pairs[i + 1]]


def test_a_key_of_query_and_score_bits_sorts_again_the_scores_it_cannot_tell_apart(
        sort_route):
    from evalkit.trec._ordering import _by_query_and_score

    close = np.array([0.5, np.nextafter(0.5, 1.0), 0.25])  # one unit in the last place
    order, tied = _by_query_and_score(np.array([0, 0, 1]), close)
    assert order.tolist() == [1, 0, 2] and tied.tolist() == []
    order, tied = _by_query_and_score(np.array([0, 1, 0]), close)  # two queries
    assert order.tolist() == [0, 2, 1] and tied.tolist() == []
    order, tied = _by_query_and_score(np.array([0, 0, 1]), np.array([0.5, 0.75, 0.5]))
    assert order.tolist() == [1, 0, 2] and tied.tolist() == []
    order, tied = _by_query_and_score(np.array([0, 0, 0]), np.array([2.0, 1.0, 2.0]))
    assert sorted(order[:2].tolist()) == [0, 2] and order[2] == 1 and tied.tolist() == [0]
    assert _by_query_and_score(np.array([0, 2**25]), np.array([1.0, 2.0])) is not None
    assert _by_query_and_score(np.array([0, 2**31]), np.array([1.0, 2.0])) is None
    # Runs that share a key's top among runs that do not, and ties inside them: each
    # comes out by score, high first, as a plain sort gives.
    rng = np.random.default_rng(5)
    base = rng.choice([1.0, 2.0, 3.0, -4.0], 5000)
    score = base + rng.integers(0, 4, 5000) * np.spacing(base)
    query_code = np.sort(rng.integers(0, 40, 5000))
    order, tied = _by_query_and_score(query_code, score)
    pairs = list(zip(query_code[order].tolist(), (-score[order]).tolist(), strict=True))
    assert pairs == sorted(pairs) and sorted(order.tolist()) == list(range(5000))
    assert tied.tolist() == [i for i in range(4999) if pairs[i] == pairs[i + 1]]



@pytest.mark.parametrize("chunk", [3, 64, 1 << 15])
@pytest.mark.parametrize("seed", range(8))
def test_a_whole_run_ranked_by_one_sort_is_ranked_by_query_then_score(monkeypatch, seed,
                                                                      chunk, sort_route):
    # An interleaved run's rows are put in query order and ranked by one sort of keys of
    # query, score and row, made and read back a chunk at a time (chunks of 3 and 64 rows
    # end inside the run, and a tie may straddle two): each query's rows by score, high
    # first, the tied positions and the rows of each query as a plain sort and a count
    # give. Where numpy's long sorts are slow (the radix route) the run is left to a count
    # by query and a sort per piece.
    from evalkit.trec import _ordering

    monkeypatch.setattr(_ordering, "_KEY_CHUNK", chunk)
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 700))
    n_queries = [1, 2, 8, 9, 37, 64][seed % 6]
    query_code = rng.integers(0, n_queries, n).astype(np.int32)
    score = (_hard_scores(rng, n) if seed % 2 else
             rng.choice([0.0, -0.0, 1e300, -1e300, 2.5, -2.5, 1.0], n))
    ranked = _ordering._ranked_whole(query_code, score, n_queries)
    if sort_route == "radix sorts":
        assert ranked is None
        return
    order, per_query, tied = ranked
    assert sorted(order.tolist()) == list(range(n))
    pairs = list(zip(query_code[order].tolist(), (-score[order]).tolist(), strict=True))
    assert pairs == sorted(pairs)
    assert tied.tolist() == [i for i in range(n - 1) if pairs[i] == pairs[i + 1]]
    np.testing.assert_array_equal(per_query, np.bincount(query_code, minlength=n_queries))


def test_a_whole_run_is_ranked_by_one_sort_only_where_its_keys_fit(monkeypatch):
    # 2**20 queries need 20 bits of a key and 2**13 rows 13: over the 32 left beside a
    # score's top bits (_SCORE_BITS), so the run is counted by query instead; one row needs
    # no order.
    from evalkit import _sorting
    from evalkit.trec import _ordering

    monkeypatch.setattr(_sorting, "_radix_wins", lambda: False)
    score = np.random.default_rng(0).random(2**13)
    assert _ordering._ranked_whole(np.zeros(2**13, np.int32), score, 2**20) is None
    assert _ordering._ranked_whole(np.zeros(2**13, np.int32), score, 2**19) is not None
    assert _ordering._ranked_whole(np.zeros(1, np.int32), score[:1], 5) is None
    order = _ordering._query_order(np.zeros(1, np.int32), score[:1], 5)
    assert order.rows.tolist() == [0] and order.per_query.tolist() == [1, 0, 0, 0, 0]
    assert order.tied is None

def _block_keys(lengths, seed):
    """Keys in blocks of the given ``lengths`` kind, each block's number in their top bits
    (as a query's), with ties inside blocks and, in the last block, ties with the padding
    key; and where the blocks start, and their sizes."""
    rng = np.random.default_rng(seed)
    size = {"equal": np.full(30, 40), "ragged": rng.integers(1, 80, 30),
            "one long": np.r_[2000, np.ones(10, dtype=int)],
            "many short": rng.integers(1, 4, 500)}[lengths]
    starts = np.cumsum(size) - size
    key = rng.integers(0, 2**52, int(size.sum()), dtype=np.uint64)
    key[rng.random(key.size) < 0.05] = 7  # ties inside a block
    key |= np.repeat(np.arange(size.size, dtype=np.uint64) + np.uint64(4096 - size.size),
                     size) << np.uint64(52)
    last = key[starts[-1]:]
    last[rng.random(last.size) < 0.3] = np.iinfo(np.uint64).max  # ties with the padding
    return key, starts, size


@pytest.mark.parametrize("lengths", ["equal", "ragged", "one long", "many short"])
@pytest.mark.parametrize("seed", range(4))
def test_keys_sorted_a_block_at_a_time_equal_one_sort(lengths, seed, sort_route):
    # Each block's keys hold its number in their top bits, as a query's do. Blocks of one
    # length are sorted as the rows of a table; unequal ones padded (with the largest key,
    # which the last block may hold too) or, when padding would more than double the table,
    # sorted whole: each way, every block's keys come out as np.sort gives them.
    from evalkit.trec._ordering import _sort_in_blocks

    key, starts, size = _block_keys(lengths, seed)
    expected = np.concatenate([np.sort(block) for block in np.split(key, starts[1:])])
    _sort_in_blocks(key, starts)
    assert key.tolist() == expected.tolist()


@pytest.mark.parametrize("lengths", ["equal", "ragged", "one long", "many short"])
@pytest.mark.parametrize("seed", range(4))
def test_keys_argsorted_a_block_at_a_time_sort_them(lengths, seed):
    # As above, for the order (the qrels' keys, a query at a time): it must be a
    # permutation that sorts the keys, ties with the padding included; None (one sort
    # instead) when padding would more than double the table.
    from evalkit.trec._ordering import _argsort_in_blocks

    key, starts, size = _block_keys(lengths, seed)
    order = _argsort_in_blocks(key, starts)
    if size.size * size.max() > 2 * size.sum():  # "one long", and some "ragged"
        assert order is None
        return
    assert sorted(order.tolist()) == list(range(key.size))
    assert key[order].tolist() == np.sort(key).tolist()


def test_qrels_keys_are_sorted_a_query_at_a_time_only_when_listed_in_query_order():
    from evalkit.trec._evaluate import _argsort_qrels_keys

    rng = np.random.default_rng(5)
    for code in (np.repeat([0, 1, 2, 3], [5, 9, 1, 7]),  # in query order: by blocks
                 np.repeat([0, 1, 0, 2], [5, 9, 1, 7]),  # a query comes back: one sort
                 np.repeat([2, 1, 0], [4, 4, 4])):        # blocks not in order: one sort
        key = (code.astype(np.uint64) << np.uint64(60)) | rng.integers(
            0, 2**60, code.size, dtype=np.uint64)
        starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
        order = _argsort_qrels_keys(code, key, starts)
        assert key[order].tolist() == np.sort(key).tolist()


@pytest.mark.parametrize("seed", range(6))
def test_ranking_a_block_at_a_time_gives_the_order_of_one_sort(seed, sort_route):
    # Rows grouped by query in increasing query order are ranked a block at a time; any
    # other grouping by one sort of the whole: both give each query's rows by score, high
    # first, with the same tied positions.
    from evalkit.trec._ordering import _by_query_and_score

    rng = np.random.default_rng(seed)
    size = rng.integers(1, 60, 25)
    query_code = np.repeat(np.arange(25) * 3, size)
    if seed % 2:
        query_code = query_code[::-1].copy()  # grouped, but in decreasing query order
    score = rng.choice([0.5, 0.25, -1.0, 2.0], query_code.size) + rng.integers(
        0, 3, query_code.size) * np.spacing(0.5)
    starts = np.flatnonzero(np.r_[True, query_code[1:] != query_code[:-1]])
    blocks, tied_blocks = _by_query_and_score(query_code, score, starts)
    whole, tied_whole = _by_query_and_score(query_code, score)
    for order in (blocks, whole):
        assert sorted(order.tolist()) == list(range(query_code.size))
        pairs = list(zip(query_code[order].tolist(), (-score[order]).tolist(), strict=True))
        assert pairs == sorted(pairs)
    assert tied_blocks.tolist() == tied_whole.tolist()


@pytest.mark.parametrize("n", [10, 5_000, 40_000, 70_000])
def test_repeated_keys_found_by_table_and_by_sort_alike(n, sort_route):
    # Up to _TABLE_KEYS keys go through a hash table, more are sorted: both name each key
    # that occurs more than once, and no other.
    from evalkit.trec._pairs import _TABLE_KEYS, _repeated_keys

    rng = np.random.default_rng(n)
    keys = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    twice = rng.choice(n, size=min(n // 3, 50), replace=False)
    keys[twice[: twice.size // 2]] = keys[twice[twice.size // 2 :][: twice.size // 2]]
    keys[0] = keys[-1]  # one pair as far apart as can be
    values, counts = np.unique(keys, return_counts=True)
    assert (n <= _TABLE_KEYS) == (n in (10, 5_000))
    assert set(_repeated_keys(keys).tolist()) == set(values[counts > 1].tolist())
    assert _repeated_keys(np.unique(keys)).size == 0


def test_a_document_retrieved_twice_is_found_wherever_the_pieces_are_cut():
    # The run is checked a piece of whole queries at a time (about _TABLE_KEYS / 2 rows):
    # a pair repeated at the two ends of a long query, at the last row of a piece or the
    # first of the next, is still found.
    from evalkit.trec._pairs import _TABLE_KEYS

    n_queries, depth = 40, 1000  # 40,000 rows: pieces cut every ~16 queries
    query = np.repeat([f"q{i}" for i in range(n_queries)], depth)
    doc = np.array([f"d{i}" for i in range(n_queries * depth)], dtype=object)
    qrels = pd.DataFrame({"query_id": query[::depth], "doc_id": doc[::depth], "relevance": 1})
    assert n_queries * depth > _TABLE_KEYS
    for first, second in [(0, depth - 1), (16 * depth, 17 * depth - 1),
                          (17 * depth - 2, 17 * depth - 1), (39 * depth, 40 * depth - 1)]:
        dup = doc.copy()
        dup[second] = dup[first]
        run = pd.DataFrame({"query_id": query, "doc_id": dup,
                            "score": np.tile(np.linspace(1, 0, depth), n_queries)})
        with pytest.raises(ValueError, match="retrieved twice"):
            ek.evaluate(qrels, run, ["P@10"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-128, 127), min_size=1, max_size=60),
       st.sampled_from([np.int8, np.int16, np.int64, np.float64]))
def test_the_commonest_class_is_the_least_of_the_most_frequent(values, dtype):
    from evalkit.trec._ordering import _commonest

    array = np.array(values).astype(dtype)
    counts = {v: values.count(v) for v in values}
    most = max(counts.values())
    assert _commonest(array) == min(v for v, c in counts.items() if c == most)


def _blind_labels():
    """A label for every measure the registry marks as reading judged non-relevant documents
    (grade 0 or less, below the level) as unjudged ones: evaluate then breaks ties between
    the two in no set order. Each with a cutoff when it takes one."""
    from evalkit.trec._registry import RECORDS

    labels = []
    for measure in RECORDS:
        if measure.nonrelevant_as_unjudged:
            if measure.cutoff == "none":
                labels.append(measure.name)
            else:
                labels.append(f"{measure.name}@{0.6 if measure.real_cutoff else 4}")
    return labels


_BLIND = ["AP", "RR", "AP@5", *_blind_labels()]


def test_the_registry_marks_as_blind_only_measures_that_read_no_judged_non_relevant_row():
    # Bpref, infAP and the counts of judged documents read them; nDCG and DCG gain grades.
    from evalkit.trec._registry import MEASURES

    blind = {name for name, m in MEASURES.items() if m.nonrelevant_as_unjudged}
    assert {"AP", "P", "R", "RR", "Rprec", "nDCG", "DCG", "IPrec", "SetF"} <= blind
    assert not blind & {"Bpref", "infAP", "NumNonRelJudgedRet", "Judged", "Utility", "G",
                        "BinG", "IdealDCG", "RBP"}
    assert {name for name, m in MEASURES.items() if m.gains_are_grades} == {"nDCG", "DCG"}


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("relevance_level", [0, 1, 1.5, 2])
@pytest.mark.parametrize("gains", [False, True])
def test_ties_of_unjudged_and_non_relevant_documents_change_no_value(
        seed, relevance_level, gains):
    # The exact order (trec_eval's doc_id order in every tie) is what evaluate computes when
    # a measure that sees judged non-relevant documents is asked for too (bpref): each blind
    # measure must come out the same without it, on runs where most rows tie.
    qrels, run = _collection(300 + seed, n_queries=8, n_docs=60, unicode=bool(seed % 2))
    n = int(run.groupby("query_id").size().max())
    metrics = _BLIND + [f"P@{k}" for k in range(1, n + 1) if k != 4]
    if gains:
        metrics += [f"nDCG@{k}" for k in range(1, n + 1) if k != 4] + ["DCG@7", "nDCG"]
    else:
        metrics = [m for m in metrics if not m.startswith(("nDCG", "DCG"))]
    blind = ek.evaluate(qrels, run, metrics, relevance_level=relevance_level)
    exact = ek.evaluate(qrels, run, [*metrics, "Bpref"], relevance_level=relevance_level)
    pd.testing.assert_frame_equal(blind, exact[metrics], check_exact=True)
    if relevance_level in (1, 2):  # and trec_eval's own values (levels it takes as given)
        theirs = _pytrec(qrels, run, {"map", "P", "ndcg_cut", "recip_rank"},
                         relevance_level=relevance_level)
        for query in blind.index:
            assert blind.loc[query, "AP"] == pytest.approx(theirs[query]["map"], abs=1e-12)
            assert blind.loc[query, "RR"] == pytest.approx(theirs[query]["recip_rank"],
                                                           abs=1e-12)
            for k in (5, 10, 15, 20, 30):
                if k <= n:
                    assert blind.loc[query, f"P@{k}"] == pytest.approx(
                        theirs[query][f"P_{k}"], abs=1e-12)
                    if gains:
                        assert blind.loc[query, f"nDCG@{k}"] == pytest.approx(
                            theirs[query][f"ndcg_cut_{k}"], abs=1e-12)


def test_which_judged_grades_tie_as_unjudged():
    from evalkit.trec._evaluate import _tie_grades
    from evalkit.trec._metric_names import _parse_metrics

    grades = np.array([-2, -1, 0, 1, 2, 3])

    def tied(metrics, level=1, judged_only=False):
        out = _tie_grades(_parse_metrics(metrics), grades, level, judged_only)
        return None if out is None else out.tolist()

    unjudged = -3  # one below the least grade (and below 0)
    assert tied(["AP", "P@10"]) == [unjudged, unjudged, unjudged, 1, 2, 3]
    assert tied(["AP"], level=2) == [unjudged, unjudged, unjudged, unjudged, 2, 3]
    assert tied(["AP"], level=-1) == [unjudged, -1, 0, 1, 2, 3]
    # nDCG gains grades 1 and up whatever the level: only grades <= 0 below it tie as unjudged
    assert tied(["nDCG@10"], level=2) == [unjudged, unjudged, unjudged, 1, 2, 3]
    assert tied(["AP"], level=-5) is None  # every judged grade is relevant
    # A measure that counts judged non-relevant documents, an option, a condensed list: none.
    assert tied(["AP", "Bpref"]) is None
    assert tied(["AP", "Judged@10"]) is None
    assert tied(["nDCG(gains={0:1,1:2})@10"]) is None
    assert tied(["AP"], judged_only=True) is None


@pytest.mark.parametrize("seed", range(6))
def test_grades_of_tied_rows_alike_looked_up_alone_or_for_the_whole_piece(seed, monkeypatch):
    # A piece with few ties looks up only its tied rows' grades; with many, every row's once.
    # Both ways, on runs of many and of few ties, give pytrec_eval's values.
    from evalkit.trec import _evaluate

    qrels, run = _collection(400 + seed, n_queries=8, n_docs=60)
    if seed % 2:  # few ties: most scores distinct
        run["score"] = run["score"] + np.random.default_rng(seed).random(len(run)) * (
            np.random.default_rng(seed + 1).random(len(run)) < 0.9)
    metrics = ["AP", "nDCG@10", "P@5", "Bpref"]
    results = []
    for few in (0, 10**9):
        monkeypatch.setattr(_evaluate, "_TIE_FEW", few)
        results.append(ek.evaluate(qrels, run, metrics))
    pd.testing.assert_frame_equal(results[0], results[1], check_exact=True)
    theirs = _pytrec(qrels, run, {"map", "ndcg_cut", "P", "bpref"})
    for query in results[0].index:
        assert results[0].loc[query, "AP"] == pytest.approx(theirs[query]["map"], abs=1e-12)
        assert results[0].loc[query, "Bpref"] == pytest.approx(theirs[query]["bpref"],
                                                               abs=1e-12)
        assert results[0].loc[query, "nDCG@10"] == pytest.approx(theirs[query]["ndcg_cut_10"],
                                                                 abs=1e-12)
