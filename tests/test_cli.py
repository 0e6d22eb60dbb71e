"""The ``evalkit`` command line: ``evalkit trec_eval`` against trec_eval's rules and pytrec_eval.

- Byte-for-byte output on hand-made cases whose lines are derived from trec_eval 9.0.8's
  source (``meas_print_*.c``: ``"%-22s\\t%s\\t%6.4f\\n"``, ``%ld`` for counts; ``measures.c``:
  the printing order; ``meas_avg.c`` and ``m_num_rel.c``, ``m_gm_map.c``: ``-c``).
- Every value, per query (``-q``) and for ``all``, against pytrec_eval (which bundles
  trec_eval 9) on many random qrels and runs, with ``-c`` and ``-l``.
- Most cases run ``--trec-eval-version 9.0.8`` (pytrec_eval's trec_eval); the rules where
  10.0 (the default) differs have their own tests here. The comparison with the real
  programs, byte for byte, is in ``tests/test_trec_eval_binary.py``.
- Bad input: one line on stderr naming file and line, a non-zero exit code.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek
from evalkit.cli import main
from evalkit.trec import _command_files, _registry
from tests.conftest import REPO, load_script
from tests.test_trec import random_collection

pytrec_eval = pytest.importorskip("pytrec_eval")

QRELS = """\
q1 0 a 1
q1 0 b 0
q1 0 c 2
q2 0 a 1
q3 0 d 1
"""
RUN = """\
q1 Q0 b 1 3.0 first
q1 Q0 a 2 2.0 first
q1 Q0 x 3 1.0 first
q2 Q0 x 1 5.0 last
q2 Q0 a 2 4.0 last
q9 Q0 a 1 1.0 last
"""


def run_cli(argv, capsys, version="9.0.8"):
    if version is not None and argv[:1] == ["trec_eval"]:
        argv = ["trec_eval", "--trec-eval-version", version, *argv[1:]]
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def files(tmp_path):
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return str(qrels), str(run)


def line(name, query, value):
    return f"{name:<22}\t{query}\t{value}\n"


# ---------------------------------------------------------------------------------------------
# Hand-made cases, byte for byte
# ---------------------------------------------------------------------------------------------


def test_per_query_lines_in_trec_eval_order_then_all(files, capsys):
    # q1 ranks b (0), a (1), x (unjudged); R = 2 (a, c): AP = (1/2) / 2, P_2 = 1/2.
    # q2 ranks x, a; R = 1: AP = 1/2, P_2 = 1/2. q9 is not judged: left out. q3 is not run.
    # trec_eval prints num_ret, map, P in its own order, whatever the order of -m.
    code, out, err = run_cli(["trec_eval", "-q", "-m", "P.2", "-m", "map", "-m", "num_ret",
                              *files], capsys)
    assert (code, err) == (0, "")
    assert out == (
        "num_ret               \tq1\t3\n"
        "map                   \tq1\t0.2500\n"
        "P_2                   \tq1\t0.5000\n"
        "num_ret               \tq2\t2\n"
        "map                   \tq2\t0.5000\n"
        "P_2                   \tq2\t0.5000\n"
        "num_ret               \tall\t5\n"
        "map                   \tall\t0.3750\n"
        "P_2                   \tall\t0.5000\n"
    )


def test_complete_flag_averages_over_every_judged_query(files, capsys):
    # -c: num_q = 3 (q1, q2, q3), map = (0.25 + 0.5 + 0) / 3, num_rel counts every grade > 0
    # in the qrels (a, c, a, d), gm_map adds log(1e-5) for the missing q3; runid is the run
    # id on the run file's last line.
    code, out, _ = run_cli(["trec_eval", "-c", *files], capsys)
    assert code == 0
    lines = out.splitlines(keepends=True)
    gm = math.exp((math.log(0.25) + math.log(0.5) + math.log(1e-5)) / 3)
    assert lines[:7] == [
        line("runid", "all", "last"), line("num_q", "all", "3"),
        line("num_ret", "all", "5"), line("num_rel", "all", "4"),
        line("num_rel_ret", "all", "2"), line("map", "all", "0.2500"),
        line("gm_map", "all", f"{gm:6.4f}"),
    ]
    assert line("P_5", "all", "0.1333") in lines  # (1/5 + 1/5 + 0) / 3
    names = [x.split()[0] for x in lines]
    assert names == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                     "Rprec", "bpref", "recip_rank"] + [
        f"iprec_at_recall_{v / 10:3.2f}" for v in range(11)] + [
        f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]


def test_relevance_level_and_the_official_default(files, capsys):
    # -l 2: only c is relevant in q1 (never retrieved): map 0; q2 has no relevant document.
    code, out, _ = run_cli(["trec_eval", "-l", "2", "-q", "-m", "num_rel", "-m", "map",
                            "-m", "ndcg", *files], capsys)
    assert code == 0
    # ndcg ignores -l: q1 DCG = 0/1 + 1/log2(3), ideal 2/1 + 1/log2(3) (grades c=2, a=1).
    ndcg_q1 = (1 / math.log2(3)) / (2 + 1 / math.log2(3))
    assert out == (
        line("num_rel", "q1", 1) + line("map", "q1", "0.0000")
        + line("ndcg", "q1", f"{ndcg_q1:6.4f}")
        + line("num_rel", "q2", 0) + line("map", "q2", "0.0000")
        + line("ndcg", "q2", "0.6309")  # 1/log2(3)
        + line("num_rel", "all", 1) + line("map", "all", "0.0000")
        + line("ndcg", "all", f"{(ndcg_q1 + 1 / math.log2(3)) / 2:6.4f}")
    )


def test_family_cutoffs_are_sorted_and_the_first_parameters_win(files, capsys):
    code, out, _ = run_cli(["trec_eval", "-m", "ndcg_cut.10,1", "-m", "P.3", "-m", "P.7",
                            "-m", "iprec_at_recall.0.5,0.25", "-m", "set_F.0.5", *files],
                           capsys)
    assert code == 0
    assert [x.split("\t")[0].strip() for x in out.splitlines()] == [
        "iprec_at_recall_0.25", "iprec_at_recall_0.50", "P_3", "ndcg_cut_1", "ndcg_cut_10",
        "set_F_0.5"]


def test_all_trec_prints_every_supported_measure_and_names_the_others(files, capsys):
    code, out, err = run_cli(["trec_eval", "-m", "all_trec", *files], capsys)
    assert code == 0
    printed = {re.sub(r"_[0-9.]+$", "", x.split()[0]) for x in out.splitlines()}
    assert printed == {m.name for m in _registry.SUPPORTED
                       if "9.0.8" in m.versions and m.kind != _registry.STRING}
    left_out = [n for n in _registry._ALL_TREC_9 if n in _registry.NOT_COMPUTED]
    if not left_out:
        assert err == ""
        return
    assert err.count("\n") == 1 and "not computed" in err
    for name in left_out:
        assert name in err


def test_nosummary_prints_only_query_lines(files, capsys):
    code, out, _ = run_cli(["trec_eval", "-q", "-n", "-m", "map", *files], capsys)
    assert code == 0 and out == line("map", "q1", "0.2500") + line("map", "q2", "0.5000")


def test_queries_are_printed_in_byte_order_of_their_ids(tmp_path, capsys):
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("10 0 a 1\n9 0 a 1\nB 0 a 1\na 0 a 1\n")
    run.write_text("a Q0 a 1 1 r\n9 Q0 a 1 1 r\nB Q0 a 1 1 r\n10 Q0 a 1 1 r\n")
    code, out, _ = run_cli(["trec_eval", "-q", "-m", "num_ret", str(qrels), str(run)], capsys)
    assert code == 0
    assert [x.split("\t")[1] for x in out.splitlines()] == ["10", "9", "B", "a", "all"]


# ---------------------------------------------------------------------------------------------
# Every value against pytrec_eval on random collections
# ---------------------------------------------------------------------------------------------

MEASURE_ARGS = ["all_trec", "P.1,3,7", "recall.2,50", "iprec_at_recall.0.25,0.5",
                "Rprec_mult.0.5,3", "success.2,3", "ndcg_cut.3,7", "map_cut.4"]
# pytrec_eval's own measure strings for the same values (it keys the results as trec_eval
# names them).
ORACLE_MEASURES = {"num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref",
                   "recip_rank", "iprec_at_recall.0.25,0.5", "P.1,3,7", "recall.2,50", "11pt_avg",
                   "ndcg", "Rprec_mult.0.5,3", "success.2,3", "ndcg_cut.3,7", "map_cut.4",
                   "set_P", "set_recall", "set_F", "num_nonrel_judged_ret"}
SUMMED = {"num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}


def parse(out):
    values = {}
    for text in out.splitlines():
        name, query, value = text.split("\t")
        assert name == f"{name.strip():<22}"
        values[(name.strip(), query)] = value
    return values


def write(qrels, run, tmp_path, seed):
    run = run.assign(run_id=f"run{seed}")
    qrels_path, run_path = tmp_path / f"q{seed}", tmp_path / f"r{seed}"
    ek.write_qrels(qrels, qrels_path)
    ek.write_run(run, run_path)
    return str(qrels_path), str(run_path)


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("flags", [[], ["-c"], ["-l", "2"], ["-c", "-l", "3"]])
def test_every_value_matches_pytrec_eval(seed, flags, tmp_path, capsys):
    qrels, run = random_collection(seed, n_queries=4 + seed % 6, n_docs=8 + seed % 40)
    paths = write(qrels, run, tmp_path, seed)
    args = ["trec_eval", "-q", *flags]
    for measure in MEASURE_ARGS:
        args += ["-m", measure]
    code, out, _ = run_cli([*args, *paths], capsys)
    if code != 0:  # no query in both files: trec_eval's error too
        assert not set(qrels["query_id"]) & set(run["query_id"])
        return
    ours = parse(out)
    level = int(flags[flags.index("-l") + 1]) if "-l" in flags else 1
    qrel_dict, run_dict = {}, {}
    for q, d, r in qrels.itertuples(index=False):
        qrel_dict.setdefault(q, {})[d] = int(r)
    for q, d, s in run[["query_id", "doc_id", "score"]].itertuples(index=False):
        run_dict.setdefault(q, {})[d] = float(s)
    expected = pytrec_eval.RelevanceEvaluator(qrel_dict, ORACLE_MEASURES, level).evaluate(
        run_dict)
    queries = sorted(expected, key=lambda q: q.encode())
    n = qrels["query_id"].nunique() if "-c" in flags else len(queries)
    names = sorted(next(iter(expected.values())))
    assert len(names) == 27  # every value of every measure asked for
    for name in names:
        total = 0.0
        for query in queries:
            value = expected[query][name]
            shown = ours[(name, query)]
            if name in SUMMED:
                assert shown == str(int(value)), (name, query)
            else:
                assert abs(float(shown) - value) <= 5e-5 + 1e-12, (name, query, shown, value)
            total += value
        if name == "num_rel" and "-c" in flags:
            total = float((qrels["relevance"] > 0).sum())
        summary = total if name in SUMMED else total / n
        if name in SUMMED:
            assert ours[(name, "all")] == str(int(summary)), name
        else:
            assert abs(float(ours[(name, "all")]) - summary) <= 5e-5 + 1e-12, name
    aps = [max(expected[q]["map"], 1e-5) for q in queries] + [1e-5] * (n - len(queries))
    assert abs(float(ours[("gm_map", "all")]) - math.exp(np.mean(np.log(aps)))) <= 5e-5
    assert ours[("num_q", "all")] == str(n)
    assert ours[("runid", "all")] == f"run{seed}"
    assert {q for _, q in ours} == set(queries) | {"all"}


# ---------------------------------------------------------------------------------------------
# ek.evaluate takes trec_eval's names
# ---------------------------------------------------------------------------------------------

PAIRS = {"map": "AP", "P_10": "P@10", "P.5": "P@5", "ndcg_cut_10": "nDCG@10",
         "ndcg_cut.3": "nDCG@3", "recip_rank": "RR", "recall_20": "R@20", "map_cut_5": "AP@5",
         "ndcg": "nDCG", "bpref": "Bpref", "Rprec": "Rprec", "num_rel": "NumRel",
         "num_ret": "NumRet", "num_rel_ret": "NumRelRet", "success_1": "Success@1",
         "iprec_at_recall_0.10": "IPrec@0.1", "Rprec_mult_0.20": "RprecMult@0.2",
         "set_P": "SetP", "set_recall": "SetR", "set_F": "SetF", "11pt_avg": "IPrecAvg",
         "num_nonrel_judged_ret": "NumNonRelJudgedRet"}


@pytest.mark.parametrize("seed", range(15))
def test_trec_eval_names_give_the_ir_measures_numbers(seed):
    qrels, run = random_collection(seed)
    trec = ek.evaluate(qrels, run, list(PAIRS), relevance_level=1 + seed % 2)
    ir = ek.evaluate(qrels, run, list(PAIRS.values()), relevance_level=1 + seed % 2)
    assert list(trec.columns) == list(PAIRS)
    np.testing.assert_array_equal(trec.to_numpy(float), ir.to_numpy(float))


@pytest.mark.parametrize(("label", "ir_hint", "trec_hint"), [
    ("mapp", "'AP'", "'map'"), ("MRR", "'RR'", "'recip_rank'"),
    ("P10", "'P@10'", "'P_10'"), ("ndcg_cut_x", "'nDCG@10'", "'ndcg_cut_10'"),
    ("ndgc", "'nDCG'", "'ndcg'"),
])
def test_unknown_names_suggest_the_nearest_in_both_vocabularies(label, ir_hint, trec_hint):
    qrels, run = random_collection(0)
    with pytest.raises(ValueError, match="unknown metric") as error:
        ek.evaluate(qrels, run, [label])
    assert f"did you mean {ir_hint} (ir_measures) or {trec_hint} (trec_eval)?" in str(error.value)


def test_summary_only_names_explain_themselves():
    qrels, run = random_collection(0)
    with pytest.raises(ValueError, match="gmean"):
        ek.evaluate(qrels, run, ["gm_map"])


# ---------------------------------------------------------------------------------------------
# Bad input, help, exit codes
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("qrels_text", "run_text", "expected"), [
    (QRELS, "q1 Q0 a 1 2.0 r\nq1 Q0 b 2\n", r"run\.txt, line 2: .*got 4"),
    ("q1 0 a 1\nq1 0 b\n", RUN, r"qrels\.txt, line 2"),
    (QRELS, "", r"run\.txt.*empty"),
    (QRELS, "zz Q0 a 1 1.0 r\n", "no queries with both results and relevance info"),
    ("q1 0 a 1\n\nq1 0 b 1\n", RUN, r"qrels\.txt, line 2: malformed"),
])
def test_bad_input_is_one_line_naming_file_and_line(tmp_path, capsys, qrels_text, run_text,
                                                      expected):
    (tmp_path / "qrels.txt").write_text(qrels_text)
    (tmp_path / "run.txt").write_text(run_text)
    code, out, err = run_cli(["trec_eval", str(tmp_path / "qrels.txt"),
                              str(tmp_path / "run.txt")], capsys)
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and re.search(expected, err), err


def test_a_document_listed_twice_fails_only_in_a_query_evaluated(tmp_path, capsys):
    # trec_eval checks duplicates query by query, as it evaluates them (form_res_rels.c):
    # q1 (evaluated) fails with exit 4 after the -q lines of the queries before it; the
    # same duplicate in q9 (not in the qrels) is never looked at.
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("q0 0 a 1\nq1 0 a 1\n")
    run.write_text("q0 Q0 a 1 1 r\nq1 Q0 a 1 2.0 r\nq1 Q0 a 2 1.0 r\n")
    code, out, err = run_cli(["trec_eval", "-q", "-m", "num_ret", str(qrels), str(run)],
                             capsys)
    assert (code, out) == (4, line("num_ret", "q0", 1)) and "q1" in err
    run.write_text("q0 Q0 a 1 1 r\nq1 Q0 a 1 1 r\nq9 Q0 a 1 2.0 r\nq9 Q0 a 2 1.0 r\n")
    code, out, _ = run_cli(["trec_eval", "-m", "num_ret", str(qrels), str(run)], capsys)
    assert (code, out) == (0, line("num_ret", "all", 2))


def test_fields_and_numbers_are_read_as_trec_eval_reads_them(tmp_path, capsys):
    # Any of C's white space separates fields; grades by atol (1.5 -> 1, x -> 0), scores by
    # atof (1,5 -> 1.0): d (1,5 = 1.0) ties with e (1.0) and e ranks first (doc_id
    # descending); b (grade 1.5 = 1) is relevant, c (grade x = 0) is not.
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("q1\x0b0\x0cb 1.5\nq1 0 c x\nq1 0 d 1\r\n")
    run.write_text("q1 Q0 d 1 1,5 r\nq1\tQ0 e 2 1.0 r extra fields\n\n  \nq1 Q0 b 3 0.5 r\n")
    code, out, _ = run_cli(["trec_eval", "-q", "-m", "num_rel", "-m", "map", str(qrels),
                            str(run)], capsys)
    # ranking e, d, b: relevant d (rank 2) and b (rank 3), R = 2: AP = (1/2 + 2/3) / 2.
    assert code == 0
    assert out == (line("num_rel", "q1", 2) + line("map", "q1", f"{(1 / 2 + 2 / 3) / 2:6.4f}")
                   + line("num_rel", "all", 2) + line("map", "all", f"{(1/2 + 2/3) / 2:6.4f}"))


def test_nine_ties_scores_equal_as_float32_ten_does_not(tmp_path, capsys):
    # 0.30000001 and 0.3 are one float32: 9.0.8 ties them and ranks a (doc_id descending
    # puts b first) ... b, the non-relevant one, first: map 0.5; 10.0 keeps doubles: a first.
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("q 0 a 1\nq 0 b 0\n")
    run.write_text("q Q0 a 1 0.30000001 r\nq Q0 b 2 0.3 r\n")
    paths = [str(qrels), str(run)]
    assert run_cli(["trec_eval", "-m", "map", *paths], capsys)[:2] == (
        0, line("map", "all", "0.5000"))
    assert run_cli(["trec_eval", "-m", "map", *paths], capsys, version=None)[:2] == (
        0, line("map", "all", "1.0000"))


def test_ten_fails_on_a_query_the_run_misses_unless_c(files, capsys):
    # 10.0 goes through the qrels' queries: q3 has no results: exit 4 after q1, q2's lines;
    # with -c it is scored on a one-document bogus ranking and printed (num_ret 0).
    code, out, err = run_cli(["trec_eval", "-q", "-m", "num_ret", *files], capsys,
                             version=None)
    assert code == 4 and out == line("num_ret", "q1", 3) + line("num_ret", "q2", 2)
    assert "q3" in err
    code, out, _ = run_cli(["trec_eval", "-q", "-c", "-m", "num_ret", "-m", "num_q", *files],
                           capsys, version=None)
    assert code == 0 and out == (line("num_ret", "q1", 3) + line("num_ret", "q2", 2)
                                 + line("num_ret", "q3", 0) + line("num_q", "all", 3)
                                 + line("num_ret", "all", 5))


def test_ten_skips_comment_lines_nine_reads_them(tmp_path, capsys):
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("# judged by me\nq 0 a 1\n")
    run.write_text("# my run\nq Q0 a 1 1.0 r\n")
    paths = [str(qrels), str(run)]
    assert run_cli(["trec_eval", "-m", "num_ret", *paths], capsys, version=None)[:2] == (
        0, line("num_ret", "all", 1))
    code, out, _ = run_cli(["trec_eval", "-m", "num_ret", *paths], capsys)
    assert code == 2 and out == ""  # 9.0.8: '# judged by me' has 4 fields, '# my run' 3


def test_all_grades_negative_fails_in_the_first_query(tmp_path, capsys):
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("a 0 x -1\nb 0 x 1\n")
    run.write_text("a Q0 x 1 1 r\nb Q0 x 1 1 r\n")
    code, out, err = run_cli(["trec_eval", str(qrels), str(run)], capsys)
    assert code == 4 and out == "" and "negative" in err


@pytest.mark.parametrize(("args", "expected"), [
    (["-m", "mapp"], "illegal measure 'mapp'; did you mean 'map'"),
    (["-m", "all"], "did you mean 'all_trec'"),
    (["-m", "rbp"], "illegal measure 'rbp'"),  # 10.0's, not 9.0.8's
    (["-m", "P.0"], "negative cutoff"),
    (["-m", "P.5,5"], "duplicate cutoffs"),
    (["-m", "P.five"], "negative cutoff"),  # atol("five") = 0
    (["-m", "P."], "improper measure"),
    (["-M", "100"], "option -M (--Max_retrieved_per_topic"),
    (["-o"], "option -o (--Output_old_results_format"),
    (["-l", "-1"], "relevance level below 0"),
    (["--bogus"], "unrecognized arguments"),
])
def test_bad_options_are_one_line(files, capsys, args, expected):
    code, out, err = run_cli(["trec_eval", *args, *files], capsys)
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and expected in err, err


def test_version_names_the_trec_eval_releases(capsys):
    code, out, _ = run_cli(["trec_eval", "--version"], capsys, version=None)
    assert code == 0 and ek.__version__ in out and "10.0" in out and "9.0.8" in out


def test_top_level_version_is_evalkits_own(capsys):
    code, out, err = run_cli(["--version"], capsys, version=None)
    assert (code, out, err) == (0, f"evalkit {ek.__version__}\n", "")
    assert "10.0" not in out  # trec_eval's releases belong to `evalkit trec_eval --version`


def test_version_is_listed_in_the_top_level_help(capsys):
    code, out, _ = run_cli(["--help"], capsys)
    assert code == 0 and "--version" in out


def test_missing_file_and_missing_arguments(files, capsys):
    code, _, err = run_cli(["trec_eval", files[0], "/nonexistent/run"], capsys)
    assert code != 0 and err.count("\n") == 1 and "/nonexistent/run" in err
    code, _, err = run_cli(["trec_eval", files[0]], capsys)
    assert code == 2 and err.count("\n") == 1


def test_help_lists_every_measure_with_a_definition(capsys):
    code, out, _ = run_cli(["trec_eval", "--help"], capsys)
    assert code == 0
    for measure in _registry.SUPPORTED:
        assert re.search(rf"^  {re.escape(measure.name)} +\S", out, re.M), measure.name
    assert "official" in out and "all_trec" in out


def test_python_dash_m_runs_the_same_command(files):
    done = subprocess.run([sys.executable, "-m", "evalkit", "trec_eval", "--trec-eval-version",
                           "9.0.8", "-m", "map", *files],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout == line("map", "all", "0.3750")


def test_grade_without_the_grader_says_so(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "evalkit.course.grading", None)
    code, _, err = run_cli(["grade"], capsys)
    assert code == 2 and "evalkit.course.grading" in err and err.count("\n") == 1


def test_grade_hands_over_to_the_grader(monkeypatch, capsys):
    calls = []
    fake = types.ModuleType("evalkit.course.grading")
    fake.add_arguments = lambda parser: parser.add_argument("--submissions")
    fake.run = lambda args: calls.append(args.submissions) or 3
    monkeypatch.setitem(sys.modules, "evalkit.course.grading", fake)
    code, _, _ = run_cli(["grade", "--submissions", "subs"], capsys)
    assert code == 3 and calls == ["subs"]


@settings(max_examples=60, deadline=None)
@given(family=st.sampled_from(["P", "recall", "map_cut", "ndcg_cut", "success"]),
       k=st.integers(1, 60), level=st.integers(1, 3), seed=st.integers(0, 40))
def test_every_spelling_of_a_cutoff_gives_the_same_column(family, k, level, seed):
    ir = {"P": "P", "recall": "R", "map_cut": "AP", "ndcg_cut": "nDCG", "success": "Success"}
    qrels, run = random_collection(seed)
    labels = [f"{family}_{k}", f"{family}.{k}", f"{ir[family]}@{k}"]
    table = ek.evaluate(qrels, run, labels, relevance_level=level)
    assert list(table.columns) == labels
    np.testing.assert_array_equal(table[labels[0]], table[labels[2]])
    np.testing.assert_array_equal(table[labels[1]], table[labels[2]])


@pytest.mark.parametrize(("label", "expected"), [
    ("P_0", "whole number >= 1"), ("iprec_at_recall_1.5", "recall level in"),
    ("Rprec_mult_x", "unknown metric"), ("map_cut", "needs a cutoff"),
])
def test_bad_trec_eval_cutoffs_in_evaluate(label, expected):
    qrels, run = random_collection(1)
    with pytest.raises(ValueError, match=expected):
        ek.evaluate(qrels, run, [label])


STALE_QRELS = "a 0 d1 2\na 0 d2 1\na 0 d3 0\nb 0 d1 -1\nb 0 d4 -1\nc 0 d2 1\nd 0 d5 -1\n" \
    "e 0 d5 -1\n"
STALE_RUN = "a Q0 d1 1 0.9 r\na Q0 d3 2 0.5 r\nb Q0 d1 1 0.9 r\nb Q0 d2 2 0.8 r\n" \
    "c Q0 d2 1 0.4 r\nd Q0 d2 1 0.4 r\n"


@pytest.mark.parametrize(("measure", "gain_1", "gain_2"), [
    ("ideal_dcg", 1.0, 2.0), ("ideal_dcg.1=3,2=9", 3.0, 9.0)])
def test_ten_ideal_dcg_of_a_query_judged_only_negative_is_the_one_before(
        tmp_path, capsys, measure, gain_1, gain_2):
    # form_res_rels.c counts grades 0 .. max for each query; b, d and e (the run misses e:
    # -c scores it on the bogus ranking) have max -1, so the counts of the last query with
    # a grade >= 0 stay: b prints a's ideal DCG, d and e print c's. The mean is over all 5.
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text(STALE_QRELS)
    run.write_text(STALE_RUN)
    ideal_a = gain_2 / math.log2(2) + gain_1 / math.log2(3)  # grades 2, 1 (and 0, no gain)
    ideal_c = gain_1 / math.log2(2)
    values = {"a": ideal_a, "b": ideal_a, "c": ideal_c, "d": ideal_c, "e": ideal_c}
    name = measure.replace(".", "_")
    code, out, err = run_cli(["trec_eval", "-q", "-c", "-m", measure, "-m", "ndcg_cut.2",
                              str(qrels), str(run)], capsys, version=None)
    assert code == 0, err
    # ndcg_cut: a ranks d1 (grade 2), d3 (grade 0); the others nothing that gains
    ndcg_cut = {"a": (2 / math.log2(2)) / (2 + 1 / math.log2(3)), "b": 0.0, "c": 1.0,
                "d": 0.0, "e": 0.0}
    expected = "".join(line(name, q, f"{values[q]:6.4f}") + line("ndcg_cut_2", q,
                                                                  f"{ndcg_cut[q]:6.4f}")
                       for q in "abcde")
    mean = (ideal_a + ideal_a + ideal_c + ideal_c + ideal_c) / 5
    expected += line(name, "all", f"{mean:6.4f}")
    expected += line("ndcg_cut_2", "all", f"{sum(ndcg_cut.values()) / 5:6.4f}")
    assert out == expected
    # evaluate's own IdealDCG gives such a query 0 (documented); 9.0.8 has no ideal_dcg.
    table = ek.evaluate(_command_files.read_trec_qrels(str(qrels), "10.0"),
                        _command_files.read_trec_results(str(run), "10.0")[0], ["IdealDCG"])
    assert table.loc["b", "IdealDCG"] == 0.0
    assert table.loc["a", "IdealDCG"] == pytest.approx(2 + 1 / math.log2(3))


@pytest.mark.parametrize("measures", [["dcg.1=3", "ndcg"], ["ndcg.1=3", "dcg"],
                                      ["ideal_dcg", "ndcg.2=5", "dcg"]])
def test_ten_dcg_ideal_dcg_ndcg_with_gains_crash_together(files, capsys, measures):
    # m_ndcg.c gives the three one parameter block: with two of them and gains, 10.0 frees it
    # twice (or frees a constant name) after its summary line: a crash, and the unflushed
    # output (less than a 4096-byte block here) is lost.
    argv = ["trec_eval", "-q", "-c"] + [x for m in measures for x in ("-m", m)] + list(files)
    code, out, err = run_cli(argv, capsys, version=None)
    assert (code, out) == (139, "") and "share one block of gains" in err
    code, out, _ = run_cli(["trec_eval", "-c", "-m", measures[0], *files], capsys, version=None)
    assert code == 0 and out.startswith(measures[0].replace(".", "_"))  # alone: no crash


# --- the fast reading paths agree with the token-by-token ones -------------------------------

_ALPHABET = b"ab1.-+eE#\t\n\x0b\x0c\r \x1c\x1f\x85\xa0\xe9"
_BYTES = st.binary(max_size=60).map(
    lambda b: bytes(_ALPHABET[x % len(_ALPHABET)] for x in b))


def _lines_by_regex(data: bytes):
    if not data.endswith(b"\n"):
        data += b"\n"
    tokens = _command_files._TOKEN.findall(data.decode("latin-1"))
    fields, lines, line = [], [], 0
    for token in tokens:
        if token == "\n":
            line += 1
        else:
            fields.append(token)
            lines.append(line)
    return fields, lines


@settings(max_examples=300, deadline=None)
@given(_BYTES)
def test_fields_are_split_at_c_white_space_only(data):
    fields, field_line, counts, first, head = _command_files._lines(data)
    want_fields, want_lines = _lines_by_regex(data)
    assert fields.tolist() == want_fields and field_line.tolist() == want_lines
    assert counts.sum() == len(want_fields)
    starts = [0] + [i + 1 for i, b in enumerate(data) if b == 10]
    starts = starts[:counts.size]
    assert first.tolist() == [data[s] if s < len(data) else 10 for s in starts]
    for line, n in enumerate(counts):
        expected = ord(want_fields[want_lines.index(line)][0]) if n else 0
        assert head[line] == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text("0123456789+-.eE", min_size=1, max_size=8), min_size=1, max_size=6))
def test_numbers_read_in_one_pass_as_atof_and_atol_read_them(tokens):
    array = np.array(tokens, dtype=object)
    assert _command_files._atof_array(array).tolist() == [_command_files.c_atof(t) for t in tokens]
    assert _command_files._atol_array(array).tolist() == [_command_files.c_atol(t) for t in tokens]


# `evalkit notebooks DIR [--teacher]`: the course for someone who installed the package.

def _course_notebooks():
    from evalkit.course._editions import course_dir

    return sorted(path.name for path in course_dir().glob("*.ipynb"))


def test_notebooks_writes_the_student_edition_that_make_student_writes(tmp_path, capsys):
    from evalkit.course import _editions as _student

    code, out, err = run_cli(["notebooks", str(tmp_path / "course")], capsys)
    assert (code, err) == (0, "")
    names = _course_notebooks()
    assert len(names) >= 20 and f"{len(names)} written" in out
    written = sorted(path.name for path in (tmp_path / "course").glob("*.ipynb"))
    assert written == names
    source = _student.course_dir()
    digests = _student.load_digests(source / "answer-digests.json")
    for name in names:
        teacher = json.loads((source / name).read_text(encoding="utf-8"))
        student = json.loads((tmp_path / "course" / name).read_text(encoding="utf-8"))
        expected = _student.student_edition(teacher, digests.get(name, {}).get("checks", {}))
        assert student == expected, name
        code_cells = [cell for cell in student["cells"] if cell["cell_type"] == "code"]
        assert not any(cell["outputs"] for cell in code_cells), name
        solutions = [cell for cell in code_cells
                     if "solution" in cell.get("metadata", {}).get("tags", [])]
        assert all(cell["source"].startswith(_student.STUB_HEADER) for cell in solutions), name
    assert any(_student.STUB_HEADER in "".join(cell["source"]) for name in names[:5]
               for cell in json.loads((tmp_path / "course" / name).read_text())["cells"])


def test_notebooks_teacher_copies_the_full_notebooks(tmp_path, capsys):
    from evalkit.course._editions import course_dir

    code, _, _ = run_cli(["notebooks", "--teacher", str(tmp_path)], capsys)
    assert code == 0
    for name in _course_notebooks():
        assert (tmp_path / name).read_bytes() == (course_dir() / name).read_bytes(), name


def test_notebooks_never_overwrites_a_students_work(tmp_path, capsys):
    assert run_cli(["notebooks", str(tmp_path)], capsys)[0] == 0
    first = _course_notebooks()[0]
    (tmp_path / first).write_text('{"cells": [], "mine": true}\n')
    code, out, _ = run_cli(["notebooks", str(tmp_path)], capsys)
    assert code == 0 and f"kept {first}" in out and "0 written" in out
    assert json.loads((tmp_path / first).read_text()) == {"cells": [], "mine": True}


def test_notebooks_reports_as_make_student_does(tmp_path, monkeypatch, capsys):
    from evalkit.course import _editions

    report = {"written": ["11-roc.ipynb"], "unchanged": [], "kept": ["02-pr.ipynb"],
              "retired": ["12-roc.ipynb -> 11-roc.ipynb"],
              "kept_renamed": ["11-costs.ipynb -> 13-costs.ipynb"]}
    monkeypatch.setattr(_editions, "write_course", lambda out, *, teacher=False: report)
    code, out, err = run_cli(["notebooks", str(tmp_path)], capsys)
    assert (code, err) == (0, "")
    header, *lines = out.splitlines()
    assert header == f"The course's student edition in {tmp_path}: 1 written, 0 unchanged."
    assert lines == _editions.report_lines(report) and len(lines) == 3
    assert lines[2] == ("  kept 11-costs.ipynb: your work on a notebook the course renamed; it "
                        "is now 13-costs.ipynb (written fresh beside it)")


def test_notebooks_are_found_in_the_installed_package(tmp_path, monkeypatch, capsys):
    from evalkit.course import _editions as _student

    package = tmp_path / "site-packages" / "evalkit"
    shipped = package / "_notebooks"
    shipped.mkdir(parents=True)
    (shipped / "course.toml").write_text(
        '[[notebook]]\nfile = "01-b.ipynb"\nformerly = ["00-a.ipynb"]\n')
    notebook = {"cells": [{"cell_type": "code", "source": "answer_1 = 2\n", "outputs": [],
                           "execution_count": None, "metadata": {"tags": ["solution"]}},
                          {"cell_type": "code", "source": "print(answer_1)\n", "outputs": [],
                           "execution_count": None, "metadata": {}}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (shipped / "01-b.ipynb").write_text(json.dumps(notebook))
    monkeypatch.setattr(_student, "__file__", str(package / "course" / "_editions.py"))
    assert _student.course_dir() == shipped
    assert _student.former_names(shipped) == {"00-a.ipynb": ["01-b.ipynb"]}
    code, _, _ = run_cli(["notebooks", str(tmp_path / "out")], capsys)
    assert code == 0
    cells = json.loads((tmp_path / "out" / "01-b.ipynb").read_text())["cells"]
    assert cells[0]["source"] == _student.STUB_HEADER + "answer_1 = ...\n"
    (shipped / "course.toml").unlink()
    code, out, err = run_cli(["notebooks", str(tmp_path / "out2")], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("evalkit notebooks: the course's notebooks are not in this copy")


@pytest.mark.parametrize("seed", range(40))
def test_plain_qrels_arrays_equal_the_general_readers(seed, tmp_path, monkeypatch):
    # The qrels read from their bytes (no pandas) against the general reader's table made
    # arrays: the same queries, in order, rows, grades, highest grades and duplicates.
    import random

    from evalkit._hashing import byte_hashes
    from evalkit.trec import _command_qrels
    from evalkit.trec._command_qrels import CommandQrels, read_plain_qrels

    rng = random.Random(f"plain-qrels-{seed}")
    if seed % 2:  # 2-6 bits of hash: keys collide, a collision is not a duplicate
        mask = np.uint64(((1 << rng.randint(2, 6)) - 1) << 58)
        monkeypatch.setattr(_command_qrels, "byte_hashes", lambda *a: byte_hashes(*a) & mask)
    queries = [rng.choice(["q", "Q", "1", "topic-", "\xe9"]) + str(rng.randint(0, 30))
               for _ in range(rng.randint(1, 8))]
    docs = [rng.choice(["d", "doc", "x" * rng.randint(5, 40)]) + str(rng.randint(0, 50))
            for _ in range(rng.randint(1, 20))]
    lines = [f"{rng.choice(queries)} 0 {rng.choice(docs)} {rng.randint(-3, 4)}"
             for _ in range(rng.randint(1, 60))]
    if rng.random() < 0.5:
        lines.sort(key=lambda line: line.split()[0])  # grouped, as most qrels are
    path = tmp_path / "qrels"
    path.write_bytes(("\n".join(lines) + ("\n" if rng.random() < 0.8 else "")).encode("latin-1"))
    plain = read_plain_qrels(str(path))
    general = CommandQrels.from_frame(_command_files.read_trec_qrels(str(path), "10.0"))
    assert plain is not None
    assert plain.names.tolist() == general.names.tolist() == sorted(set(
        line.split()[0] for line in lines))
    assert plain.code.tolist() == general.code.tolist()
    assert plain.grade.tolist() == general.grade.tolist()
    assert plain.max_grade.tolist() == general.max_grade.tolist()
    assert plain.duplicated.tolist() == general.duplicated.tolist()
    twice = {line.split()[0] for i, line in enumerate(lines)
             if line.split()[::2] in [other.split()[::2] for other in lines[:i]]}
    assert plain.duplicated.tolist() == [name in twice for name in plain.names]
    assert plain.frame().equals(general.frame())
    ids = np.array([*queries, "nothing", ""], dtype=object)
    assert plain.lookup(ids).tolist() == [
        plain.names.tolist().index(q) if q in plain.names else -1 for q in ids]


def test_plain_qrels_reader_leaves_other_files_to_the_general_one(tmp_path):
    from evalkit.trec._command_qrels import read_plain_qrels

    for text in ("q1 0 d1 1\n# comment\n", "q1 0 d1\n", "q1 0 d1 1.5\n", " q1 0 d1 1\n",
                 "q1 0 d1 1 extra\n", "", "q1 0 " + "d" * 65 + " 1\n", "q1 0 d1 1e3\n"):
        path = tmp_path / "qrels"
        path.write_text(text)
        assert read_plain_qrels(str(path)) is None, text
    assert read_plain_qrels(str(tmp_path / "missing")) is None


@pytest.mark.parametrize("seed", range(12))
def test_query_lines_as_c_prints_them_with_and_without_nan(seed):
    # The -q lines (one %-template per query when no value is NaN, else a format per line)
    # against C's rules line by line: %-22s name, the query, %6.4f (counts %.0f, a NaN with
    # its sign bit set -nan).
    from evalkit.trec._command_loop import Outcome
    from evalkit.trec._command_output import _c_float, format_output
    from evalkit.trec._command_plan import plan, select_measures

    rng = np.random.default_rng(seed)
    columns = plan(select_measures(["official", "relstring"], "10.0"), "10.0")
    queries = [f"q{i}%s" for i in range(rng.integers(1, 6))]
    per_query = {}
    for column in columns:
        if column.measure.kind == "string":
            per_query[column.name] = np.array(["1R0", "x%d"] * 3, dtype=object)[:len(queries)]
        elif column.measure.name not in ("runid", "num_q", "gm_map"):
            values = rng.choice([0.0, 1 / 3, 2.5, 12.0, 0.00005, 0.99995], len(queries))
            if seed % 2:
                values[rng.integers(len(queries))] = rng.choice([np.nan, -np.nan])
            per_query[column.name] = values
    got = format_output(Outcome(queries, per_query, None), columns, query_lines=True)
    expected = []
    for query in queries:
        for column in columns:
            if column.name not in per_query:
                continue
            value = per_query[column.name][queries.index(query)]
            if column.measure.kind == "string":
                shown = f"'{value}'"
            elif column.measure.kind == "long":
                shown = f"{value:.0f}"
            else:
                shown = _c_float(value)
            expected.append(f"{column.name:<22}\t{query}\t{shown}\n")
    assert got == "".join(expected)
    assert ("-nan" in got or "\tnan" in got or "  nan" in got) == bool(seed % 2)


@pytest.mark.parametrize("seed", range(20))
def test_fast_path_fixed_decimals_as_atof(seed):
    # Scores all written with k decimals (printf's %.kf) are read right-aligned as one
    # matrix: bit for bit C's atof, or None for anything else (then the general reader).
    import random

    from evalkit.trec import _command_fast

    rng = random.Random(f"fixed-{seed}")
    pattern = re.compile(r"[0-9]*\.[0-9]*")
    used = 0
    for _ in range(100):
        k = rng.randint(0, 8)
        tokens = [f"{rng.uniform(0, 10 ** rng.randint(0, 8)):.{k}f}"
                  for _ in range(rng.randint(1, 30))]
        if rng.random() < 0.3:  # one token that breaks the rule (or keeps it)
            i = rng.randrange(len(tokens))
            tokens[i] = rng.choice(["-1.5", "+2.0", "1e5", ".", "5", "1.2.3", "12", ".5", "5.",
                                    "x.1", "0.5-", tokens[i] + "1", tokens[i][:-1],
                                    "1234567890123456.0", "12345678901234." + "0" * k])
        if rng.random() < 0.2:
            tokens = [token.lstrip("0") or token for token in tokens]
        prefix = rng.choice(["", ". ", "5. ", "1.2 "])  # bytes before the first field
        data = (prefix + " ".join(tokens) + " ").encode()
        first = np.cumsum([len(prefix)] + [len(t) + 1 for t in tokens[:-1]])
        length = np.array([len(t) for t in tokens])
        got = _command_fast._fixed_decimals(np.frombuffer(data, dtype=np.uint8), first, length)
        decimals = {len(t) - 1 - t.find(".") for t in tokens}
        fits = (all(pattern.fullmatch(t) and t != "." for t in tokens) and len(decimals) == 1
                and all(len(t) <= 16 and t.find(".") >= 0 for t in tokens))
        assert (got is not None) == fits, tokens
        if got is not None:
            used += 1
            assert got.tolist() == [_command_files.c_atof(t) for t in tokens], tokens
    assert used > 30


@pytest.mark.parametrize("version", ["10.0", "9.0.8"])
@pytest.mark.parametrize("seed", range(15))
def test_fixed_decimal_runs_against_the_binaries(version, seed, tmp_path, monkeypatch):
    # Runs whose scores all have k decimals (read by _fixed_decimals), with ties, in pieces
    # of any size, against the real trec_eval, byte for byte.
    import os
    import random

    from evalkit.trec import _streaming

    binary = os.environ.get("TREC_EVAL" if version == "10.0" else "TREC_EVAL_9")
    if not binary:
        pytest.skip("set TREC_EVAL / TREC_EVAL_9")
    fuzz = load_script(REPO / "tools" / "fuzz_trec_eval.py", "fuzz_trec_eval")
    rng = random.Random(f"fixed-runs-{seed}")
    monkeypatch.setattr(_streaming, "_CHUNK_BYTES", rng.choice([50, 400, 1 << 20]))
    k = rng.randint(0, 4)
    qrels: dict[tuple[int, str], int] = {}
    run = []
    for q in rng.sample(range(1, 40), rng.randint(1, 8)):
        docs = [f"d{d}" for d in rng.sample(range(60), rng.randint(1, 40))]
        for _ in range(rng.randint(1, 10)):  # no judgement twice (trec_eval would fail)
            qrels.setdefault((q, rng.choice([*docs, "x"])), rng.randint(0, 3))
        scores = [rng.choice([rng.uniform(0, 100), rng.choice([1.0, 2.5, 0.125])])
                  for _ in docs]
        if rng.random() < 0.5:
            scores.sort(reverse=True)
        run += [f"{q} Q0 {doc} {i} {s:.{k}f} run\n" for i, (doc, s) in
                enumerate(zip(docs, scores, strict=True))]
    qrels_text = "".join(f"{q} 0 {doc} {grade}\n" for (q, doc), grade in qrels.items())
    difference = fuzz.compare(binary, version, qrels_text.encode(), "".join(run).encode(),
                              ["-q", "-c"] if rng.random() < 0.5 else ["-q"], str(tmp_path))
    assert difference is None, difference
