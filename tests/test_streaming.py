"""``ek.evaluate`` on a run file, read query block by query block (evalkit.trec._streaming).

- The streamed result equals the in-memory one (``ek.evaluate(qrels, ek.read_run(path))``)
  on many seeded random collections and metric lists, plain and gzip-compressed, with tiny
  pieces (the private ``_CHUNK_BYTES``) so that queries straddle pieces, and with every
  option (``missing_queries="zero"``, ``judged_only``, ``ties=average``, 10.0's rules).
- Errors name the file and line: a query that comes back after another's rows (with what
  to do instead), a malformed line, a document retrieved twice.
- Memory: the peak traced allocation of the streamed call grows with the largest query, not
  with the file (no timing is asserted).
"""

from __future__ import annotations

import gzip
import tracemalloc

import numpy as np
import pandas as pd
import pytest

import evalkit as ek
from evalkit.trec import _streaming
from tests.test_trec import random_collection

METRIC_LISTS = [
    ["AP", "nDCG@10", "P@5", "RR", "NumRel", "NumRet", "Rprec", "R@100"],
    ["map", "ndcg_cut.5", "iprec_at_recall_0.10", "bpref", "num_rel_ret", "recip_rank"],
    ["nDCG(ties=average)@10", "DCG(ties=average)", "AP"],
    ["IPrec@0.5", "11pt_avg", "set_F", "infAP", "Judged@10", "success.5"],
]
OPTIONS = [{}, {"missing_queries": "zero"}, {"judged_only": True},
           {"trec_eval_version": "10.0", "missing_queries": "zero"},
           {"relevance_level": 2}]


def _grouped_run_file(run: pd.DataFrame, path, *, compress: bool = False) -> None:
    """The run written grouped by query (lines of a query in the table's order)."""
    order = pd.factorize(run["query_id"])[0].argsort(kind="stable")
    rows = run.iloc[order]
    text = "".join(f"{q} Q0 {d} {i} {s!r} tag\n" for i, (q, d, s) in
                   enumerate(zip(rows["query_id"], rows["doc_id"], rows["score"], strict=True)))
    data = text.encode()
    path.write_bytes(gzip.compress(data) if compress else data)


def _supported(metrics, options):
    return not (options.get("judged_only") and any("ties=average" in m for m in metrics))


@pytest.mark.parametrize("seed", range(40))
def test_streamed_equals_in_memory(seed, tmp_path, monkeypatch):
    rng = np.random.default_rng(seed)
    qrels, run = random_collection(seed, n_queries=3 + seed % 9, n_docs=10 + seed % 50)
    path = tmp_path / ("run.gz" if seed % 2 else "run")
    _grouped_run_file(run, path, compress=bool(seed % 2))
    metrics = METRIC_LISTS[seed % len(METRIC_LISTS)]
    options = OPTIONS[seed % len(OPTIONS)]
    if not _supported(metrics, options):
        options = {}
    expected = ek.evaluate(qrels, ek.read_run(path), metrics, **options)
    for size in (int(rng.integers(1, 40)), 97, 1 << 20):
        monkeypatch.setattr(_streaming, "_CHUNK_BYTES", size)
        streamed = ek.evaluate(qrels, path, metrics, **options)
        pd.testing.assert_frame_equal(streamed, expected)
        pd.testing.assert_frame_equal(ek.evaluate(qrels, str(path), metrics, **options),
                                      expected)


def test_hand_computed_across_pieces(tmp_path, monkeypatch):
    qrels = pd.DataFrame({"query_id": ["2", "1", "1"], "doc_id": ["a", "a", "b"],
                          "relevance": [1, 1, 1]})
    path = tmp_path / "run"
    path.write_text("1 Q0 x 1 3 r\n1 Q0 a 2 2 r\n1 Q0 b 3 1 r\n3 Q0 a 1 1 r\n")
    monkeypatch.setattr(_streaming, "_CHUNK_BYTES", 5)
    result = ek.evaluate(qrels, path, ["AP", "P@2", "NumRet"], missing_queries="zero")
    assert result.index.tolist() == ["2", "1"]  # the qrels' order
    assert result.loc["1", "AP"] == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert result.loc["1", "P@2"] == 0.5
    assert result.loc["2"].tolist() == [0.0, 0.0, 0.0]


def test_a_file_that_starts_or_ends_oddly(tmp_path, monkeypatch):
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    path = tmp_path / "run"
    path.write_bytes(b"\n\n1 Q0 a 1 3 r\r\n\n1\tQ0  b 2 2 r")  # no newline at the end
    for size in (1, 3, 1 << 20):
        monkeypatch.setattr(_streaming, "_CHUNK_BYTES", size)
        pd.testing.assert_frame_equal(ek.evaluate(qrels, path, ["AP", "NumRet"]),
                                      ek.evaluate(qrels, ek.read_run(path), ["AP", "NumRet"]))
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    assert ek.evaluate(qrels, empty, ["AP"]).empty
    assert ek.evaluate(qrels, empty, ["AP"], missing_queries="zero")["AP"].tolist() == [0.0]


def one_judgement_and_a_run(text, size, tmp_path, monkeypatch):
    """A qrels judging document a of query 1, and a run file holding ``text``, read in
    pieces of ``size`` bytes."""
    monkeypatch.setattr(_streaming, "_CHUNK_BYTES", size)
    path = tmp_path / "run"
    path.write_text(text)
    return pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]}), path


@pytest.mark.parametrize("size", [1, 7, 1 << 20])
def test_an_ungrouped_file_is_refused_with_its_line(size, tmp_path, monkeypatch):
    qrels, path = one_judgement_and_a_run("1 Q0 a 1 3 r\n2 Q0 a 1 3 r\n\n1 Q0 b 2 2 r\n",
                                          size, tmp_path, monkeypatch)
    with pytest.raises(ValueError, match=r"run, line 4: query '1' comes back .*ek.read_run"):
        ek.evaluate(qrels, path, ["AP"])
    # read whole, the same file is fine
    assert ek.evaluate(qrels, ek.read_run(path), ["AP"])["AP"].tolist() == [1.0]


@pytest.mark.parametrize("size", [1, 1 << 20])
def test_a_malformed_line_is_named(size, tmp_path, monkeypatch):
    qrels, path = one_judgement_and_a_run("1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n\n2 Q0 c 1\n",
                                          size, tmp_path, monkeypatch)
    with pytest.raises(ValueError, match=r"run, line 4: expected 6 fields"):
        ek.evaluate(qrels, path, ["AP"])
    path.write_text("1 Q0 a 1 3 r\n1 Q0 b 2 x r\n")
    with pytest.raises(ValueError, match=r"run, line 2: score must be a number"):
        ek.evaluate(qrels, path, ["AP"])


@pytest.mark.parametrize("size", [1, 1 << 20])
def test_a_document_retrieved_twice_is_named(size, tmp_path, monkeypatch):
    monkeypatch.setattr(_streaming, "_CHUNK_BYTES", size)
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    path = tmp_path / "run"
    path.write_text("0 Q0 z 1 3 r\n1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 a 3 1 r\n")
    with pytest.raises(ValueError, match=r"run: the run lists a document more than once.*"
                                         r"query 1: a"):
        ek.evaluate(qrels, path, ["AP"])


def _peak_bytes(function) -> int:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_follows_the_largest_query_not_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(_streaming, "_CHUNK_BYTES", 1 << 16)
    docs = 1000
    qrels = pd.DataFrame({"query_id": np.repeat([str(q) for q in range(400)], 5),
                          "doc_id": [f"doc-{d}" for d in range(5)] * 400, "relevance": 1})
    peaks = {}
    for n_queries in (40, 320):
        path = tmp_path / f"run{n_queries}"
        lines = "".join(f"{q} Q0 doc-{d} {d} {1 - d / docs!r} tag\n"
                        for q in range(n_queries) for d in range(docs))
        path.write_text(lines)
        peaks[n_queries] = _peak_bytes(lambda p=path: ek.evaluate(qrels, p, ["AP", "P@10"]))
    in_memory = _peak_bytes(lambda: ek.evaluate(qrels, ek.read_run(tmp_path / "run320"),
                                                ["AP", "P@10"]))
    # 8 times the rows: the streamed peak grows little (one result row per query), the
    # in-memory one with the file
    assert peaks[320] < 2 * peaks[40], peaks
    assert peaks[320] < in_memory / 4, (peaks, in_memory)
