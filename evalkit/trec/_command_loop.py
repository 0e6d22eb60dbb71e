"""trec_eval's loop over queries, computed for all queries at once: which queries it
evaluates, where it fails or crashes, the values :func:`evalkit.trec.evaluate` gives, and
the summary (``all``) as trec_eval adds it up (``trec_eval.c``, ``meas_acc.c``,
``meas_avg.c``)."""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ._command_files import Crash, TrecEvalError
from ._command_plan import Column
from ._evaluate import evaluate
from ._measures import MIN_GEO_MEAN
from ._registry import DEFAULT_VERSION, STRING, TrecEvalName

__all__ = ["Outcome", "compute"]


BOGUS_DOCNO = "ceci_nest_pas_un_docno"  # trec_eval 10.0's ranking for a query the run misses


def _zeroed_for_bogus(measure: TrecEvalName, printed: str) -> bool:
    """Whether 10.0 sets this value to 0 after scoring a bogus ranking (trec_eval.c matches
    the printed name: exactly num_ret, utility or rbp_resid, or any name starting unj; see
    ``TrecEvalName.zeroed_for_bogus``)."""
    if measure.zeroed_for_bogus == "prefix":
        return printed.startswith(measure.name)
    return measure.zeroed_for_bogus == "name" and printed == measure.name


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
            relevance_level: int, complete: bool, version: str = DEFAULT_VERSION,
            judged_only: bool = False) -> Outcome:
    """trec_eval's loop over queries (see the module's documentation), vectorised;
    ``judged_only`` is trec_eval's -J (condensed lists)."""
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
    reads_pairs = any(c.measure.evalkit is not None for c in columns)  # not runid, num_q
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
                          judged_only=judged_only, **_evaluate_options(version))
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
        if _zeroed_for_bogus(measure, column.name):
            values[bogus] = 0.0
        if measure.name == "ideal_dcg" and version == "10.0":
            values = _stale_ideal_dcg(values, max_rel[:stop] < 0)
        if measure.summary == "geometric mean":  # gm_map, gm_bpref
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

