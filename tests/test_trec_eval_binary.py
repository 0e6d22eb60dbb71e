"""``evalkit trec_eval`` against the real trec_eval programs, byte for byte.

Runs when the environment names the binaries (built from NIST's sources,
https://github.com/usnistgov/trec_eval): ``TREC_EVAL`` a trec_eval 10.0 (tag v10.0: the
older tag 10.0-rc2, of 2023, still counts iprec_at_recall's relevant documents as 9.0.8
does) and ``TREC_EVAL_9`` a trec_eval 9.0.8 (tag v9.0.8); each test skips otherwise (CI has
neither). trec_eval's own test files are read from ``TREC_EVAL_TESTS`` (default: the ``test``
folder beside the 10.0 binary).

- trec_eval 10.0's own test suite (Makefile ``quicktest``) for every case evalkit supports,
  against the expected outputs and against both binaries.
- Hand-made adversarial files: ties, 0.30000001 vs 0.3, exponents, comma scores, grades 1.5
  and negative, C white space between fields, '#' lines, blank lines, duplicates, queries in
  one file only, ids that sort differently as strings and numbers.
- Random and adversarial cases from ``tools/fuzz_trec_eval.py`` with random flags.

stdout and the exit status must be the same (a crash of trec_eval is evalkit's 139).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from .conftest import REPO, load_script

TREC_EVAL = os.environ.get("TREC_EVAL")
TREC_EVAL_9 = os.environ.get("TREC_EVAL_9")
BINARIES = [pytest.param("10.0", TREC_EVAL, id="10.0",
                         marks=pytest.mark.skipif(not TREC_EVAL, reason="set TREC_EVAL")),
            pytest.param("9.0.8", TREC_EVAL_9, id="9.0.8",
                         marks=pytest.mark.skipif(not TREC_EVAL_9, reason="set TREC_EVAL_9"))]
SUITE = Path(os.environ.get("TREC_EVAL_TESTS")
             or (Path(TREC_EVAL).parent / "test" if TREC_EVAL else "/nonexistent"))

fuzz = load_script(REPO / "tools" / "fuzz_trec_eval.py", "fuzz_trec_eval")

# (expected output, arguments) of trec_eval 10.0's Makefile quicktest that evalkit supports
# (-M, -R prefs/qrels_jg and -Z are not).
QUICKTEST = [
    ("out.test", "qrels.test results.test"),
    ("out.test", "qrels.test.with-comments results.test"),
    ("out.comment.test", "qrels.comment.test results.comment.test"),
    ("out.test.a", "-m all_trec qrels.test results.test"),
    ("out.test.aq", "-m all_trec -q qrels.test results.test"),
    ("out.test.aqc", "-m all_trec -q -c qrels.test results.trunc"),
    ("out.test.aql", "-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test"),
    ("out.test.meas_params", "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 "
     "-m recall.20,2000 -m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 "
     "-mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 qrels.test results.test"),
]


def _argv(arguments: str) -> list[str]:
    parts = arguments.split()
    return [*parts[:-2], str(SUITE / parts[-2]), str(SUITE / parts[-1])]


@pytest.mark.skipif(not SUITE.is_dir(), reason="trec_eval's test folder not found")
@pytest.mark.parametrize(("expected", "arguments"), QUICKTEST)
def test_trec_eval_10_quicktest(expected, arguments):
    code, out, err = fuzz.run_evalkit(_argv(arguments))
    assert code == 0, err
    assert out == (SUITE / expected).read_bytes()


@pytest.mark.skipif(not SUITE.is_dir(), reason="trec_eval's test folder not found")
@pytest.mark.parametrize(("version", "binary"), BINARIES)
@pytest.mark.parametrize(("expected", "arguments"), QUICKTEST)
def test_quicktest_against_the_binary(version, binary, expected, arguments):
    argv = _argv(arguments)
    theirs = fuzz.run_binary(binary, argv)
    ours = fuzz.run_evalkit(["--trec-eval-version", version, *argv])
    assert ours[:2] == theirs[:2], (ours[2], theirs[2])


ADVERSARIAL = [
    # (qrels, run, flags)
    ("q 0 a 1\nq 0 b 0\n", "q Q0 a 1 0.30000001 r\nq Q0 b 2 0.3 r\n", ["-m", "map"]),
    ("q 0 a 1\nq 0 b 0\n", "q Q0 a 1 3e-1 r\nq Q0 b 2 0.3 r\n", ["-q"]),
    ("q 0 a 1\nq 0 b 0\n", "q Q0 a 1 1,5 r\nq Q0 b 2 1.2 r\n", ["-q", "-m", "all_trec"]),
    ("q 0 a 1.5\nq 0 b -1\nq 0 c x\n", "q Q0 a 1 1 r\nq Q0 b 2 2 r\nq Q0 c 3 3 r\n", ["-q"]),
    ("q\x0b0\x0ca\t1\r\n", "q\tQ0\x0ba 1\x0c1 r\r\n", ["-q"]),
    ("# c\nq 0 a 1\n", "# c\nq Q0 a 1 1 r\n", []),
    ("q 0 a 1\n# c\n", "q Q0 a 1 1 r\n", []),
    ("# a b c\n# d e f\nq 0 a 1\n", "q Q0 a 1 1 r\n", ["-c", "-q"]),
    ("q 0 a 1\n\nq 0 b 1\n", "q Q0 a 1 1 r\n", []),
    ("q 0 a 1\n", "\nq Q0 a 1 1 r\n\n  \n", []),
    ("q 0 a 1\nq 0 a 0\n", "q Q0 a 1 1 r\n", ["-q"]),
    ("q 0 a 1\n", "q Q0 a 1 1 r\nq Q0 a 2 1 r\n", ["-q"]),
    ("p 0 a 1\nq 0 a 1\n", "p Q0 a 1 1 r\nq Q0 a 1 1 r\nq Q0 a 2 1 r\n", ["-q"]),
    ("q 0 a -1\nr 0 a 1\n", "q Q0 a 1 1 r\nr Q0 a 1 1 r\n", ["-q"]),
    ("a 0 x 1\nq 0 a -1\n", "a Q0 x 1 1 r\nq Q0 a 1 1 r\n", ["-q", "-m", "ndcg"]),
    ("a 0 x 1\nq 0 a -2\n", "a Q0 x 1 1 r\nq Q0 a 1 1 r\n", ["-q"]),
    ("10 0 a 1\n9 0 a 1\n100 0 b 1\n", "9 Q0 a 1 1 r\n10 Q0 a 1 1 r\n100 Q0 a 1 2 r\n",
     ["-q", "-c"]),
    ("1 0 a 1\n2 0 a 1\n", "1 Q0 a 1 1 r\n3 Q0 a 1 1 r\n", ["-q", "-c"]),
    ("1 0 a 1\n2 0 a 1\n", "1 Q0 a 1 1 r\n3 Q0 a 1 1 r\n", ["-q"]),
    ("1 0 a 2\n1 0 b 1\n", "1 Q0 a 1 1 r\n1 Q0 b 2 2 r\n", ["-l", "2", "-q"]),
    ("1 0 a 2\n1 0 b 1\n", "1 Q0 a 1 1 r\n1 Q0 b 2 2 r\n", ["-l", "0"]),
    ("1 0 a 1\n", "1 Q0 a 1 1 r\n", ["-m", "P.5,5"]),
    ("1 0 a 1\n", "1 Q0 a 1 1 r\n", ["-m", "all"]),
    ("1 0 a 1\n", "1 Q0 a 1 inf r\n1 Q0 b 2 -inf r\n1 Q0 c 3 1e400 r\n", ["-q"]),
    ("1 0 a 1\n", "", []),
    ("", "1 Q0 a 1 1 r\n", []),
]


@pytest.mark.parametrize(("version", "binary"), BINARIES)
@pytest.mark.parametrize("case", range(len(ADVERSARIAL)))
def test_adversarial_files(version, binary, case, tmp_path):
    qrels, run, flags = ADVERSARIAL[case]
    difference = fuzz.compare(binary, version, qrels.encode(), run.encode(), flags,
                              str(tmp_path))
    assert difference is None, difference


# fuzz.deliberate, which lets the random cases above through only on a difference that
# --help lists as deliberate: no binary needed, so these run everywhere.
_MAP = b"map                   \tall\t0.5000\n"
_RBP = b"rbp                   \tall\t%s\n"
_RESID = b"rbp_resid             \tall\t%s\n"
_BESIDE = ["-q", "-m", "map", "-mrbp"]


@pytest.mark.parametrize(("flags", "ours", "theirs", "kind"), [
    (_BESIDE, _MAP + _RBP % b"0.1150", _MAP + _RBP % b"0.0460", "rbp beside other measures"),
    (["-m", "rbp.p=0.5", "-m", "rbp_resid"],
     b"rbp_p=0.5             \tall\t0.3750\n" + _RESID % b"0.4550",
     b"rbp_p=0.5             \tall\t0.1250\n" + _RESID % b"0.4550",
     "rbp beside other measures"),
    (_BESIDE, _MAP + _RBP % b"0.1150", _MAP + _RBP % b"0.1150", None),  # the same: no kind
    (_BESIDE, b"map                   \tall\t0.5001\n" + _RBP % b"0.1150",
     _MAP + _RBP % b"0.0460", None),  # another line differs too
    (["-m", "rbp"], _RBP % b"0.1150", _RBP % b"0.0460", None),  # rbp alone
    (["-m", "rbp", "-m", "rbp.p=0.5"], _RBP % b"0.1150", _RBP % b"0.0460", None),  # only rbp
    (["-m", "all_trec"], _MAP + _RBP % b"0.1150", _MAP + _RBP % b"0.0460", None),  # not asked
    (["-m", "rbp", "-m", "rbp_resid"], _RBP % b"0.1150" + _RESID % b"0.4550",
     _RBP % b"0.0460" + _RESID % b"0.4551", None),  # rbp_resid is not excused
    (_BESIDE, _MAP + b"rbp                   \t1\t0.1150\n",
     _MAP + b"rbp                   \tall\t0.0460\n", None),  # not only the value
    (_BESIDE, _MAP + _RBP % b"0.1150", _MAP + _RBP % b"0.0460" + _MAP, None),  # a line more
])
def test_deliberate_rbp(flags, ours, theirs, kind):
    assert fuzz.deliberate("10.0", b"1 Q0 d 1 1 r\n", flags, (0, ours, ""),
                           (0, theirs, "")) == kind
    assert fuzz.deliberate("9.0.8", b"1 Q0 d 1 1 r\n", flags, (0, ours, ""),
                           (0, theirs, "")) is None
    assert fuzz.deliberate("10.0", b"1 Q0 d 1 1 r\n", flags, (1, ours, ""),
                           (0, theirs, "")) is None  # another exit code


_REFUSED = (2, b"", "evalkit trec_eval: run: no results in the file (trec_eval 10.0 -c prints "
                    "an uninitialised run id here; evalkit refuses)")
_PRINTED = (0, b"runid                 \tall\t\x10\x7f\n", "")


@pytest.mark.parametrize(("run", "flags", "ours", "kind"), [
    (b"\n", ["-q", "-c"], _REFUSED, "-c on a run without a result line"),
    (b"# a comment\n \t\n\x0b\n#x y z\n", ["-c", "-J"], _REFUSED,
     "-c on a run without a result line"),
    (b"", ["-c"], _REFUSED, "-c on a run without a result line"),
    (b"1 Q0 d 1 1 r\n", ["-c"], _REFUSED, None),  # a result line: nothing to refuse
    (b"\n", ["-q"], _REFUSED, None),  # no -c
    (b"\n", ["-c", "-n"], _REFUSED, None),  # -n prints no run id
    (b"\n", ["-c"], (2, b"x", _REFUSED[2]), None),  # evalkit printed something
    (b"\n", ["-c"], (1, b"", _REFUSED[2]), None),  # another exit code
    (b"\n", ["-c"], (2, b"", "evalkit trec_eval: run: bad line"), None),  # another error
])
def test_deliberate_empty_run_with_c(run, flags, ours, kind):
    assert fuzz.deliberate("10.0", run, flags, ours, _PRINTED) == kind
    assert fuzz.deliberate("9.0.8", run, flags, ours, _PRINTED) is None


_CRASH = ("evalkit trec_eval: trec_eval {} crashes at query '8': the highest grade of this "
          "query is below -1")
_GRADES = b"7 0 a 1\n8 0 a -2\n8\t0\tb\t-3.5\n9 0 a 2\n"


@pytest.mark.parametrize("version", ["10.0", "9.0.8"])
@pytest.mark.parametrize(("qrels", "ours", "theirs", "kind"), [
    # trec_eval went on with a corrupted heap and failed later, or crashed later:
    (_GRADES, (139, b"", _CRASH), (4, b"", "trec_eval: result qid '' not found in qrels"), True),
    (_GRADES, (139, b"x\n", _CRASH), (139, b"x\ny\n", "free(): invalid next size"), True),
    (_GRADES, (139, b"x\n", _CRASH), (0, b"x\ny\n", ""), True),
    (_GRADES, (139, b"x\n", _CRASH), (4, b"z\n", ""), False),  # what came before differs
    (_GRADES, (2, b"", _CRASH), (4, b"", ""), False),  # evalkit did not stop as a crash
    (_GRADES.replace(b"-3.5", b"-1"), (139, b"", _CRASH), (4, b"", ""), False),  # max is -1
    (_GRADES.replace(b"8 0 a -2\n8", b"9"), (139, b"", _CRASH), (4, b"", ""), False),  # no 8
    (None, (139, b"", _CRASH), (4, b"", ""), False),  # the qrels not given: not checked
])
def test_deliberate_grade_below_minus_one(version, qrels, ours, theirs, kind):
    ours = (ours[0], ours[1], ours[2].format(version))
    expected = "a grade below -1 (undefined in trec_eval)" if kind else None
    assert fuzz.deliberate(version, b"8 Q0 a 1 1 r\n", [], ours, theirs, qrels) == expected


def test_deliberate_differences_are_those_help_lists():
    from evalkit.trec._command_output import help_text

    text = " ".join(help_text().split())
    assert "rbp starts its gain range from uninitialised memory" in text
    assert "-c on a run without a single result line prints an uninitialised run id" in text
    assert ("whose highest grade is below -1, trec_eval clears its grade counts with a "
            "negative size") in text


@pytest.mark.parametrize(("version", "binary"), BINARIES)
@pytest.mark.parametrize("seed", range(150))
def test_random_and_adversarial_cases(version, binary, seed, tmp_path):
    rng = random.Random(f"test-{seed}")
    qrels, run, flags = fuzz.make_case(rng, version)
    # Only what --help lists as deliberate may differ (fuzz.deliberate): 10.0's rbp beside
    # other measures, whose other lines are still compared, and -c on an empty run.
    difference = fuzz.compare(binary, version, qrels, run, flags, str(tmp_path), excuse=True)
    assert difference is None, difference


@pytest.mark.skipif(not TREC_EVAL, reason="set TREC_EVAL")
@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("measure", ["rbp", "rbp.p=0.5", "rbp.p=0.8,2=3,3=0.5"])
def test_ten_rbp_alone_is_the_same(seed, measure, tmp_path):
    # Alone (or in all_trec, QUICKTEST), 10.0's uninitialised gain range starts at 0, as
    # evalkit's does: nothing is excused.
    qrels, run, _ = fuzz.make_case(random.Random(f"rbp-{seed}"), "10.0")
    difference = fuzz.compare(TREC_EVAL, "10.0", qrels, run, ["-q", "-m", measure],
                              str(tmp_path))
    assert difference is None, difference


# Queries judged only -1 among others: 10.0's ideal_dcg repeats the value of the last query
# before them with a grade >= 0 (form_res_rels.c keeps its grade counts); with -c a query the
# run misses too; first in order, 10.0 fails.
STALE = ("a 0 d1 2\na 0 d2 1\na 0 d3 0\nb 0 d1 -1\nb 0 d4 -1\nc 0 d2 1\nd 0 d5 -1\n"
         "e 0 d5 -1\nf 0 d1 3\ng 0 d2 -1\n",
         "a Q0 d1 1 0.9 r\na Q0 d3 2 0.5 r\nb Q0 d1 1 0.9 r\nb Q0 d2 2 0.8 r\n"
         "c Q0 d2 1 0.4 r\nd Q0 d2 1 0.4 r\nf Q0 d2 1 0.4 r\ng Q0 d9 1 1 r\n")


@pytest.mark.skipif(not TREC_EVAL, reason="set TREC_EVAL")
@pytest.mark.parametrize("flags", [
    ["-q", "-c", "-m", "ideal_dcg"], ["-q", "-c", "-m", "ideal_dcg.1=3,2=9,3=0.5"],
    ["-c", "-m", "ideal_dcg", "-m", "ndcg_cut.1,3"], ["-q", "-m", "ideal_dcg"],
    ["-q", "-c", "-m", "dcg", "-m", "ndcg_rel", "-m", "Rndcg", "-m", "G", "-m", "bpref"],
    ["-q", "-c", "-l", "2", "-m", "ideal_dcg", "-m", "all_trec"],
    ["-q", "-c", "-m", "ideal_dcg.0=1"], ["-q", "-c", "-m", "ideal_dcg.2=-1"]])
def test_ten_ideal_dcg_after_a_query_judged_only_negative(flags, tmp_path):
    difference = fuzz.compare(TREC_EVAL, "10.0", STALE[0].encode(), STALE[1].encode(), flags,
                              str(tmp_path))
    assert difference is None, difference


@pytest.mark.skipif(not TREC_EVAL, reason="set TREC_EVAL")
@pytest.mark.parametrize("n_queries", range(40, 60))
@pytest.mark.parametrize("measures", [["dcg.1=3", "ideal_dcg", "ndcg"],
                                      ["ndcg.2=5", "ideal_dcg", "official"],
                                      ["dcg", "ndcg.1=2"], ["ideal_dcg.1=2", "dcg.2=4"]])
def test_ten_shared_gains_crash_at_the_same_line(n_queries, measures, tmp_path):
    # dcg, ideal_dcg and ndcg share one parameter block in 10.0 (m_ndcg.c): with gains and
    # two of them, trec_eval crashes in its summary; what survives is its whole 4096-byte
    # blocks, so the output's length here moves the cut across the summary lines.
    qrels = "".join(f"q{i:03d} 0 d{j} {(i + j) % 3}\n" for i in range(n_queries)
                    for j in range(3))
    run = "".join(f"q{i:03d} Q0 d{j} {j} {1 / (j + 1)} r\n" for i in range(n_queries)
                  for j in range(4))
    flags = ["-q"] + [x for m in measures for x in ("-m", m)]
    difference = fuzz.compare(TREC_EVAL, "10.0", qrels.encode(), run.encode(), flags,
                              str(tmp_path))
    assert difference is None, difference


# The run read a piece at a time (evalkit.trec._streaming): pieces as small as one byte, so
# that queries straddle pieces, ungrouped runs (read whole, as trec_eval sorts them), comments,
# CRLF and C white space, with flags, against both programs.
@pytest.mark.parametrize(("version", "binary"), BINARIES)
@pytest.mark.parametrize("seed", range(60))
def test_random_cases_read_in_tiny_pieces(version, binary, seed, tmp_path, monkeypatch):
    from evalkit.trec import _streaming

    rng = random.Random(f"pieces-{seed}")
    monkeypatch.setattr(_streaming, "_CHUNK_BYTES", rng.choice([1, 2, 7, 31, 64, 200]))
    qrels, run, flags = fuzz.make_case(rng, version)
    if rng.random() < 0.7:  # most TREC runs are grouped by query: sort the lines so
        lines = run.splitlines(keepends=True)
        lines.sort(key=lambda line: (line.split() or [b""])[0])
        run = b"".join(lines)
    difference = fuzz.compare(binary, version, qrels, run, flags, str(tmp_path), excuse=True)
    assert difference is None, difference


GROUPED_QRELS = b"".join(b"%d 0 d%d %d\n" % (q, d, (q * d) % 4 - (d == 7))
                         for q in (1, 2, 10, 3) for d in range(12))
GROUPED_RUNS = [
    b"".join(b"%d Q0 d%d %d %.2f r%d\n" % (q, d, d, 1 / (d + 1), q) for q in (10, 1, 2, 4)
             for d in range(15)),
    b"# a comment\n" + b"".join(b"%d\tQ0 d%d %d %d r\r\n" % (q, d, d, d % 3)
                                 for q in (2, 1, 3) for d in range(10)) + b"#end\n",
    b"".join(b"%d \x0b Q0 d%d %d %d r extra\n\n" % (q, d, d, d % 2)
             for q in (3, 1) for d in range(9)),
    # ungrouped: query 1 comes back after query 2
    b"".join(b"%d Q0 d%d %d %d r\n" % (q, d, d, d) for q in (1, 2, 1) for d in range(5)),
    b"".join(b"%d Q0 d%d %d %d r\n" % (q, d % 6, d, d) for q in (1, 2) for d in range(8)),
    # ids with bytes above 127 and longer than 64 bytes, scores atof reads otherwise than float
    b"".join(b"%d Q0 d%d%s %d %s r\xe9\n" % (q, d, b"\xe9\xff" if d % 2 else b"x" * (d * 9), d,
                                            [b"1e1", b"0x10", b"1,5", b".5", b"5.", b"-0",
                                             b"1e400", b"+2", b"3e-2", b"0.1"][d])
             for q in (2, 10, 1) for d in range(10)),
]
GROUPED_FLAGS = [[], ["-q"], ["-q", "-c"], ["-q", "-J"], ["-c", "-l", "2", "-q"],
                 ["-q", "-m", "P.3,5", "-m", "ndcg_cut.5", "-m", "map"], ["-n", "-q", "-c"]]


@pytest.mark.parametrize(("version", "binary"), BINARIES)
@pytest.mark.parametrize("case", range(len(GROUPED_RUNS)))
@pytest.mark.parametrize("flags", GROUPED_FLAGS, ids=" ".join)
@pytest.mark.parametrize("size", [1, 40, 1 << 20])
def test_grouped_runs_in_pieces(version, binary, case, flags, size, tmp_path, monkeypatch):
    from evalkit.trec import _streaming

    monkeypatch.setattr(_streaming, "_CHUNK_BYTES", size)
    difference = fuzz.compare(binary, version, GROUPED_QRELS, GROUPED_RUNS[case], flags,
                              str(tmp_path))
    assert difference is None, difference


# The fast path (evalkit.trec._command_fast): a plain grouped run scored from its bytes. Ties
# on score are ordered by doc id in descending byte order (high bytes unsigned, a prefix
# after the longer id); hash collisions forced by keeping few bits of each doc hash.
def _tied_case(rng: random.Random) -> tuple[bytes, bytes]:
    stems = [b"d1", b"d10", b"d1\xe9", b"d1\xff", b"d\x80", b"d", b"D1", b"d2", b"d100",
             b"\xff", b"\x7f1", b"a\xc3\xa9", b"d01", b"d1a", b"d1A"]
    qrels, run = [], []
    # query ids of one word and longer (compared otherwise), some sharing a first word
    query_format = rng.choice([b"%d", b"topic-%d", b"q\xe9%d", b"%d-a-long-query-id"])
    for q in [query_format % q for q in rng.sample(range(1, 30), rng.randint(1, 6))]:
        docs = rng.sample(stems, rng.randint(2, len(stems)))
        for doc in rng.sample(docs, rng.randint(1, len(docs))):
            qrels.append(b"%s 0 %s %d\n" % (q, doc, rng.randint(0, 3)))
        scores = [rng.choice([1, 2, 3, 0.5]) for _ in docs]
        if rng.random() < 0.5:  # as most runs are: ranked by score already
            scores.sort(reverse=True)
        run += [b"%s Q0 %s %d %s r\n" % (q, doc, i, repr(s).encode())
                for i, (doc, s) in enumerate(zip(docs, scores, strict=True))]
    return b"".join(qrels), b"".join(run)


def _take_the_radix_sorts(monkeypatch, radix):
    """Odd seeds: the radix argsorts of evalkit._sorting from 2 items on, whatever this CPU
    measures faster (the blocks' keys, the scores, the qrels' duplicate check); even seeds:
    numpy's argsort."""
    from evalkit import _sorting

    monkeypatch.setattr(_sorting, "_radix_wins", lambda: bool(radix))
    monkeypatch.setattr(_sorting, "RADIX_MIN", 2 if radix else 1 << 62)


@pytest.mark.parametrize(("version", "binary"), BINARIES)
@pytest.mark.parametrize("seed", range(40))
def test_fast_path_ties_by_doc_bytes(version, binary, seed, tmp_path, monkeypatch):
    from evalkit.trec import _streaming

    rng = random.Random(f"ties-{seed}")
    monkeypatch.setattr(_streaming, "_CHUNK_BYTES", rng.choice([1, 40, 300, 1 << 20]))
    _take_the_radix_sorts(monkeypatch, seed % 2)
    qrels, run = _tied_case(rng)
    flags = rng.choice([["-q"], ["-q", "-c"], ["-q", "-J"], ["-q", "-l", "2"],
                        ["-q", "-m", "P.1,2,3", "-m", "ndcg_cut.2", "-m", "recip_rank"]])
    difference = fuzz.compare(binary, version, qrels, run, flags, str(tmp_path))
    assert difference is None, difference


@pytest.mark.parametrize(("version", "binary"), BINARIES)
@pytest.mark.parametrize("seed", range(30))
def test_fast_path_with_hash_collisions(version, binary, seed, tmp_path, monkeypatch):
    import numpy as np

    from evalkit.trec import _command_fast

    rng = random.Random(f"collide-{seed}")
    # 2-8 top bits of hash: keys collide within a block (scored the general way) and between
    # a run's doc and another judged doc (the match is refused on the bytes).
    bits = rng.choice([2, 5, 8])
    monkeypatch.setattr(_command_fast, "_HASH_MASK", np.uint64(((1 << bits) - 1) << (64 - bits)))
    _take_the_radix_sorts(monkeypatch, seed % 2)
    qrels, run = _tied_case(rng)
    difference = fuzz.compare(binary, version, qrels, run, ["-q", "-c"], str(tmp_path))
    assert difference is None, difference


def test_fast_path_is_taken_on_a_plain_run(tmp_path, monkeypatch, capsys):
    from evalkit import cli
    from evalkit.trec import _command_fast

    scored = []
    score = _command_fast.FastScorer.score

    def counting(self, block):
        result = score(self, block)
        scored.append(result is not None)
        return result

    monkeypatch.setattr(_command_fast.FastScorer, "score", counting)
    (tmp_path / "q").write_bytes(b"1 0 d1 0\n1 0 d10 2\n2 0 d1\xff 1\n")
    (tmp_path / "r").write_bytes(b"1 Q0 d1 1 0.5 r\n1 Q0 d10 2 0.5 r\n1 Q0 x 3 0.2 r\n"
                                 b"2 Q0 d1\xff 1 3 r\n2 Q0 d1 2 3 r\n")
    assert cli.main(["trec_eval", "-q", "-m", "P.1", "-m", "map", str(tmp_path / "q"),
                     str(tmp_path / "r")]) == 0
    assert scored and all(scored)
    # d10 ranks above d1 at equal score (descending bytes), and d1\xff above d1 (else
    # P_1 would be 0 and map 0.5)
    assert capsys.readouterr().out == "".join(
        f"{name:<22}\t{query}\t1.0000\n" for query in ("1", "2", "all")
        for name in ("map", "P_1"))


@pytest.mark.parametrize("seed", range(20))
def test_fast_path_decimal_scores_as_atof(seed):
    # Scores read by one division (Clinger's fast path): bit for bit C's atof, or None.
    import numpy as np

    from evalkit.trec import _command_fast
    from evalkit.trec._command_files import c_atof

    rng = random.Random(f"decimal-{seed}")
    used = 0
    for _ in range(50):
        tokens = [rng.choice([repr(rng.uniform(-100, 100))[:rng.randint(2, 15)],
                              f"{rng.uniform(-1e6, 1e6):.{rng.randint(0, 6)}f}",
                              rng.choice(["-0", "5.", ".5", "+2", "007", "-.0", "0.1", "+0.0",
                                          "9999999999999.9", "1234567.8901234"])])
                  for _ in range(rng.randint(1, 40))]
        if rng.random() < 0.2:  # not plain: the general path's
            tokens.append(rng.choice(["-", "+", ".", "1e5", "1..2", "0x1", "+-1",
                                      "1234567890123456", "inf"]))
        data = (" ".join(tokens) + " ").encode()
        first = np.cumsum([0] + [len(t) + 1 for t in tokens[:-1]])
        length = np.array([len(t) for t in tokens])
        got = _command_fast._decimal_numbers(np.frombuffer(data, dtype=np.uint8), first,
                                             length)
        expected = np.array([c_atof(t) for t in tokens])
        if got is None:
            assert any(len(t.strip("+-").replace(".", "")) > 15 or not t.strip("+-.")
                       or set(t) - set("0123456789.+-") or t.count(".") > 1
                       or "+" in t[1:] or "-" in t[1:] for t in tokens)
            continue
        used += 1
        assert np.array_equal(got.view(np.int64), expected.view(np.int64)), tokens
    assert used


def _mixed_length_case(rng: random.Random) -> tuple[bytes, bytes]:
    """Doc ids of very different lengths: some queries judge (or retrieve) ids far longer
    than the others', so the qrels and each block of the run have different longest ids."""
    def doc(i: int) -> str:
        return f"d{i}" if i % 3 or not long_ids else f"d{i}-" + "x" * long_ids
    qrels, run = [], []
    for q in range(1, rng.randint(2, 6)):
        long_ids = rng.choice([0, 0, 5, 20, 40])  # this query's long ids, if any
        docs = rng.sample(range(60), 40)
        for i in docs[:25]:
            qrels.append(f"{q} 0 {doc(i)} {rng.randint(0, 2)}")
        if rng.random() < 0.5:  # a long id judged but never retrieved
            qrels.append(f"{q} 0 unretrieved-{'y' * rng.choice([9, 30, 50])} 1")
        for rank, i in enumerate(docs[10:], 1):
            run.append(f"{q} Q0 {doc(i)} {rank} {100 - rank}.25 sys")
    return ("\n".join(qrels) + "\n").encode(), ("\n".join(run) + "\n").encode()


@pytest.mark.parametrize(("version", "binary"), BINARIES)
@pytest.mark.parametrize("seed", range(20))
def test_fast_path_with_ids_of_mixed_lengths(version, binary, seed, tmp_path, monkeypatch):
    from evalkit.trec import _streaming

    rng = random.Random(f"lengths-{seed}")
    monkeypatch.setattr(_streaming, "_CHUNK_BYTES", rng.choice([60, 400, 1 << 20]))
    qrels, run = _mixed_length_case(rng)
    difference = fuzz.compare(binary, version, qrels, run, ["-q", "-c"], str(tmp_path))
    assert difference is None, difference


@pytest.mark.parametrize("seed", range(20))
def test_fast_path_ids_of_mixed_lengths_against_evaluate(seed, tmp_path, monkeypatch):
    # Without the binaries too: the command's per-query values are ek.evaluate's (the fast
    # path once hashed an id differently when longer ids were hashed along with it, so the
    # qrels' long unretrieved ids made judged documents of the run look unjudged).
    import evalkit as ek
    from evalkit.trec import _streaming

    rng = random.Random(f"lengths-{seed}")
    monkeypatch.setattr(_streaming, "_CHUNK_BYTES", rng.choice([60, 400, 1 << 20]))
    qrels, run = _mixed_length_case(rng)
    (tmp_path / "qrels").write_bytes(qrels)
    (tmp_path / "run").write_bytes(run)
    code, out, _ = fuzz.run_evalkit(["-q", "-m", "map", "-m", "num_rel_ret",
                                     str(tmp_path / "qrels"), str(tmp_path / "run")])
    assert code == 0
    got = {(name, query): float(value) for name, query, value in
           (line.split() for line in out.decode().splitlines()) if query != "all"}
    expected = ek.evaluate(str(tmp_path / "qrels"), ek.read_run(str(tmp_path / "run")),
                           ["map", "num_rel_ret"])
    assert len(got) == 2 * len(expected)
    for query, row in expected.iterrows():
        assert got["map", query] == pytest.approx(round(row["map"], 4), abs=1e-12)
        assert got["num_rel_ret", query] == row["num_rel_ret"]


def test_fast_path_hash_of_an_id_does_not_depend_on_the_others():
    import numpy as np

    from evalkit._hashing import byte_hashes, string_hashes

    ids = [b"d1", b"doc-00000001", b"clueweb09-en0031-12-08165", b"clueweb09-en0034-12-08155",
           b"x" * 64, b""]
    alone = []
    for one in ids:
        alone.append(byte_hashes(one + bytes(8), np.array([0]), np.array([len(one)]))[0])
    text = b"".join(ids)
    length = np.array([len(i) for i in ids])
    together = byte_hashes(text + bytes(8), np.cumsum(length) - length, length)
    assert list(together) == alone
    assert len(set(alone)) == len(ids)
    strings = np.array([i.decode() for i in ids], dtype=object)
    assert list(string_hashes(strings)) == alone


def test_first_difference_names_the_first_line_that_differs():
    """What the fuzzer and bench_trec_eval print when trec_eval's output and evalkit's differ
    (a trec_eval built from an older tag, say): the first line that differs, each as printed,
    and the module's examples hold."""
    import doctest

    c_out = b"iprec_at_recall_0.20  \t301\t0.0437\niprec_at_recall_0.30  \t301\t0.0230\n"
    ek_out = b"iprec_at_recall_0.20  \t301\t0.0437\niprec_at_recall_0.30  \t301\t0.0241\n"
    assert fuzz.first_difference(c_out, ek_out) == (
        "line 2: trec_eval 'iprec_at_recall_0.30  \\t301\\t0.0230', "
        "evalkit 'iprec_at_recall_0.30  \\t301\\t0.0241'")
    assert fuzz.first_difference(c_out, c_out[:-1]).startswith("the same lines")
    assert fuzz.first_difference(c_out, c_out) == "the same output"  # exit codes differ
    assert fuzz.first_difference(b"P_5 all 0.2\n", b"P_5  all 0.2\n").startswith("line 1")
    assert fuzz.first_difference(b"", b"P_5 all 0.2\n") == (
        "line 1: trec_eval (no line), evalkit 'P_5 all 0.2'")
    failed, tried = doctest.testmod(fuzz)
    assert tried >= 2 and failed == 0
