"""``evalkit trec_eval``: NIST trec_eval's command line, read and printed as trec_eval does,
on evalkit's measures.

Two releases are reproduced, byte for byte on stdout and in failing where they fail:
trec_eval **10.0** (the default) and **9.0.8** (``--trec-eval-version 9.0.8``, the version
pytrec_eval bundles). The rules were read in their source (``trec_eval.c``,
``get_qrels.c``, ``get_trec_results.c``, ``form_res_rels.c``, ``meas_init.c``,
``meas_avg.c``, ``meas_print_*.c``, ``measures.c``, ``m_*.c``). How it reads the files is
in :mod:`evalkit.trec._command_files`.

- 9.0.8 evaluates the queries of the run that are in the qrels; 10.0 goes through the queries
  of the qrels and fails (exit 4) at one that is not in the run, unless ``-c``; with ``-c``
  it scores that query on a one-document "bogus" ranking and prints its ``-q`` lines.
- Queries are evaluated in byte order of their ids. At each query trec_eval fails (exit 4,
  after printing the ``-q`` lines of the queries before) when the run or the qrels list a
  document twice for it, or when it is the first query and its grades are all negative; at
  a later query whose highest grade is below -1 it clears its grade counts with a negative
  size (``memset`` in ``form_res_rels.c``), which is undefined behaviour: seen here, a
  segmentation fault at that query, or trec_eval going on with a corrupted heap to crash
  later (``free(): invalid next size``) or fail with garbage in its message (an empty
  docno or qid), by the C library's ``memset`` for the CPU. evalkit stops there as a crash
  (139), printing what trec_eval prints before it (up to the last full 4096-byte block,
  which is what survives a crash); ``--help`` lists it among the deliberate differences.
- 10.0's ``ideal_dcg`` for a query whose grades are all negative (-1) is the ideal DCG of
  the last query evaluated before it that has a grade >= 0 (``form_res_rels.c`` leaves that
  query's grade counts in place); evalkit's ``IdealDCG`` is 0 there, the CLI prints 10.0's.
- 10.0's ``dcg``, ``ideal_dcg`` and ``ndcg`` share one block of gains (``m_ndcg.c``): a
  printed name carries the gains stored when it is set up, all three compute with the last
  stored, and with two of them and gains 10.0 crashes in its summary (see
  ``_command_plan._shared_gains``); evalkit prints the same and fails (139) at the same line.
- ``all``: the mean over the queries evaluated (``-c``: over every query of the qrels),
  summed in query order; ``num_ret``, ``num_rel``, ``num_rel_ret``, ``num_nonrel_judged_ret``
  are sums; with ``-c``, ``num_rel`` counts every judgement with a grade > 0; ``gm_map`` is
  the geometric mean of AP, each floored at 1e-5.
- Output lines are ``"%-22s\\t%s\\t%6.4f\\n"`` (counts ``%ld``), measures in trec_eval's
  order whatever the order of ``-m``; a family's parameters come from its first ``-m``.
"""


from __future__ import annotations

import sys
from typing import Any

from .._factorize import factorize
from .._lazy import version_action
from ._command_fast import NotPlain, PlainStream
from ._command_files import (
    Crash,
    ResultsStream,
    TrecEvalError,
    c_atol,
    read_trec_qrels,
    read_trec_results,
)
from ._command_loop import compute
from ._command_output import format_output, help_text
from ._command_plan import plan, select_measures
from ._command_qrels import CommandQrels, read_plain_qrels
from ._registry import DEFAULT_VERSION, VERSIONS
from ._streaming import Ungrouped

__all__ = ["add_arguments", "help_text", "run", "VERSIONS", "DEFAULT_VERSION"]


PIPE_BLOCK = 4096  # what a crashed trec_eval has flushed of its stdout: whole blocks


#: trec_eval's options that evalkit does not support, with what they do.
UNSUPPORTED_OPTIONS = {
    "-D": ("--Debug_level", "debug output"),
    "-N": ("--Number_docs_in_coll", "number of documents in the collection"),
    "-M": ("--Max_retrieved_per_topic", "keep only the top N documents of each query"),
    "-R": ("--Rel_info_format", "other relevance formats: prefs, qrels_prefs, qrels_jg"),
    "-T": ("--Results_format", "other results formats"),
    "-Z": ("--Zscore", "Z scores from a file of means and deviations"),
    "-o": ("--Output_old_results_format", "the old output format"),
}


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
    parser.add_argument("-J", "--Judged_docs_only", dest="J", action="store_true",
                        help="evaluate over judged documents only: each ranking without its "
                        "unjudged documents (condensed lists)")
    parser.add_argument("-n", "--nosummary", dest="n", action="store_true",
                        help="no summary: only -q's lines")
    parser.add_argument("-m", "--measure", dest="m", action="append", default=[],
                        metavar="MEASURE", help="a measure, family, family.cutoffs, official "
                        "(default) or all_trec; may be repeated")
    parser.add_argument("--trec-eval-version", dest="trec_eval_version", choices=VERSIONS,
                        default=DEFAULT_VERSION,
                        help="the trec_eval release to reproduce (default %(default)s)")
    parser.add_argument("-v", "--version", action=version_action(_version_text),
                        help="evalkit's version and the trec_eval releases it reproduces")
    for short, (long, what) in UNSUPPORTED_OPTIONS.items():
        takes_value = short != "-o"
        parser.add_argument(short, long, dest=f"unsupported_{short[1]}",
                            **({"metavar": "X"} if takes_value else {"action": "store_true"}),
                            help=f"(not supported: trec_eval's {what})")
    parser.add_argument("qrels", metavar="QRELS", help="TREC qrels file")
    parser.add_argument("run", metavar="RUN", help="TREC run file (10.0: '-' is stdin)")


def _version_text() -> str:
    from .._version import find_version

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


def _compute_streamed(qrels: Any, path: str, columns: list[Any],
                      options: dict[str, Any]) -> tuple[Any, int]:
    """trec_eval's loop on a run file read a block of whole queries at a time (memory set by
    the largest query); an ungrouped file is read whole (a piece at a time) and its rows
    grouped by query, as trec_eval sorts them."""
    plain = PlainStream(path, options["version"])
    try:  # a plain grouped file: scored from its bytes (_command_fast)
        return (compute(qrels, plain.blocks(), lambda: plain.run_id, columns, **options),
                plain.n_rows)
    except NotPlain:  # anything else: read the general way
        stream = ResultsStream(path, options["version"])
        try:
            return (compute(qrels, stream.blocks(), lambda: stream.run_id, columns,
                            **options), stream.n_rows)
        except Ungrouped:
            pass
    except Ungrouped:
        pass
    stream = ResultsStream(path, options["version"])
    run_table = stream.table()
    return (compute(qrels, _sorted_blocks(run_table), stream.run_id, columns, **options),
            len(run_table))


def _sorted_blocks(run: Any) -> Any:
    """The rows of an ungrouped run grouped by query (a stable sort: trec_eval ranks each
    query's rows by score, whatever their order), in blocks of whole queries of about as
    many rows as a piece of the file holds, so that evaluate's memory stays small."""
    import numpy as np

    from . import _streaming

    code = factorize(run["query_id"].to_numpy())[0]
    order = np.argsort(code, kind="stable")
    code = code[order]
    starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
    rows = max(_streaming._CHUNK_BYTES // 64, 1)  # ~64 bytes a line
    at = np.searchsorted(starts, np.arange(0, code.size, rows))  # a query start at or after
    cuts = np.unique(starts[at[at < starts.size]])
    for first, stop in zip(cuts, [*cuts[1:], code.size], strict=True):
        yield run.iloc[order[first:stop]].reset_index(drop=True)


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
        qrels = read_plain_qrels(args.qrels)  # None unless plain: then read the general way
        if qrels is None:
            qrels = CommandQrels.from_frame(read_trec_qrels(args.qrels, version))
        try:
            columns = plan(selection, version)
        except TrecEvalError:  # trec_eval reads the run before it sets up its measures
            read_trec_results(args.run, version, stdin)
            raise
        options = {"relevance_level": args.l, "complete": args.c, "version": version,
                   "judged_only": getattr(args, "J", False)}
        if version == "10.0" and args.run.startswith("-"):  # stdin: read whole
            run_table, run_id = read_trec_results(args.run, version, stdin)
            outcome = compute(qrels, run_table, run_id, columns, **options)
            n_rows = len(run_table)
        else:
            outcome, n_rows = _compute_streamed(qrels, args.run, columns, options)
        if (n_rows == 0 and version == "10.0" and outcome.summary is not None
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
    crashing = [c.measure.name for c in columns if c.measure.shares_gains]
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

