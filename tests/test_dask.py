"""ek.evaluate with a dask DataFrame run: the pandas result, on every dask scheduler.

Oracle: the in-memory ``ek.evaluate`` on the same (pandas) run, compared with
``assert_frame_equal`` (values, dtypes, index order) on seeded random collections whose runs
are cut into partitions anywhere, queries straddling partitions, on the synchronous and
threaded schedulers and on a distributed LocalCluster; plus hand-computed numbers.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

import evalkit as ek

dd = pytest.importorskip("dask.dataframe", reason="dask[dataframe] is not installed "
                         "(pip install 'evalkit[dask]'): the dask path cannot be tested")
dask = pytest.importorskip("dask")

METRIC_LISTS = [
    ["AP", "nDCG@10", "P@5", "RR", "NumRel", "NumRet", "NumRelRet"],
    ["map", "ndcg_cut_5", "recip_rank", "bpref", "Rprec", "recall_10", "iprec_at_recall_0.10"],
    ["nDCG(ties=average)@5", "DCG", "RBP(p=0.8)", "infAP", "success_1", "relstring.5"],
    ["set_F", "utility.1,-1,0,0", "Judged@5", "11pt_avg", "num_nonrel_judged_ret"],
]


def _collection(seed: int, *, n_queries: int = 12, n_docs: int = 25, interleaved: bool = False):
    """Random qrels and run: grades -1..3, judged queries without relevant documents,
    judged queries the run lacks, run queries the qrels lack, many tied scores, doc_ids shared
    by queries; the run grouped by query (ranked or not) or its rows interleaved."""
    rng = np.random.default_rng(seed)
    docs = np.array([f"d{i}" for i in range(n_docs)], dtype=object)
    qrels_rows, run_rows = [], []
    for q in rng.permutation(n_queries):
        query = f"q{q}"
        kind = rng.integers(0, 6)
        if kind != 0:  # kind 0: the qrels do not judge this query
            judged = rng.choice(n_docs, size=int(rng.integers(1, n_docs)), replace=False)
            grades = rng.choice([-1, 0, 0, 1, 2, 3], size=judged.size)
            if kind == 1:
                grades = np.minimum(grades, 0)  # judged, nothing relevant
            qrels_rows += [(query, docs[d], int(g)) for d, g in zip(judged, grades, strict=True)]
        if kind != 2:  # kind 2: the run lacks this judged query
            retrieved = rng.choice(n_docs, size=int(rng.integers(1, n_docs)), replace=False)
            scores = rng.integers(-2, 6, size=retrieved.size) / 4.0
            run_rows += [(query, docs[d], float(s)) for d, s in zip(retrieved, scores,
                                                                     strict=True)]
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    run["rank"] = np.arange(len(run))  # another column, ignored
    if interleaved:
        run = run.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    return qrels, run


def _cut_at_random_rows(run: pd.DataFrame, k: int, rng: np.random.Generator) -> list:
    cuts = np.sort(rng.choice(np.arange(1, len(run)), size=min(k - 1, len(run) - 1),
                              replace=False))
    return [run.iloc[a:b] for a, b in zip(np.r_[0, cuts], np.r_[cuts, len(run)], strict=True)]


def _dask_run(run: pd.DataFrame, how: str, k: int, seed: int):
    rng = np.random.default_rng(seed + 1000)
    if how == "from_pandas":
        return dd.from_pandas(run, npartitions=k, sort=False)
    pieces = _cut_at_random_rows(run, k, rng)
    if how == "from_delayed":
        return dd.from_delayed([dask.delayed(p) for p in pieces], meta=run.iloc[:0],
                               verify_meta=False)
    if how == "from_map":
        return dd.from_map(lambda piece: piece, pieces, meta=run.iloc[:0])
    raise AssertionError(how)


def _same(qrels, run, ddf, metrics, **options):
    expected = ek.evaluate(qrels, run, metrics, **options)
    got = ek.evaluate(qrels, ddf, metrics, **options)
    # Bit for bit: a query's values do not depend on the queries scored alongside it.
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    return expected


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
@pytest.mark.parametrize("seed", range(8))
def test_the_dask_result_is_the_pandas_result(seed, scheduler):
    qrels, run = _collection(seed, interleaved=seed % 3 == 0)
    how = ["from_pandas", "from_delayed", "from_map"][seed % 3]
    metrics = METRIC_LISTS[seed % len(METRIC_LISTS)]
    rows = 0
    with dask.config.set(scheduler=scheduler):
        for k in (1, 2, 3, 7, 16, 60):
            ddf = _dask_run(run, how, k, seed)
            for missing in ("ignore", "zero"):
                expected = _same(qrels, run, ddf, metrics, missing_queries=missing)
                rows += len(expected)
            if "nDCG(ties=average)@5" not in metrics:
                _same(qrels, run, ddf, metrics, judged_only=True, relevance_level=2,
                      trec_eval_version="10.0")
    assert rows > 0


def test_every_option_of_evaluate_gives_the_pandas_result():
    qrels, run = _collection(99, n_queries=30)
    ddf = dd.from_pandas(run, npartitions=5, sort=False)
    metrics = ["AP", "IPrec@0.3", "IPrecAvg", "nDCG@5", "P@3"]
    with dask.config.set(scheduler="sync"):
        for level in (0, 1, 2, 3.5, -1):
            for version in ("9.0.8", "10.0"):
                for judged_only in (False, True):
                    for missing in ("ignore", "zero"):
                        _same(qrels, run, ddf, metrics, relevance_level=level,
                              trec_eval_version=version, judged_only=judged_only,
                              missing_queries=missing)


def test_hand_computed_numbers_with_a_query_across_partitions():
    qrels = pd.DataFrame({"query_id": ["1", "1", "1", "2", "3"],
                          "doc_id": ["a", "b", "c", "a", "z"], "relevance": [2, 0, 1, 1, 1]})
    run = pd.DataFrame({"query_id": ["1", "2", "1", "2", "1", "4"],
                        "doc_id": ["b", "x", "a", "a", "x", "q"],
                        "score": [3.0, 5.0, 2.0, 4.0, 1.0, 1.0]})
    with dask.config.set(scheduler="sync"):
        got = ek.evaluate(qrels, dd.from_pandas(run, npartitions=3, sort=False),
                          ["AP", "P@2", "RR", "NumRel"], missing_queries="zero")
    # query 1 ranks b (0), a (2), x: AP = (1/2) / 2 relevant; query 2 ranks x, a (1): AP 1/2;
    # query 3 is judged, not retrieved: zeros and NumRel 1; query 4 is not judged: left out.
    assert got.index.tolist() == ["1", "2", "3"]
    np.testing.assert_array_equal(got["AP"], [0.25, 0.5, 0.0])
    np.testing.assert_array_equal(got["P@2"], [0.5, 0.5, 0.0])
    np.testing.assert_array_equal(got["RR"], [0.5, 0.5, 0.0])
    np.testing.assert_array_equal(got["NumRel"], [2, 1, 1])


@pytest.mark.parametrize("seed", range(4))
def test_a_run_indexed_by_query_with_known_divisions_is_not_shuffled(seed, monkeypatch):
    qrels, run = _collection(seed, n_queries=20)
    indexed = dd.from_pandas(run.set_index("query_id").sort_index(), npartitions=4, sort=True)
    assert indexed.known_divisions
    shuffled = []
    original = type(indexed).shuffle
    monkeypatch.setattr(type(indexed), "shuffle",
                        lambda self, *a, **k: shuffled.append(1) or original(self, *a, **k))
    with dask.config.set(scheduler="sync"):
        for missing in ("ignore", "zero"):
            _same(qrels, run, indexed, METRIC_LISTS[0], missing_queries=missing)
        assert not shuffled
        # Without known divisions the same run is shuffled, and still right.
        _same(qrels, run, indexed.clear_divisions(), METRIC_LISTS[0])
        assert shuffled


def test_int_ids_and_dask_qrels():
    qrels, run = _collection(5)
    as_int = {f"q{i}": i for i in range(100)}
    qrels["query_id"], run["query_id"] = qrels["query_id"].map(as_int), run["query_id"].map(as_int)
    ddf = dd.from_pandas(run, npartitions=4, sort=False)
    with dask.config.set(scheduler="sync"):
        expected = ek.evaluate(qrels, run, METRIC_LISTS[0], missing_queries="zero")
        for dask_qrels in (qrels, dd.from_pandas(qrels, npartitions=3, sort=False)):
            got = ek.evaluate(dask_qrels, ddf, METRIC_LISTS[0], missing_queries="zero")
            pd.testing.assert_frame_equal(got, expected)
        # dask qrels with a pandas run: the qrels are computed.
        got = ek.evaluate(dd.from_pandas(qrels, npartitions=2), run, METRIC_LISTS[0],
                          missing_queries="zero")
        pd.testing.assert_frame_equal(got, expected)


def test_a_run_without_judged_queries_gives_the_pandas_result():
    qrels, run = _collection(3)
    run = run.assign(query_id="nobody")
    with dask.config.set(scheduler="sync"):
        for missing in ("ignore", "zero"):
            _same(qrels, run, dd.from_pandas(run, npartitions=3, sort=False),
                  METRIC_LISTS[0], missing_queries=missing)


# --- errors ----------------------------------------------------------------------------------


def _error(call) -> str:
    with pytest.raises(ValueError) as caught:
        call()
    return str(caught.value)


@pytest.mark.parametrize("npartitions", [2, 3, 5])
def test_a_duplicate_across_partitions_raises_the_pandas_error(npartitions):
    qrels, run = _collection(7)
    judged = run[run["query_id"].isin(qrels["query_id"])]
    # A judged query's first document again, at the end of the run: another partition.
    run = pd.concat([run, judged.iloc[:1]], ignore_index=True)
    ddf = dd.from_pandas(run, npartitions=npartitions, sort=False)
    assert ddf.npartitions > 1
    expected = _error(lambda: ek.evaluate(qrels, run, ["AP"]))
    assert "retrieved twice" in expected
    with dask.config.set(scheduler="sync"):
        assert _error(lambda: ek.evaluate(qrels, ddf, ["AP"])) == expected


def test_missing_columns_and_bad_scores_are_named():
    qrels, run = _collection(8)
    with dask.config.set(scheduler="sync"):
        for column in ("query_id", "doc_id", "score"):
            pandas_error = _error(lambda c=column: ek.evaluate(qrels, run.drop(columns=c), ["AP"]))
            ddf = dd.from_pandas(run.drop(columns=column), npartitions=2)
            assert _error(lambda d=ddf: ek.evaluate(qrels, d, ["AP"])) == pandas_error
        bad = run.copy()
        bad.loc[len(bad) - 2, "score"] = np.nan
        message = _error(lambda: ek.evaluate(
            qrels, dd.from_pandas(bad, npartitions=3, sort=False), ["AP"]))
        assert message.startswith("run['score'] contains nan in row ")
        assert "partition 2" in message
        text = run.assign(score=run["score"].astype(str))
        assert _error(lambda: ek.evaluate(qrels, dd.from_pandas(text, npartitions=2), ["AP"])
                      ).startswith("run['score'] must hold numbers")
        # Metrics and options are checked before any work, as in memory.
        ddf = dd.from_pandas(run, npartitions=2)
        assert "unknown metric" in _error(lambda: ek.evaluate(qrels, ddf, ["APP"]))
        assert "missing_queries" in _error(lambda: ek.evaluate(qrels, ddf, ["AP"],
                                                               missing_queries="all"))
        duplicated = pd.concat([qrels, qrels.iloc[:1]])
        assert _error(lambda: ek.evaluate(duplicated, ddf, ["AP"])) == _error(
            lambda: ek.evaluate(duplicated, run, ["AP"]))


def test_another_dask_collection_is_refused():
    qrels, run = _collection(9)
    series = dd.from_pandas(run, npartitions=2)["score"]
    with pytest.raises(TypeError, match="run must be a pandas or dask DataFrame"):
        ek.evaluate(qrels, series, ["AP"])


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_import_evalkit_and_a_pandas_evaluate_do_not_import_dask():
    out = _python("""
        import sys
        import pandas as pd
        import evalkit as ek
        qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
        run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
        ek.evaluate(qrels, run, ["AP"])
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("dask", "distributed")))
    """)
    assert out.strip() == "[]"


def test_a_dask_lookalike_without_dask_gets_the_install_hint():
    out = _python("""
        import sys
        sys.modules["dask"] = None  # as if dask were not installed
        sys.modules["dask.dataframe"] = None
        import pandas as pd
        import evalkit as ek
        Frame = type("DataFrame", (), {"__module__": "dask.dataframe.core"})
        qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
        try:
            ek.evaluate(qrels, Frame(), ["AP"])
        except ImportError as error:
            print(error)
    """)
    assert "run is a DataFrame from dask" in out and "pip install 'evalkit[dask]'" in out


# --- distributed -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed", reason="distributed is not installed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            yield client


@pytest.mark.parametrize("seed", range(4))
def test_a_distributed_cluster_gives_the_pandas_result(client, seed):
    qrels, run = _collection(seed, n_queries=25, interleaved=seed % 2 == 1)
    for k in (1, 4, 11):
        for missing in ("ignore", "zero"):
            _same(qrels, run, _dask_run(run, "from_delayed", k, seed),
                  METRIC_LISTS[seed % len(METRIC_LISTS)], missing_queries=missing)


def test_a_distributed_cluster_scores_the_same_inputs_again(client):
    # The qrels are scattered anew for each call: a call does not lose the previous one's.
    qrels, run = _collection(13)
    ddf = dd.from_pandas(run, npartitions=3, sort=False)
    for _ in range(4):
        _same(qrels, run, ddf, METRIC_LISTS[0])


def test_a_distributed_cluster_reports_a_duplicate_as_pandas_does(client):
    qrels, run = _collection(11)
    run = pd.concat([run, run[run["query_id"].isin(qrels["query_id"])].iloc[:1]],
                    ignore_index=True)
    expected = _error(lambda: ek.evaluate(qrels, run, ["AP"]))
    assert _error(lambda: ek.evaluate(qrels, dd.from_pandas(run, npartitions=3, sort=False),
                                      ["AP"])) == expected


def test_a_cluster_of_worker_processes_gives_the_pandas_result():
    distributed = pytest.importorskip("distributed", reason="distributed is not installed")
    qrels, run = _collection(21, n_queries=40, interleaved=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        with distributed.Client(cluster):
            for missing in ("ignore", "zero"):
                _same(qrels, run, dd.from_pandas(run, npartitions=6, sort=False),
                      METRIC_LISTS[1], missing_queries=missing)


def test_the_readme_example_gives_the_in_memory_result(monkeypatch):
    import re

    from .conftest import REPO

    pytest.importorskip("distributed", reason="distributed is not installed")
    monkeypatch.chdir(REPO)
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Runs larger than memory: dask\n", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "LocalCluster(n_workers=2, threads_per_worker=1)" in code
    # Threads instead of worker processes: lighter; a process cluster is tested above.
    code = code.replace("threads_per_worker=1)", "threads_per_worker=1, processes=False, "
                        "dashboard_address=':0')")
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert namespace["run"].npartitions == 3
    expected = ek.evaluate("data/stdlib-docs/qrels.txt", "data/stdlib-docs/runs/bm25.run",
                           ["AP", "nDCG@10"], missing_queries="zero")
    pd.testing.assert_frame_equal(namespace["scores"], expected)
