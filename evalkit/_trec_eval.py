"""``evalkit trec_eval``: trec_eval's command line, measure names and output, on evalkit's measures.

The rules below are those of trec_eval 9.0.8 (the version pytrec_eval bundles), read in its
source: ``trec_eval.c`` (the loop over queries, ``-q``, ``-c``, ``-l``, ``-m``),
``measures.c`` (the measures in the order they are printed; the nicknames ``official`` and
``all_trec``), ``meas_init.c`` (cutoff parameters: ``P.5,10``; the names ``P_5``,
``iprec_at_recall_0.10``), ``meas_avg.c`` (averages, ``-c``), ``meas_print_single.c`` and
``meas_print_final.c`` (``"%-22s\\t%s\\t%6.4f\\n"``, integers as ``%ld``), ``m_*.c`` (each
measure) and ``get_trec_results.c`` (queries sorted by ``strcmp`` of their ids; the run id of
the last line).

- Measures are printed in trec_eval's order, whatever the order of ``-m``; for each query
  with ``-q`` (queries in byte order of their ids), then once for ``all``.
- A family's parameters come from its first ``-m`` that gives some (``-m P.5 -m P.10`` prints
  ``P_5`` only, as trec_eval); whole-number cutoffs are sorted and must be positive and
  distinct; recall levels and multiples of R are sorted and distinct.
- ``all``: the mean over the queries evaluated (``-c``: over every query of the qrels, a
  missing query adding 0); ``num_ret``, ``num_rel``, ``num_rel_ret`` and
  ``num_nonrel_judged_ret`` are sums; with ``-c``, ``num_rel`` counts every judgement with a
  grade > 0 in the qrels (trec_eval 9's ``m_num_rel.c``, whatever ``-l``); ``gm_map`` is the
  geometric mean of AP, each floored at 1e-5 (a missing query adds 1e-5 with ``-c``).

trec_eval 10 differs in places: ``iprec_at_recall`` and ``11pt_avg`` turn recall levels into
counts by rounding (see :func:`evalkit.interpolated_precision`), and with ``-c`` it scores each
query the run misses on a one-document "bogus" ranking and prints its ``-q`` lines (which
changes a few ``all`` values too, e.g. ``success``). evalkit follows 9.0.8, as pytrec_eval does.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ._text_files import read_text, source_name
from .evaluation import evaluate
from .trec import read_qrels, read_run

__all__ = ["add_arguments", "help_text", "run"]

MIN_GEO_MEAN = 0.00001  # trec_eval's common.h

LONG, FLOAT, CUT_LONG, CUT_FLOAT, PARAM_FLOAT, SPECIAL = (
    "long", "float", "cut_long", "cut_float", "param_float", "special")


@dataclass(frozen=True)
class TrecMeasure:
    """One trec_eval measure: its kind, evalkit's name, default parameters and a one-line
    definition (``--help``)."""

    name: str
    kind: str
    evalkit: str | None
    definition: str
    defaults: tuple = field(default=())
    summed: bool = False


_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_LEVELS = tuple(i / 10 for i in range(11))

#: The measures evalkit computes, in trec_eval 9's printing order (measures.c).
SUPPORTED = [
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
    TrecMeasure("recall", CUT_LONG, "R", "recall at cutoffs k: relevant in the top k / R",
                _CUTS),
    TrecMeasure("Rprec_mult", CUT_FLOAT, "RprecMult", "precision at multiples m of R, at rank "
                "(long)(m R + 0.9) (default 0.2,0.4,...,2.0)",
                (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    TrecMeasure("11pt_avg", PARAM_FLOAT, "IPrec", "interpolated precision averaged over "
                "recall levels (default the 11 levels 0.0,...,1.0)", _LEVELS),
    TrecMeasure("ndcg", FLOAT, "nDCG", "nDCG, gains = qrels grades, ideal ranking from the "
                "qrels (Jarvelin & Kekalainen 2002)"),
    TrecMeasure("ndcg_cut", CUT_LONG, "nDCG", "nDCG at cutoffs k", _CUTS),
    TrecMeasure("map_cut", CUT_LONG, "AP", "average precision of the top k, divided by R",
                _CUTS),
    TrecMeasure("success", CUT_LONG, "Success", "1 if a relevant document is in the top k "
                "(default 1,5,10)", (1, 5, 10)),
    TrecMeasure("set_P", FLOAT, "SetP", "relevant retrieved / retrieved"),
    TrecMeasure("set_recall", FLOAT, "SetR", "relevant retrieved / R"),
    TrecMeasure("set_F", PARAM_FLOAT, "SetF", "(b+1) P R / (b P + R) of set_P and set_recall "
                "(default b = 1.0)", (1.0,)),
    TrecMeasure("num_nonrel_judged_ret", LONG, "NumNonRelJudgedRet", "judged non-relevant "
                "documents retrieved (summed)", summed=True),
]
BY_NAME = {m.name: m for m in SUPPORTED}

#: trec_eval 9's measures that evalkit does not compute (so ``all_trec`` leaves them out).
NOT_COMPUTED = ["relstring", "infAP", "gm_bpref", "utility", "binG", "G", "ndcg_rel", "Rndcg",
                "relative_P", "set_relative_P", "set_map"]
OTHER_TREC_EVAL = [
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
    "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
    "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
    "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap",
]

NICKNAMES = {
    "official": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"],
    "all_trec": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
                 "recall", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P",
                 "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG",
                 "G", "set_P", "set_recall", "set_relative_P", "set_map", "set_F",
                 "num_nonrel_judged_ret"],
    "set": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"],
}


class TrecEvalError(Exception):
    """A problem to report on one line of stderr, with trec_eval's kind of exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


# ---------------------------------------------------------------------------------------------
# -m: which measures, with which parameters
# ---------------------------------------------------------------------------------------------


@dataclass
class Selection:
    """The measures asked for (names), each family's parameter text, and the all_trec
    measures left out."""

    names: set[str] = field(default_factory=set)
    params: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def select_measures(arguments: Sequence[str]) -> Selection:
    """Apply each ``-m`` as trec_eval's ``mark_measure`` does."""
    selection = Selection()
    for argument in arguments or ["official"]:
        name, dot, param = argument.partition(".")
        if dot:
            if not param:
                raise TrecEvalError(f"improper measure in parameter '{name}' (-m {argument})")
            selection.params.setdefault(name, param)  # the first one given wins
        if name in NICKNAMES:
            for member in NICKNAMES[name]:
                if member in BY_NAME:
                    selection.names.add(member)
                elif member not in selection.skipped:
                    selection.skipped.append(member)
        elif name in BY_NAME:
            selection.names.add(name)
        elif name in NOT_COMPUTED or name in OTHER_TREC_EVAL or name in (
                "all_prefs", "prefs", "qrels_jg"):
            raise TrecEvalError(
                f"measure '{name}' is trec_eval's but evalkit does not compute it; "
                f"see 'evalkit trec_eval --help' for the measures it does")
        else:
            raise TrecEvalError(f"illegal measure '{argument}'{_suggest(name)}")
    return selection


def _suggest(name: str) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(BY_NAME) + list(NICKNAMES), n=1, cutoff=0.5)
    return f"; did you mean '{close[0]}'?" if close else ""


def _long_cutoffs(measure: TrecMeasure, text: str) -> tuple[int, ...]:
    try:
        values = sorted(int(part) for part in text.split(","))
    except ValueError:
        raise TrecEvalError(
            f"-m {measure.name}.{text}: cutoffs must be whole numbers, e.g. {measure.name}.5,10"
        ) from None
    if values[0] <= 0 or len(set(values)) != len(values):
        raise TrecEvalError(
            f"-m {measure.name}.{text}: cutoffs must be positive without duplicates", code=2)
    return tuple(values)


def _floats(measure: TrecMeasure, text: str) -> list[float]:
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        raise TrecEvalError(
            f"-m {measure.name}.{text}: parameters must be numbers, e.g. {measure.name}.0.5"
        ) from None
    if not all(math.isfinite(v) and v >= 0 for v in values):
        raise TrecEvalError(f"-m {measure.name}.{text}: parameters must be >= 0", code=2)
    return values


@dataclass(frozen=True)
class Column:
    """One printed value: its trec_eval name, and how it is computed from evalkit's labels."""

    name: str
    measure: TrecMeasure
    labels: tuple[str, ...]  # evalkit labels; PARAM_FLOAT averages them


def plan(selection: Selection) -> list[Column]:
    """The printed names in trec_eval's order, with the evalkit measures behind them."""
    columns: list[Column] = []
    for measure in SUPPORTED:
        if measure.name not in selection.names:
            continue
        text = selection.params.get(measure.name)
        if measure.kind == CUT_LONG:
            cuts = measure.defaults if text is None else _long_cutoffs(measure, text)
            columns += [Column(f"{measure.name}_{k}", measure, (f"{measure.evalkit}@{k}",))
                        for k in cuts]
        elif measure.kind == CUT_FLOAT:
            if text is None:
                values = list(measure.defaults)
            else:
                values = sorted(_floats(measure, text))
                if len(set(values)) != len(values):
                    raise TrecEvalError(f"-m {measure.name}.{text}: duplicate cutoffs", code=2)
            if measure.name == "iprec_at_recall" and any(v > 1 for v in values):
                raise TrecEvalError(f"-m {measure.name}.{text}: recall levels are in [0, 1]")
            columns += [Column(f"{measure.name}_{v:3.2f}", measure,
                               (f"{measure.evalkit}@{v!r}",)) for v in values]
        elif measure.kind == PARAM_FLOAT:
            values = list(measure.defaults) if text is None else _floats(measure, text)
            label = measure.name if text is None else f"{measure.name}_{text}"
            if measure.name == "set_F":
                columns.append(Column(label, measure, (f"SetF@{values[0]!r}",)))
            else:
                if any(v > 1 for v in values):
                    raise TrecEvalError(f"-m {measure.name}.{text}: recall levels are in [0, 1]")
                columns.append(Column(label, measure, tuple(f"IPrec@{v!r}" for v in values)))
        else:
            if text is not None and measure.name == "ndcg":
                raise TrecEvalError(
                    f"-m ndcg.{text}: evalkit's ndcg takes the qrels grades as gains; gain "
                    "parameters are not supported")
            labels = (measure.evalkit,) if measure.evalkit else ()
            columns.append(Column(measure.name, measure, labels))
    return columns


# ---------------------------------------------------------------------------------------------
# Reading, checking, computing, printing
# ---------------------------------------------------------------------------------------------


def _first_duplicate(path: str, doc_field: int, what: str) -> None:
    """Raise, naming the file and both lines, at the first (query, document) listed twice."""
    seen: dict[tuple[str, str], int] = {}
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        fields = line.split()
        if len(fields) <= doc_field:
            continue
        key = (fields[0], fields[doc_field])
        if key in seen:
            raise TrecEvalError(
                f"{path}, line {number}: document '{key[1]}' is {what} twice for query "
                f"'{key[0]}' (first on line {seen[key]}); trec_eval refuses such input",
                code=2)
        seen[key] = number


def read_inputs(qrels_path: str, run_path: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read both files; errors name the file and the line."""
    tables = []
    for path, reader, doc_field, what in ((qrels_path, read_qrels, 2, "judged"),
                                          (run_path, read_run, 2, "retrieved")):
        try:
            _first_duplicate(path, doc_field, what)
            table = reader(path)
        except (OSError, ValueError, UnicodeDecodeError) as error:
            raise TrecEvalError(str(error).splitlines()[0] if str(error) else repr(error),
                                code=2) from None
        if len(table) == 0:
            kind = "judgements" if reader is read_qrels else "results"
            raise TrecEvalError(f"{source_name(path)}: no {kind} in the file", code=2)
        tables.append(table)
    return tables[0], tables[1]


def _byte_order(ids: Sequence[str]) -> list[str]:
    return sorted(ids, key=lambda q: q.encode("utf-8", "surrogateescape"))


def compute(qrels: pd.DataFrame, run: pd.DataFrame, columns: list[Column], *,
            relevance_level: int, complete: bool) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Per-query values (rows in trec_eval's query order) and the ``all`` values."""
    labels = list(dict.fromkeys(label for c in columns for label in c.labels))
    if not labels:
        labels = ["NumRet"]
    scores = evaluate(qrels, run, labels, relevance_level=relevance_level)
    if scores.empty:
        raise TrecEvalError("no queries with both results and relevance info", code=7)
    scores = scores.loc[_byte_order(list(scores.index))]
    n_evaluated = len(scores)
    n_queries = qrels["query_id"].nunique() if complete else n_evaluated
    per_query = pd.DataFrame(index=scores.index)
    summary: dict[str, Any] = {}
    for column in columns:
        measure = column.measure
        if measure.name == "runid":
            summary[column.name] = str(run["run_id"].iloc[-1])
            continue
        if measure.name == "num_q":
            summary[column.name] = n_queries
            continue
        values = [float(v) for v in scores[list(column.labels)].mean(axis=1)] if len(
            column.labels) > 1 else [float(v) for v in scores[column.labels[0]]]
        if measure.name == "gm_map":
            total = 0.0
            for v in values:
                total += math.log(max(v, MIN_GEO_MEAN))
            total += (n_queries - n_evaluated) * math.log(MIN_GEO_MEAN)
            summary[column.name] = math.exp(total / n_queries)
            continue
        per_query[column.name] = values
        total = 0.0
        for v in values:  # trec_eval adds the queries up in this order
            total += v
        if measure.name == "num_rel" and complete:
            total = float(np.count_nonzero(qrels["relevance"].to_numpy() > 0))
        summary[column.name] = total if measure.summed else total / n_queries
    return per_query, summary


def _line(name: str, query: str, value: Any, kind: str) -> str:
    if isinstance(value, str):
        shown = value
    elif kind == LONG or name == "num_q":
        shown = str(int(value))
    else:
        shown = f"{value:6.4f}"
    return f"{name:<22}\t{query}\t{shown}\n"


def format_output(per_query: pd.DataFrame, summary: dict[str, Any], columns: list[Column], *,
                  query_lines: bool, summary_lines: bool = True) -> str:
    """trec_eval's lines: ``-q`` per query (measures in order), then ``all``."""
    out: list[str] = []
    if query_lines:
        shown = [c for c in columns if c.name in per_query.columns]
        values = per_query[[c.name for c in shown]].to_numpy(dtype=float).tolist()
        patterns = [f"{c.name:<22}\t{{}}\t{{:{'.0f' if c.measure.kind == LONG else '6.4f'}}}\n"
                    for c in shown]
        for query, row in zip(per_query.index, values, strict=True):
            out.extend(pattern.format(query, value)
                       for pattern, value in zip(patterns, row, strict=True))
    if summary_lines:
        for column in columns:
            out.append(_line(column.name, "all", summary[column.name], column.measure.kind))
    return "".join(out)


def help_text() -> str:
    """The measure list for ``--help``: one line each."""
    width = max(len(m.name) for m in SUPPORTED)
    lines = ["measures (-m NAME, -m NAME.p1,p2 for cutoffs or parameters, -m official, "
             "-m all_trec):"]
    for measure in SUPPORTED:
        lines.append(f"  {measure.name:<{width}}  {measure.definition}")
    lines.append("  official = " + " ".join(NICKNAMES["official"]))
    lines.append("  all_trec = every measure above (trec_eval's others are not computed: "
                 + ", ".join(NOT_COMPUTED) + ")")
    lines.append("ek.evaluate takes the same names: ek.evaluate(qrels, run, ['map', 'P_10']).")
    return "\n".join(lines)


def add_arguments(parser: Any) -> None:
    """The options of ``evalkit trec_eval`` (trec_eval's own letters)."""
    parser.add_argument("-q", action="store_true",
                        help="also print each query's values, before the summary ('all')")
    parser.add_argument("-c", action="store_true",
                        help="average over every query in the qrels (a query the run "
                             "misses scores 0)")
    parser.add_argument("-l", type=int, default=1, metavar="N",
                        help="relevance level: grades >= N are relevant (default 1)")
    parser.add_argument("-n", action="store_true", help="no summary: only -q's lines")
    parser.add_argument("-m", action="append", default=[], metavar="MEASURE",
                        help="a measure, family, family.cutoffs, official (default) or "
                             "all_trec; may be repeated")
    parser.add_argument("qrels", metavar="QRELS", help="TREC qrels file")
    parser.add_argument("run", metavar="RUN", help="TREC run file")


def run(args: Any, *, stdout: Any = None, stderr: Any = None) -> int:
    """Run ``evalkit trec_eval`` on parsed arguments; return the exit code."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        selection = select_measures(args.m)
        columns = plan(selection)
        qrels, run_table = read_inputs(args.qrels, args.run)
        per_query, summary = compute(qrels, run_table, columns, relevance_level=args.l,
                                     complete=args.c)
    except TrecEvalError as error:
        stderr.write(f"evalkit trec_eval: {error}\n")
        return error.code
    except ValueError as error:
        stderr.write(f"evalkit trec_eval: {str(error).splitlines()[0]}\n")
        return 2
    if selection.skipped:
        stderr.write("evalkit trec_eval: note: all_trec measures not computed by evalkit: "
                     + ", ".join(selection.skipped) + "\n")
    stdout.write(format_output(per_query, summary, columns, query_lines=args.q,
                               summary_lines=not args.n))
    return 0
