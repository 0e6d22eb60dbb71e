r"""Whole runs over many queries: TREC files and trec_eval's measures, vectorised.

A *qrels* table holds the relevance judgements (``query_id``, ``doc_id``, ``relevance``), a
*run* table one system's ranked results (``query_id``, ``doc_id``, ``score``, ``run_id``).
:func:`evaluate` scores a run against the qrels with exactly trec_eval's semantics, for all
queries at once: the rows are ordered once, joined with the qrels once, and every measure is a
few ``np.bincount`` calls over the retrieved-and-judged rows. There is no Python loop over
queries.

trec_eval's rules, which :func:`evaluate` follows (``trec_eval.c``, ``form_res_rels.c``):

- documents are ranked by score, highest first; equal scores are broken by doc_id in
  *descending* byte order; the run's own rank column is ignored;
- a document absent from the qrels counts as not relevant; a negative grade (-1: in the pool
  but not judged) is neither relevant nor judged non-relevant;
- a query of the run that has no judgements is left out; a judged query without relevant
  documents is kept and scores 0; a judged query missing from the run is left out unless
  ``missing_queries="zero"`` (trec_eval ``-c``);
- ``relevance_level`` (trec_eval ``-l``) decides which grades are relevant for the binary
  measures; nDCG always uses the grades themselves as gains, and its ideal ranking comes from
  all the judged documents of the query, retrieved or not.
"""

from __future__ import annotations

import difflib
import gzip
import io
import os
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

from ._text_files import read_text as _read_text
from ._text_files import source_name as _source_name
from ._trec_measures import MEASURES, JudgedRun, group_positions
from ._validation import check_option, check_scalar

__all__ = ["read_qrels", "read_run", "write_qrels", "write_run", "evaluate", "METRICS"]

#: The measures :func:`evaluate` knows, and whether they take a cutoff ``@k`` ("optional",
#: "required" or "none"). Each is one small function in the registry ``_trec_measures``.
METRICS = {name: measure.cutoff for name, measure in MEASURES.items()}
_METRIC_PATTERN = re.compile(r"(?P<name>[A-Za-z]+)(?:@(?P<cutoff>[^@]+))?")
_FLOAT_CUTOFFS = {"IPrec": "a recall level in [0, 1]", "RprecMult": "a multiple of R >= 0",
                  "SetF": "a weight b >= 0"}

#: trec_eval's names that :func:`evaluate` also takes, each with the ir_measures-style name it
#: stands for. Families take their cutoff after ``_`` or ``.`` (``P_10``, ``P.10``).
TREC_EVAL_NAMES = {
    "map": "AP", "Rprec": "Rprec", "bpref": "Bpref", "recip_rank": "RR", "ndcg": "nDCG",
    "num_ret": "NumRet", "num_rel": "NumRel", "num_rel_ret": "NumRelRet",
    "num_nonrel_judged_ret": "NumNonRelJudgedRet", "set_P": "SetP", "set_recall": "SetR",
    "set_F": "SetF", "11pt_avg": "IPrecAvg",
}
TREC_EVAL_FAMILIES = {
    "P": "P", "recall": "R", "map_cut": "AP", "ndcg_cut": "nDCG", "success": "Success",
    "iprec_at_recall": "IPrec", "Rprec_mult": "RprecMult",
}
_TREC_FAMILY_PATTERN = re.compile(
    r"(?P<family>" + "|".join(sorted(TREC_EVAL_FAMILIES, key=len, reverse=True))
    + r")[_.](?P<cutoff>[0-9.]+)"
)


_SUMMARY_ONLY = {
    "gm_map": "is trec_eval's summary over queries (the geometric mean of AP, each floored at "
              "1e-5), not a per-query value; ask for 'map' and average with scipy.stats.gmean",
    "runid": "is the run's name, not a measure; see the run's run_id column",
    "num_q": "is trec_eval's count of queries, not a per-query value; use len() of the result",
}


def _from_trec_eval_name(label: str) -> tuple[str, str | None] | None:
    """(name, cutoff text) for a trec_eval measure name, or None when it is not one."""
    if label in TREC_EVAL_NAMES:
        return TREC_EVAL_NAMES[label], None
    if label.startswith("set_F_") or label.startswith("set_F."):
        return "SetF", label[6:]
    match = _TREC_FAMILY_PATTERN.fullmatch(label)
    if match is None:
        return None
    return TREC_EVAL_FAMILIES[match.group("family")], match.group("cutoff")


def _known_names() -> list[str]:
    names = [f"{n}@k" if rule == "required" else n for n, rule in METRICS.items()]
    return names + list(TREC_EVAL_NAMES) + [f"{family}_k" for family in TREC_EVAL_FAMILIES]


def _unknown_metric(label: Any) -> ValueError:
    """The error for an unknown name, suggesting the nearest name in both vocabularies."""
    text = str(label)
    stem = re.split(r"[@_.]?[0-9]", text, maxsplit=1)[0] or text
    # The closest name in either vocabulary, then its counterpart in the other one.
    trec_of = {v: k for k, v in TREC_EVAL_FAMILIES.items()}
    trec_of.update({v: k for k, v in TREC_EVAL_NAMES.items()})
    ir_of = {**TREC_EVAL_NAMES, **TREC_EVAL_FAMILIES}
    names = list(METRICS) + list(ir_of)
    folded = {name.lower(): name for name in names}
    closest = difflib.get_close_matches(stem.lower(), list(folded), n=1, cutoff=0.0)
    nearest = folded[closest[0]] if closest else "AP"
    ir_name = ir_of.get(nearest, nearest)
    trec_name = nearest if nearest in ir_of else trec_of.get(nearest, "map")
    float_cut = ir_name in _FLOAT_CUTOFFS
    if METRICS.get(ir_name) == "required" or nearest in TREC_EVAL_FAMILIES:
        ir_name += "@0.5" if float_cut else "@10"
    if trec_name in TREC_EVAL_FAMILIES:
        trec_name += "_0.50" if float_cut else "_10"
    hints = f"{ir_name!r} (ir_measures) or {trec_name!r} (trec_eval)"
    return ValueError(
        f"metrics: unknown metric {label!r}; did you mean {hints}? "
        f"Known metrics: {', '.join(_known_names())}"
    )
MISSING_QUERIES = ("ignore", "zero")

QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
RUN_COLUMNS = ("query_id", "doc_id", "score")


# ---------------------------------------------------------------------------------------------
# Reading and writing TREC files
# ---------------------------------------------------------------------------------------------


def _numbered_lines(text: str) -> Iterator[tuple[int, list[str]]]:
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if fields:
            yield number, fields


def _first_bad_qrels_line(text: str, name: str) -> None:
    """Raise for the first malformed qrels line (the slow path, run only when parsing failed)."""
    for number, fields in _numbered_lines(text):
        where = f"{name}, line {number}"
        if len(fields) != 4:
            raise ValueError(
                f"{where}: expected 4 fields 'query_id iteration doc_id relevance', "
                f"got {len(fields)}: {' '.join(fields)!r}"
            )
        try:
            int(fields[3])
        except ValueError:
            raise ValueError(
                f"{where}: relevance must be a whole number (e.g. 0, 1, 2, or -1 for unjudged); "
                f"got {fields[3]!r}"
            ) from None


def _first_bad_run_line(text: str, name: str) -> None:
    """Raise for the first malformed run line (the slow path, run only when parsing failed)."""
    for number, fields in _numbered_lines(text):
        where = f"{name}, line {number}"
        if len(fields) < 6:
            raise ValueError(
                f"{where}: expected 6 fields 'query_id Q0 doc_id rank score run_id', "
                f"got {len(fields)}: {' '.join(fields)!r}"
            )
        try:
            score = float(fields[4])
        except ValueError:
            raise ValueError(f"{where}: score must be a number; got {fields[4]!r}") from None
        if not np.isfinite(score):
            raise ValueError(f"{where}: score must be a finite number; got {fields[4]!r}")


def _parse_table(text: str, n_fields: int, *, extra_fields: bool) -> pd.DataFrame | None:
    """Fast C parse of white-space separated fields (all kept as str).

    Returns None when the text is not well formed: the caller then walks the lines itself to
    name the first bad one. A missing field shows up as "" in the last column.
    """
    columns = range(n_fields)
    if not text.strip():
        return pd.DataFrame({i: pd.Series(dtype=object) for i in columns})
    with warnings.catch_warnings():
        # Too many fields on the first line only warns (and drops them): make it an error.
        warnings.simplefilter("error", pd.errors.ParserWarning)
        try:
            return pd.read_csv(
                io.StringIO(text),
                sep=r"\s+",
                header=None,
                names=columns,
                usecols=columns if extra_fields else None,
                index_col=False,
                dtype=str,
                keep_default_na=False,
                na_values=[],
                engine="c",
                quoting=3,  # csv.QUOTE_NONE: quotes are ordinary characters in TREC files
            )
        except (pd.errors.ParserError, pd.errors.ParserWarning, ValueError):
            return None


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
    text = _read_text(path_or_buffer)
    name = _source_name(path_or_buffer)
    table = _parse_table(text, 4, extra_fields=False)
    relevance = None
    if table is not None and not (table[3] == "").any():
        relevance = pd.to_numeric(table[3], errors="coerce").to_numpy(dtype=np.float64)
        if not (np.isfinite(relevance).all() and np.all(relevance == np.round(relevance))):
            relevance = None
    if relevance is None:
        _first_bad_qrels_line(text, name)
        raise ValueError(f"{name}: could not read it as TREC qrels")  # pragma: no cover
    qrels = pd.DataFrame(
        {
            "query_id": table[0].to_numpy(dtype=object),
            "doc_id": table[2].to_numpy(dtype=object),
            "relevance": relevance.astype(np.int64),
        }
    )
    _check_no_duplicates(qrels, f"{name}: the qrels", "judged twice")
    return qrels


def read_run(path_or_buffer: Any) -> pd.DataFrame:
    r"""Read a ranked run in TREC format.

    .. math::

        \texttt{query\_id}\;\; \texttt{Q0}\;\; \texttt{doc\_id}\;\; \texttt{rank}\;\;
        \texttt{score}\;\; \texttt{run\_id}

    Six fields separated by white space; fields after the run id are ignored, as trec_eval
    does. The rank field is kept as written but never used: trec_eval ranks by score.

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
    text = _read_text(path_or_buffer)
    name = _source_name(path_or_buffer)
    table = _parse_table(text, 6, extra_fields=True)
    score = None
    if table is not None and not (table[5] == "").any():
        score = pd.to_numeric(table[4], errors="coerce").to_numpy(dtype=np.float64)
        if not np.isfinite(score).all():
            score = None
    if score is None:
        _first_bad_run_line(text, name)
        raise ValueError(f"{name}: could not read it as a TREC run")  # pragma: no cover
    run = pd.DataFrame(
        {
            "query_id": table[0].to_numpy(dtype=object),
            "doc_id": table[2].to_numpy(dtype=object),
            "score": score,
            "run_id": table[5].to_numpy(dtype=object),
            "rank": table[3].to_numpy(dtype=object),
        }
    )
    _check_no_duplicates(run, f"{name}: the run", "retrieved twice")
    return run


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


def write_run(run: pd.DataFrame, path_or_buffer: Any, run_id: str | None = None) -> None:
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
    query_code, queries = pd.factorize(query_id)
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


# ---------------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------------


def _table(value: Any, name: str) -> pd.DataFrame:
    if not isinstance(value, pd.DataFrame):
        raise TypeError(
            f"{name} must be a pandas DataFrame (e.g. from ek.read_{name}) or a file path; "
            f"got {type(value).__name__}"
        )
    return value


def _as_table(value: Any, name: str, reader: Any) -> pd.DataFrame:
    if isinstance(value, str | os.PathLike):
        return reader(value)
    return _table(value, name)


def _columns(table: pd.DataFrame, name: str, columns: Iterable[str]) -> None:
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(
            f"{name} lacks the column(s) {', '.join(map(repr, missing))}; it has "
            f"{', '.join(map(repr, map(str, table.columns)))}"
        )


def _ids(column: pd.Series, label: str) -> np.ndarray:
    """Identifiers as an object array of str (ints in a DataFrame become '1', '2', ...)."""
    values = column.to_numpy()
    if values.dtype == object and pd.api.types.infer_dtype(values, skipna=False) == "string":
        return values
    missing = column.isna().to_numpy()
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise ValueError(f"{label} is missing (NaN or None) in row {row}")
    if values.dtype.kind == "f":
        if not np.all(values == np.round(values)):
            raise ValueError(f"{label} holds non-integer numbers; use strings or whole numbers")
        values = values.astype(np.int64)
    return pd.Series(values).astype(str).to_numpy(dtype=object)


def _qrels_arrays(qrels: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    _columns(qrels, "qrels", QRELS_COLUMNS)
    relevance = qrels["relevance"]
    if not pd.api.types.is_numeric_dtype(relevance) or pd.api.types.is_bool_dtype(relevance):
        raise ValueError(f"qrels['relevance'] must hold whole numbers; got dtype {relevance.dtype}")
    grades = relevance.to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(grades) | (grades != np.round(grades))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"qrels['relevance'] must hold whole numbers; row {row} is {relevance.iloc[row]!r}"
        )
    return (
        _ids(qrels["query_id"], "qrels['query_id']"),
        _ids(qrels["doc_id"], "qrels['doc_id']"),
        grades.astype(np.int64),
    )


def _run_arrays(run: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    _columns(run, "run", RUN_COLUMNS)
    column = run["score"]
    if not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
        raise ValueError(f"run['score'] must hold numbers; got dtype {column.dtype}")
    score = column.to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(score)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"run['score'] contains {score[row]} in row {row}; scores must be finite numbers"
        )
    return _ids(run["query_id"], "run['query_id']"), _ids(run["doc_id"], "run['doc_id']"), score


def _report_duplicates(
    query_id: np.ndarray, doc_id: np.ndarray, rows: np.ndarray, what: str, verb: str
) -> None:
    pairs = sorted({(str(query_id[r]), str(doc_id[r])) for r in rows[:1000]})
    shown = "; ".join(f"query {q}: {d}" for q, d in pairs[:5])
    more = f" (and {len(pairs) - 5} more)" if len(pairs) > 5 else ""
    raise ValueError(
        f"{what} lists a document more than once for a query ({verb}): {shown}{more}. "
        "trec_eval refuses such input; keep one row per query and document."
    )


def _check_no_duplicates(table: pd.DataFrame, what: str, verb: str) -> None:
    """The readers' check: the same hashed, verified test as :func:`evaluate` uses."""
    code, queries = pd.factorize(table["query_id"].to_numpy())
    _check_pair_duplicates(code, table["doc_id"].to_numpy(), np.asarray(queries, dtype=object),
                           what, verb)


def _check_pair_duplicates(
    code: np.ndarray, doc: np.ndarray, queries: np.ndarray, what: str, verb: str,
    keys: np.ndarray | None = None,
) -> bool:
    """Raise when a (query, document) pair occurs twice; hashing first keeps it fast.

    Returns whether the keys themselves are unique (False only after a hash collision).
    """
    keys = _pair_keys(code, doc) if keys is None else keys
    # Sorting random 64-bit keys is several times faster than a hash table of them.
    ordered = np.sort(keys)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    if repeated.size == 0:
        return True
    # kind="sort": numpy 2.0.0's table method overflows on uint64 keys above 2**63.
    suspects = np.flatnonzero(np.isin(keys, repeated, kind="sort"))
    dup = pd.DataFrame({"q": code[suspects], "d": doc[suspects]}).duplicated().to_numpy()
    if dup.any():  # a true duplicate, not a hash collision
        _report_duplicates(queries[code], doc, suspects[dup], what, verb)
    return False


# ---------------------------------------------------------------------------------------------
# Metric names
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Metric:
    label: str
    name: str
    cutoff: int | float | None


def _parse_cutoff(name: str, text: str, label: str) -> int | float:
    if name in _FLOAT_CUTOFFS:
        try:
            level = float(text)
        except ValueError:
            level = -1.0
        valid = 0.0 <= level <= 1.0 if name == "IPrec" else 0.0 <= level < float("inf")
        if not valid:
            raise ValueError(f"metrics: {label!r} needs {_FLOAT_CUTOFFS[name]} as its cutoff")
        return level
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"metrics: {label!r} needs a whole number >= 1 as its cutoff")
    return int(text)


def _parse_metrics(metrics: Any) -> list[_Metric]:
    if isinstance(metrics, str):
        metrics = [metrics]
    try:
        metrics = list(metrics)
    except TypeError:
        raise TypeError(
            f"metrics must be a list of metric names such as ['AP', 'nDCG@10']; got {metrics!r}"
        ) from None
    if not metrics:
        raise ValueError("metrics is empty; ask for at least one, e.g. ['AP', 'nDCG@10']")
    parsed: list[_Metric] = []
    for label in metrics:
        match = _METRIC_PATTERN.fullmatch(label) if isinstance(label, str) else None
        trec = _from_trec_eval_name(label) if isinstance(label, str) else None
        if trec is not None:
            name, text = trec
        elif match is not None and match.group("name") in METRICS:
            name, text = match.group("name"), match.group("cutoff")
        elif label in TREC_EVAL_FAMILIES:
            ir_name = TREC_EVAL_FAMILIES[label]
            cut = "0.5" if ir_name in _FLOAT_CUTOFFS else "10"
            raise ValueError(f"metrics: trec_eval's {label!r} needs a cutoff, e.g. "
                             f"'{label}_{cut}' (or '{ir_name}@{cut}')")
        elif label in _SUMMARY_ONLY:
            raise ValueError(f"metrics: {label!r} {_SUMMARY_ONLY[label]}")
        else:
            raise _unknown_metric(label)
        rule = METRICS[name]
        if rule == "none" and text is not None:
            raise ValueError(f"metrics: {name} takes no cutoff; got {label!r}")
        if rule == "required" and text is None:
            example = "0.5" if name in _FLOAT_CUTOFFS else "10"
            raise ValueError(
                f"metrics: {name} needs a cutoff, e.g. {name}@{example}; got {label!r}"
            )
        cutoff = None if text is None else _parse_cutoff(name, text, label)
        if any(m.label == label for m in parsed):
            raise ValueError(f"metrics: {label!r} is asked for twice")
        parsed.append(_Metric(label, name, cutoff))
    return parsed


# ---------------------------------------------------------------------------------------------
# The vectorised core
# ---------------------------------------------------------------------------------------------


def _trec_order(query_code: np.ndarray, score: np.ndarray, doc_id: np.ndarray) -> np.ndarray:
    """Row order: grouped by query, then score descending, then doc_id descending."""
    n = score.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    same_query = query_code[1:] == query_code[:-1]
    starts = np.flatnonzero(np.r_[True, ~same_query])
    grouped = np.unique(query_code[starts]).size == starts.size
    if grouped and not np.any(same_query & (score[1:] > score[:-1])):
        # Already ranked, as most run files are: only ties may need reordering.
        tie_next = same_query & (score[1:] == score[:-1])
        order = np.arange(n)
        return _break_ties(order, tie_next, doc_id) if tie_next.any() else order
    else:
        # Equal scores are ordered by doc_id below, so the score sort need not be stable.
        order = np.argsort(-score)
        codes = query_code[order]
        if codes.max(initial=0) < 2**16:
            codes = codes.astype(np.uint16)  # numpy radix-sorts 16-bit keys
        order = order[np.argsort(codes, kind="stable")]
    ranked_score, ranked_code = score[order], query_code[order]
    tie_next = (ranked_code[1:] == ranked_code[:-1]) & (ranked_score[1:] == ranked_score[:-1])
    if tie_next.any():
        order = _break_ties(order, tie_next, doc_id)
    return order


def _break_ties(order: np.ndarray, tie_next: np.ndarray, doc_id: np.ndarray) -> np.ndarray:
    """Reorder each block of equal (query, score) rows by doc_id descending (trec_eval: strcmp).

    Only tied rows are touched. Python compares str by code point, which is the byte order of
    UTF-8, so this is strcmp's order. Most ties are pairs: one comparison each decides them.
    """
    tied_to_previous = np.r_[False, tie_next]
    positions = np.flatnonzero(np.r_[tie_next, False] | tied_to_previous)
    first = np.flatnonzero(~tied_to_previous[positions])  # each block's first tied row
    size = np.diff(np.r_[first, positions.size])
    names = doc_id[order[positions]]
    inner = np.arange(positions.size)
    pair = first[size == 2]
    swap = pair[names[pair] < names[pair + 1]]
    inner[swap], inner[swap + 1] = swap + 1, swap
    if (size > 2).any():
        rows = np.flatnonzero(np.repeat(size > 2, size))
        long_names = names[rows]
        try:
            long_names = long_names.astype(bytes)  # ASCII ids: byte strings sort fastest
        except UnicodeEncodeError:
            long_names = long_names.astype(str)
        _, name_rank = np.unique(long_names, return_inverse=True)
        block = np.repeat(np.arange(first.size), size)[rows]
        inner[rows] = rows[np.lexsort((-name_rank.ravel(), block))]
    order = order.copy()
    order[positions] = order[positions[inner]]
    return order


def _pair_keys(query_code: np.ndarray, doc_id: np.ndarray) -> np.ndarray:
    """A 64-bit hash per (query, document) pair; equal pairs get equal keys."""
    mixed = (query_code.astype(np.uint64) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
    # Python's own str hash: computed in C and cached on each string, so a second use is
    # cheap. It differs between processes, which does not matter for a join in one call.
    doc_hash = np.fromiter(map(hash, doc_id), dtype=np.int64, count=len(doc_id))
    return doc_hash.view(np.uint64) ^ mixed


def _lookup(
    run_code: np.ndarray, run_doc: np.ndarray, run_keys: np.ndarray,
    qrels_code: np.ndarray, qrels_doc: np.ndarray, qrels_keys: np.ndarray, unique_keys: bool,
) -> np.ndarray:
    """For each run row, the qrels row of its (query, document), or -1 when unjudged."""
    found = np.full(run_keys.size, -1, dtype=np.int64)
    if unique_keys and qrels_keys.size:
        # Most retrieved documents are unjudged: a bitmap of the qrels' keys (about 1 bit in
        # 16 set) rules most of them out with one look-up each, before any search.
        bits = int(min(max(np.ceil(np.log2(qrels_keys.size * 16)), 16), 30))
        shift = np.uint64(64 - bits)
        bitmap = np.zeros(1 << bits, dtype=bool)
        bitmap[qrels_keys >> shift] = True
        candidates = np.flatnonzero(bitmap[run_keys >> shift])
        match = pd.Index(qrels_keys).get_indexer(run_keys[candidates])
        rows, match = candidates[match >= 0], match[match >= 0]
        # Hashes can collide: confirm every match on the ids themselves.
        if np.array_equal(qrels_code[match], run_code[rows]) and np.array_equal(
            qrels_doc[match], run_doc[rows]
        ):
            found[rows] = match
            return found
    # Exact (slower) path: number the documents, then join on integer pairs.
    doc_code, doc_names = pd.factorize(np.concatenate([qrels_doc, run_doc]))
    width = np.int64(max(len(doc_names), 1))
    exact = pd.Index(qrels_code.astype(np.int64) * width + doc_code[: qrels_doc.size])
    return exact.get_indexer(run_code.astype(np.int64) * width + doc_code[qrels_doc.size :])


def _run_query_codes(r_query: np.ndarray, queries: pd.Index) -> np.ndarray:
    """The number of each run row's query in the qrels (-1 if unjudged), one lookup per block
    of equal query ids: runs list their queries in blocks, so this hashes few strings."""
    n = r_query.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, r_query[1:] != r_query[:-1]])
    block_code = queries.get_indexer(r_query[starts])
    return np.repeat(block_code, np.diff(np.r_[starts, n]))


def evaluate(
    qrels: Any,
    run: Any,
    metrics: Any,
    *,
    relevance_level: float = 1,
    missing_queries: str = "ignore",
) -> pd.DataFrame:
    r"""Score a run against the qrels, query by query, exactly as trec_eval does.

    For a query with grades :math:`g_i` at ranks :math:`i = 1 \ldots n`, R relevant
    documents (grade :math:`\ge \ell`) and all its judged grades :math:`g^*` sorted from high
    to low:

    .. math::

        \mathrm{P@k} = \tfrac{1}{k}\textstyle\sum_{i \le k} [g_i \ge \ell], \quad
        \mathrm{AP} = \tfrac{1}{R}\textstyle\sum_{i} [g_i \ge \ell]\,\mathrm{P@i}, \quad
        \mathrm{nDCG@k} = \dfrac{\sum_{i \le k} g_i / \log_2(i+1)}
                                {\sum_{i \le k} g^*_i / \log_2(i+1)}

    Metric names follow ir_measures: ``AP``, ``AP@k`` (trec_eval ``map_cut``), ``P@k``,
    ``R@k`` (``recall``), ``RR``, ``RR@k``, ``nDCG`` (``ndcg``), ``nDCG@k`` (``ndcg_cut``),
    ``Rprec``, ``Bpref``, ``NumRet``, ``NumRel``, ``NumRelRet``, ``IPrec@r``
    (``iprec_at_recall``), ``Success@k`` (``success``), ``SetP``, ``SetR``, ``SetF``
    (``set_P``, ``set_recall``, ``set_F``), ``RprecMult@m`` (``Rprec_mult``), ``IPrecAvg``
    (``11pt_avg``) and ``NumNonRelJudgedRet`` (``num_nonrel_judged_ret``). trec_eval's own
    names are taken too, with the cutoff after ``_`` or ``.``: ``"map"``, ``"P_10"``,
    ``"ndcg_cut.10"``, ``"recip_rank"``, ``"iprec_at_recall_0.10"``, … (``"map"`` and
    ``"AP"`` give the same numbers; each column is labelled as asked). The rules trec_eval
    applies (ranking by score with ties broken by doc_id descending, unjudged = not
    relevant, the ideal ranking from the qrels, which queries are kept) are listed in the
    documentation of :mod:`evalkit.trec`.

    Parameters
    ----------
    qrels : pandas.DataFrame or path
        Columns ``query_id``, ``doc_id``, ``relevance`` (see :func:`read_qrels`); a path is
        read with :func:`read_qrels`.
    run : pandas.DataFrame or path
        Columns ``query_id``, ``doc_id``, ``score``; other columns (``rank``, ``run_id``) are
        ignored. A path is read with :func:`read_run`.
    metrics : list of str
        The measures, e.g. ``["AP", "nDCG@10", "P@10"]``; the columns come in this order.
    relevance_level : float, default 1
        Grades at or above this are relevant for the binary measures (trec_eval ``-l``). Any
        real number; on whole-number grades a level of 1.5 acts as 2.
    missing_queries : {"ignore", "zero"}, default "ignore"
        "zero" adds the judged queries that the run lacks, with every measure 0 and
        NumRel = R (trec_eval ``-c``). Use it to compare systems: a system should not gain
        by skipping hard queries.

    Returns
    -------
    pandas.DataFrame
        One row per query (index ``query_id``, in the qrels' order of first appearance), one
        column per metric labelled exactly as asked. ``.mean()`` gives the system's scores
        (MAP, mean nDCG@10, MRR, ...).

    Raises
    ------
    ValueError
        For an unknown metric, missing columns, NaN scores, non-integer grades, or a
        document listed twice for one query in the run or in the qrels.

    References
    ----------
    Voorhees, E. M. and Harman, D. K., eds. (2005). TREC: Experiment and Evaluation in
    Information Retrieval, chapter 3. MIT Press.
    MacAvaney, S., Yates, A., Feldman, S., Downey, D., Cohan, A. and Goharian, N. (2022).
    Streamlining evaluation with ir-measures. Proceedings of ECIR 2022, 305–310.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": ["1", "1", "1", "2"],
    ...                       "doc_id": ["a", "b", "c", "a"], "relevance": [2, 0, 1, 1]})
    >>> run = pd.DataFrame({"query_id": ["1", "1", "1", "2", "2"],
    ...                     "doc_id": ["b", "a", "x", "x", "a"],
    ...                     "score": [3.0, 2.0, 1.0, 5.0, 4.0]})
    >>> scores = evaluate(qrels, run, ["AP", "P@2", "RR", "NumRel"])
    >>> scores.round(4)  # doctest: +NORMALIZE_WHITESPACE
                AP  P@2   RR  NumRel
    query_id
    1         0.25  0.5  0.5       2
    2         0.50  0.5  0.5       1
    """
    parsed = _parse_metrics(metrics)
    check_option(missing_queries, "missing_queries", MISSING_QUERIES)
    level = check_scalar(relevance_level, "relevance_level", kind="real")
    qrels = _as_table(qrels, "qrels", read_qrels)
    run = _as_table(run, "run", read_run)
    q_query, q_doc, q_grade = _qrels_arrays(qrels)
    r_query, r_doc, r_score = _run_arrays(run)

    # Queries are numbered in the qrels' order; run queries without judgements are dropped.
    q_code, queries = pd.factorize(q_query)
    queries = pd.Index(queries)
    n_queries = len(queries)
    r_code = _run_query_codes(r_query, queries)
    keep = r_code >= 0
    if not keep.all():
        r_code, r_doc, r_score = r_code[keep], r_doc[keep], r_score[keep]
    names = np.asarray(queries, dtype=object)
    q_keys, r_keys = _pair_keys(q_code, q_doc), _pair_keys(r_code, r_doc)
    unique_keys = _check_pair_duplicates(q_code, q_doc, names, "qrels", "judged twice", q_keys)
    _check_pair_duplicates(r_code, r_doc, names, "run", "retrieved twice", r_keys)

    # One join, in the run's own row order; then one ordering, trec_eval's. From here on only
    # the retrieved-and-judged rows are touched.
    qrels_row = _lookup(r_code, r_doc, r_keys, q_code, q_doc, q_keys, unique_keys)
    order = _trec_order(r_code, r_score, r_doc)
    ranked_code = r_code[order]
    judged = qrels_row[order] >= 0
    judged_rows = order[judged]
    ranked = JudgedRun(
        n_queries, level, q_code, q_grade, np.bincount(r_code, minlength=n_queries),
        ranked_code[judged], group_positions(ranked_code)[judged],
        q_grade[qrels_row[judged_rows]],
    )
    columns = {m.label: MEASURES[m.name].function(ranked, m.cutoff) for m in parsed}
    result = pd.DataFrame(columns, index=pd.Index(queries, name="query_id"))
    if missing_queries == "zero":
        return result
    return result[ranked.n_retrieved > 0]
