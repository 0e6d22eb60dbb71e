"""A TREC run file read query block by query block, so that memory follows the largest
query, not the file.

TREC runs are written grouped by query: each query's lines together. The file (plain or
gzip-compressed) is read in pieces of about ``_CHUNK_BYTES`` bytes cut at line ends; each
piece is parsed, and the rows of its last query are held back until the next piece shows
where that query ends. What comes out are tables of whole queries, each once. A query that
comes back after another query's rows (an *ungrouped* file) raises :class:`Ungrouped`,
naming the file and line: :func:`evaluate_file` turns it into a ValueError that says how to
proceed; ``evalkit trec_eval`` then reads the file whole, as trec_eval accepts it.

:func:`evaluate_file` is :func:`evalkit.trec.evaluate` on a run file: each block is scored
with the qrels of its queries, and the rows are put in the order the in-memory call gives
(the qrels' order; ``missing_queries="zero"`` adds the judged queries the run lacks).
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pandas is imported by the functions that need it
    import pandas as pd

from .._factorize import factorize, unique
from ._pairs import _check_no_duplicates

__all__ = ["Ungrouped", "byte_pieces", "evaluate_file", "gather_rows", "open_binary",
           "query_blocks"]

#: Bytes read at a time (a private knob: the tests make it tiny).
_CHUNK_BYTES = 1 << 23


class Ungrouped(ValueError):
    """A query's rows come back after another query's rows."""

    def __init__(self, name: str, line: int, query: str) -> None:
        super().__init__(f"{name}, line {line}: query {query!r} comes back after other "
                         "queries' rows: the run is not grouped by query")
        self.name, self.line, self.query = name, line, query


def open_binary(path: str | os.PathLike) -> IO[bytes]:
    """The file opened for reading bytes; gzip-compressed ones (by their magic bytes)
    decompressed as they are read."""
    handle = open(path, "rb")  # noqa: SIM115 (returned open)
    if handle.peek(2)[:2] == b"\x1f\x8b":
        return gzip.open(handle, "rb")  # type: ignore[return-value]
    return handle


def byte_pieces(handle: IO[bytes], size: int | None = None, *,
                count_lines: bool = True) -> Iterator[tuple[bytes, int]]:
    """Pieces of the stream, each ending at a newline (the last one maybe not), with the
    number of each piece's first line (0 with ``count_lines=False``: a pass less)."""
    size = size or _CHUNK_BYTES
    rest = b""
    line = 1 if count_lines else 0
    while True:
        data = handle.read(size)
        if not data:
            break
        if rest:
            data = rest + data
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            rest = data
            continue
        piece, rest = (data[:cut], data[cut:]) if cut < len(data) else (data, b"")
        yield piece, line
        if count_lines:
            line += piece.count(b"\n")
    if rest:
        yield rest, line


#: A parsed piece: its rows (a table with a ``query_id`` column) and a function giving the
#: line number of a row.
Parsed = tuple["pd.DataFrame", Callable[[int], int]]


def query_blocks(pieces: Iterable[Parsed], name: str) -> Iterator[pd.DataFrame]:
    """Tables of whole queries, each query in one table, from parsed pieces of a file."""
    import pandas as pd

    carry: pd.DataFrame | None = None
    seen: set[Any] = set()
    for table, line_of in pieces:
        n_carried = 0
        if carry is not None and len(carry):
            n_carried = len(carry)
            table = pd.concat([carry, table], ignore_index=True)
        if not len(table):
            continue
        codes, uniques = factorize(table["query_id"].to_numpy())
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        back = seen.intersection(uniques.tolist())
        if starts.size != len(uniques) or back:
            # The first block start whose query was seen before (in this table or earlier).
            first = np.r_[True, np.zeros(starts.size - 1, dtype=bool)]
            _, first_at = np.unique(codes[starts], return_index=True)
            first[first_at] = True
            again = ~first | np.isin(uniques[codes[starts]], list(back))
            row = int(starts[np.flatnonzero(again)[0]])
            raise Ungrouped(name, line_of(row - n_carried), str(table["query_id"].iat[row]))
        split = int(starts[-1])
        seen.update(uniques[:-1].tolist())
        if split:
            yield table.iloc[:split].reset_index(drop=True)
        carry = table.iloc[split:].reset_index(drop=True)
    if carry is not None and len(carry):
        yield carry


def evaluate_file(evaluate: Callable[..., pd.DataFrame],
                  pieces: Callable[[IO[bytes], str], Iterable[Parsed]], qrels: pd.DataFrame,
                  path: str | os.PathLike, metrics: Any, **options: Any) -> pd.DataFrame:
    """``evaluate(qrels, run, metrics, **options)`` with the run read from ``path`` one block
    of whole queries at a time (see the module's documentation); ``pieces`` parses the
    file's pieces (``evalkit.trec._parsing._run_pieces``)."""
    import pandas as pd

    name = str(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{name} does not exist")
    missing = options.pop("missing_queries", "ignore")
    # The column itself, not .to_numpy(): an arrow-backed one is numbered in arrow, without
    # a str object made per judgement.
    q_code, q_names = factorize(qrels["query_id"])
    q_names = pd.Index(q_names)
    order = np.argsort(q_code, kind="stable")
    bounds = np.searchsorted(q_code[order], np.arange(len(q_names) + 1))
    results: list[pd.DataFrame] = []
    try:
        with open_binary(path) as handle:
            for block in query_blocks(pieces(handle, name), name):
                _check_no_duplicates(block, f"{name}: the run", "retrieved twice")
                codes = q_names.get_indexer(unique(block["query_id"].to_numpy()))
                codes = codes[codes >= 0]
                if not codes.size:
                    continue
                rows = gather_rows(order, bounds, codes)
                results.append(evaluate(qrels.iloc[np.sort(rows)], block, metrics, **options))
    except Ungrouped as error:
        raise ValueError(f"{error}. ek.evaluate streams a run file query block by query "
                         "block and needs each query's lines together, as TREC runs are "
                         "written: sort the file by query (e.g. 'sort -s -k1,1'), or read it "
                         "with ek.read_run and pass the table") from None
    empty = pd.DataFrame({"query_id": pd.Series([], dtype=object),
                          "doc_id": pd.Series([], dtype=object),
                          "score": pd.Series([], dtype=np.float64)})
    if missing == "zero":  # the judged queries the run lacks, as the in-memory call adds them
        done = pd.Index(unique(np.concatenate([r.index.to_numpy() for r in results]))
                        if results else [])
        lacking = np.flatnonzero(~q_names.isin(done))
        if lacking.size:
            results.append(evaluate(qrels[np.isin(q_code, lacking)], empty, metrics,
                                    missing_queries="zero", **options))
    if not results:
        return evaluate(qrels, empty, metrics, missing_queries=missing, **options)
    result = pd.concat(results) if len(results) > 1 else results[0]
    position = q_names.get_indexer(result.index)
    return result.iloc[np.argsort(position, kind="stable")]


def gather_rows(order: np.ndarray, bounds: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The rows ``order[bounds[c]:bounds[c + 1]]`` of every code ``c``, in one array."""
    starts = bounds[codes]
    lengths = bounds[codes + 1] - starts
    offsets = np.cumsum(lengths) - lengths
    return order[np.repeat(starts - offsets, lengths) + np.arange(int(lengths.sum()))]
