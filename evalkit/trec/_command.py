"""``evalkit trec_eval``: NIST trec_eval's command line, read and printed as trec_eval does,
on evalkit's measures.

Two releases are reproduced, byte for byte on stdout and in failing where they fail:
trec_eval **10.0** (the default) and **9.0.8** (``--trec-eval-version 9.0.8``, the version
pytrec_eval bundles). The rules below were read in their source (``trec_eval.c``,
``get_qrels.c``, ``get_trec_results.c``, ``form_res_rels.c``, ``meas_init.c``,
``meas_avg.c``, ``meas_print_*.c``, ``measures.c``, ``m_*.c``).

Reading (both releases): fields are separated by any of space, tab, vertical tab, form feed
and carriage return (C's ``isspace``); a qrels line has exactly 4 fields and a blank qrels
line is malformed; a run line has at least 6 fields (the rest are ignored) and blank run
lines are skipped; grades are read with C's ``atol`` (``1.5`` is 1, ``x`` is 0) and scores
with ``atof`` (``1,5`` is 1, ``0x10`` is 16); an empty file cannot be read; files are bytes
(no gzip, no decoding: ids are compared and printed byte for byte). The run id is the last
line's.

- 9.0.8 keeps scores as 32-bit floats: scores equal in float32 tie (``0.30000001`` and
  ``0.3``) and are then ordered by doc_id. 10.0 keeps doubles.
- 10.0 skips ``#`` comment lines: in the run, any line whose first field starts with ``#``;
  in the qrels, a line starting with ``#`` in column 0, but the line after a skipped comment
  is read as data even if it starts with ``#`` (and a skipped comment as the qrels' last line
  crashes 10.0). 9.0.8 reads ``#`` as data.
- 9.0.8 evaluates the queries of the run that are in the qrels; 10.0 goes through the queries
  of the qrels and fails (exit 4) at one that is not in the run, unless ``-c``; with ``-c``
  it scores that query on a one-document "bogus" ranking and prints its ``-q`` lines.
- Queries are evaluated in byte order of their ids. At each query trec_eval fails (exit 4,
  after printing the ``-q`` lines of the queries before) when the run or the qrels list a
  document twice for it, or when it is the first query and its grades are all negative; a
  later query whose highest grade is below -1 crashes trec_eval (segmentation fault; what was
  printed up to the last full 4096-byte block survives, which is what evalkit prints too).
- 10.0's ``ideal_dcg`` for a query whose grades are all negative (-1) is the ideal DCG of
  the last query evaluated before it that has a grade >= 0 (``form_res_rels.c`` leaves that
  query's grade counts in place); evalkit's ``IdealDCG`` is 0 there, the CLI prints 10.0's.
- 10.0's ``dcg``, ``ideal_dcg`` and ``ndcg`` share one block of gains (``m_ndcg.c``): a
  printed name carries the gains stored when it is set up, all three compute with the last
  stored, and with two of them and gains 10.0 crashes in its summary (see
  ``_shared_gains``); evalkit prints the same and fails (139) at the same line.
- ``all``: the mean over the queries evaluated (``-c``: over every query of the qrels),
  summed in query order; ``num_ret``, ``num_rel``, ``num_rel_ret``, ``num_nonrel_judged_ret``
  are sums; with ``-c``, ``num_rel`` counts every judgement with a grade > 0; ``gm_map`` is
  the geometric mean of AP, each floored at 1e-5.
- Output lines are ``"%-22s\\t%s\\t%6.4f\\n"`` (counts ``%ld``), measures in trec_eval's
  order whatever the order of ``-m``; a family's parameters come from its first ``-m``.
"""

from __future__ import annotations

import inspect
import math
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._version import find_version
from . import _evaluate as _evaluation
from ._evaluate import evaluate

__all__ = ["add_arguments", "help_text", "run", "VERSIONS", "DEFAULT_VERSION"]

VERSIONS = ("10.0", "9.0.8")
DEFAULT_VERSION = "10.0"
MIN_GEO_MEAN = 0.00001  # trec_eval's common.h
BOGUS_DOCNO = "ceci_nest_pas_un_docno"  # trec_eval 10.0's ranking for a query the run misses
PIPE_BLOCK = 4096  # what a crashed trec_eval has flushed of its stdout: whole blocks

LONG, FLOAT, CUT_LONG, CUT_FLOAT, PARAM_FLOAT, SPECIAL, STRING = (
    "long", "float", "cut_long", "cut_float", "param_float", "special", "string")


@dataclass(frozen=True)
class TrecMeasure:
    """One trec_eval measure: its kind, evalkit's metric name, default parameters, a one-line
    definition (``--help``) and the releases that have it."""

    name: str
    kind: str
    evalkit: str | None
    definition: str
    defaults: tuple = field(default=())
    summed: bool = False
    versions: tuple = VERSIONS


_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_LEVELS = tuple(i / 10 for i in range(11))

#: Every measure of trec_eval's ``te_trec_measures`` (measures.c) that reads qrels and a run,
#: in its printing order. ``evalkit`` is the metric of :func:`evalkit.evaluate` behind it.
ALL_MEASURES = [
    TrecMeasure("runid", SPECIAL, None, "the run id of the run file's last line"),
    TrecMeasure("num_q", SPECIAL, None, "queries averaged over (-c: every query in the qrels)"),
    TrecMeasure("num_ret", LONG, "NumRet", "documents retrieved (summed over queries)",
                summed=True),
    TrecMeasure("num_rel", LONG, "NumRel", "relevant documents in the qrels, R (summed)",
                summed=True),
    TrecMeasure("num_rel_ret", LONG, "NumRelRet", "relevant documents retrieved (summed)",
                summed=True),
    TrecMeasure("map", FLOAT, "AP", "average precision: precision at each relevant document "
                "retrieved, summed, divided by R"),
    TrecMeasure("gm_map", SPECIAL, "AP", "geometric mean over queries of AP (floored at "
                "1e-5); summary only"),
    TrecMeasure("Rprec", FLOAT, "Rprec", "precision after R documents"),
    TrecMeasure("bpref", FLOAT, "Bpref", "binary preference: relevant documents ranked above "
                "judged non-relevant ones (Buckley & Voorhees 2004)"),
    TrecMeasure("recip_rank", FLOAT, "RR", "1 / rank of the first relevant document"),
    TrecMeasure("iprec_at_recall", CUT_FLOAT, "IPrec", "interpolated precision at recall "
                "levels (default 0.0,0.1,...,1.0)", _LEVELS),
    TrecMeasure("P", CUT_LONG, "P", "precision at cutoffs k: relevant in the top k / k "
                "(default 5,10,15,20,30,100,200,500,1000)", _CUTS),
    TrecMeasure("relstring", STRING, "RelString", "the grades of the top documents as a string "
                "(per query only)"),
    TrecMeasure("recall", CUT_LONG, "R", "recall at cutoffs k: relevant in the top k / R",
                _CUTS),
    TrecMeasure("infAP", FLOAT, "infAP", "inferred AP (Yilmaz & Aslam 2006)"),
    TrecMeasure("gm_bpref", SPECIAL, "Bpref", "geometric mean over queries of bpref (floored "
                "at 1e-5); summary only"),
    TrecMeasure("Rprec_mult", CUT_FLOAT, "RprecMult", "precision at multiples m of R, at rank "
                "(long)(m R + 0.9) (default 0.2,0.4,...,2.0)",
                (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    TrecMeasure("utility", FLOAT, "Utility", "utility of the retrieved set"),
    TrecMeasure("11pt_avg", PARAM_FLOAT, "IPrec", "interpolated precision averaged over "
                "recall levels (default the 11 levels 0.0,...,1.0)", _LEVELS),
    TrecMeasure("binG", FLOAT, "BinG", "binary gain"),
    TrecMeasure("G", FLOAT, "G", "gain"),
    TrecMeasure("dcg", FLOAT, "DCG", "discounted cumulative gain", versions=("10.0",)),
    TrecMeasure("ideal_dcg", FLOAT, "IdealDCG", "ideal DCG", versions=("10.0",)),
    TrecMeasure("ndcg", FLOAT, "nDCG", "nDCG, gains = qrels grades, ideal ranking from the "
                "qrels (Jarvelin & Kekalainen 2002)"),
    TrecMeasure("ndcg_rel", FLOAT, "nDCGRel", "nDCG averaged over relevant documents"),
    TrecMeasure("Rndcg", FLOAT, "RnDCG", "nDCG at R"),
    TrecMeasure("ndcg_cut", CUT_LONG, "nDCG", "nDCG at cutoffs k", _CUTS),
    TrecMeasure("map_cut", CUT_LONG, "AP", "average precision of the top k, divided by R",
                _CUTS),
    TrecMeasure("relative_P", CUT_LONG, "RelP", "relative precision at cutoffs", _CUTS),
    TrecMeasure("success", CUT_LONG, "Success", "1 if a relevant document is in the top k "
                "(default 1,5,10)", (1, 5, 10)),
    TrecMeasure("set_P", FLOAT, "SetP", "relevant retrieved / retrieved"),
    TrecMeasure("set_relative_P", FLOAT, "SetRelP", "relative set precision"),
    TrecMeasure("set_recall", FLOAT, "SetR", "relevant retrieved / R"),
    TrecMeasure("set_map", FLOAT, "SetAP", "set precision times set recall"),
    TrecMeasure("set_F", PARAM_FLOAT, "SetF", "(b+1) P R / (b P + R) of set_P and set_recall "
                "(default b = 1.0)", (1.0,)),
    TrecMeasure("num_nonrel_judged_ret", LONG, "NumNonRelJudgedRet", "judged non-relevant "
                "documents retrieved (summed)", summed=True),
    TrecMeasure("rbp", FLOAT, "RBP", "rank-biased precision (Moffat & Zobel 2008)",
                versions=("10.0",)),
    TrecMeasure("rbp_resid", FLOAT, "RBPResid", "rank-biased precision's residual",
                versions=("10.0",)),
    TrecMeasure("unj", CUT_LONG, "Unjudged", "unjudged documents in the top k", (5, 10, 20),
                versions=("10.0",)),
]
_BY_NAME_ALL = {m.name: m for m in ALL_MEASURES}
#: trec_eval's measures whose parameters are not cutoffs (evaluate reads them: utility's
#: coefficients, gains, rbp's p, relstring's length).
_PARAMETERS = getattr(_evaluation, "TREC_EVAL_PARAMETERS", {})


def _zeroed_for_bogus(printed: str) -> bool:
    """Whether 10.0 sets this value to 0 after scoring a bogus ranking (trec_eval.c matches
    the printed name: exactly num_ret, utility or rbp_resid, or any name starting unj)."""
    return printed in ("num_ret", "utility", "rbp_resid") or printed.startswith("unj")


def _computed(measure: TrecMeasure) -> bool:
    """Whether :func:`evalkit.evaluate` computes this measure (its registry may grow)."""
    if measure.kind == SPECIAL and measure.evalkit is None:
        return measure.name in ("runid", "num_q")
    if measure.evalkit is not None:
        return measure.evalkit in _evaluation.METRICS
    return False


#: The measures evalkit computes, in trec_eval's printing order.
SUPPORTED = [m for m in ALL_MEASURES if _computed(m)]
BY_NAME = {m.name: m for m in SUPPORTED}
#: trec_eval's qrels measures that evalkit does not compute (``all_trec`` leaves them out).
NOT_COMPUTED = [m.name for m in ALL_MEASURES if not _computed(m)]
OTHER_TREC_EVAL = [
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
    "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
    "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
    "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap",
]

_OFFICIAL = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
             "bpref", "recip_rank", "iprec_at_recall", "P"]
_ALL_TREC_9 = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
               "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall",
               "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult",
               "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P",
               "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"]
_ALL_TREC_10 = (_ALL_TREC_9[:14] + ["unj", "rbp", "rbp_resid"] + _ALL_TREC_9[14:])
_SET = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
        "set_recall", "set_relative_P", "set_map", "set_F"]
_PREFS = ["all_prefs", "prefs", "qrels_jg"]

NICKNAMES = {"official": _OFFICIAL, "all_trec": _ALL_TREC_10, "set": _SET}
_NICKNAMES = {"10.0": NICKNAMES, "9.0.8": {"official": _OFFICIAL, "all_trec": _ALL_TREC_9,
                                          "set": _SET}}

#: trec_eval's options that evalkit does not support, with what they do.
UNSUPPORTED_OPTIONS = {
    "-D": ("--Debug_level", "debug output"),
    "-J": ("--Judged_docs_only", "evaluate over judged documents only"),
    "-N": ("--Number_docs_in_coll", "number of documents in the collection"),
    "-M": ("--Max_retrieved_per_topic", "keep only the top N documents of each query"),
    "-R": ("--Rel_info_format", "other relevance formats: prefs, qrels_prefs, qrels_jg"),
    "-T": ("--Results_format", "other results formats"),
    "-Z": ("--Zscore", "Z scores from a file of means and deviations"),
    "-o": ("--Output_old_results_format", "the old output format"),
}


class TrecEvalError(Exception):
    """A problem to report on stderr, with trec_eval's exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


# ---------------------------------------------------------------------------------------------
# C's atol and atof, on arrays of tokens
# ---------------------------------------------------------------------------------------------

_LONG_MAX = 2**63 - 1
_LONG_PREFIX = re.compile(r"[+-]?[0-9]*")
_PLAIN_LONG = r"[+-]?[0-9]{1,18}"
_PLAIN_FLOAT = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_FLOAT_PREFIX = re.compile(
    r"(?P<sign>[+-]?)(?:"
    r"(?P<hex>0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)"
    r"|(?P<inf>[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)"
    r"|(?P<nan>[nN][aA][nN](?:\([0-9A-Za-z_]*\))?)"
    r"|(?P<dec>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))")


def c_atol(text: str) -> int:
    """C's ``atol`` (glibc: ``strtol`` base 10, clamped): the leading whole number, else 0."""
    digits = _LONG_PREFIX.match(text).group()
    if digits in ("", "+", "-"):
        return 0
    return max(-_LONG_MAX - 1, min(_LONG_MAX, int(digits)))


def c_atof(text: str) -> float:
    """C's ``atof`` (glibc ``strtod``): the longest leading number, else 0.0."""
    match = _FLOAT_PREFIX.match(text)
    if match is None:
        return 0.0
    sign = -1.0 if match.group("sign") == "-" else 1.0
    if match.group("hex"):
        body = match.group("hex")
        if not re.match(r"0[xX](?:[0-9a-fA-F]|\.[0-9a-fA-F])", body):
            return sign * 0.0
        try:
            return sign * float.fromhex(body if "p" in body.lower() else body + "p0")
        except OverflowError:
            return sign * math.inf
    if match.group("inf"):
        return sign * math.inf
    if match.group("nan"):
        return math.nan
    return sign * float(match.group("dec"))


def _only(tokens: np.ndarray, allowed: bytes) -> bool:
    """Whether every token is made of the characters ``allowed`` (one pass in C)."""
    joined = "".join(tokens.tolist()).encode("latin-1")
    return not joined.translate(None, allowed)


def _c_numbers(tokens: np.ndarray, *, dtype: type, characters: bytes, plain: str,
               one: Any) -> np.ndarray:
    """``one`` (C's ``atol`` or ``atof``) of each token, vectorised where Python reads what C
    reads: in one pass when every token is made of ``characters`` and Python reads each
    whole, else the tokens that match ``plain`` in one pass and the rest one by one."""
    if tokens.size and _only(tokens, characters):
        try:  # such a token read whole by int()/float() is read alike by atol/atof
            return tokens.astype(dtype)
        except (ValueError, OverflowError):
            pass
    series = pd.Series(tokens, dtype=object)
    matched = series.str.fullmatch(plain).to_numpy(dtype=bool)
    values = np.zeros(len(tokens), dtype=dtype)
    if matched.any():
        values[matched] = series[matched].astype(dtype).to_numpy()
    odd = np.flatnonzero(~matched)
    if odd.size:  # rare: '1.5', '1,5', '0x1p3', 'inf', '1e', '+', huge values, ...
        values[odd] = [one(t) for t in tokens[odd]]
    return values


def _atol_array(tokens: np.ndarray) -> np.ndarray:
    """``atol`` of each token; plain whole numbers in one vectorised pass."""
    return _c_numbers(tokens, dtype=np.int64, characters=b"0123456789+-", plain=_PLAIN_LONG,
                      one=c_atol)


def _atof_array(tokens: np.ndarray) -> np.ndarray:
    """``atof`` of each token; plain decimal numbers in one vectorised pass (Python's and
    glibc's conversions are both correctly rounded, so they agree)."""
    return _c_numbers(tokens, dtype=np.float64, characters=b"0123456789+-.eE",
                      plain=_PLAIN_FLOAT, one=c_atof)


# ---------------------------------------------------------------------------------------------
# Reading the files as trec_eval reads them
# ---------------------------------------------------------------------------------------------

# C's isspace: space, \t, \n, \v, \f, \r. Every other byte is part of a field.
_TOKEN = re.compile(r"[^ \t\n\v\f\r]+|\n")


class Crash(TrecEvalError):
    """trec_eval itself crashes (a segmentation fault) on this input."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code=139)


def _read_bytes(path: str, what: str, version: str, stdin: Any = None) -> bytes:
    if what == "results" and version == "10.0" and path.startswith("-"):
        data = (stdin or sys.stdin.buffer).read()  # 10.0 reads the run from stdin
        if not data:
            raise TrecEvalError(f"cannot read {what} file '{path}': stdin is empty", code=2)
        return data
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise TrecEvalError(f"cannot read {what} file '{path}' ({error.strerror})",
                            code=2) from None
    if not data:  # trec_eval cannot read an empty file
        raise TrecEvalError(f"cannot read {what} file '{path}': it is empty", code=2)
    return data


#: C's isspace over the 256 byte values.
_C_SPACE = np.zeros(256, dtype=bool)
_C_SPACE[[9, 10, 11, 12, 13, 32]] = True
#: Bytes that Python's str.split() takes for white space (decoded as Latin-1) and C does not.
_PYTHON_ONLY_SPACE = (b"\x1c", b"\x1d", b"\x1e", b"\x1f", b"\x85", b"\xa0")


def _lines(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The fields of every line: (fields, the line of each field, fields per line, each
    line's first byte, the first byte of each line's first field, 0 for a line without one);
    every line ends with a newline (one is added at the end if missing).
    The text is decoded as Latin-1, one character per byte, so ids keep their bytes, their
    byte order and their equality. Fields are split at C's white space (``isspace``):
    ``str.split`` does that in C unless a byte it also splits at is in the file."""
    if not data.endswith(b"\n"):
        data += b"\n"
    raw = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(raw == 10)
    starts = np.r_[0, ends[:-1] + 1]
    first = raw[starts]
    space = _C_SPACE[raw]
    begins = ~space
    begins[1:] &= space[:-1]
    field_at = np.flatnonzero(begins)  # the byte where each field starts
    del space, begins
    field_line = np.searchsorted(ends, field_at)
    counts = np.bincount(field_line, minlength=ends.size)
    head = np.zeros(ends.size, dtype=np.uint8)
    has = counts > 0
    head[has] = raw[field_at[(np.cumsum(counts) - counts)[has]]]
    text = data.decode("latin-1")
    if any(byte in data for byte in _PYTHON_ONLY_SPACE):
        fields = np.array([t for t in _TOKEN.findall(text) if t != "\n"], dtype=object)
    else:
        fields = np.array(text.split(), dtype=object)
    return fields, field_line, counts, first, head


def _first_field_index(counts: np.ndarray) -> np.ndarray:
    return np.cumsum(counts) - counts


def read_trec_qrels(path: str, version: str) -> pd.DataFrame:
    """The qrels as trec_eval ``version`` reads them: ``query_id``, ``doc_id``, ``relevance``
    (``atol``), in file order."""
    fields, field_line, counts, first, _ = _lines(_read_bytes(path, "qrels", version))
    n = counts.size
    parsed = np.ones(n, dtype=bool)
    if version == "10.0":
        # A '#' in column 0 skips the line, and the line after a skipped one is read as data:
        # in a run of '#' lines, the 1st, 3rd, ... are skipped.
        hashed = first == ord("#")
        index = np.arange(n)
        run_start = hashed & ~np.r_[False, hashed[:-1]]
        position = index - np.maximum.accumulate(np.where(run_start, index, 0))
        parsed = ~(hashed & (position % 2 == 0))
        if n and not parsed[-1]:
            raise Crash(f"{path}: trec_eval 10.0 crashes on a '#' comment as the last line of "
                        "the qrels")
    bad = np.flatnonzero(parsed & (counts != 4))
    if bad.size:
        line = int(bad[0]) + 1
        raise TrecEvalError(f"{path}, line {line}: malformed qrels line (expected 4 fields "
                            "'query_id iteration doc_id relevance', got "
                            f"{int(counts[bad[0]])}); trec_eval quits", code=2)
    keep = parsed[field_line]
    fields = fields[keep]
    return pd.DataFrame({"query_id": fields[0::4], "doc_id": fields[2::4],
                         "relevance": _atol_array(fields[3::4])})


def read_trec_results(path: str, version: str, stdin: Any = None) -> tuple[pd.DataFrame, str]:
    """The run as trec_eval ``version`` reads it (``query_id``, ``doc_id``, ``score``; scores
    rounded to float32 for 9.0.8) and the run id of its last line."""
    fields, field_line, counts, _, head = _lines(_read_bytes(path, "results", version, stdin))
    starts = _first_field_index(counts)
    used = counts > 0  # blank lines are skipped
    if version == "10.0":
        used &= head != ord("#")  # a first field starting with '#' is a comment
    bad = np.flatnonzero(used & (counts < 6))
    if bad.size:
        line = int(bad[0]) + 1
        raise TrecEvalError(f"{path}, line {line}: malformed results line (expected 6 fields "
                            "'query_id Q0 doc_id rank score run_id', got "
                            f"{int(counts[bad[0]])}); trec_eval quits", code=2)
    at = starts[used]
    score = _atof_array(fields[at + 4])
    if version == "9.0.8":
        with np.errstate(over="ignore"):
            score = score.astype(np.float32).astype(np.float64)
    if np.isnan(score).any():
        row = int(np.flatnonzero(np.isnan(score))[0])
        raise TrecEvalError(f"{path}, line {int(np.flatnonzero(used)[row]) + 1}: a score that "
                            "reads as NaN; trec_eval's ranking of NaN depends on its sort, "
                            "evalkit refuses it", code=2)
    if not np.isfinite(score).all():  # +-inf rank as trec_eval ranks them: by their order
        score = np.unique(score, return_inverse=True)[1].astype(np.float64)
    run_id = str(fields[at[-1] + 5]) if at.size else ""
    table = pd.DataFrame({"query_id": fields[at], "doc_id": fields[at + 2], "score": score})
    return table, run_id


# ---------------------------------------------------------------------------------------------
# -m: which measures, with which parameters
# ---------------------------------------------------------------------------------------------


@dataclass
class Selection:
    """The measures asked for (names), each family's parameter text, and the nickname
    members evalkit leaves out."""

    names: set[str] = field(default_factory=set)
    params: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def _known(name: str, version: str) -> bool:
    measure = _BY_NAME_ALL.get(name)
    return measure is not None and version in measure.versions


def select_measures(arguments: Sequence[str], version: str = DEFAULT_VERSION) -> Selection:
    """Apply each ``-m`` as trec_eval's ``mark_measure`` does."""
    selection = Selection()
    nicknames = _NICKNAMES[version]
    for argument in arguments or ["official"]:
        name, dot, param = argument.partition(".")
        if dot:
            if not param:
                raise TrecEvalError(f"improper measure in parameter '{name}' (-m {argument})")
            selection.params.setdefault(name, param)  # the first one given wins
        if name in nicknames:
            for member in nicknames[name]:
                if member in BY_NAME:
                    selection.names.add(member)
                elif member not in selection.skipped:
                    selection.skipped.append(member)
        elif name in BY_NAME and _known(name, version):
            selection.names.add(name)
        elif _known(name, version) or name in OTHER_TREC_EVAL or name in _PREFS:
            raise TrecEvalError(
                f"measure '{name}' is trec_eval {version}'s but evalkit does not compute it; "
                f"see 'evalkit trec_eval --help' for the measures it does")
        else:
            raise TrecEvalError(f"illegal measure '{argument}'{_suggest(name, version)}")
    return selection


def _suggest(name: str, version: str) -> str:
    import difflib

    if name == "all":
        return "; did you mean 'all_trec'?"
    names = [m.name for m in SUPPORTED if version in m.versions] + list(_NICKNAMES[version])
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    return f"; did you mean '{close[0]}'?" if close else ""


@dataclass(frozen=True)
class Column:
    """One printed value: its trec_eval name, and the evalkit labels it is computed from."""

    name: str
    measure: TrecMeasure
    labels: tuple[str, ...]  # evalkit labels; PARAM_FLOAT averages them
    crashes: bool = False  # trec_eval crashes right after printing this one's summary line


#: trec_eval 10.0's m_ndcg.c gives dcg, ideal_dcg and ndcg one parameter block (their gains)
_SHARED_GAINS = ("dcg", "ideal_dcg", "ndcg")


def _shared_gains(selection: Selection, version: str) -> dict[str, tuple[str | None, str | None,
                                                                     bool]]:
    """10.0's dcg, ideal_dcg and ndcg share one parameter block (``m_ndcg.c``): each one
    asked for, in trec_eval's order, stores its own ``-m`` parameters there (replacing what
    an earlier one stored) and takes its printed name from what is there when it is set up;
    all of them compute with what is there at the end. When two or more are asked for and
    one has parameters, the summary frees the block once per measure (``meas_print_final.c``)
    and trec_eval crashes: after the first one's summary line if its name is its plain name
    (a string constant it frees), else after the second one's (a double free).

    Returns, per name: (printed parameters, gains computed with, crashes after its line)."""
    asked = [name for name in _SHARED_GAINS
             if name in selection.names and _known(name, version) and name in BY_NAME]
    if version != "10.0":
        return {name: (selection.params.get(name),) * 2 + (False,) for name in asked}
    current: str | None = None
    printed: dict[str, str | None] = {}
    for name in asked:
        current = selection.params.get(name, current)
        printed[name] = current
    crash_at = None
    if len(asked) >= 2 and current is not None:
        crash_at = asked[0] if printed[asked[0]] is None else asked[1]
    return {name: (printed[name], current, name == crash_at) for name in asked}


def _split(text: str) -> list[str]:
    return text.split(",")


def plan(selection: Selection, version: str = DEFAULT_VERSION) -> list[Column]:
    """The printed names in trec_eval's order, with the evalkit measures behind them
    (``meas_init.c``: whole-number cutoffs by ``atol``, sorted, positive and distinct; other
    cutoffs by ``atof``, sorted and distinct)."""
    columns: list[Column] = []
    shared = _shared_gains(selection, version)
    for measure in SUPPORTED:
        if measure.name not in selection.names or version not in measure.versions:
            continue
        text = selection.params.get(measure.name)
        name = measure.name
        if name in shared:
            printed, gains, crashes = shared[name]
            if text is not None:  # trec_eval reads each one's own parameters as it sets it up
                _check_parameters(name, text)
            label = measure.evalkit if gains is None else f"{name}.{gains}"
            columns.append(Column(name if printed is None else f"{name}_{printed}", measure,
                                  (label,), crashes))
            continue
        if measure.kind == CUT_LONG:
            cuts = list(measure.defaults) if text is None else sorted(
                c_atol(part) for part in _split(text))
            if cuts[0] <= 0:
                raise TrecEvalError(f"-m {name}.{text}: negative cutoff; trec_eval cannot "
                                    f"initialize measure '{name}'", code=2)
            if len(set(cuts)) != len(cuts):
                raise TrecEvalError(f"-m {name}.{text}: duplicate cutoffs; trec_eval cannot "
                                    f"initialize measure '{name}'", code=2)
            columns += [Column(f"{name}_{k}", measure, (f"{measure.evalkit}@{k}",))
                        for k in cuts]
        elif measure.kind == CUT_FLOAT:
            values = list(measure.defaults) if text is None else sorted(
                c_atof(part) for part in _split(text))
            if len(set(values)) != len(values):
                raise TrecEvalError(f"-m {name}.{text}: duplicate cutoffs; trec_eval cannot "
                                    f"initialize measure '{name}'", code=2)
            _check_levels(measure, text, values)
            columns += [Column(f"{name}_{v:3.2f}", measure, (f"{measure.evalkit}@{v!r}",))
                        for v in values]
        elif measure.kind == PARAM_FLOAT:
            values = list(measure.defaults) if text is None else [
                c_atof(part) for part in _split(text)]
            label = name if text is None else f"{name}_{text}"
            if name == "set_F":
                _check_levels(measure, text, values[:1])
                columns.append(Column(label, measure, (f"SetF@{values[0]!r}",)))
            else:
                _check_levels(measure, text, values)
                columns.append(Column(label, measure, tuple(f"IPrec@{v!r}" for v in values)))
        elif text is not None and name in _PARAMETERS:  # utility, ndcg gains, rbp.p, ...
            label = _check_parameters(name, text)
            columns.append(Column(f"{name}_{text}", measure, (label,)))
        else:
            labels = (measure.evalkit,) if measure.evalkit else ()
            columns.append(Column(name, measure, labels))
    return columns


def _check_parameters(name: str, text: str) -> str:
    """evaluate's label for trec_eval's ``name.text``, once evaluate has read it."""
    label = f"{name}.{text}"
    try:
        _evaluation._parse_metrics([label])
    except ValueError as error:
        raise TrecEvalError(f"-m {label}: {error}", code=2) from None
    return label


def _check_levels(measure: TrecMeasure, text: str | None, values: list[float]) -> None:
    """evalkit's deliberate limits on real-valued parameters (trec_eval takes any number)."""
    upper = 1.0 if measure.evalkit == "IPrec" else math.inf
    if not all(math.isfinite(v) and 0 <= v <= upper for v in values):
        where = "in [0, 1]" if upper == 1 else ">= 0"
        raise TrecEvalError(f"-m {measure.name}.{text}: evalkit takes parameters {where} "
                            "here (trec_eval takes any number)", code=2)


# ---------------------------------------------------------------------------------------------
# trec_eval's loop over queries, computed for all queries at once
# ---------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What trec_eval prints and how it ends: the queries evaluated (in order), their
    values, the summary (None when trec_eval stops before it) and the failure, if any."""

    queries: list[str]
    per_query: pd.DataFrame
    summary: dict[str, Any] | None
    failure: TrecEvalError | None = None


def _evaluate_options(version: str) -> dict[str, Any]:
    """evaluate's keyword for the trec_eval release, when it has one."""
    parameters = inspect.signature(evaluate).parameters
    for keyword in ("trec_eval_version", "trec_eval", "version"):
        if keyword in parameters:
            return {keyword: version}
    return {}


def _sequential_sum(values: np.ndarray) -> float:
    """The sum in order, as trec_eval's accumulator adds the queries (not pairwise)."""
    return float(np.cumsum(values, dtype=np.float64)[-1]) if values.size else 0.0


def _stale_ideal_dcg(values: np.ndarray, negative: np.ndarray) -> np.ndarray:
    """trec_eval 10.0's ``ideal_dcg`` per query, in evaluation order, from evalkit's.

    For a query whose grades are all negative (its highest grade is -1: below, 10.0 crashes;
    as the first query, it fails) ``form_res_rels.c`` counts grades 0 .. -1, i.e. none: the
    grade counts (``rel_levels``, ``num_rel_levels``) of the last query evaluated before it
    with a grade >= 0 stay, and ``m_ndcg.c`` walks that query's ideal ranking, with the
    same gains. So such a query prints that query's ideal DCG: a forward fill in evaluation
    order. The other measures are unaffected: they divide or weigh the run's gains, all 0
    here (a negative grade gains nothing; evalkit refuses gains for negative grades).
    """
    if not negative.any():
        return values
    source = np.maximum.accumulate(np.where(negative, 0, np.arange(values.size)))
    return values[source]


def compute(qrels: pd.DataFrame, run: pd.DataFrame, run_id: str, columns: list[Column], *,
            relevance_level: int, complete: bool, version: str = DEFAULT_VERSION) -> Outcome:
    """trec_eval's loop over queries (see the module's documentation), vectorised."""
    # Hashed, then only the distinct ids sorted (byte order: ids are Latin-1 text).
    q_ids = np.sort(pd.unique(qrels["query_id"].to_numpy(dtype=object)))
    r_ids = np.sort(pd.unique(run["query_id"].to_numpy(dtype=object)))
    if version == "10.0":
        loop = q_ids
        in_run = np.isin(loop, r_ids)
    else:
        loop = np.intersect1d(r_ids, q_ids)
        in_run = np.ones(loop.size, dtype=bool)
    n = loop.size
    reads_pairs = any(c.measure.name not in ("runid", "num_q") for c in columns)
    fail = np.zeros(n, dtype=np.int8)  # 0 fine, 1 exit 4, 2 crash
    reason = np.full(n, "", dtype=object)
    max_rel = np.zeros(n)
    if reads_pairs and n:
        index = pd.Index(loop)
        run_dup = pd.Index(run["query_id"][run.duplicated(["query_id", "doc_id"])].unique())
        qrels_dup = pd.Index(
            qrels["query_id"][qrels.duplicated(["query_id", "doc_id"])].unique())
        max_rel = qrels.groupby("query_id", sort=False)["relevance"].max().reindex(
            index).to_numpy()
        dup = index.isin(run_dup) | index.isin(qrels_dup)
        reason[dup] = "a document is listed twice for this query"
        fail[dup] = 1
        first_negative = ~dup & (np.arange(n) == 0) & (max_rel < 0)
        fail[first_negative] = 1
        reason[first_negative] = "the first query evaluated has only negative grades"
        crash = ~dup & (np.arange(n) > 0) & (max_rel <= -2)
        fail[crash] = 2
        reason[crash] = "the highest grade of this query is below -1"
    if version == "10.0" and not complete:
        missing = ~in_run
        fail[missing] = 1
        reason[missing] = "the run has no results for this query of the qrels (use -c)"
    failure = None
    stop = n
    bad = np.flatnonzero(fail)
    if bad.size:
        stop = int(bad[0])
        query = str(loop[stop])
        message = (f"trec_eval {version} fails at query '{query}': {reason[stop]}")
        failure = Crash(message.replace("fails", "crashes")) if fail[stop] == 2 else \
            TrecEvalError(message, code=4)
    queries = loop[:stop]
    bogus = ~in_run[:stop]
    if queries.size == 0 and failure is None:
        raise TrecEvalError("no queries with both results and relevance info", code=7)
    labels = list(dict.fromkeys(label for c in columns for label in c.labels))
    scores = pd.DataFrame(index=pd.Index(queries, dtype=object), columns=labels,
                          dtype=np.float64)
    if labels and queries.size:
        q_keep = qrels["query_id"].isin(queries).to_numpy()
        r_keep = run["query_id"].isin(queries).to_numpy()
        qrels_sub = qrels[q_keep]
        run_sub = run.loc[r_keep, ["query_id", "doc_id", "score"]]
        if bogus.any():
            extra = pd.DataFrame({"query_id": queries[bogus], "doc_id": BOGUS_DOCNO,
                                  "score": 1.0})
            run_sub = pd.concat([run_sub, extra], ignore_index=True)
        scores = evaluate(qrels_sub, run_sub, labels, relevance_level=relevance_level,
                          **_evaluate_options(version))
        scores = scores.reindex(pd.Index(queries, dtype=object))
    n_evaluated = queries.size
    n_queries = q_ids.size if complete else n_evaluated
    per_query = pd.DataFrame(index=scores.index)
    summary: dict[str, Any] = {}
    for column in columns:
        measure = column.measure
        if measure.name == "runid":
            summary[column.name] = run_id
            continue
        if measure.name == "num_q":
            summary[column.name] = n_queries
            continue
        if measure.kind == STRING:  # relstring: per query only
            strings = scores[column.labels[0]].to_numpy(dtype=object).copy()
            if column.name == "relstring":  # 10.0 clears it (by this exact name)
                strings[bogus] = ""
            per_query[column.name] = strings
            continue
        block = scores[list(column.labels)].to_numpy(dtype=np.float64)
        if block.shape[1] == 1:
            values = block[:, 0].copy()
        else:  # 11pt_avg: the levels' precisions summed in order, divided by their number
            values = np.cumsum(block, axis=1)[:, -1] / block.shape[1]
        if _zeroed_for_bogus(column.name):
            values[bogus] = 0.0
        if measure.name == "ideal_dcg" and version == "10.0":
            values = _stale_ideal_dcg(values, max_rel[:stop] < 0)
        if measure.name in ("gm_map", "gm_bpref"):
            logs = np.fromiter(map(math.log, np.maximum(values, MIN_GEO_MEAN)), dtype=np.float64,
                               count=values.size)
            total = _sequential_sum(logs)
            if complete:
                total += (n_queries - n_evaluated) * math.log(MIN_GEO_MEAN)
            summary[column.name] = math.exp(total / n_queries) if n_queries > 0 else 0.0
            continue
        per_query[column.name] = values
        total = _sequential_sum(values)
        if measure.name == "num_rel" and complete:
            total = float(np.count_nonzero(qrels["relevance"].to_numpy() > 0))
        if measure.summed or n_queries == 0:
            summary[column.name] = total
        else:
            summary[column.name] = total / n_queries
    return Outcome([str(q) for q in queries], per_query,
                   None if failure is not None else summary, failure)


# ---------------------------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------------------------


_FORMATS = {LONG: ".0f", STRING: "", FLOAT: "6.4f", CUT_LONG: "6.4f", CUT_FLOAT: "6.4f",
            PARAM_FLOAT: "6.4f", SPECIAL: "6.4f"}


def _c_float(value: float) -> str:
    """C's ``%6.4f``: as Python's, but a NaN with its sign bit set is ``-nan``."""
    if value != value:
        return f"{'-nan' if math.copysign(1.0, value) < 0 else 'nan':>6}"
    return f"{value:6.4f}"


def _line(name: str, query: str, value: Any, kind: str) -> str:
    if isinstance(value, str):
        shown = value
    elif kind == LONG or name == "num_q":
        shown = str(int(value))
    else:
        shown = _c_float(value)
    return f"{name:<22}\t{query}\t{shown}\n"


def format_output(outcome: Outcome, columns: list[Column], *, query_lines: bool,
                  summary_lines: bool = True) -> str:
    """trec_eval's lines: ``-q`` per query (measures in order), then ``all``."""
    out: list[str] = []
    per_query = outcome.per_query
    if query_lines:
        shown = [c for c in columns if c.name in per_query.columns]
        values = per_query[[c.name for c in shown]].to_numpy(dtype=object).tolist()
        patterns = [f"{c.name:<22}\t{{}}\t'{{}}'\n" if c.measure.kind == STRING else
                    f"{c.name:<22}\t{{}}\t{{:{_FORMATS[c.measure.kind]}}}\n" for c in shown]
        for query, row in zip(outcome.queries, values, strict=True):
            out.extend(pattern.format(query, value if value == value else _NaN(value))
                       for pattern, value in zip(patterns, row, strict=True))
    if outcome.summary is not None:
        for column in columns:
            if column.measure.kind != STRING and summary_lines:
                out.append(_line(column.name, "all", outcome.summary[column.name],
                                 column.measure.kind))
            if column.crashes:  # trec_eval 10.0 crashes here (see _shared_gains)
                break
    return "".join(out)


class _NaN(float):
    """A NaN that formats as C prints it (``-nan`` with the sign bit set)."""

    def __format__(self, spec: str) -> str:
        return _c_float(float(self)) if spec == "6.4f" else format(float(self), spec)


def help_text(version: str = DEFAULT_VERSION) -> str:
    """The measure list and evalkit's deliberate differences, for ``--help``."""
    width = max(len(m.name) for m in SUPPORTED)
    lines = ["measures (-m NAME, -m NAME.p1,p2 for cutoffs or parameters, -m official, "
             "-m all_trec):"]
    for measure in SUPPORTED:
        only = "" if measure.versions == VERSIONS else f" [trec_eval {measure.versions[0]}]"
        lines.append(f"  {measure.name:<{width}}  {measure.definition}{only}")
    lines.append("  official = " + " ".join(NICKNAMES["official"]))
    lines.append("  all_trec = every measure above (trec_eval's others are not computed: "
                 + ", ".join(NOT_COMPUTED) + ")")
    lines += [
        "",
        "evalkit trec_eval reproduces trec_eval 10.0 (default) or 9.0.8 "
        "(--trec-eval-version 9.0.8): the same stdout byte for byte, and it fails where",
        "trec_eval fails (exit codes 1, 2, 4, 7 as trec_eval; 139 where trec_eval crashes).",
        "Deliberate differences: -l below 0 is refused (trec_eval then counts unjudged",
        "documents as relevant, e.g. a map of 2.0); recall levels outside [0, 1] and",
        "negative or non-finite parameters are refused; NaN scores are refused;",
        "trec_eval 10.0 with -c on a run without a single result line prints an",
        "uninitialised run id, evalkit refuses; trec_eval 10.0's rbp starts its gain range",
        "from uninitialised memory (m_rbp.c), so beside other measures its value can vary:",
        "evalkit starts it at 0, which is what 10.0 prints for rbp alone or in all_trec;",
        "the options -D -J -N -M -R -T -Z -o are not supported.",
        "ek.evaluate takes the same names: ek.evaluate(qrels, run, ['map', 'P_10']).",
    ]
    return "\n".join(lines)


def _atol_level(text: str) -> int:
    return c_atol(text)


def add_arguments(parser: Any) -> None:
    """The options of ``evalkit trec_eval`` (trec_eval's own letters and long names)."""
    parser.add_argument("-q", "--query_eval_wanted", dest="q", action="store_true",
                        help="also print each query's values, before the summary ('all')")
    parser.add_argument("-c", "--complete_rel_info_wanted", dest="c", action="store_true",
                        help="average over every query in the qrels (a query the run "
                             "misses scores 0)")
    parser.add_argument("-l", "--level_for_rel", dest="l", type=_atol_level, default=1,
                        metavar="N", help="relevance level: grades >= N are relevant "
                        "(default 1; read as C's atol: 1.5 is 1)")
    parser.add_argument("-n", "--nosummary", dest="n", action="store_true",
                        help="no summary: only -q's lines")
    parser.add_argument("-m", "--measure", dest="m", action="append", default=[],
                        metavar="MEASURE", help="a measure, family, family.cutoffs, official "
                        "(default) or all_trec; may be repeated")
    parser.add_argument("--trec-eval-version", dest="trec_eval_version", choices=VERSIONS,
                        default=DEFAULT_VERSION,
                        help="the trec_eval release to reproduce (default %(default)s)")
    parser.add_argument("-v", "--version", action="version",
                        version=_version_text(), help="evalkit's version and the trec_eval "
                        "releases it reproduces")
    for short, (long, what) in UNSUPPORTED_OPTIONS.items():
        takes_value = short not in ("-J", "-o")
        parser.add_argument(short, long, dest=f"unsupported_{short[1]}",
                            **({"metavar": "X"} if takes_value else {"action": "store_true"}),
                            help=f"(not supported: trec_eval's {what})")
    parser.add_argument("qrels", metavar="QRELS", help="TREC qrels file")
    parser.add_argument("run", metavar="RUN", help="TREC run file (10.0: '-' is stdin)")


def _version_text() -> str:
    return (f"evalkit {find_version()}; evalkit trec_eval reproduces trec_eval "
            f"{DEFAULT_VERSION} (default) and 9.0.8 (--trec-eval-version 9.0.8)")


def _write(stream: Any, data: bytes) -> None:
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        stream.flush()
        buffer.write(data)
        buffer.flush()
    else:
        stream.write(data.decode("latin-1"))


def run(args: Any, *, stdout: Any = None, stderr: Any = None, stdin: Any = None) -> int:
    """Run ``evalkit trec_eval`` on parsed arguments; return the exit code."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    version = getattr(args, "trec_eval_version", DEFAULT_VERSION)
    for short, (long, what) in UNSUPPORTED_OPTIONS.items():
        if getattr(args, f"unsupported_{short[1]}", None):
            stderr.write(f"evalkit trec_eval: option {short} ({long}: {what}) is not "
                         "supported\n")
            return 1
    if args.l < 0:
        stderr.write(f"evalkit trec_eval: -l {args.l}: evalkit refuses a relevance level "
                     "below 0 (trec_eval would count unjudged documents as relevant)\n")
        return 1
    try:
        selection = select_measures(args.m, version)
        qrels = read_trec_qrels(args.qrels, version)
        run_table, run_id = read_trec_results(args.run, version, stdin)
        columns = plan(selection, version)
        outcome = compute(qrels, run_table, run_id, columns, relevance_level=args.l,
                          complete=args.c, version=version)
        if (run_table.empty and version == "10.0" and outcome.summary is not None
                and not args.n and any(c.name == "runid" for c in columns)):
            raise TrecEvalError(f"{args.run}: no results in the file (trec_eval 10.0 -c "
                                "prints an uninitialised run id here; evalkit refuses)",
                                code=2)
    except TrecEvalError as error:
        stderr.write(f"evalkit trec_eval: {error}\n")
        return error.code
    if selection.skipped:
        stderr.write("evalkit trec_eval: note: measures not computed by evalkit, left out: "
                     + ", ".join(selection.skipped) + "\n")
    text = format_output(outcome, columns, query_lines=args.q, summary_lines=not args.n)
    data = text.encode("latin-1")
    failure = outcome.failure
    crashing = [c.measure.name for c in columns if c.measure.name in _SHARED_GAINS]
    if failure is None and any(c.crashes for c in columns):
        failure = Crash(f"trec_eval {version} crashes after its summary: "
                        f"{', '.join(crashing)} share one block of gains (m_ndcg.c), "
                        "which it frees once for each")
    if isinstance(failure, Crash):
        data = data[: len(data) // PIPE_BLOCK * PIPE_BLOCK]
    _write(stdout, data)
    if failure is not None:
        stderr.write(f"evalkit trec_eval: {failure}\n")
        return failure.code
    return 0
