"""Fuzz ``evalkit trec_eval`` against the real trec_eval binaries, byte for byte.

Usage::

    python tools/fuzz_trec_eval.py --cases 2000 --trec-eval /work/trec_eval-10/trec_eval \\
        --trec-eval-9 /work/trec_eval-9/trec_eval [--seed 0] [--skip-measures infAP,...]

Each case writes a random or adversarial qrels and run (ties, scores equal only as float32,
exponent forms, hex and comma scores, negative and fractional grades, tabs, vertical tabs,
form feeds and carriage returns between fields, '#' lines, blank lines, duplicate lines,
queries in one file only, queries judged only -1 among normal ones, ids that sort
differently as strings and numbers) and a random set of flags (-q, -c, -n, -l N, -m with
and without parameters, all_trec, official), runs the binary and evalkit (in this
process), and compares stdout and the exit status (a crash of trec_eval, a negative return
code, matches evalkit's 139). It prints the counts
and the first differences. ``--skip-measures`` leaves cases that ask for those measures
out of the count (measures evalkit does not compute yet).

A difference that ``evalkit trec_eval --help`` lists as deliberate is counted apart, as
what it is (see :func:`deliberate`), and does not fail the run: trec_eval 10.0's ``rbp``
beside other measures (``m_rbp.c`` starts its gain range from uninitialised memory), and
``-c`` on a run without a result line (trec_eval 10.0 prints an uninitialised run id;
evalkit refuses), and a query whose highest grade is below -1 (undefined in trec_eval: a
``memset`` of a negative size; evalkit stops as a crash). Each is told from the files and
flags themselves, not from evalkit's output alone, and every other line must still be the
same.
"""

from __future__ import annotations

import argparse
import io
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evalkit.cli import build_parser  # noqa: E402
from evalkit.trec import _command as _trec_eval  # noqa: E402
from evalkit.trec._command_files import TrecEvalError, read_trec_qrels  # noqa: E402

SEPARATORS = [" ", " ", " ", "\t", "  ", " \t", "\x0b", "\x0c"]
MEASURE_ARGS = [
    "official", "all_trec", "map", "P.3,1", "P.5", "recall.2,50", "iprec_at_recall.0.25,0.5",
    "Rprec_mult.0.5,3", "success.2,3", "ndcg_cut.3,7", "map_cut.4", "11pt_avg",
    "11pt_avg.0.2,0.5", "set_F.0.3", "ndcg", "bpref", "gm_map", "num_q", "runid",
    "recip_rank", "Rprec", "num_nonrel_judged_ret", "set_P", "set_recall", "infAP",
    "gm_bpref", "utility.1,-1,0,0", "binG", "G", "ndcg_rel", "Rndcg", "relative_P.5",
    "set_relative_P", "set_map", "relstring.10", "ndcg.1=3,2=9", "set",
]
MEASURES_10 = ["rbp", "rbp_resid", "unj", "unj.3", "rbp.p=0.5", "dcg", "dcg.1=3,2=9",
               "ideal_dcg", "ideal_dcg.1=3,2=9"]


class _Out(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.buffer = io.BytesIO()


def run_evalkit(argv: list[str], stdin: bytes | None = None) -> tuple[int, bytes, str]:
    """``evalkit trec_eval`` in this process: (exit code, stdout bytes, stderr)."""
    out, err = _Out(), io.StringIO()
    try:
        args = build_parser().parse_args(["trec_eval", *argv])
    except SystemExit as done:
        return int(done.code or 0), b"", "usage error"
    code = _trec_eval.run(args, stdout=out, stderr=err,
                          stdin=io.BytesIO(stdin) if stdin is not None else None)
    return code, out.buffer.getvalue(), err.getvalue()


def run_binary(binary: str, argv: list[str], stdin: bytes | None = None
               ) -> tuple[int, bytes, str]:
    done = subprocess.run([binary, *argv], input=stdin, capture_output=True, timeout=60,
                          check=False)
    code = 139 if done.returncode < 0 else done.returncode
    return code, done.stdout, done.stderr.decode("latin-1")


def _score(rng: random.Random, value: float) -> str:
    kind = rng.random()
    if kind < 0.55:
        return repr(value)
    if kind < 0.65:
        return f"{value:.3e}"
    if kind < 0.72:
        return f"{value:.1f}"  # many ties
    if kind < 0.78:
        return rng.choice(["0.30000001", "0.3", "0.29999999", "3e-1", ".3"])
    if kind < 0.82:
        return f"{value:.2f}".replace(".", ",")  # atof stops at the comma
    if kind < 0.85:
        return rng.choice(["1", "-0", "+2", "1e", "0x1p-2", "5.", "inf", "-inf", "1e400"])
    if kind < 0.9:
        return str(rng.randint(-3, 3))
    return f"{value:.8f}"


def _grade(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.8:
        return str(rng.choice([0, 0, 1, 1, 2, 3]))
    if kind < 0.9:
        return rng.choice(["1.5", "2.9", "-1", "0.7", "+1", "x", "01"])
    return str(rng.choice([-1, 0, 1]))


def make_case(rng: random.Random, version: str) -> tuple[bytes, bytes, list[str]]:
    """A random qrels, run and flags; about half the cases carry adversarial lines."""
    adversarial = rng.random() < 0.5
    n_queries = rng.randint(1, 8)
    numeric = rng.random() < 0.5
    queries = [str(rng.choice([1, 2, 9, 10, 11, 100, 3, 20]) + i * 7) if numeric
               else rng.choice(["q", "Q", "a", "B", "q1", "q10", "q2", "x-1"]) + str(i)
               for i in range(n_queries)]
    queries = list(dict.fromkeys(queries))
    docs = [f"d{i}" for i in range(rng.randint(2, 30))] + ["D1", "d01", "d1a"]
    sep = (lambda: rng.choice(SEPARATORS)) if adversarial else (lambda: " ")
    qrels_lines, run_lines = [], []
    for q in queries:
        judged = rng.sample(docs, rng.randint(1, len(docs) // 2 + 1))
        all_negative = adversarial and rng.random() < 0.04
        # judged only -1 ("in the pool, unjudged"): 10.0's ideal_dcg repeats the value of
        # the query before (form_res_rels.c keeps its grade counts); first, 10.0 fails
        only_minus_one = adversarial and not all_negative and rng.random() < 0.12
        for d in judged:
            g = rng.choice(["-1", "-2"]) if all_negative else "-1" if only_minus_one else (
                _grade(rng) if adversarial else str(rng.choice([0, 0, 1, 2, 3])))
            qrels_lines.append(sep().join([q, "0", d, g]))
    run_id = rng.choice(["run", "r1", "bm25"])
    for q in queries:
        if rng.random() < 0.15:  # the run misses this query
            continue
        retrieved = rng.sample(docs, rng.randint(1, len(docs)))
        for rank, d in enumerate(retrieved, 1):
            value = rng.choice([rng.random(), round(rng.random(), 1), 1.0 / rank])
            score = _score(rng, value) if adversarial else repr(value)
            run_lines.append(sep().join([q, "Q0", d, str(rank), score, run_id]))
    if rng.random() < 0.2:  # a query only in the run
        run_lines.append(f"zz Q0 d1 1 1.0 {run_id}")
    if adversarial:
        rng.shuffle(run_lines)
        if rng.random() < 0.1 and run_lines:  # a duplicate line
            run_lines.append(rng.choice(run_lines))
        if rng.random() < 0.1 and qrels_lines:
            qrels_lines.append(rng.choice(qrels_lines))
        if rng.random() < 0.15:
            run_lines.insert(rng.randint(0, len(run_lines)), rng.choice(["", "  ", "\t"]))
        if rng.random() < 0.05:
            qrels_lines.insert(rng.randint(0, len(qrels_lines)), "")
        if rng.random() < 0.15:
            run_lines.insert(rng.randint(0, len(run_lines)), "# a comment line here")
        if rng.random() < 0.15:
            qrels_lines.insert(rng.randint(0, len(qrels_lines) - 1), "# a b c")
        if rng.random() < 0.1:
            run_lines = [x + "\r" for x in run_lines]
        if rng.random() < 0.1:
            run_lines = [x + " trailing fields" for x in run_lines]
    qrels = ("\n".join(qrels_lines) + rng.choice(["\n", "\n", ""])).encode()
    run = ("\n".join(run_lines) + rng.choice(["\n", "\n", ""])).encode()
    flags: list[str] = []
    for flag in ("-q", "-c", "-n", "-J"):
        if rng.random() < 0.4:
            flags.append(flag)
    if rng.random() < 0.3:
        flags += ["-l", rng.choice(["0", "2", "3", "1.5"])]
    pool = MEASURE_ARGS + (MEASURES_10 if version == "10.0" else [])
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        flags += ["-m", rng.choice(pool)]
    return qrels, run, flags


def outcomes(binary: str, version: str, qrels: bytes, run: bytes, flags: list[str],
             folder: str) -> tuple[tuple[int, bytes, str], tuple[int, bytes, str]]:
    """evalkit's and the binary's (exit code, stdout, stderr) on the files written to
    ``folder``."""
    q_path, r_path = os.path.join(folder, "qrels"), os.path.join(folder, "run")
    Path(q_path).write_bytes(qrels)
    Path(r_path).write_bytes(run)
    theirs = run_binary(binary, [*flags, q_path, r_path])
    ours = run_evalkit(["--trec-eval-version", version, *flags, q_path, r_path])
    return ours, theirs


def compare(binary: str, version: str, qrels: bytes, run: bytes, flags: list[str],
            folder: str, *, excuse: bool = False) -> str | None:
    """None when evalkit and the binary agree, else a description of the difference. With
    ``excuse``, also None when the difference is a deliberate one (:func:`deliberate`)."""
    ours, theirs = outcomes(binary, version, qrels, run, flags, folder)
    if (ours[0], ours[1]) == (theirs[0], theirs[1]):
        return None
    if excuse and deliberate(version, run, flags, ours, theirs, qrels) is not None:
        return None
    return describe(flags, ours, theirs)


# The lines of rbp's value (rbp, rbp_p=0.8, rbp_p=0.8,2=3), not rbp_resid's.
_RBP_LINE = re.compile(rb"rbp(?:_p=\S*)?[ \t]")


def _no_result_line(run: bytes) -> bool:
    """Whether a run file holds no result line: every line blank (C white space) or a
    comment (its first field starting with '#')."""
    return all(not fields or fields[0].startswith(b"#")
               for fields in (line.split() for line in run.splitlines()))


def deliberate(version: str, run: bytes, flags: list[str], ours: tuple[int, bytes, str],
               theirs: tuple[int, bytes, str], qrels: bytes | None = None) -> str | None:
    """The deliberate difference (as ``evalkit trec_eval --help`` lists them) that
    explains evalkit's outcome ``ours`` against trec_eval's ``theirs`` (exit code, stdout,
    stderr), or None when none does:

    - ``"rbp beside other measures"``: trec_eval 10.0 asked for ``rbp`` and another measure,
      whose rbp lines differ only in their values (``m_rbp.c`` starts its gain range from
      uninitialised memory, which holds 0 only for rbp alone or in all_trec; evalkit starts
      it at 0); every other line and the exit code are the same.
    - ``"-c on a run without a result line"``: trec_eval 10.0 with ``-c`` and no ``-n`` on a
      run file with no result line, which it answers with an uninitialised run id (exit 0)
      and evalkit refuses (exit 2, saying why).
    - ``"a grade below -1 (undefined in trec_eval)"`` (both releases): evalkit stops as a
      crash (139) at a query whose highest grade in ``qrels`` is below -1, where trec_eval
      clears its grade counts with a negative size; trec_eval printed at least what
      evalkit printed, and whatever it did next (crash there or later, or go on with a
      corrupted heap) is not compared. Only with ``qrels``, whose grades are checked.

    None too when the two outcomes are the same.
    """
    if (ours[0], ours[1]) == (theirs[0], theirs[1]):
        return None  # nothing to explain
    if qrels is not None and _undefined_grade(version, qrels, ours, theirs):
        return "a grade below -1 (undefined in trec_eval)"
    if version != "10.0":
        return None  # nothing else deliberate in 9.0.8's mode
    try:  # the flags as evalkit's command reads them
        args = build_parser().parse_args(["trec_eval", *flags, "qrels", "run"])
    except SystemExit:
        return None
    asked = args.m or []
    rbp = [m for m in asked if m == "rbp" or m.startswith("rbp.")]
    if rbp and len(asked) > len(rbp) and ours[0] == theirs[0]:
        ours_lines, theirs_lines = ours[1].splitlines(), theirs[1].splitlines()
        if len(ours_lines) == len(theirs_lines) and all(
                (a == b) or (_RBP_LINE.match(a) and _RBP_LINE.match(b)
                             and a.rsplit(b"\t", 1)[0] == b.rsplit(b"\t", 1)[0])
                for a, b in zip(ours_lines, theirs_lines, strict=True)):
            return "rbp beside other measures"
    if (args.c and not args.n and _no_result_line(run)
            and ours[0] == 2 and not ours[1] and "evalkit refuses" in ours[2]
            and theirs[0] == 0):
        return "-c on a run without a result line"
    return None


_UNDEFINED_GRADE = re.compile(r"crashes at query '(.*)': the highest grade of this query is "
                              r"below -1")


def _undefined_grade(version: str, qrels: bytes, ours: tuple[int, bytes, str],
                     theirs: tuple[int, bytes, str]) -> bool:
    """Whether evalkit stopped as a crash at a query whose grades in ``qrels``, read as
    trec_eval ``version`` reads them (``atol``, 10.0's '#' lines), are all below -1, and
    trec_eval's stdout begins with evalkit's."""
    found = _UNDEFINED_GRADE.search(ours[2])
    if ours[0] != 139 or found is None or not theirs[1].startswith(ours[1]):
        return False
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "qrels")
        Path(path).write_bytes(qrels)
        try:
            table = read_trec_qrels(path, version)
        except TrecEvalError:  # a qrels trec_eval refuses: no query got as far as a crash
            return False
    grades = table["relevance"].to_numpy()[table["query_id"].to_numpy() == found.group(1)]
    return bool(grades.size) and int(grades.max()) < -1


def describe(flags: list[str], ours: tuple[int, bytes, str],
             theirs: tuple[int, bytes, str]) -> str:
    """What differs between evalkit's outcome and trec_eval's, in one line."""
    return (f"flags {flags}: exit ours {ours[0]} theirs {theirs[0]}; stderr ours "
            f"{ours[2].strip()[:200]!r} theirs {theirs[2].strip()[:200]!r}; stdout "
            f"{len(ours[1])} vs {len(theirs[1])} bytes; first differing line: "
            + first_difference(theirs[1], ours[1]))


def first_difference(c_out: bytes, ek_out: bytes) -> str:
    """Where two outputs first differ, as a line of each (the first lines of the C program's
    output and of evalkit's that are not the same), each as printed (tabs and spaces kept).

    >>> first_difference(b"P_5 all 0.2\\nP_10 all 0.1\\n", b"P_5 all 0.2\\nP_10 all 0.3\\n")
    "line 2: trec_eval 'P_10 all 0.1', evalkit 'P_10 all 0.3'"
    >>> first_difference(b"a\\nb\\n", b"a\\n")
    "line 2: trec_eval 'b', evalkit (no line)"
    """
    c_lines = c_out.decode(errors="replace").splitlines()
    ek_lines = ek_out.decode(errors="replace").splitlines()
    for number, lines in enumerate(itertools.zip_longest(c_lines, ek_lines), start=1):
        if lines[0] != lines[1]:
            shown = [repr(line) if line is not None else "(no line)" for line in lines]
            return f"line {number}: trec_eval {shown[0]}, evalkit {shown[1]}"
    if c_out == ek_out:
        return "the same output"
    return "the same lines (they differ in their line ends)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--trec-eval", default=os.environ.get("TREC_EVAL"))
    parser.add_argument("--trec-eval-9", default=os.environ.get("TREC_EVAL_9"))
    parser.add_argument("--skip-measures", default="",
                        help="comma-separated measure names whose cases are not counted")
    parser.add_argument("--show", type=int, default=5, help="differences to print")
    parser.add_argument("--keep", help="a folder to save the differing cases in")
    args = parser.parse_args(argv)
    skip = [m for m in args.skip_measures.split(",") if m]
    failed = 0
    for version, binary in (("10.0", args.trec_eval), ("9.0.8", args.trec_eval_9)):
        if not binary:
            print(f"trec_eval {version}: no binary given, skipped")
            continue
        rng = random.Random(f"{args.seed}-{version}")
        cases = differing = skipped = 0
        shown: list[str] = []
        excused: dict[str, int] = {}
        with tempfile.TemporaryDirectory() as folder:
            for number in range(args.cases):
                qrels, run, flags = make_case(rng, version)
                if any(f.split(".")[0] in skip for f in flags):
                    skipped += 1
                    continue
                cases += 1
                ours, theirs = outcomes(binary, version, qrels, run, flags, folder)
                if (ours[0], ours[1]) == (theirs[0], theirs[1]):
                    continue
                kind = deliberate(version, run, flags, ours, theirs, qrels)
                if kind is not None:
                    excused[kind] = excused.get(kind, 0) + 1
                    continue
                difference = describe(flags, ours, theirs)
                differing += 1
                if args.keep:
                    keep = Path(args.keep) / f"{version}-{number}"
                    keep.mkdir(parents=True, exist_ok=True)
                    (keep / "qrels").write_bytes(qrels)
                    (keep / "run").write_bytes(run)
                    (keep / "flags").write_text(" ".join(flags))
                if len(shown) < args.show:
                    shown.append(f"  case {number}: {difference}")
        print(f"trec_eval {version}: {cases} cases, {differing} differing"
              + (f" ({skipped} skipped for {', '.join(skip)})" if skipped else ""))
        if excused:
            print(f"  and {sum(excused.values())} deliberate differences, as --help lists "
                  "them: " + ", ".join(f"{kind}: {count}" for kind, count in excused.items()))
        for text in shown:
            print(text)
        failed += differing
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
