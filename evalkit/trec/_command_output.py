"""What ``evalkit trec_eval`` prints: trec_eval's lines (``meas_print_*.c``: ``%-22s\\t%s\\t%6.4f``,
counts ``%ld``, C's ``-nan``) and the ``--help`` text."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._command_loop import Outcome
from ._command_plan import Column
from ._registry import (
    CUT_FLOAT,
    CUT_LONG,
    DEFAULT_VERSION,
    FLOAT,
    LONG,
    MEASURES,
    NICKNAMES,
    NOT_COMPUTED,
    PARAM_FLOAT,
    SPECIAL,
    STRING,
    SUPPORTED,
    VERSIONS,
)

__all__ = ["format_output", "help_text"]


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
        shown = [c for c in columns if c.name in per_query]
        values = list(zip(*(per_query[c.name].tolist() for c in shown), strict=True)) \
            if shown else [()] * len(outcome.queries)
        if shown and not any(_has_nan(per_query[c.name]) for c in shown):
            # One %-template per query for all its lines (a tenth of the time of a format
            # per line); C's %6.4f is Python's but for a NaN, which the loop below prints.
            template = "".join(
                f"{c.name:<22}".replace("%", "%%")
                + ("\t%s\t'%s'\n" if c.measure.kind == STRING
                   else f"\t%s\t%{_FORMATS[c.measure.kind]}\n") for c in shown)
            args = [None] * (2 * len(shown))
            for query, row in zip(outcome.queries, values, strict=True):
                args[0::2] = [query] * len(shown)
                args[1::2] = row
                out.append(template % tuple(args))
            values = []
        patterns = [f"{c.name:<22}\t{{}}\t'{{}}'\n" if c.measure.kind == STRING else
                    f"{c.name:<22}\t{{}}\t{{:{_FORMATS[c.measure.kind]}}}\n" for c in shown]
        for query, row in zip(outcome.queries[:len(values)], values, strict=True):
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


def _has_nan(values: np.ndarray) -> bool:
    if values.dtype == object:
        return any(value != value for value in values.tolist())
    return bool(np.isnan(values).any())


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
    outside = [m.name for m in SUPPORTED if m.name not in NICKNAMES["all_trec"]]
    lines.append("  all_trec = every measure above"
                 + (" except " + ", ".join(outside) if outside else "")
                 + ("; trec_eval's others are not computed: " + ", ".join(NOT_COMPUTED)
                    if NOT_COMPUTED else ""))
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
        "at a query (not the first) whose highest grade is below -1, trec_eval clears its",
        "grade counts with a negative size (form_res_rels.c), which is undefined: it",
        "crashes there, or later, or goes on with a corrupted heap (seen: a docno or qid",
        "printed empty in an error, exit 4), by the C library and CPU; evalkit stops",
        "there as a crash (139), with what was printed before it;",
        "the options -D -N -M -R -T -Z -o are not supported.",
        "ek.evaluate takes the same names: ek.evaluate(qrels, run, ['map', 'P_10']).",
    ]
    extra = [f"{m.name}@k" if m.cutoff != "none" else m.name
             for m in MEASURES.values() if not m.trec_eval]
    if extra:
        lines[-1] = lines[-1][:-1] + ","
        lines.append("and measures trec_eval lacks: " + ", ".join(extra) + ".")
    return "\n".join(lines)

