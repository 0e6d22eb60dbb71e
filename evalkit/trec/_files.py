r"""TREC files: reading and writing qrels and runs, checked as trec_eval checks them.

A *qrels* table holds the relevance judgements (``query_id``, ``doc_id``, ``relevance``), a
*run* table one system's ranked results (``query_id``, ``doc_id``, ``score``, ``run_id``).
:func:`read_qrels` and :func:`read_run` read the white-space separated files trec_eval reads
(gzip-compressed too) into such tables, naming the file and line of the first malformed
line; :func:`write_qrels` and :func:`write_run` write them back, a run in the order
trec_eval ranks it (by score, highest first, equal scores by doc_id in *descending* byte
order). A document listed twice for one query is refused, as trec_eval refuses it.

Scoring a run against the qrels (:func:`evaluate`) lives beside it, in
:mod:`evalkit.trec._evaluate`.

Undefined values: none; the files are read, checked and written, nothing is divided. Grades
are whole numbers and may be negative (trec_eval reads -1 as pooled but not judged).
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

from .._factorize import factorize
from .._validation import keyword_only
from ._measures import group_positions
from ._ordering import _trec_order
from ._pairs import _check_pair_duplicates
from ._parsing import _read_qrels, _read_run
from ._tables import _qrels_arrays, _run_arrays, _table

__all__ = ["read_qrels", "read_run", "write_qrels", "write_run"]


# ---------------------------------------------------------------------------------------------
# Reading and writing TREC files
# ---------------------------------------------------------------------------------------------


def read_qrels(path_or_buffer: Any) -> pd.DataFrame:
    r"""Read relevance judgements in TREC qrels format.

    .. math::

        \texttt{query\_id}\;\; \texttt{iteration}\;\; \texttt{doc\_id}\;\;
        \texttt{relevance}

    One judgement per line, four fields separated by white space; the iteration field is
    ignored (it is 0 by convention). Grades are whole numbers; negative grades are kept
    (trec_eval reads -1 as "pooled but not judged"). Blank lines are skipped.

    Parameters
    ----------
    path_or_buffer : str, path or text/bytes file object
        A gzip-compressed file is decompressed.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64), in file order.

    Raises
    ------
    ValueError
        Naming the file and line of the first malformed line, or a document judged twice for
        one query.

    References
    ----------
    NIST. trec_eval, README and ``get_qrels.c``. https://github.com/usnistgov/trec_eval

    Examples
    --------
    >>> import io
    >>> read_qrels(io.StringIO("q1 0 d1 2\nq1 0 d2 0\n"))
      query_id doc_id  relevance
    0       q1     d1          2
    1       q1     d2          0
    """
    return _read_qrels(path_or_buffer)


def read_run(path_or_buffer: Any) -> pd.DataFrame:
    r"""Read a ranked run in TREC format.

    .. math::

        \texttt{query\_id}\;\; \texttt{Q0}\;\; \texttt{doc\_id}\;\; \texttt{rank}\;\;
        \texttt{score}\;\; \texttt{run\_id}

    Six fields separated by white space; fields after the run id are ignored, as trec_eval
    does. The rank field is kept as written but never used: trec_eval ranks by score. The
    whole file is read into memory; :func:`evaluate` given the path instead streams a run
    grouped by query, a block of whole queries at a time.

    Parameters
    ----------
    path_or_buffer : str, path or text/bytes file object
        A gzip-compressed file is decompressed.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``doc_id`` (str), ``score`` (float64), ``run_id`` (str)
        and ``rank`` (str), in file order.

    Raises
    ------
    ValueError
        Naming the file and line of the first malformed line (too few fields, a score that
        is not a finite number), or a document retrieved twice for one query.

    References
    ----------
    NIST. trec_eval, README and ``get_trec_results.c``. https://github.com/usnistgov/trec_eval

    Examples
    --------
    >>> import io
    >>> read_run(io.StringIO("q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\n"))
      query_id doc_id  score run_id rank
    0       q1     d1    2.5   bm25    1
    1       q1     d2    1.5   bm25    2
    """
    return _read_run(path_or_buffer)


def _open_for_writing(path_or_buffer: Any) -> tuple[IO[str], bool]:
    if isinstance(path_or_buffer, str | os.PathLike):
        path = Path(path_or_buffer)
        if path.suffix == ".gz":
            return gzip.open(path, "wt", encoding="utf-8", newline="\n"), True
        return open(path, "w", encoding="utf-8", newline="\n"), True
    if hasattr(path_or_buffer, "write"):
        return path_or_buffer, False
    raise TypeError(
        f"path_or_buffer must be a path or an open file; got {type(path_or_buffer).__name__}"
    )


def _write_lines(lines: pd.Series, path_or_buffer: Any) -> None:
    handle, close = _open_for_writing(path_or_buffer)
    try:
        handle.write("".join(lines.tolist()))
    finally:
        if close:
            handle.close()


def _check_field(values: np.ndarray, column: str, table: str) -> pd.Series:
    """TREC fields are separated by white space: a value with a space, or an empty one, breaks
    the file. Returns the values as strings."""
    text = pd.Series(values, dtype=object).astype(str)
    bad = text.str.contains(r"\s", regex=True) | (text == "")
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(
            f"{table}['{column}'] row {row} is {text.iloc[row]!r}; TREC fields cannot be empty "
            "or contain white space"
        )
    return text


def write_qrels(qrels: pd.DataFrame, path_or_buffer: Any) -> None:
    r"""Write relevance judgements in TREC qrels format.

    .. math::

        \texttt{query\_id}\;\; \texttt{0}\;\; \texttt{doc\_id}\;\; \texttt{relevance}

    Parameters
    ----------
    qrels : pandas.DataFrame
        Columns ``query_id``, ``doc_id`` and ``relevance`` (whole numbers).
    path_or_buffer : str, path or text file object
        A path ending in ``.gz`` is gzip-compressed.

    Returns
    -------
    None

    References
    ----------
    NIST. trec_eval, README. https://github.com/usnistgov/trec_eval

    Examples
    --------
    >>> import io, pandas as pd
    >>> out = io.StringIO()
    >>> write_qrels(pd.DataFrame({"query_id": [1], "doc_id": ["d7"], "relevance": [2]}), out)
    >>> out.getvalue()
    '1 0 d7 2\n'
    """
    _table(qrels, "qrels")
    query_id, doc_id, relevance = _qrels_arrays(qrels)
    lines = (
        _check_field(query_id, "query_id", "qrels")
        + " 0 "
        + _check_field(doc_id, "doc_id", "qrels")
        + " "
        + pd.Series(relevance).astype(str)
        + "\n"
    )
    _write_lines(lines, path_or_buffer)


@keyword_only
def write_run(run: pd.DataFrame, path_or_buffer: Any, *, run_id: str | None = None) -> None:
    r"""Write a run in TREC format, ranked as trec_eval will rank it.

    .. math::

        \texttt{query\_id}\;\; \texttt{Q0}\;\; \texttt{doc\_id}\;\; \texttt{rank}\;\;
        \texttt{score}\;\; \texttt{run\_id}

    Within each query the rows are written by score, highest first, ties by doc_id
    descending (trec_eval's order), with ranks 1, 2, …; queries keep their order of first
    appearance. Scores are written with the shortest text that reads back as the same float.

    Parameters
    ----------
    run : pandas.DataFrame
        Columns ``query_id``, ``doc_id``, ``score`` and optionally ``run_id``.
    path_or_buffer : str, path or text file object
        A path ending in ``.gz`` is gzip-compressed.
    run_id : str, optional
        The run's name; default: the ``run_id`` column, or "evalkit".

    Returns
    -------
    None

    References
    ----------
    NIST. trec_eval, README. https://github.com/usnistgov/trec_eval

    Examples
    --------
    >>> import io, pandas as pd
    >>> out = io.StringIO()
    >>> run = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "score": [1.0, 2.5]})
    >>> write_run(run, out, run_id="mine")
    >>> print(out.getvalue(), end="")
    q1 Q0 b 1 2.5 mine
    q1 Q0 a 2 1.0 mine
    """
    _table(run, "run")
    query_id, doc_id, score = _run_arrays(run)
    if run_id is None:
        run_id = run["run_id"].to_numpy(dtype=object) if "run_id" in run.columns else "evalkit"
    run_ids = np.broadcast_to(np.asarray(run_id, dtype=object), query_id.shape)
    query_code, queries = factorize(query_id)
    _check_pair_duplicates(query_code, doc_id, np.asarray(queries, dtype=object), "run",
                           "retrieved twice")
    order = _trec_order(query_code, score, doc_id)
    rank = group_positions(query_code[order])
    lines = (
        _check_field(query_id[order], "query_id", "run")
        + " Q0 "
        + _check_field(doc_id[order], "doc_id", "run")
        + " "
        + pd.Series(rank).astype(str)
        + " "
        + pd.Series([repr(float(s)) for s in score[order]], dtype=object)
        + " "
        + _check_field(run_ids[order], "run_id", "run")
        + "\n"
    )
    _write_lines(lines, path_or_buffer)
