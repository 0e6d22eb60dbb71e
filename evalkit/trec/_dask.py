"""A run as a dask DataFrame: scored per query group on whatever dask scheduler is active.

:func:`~evalkit.trec.evaluate` hands a dask DataFrame here. dask is the engine and stays
optional: this module never imports it unless given one of its collections (a dask
DataFrame's class lives in ``dask.dataframe``, so that module is already imported when one
exists), and evalkit works without it.

Every measure of a query reads only that query's rows, so the run is cut into groups of
whole queries and each group is scored by the in-memory evaluate:

1. each partition of the run is reduced to its three columns (``query_id`` as str), its
   scores are checked, and the rows of queries the qrels do not judge are dropped
   (evaluate drops them too): less to move;
2. the rows are shuffled by a hash of ``query_id`` (dask's own shuffle), so that each query's
   rows land in one partition, in their order. A run whose index is ``query_id`` with known
   divisions is cut between queries already and is not shuffled;
3. each partition is scored by the in-memory evaluate against the qrels of its own queries
   (the qrels, small, are a one-partition frame that dask hands to every partition; on a
   distributed cluster they are scattered to each worker once), with ``missing_queries="ignore"``;
4. the per-query results (queries x metrics, small) are gathered, put in the qrels' order of
   first appearance, and the judged queries the run lacks are added from an evaluation of an
   empty run when ``missing_queries="zero"``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .._factorize import unique
from ._tables import RUN_COLUMNS, _columns, _ids, _qrels_arrays, _scores

__all__: list[str] = []

_INSTALL = "pip install 'evalkit[dask]'"


def _looks_like_dask(value: Any) -> bool:
    """Whether value is a collection of dask's (its class comes from dask), checked
    without importing dask."""
    module = type(value).__module__.split(".")[0]
    return module in ("dask", "dask_expr", "dask_cudf") or hasattr(value, "__dask_graph__")


def _is_dask_frame(value: Any, name: str) -> bool:
    """Whether value is a dask DataFrame; raises for another dask collection, or for a dask
    lookalike when dask.dataframe cannot be imported."""
    if not _looks_like_dask(value):
        return False
    dataframe = sys.modules.get("dask.dataframe")
    if dataframe is None:
        try:
            import dask.dataframe as dataframe
        except ImportError as error:
            raise ImportError(
                f"{name} is a {type(value).__name__} from dask, but dask.dataframe cannot be "
                f"imported ({error}); install the dask extra: {_INSTALL}"
            ) from error
    if not isinstance(value, dataframe.DataFrame):
        raise TypeError(f"{name} must be a pandas or dask DataFrame (or a file path); got "
                        f"{type(value).__module__}.{type(value).__name__}")
    return True


def _uses_dask(qrels: Any, run: Any) -> bool:
    """Whether evaluate should hand (qrels, run) to :func:`_evaluate_dask`."""
    return _is_dask_frame(run, "run") | _is_dask_frame(qrels, "qrels")


def _evaluate_dask(evaluate: Callable[..., pd.DataFrame], qrels: Any, run: Any, metrics: Any,
                   **options: Any) -> pd.DataFrame:
    """``evaluate(qrels, run, metrics, **options)`` for a dask run (or dask qrels): the pandas
    result, computed per query group on the active dask scheduler."""
    if _is_dask_frame(qrels, "qrels"):  # qrels are small: one table in memory
        qrels = qrels.compute()
    if not _is_dask_frame(run, "run"):
        return evaluate(qrels, run, metrics, **options)
    import dask.dataframe as dataframe

    # The judged queries in the qrels' order, each with the values it has when the run
    # lacks it (every measure 0, NumRel = R): evaluate on an empty run checks the qrels,
    # the metrics and the options here, once, before any work on the run.
    empty = pd.DataFrame({"query_id": pd.Series([], dtype=object),
                          "doc_id": pd.Series([], dtype=object),
                          "score": pd.Series([], dtype=np.float64)})
    zero_options = {**options, "missing_queries": "zero"}
    template = evaluate(qrels, empty, metrics, **zero_options)
    query_id, doc_id, grade = _qrels_arrays(qrels)
    plain_qrels = pd.DataFrame({"query_id": query_id, "doc_id": doc_id, "relevance": grade})
    judged = pd.Index(unique(query_id), dtype=object)

    frame, indexed = _run_frame(run)
    pieces = frame.map_partitions(_prepared, _Judged(judged), indexed,
                                  meta=_prepared(frame._meta, _Judged(judged), indexed),
                                  partition_info=True)
    if frame.npartitions > 1 and not (indexed and frame.known_divisions):
        pieces = pieces.shuffle("query_id")
    qrels_task = _broadcast(dataframe, plain_qrels)
    part_options = {**options, "missing_queries": "ignore"}
    meta = _score_meta(template)
    scores = pieces.map_partitions(_scored, qrels_task, evaluate, meta, part_options,
                                   meta=meta, enforce_metadata=False, align_dataframes=False)
    found = scores.compute()
    return _in_qrels_order(found, template, options.get("missing_queries", "ignore"))


def _broadcast(dataframe: Any, table: pd.DataFrame) -> Any:
    """The qrels as a dask DataFrame of one partition, which dask hands to every partition of
    the run: on a distributed client, scattered to every worker once (not in the graph, which
    the client would send through the scheduler); else one task of the graph."""
    from dask.base import get_scheduler

    client = getattr(get_scheduler(), "__self__", None)
    distributed = sys.modules.get("distributed")
    if distributed is not None and isinstance(client, distributed.Client):
        future = client.scatter(table, broadcast=True, hash=False)
        return dataframe.from_delayed([future], meta=table.iloc[:0], verify_meta=False)
    return dataframe.from_pandas(table, npartitions=1)


def _run_frame(run: Any) -> tuple[Any, bool]:
    """The run's columns checked as evaluate checks them (names, score dtype) on dask's
    metadata, and whether ``query_id`` is its index rather than a column."""
    indexed = "query_id" not in run.columns and run.index.name == "query_id"
    columns = RUN_COLUMNS[1:] if indexed else RUN_COLUMNS
    _columns(run, "run", columns)
    _scores(run._meta["score"])  # the dtype: numbers
    return run[list(columns)], indexed


class _Judged:
    """The judged query ids, in a holder that dask passes to each task as it is (dask
    2025.1 does not resolve a delayed argument of map_partitions)."""

    def __init__(self, names: pd.Index) -> None:
        self.names = names


def _prepared(piece: pd.DataFrame, judged: _Judged, indexed: bool,
              partition_info: dict | None = None) -> pd.DataFrame:
    """One partition of the run: its three columns, query_id as str, the scores checked, and
    the rows of unjudged queries left out. String columns keep their storage (pyarrow's or
    numpy's objects): converting here would only be undone by the shuffle."""
    if indexed:
        piece = piece.reset_index()
    number = (partition_info or {}).get("number", 0)
    query_id = piece["query_id"]
    try:
        _scores(piece["score"])
        if query_id.isna().any():  # evaluate's message for it
            _ids(query_id, "run['query_id']")
        if not pd.api.types.is_string_dtype(query_id):  # whole numbers: as evaluate reads them
            query_id = pd.Series(_ids(query_id, "run['query_id']"), index=piece.index,
                                 dtype=object)
    except ValueError as error:  # the row is the partition's: say which partition
        raise ValueError(f"{error} (of the dask DataFrame's partition {number})") from None
    piece = pd.DataFrame({"query_id": query_id, "doc_id": piece["doc_id"],
                          "score": piece["score"]})
    keep = query_id.isin(judged.names).to_numpy()
    return piece if keep.all() else piece[keep]


def _score_meta(template: pd.DataFrame) -> pd.DataFrame:
    meta = template.iloc[:0].copy()
    meta.index = pd.Index([], dtype=object, name="query_id")
    return meta


def _scored(piece: pd.DataFrame, qrels: pd.DataFrame, evaluate: Callable[..., pd.DataFrame],
            empty: pd.DataFrame, options: dict[str, Any]) -> pd.DataFrame:
    """One partition of whole queries scored against the qrels of its queries."""
    if len(piece) == 0:
        return empty
    mine = qrels["query_id"].isin(pd.unique(piece["query_id"].to_numpy()))
    result = evaluate(qrels[mine.to_numpy()], piece, list(empty.columns), **options)
    result.index = pd.Index(np.asarray(result.index, dtype=object), name="query_id")
    return result


def _in_qrels_order(found: pd.DataFrame, template: pd.DataFrame,
                    missing_queries: str) -> pd.DataFrame:
    """The gathered per-query results in the qrels' order of first appearance, with the
    dtypes of the in-memory result; with ``missing_queries="zero"`` the judged queries the
    run lacks too, with their values from ``template``."""
    found = found.astype(template.dtypes.to_dict())
    position = pd.Index(np.asarray(template.index, dtype=object)).get_indexer(found.index)
    if missing_queries == "zero":
        absent = np.ones(len(template), dtype=bool)
        absent[position] = False
        found = pd.concat([found, template[absent]])
        position = np.r_[position, np.flatnonzero(absent)]
    result = found.take(np.argsort(position, kind="stable"))
    result.index = template.index[np.sort(position)]
    return result
