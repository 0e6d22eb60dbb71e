"""evalkit.trec: reading and writing TREC qrels and run files."""

from __future__ import annotations

import gzip
import io

import numpy as np
import pandas as pd
import pytest

import evalkit as ek

from .test_evaluation import random_collection

# ---------------------------------------------------------------------------------------------
# Reading and writing files
# ---------------------------------------------------------------------------------------------


def test_read_qrels_and_run_from_files(tmp_path):
    qrels_file = tmp_path / "test.qrels"
    qrels_file.write_text("1 0 a 1\n1 0 b 0\n\n2 0 a -1\n")
    run_file = tmp_path / "test.run"
    run_file.write_text("1 Q0 b 1 2.5 sys extra fields\n1 Q0 a 2 1.5 sys\n")
    qrels = ek.read_qrels(qrels_file)
    assert qrels.values.tolist() == [["1", "a", 1], ["1", "b", 0], ["2", "a", -1]]
    run = ek.read_run(run_file)
    assert run[["query_id", "doc_id", "score", "run_id"]].values.tolist() == [
        ["1", "b", 2.5, "sys"], ["1", "a", 1.5, "sys"]]
    assert ek.evaluate(qrels_file, run_file, ["RR"]).loc["1", "RR"] == 0.5


@pytest.mark.parametrize(
    "text, message",
    [
        ("1 0 a 1\n1 0 b\n", "bad.qrels, line 2: expected 4 fields"),
        ("1 0 a 1 extra\n1 0 b 1\n", "bad.qrels, line 1: expected 4 fields"),
        ("1 0 a 1\n\n1 0 b x\n", "bad.qrels, line 3: relevance must be a whole number"),
        ("1 0 a 1.5\n", "bad.qrels, line 1: relevance must be a whole number"),
        ("1 0 a 1\n1 0 a 0\n", "lists a document more than once"),
    ],
)
def test_malformed_qrels_name_the_file_and_line(tmp_path, text, message):
    path = tmp_path / "bad.qrels"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        ek.read_qrels(path)


@pytest.mark.parametrize(
    "text, message",
    [
        ("1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0\n", "bad.run, line 2: expected 6 fields"),
        ("1 Q0 a 1 2.0\n", "bad.run, line 1: expected 6 fields"),
        ("1 Q0 a 1 2.0 r\n1 Q0 b 2 high r\n", "bad.run, line 2: score must be a number"),
        ("1 Q0 a 1 nan r\n", "bad.run, line 1: score must be a finite number"),
        ("1 Q0 a 1 2.0 r\n1 Q0 a 2 1.0 r\n", "retrieved twice.*query 1: a"),
    ],
)
def test_malformed_runs_name_the_file_and_line(tmp_path, text, message):
    path = tmp_path / "bad.run"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        ek.read_run(path)


def test_write_then_read_round_trips(tmp_path):
    qrels, run = random_collection(3)
    ek.write_qrels(qrels, tmp_path / "x.qrels")
    ek.write_run(run, tmp_path / "x.run.gz", run_id="random")
    back_qrels = ek.read_qrels(tmp_path / "x.qrels")
    back_run = ek.read_run(tmp_path / "x.run.gz")
    pd.testing.assert_frame_equal(back_qrels, qrels.astype({"relevance": np.int64}))
    assert set(back_run.run_id) == {"random"}
    labels = ["AP", "nDCG@10", "RR", "P@5"]
    pd.testing.assert_frame_equal(ek.evaluate(qrels, run, labels),
                                  ek.evaluate(back_qrels, back_run, labels))
    # Written in trec_eval's order, with ranks 1..n per query.
    first = back_run[back_run.query_id == back_run.query_id.iloc[0]]
    assert first["rank"].astype(int).tolist() == list(range(1, len(first) + 1))
    assert first["score"].is_monotonic_decreasing


def test_read_from_buffers_and_gzip_bytes():
    data = gzip.compress(b"1 0 a 1\n")
    assert ek.read_qrels(io.BytesIO(gzip.decompress(data))).shape == (1, 3)
    with pytest.raises(TypeError, match="path or an open file"):
        ek.read_qrels(42)


def test_write_refuses_fields_with_spaces():
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a b"], "relevance": [1]})
    with pytest.raises(ValueError, match=r"qrels\['doc_id'\] row 0 is 'a b'"):
        ek.write_qrels(qrels, io.StringIO())


# ---------------------------------------------------------------------------------------------
# The module's names, and options by keyword
# ---------------------------------------------------------------------------------------------


def test_the_evaluation_names_are_evalkit_trecs():
    # The TREC engine is one subpackage: evaluate and its names are evalkit.trec's.
    from evalkit.trec import _evaluate

    assert ek.trec.evaluate is _evaluate.evaluate is ek.evaluate
    for name in _evaluate.__all__:
        assert name in ek.trec.__all__, name
        assert getattr(ek.trec, name) is getattr(_evaluate, name), name
    assert ek.trec.QRELS_COLUMNS == ("query_id", "doc_id", "relevance")
    assert ek.trec.RUN_COLUMNS == ("query_id", "doc_id", "score")


def test_write_run_takes_run_id_by_keyword():
    run = pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "score": [1.0]})
    with pytest.raises(TypeError, match=r"write write_run\(run, path_or_buffer, run_id='mine'\)"):
        ek.write_run(run, io.StringIO(), "mine")
    out = io.StringIO()
    ek.write_run(run, out, run_id="mine")
    assert out.getvalue() == "q1 Q0 a 1 1.0 mine\n"
