"""evaluate() on every string storage and every row order: the same values as the plain
in-memory result and as pytrec_eval.

The run's and the qrels' ids may be stored as Python str in an object array, pandas'
``string[python]``, pyarrow-backed ``str`` (pandas 3's default when pyarrow is installed,
also as several arrow chunks), ``ArrowDtype`` or a numpy ``StringDType`` array (which pandas
turns into object); the run's rows may be ranked, shuffled within each query, interleaved
across queries, or reversed. Each such run is evaluated and compared with the same
collection as object columns in ranked order, exactly, and with pytrec_eval. Runs of a few
rows take the paths of long runs through small pieces (``small_pieces``).
"""

from __future__ import annotations

from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek
from evalkit import _hashing
from evalkit.trec import _evaluate as evaluation
from evalkit.trec import _ordering, _pairs, _tables

from .test_evaluation import oracle

pytrec_eval = pytest.importorskip("pytrec_eval")

LABELS = ["AP", "nDCG@10", "nDCG", "RR", "P@5", "Rprec", "R@10", "Bpref", "NumRet", "NumRel",
          "NumRelRet", "IPrec@0.3", "infAP"]
STORAGES = ["object", "object copies", "python", "pyarrow", "pyarrow chunked", "default",
            "arrow dtype", "numpy StringDType"]
ORDERS = ["ranked", "shuffled", "interleaved", "round robin", "reversed"]


def collection(seed: int, *, n_queries: int = 8, shared: bool = True, unicode: bool = False,
               long_ids: bool = False, ties: bool = True):
    """Qrels and a ranked run: graded and negative judgements, queries without relevant
    documents, judged queries missing from the run and run queries missing from the qrels,
    unjudged retrieved documents, tied scores, doc ids shared across queries or not."""
    rng = np.random.default_rng(seed)
    stem = "döc-☃-" if unicode else "d"
    if long_ids:
        stem = stem + "x" * int(rng.integers(9, 40))
    vocabulary = np.array([f"{stem}{i}" for i in range(60)], dtype=object)
    qrels_rows, run_rows = [], []
    for q in range(n_queries):
        query = f"q{q}" if not unicode else f"q{q}é"
        docs = vocabulary if shared else np.array([f"{d}_{q}" for d in vocabulary], dtype=object)
        if rng.random() > 0.15:
            judged = rng.choice(docs.size, size=int(rng.integers(1, 25)), replace=False)
            grades = rng.choice([-1, 0, 0, 1, 1, 2, 3], size=judged.size)
            if rng.random() < 0.15:
                grades[:] = 0
            grades[0] = max(grades[0], 0)  # trec_eval misreads a query judged only negative
            qrels_rows += [(query, docs[d], int(g)) for d, g in zip(judged, grades, strict=True)]
        if rng.random() > 0.15:
            retrieved = rng.choice(docs.size, size=int(rng.integers(1, 40)), replace=False)
            scores = (rng.integers(0, 6, retrieved.size) / 4.0 if ties
                      else rng.permutation(retrieved.size) / 8.0)
            run_rows += [(query, docs[d], float(s)) for d, s in zip(retrieved, scores,
                                                                       strict=True)]
    qrels_rows = qrels_rows or [("q0", vocabulary[0], 1)]
    run_rows = run_rows or [("q0", vocabulary[0], 1.0)]
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    run = run.astype({"query_id": object, "doc_id": object})
    qrels = qrels.astype({"query_id": object, "doc_id": object})
    # Ranked: by query, then score descending (ties in doc_id ascending, not trec_eval's).
    run = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, True],
                          ignore_index=True)
    return qrels, run


def reorder(run: pd.DataFrame, order: str, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    if order == "ranked":
        rows = np.arange(len(run))
    elif order == "shuffled":  # each query's rows shuffled, the queries kept together
        key = run["query_id"].factorize()[0] + rng.random(len(run))
        rows = np.argsort(key, kind="stable")
    elif order == "interleaved":
        rows = rng.permutation(len(run))
    elif order == "round robin":  # queries interleaved, each one's rows in their order
        code = run["query_id"].factorize()[0]
        turn = run.groupby(code).cumcount().to_numpy()
        rows = np.argsort(turn + rng.random(code.max(initial=0) + 1)[code], kind="stable")
    else:
        rows = np.arange(len(run))[::-1]
    return run.iloc[rows].reset_index(drop=True)


def stored(column: pd.Series, storage: str) -> pd.Series:
    values = column.to_numpy(dtype=object)
    if storage == "object":
        return pd.Series(values, dtype=object)
    if storage == "object copies":
        # A distinct str object in every row, as converting a str column to objects gives.
        return pd.Series(np.array([v.encode().decode() for v in values], dtype=object),
                         dtype=object)
    if storage == "python":
        return pd.Series(pd.array(values, dtype=pd.StringDtype("python")))
    if storage == "default":
        return pd.Series(values.tolist())
    if storage == "numpy StringDType":
        return pd.Series(values.astype(np.dtypes.StringDType()))
    pa = pytest.importorskip("pyarrow")
    if storage == "pyarrow":
        return pd.Series(pd.array(values, dtype=pd.StringDtype("pyarrow")))
    if storage == "arrow dtype":
        return pd.Series(pd.array(values, dtype=pd.ArrowDtype(pa.string())))
    # Several chunks, as pd.concat of arrow-backed frames gives.
    half = len(values) // 2
    chunks = pa.chunked_array([pa.array(values[:half].tolist(), pa.large_string()),
                               pa.array(values[half:].tolist(), pa.large_string())])
    return pd.Series(pd.arrays.ArrowStringArray(chunks))


def as_storage(table: pd.DataFrame, storage: str) -> pd.DataFrame:
    table = table.copy()
    for name in ("query_id", "doc_id"):
        table[name] = stored(table[name], storage)
    return table


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of a few rows: small runs take the paths of long ones (hashing, checking,
    joining and ranking a piece at a time, in threads)."""
    monkeypatch.setattr(evaluation, "_PIECE", 7)
    monkeypatch.setattr(_pairs, "_HASH_CHUNK", 5)
    monkeypatch.setattr(_pairs, "_TABLE_KEYS", 9)
    monkeypatch.setattr(_hashing, "_BORROW_MIN", 2)  # ids read at rows borrowed, not copied
    monkeypatch.setenv("EVALKIT_THREADS", "2")


@pytest.mark.parametrize("storage", STORAGES)
@pytest.mark.parametrize("seed", range(12))
def test_every_storage_and_order_gives_the_plain_values(seed, storage):
    qrels, run = collection(seed, shared=seed % 3 != 0, unicode=seed % 4 == 1,
                            long_ids=seed % 5 == 2, ties=seed % 6 != 5)
    expected = ek.evaluate(qrels, run, LABELS)
    pytrec = oracle(qrels, run, [label for label in LABELS if label != "nDCG@10"] + ["nDCG@10"])
    np.testing.assert_allclose(expected.to_numpy(float),
                               pytrec.loc[expected.index, LABELS].to_numpy(float), atol=1e-9)
    for order in ORDERS:
        shuffled = reorder(run, order, seed)
        ours = ek.evaluate(as_storage(qrels, storage), as_storage(shuffled, storage), LABELS)
        pd.testing.assert_frame_equal(ours, expected, check_index_type=False,
                                      obj=f"{storage}, {order}")


@pytest.mark.parametrize("closer", [True, False])
@pytest.mark.parametrize("storage", ["object", "pyarrow", "pyarrow chunked", "python"])
@pytest.mark.parametrize("seed", range(8))
def test_long_run_paths_on_every_order(small_pieces, sort_route, monkeypatch, seed, storage,
                                       closer):
    # closer: an interleaved run's ids hashed in query order (True) or as stored (False);
    # a piece's object ids hashed in rank order on odd seeds, as stored (or query order) on
    # even ones. An interleaved run grouped by numpy's sort instead of the counting sort on
    # seeds 4-7; an arrow query column told grouped or interleaved from its first 5 rows on
    # seeds 2, 3, 6 and 7.
    from evalkit.trec import _ordering, _tables

    monkeypatch.setattr(evaluation, "_closer_in", lambda doc, order: closer)
    monkeypatch.setattr(evaluation, "_in_rank_order", lambda ids, ranked, stored: seed % 2)
    if seed >= 4:
        monkeypatch.setattr(_ordering, "_counting_sort", lambda: None)
    if seed % 4 >= 2:
        monkeypatch.setattr(_tables, "_BLOCKS_SAMPLE", 5)
    qrels, run = collection(seed + 100, n_queries=12, shared=seed % 2 == 0,
                            unicode=seed % 3 == 0)
    expected = oracle(qrels, run, LABELS)
    for order in ORDERS:
        ours = ek.evaluate(as_storage(qrels, "object"),
                           as_storage(reorder(run, order, seed), storage), LABELS)
        np.testing.assert_allclose(ours.to_numpy(float),
                                   expected.loc[ours.index, LABELS].to_numpy(float), atol=1e-9,
                                   err_msg=f"{storage}, {order}")


@pytest.mark.parametrize("order", ["interleaved", "round robin"])
@pytest.mark.parametrize("missing_queries", ["ignore", "zero"])
@pytest.mark.parametrize("storage", ["pyarrow", "object"])
def test_options_on_interleaved_arrow_runs(storage, missing_queries, order):
    # Round robin: each query's rows ranked already once in query order (ties kept apart).
    qrels, run = collection(7, n_queries=10)
    labels = ["AP", "nDCG(ties=average)@10", "P@5", "NumRet"]
    expected = ek.evaluate(qrels, run, labels, missing_queries=missing_queries)
    ours = ek.evaluate(as_storage(qrels, storage), as_storage(reorder(run, order, 3),
                       storage), labels, missing_queries=missing_queries)
    pd.testing.assert_frame_equal(ours, expected, check_index_type=False)
    judged = ek.evaluate(qrels, run, ["AP", "P@5"], judged_only=True)
    pd.testing.assert_frame_equal(
        ek.evaluate(qrels, as_storage(reorder(run, "interleaved", 4), storage), ["AP", "P@5"],
                    judged_only=True), judged, check_index_type=False)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("storage", ["object", "object copies", "pyarrow", "python"])
def test_duplicates_are_refused_in_every_storage_and_order(storage, order):
    qrels, run = collection(3, n_queries=6)
    judged = run[run["query_id"].isin(qrels["query_id"])].index[0]
    twice = pd.concat([run, run.loc[[judged]].assign(score=-5.0)], ignore_index=True)
    with pytest.raises(ValueError, match="retrieved twice"):
        ek.evaluate(qrels, as_storage(reorder(twice, order, 1), storage), ["AP"])


@pytest.mark.parametrize("column", ["query_id", "doc_id"])
def test_a_missing_id_in_an_arrow_column_is_named(column):
    qrels, run = collection(5)
    run = as_storage(run, "pyarrow")
    values = np.array(run[column].tolist(), dtype=object)
    values[3] = None
    run[column] = pd.Series(pd.array(values, dtype=pd.StringDtype("pyarrow")))
    with pytest.raises(ValueError, match=rf"run\['{column}'\] is missing .* in row 3"):
        ek.evaluate(qrels, run, ["AP"])


@pytest.mark.parametrize("missing", [None, pd.NA, np.nan])
def test_a_missing_query_id_among_distinct_objects_is_named(missing):
    qrels, run = collection(3)
    copies = np.array(stored(run["query_id"], "object copies").to_numpy(), dtype=object)
    copies[len(copies) // 2] = missing  # inside a query's block
    run["query_id"] = pd.Series(copies, dtype=object)
    with pytest.raises(ValueError, match="query_id"):
        ek.evaluate(qrels, run, ["AP"])


def test_whole_number_ids_next_to_arrow_ids():
    qrels = pd.DataFrame({"query_id": [1, 1, 2], "doc_id": [10, 11, 10], "relevance": [1, 0, 1]})
    run = pd.DataFrame({"query_id": pd.array(["2", "1", "1", "2"], dtype="string[pyarrow]"),
                        "doc_id": pd.array(["10", "11", "10", "3"], dtype="string[pyarrow]"),
                        "score": [1.0, 2.0, 1.0, 3.0]})
    scores = ek.evaluate(qrels, run, ["RR", "NumRet"])
    assert scores.loc["1", "RR"] == 0.5 and scores.loc["2", "RR"] == 0.5
    assert scores["NumRet"].tolist() == [2, 2]
    numeric = run.assign(doc_id=[10, 11, 10, 3])
    pd.testing.assert_frame_equal(ek.evaluate(qrels, numeric, ["RR", "NumRet"]), scores)


def test_arrow_hashes_equal_the_str_hashes():
    pa = pytest.importorskip("pyarrow")
    from evalkit._hashing import string_hashes

    ids = ["", "a", "doc-1", "döc-☃", "x" * 41, "a\0b", "é" * 9] * 3
    objects = string_hashes(np.array(ids, dtype=object))
    for kind in (pa.string(), pa.large_string()):
        array = pa.array(ids, kind)
        assert string_hashes(array).tolist() == objects.tolist()
        assert string_hashes(array.slice(5, 9)).tolist() == objects[5:14].tolist()
        assert string_hashes(array.slice(21)).tolist() == []


def test_short_arrow_ids_are_hashed_from_their_views(monkeypatch):
    # Ids of at most 12 bytes are hashed from their string views (two words each), longer
    # ones from the buffers: the same hashes as the str's, on either side of 12 bytes, with
    # NULs and multi-byte characters, in a slice, in string and large_string arrays, and
    # with a long id only in a later chunk of views (chunks of 4 here).
    pa = pytest.importorskip("pyarrow")
    from evalkit._arrow_strings import string_views

    if string_views(pa.array(["a"])) is None:
        pytest.skip("this pyarrow has no string_view")
    monkeypatch.setattr(_hashing, "_VIEW_CHUNK", 4)
    routes = []
    short_hashes = _hashing._short_string_hashes
    monkeypatch.setattr(_hashing, "_short_string_hashes",
                        lambda array: routes.append(short_hashes(array) is not None) or
                        short_hashes(array))
    short = ["", "a", "doc-1", "a\0b", "döc-☃", "é" * 6, "x" * 8, "y" * 9, "z" * 12, "\0" * 12]
    for ids, route in ((short, True), (short + ["w" * 13], False), (["é" * 7], False)):
        objects = _hashing.string_hashes(np.array(ids * 3, dtype=object))
        for kind in (pa.string(), pa.large_string()):
            routes.clear()
            array = pa.array(ids * 3, kind)
            assert _hashing.string_hashes(array).tolist() == objects.tolist()
            assert _hashing.string_hashes(array.slice(2, 9)).tolist() == objects[2:11].tolist()
            assert routes == [route, route]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.text(max_size=5), min_size=1, max_size=300))
def test_arrow_hashes_equal_the_str_hashes_on_any_text(ids):
    # Up to 5 characters: 0 to 20 bytes, so both routes (views and buffers) and both sides
    # of a chunk of views; a lone surrogate, which arrow cannot hold, is left out.
    pa = pytest.importorskip("pyarrow")
    ids = [text for text in ids if all(not 0xD800 <= ord(c) <= 0xDFFF for c in text)]
    objects = _hashing.string_hashes(np.array(ids, dtype=object))
    assert _hashing.string_hashes(pa.array(ids, pa.string())).tolist() == objects.tolist()


# Ids that tell the views' words apart: the same length and first 4 bytes, differing in
# bytes 4-11 or only past byte 12; NUL bytes, multi-byte characters, 12 and 13 bytes.
CONFIRM_IDS = st.sampled_from(["", "a", "abcd", "abcde", "abcdefghijkl", "abcdefghijkm",
                               "abcdefghijklm", "abcdefghijkln", "abcd\x00", "abcd\x00\x00",
                               "é", "\x00é", "abcdéfghijk", "abcdéfghijkl-long", "d12"])


@pytest.mark.parametrize("large", [(False, False), (True, False), (True, True)])
@pytest.mark.parametrize("route", ["views", "kept views", "arrow"])
@settings(max_examples=40, deadline=None, derandomize=True)
@given(ids=st.lists(CONFIRM_IDS, min_size=1, max_size=60),
       other=st.lists(CONFIRM_IDS, min_size=1, max_size=60), seed=st.integers(0, 2**16))
def test_matches_are_confirmed_on_the_arrow_ids(large, route, ids, other, seed):
    # A match of keys is confirmed on the ids themselves: arrow ids on their string views
    # (equal first words, then equal second words within 12 bytes, arrow's comparison past
    # 12), made by the ids (a slice keeps its part) or kept from their making a chunk at a
    # time (an interleaved run's), or, with no string_view in this pyarrow, by arrow's
    # comparison; string and large_string, the run's ids reordered or not, sliced. Each
    # answer is Python's str equality.
    pa = pytest.importorskip("pyarrow")
    from evalkit._arrow_strings import string_views

    if route != "arrow" and string_views(pa.array(["a"])) is None:
        pytest.skip("this pyarrow has no string_view")
    with mock.patch.object(_tables, "_views", (lambda strings: None) if route == "arrow"
                           else string_views):
        rng = np.random.default_rng(seed)
        left = _tables.ArrowIds(pa.array(["pad"] + ids, pa.large_string() if large[0]
                                         else pa.string()).slice(1))
        right = _tables.ArrowIds(pa.array(other, pa.large_string() if large[1]
                                          else pa.string()))
        if route == "kept views":
            left.keep_views(np.concatenate([string_views(left.data.slice(start, 7))
                                            for start in range(0, len(ids), 7)]))
        order = rng.permutation(len(ids))
        for run_ids, names in ((left, ids), (_tables.ReorderedIds(left, order),
                                             [ids[i] for i in order])):
            run_ids = run_ids[1:] if len(ids) > 1 else run_ids  # a slice keeps its views
            names = names[1:] if len(ids) > 1 else names
            rows = rng.integers(0, len(names), 80)
            other_rows = rng.integers(0, len(other), 80)
            equal = _tables._equal_ids(run_ids, rows, right, other_rows)
            assert equal.dtype == bool
            assert equal.tolist() == [names[i] == other[j]
                                      for i, j in zip(rows, other_rows, strict=True)]
        assert (left._views is None) == (route == "arrow")


class _Counted(str):
    """A str that counts its comparisons."""

    compared = 0

    def __eq__(self, other):
        _Counted.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


@settings(max_examples=40, deadline=None, derandomize=True)
@given(names=st.lists(st.text(max_size=4), min_size=1, max_size=30, unique=True),
       data=st.data())
def test_matches_are_confirmed_on_the_object_ids(names, data):
    # Object ids (an array, or read through an order as an interleaved run's are when its
    # keys were made as stored, sliced as a piece is) are compared on their references
    # first: only rows holding two objects compare their strings. Each answer is Python's.
    shared = [_Counted(name) for name in names]  # objects the qrels hold too
    picks = data.draw(st.lists(st.tuples(st.integers(0, len(names) - 1), st.booleans()),
                               min_size=2, max_size=40))
    left = np.array([shared[i] if same else _Counted(names[i])  # a subclass: a new object
                     for i, same in picks], dtype=object)
    right = np.array(shared, dtype=object)
    rng = np.random.default_rng(len(picks))
    order = rng.permutation(len(picks))
    for run_ids, held in ((left, left), (_tables.ReorderedIds(left, order)[1:], left[order][1:])):
        rows = rng.integers(0, len(held), 50)
        other_rows = rng.integers(0, len(names), 50)
        _Counted.compared = 0
        equal = _tables._equal_ids(run_ids, rows, right, other_rows)
        assert equal.dtype == bool
        assert equal.tolist() == [str(held[i]) == names[j]
                                  for i, j in zip(rows, other_rows, strict=True)]
        assert _Counted.compared == sum(held[i] is not right[j]
                                        for i, j in zip(rows, other_rows, strict=True))


@pytest.mark.parametrize("long_ids", [False, True])
def test_an_interleaved_arrow_run_keeps_the_views_its_hashing_made(small_pieces, monkeypatch,
                                                                    long_ids):
    # An interleaved arrow run's doc_ids are cast to string views once, whole, and kept:
    # hashed from them a chunk at a time (here of 3 rows), as stored, and the pieces confirm
    # their matches on them in query order (no chunk, no id cast again), ids over 12 bytes
    # or not. The answers are those of the run grouped by query in object arrays.
    pa = pytest.importorskip("pyarrow")
    from evalkit._arrow_strings import string_views

    if string_views(pa.array(["a"])) is None:
        pytest.skip("this pyarrow has no string_view")
    monkeypatch.setattr(_ordering, "_LOOKUP_CHUNK", 3)
    cast = []
    views = _tables._views
    monkeypatch.setattr(_tables, "_views",
                        lambda strings: cast.append(strings.to_pylist()) or views(strings))
    qrels, run = collection(5, long_ids=long_ids)
    expected = ek.evaluate(qrels, run, LABELS)
    interleaved = as_storage(reorder(run, "interleaved", 5), "pyarrow")
    if not isinstance(_tables._run_columns(interleaved)[2], _tables.ArrowIds):
        pytest.skip("pandas stores str without pyarrow here")
    cast.clear()
    ours = ek.evaluate(as_storage(qrels, "pyarrow"), interleaved, LABELS)
    pd.testing.assert_frame_equal(ours, expected, check_index_type=False)
    judged = interleaved["query_id"].isin(qrels["query_id"])  # the others are dropped
    docs = interleaved["doc_id"][judged].tolist()
    assert len(docs) > 3 * 4 and any(len(doc.encode()) > 12 for doc in docs) == long_ids
    assert cast.count(docs) == 1
    run_only = set(docs) - set(qrels["doc_id"])  # cast only as part of the run's doc_ids
    assert [part for part in cast if set(part) & run_only] == [docs]


@pytest.mark.parametrize("storage", ["pyarrow", "pyarrow chunked", "arrow dtype", "default"])
def test_arrow_columns_stay_in_arrow(storage):
    # The paths above are the arrow ones: the run's doc_ids are read from arrow buffers
    # (pandas 3 stores "default" strings in arrow when pyarrow is installed).
    from evalkit.trec import _tables

    _, run = collection(1)
    run = as_storage(run, storage)
    dtype = run["doc_id"].dtype
    if getattr(dtype, "storage", None) != "pyarrow" and type(dtype).__name__ != "ArrowDtype":
        pytest.skip("pandas stores str without pyarrow here")
    blocks, starts, doc, _ = _tables._run_columns(run)
    assert isinstance(doc, _tables.ArrowIds) and isinstance(blocks, _tables.ArrowIds)
    assert doc[np.arange(len(run))].tolist() == run["doc_id"].tolist()
    assert blocks[np.arange(len(starts))].tolist() == run["query_id"].iloc[starts].tolist()


@pytest.mark.parametrize("chunk", [7, 1 << 16])
@pytest.mark.parametrize("size", [0, 1, 100, 1_000])
def test_query_numbers_looked_up_a_chunk_at_a_time(monkeypatch, chunk, size):
    # An object-numbered query column's numbers become the qrels' query numbers (intp, -1
    # for an unjudged query) a chunk at a time: the whole gather's values, at every size.
    monkeypatch.setattr(_ordering, "_LOOKUP_CHUNK", chunk)
    rng = np.random.default_rng(size)
    table = rng.integers(-1, 50, 40).astype(np.intp)
    codes = rng.integers(0, table.size, size).astype(np.int32)
    looked_up = _ordering._looked_up(table, codes)
    assert looked_up.dtype == np.intp
    np.testing.assert_array_equal(looked_up, table[codes])


@pytest.mark.parametrize("known", [True, False])
@pytest.mark.parametrize("order", ORDERS)
def test_ids_of_a_vocabulary_hashed_once_each(monkeypatch, order, known):
    # Long object columns that repeat the objects of a vocabulary hash each object once
    # (_hashing.repeats_objects): the same hashes and the same values as hashing every row.
    from evalkit import _hashing

    vocabulary = np.array([f"d{i}" for i in range(50)] + ["döc-☃", "a\0b"], dtype=object)
    rng = np.random.default_rng(4)
    repeated = vocabulary[rng.integers(0, vocabulary.size, 5000)]
    copies = np.array([str(i) + "" for i in repeated.tolist()], dtype=object)
    assert _hashing.repeats_objects(np.tile(repeated, 20))
    assert not _hashing.repeats_objects(np.array([f"x{i}" for i in range(70_000)], dtype=object))
    every_row = np.concatenate([_hashing._utf8_hashes(repeated[i:i + 100])
                                for i in range(0, repeated.size, 100)])
    monkeypatch.setattr(_hashing, "_REPEATS_MIN", 64)
    monkeypatch.setattr(_tables, "_REPEATS_SAMPLE", 256)  # query ids numbered by object too
    assert _hashing.repeats_objects(repeated)
    assert _hashing.string_hashes(repeated).tolist() == every_row.tolist()
    assert _hashing.string_hashes(copies).tolist() == every_row.tolist()
    qrels, run = collection(11, n_queries=30)
    expected = oracle(qrels, run, LABELS)
    shuffled = reorder(run, order, 2)
    one_object = {name: name for name in shuffled["query_id"]}  # each query's id one object
    shuffled["query_id"] = pd.Series([one_object[name] for name in shuffled["query_id"]],
                                     index=shuffled.index, dtype=object)
    # The query ids' objects are numbered as those of the first rows (known), or, when
    # some later row holds another, as any (the sample here is too short to see them all).
    numbered_by_known = []
    by_known = _hashing._known_object_codes

    def spy(values, sampled):
        coded = by_known(values, sampled if known else sampled[:1])
        numbered_by_known.append(coded is not None)
        return coded

    monkeypatch.setattr(_hashing, "_known_object_codes", spy)
    coded, _ = _tables._coded_ids(shuffled["query_id"])
    assert (coded is not None) == (order in ("interleaved", "round robin"))
    assert numbered_by_known == ([known] if coded is not None else [])
    ours = ek.evaluate(qrels, shuffled, LABELS)
    np.testing.assert_allclose(ours.to_numpy(float),
                               expected.loc[ours.index, LABELS].to_numpy(float), atol=1e-9)
    judged = shuffled.index[shuffled["query_id"].isin(qrels["query_id"])][5]
    twice = pd.concat([shuffled, shuffled.loc[[judged]].assign(score=-1.0)], ignore_index=True)
    with pytest.raises(ValueError, match="retrieved twice"):
        ek.evaluate(qrels, twice, ["AP"])


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.text(st.characters(max_codepoint=127), max_size=7), min_size=1,
                max_size=40, unique=True), st.data())
def test_short_query_ids_are_numbered_as_their_strings(vocabulary, data):
    # _short_ids on object columns of new str objects, judged on their first 16 rows: when
    # it numbers them (interleaved there), each row's id is that of its number, ids first
    # seen after those rows included, and the ids are distinct; grouped first rows: False.
    # Read a chunk at a time (chunks across the first rows' end too), on one or two threads.
    from evalkit import _str_memory
    from evalkit._str_memory import short_keys

    # The first rows cycle through up to 3 ids (interleaved) or list them in order (grouped,
    # unless there is one); the later ones draw from all.
    few = data.draw(st.integers(1, min(3, len(vocabulary))))
    head = [i % few for i in range(16)]
    if data.draw(st.booleans()):
        head.sort()
    rows = head + data.draw(st.lists(st.integers(0, len(vocabulary) - 1), max_size=300))
    values = np.array(["".join(["", vocabulary[row]]) for row in rows], dtype=object)
    chunk = data.draw(st.sampled_from([1, 5, 16, 1 << 13]))
    threads = data.draw(st.sampled_from(["1", "2"]))
    with (mock.patch.object(_tables, "_REPEATS_SAMPLE", 16),
          mock.patch.object(_str_memory, "_SHORT_CHUNK", chunk),
          mock.patch.object(_str_memory, "_SHORT_CHUNK_ALONE", chunk),
          mock.patch.dict("os.environ", {"EVALKIT_THREADS": threads})):
        coded = _tables._short_ids(values)
    keys = short_keys(values[:16])
    if np.count_nonzero(keys[1:] != keys[:-1]) < 4 * np.unique(keys).size:
        assert coded is False  # grouped: not numbered by the strings either
        return
    assert isinstance(coded, _tables.CodedIds)
    assert coded.ids[coded.codes].tolist() == values.tolist()
    assert sorted(coded.ids.tolist()) == sorted(set(values.tolist()))
    assert coded.codes.dtype == np.int32


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("intruder", ["q\u00e9", "q1234567", 7])
@pytest.mark.parametrize("at", [16, 40, 99])
def test_short_query_ids_refused_in_a_later_chunk(monkeypatch, threads, intruder, at):
    # An id short_keys cannot read (non-ASCII, over 7 characters, not a str) after the first
    # rows, in any chunk: the column is not numbered this way (None: factorized instead).
    from evalkit import _str_memory

    monkeypatch.setenv("EVALKIT_THREADS", threads)
    monkeypatch.setattr(_tables, "_REPEATS_SAMPLE", 16)
    monkeypatch.setattr(_str_memory, "_SHORT_CHUNK", 8)
    monkeypatch.setattr(_str_memory, "_SHORT_CHUNK_ALONE", 8)
    values = np.array(["".join(["q", str(i % 3)]) for i in range(100)], dtype=object)
    assert isinstance(_tables._short_ids(values), _tables.CodedIds)
    values[at] = intruder
    assert _tables._short_ids(values) is None


@pytest.mark.parametrize("route", ["read in place", "factorized"])
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("query_ids", ["str", "with an int", "with a missing one"])
def test_interleaved_query_ids_an_object_a_row_are_numbered_by_their_strings(
        monkeypatch, route, order, query_ids):
    # An object column with a str object in every row (no object recurs) whose queries are
    # interleaved (more blocks than 4 a distinct id in the first rows) is numbered by its
    # strings: read in place as numbers when they are short ASCII str (_short_ids), else by
    # pd.factorize (_factorized_ids; here also with the reading in place turned off); a
    # grouped one, or one holding an int or a missing id, as before: the same values as the
    # plain run, the int read as its text, the missing id named.
    from evalkit import _str_memory

    monkeypatch.setattr(_tables, "_REPEATS_SAMPLE", 256)
    if route == "factorized":
        monkeypatch.setattr(_str_memory, "short_keys", lambda ids: None)
    qrels, run = collection(12, n_queries=30)
    assert len(run) > 256
    shuffled = reorder(run, order, 3)
    names = [str(name) + "" for name in shuffled["query_id"]]
    if query_ids == "with an int":  # query q7's rows get 7, read as "7": another query
        names = [7 if name == "q7" else name for name in names]
    elif query_ids == "with a missing one":
        names[len(names) // 2] = None
    shuffled["query_id"] = pd.Series([name if name is None or isinstance(name, int)
                                      else "".join(list(name)) for name in names],
                                     index=shuffled.index, dtype=object)
    numbered: dict[str, list] = {"short": [], "factorized": []}

    def spy(kind: str, number):
        def numbering(values):
            numbered[kind].append(number(values))
            return numbered[kind][-1]
        return numbering

    monkeypatch.setattr(_tables, "_short_ids", spy("short", _tables._short_ids))
    monkeypatch.setattr(_tables, "_factorized_ids", spy("factorized", _tables._factorized_ids))
    if query_ids == "with a missing one":
        with pytest.raises(ValueError, match=r"run\['query_id'\]"):
            ek.evaluate(qrels, shuffled, LABELS)
        assert numbered == {"short": [None], "factorized": [None]}
        return
    ours = ek.evaluate(qrels, shuffled, LABELS)
    interleaved = order in ("interleaved", "round robin")
    by_strings = interleaved and query_ids == "str"
    short = by_strings and route == "read in place"
    # A grouped column whose first rows are short str ids is told so by _short_ids (False),
    # and not again; with the reading in place off, or an int among the first rows, by
    # _factorized_ids.
    told_grouped = numbered["short"] == [False]
    assert not (told_grouped and (interleaved or route == "factorized"))
    if route == "read in place" and query_ids == "str":
        assert told_grouped == (not interleaved)
    assert [isinstance(coded, _tables.CodedIds) for coded in numbered["short"]] == [short]
    assert [coded is not None for coded in numbered["factorized"]] == (
        [] if short or told_grouped else [by_strings])
    values = shuffled["query_id"].to_numpy()
    coded = (numbered["short"] + numbered["factorized"])[-1 if not short else 0]
    if isinstance(coded, _tables.CodedIds):
        assert coded.codes.dtype == np.int32
        assert coded.ids[coded.codes].tolist() == values.tolist()
        assert sorted(coded.ids.tolist()) == sorted(set(values.tolist()))
    if numbered["factorized"] and numbered["factorized"][0] is not None:
        codes, ids = pd.factorize(values)
        np.testing.assert_array_equal(numbered["factorized"][0].codes, codes)
        assert numbered["factorized"][0].ids.tolist() == ids.tolist()
    as_read = run["query_id"].astype(str)
    if query_ids == "with an int":
        as_read = as_read.replace("q7", "7")
    expected = ek.evaluate(qrels, run.assign(query_id=as_read), LABELS)
    assert "7" not in ours.index and ("q7" in ours.index) == (query_ids == "str")
    pd.testing.assert_frame_equal(ours.sort_index(), expected.loc[ours.index].sort_index())


@pytest.mark.parametrize("prefixed", [False, True])
@pytest.mark.parametrize("seed", range(20))
def test_placing_classes_gives_the_classes_of_the_full_tie_order(seed, prefixed):
    # _place_classes places only the rows outside the commonest class of tied blocks: the
    # class at every position is the one the full doc_id order (_break_ties) gives; also
    # when the names' first 16 bytes (prefixed) decide the comparisons where they differ.
    # On odd seeds many names share their first 16 bytes, or differ only past them, or by
    # a NUL byte, which the numbers cannot tell apart.
    from evalkit.trec import _ordering

    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 400))
    names = np.array([f"d{i}é" if i % 3 else f"d{i}" for i in rng.permutation(4 * n)[:n]],
                     dtype=object)
    if seed % 2:
        names[::2] = [f"clueweb09-en0000-{i}" for i in rng.permutation(4 * n)[: names[::2].size]]
        names[1::5] = [f"d{i}" + "\0" * int(rng.integers(0, 3)) for i in range(names[1::5].size)]
    classes = rng.choice([0, 0, 0, 0, 1, 2], size=n) if seed % 4 else rng.integers(0, 3, n)
    # Ties: consecutive positions that tie with the next, in blocks of random length.
    pairs = np.flatnonzero(rng.random(n - 1) < rng.uniform(0.3, 0.95))
    order = None if seed % 3 else rng.permutation(n)
    prefix = _hashing.object_hashes_and_prefixes(names)[1] if prefixed else None
    placed = _ordering._place_classes(order, pairs, names, lambda rows: classes[rows], prefix)
    full_positions, full_rows = _ordering._break_ties(order, pairs, names)
    if placed is None:  # too many comparisons (long blocks of mixed classes): it sorts
        placed = _ordering._place_classes(order, pairs[pairs < 8], names,
                                          lambda rows: classes[rows], prefix)
        full_positions, full_rows = _ordering._break_ties(order, pairs[pairs < 8], names)
        assert placed is not None or (pairs < 8).sum() > 4
        if placed is None:
            return
    positions, rows = placed
    assert positions.tolist() == full_positions.tolist()
    assert classes[rows].tolist() == classes[full_rows].tolist()
    assert sorted(rows.tolist()) == sorted(full_rows.tolist())


@pytest.mark.parametrize("storage", STORAGES)
@pytest.mark.parametrize("order", ["ranked", "interleaved", "reversed"])
def test_qrels_in_every_storage_and_order_give_the_plain_values(storage, order):
    # The qrels' query ids are looked up a block of equal neighbours at a time; a qrels
    # table whose judgements are not grouped by query (rows interleaved) must give the same
    # values, its queries in the order of their first judgement.
    qrels, run = collection(11, n_queries=9, shared=True)
    moved = as_storage(reorder(qrels, order, 5), storage)
    ours = ek.evaluate(moved, run, LABELS)
    first_seen = pd.unique(moved["query_id"].to_numpy(dtype=object))
    expected = ek.evaluate(qrels, run, LABELS).loc[[q for q in first_seen
                                                    if q in set(run["query_id"])]]
    assert ours.index.tolist() == expected.index.tolist()
    pd.testing.assert_frame_equal(ours, expected)


def test_whole_number_doc_ids_among_str_ones_in_the_qrels():
    # An object column mixing str and int doc_ids: the ints are read as their decimal text.
    qrels = pd.DataFrame({"query_id": ["1", "1", "2"],
                          "doc_id": pd.Series(["a", 7, 7], dtype=object),
                          "relevance": [1, 1, 1]})
    run = pd.DataFrame({"query_id": ["1", "1", "2", "2"], "doc_id": ["x", "7", "7", "a"],
                        "score": [4.0, 3.0, 2.0, 1.0]})
    scores = ek.evaluate(qrels, run, ["RR", "num_rel_ret"])
    assert scores["RR"].tolist() == [0.5, 1.0]
    assert scores["num_rel_ret"].tolist() == [1, 1]


@pytest.mark.parametrize("closer", [True, False])
def test_whole_number_doc_ids_in_an_interleaved_run(small_pieces, monkeypatch, closer):
    # An interleaved run whose ids are hashed piece by piece in query order (closer) or as
    # stored, a chunk at a time as their keys are scattered (here in chunks of 3, on two
    # threads): an int among the str doc_ids is read as its decimal text either way.
    from evalkit import _threads

    monkeypatch.setattr(evaluation, "_closer_in", lambda doc, order: closer)
    monkeypatch.setattr(_ordering, "_LOOKUP_CHUNK", 3)
    monkeypatch.setattr(_threads, "_BOTH_MIN", 1)
    qrels = pd.DataFrame({"query_id": ["1"] * 3 + ["2"] * 3, "doc_id": ["a", "7", "c"] * 2,
                          "relevance": [1, 1, 0, 0, 1, 1]})
    doc_id = pd.Series(["a", 7, "x", "c", "7", "y", "z", "a", "b", "c"], dtype=object)
    run = pd.DataFrame({"query_id": ["1", "2", "1", "2", "1", "2", "1", "2", "2", "1"],
                        "doc_id": doc_id, "score": np.arange(10.0, 0.0, -1.0)})
    as_text = run.assign(doc_id=doc_id.astype(str))
    labels = ["AP", "RR", "NumRelRet", "NumRet"]
    pd.testing.assert_frame_equal(ek.evaluate(qrels, run, labels),
                                  ek.evaluate(qrels, as_text, labels))
    assert ek.evaluate(qrels, run, labels)["NumRet"].tolist() == [5, 5]


@pytest.mark.parametrize("column", ["query_id", "doc_id"])
@pytest.mark.parametrize("missing", [None, pd.NA, np.nan])
def test_a_missing_id_in_the_qrels_is_named(column, missing):
    qrels, run = collection(4)
    values = np.array(stored(qrels[column], "object copies").to_numpy(), dtype=object)
    values[len(values) // 2] = missing
    qrels[column] = pd.Series(values, dtype=object)
    with pytest.raises(ValueError, match=rf"qrels\['{column}'\] is missing .* in row "
                                         rf"{len(values) // 2}"):
        ek.evaluate(qrels, run, ["AP"])


@pytest.mark.parametrize("order", ["interleaved", "reversed"])
def test_a_run_out_of_query_order_is_ranked_alike_by_either_sort(monkeypatch, order):
    # A run whose queries are not together is put back in order by one sort of keys of
    # query, score and row where they fit (_by_query_and_score), else by a stable sort by
    # query and a sort per piece: both give the oracle's values.
    from evalkit.trec import _ordering

    qrels, run = collection(5, n_queries=40)
    shuffled = reorder(run, order, 3)
    expected = oracle(qrels, run, LABELS)
    keyed = ek.evaluate(qrels, shuffled, LABELS)
    monkeypatch.setattr(_ordering, "_SCORE_BITS", 64)  # no key fits
    assert _ordering._by_query_and_score(np.array([0, 1]), np.array([1.0, 2.0])) is None
    sorted_twice = ek.evaluate(qrels, shuffled, LABELS)
    pd.testing.assert_frame_equal(keyed, sorted_twice)
    np.testing.assert_allclose(keyed.to_numpy(float),
                               expected.loc[keyed.index, LABELS].to_numpy(float), atol=1e-9)


@pytest.mark.parametrize("storage", ["object", "object copies", "pyarrow"])
@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("seed", range(3))
def test_an_interleaved_run_ranked_whole_scores_as_one_ranked_by_pieces(monkeypatch, seed,
                                                                        threads, storage):
    # An interleaved run's rows are ranked by one sort of the whole run (_ranked_whole) where
    # numpy's long sorts are fast, else counted by query and each query's rows ranked in the
    # pieces: the same values, tied scores averaged (which reads the scores in rank order)
    # and on condensed lists too, on one thread or two, in pieces of a few queries, and
    # those of the rows grouped.
    from evalkit import _sorting, _threads
    from evalkit.trec import _ordering

    monkeypatch.setenv("EVALKIT_THREADS", threads)
    monkeypatch.setattr(_threads, "_BOTH_MIN", 1)
    monkeypatch.setattr(_sorting, "_radix_wins", lambda: False)
    monkeypatch.setattr(evaluation, "_PIECE", 40)  # pieces of a few queries each
    qrels, run = collection(seed, n_queries=30)
    labels = ["AP", "nDCG(ties=average)@10", "nDCG@10", "P@5", "Bpref", "NumRet"]
    mixed = as_storage(reorder(run, "interleaved", seed), storage)
    qrels = as_storage(qrels, storage)
    whole = []
    spy = _ordering._ranked_whole
    monkeypatch.setattr(_ordering, "_ranked_whole",
                        lambda *args: whole.append(spy(*args)) or whole[-1])
    ranked = [ek.evaluate(qrels, mixed, labels),
              ek.evaluate(qrels, mixed, labels[:3], judged_only=False),
              ek.evaluate(qrels, mixed, ["AP", "P@5"], judged_only=True)]
    assert whole and all(order is not None for order in whole)
    monkeypatch.setattr(_ordering, "_ranked_whole", lambda *args: None)
    by_pieces = [ek.evaluate(qrels, mixed, labels),
                 ek.evaluate(qrels, mixed, labels[:3], judged_only=False),
                 ek.evaluate(qrels, mixed, ["AP", "P@5"], judged_only=True)]
    grouped = ek.evaluate(qrels, run, labels)
    for got, expected in zip(ranked, by_pieces, strict=True):
        pd.testing.assert_frame_equal(got, expected)
    pd.testing.assert_frame_equal(ranked[0], grouped, check_index_type=False)


@pytest.mark.parametrize("counting", [True, False])
@pytest.mark.parametrize("n_queries", [1, 7, 2**16 + 5])
def test_rows_grouped_by_query_keep_their_order_within_a_query(monkeypatch, counting,
                                                               n_queries):
    # pandas' counting sort and numpy's radix sorts (16 bits, or twice for wider numbers)
    # give the stable order, and each query's rows counted.
    from evalkit.trec import _ordering

    if not counting:
        monkeypatch.setattr(_ordering, "_counting_sort", lambda: None)
    else:
        assert _ordering._counting_sort() is not None  # pandas 2.2-3.x have it
    code = np.random.default_rng(n_queries).integers(0, n_queries, 50_000).astype(np.int32)
    for rows in (code, code[:0], code[:1]):
        order, counts = _ordering._by_query(rows, n_queries)
        np.testing.assert_array_equal(order, np.argsort(rows, kind="stable"))
        assert counts.shape == (n_queries,)
        np.testing.assert_array_equal(counts, np.bincount(rows, minlength=n_queries))


def test_only_interleaved_rows_of_judged_queries_are_ordered_ahead():
    # evaluate counts the rows by query beside the qrels' join only when every row's query
    # is judged and the numbers change at least as often as there are queries (more blocks
    # than queries: what _judged_run would sort); then the order is _by_query's.
    from evalkit.trec import _ordering

    rng = np.random.default_rng(3)
    mixed = rng.integers(0, 5, 200).astype(np.int32)
    order, counts, tied = _ordering._interleaved_order(mixed, 5)
    np.testing.assert_array_equal(order, np.argsort(mixed, kind="stable"))
    np.testing.assert_array_equal(counts, np.bincount(mixed, minlength=5))
    assert tied is None  # each query's rows are ranked in the pieces
    grouped = np.sort(mixed)
    assert _ordering._interleaved_order(grouped, 5) is None  # 4 changes, 5 blocks
    five_changes = np.repeat(np.array([0, 1, 0, 1, 0, 1], dtype=np.int32), 3)
    assert _ordering._interleaved_order(five_changes, 5) is not None  # 6 blocks > 5 queries
    assert _ordering._interleaved_order(five_changes[:-3], 5) is None  # 5 blocks
    unjudged = mixed.copy()
    unjudged[7] = -1
    assert _ordering._interleaved_order(unjudged, 5) is None
    assert _ordering._interleaved_order(mixed[:0], 5) is None


@pytest.mark.parametrize("storage", [object, "arrow"])
@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("seed", range(4))
def test_interleaved_rows_counted_beside_the_qrels_join_score_as_grouped(monkeypatch, seed,
                                                                         threads, storage):
    # On two threads an interleaved run of object query ids, every query judged, is counted
    # by query while the qrels are joined: the values of the same rows grouped by query.
    # Arrow ids (their query ids numbered on both threads) are ranked whole there instead,
    # while the qrels are joined (see the test below); one thread orders the rows later.
    from evalkit import _sorting, _threads
    from evalkit.trec import _ordering

    if storage == "arrow":
        pytest.importorskip("pyarrow")
    monkeypatch.setenv("EVALKIT_THREADS", threads)
    monkeypatch.setattr(_threads, "_BOTH_MIN", 1)
    monkeypatch.setattr(_sorting, "_radix_wins", lambda: False)
    qrels, run = collection(seed, n_queries=30)
    run = run[run["query_id"].isin(qrels["query_id"])].reset_index(drop=True)
    kind = object if storage is object else pd.StringDtype("pyarrow")
    run = run.astype({"query_id": kind, "doc_id": kind})
    expected = ek.evaluate(qrels, run, LABELS)
    mixed = run.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    counted = []
    spy = _ordering._interleaved_order
    monkeypatch.setattr(evaluation, "_interleaved_order",
                        lambda *args: counted.append(spy(*args)) or counted[-1])
    pd.testing.assert_frame_equal(ek.evaluate(qrels, mixed, LABELS), expected)
    early = threads == "2"
    assert len(counted) == early and all(order is not None for order in counted)
    assert all((order.tied is not None) == (storage == "arrow") for order in counted)


@pytest.mark.parametrize("judged", ["every query", "some queries"])
@pytest.mark.parametrize("storage", ["object copies", "pyarrow"])
@pytest.mark.parametrize("seed", range(3))
def test_interleaved_rows_ranked_while_their_ids_are_hashed_score_as_grouped(
        monkeypatch, seed, storage, judged):
    # On two threads, an interleaved run whose doc_ids are hashed as stored (arrow ids, or
    # objects made in stored order) is ranked whole on one thread while the other joins the
    # qrels and hashes its doc_ids: the values of the same rows grouped, and of one thread.
    # Rows of unjudged queries are dropped afterwards, their hashes with them; a doc_id
    # that is not a str (a whole number) gives up the hashes made and is read as a str.
    from evalkit import _sorting, _threads
    from evalkit.trec import _tables

    monkeypatch.setenv("EVALKIT_THREADS", "2")
    monkeypatch.setattr(_threads, "_BOTH_MIN", 1)
    monkeypatch.setattr(_sorting, "_radix_wins", lambda: False)
    # Object query ids are numbered per row (not in blocks) from this many rows; objects
    # are hashed as stored when they lie near each other as stored, which depends on where
    # the allocator put them (see the next test): taken as so.
    monkeypatch.setattr(_tables, "_REPEATS_SAMPLE", 128)
    monkeypatch.setattr(evaluation, "_read_as_stored", lambda doc: True)
    qrels, run = collection(seed, n_queries=30, shared=False)
    if judged == "every query":
        run = run[run["query_id"].isin(qrels["query_id"])].reset_index(drop=True)
    labels = ["AP", "nDCG(ties=average)@10", "nDCG@10", "P@5", "Bpref", "NumRet"]
    expected = ek.evaluate(qrels, run, labels)
    mixed = as_storage(reorder(run, "interleaved", seed), storage)
    made = []
    spy = evaluation._ids_read_as_stored
    monkeypatch.setattr(evaluation, "_ids_read_as_stored",
                        lambda *args: made.append(spy(*args)) or made[-1])
    pd.testing.assert_frame_equal(ek.evaluate(as_storage(qrels, storage), mixed, labels),
                                  expected, check_index_type=False)
    assert len(made) == 1 and made[0] is not None
    assert (made[0][1] is not None) == (storage == "pyarrow")  # the views, kept
    monkeypatch.setenv("EVALKIT_THREADS", "1")
    pd.testing.assert_frame_equal(ek.evaluate(as_storage(qrels, storage), mixed, labels),
                                  expected, check_index_type=False)
    assert len(made) == 1
    if storage == "object copies":  # a whole number among the doc_ids: no hashes
        monkeypatch.setenv("EVALKIT_THREADS", "2")
        numbered = mixed.copy()
        numbered["doc_id"] = numbered["doc_id"].astype(object)
        first_doc = numbered.loc[0, "doc_id"]
        numbered.loc[numbered["doc_id"] == first_doc, "doc_id"] = 12345
        numbered["doc_id"] = pd.Series([d if isinstance(d, int) else d.encode().decode()
                                        for d in numbered["doc_id"]], dtype=object)
        qrels_numbered = qrels.replace({"doc_id": {first_doc: "12345"}})
        ours = ek.evaluate(qrels_numbered, numbered, labels)
        assert len(made) == 2 and made[1] is None
        monkeypatch.setenv("EVALKIT_THREADS", "1")
        pd.testing.assert_frame_equal(ours, ek.evaluate(qrels_numbered, numbered, labels))


def test_doc_ids_are_hashed_as_stored_unless_their_objects_lie_nearer_in_another_order():
    from evalkit.trec._tables import ArrowIds

    # Objects in the order they lie in memory (as ids read from a file row by row most
    # often are) are hashed as stored; shuffled, in whatever order the rows are ranked.
    rng = np.random.default_rng(0)
    made = [("".join(["doc-", str(i)])) for i in range(5000)]
    made = np.array(sorted(made, key=id), dtype=object)
    assert evaluation._read_as_stored(made)
    assert not evaluation._read_as_stored(made[rng.permutation(made.size)])
    assert not evaluation._read_as_stored(np.repeat(made[:50], 2000))  # objects recur
    assert evaluation._read_as_stored(np.array([7, 8, 9]))  # not objects
    pa = pytest.importorskip("pyarrow")
    assert evaluation._read_as_stored(ArrowIds(pa.array(made[::-1].tolist())))


@pytest.mark.parametrize("chunk", [4, 1 << 16])
@pytest.mark.parametrize("scatter", [False, True])
@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("n", [0, 1, 2, 7, 1_001])
def test_columns_are_put_in_query_order_on_one_thread_or_several(monkeypatch, threads, n,
                                                                  scatter, chunk):
    # An interleaved run's scores, keys and object references are put in query order:
    # gathered half a column at a time (an object array's run), or, for the columns of an
    # arrow run (the caller keeps the order), scattered to each row's place a chunk at a
    # time (the rows split between two threads where there are several, at a chunk's end)
    # or gathered on several threads. Each equals the column gathered at once, and a
    # missing column stays missing; chunks of 4 rows end inside the run. A column made a
    # chunk at a time (the keys of ids hashed as stored) is made once, chunk by chunk,
    # whichever way it is then moved.
    from evalkit import _threads

    monkeypatch.setattr(_threads, "_BOTH_MIN", 1)
    monkeypatch.setattr(_ordering, "_LOOKUP_CHUNK", chunk)
    monkeypatch.setenv("EVALKIT_THREADS", threads)
    rng = np.random.default_rng(n)
    code = rng.integers(0, 5, n)
    by_query = np.argsort(code, kind="stable")
    columns = {"score": rng.random(n), "keys": rng.integers(0, 2**63, n).astype(np.uint64),
               "doc": np.arange(n, dtype=np.intp) * 16 + 3, "none": None}
    gathered = _ordering._in_query_order(by_query, columns, scatter=scatter)
    assert gathered["none"] is None
    for name in ("score", "keys", "doc"):
        assert gathered[name].dtype == columns[name].dtype
        np.testing.assert_array_equal(gathered[name], columns[name][by_query])
    stored, made = rng.integers(0, 2**63, n).astype(np.uint64), []
    columns["made"] = _ordering.ChunkMade(lambda start, stop: made.append((start, stop))
                                          or stored[start:stop] + np.uint64(0),
                                          np.dtype(np.uint64))
    gathered = _ordering._in_query_order(by_query, columns, scatter=scatter)
    assert sorted(made) == [(start, min(start + chunk, n)) for start in range(0, n, chunk)]
    assert gathered["made"].dtype == np.uint64
    np.testing.assert_array_equal(gathered["made"], stored[by_query])
    np.testing.assert_array_equal(gathered["keys"], columns["keys"][by_query])


@pytest.mark.parametrize("chunk", [1, 3, 1 << 16])
@pytest.mark.parametrize("n", [0, 1, 5, 1_000])
def test_places_invert_the_query_order(monkeypatch, n, chunk):
    # Each row's place in by_query, made a chunk at a time, is the inverse permutation:
    # int32 (half the memory of intp) for any run under 2**31 rows.
    monkeypatch.setattr(_ordering, "_LOOKUP_CHUNK", chunk)
    by_query = np.random.default_rng(n).permutation(n)
    place = _ordering._places(by_query)
    assert place.dtype == np.int32
    np.testing.assert_array_equal(place, np.argsort(by_query))
    np.testing.assert_array_equal(place[by_query], np.arange(n))


@pytest.mark.parametrize("sample", [3, 1 << 14])
@pytest.mark.parametrize("layout", ["grouped", "interleaved", "grouped, then interleaved",
                                    "short queries first"])
@pytest.mark.parametrize("threads", ["1", "2"])
def test_arrow_query_blocks_on_every_layout(monkeypatch, sample, layout, threads):
    # An arrow query column is read as blocks (with their starts) or kept whole, one id per
    # row (looked up in quarters with several threads), told from its first rows, then from
    # all of them: either way each row gets its id, and its query's number.
    pa = pytest.importorskip("pyarrow")
    from evalkit.trec import _tables

    monkeypatch.setattr(_tables, "_BLOCKS_SAMPLE", sample)
    monkeypatch.setenv("EVALKIT_THREADS", threads)
    rng = np.random.default_rng(len(layout))
    grouped = np.repeat([f"q{i}" for i in range(40)], 500)
    ids = {"grouped": grouped, "interleaved": rng.permutation(grouped),
           "grouped, then interleaved": np.r_[grouped[:10_000], rng.permutation(grouped[10_000:])],
           "short queries first": np.r_[[f"s{i}" for i in range(2_000)], grouped]}[layout]
    blocks, starts = _tables._arrow_blocks(pa.array(ids))
    if starts is None:
        assert isinstance(blocks, _tables.ArrowIds) and len(blocks) == ids.size
        rows = np.asarray(blocks, dtype=object)
    else:
        rows = np.repeat(np.asarray(blocks[np.arange(starts.size)], dtype=object),
                         np.diff(np.r_[starts, ids.size]))
    assert rows.tolist() == ids.tolist()
    assert (starts is None) == (layout != "grouped")
    queries = pd.Index([f"q{i}" for i in range(0, 40, 3)] + ["s7", "absent"])
    codes = evaluation._run_query_codes(blocks, starts, ids.size, queries)
    np.testing.assert_array_equal(codes, queries.get_indexer(ids))


@pytest.mark.parametrize("large", [False, True])
@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("seed", range(6))
def test_arrow_rows_are_found_among_the_names_as_python_finds_them(monkeypatch, large,
                                                                   threads, seed):
    # Each arrow id's row among the names, -1 where none equals it: as pandas' get_indexer
    # finds it on the same ids as str, on short, long, unicode and absent ids; a name arrow
    # cannot hold (a lone surrogate) equals no id and moves no other name's row.
    pa = pytest.importorskip("pyarrow")
    from evalkit.trec import _tables

    monkeypatch.setenv("EVALKIT_THREADS", threads)
    rng = np.random.default_rng(seed)
    pool = np.array([f"q{i}" for i in range(50)] + ["", "é", "é", "q1 ", "Q1", "\u4e2d\u6587",
                     "x" * 40, "x" * 39 + "y", "\U0001f600"], dtype=object)
    ids = pool[rng.integers(0, pool.size, 70_000 if seed % 2 else 300)]
    names = pd.unique(pool[rng.random(pool.size) < 0.6])
    if seed % 3 == 0:
        names = np.r_[names[:3], ["bad\ud800"], names[3:]].astype(object)
    array = pa.array(ids.tolist(), type=pa.large_string() if large else pa.string())
    found = _tables.arrow_rows_in(array, names)
    assert found.dtype == np.int32
    np.testing.assert_array_equal(found, pd.Index(names, dtype=object).get_indexer(ids))


@pytest.mark.parametrize("route", ["views", "collide", "many names", "long id",
                                   "long ids, short names"])
@pytest.mark.parametrize("large", [False, True])
@pytest.mark.parametrize("threads", ["1", "2"])
def test_short_arrow_ids_are_found_from_their_string_views(monkeypatch, route, large, threads):
    # Ids of at most 12 bytes are numbered from their string views (two words each, hashed
    # to a slot of the names' table and compared whole): the rows pandas' get_indexer
    # finds on the same ids as str, for empty, 12-byte, unicode, NUL-holding and absent ids,
    # in a sliced array, against names longer than 12 bytes or that arrow cannot hold. When
    # the names collide in every table tried, are too many, or an id is longer while a name
    # is too, index_in. Ids longer than 12 bytes against names that all fit their views
    # (one holding a name's 12 bytes and one more) are found from the views, in no name.
    pa = pytest.importorskip("pyarrow")
    from evalkit import _threads
    from evalkit.trec import _tables

    monkeypatch.setenv("EVALKIT_THREADS", threads)
    monkeypatch.setattr(_tables, "_VIEW_CHUNK", 1_000)  # chunks ending inside each half
    monkeypatch.setattr(_tables, "_VIEW_CHUNK_ALONE", 700)
    monkeypatch.setattr(_threads, "_BOTH_MIN", 1)
    if route == "collide":
        monkeypatch.setattr(_tables, "_MULTIPLIERS", np.zeros(16, dtype=np.uint64))
    if route == "many names":
        monkeypatch.setattr(_tables, "_VIEW_NAMES", 10)
    rng = np.random.default_rng(7)
    pool = np.array([f"q{i}" for i in range(60)] + [
        "", "é", "q1 ", "Q1", "\u4e2d\u6587", "\U0001f600", "a\0b", "\0", "x" * 12,
        "x" * 11 + "y", "é" * 6, "abcd", "abcd" + "\0" * 8], dtype=object)
    ids = pool[rng.integers(0, pool.size, 20_000)]
    ids[::97] = "abcd9999"  # the first name's length and first 4 bytes, not its last 4
    if route.startswith("long id"):
        ids[17] = "x" * 13
    if route == "long ids, short names":
        ids[18], ids[19], ids[20] = "x" * 12 + "\0", "abcd1234" + "z" * 5, "é" * 7
    names = np.r_[["abcd1234"], pd.unique(pool[rng.random(pool.size) < 0.7]),
                  [] if route == "long ids, short names" else ["x" * 13, "bad\ud800", "y" * 40]
                  ].astype(object)
    array = pa.array(["pad"] + ids.tolist(), type=pa.large_string() if large else pa.string())
    array = array.slice(1)  # an offset into the buffers
    taken = []
    short_rows_in = _tables._short_rows_in
    monkeypatch.setattr(_tables, "_short_rows_in",
                        lambda *args: taken.append(short_rows_in(*args)) or taken[-1])
    found = _tables.arrow_rows_in(array, names)
    assert (taken[0] is not None) == (route in ("views", "long ids, short names"))
    assert found.dtype == np.int32
    np.testing.assert_array_equal(found, pd.Index(names, dtype=object).get_indexer(ids))


@pytest.mark.parametrize("large", [False, True])
def test_the_views_of_a_slice_are_those_of_its_strings(large):
    # A slice is cast as an array of its own (a slice's cast is slower the further in it
    # starts): the same views as its strings copied, wherever the slice starts (a long
    # string's first word, its length and first bytes; where its bytes lie is arrow's).
    pa = pytest.importorskip("pyarrow")
    from evalkit._arrow_strings import string_views

    ids = [f"d{i}" if i % 3 else f"a-longer-document-{i}" for i in range(1000)]
    array = pa.array(ids, type=pa.large_string() if large else pa.string())
    if string_views(array) is None:
        pytest.skip("this pyarrow has no string_view")
    for start, length in ((0, 1000), (1, 999), (500, 37), (999, 1), (1000, 0)):
        part = array.slice(start, length)
        views = string_views(part)
        copied = pa.array(ids[start : start + length], type=array.type)
        short = views[:, 0] & 0xFFFFFFFF <= 12
        np.testing.assert_array_equal(views[short], string_views(copied)[short])
        np.testing.assert_array_equal(views[:, 0], string_views(copied)[:, 0])


# Any character UTF-8 can encode (hypothesis 6.80, the floor, has no exclude_categories).
NOT_SURROGATE = st.characters(max_codepoint=0xD7FF) | st.characters(min_codepoint=0xE000)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.text(NOT_SURROGATE, max_size=4), min_size=1, max_size=40, unique=True),
       st.integers(0, 2**32 - 1))
def test_short_arrow_ids_found_as_python_finds_them(pool, seed):
    # Any text of at most 12 bytes (4 characters of up to 3 bytes, or 3 of 4): the
    # numbering from the views is get_indexer's, whichever names are asked.
    pa = pytest.importorskip("pyarrow")
    from evalkit.trec import _tables

    rng = np.random.default_rng(seed)
    pool = np.array([text for text in pool if len(text.encode()) <= 12] or [""], dtype=object)
    ids = pool[rng.integers(0, pool.size, 500)]
    names = pool[rng.random(pool.size) < 0.5]
    found = _tables._short_rows_in(pa.array(ids.tolist(), type=pa.string()),
                                   pa.array(names.tolist(), type=pa.string()))
    np.testing.assert_array_equal(found, pd.Index(names, dtype=object).get_indexer(ids))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64", "float32", "float64", "Int64"])
def test_grades_of_every_whole_number_dtype_give_the_same_values(dtype):
    # Integer grades are taken as they are; float and nullable ones are checked to be
    # whole numbers first: the same grades, the same values, whatever the column's dtype.
    qrels, run = collection(8, n_queries=20)
    qrels = qrels.assign(relevance=qrels["relevance"].abs())  # uint8 holds no -1
    expected = ek.evaluate(qrels, run, LABELS)
    typed = qrels.assign(relevance=qrels["relevance"].astype(dtype))
    pd.testing.assert_frame_equal(ek.evaluate(typed, run, LABELS), expected)
    if dtype.startswith(("float", "Int")):
        half = typed.assign(relevance=typed["relevance"].astype("float64") / 2)
        with pytest.raises(ValueError, match="whole numbers"):
            ek.evaluate(half, run, LABELS)


def test_ids_are_hashed_in_rank_order_when_their_objects_lie_so_in_memory():
    made = np.array([f"doc{i}" * 2 for i in range(5000)], dtype=object)  # made in rank order
    rng = np.random.default_rng(0)
    shuffled = rng.permutation(made.size)
    ids = made[shuffled]  # the rows shuffled, the objects where they were made
    ranked = np.argsort(shuffled)  # ids[ranked] is made: in memory order
    assert evaluation._in_rank_order(ids, ranked, None)
    assert not evaluation._in_rank_order(made, shuffled, None)  # stored is in memory order
    # Reordered ids (an interleaved run taken in query order): against that order.
    by_query = rng.permutation(made.size)
    assert evaluation._in_rank_order(made, np.arange(made.size), by_query)
    assert not evaluation._in_rank_order(made, by_query, np.arange(made.size))


@pytest.mark.parametrize("qrels_storage", ["pyarrow", "pyarrow chunked", "arrow dtype", "object"])
@pytest.mark.parametrize("run_storage", ["pyarrow", "pyarrow chunked", "object"])
def test_qrels_and_run_in_any_mix_of_arrow_and_object_storage(small_pieces, qrels_storage,
                                                             run_storage):
    # Ids kept in arrow on both sides are confirmed in arrow (string against large_string
    # included); a mix compares them as str. The qrels' query ids (blocks compared in arrow
    # when stored there) are grouped or not, and so are the run's.
    for unicode in (False, True):
        qrels, run = collection(21, n_queries=9, unicode=unicode)
        qrels = qrels.assign(query_id=qrels["query_id"] + ("-ü" if unicode else ""))
        run = run.assign(query_id=run["query_id"] + ("-ü" if unicode else ""))
        expected = ek.evaluate(as_storage(qrels, "object"), as_storage(run, "object"), LABELS)
        for order in ORDERS:
            ours = ek.evaluate(as_storage(reorder(qrels, order, 3), qrels_storage),
                               as_storage(reorder(run, order, 5), run_storage), LABELS)
            pd.testing.assert_frame_equal(ours.sort_index(), expected.sort_index(),
                                          check_index_type=False, obj=order)


def _peak_bytes(qrels: pd.DataFrame, run: pd.DataFrame) -> int:
    """The most memory (traced: numpy's arrays and Python's objects) evaluate held at once,
    after a first call (imports and caches made)."""
    import tracemalloc

    ek.evaluate(qrels, run, ["AP", "nDCG@10"])
    tracemalloc.start()
    try:
        ek.evaluate(qrels, run, ["AP", "nDCG@10"])
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(("storage", "most"), [("object", 1.9), ("pyarrow", 1.9)])
def test_an_interleaved_run_holds_little_more_memory_than_a_grouped_one(monkeypatch, storage,
                                                                       most):
    # Ranking an interleaved run gathers its columns in query order: what the gathers read
    # (and the rows' query numbers, which the caller of _judged_run hands over) is let go of
    # as soon as it is read, so that memory freed is reused rather than new memory touched.
    # Here (10^5 rows, one thread) the interleaved run's peak was 2.2x (objects) and 1.22x
    # (arrow) the grouped run's when they were held to the end, 1.65x and 1.06x let go of.
    # Since short arrow ids are hashed from their views, whose temporaries are smaller, the
    # arrow grouped run's peak is the objects' (6.9 MB before, 4.8 MB now): the arrow
    # interleaved run's was 7.2 MB, 1.50x that (held to the end, 8.4 MB: 1.75x). It now
    # keeps its ids' string views (16 bytes a row, made to hash them) to confirm its matches
    # on in query order, where reading the ids again jumps through the whole run: 8.8 MB,
    # 1.83x (a grouped run's views, a piece's at a time, are arrow's memory, not traced).
    monkeypatch.setenv("EVALKIT_THREADS", "1")
    rng = np.random.default_rng(0)
    n_queries, depth = 200, 500
    run = pd.DataFrame({
        "query_id": np.repeat(np.array([f"q{i}" for i in range(n_queries)], dtype=object),
                              depth),
        "doc_id": np.array([f"d{i}" for i in range(n_queries * depth)], dtype=object),
        "score": rng.random(n_queries * depth)})
    qrels = run.iloc[rng.permutation(len(run))[: len(run) // 10]][["query_id", "doc_id"]]
    qrels = qrels.sort_values("query_id", kind="stable").assign(
        relevance=rng.integers(0, 3, len(qrels)))
    interleaved = run.iloc[rng.permutation(len(run))].reset_index(drop=True)
    grouped, interleaved = as_storage(run, storage), as_storage(interleaved, storage)
    pd.testing.assert_frame_equal(ek.evaluate(qrels, interleaved, ["AP", "nDCG@10"]),
                                  ek.evaluate(qrels, grouped, ["AP", "nDCG@10"]))
    assert _peak_bytes(qrels, interleaved) <= most * _peak_bytes(qrels, grouped)


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("storage", ["object", "pyarrow", "python"])
def test_qrels_and_run_prepared_side_by_side(monkeypatch, threads, storage):
    # The qrels' pairs are hashed and tabled while the run's rows' queries are numbered, on
    # two threads (here at any size): the same values on every order, the qrels' error
    # raised (a pair judged twice) whatever the run, and the qrels' whole-number doc_ids
    # read as their text there too.
    from evalkit import _threads

    monkeypatch.setattr(_threads, "_BOTH_MIN", 1)
    monkeypatch.setenv("EVALKIT_THREADS", threads)
    qrels, run = collection(8, n_queries=7)
    expected = ek.evaluate(qrels, run, LABELS)
    for order in ORDERS:
        ours = ek.evaluate(as_storage(qrels, storage), as_storage(reorder(run, order, 2), storage),
                           LABELS)
        pd.testing.assert_frame_equal(ours.sort_index(), expected.sort_index(),
                                      check_index_type=False, obj=order)
        twice = pd.concat([qrels, qrels.iloc[[0]]], ignore_index=True)
        with pytest.raises(ValueError, match="judged twice"):
            ek.evaluate(as_storage(twice, storage), as_storage(reorder(run, order, 2), storage),
                        LABELS)
    numbered = pd.DataFrame({"query_id": ["q0", "q0", "q1"], "doc_id": [7, "d1", 7],
                             "relevance": [1, 0, 2]})
    small = pd.DataFrame({"query_id": ["q0", "q1", "q0"], "doc_id": ["7", "7", "d1"],
                          "score": [3.0, 2.0, 1.0]})
    scores = ek.evaluate(numbered, small, ["AP", "RR"])
    assert scores.loc["q0"].tolist() == [1.0, 1.0] and scores.loc["q1"].tolist() == [1.0, 1.0]
