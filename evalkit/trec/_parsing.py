"""Reading TREC's text files: qrels and run lines parsed into tables.

A qrels line is ``query_id iteration doc_id relevance`` and a run line ``query_id Q0 doc_id
rank score run_id``. pandas' C parser reads a well-formed file in one pass; only when it fails
are the lines walked in Python, to name the file and the first bad line. What is read is
checked for a document listed twice (:mod:`evalkit.trec._pairs`).
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from ._pairs import _check_no_duplicate_pairs
from ._streaming import byte_pieces
from ._text_files import read_text as _read_text
from ._text_files import source_name as _source_name

__all__: list[str] = []

# Lines the C parser reads at a time.
_PARSE_ROWS = 1 << 17


def _numbered_lines(text: str, first_line: int = 1) -> Iterator[tuple[int, list[str]]]:
    for number, line in enumerate(text.splitlines(), start=first_line):
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


def _first_bad_run_line(text: str, name: str, first_line: int = 1) -> None:
    """Raise for the first malformed run line (the slow path, run only when parsing failed)."""
    for number, fields in _numbered_lines(text, first_line):
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


def _refuse_nul(text: str, name: str, first_line: int = 1) -> None:
    """Raise for a NUL character (byte 0), naming its line: TREC files are text, trec_eval
    reads a NUL as the end of an id or fails (10.0: a malloc error), and pandas' parser before
    3.0 cut the field there (two ids that differ after one read as the same)."""
    at = text.find("\0")
    if at >= 0:
        line = first_line + len((text[:at] + ".").splitlines()) - 1
        raise ValueError(f"{name}, line {line}: a NUL character (byte 0); TREC qrels and run "
                         "files are text, with no NUL in an id")


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
            # Bytes, not a StringIO (which holds 4 bytes a character), parsed a piece at a
            # time (the parser's buffers stay small), into object columns (no str copy).
            pieces = pd.read_csv(
                io.BytesIO(text.encode("utf-8", "surrogatepass")),
                encoding="utf-8",
                chunksize=_PARSE_ROWS,
                sep=r"\s+",
                header=None,
                names=columns,
                usecols=columns if extra_fields else None,
                index_col=False,
                dtype=object,
                keep_default_na=False,
                na_values=[],
                engine="c",
                quoting=3,  # csv.QUOTE_NONE: quotes are ordinary characters in TREC files
            )
            parts = list(pieces)
            return parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)
        except (pd.errors.ParserError, pd.errors.ParserWarning, ValueError):
            return None

def _read_qrels(path_or_buffer: Any) -> pd.DataFrame:
    """The body of :func:`evalkit.read_qrels`."""
    text = _read_text(path_or_buffer)
    name = _source_name(path_or_buffer)
    _refuse_nul(text, name)
    table = _parse_table(text, 4, extra_fields=False)
    relevance = None
    if table is not None and not (table[3] == "").any():
        relevance = pd.to_numeric(table[3], errors="coerce").to_numpy(dtype=np.float64)
        if not (np.isfinite(relevance).all() and np.all(relevance == np.round(relevance))):
            relevance = None
    if relevance is None:
        _first_bad_qrels_line(text, name)
        raise ValueError(f"{name}: could not read it as TREC qrels")  # pragma: no cover
    query_id, doc_id = table[0].to_numpy(dtype=object), table[2].to_numpy(dtype=object)
    del table, text  # the ids are all that is left to keep
    _check_no_duplicate_pairs(query_id, doc_id, f"{name}: the qrels", "judged twice")
    return pd.DataFrame(
        {"query_id": query_id, "doc_id": doc_id, "relevance": relevance.astype(np.int64)}
    )


def _read_run(path_or_buffer: Any) -> pd.DataFrame:
    """The body of :func:`evalkit.read_run`."""
    name = _source_name(path_or_buffer)
    return _run_table(_read_text(path_or_buffer), name, check_pairs=True)


def _run_table(text: str, name: str, first_line: int = 1, *,
               check_pairs: bool = False) -> pd.DataFrame:
    """The run lines of ``text`` (whose first line is line ``first_line`` of ``name``) as a
    table, malformed lines named; with ``check_pairs``, a document retrieved twice for one
    query refused (checked on the parsed ids, before the table is made)."""
    _refuse_nul(text, name, first_line)
    table = _parse_table(text, 6, extra_fields=True)
    score = None
    if table is not None and not (table[5] == "").any():
        score = pd.to_numeric(table[4], errors="coerce").to_numpy(dtype=np.float64)
        if not np.isfinite(score).all():
            score = None
    if score is None:
        _first_bad_run_line(text, name, first_line)
        raise ValueError(f"{name}: could not read it as a TREC run")  # pragma: no cover
    query_id, doc_id = table[0].to_numpy(dtype=object), table[2].to_numpy(dtype=object)
    if check_pairs:
        _check_no_duplicate_pairs(query_id, doc_id, f"{name}: the run", "retrieved twice")
    return pd.DataFrame(
        {
            "query_id": query_id,
            "doc_id": doc_id,
            "score": score,
            "run_id": table[5].to_numpy(dtype=object),
            "rank": table[3].to_numpy(dtype=object),
        }
    )


def _run_pieces(handle: Any, name: str) -> Iterator[tuple[pd.DataFrame, Any]]:
    """The run file open in ``handle`` (bytes) parsed a piece at a time, as
    :func:`_read_run` parses it whole: each piece's table and a function giving the line
    number of one of its rows (see :mod:`evalkit.trec._streaming`)."""
    for piece, first_line in byte_pieces(handle):
        try:
            text = piece.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"{name} is not UTF-8 text ({error})") from None

        def line_of(row: int, text: str = text, first_line: int = first_line) -> int:
            used = [n for n, _ in _numbered_lines(text, first_line)]
            return used[row]

        yield _run_table(text, name, first_line), line_of
