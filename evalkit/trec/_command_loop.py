"""trec_eval's loop over queries, computed for all queries at once: which queries it
evaluates, where it fails or crashes, the values :func:`evalkit.trec.evaluate` gives, and
the summary (``all``) as trec_eval adds it up (``trec_eval.c``, ``meas_acc.c``,
``meas_avg.c``)."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._factorize import unique
from ._command_fast import FastScorer
from ._command_files import Crash, TrecEvalError
from ._command_plan import Column
from ._command_qrels import CommandQrels
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
    per_query: dict[str, np.ndarray]  # printed name -> a value per query, in -q's order
    summary: dict[str, Any] | None
    failure: TrecEvalError | None = None


def _evaluate_options(version: str) -> dict[str, Any]:
    """evaluate's keyword for the trec_eval release."""
    return {"trec_eval_version": version}


def _is_table(value: Any) -> bool:
    """Whether value is a pandas DataFrame (without importing pandas: if it is not loaded,
    nothing is a DataFrame)."""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(value, pandas.DataFrame)


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


def _finite_scores(run: Any) -> Any:
    """+-inf scores rank as trec_eval ranks them: replaced by their rank among the block's
    scores (whole queries, so each query's order is kept)."""
    score = run["score"].to_numpy()
    if np.isfinite(score).all():
        return run
    return run.assign(score=np.unique(score, return_inverse=True)[1].astype(np.float64))


#: Values of some queries: their ids and each label's values (in the ids' order).
Values = tuple[np.ndarray, dict[str, np.ndarray]]


def _values(table: Any, labels: list[str]) -> Values:
    """evaluate's table as :data:`Values`."""
    return (table.index.to_numpy(dtype=object),
            {label: table[label].to_numpy() for label in labels})


@dataclass
class _Scored:
    """What the blocks of the run left: their queries, the queries listing a document twice
    and the values of the others (the queries evaluate could score)."""

    query_ids: list[np.ndarray] = field(default_factory=list)
    duplicated: list[np.ndarray] = field(default_factory=list)
    scores: list[Values] = field(default_factory=list)


def _duplicated_queries(run: Any) -> np.ndarray:
    twice = run.duplicated(["query_id", "doc_id"]).to_numpy()
    return unique(run["query_id"].to_numpy()[twice])


def _score_blocks(blocks: Iterable[Any], qrels: CommandQrels, scorable: np.ndarray,
                  labels: list[str], reads_pairs: bool, options: dict[str, Any]) -> _Scored:
    """Each block's queries, its judged queries with a document listed twice, and
    evaluate's values for the ``scorable`` ones (a mask over ``qrels.names``: judged without
    a duplicate or a grade below -1) that list no document twice. A plain block of bytes is
    scored by :class:`~evalkit.trec._command_fast.FastScorer`; a table (or a block it gives
    back) by evaluate, which checks for a document listed twice: only when it refuses a
    block is the block searched for them."""
    scored = _Scored()
    fast = None
    for block in blocks:
        if not _is_table(block):  # a plain block of bytes (_command_fast)
            if fast is None:
                fast = FastScorer(qrels, scorable, labels, options)
            done = fast.score(block) if fast.ok and reads_pairs else None
            if done is not None:
                scored.query_ids.append(done[0])
                if done[1] is not None:
                    scored.scores.append(done[1])
                continue
            block = block.table()
        _score_table(block, qrels, scorable, labels, reads_pairs, options, scored)
    return scored


def _score_table(block: Any, qrels: CommandQrels, scorable: np.ndarray, labels: list[str],
                 reads_pairs: bool, options: dict[str, Any], scored: _Scored) -> None:
    """The general path of :func:`_score_blocks`: a table of whole queries, by evaluate."""
    from ._evaluate import evaluate

    ids = unique(block["query_id"].to_numpy(dtype=object))
    scored.query_ids.append(ids)
    code = qrels.lookup(ids)
    judged, code = ids[code >= 0], code[code >= 0]
    if not reads_pairs or not judged.size:
        return
    wanted = judged[scorable[code]]
    if wanted.size < judged.size:  # rare: such a query fails, maybe for a duplicate
        others = block[block["query_id"].isin(judged[~scorable[code]])]
        scored.duplicated.append(_duplicated_queries(others))
    if not wanted.size:
        return
    run = block[block["query_id"].isin(wanted)] if wanted.size < ids.size else block
    if not labels:
        scored.duplicated.append(_duplicated_queries(run))
        return
    run = _finite_scores(run)
    subset = qrels.rows(wanted)
    try:
        values = evaluate(subset, run, labels, **options)
    except ValueError:
        duplicated = _duplicated_queries(run)
        if not duplicated.size:
            raise
        scored.duplicated.append(duplicated)
        run = run[~run["query_id"].isin(duplicated)]
        if not len(run):
            return
        values = evaluate(subset[~subset["query_id"].isin(duplicated)], run, labels,
                          **options)
    scored.scores.append(_values(values, labels))


def _in_sorted(values: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """Whether each of ``values`` is in ``pool`` (sorted): np.isin without sorting both (a
    search per value; np.isin on str objects sorts them together)."""
    if not pool.size or not values.size:
        return np.zeros(values.size, dtype=bool)
    at = np.minimum(np.searchsorted(pool, values), pool.size - 1)
    return pool[at] == values


def _by_query(parts: list[Values], queries: np.ndarray, labels: list[str]
              ) -> dict[str, np.ndarray]:
    """Each label's values for ``queries`` (sorted, distinct), NaN where a part has none."""
    columns: dict[str, np.ndarray] = {}
    ids = np.concatenate([part[0] for part in parts]) if parts else np.zeros(0, dtype=object)
    at = np.zeros(0, dtype=np.intp)
    if ids.size and queries.size:
        at = np.minimum(np.searchsorted(queries, ids), queries.size - 1)
    found = (queries[at] == ids) if at.size else np.zeros(ids.size, dtype=bool)
    for label in labels:
        values = [part[1][label] for part in parts]
        joined = np.concatenate(values) if values else np.zeros(0)
        column = np.full(queries.size, np.nan,
                         dtype=np.float64 if joined.dtype.kind in "fiub" else object)
        column[at[found]] = joined[found]
        columns[label] = column
    return columns


def compute(qrels: Any, run: Any, run_id: str | Callable[[], str],
            columns: list[Column], *, relevance_level: int, complete: bool,
            version: str = DEFAULT_VERSION, judged_only: bool = False) -> Outcome:
    """trec_eval's loop over queries (see the module's documentation), vectorised;
    ``judged_only`` is trec_eval's -J (condensed lists). ``qrels`` is a
    :class:`~evalkit.trec._command_qrels.CommandQrels` or the qrels table; ``run`` the run
    table, or its blocks of whole queries (each query in one block: tables, or
    :class:`~evalkit.trec._command_fast.ByteBlock` s), read one after the other; ``run_id``
    the run id, or a function giving it once the blocks are read."""
    if not isinstance(qrels, CommandQrels):
        qrels = CommandQrels.from_frame(qrels)
    blocks = [run] if _is_table(run) else run
    q_ids = qrels.names  # sorted (byte order: ids are Latin-1 text)
    reads_pairs = any(c.measure.evalkit is not None for c in columns)  # not runid, num_q
    labels = list(dict.fromkeys(label for c in columns for label in c.labels))
    scorable = (qrels.max_grade >= -1) & ~qrels.duplicated
    options = {"relevance_level": relevance_level, "judged_only": judged_only,
               **_evaluate_options(version)}
    scored = _score_blocks(blocks, qrels, scorable, labels, reads_pairs, options)
    r_ids = np.sort(np.concatenate(scored.query_ids)) if scored.query_ids else \
        np.zeros(0, dtype=object)
    if version == "10.0":
        loop = q_ids
        in_run = _in_sorted(loop, r_ids)
    else:
        loop = np.intersect1d(r_ids, q_ids)
        in_run = np.ones(loop.size, dtype=bool)
    n = loop.size
    fail = np.zeros(n, dtype=np.int8)  # 0 fine, 1 exit 4, 2 crash
    reason = np.full(n, "", dtype=object)
    max_rel = np.zeros(n)
    if reads_pairs and n:
        code = qrels.lookup(loop)  # all found: the loop's queries are the qrels'
        run_dup = (np.concatenate(scored.duplicated).astype(object) if scored.duplicated
                   else np.zeros(0, dtype=object))
        max_rel = qrels.max_grade[code].astype(np.float64)
        dup = _in_sorted(loop, np.sort(run_dup)) | qrels.duplicated[code]
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
    parts = list(scored.scores) if labels and queries.size else []
    if labels and queries.size and bogus.any():
        import pandas as pd

        from ._evaluate import evaluate

        extra = pd.DataFrame({"query_id": queries[bogus], "doc_id": BOGUS_DOCNO,
                              "score": 1.0})
        parts.append(_values(evaluate(qrels.rows(queries[bogus]), extra, labels, **options),
                             labels))
    scores = _by_query(parts, queries, labels)
    n_evaluated = queries.size
    n_queries = q_ids.size if complete else n_evaluated
    per_query: dict[str, np.ndarray] = {}
    summary: dict[str, Any] = {}
    for column in columns:
        measure = column.measure
        if measure.name == "runid":
            summary[column.name] = run_id if isinstance(run_id, str) else run_id()
            continue
        if measure.name == "num_q":
            summary[column.name] = n_queries
            continue
        if measure.kind == STRING:  # relstring: per query only
            strings = scores[column.labels[0]].astype(object)
            if column.name == "relstring":  # 10.0 clears it (by this exact name)
                strings[bogus] = ""
            per_query[column.name] = strings
            continue
        block = np.column_stack([scores[label].astype(np.float64) for label in column.labels]
                                ) if column.labels else np.zeros((queries.size, 0))
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
            total = float(np.count_nonzero(qrels.grade > 0))
        if measure.summed or n_queries == 0:
            summary[column.name] = total
        else:
            summary[column.name] = total / n_queries
    return Outcome([str(q) for q in queries], per_query,
                   None if failure is not None else summary, failure)

