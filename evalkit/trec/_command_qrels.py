"""``evalkit trec_eval``'s qrels as arrays: each judgement's query (a number), grade and doc
id, the queries' names sorted (trec_eval's order), each query's rows, highest grade and
whether it lists a document twice.

A plain qrels file (every line four fields, none starting with '#', short ids, grades plain
whole numbers) is read here from its bytes with numpy alone: the doc ids stay bytes (the
fast path hashes and compares them there) and pandas is not imported. Any other file is read
by :func:`~evalkit.trec._command_files.read_trec_qrels` (a table) and made arrays with
:meth:`CommandQrels.from_frame`. The table :func:`evalkit.trec.evaluate` takes is made only
when the general path asks for it (:meth:`CommandQrels.frame`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._hashing import byte_hashes, joined_bytes
from .._sorting import argsort_numbers
from ._command_files import _WIDEST, _byte_matrix, _latin1, plain_fields
from ._pairs import _pair_keys

__all__ = ["CommandQrels", "read_plain_qrels"]


class CommandQrels:
    """The qrels as arrays (see the module's documentation).

    ``names``: the query ids, sorted; ``code``: each row's query (an index into ``names``);
    ``grade``: each row's grade; ``order``/``bounds``: the rows of query ``c`` are
    ``order[bounds[c]:bounds[c + 1]]`` (in file order); ``max_grade`` and ``duplicated``: per
    query. ``doc_raw``/``doc_first``/``doc_length``: each doc id's bytes in ``doc_raw``
    (followed by 8 zero bytes), or None when an id is too long for the fast path.
    """

    def __init__(self, names: np.ndarray, code: np.ndarray, grade: np.ndarray,
                 doc_raw: np.ndarray | None, doc_first: np.ndarray | None,
                 doc_length: np.ndarray | None, *, frame: Any = None,
                 duplicated: np.ndarray | None = None) -> None:
        self.names, self.code, self.grade = names, code, grade
        self.doc_raw, self.doc_first, self.doc_length = doc_raw, doc_first, doc_length
        self._frame = frame
        self.order = np.argsort(code, kind="stable")
        self.bounds = np.searchsorted(code[self.order], np.arange(names.size + 1))
        self.max_grade = (np.maximum.reduceat(grade[self.order], self.bounds[:-1])
                          if names.size else np.zeros(0, dtype=grade.dtype))
        self.duplicated = self._duplicated() if duplicated is None else duplicated

    def __len__(self) -> int:
        return int(self.code.size)

    @classmethod
    def from_frame(cls, qrels: Any) -> CommandQrels:
        """From a table (``query_id``, ``doc_id``, ``relevance``) of str ids."""
        query = qrels["query_id"].to_numpy(dtype=object)
        names, code = np.unique(query, return_inverse=True) if query.size else (
            np.zeros(0, dtype=object), np.zeros(0, dtype=np.intp))
        twice = qrels.duplicated(["query_id", "doc_id"]).to_numpy()
        duplicated = np.zeros(names.size, dtype=bool)
        duplicated[code[twice]] = True
        docs = qrels["doc_id"].to_numpy(dtype=object).tolist()
        length = np.fromiter(map(len, docs), dtype=np.intp, count=len(docs))
        raw = first = None
        if docs and int(length.max()) <= _WIDEST:
            try:
                raw = joined_bytes(docs, "latin-1")
                first = np.cumsum(length) - length
            except UnicodeEncodeError:
                raw = None
        return cls(names, code.astype(np.intp), qrels["relevance"].to_numpy(), raw, first,
                   length if raw is not None else None, frame=qrels, duplicated=duplicated)

    def lookup(self, ids: np.ndarray) -> np.ndarray:
        """Each id's query number, -1 for an id not in the qrels."""
        ids = np.asarray(ids, dtype=object)
        if not self.names.size or not ids.size:
            return np.full(ids.size, -1, dtype=np.intp)
        at = np.minimum(np.searchsorted(self.names, ids), self.names.size - 1)
        return np.where(self.names[at] == ids, at, -1)

    def frame(self) -> Any:
        """The qrels as the table :func:`evalkit.trec.evaluate` takes (made once)."""
        if self._frame is None:
            import pandas as pd

            doc = _latin1(self.doc_raw[:-8], self.doc_first, self.doc_length)
            self._frame = pd.DataFrame({
                "query_id": pd.Series(self.names[self.code], dtype=object, copy=False),
                "doc_id": pd.Series(doc, dtype=object, copy=False),
                "relevance": self.grade})
        return self._frame

    def rows(self, queries: np.ndarray) -> Any:
        """The table's rows of these queries (ids; those not in the qrels have none)."""
        from ._streaming import gather_rows

        codes = self.lookup(queries)
        at = gather_rows(self.order, self.bounds, codes[codes >= 0])
        return self.frame().iloc[np.sort(at)]

    def _duplicated(self) -> np.ndarray:
        """Per query: whether it lists a document twice (equal keys confirmed on the bytes,
        so that a hash collision is not a duplicate)."""
        duplicated = np.zeros(self.names.size, dtype=bool)
        if self.code.size < 2:
            return duplicated
        hashes = byte_hashes(self.doc_raw, self.doc_first, self.doc_length)
        keys = _pair_keys(self.code, hashes, self.names.size)
        order = argsort_numbers(keys)
        keys = keys[order]
        same = keys[1:] == keys[:-1]
        if not same.any():
            return duplicated
        # The rows whose key another shares, sorted by key, then length and bytes: equal
        # pairs are then neighbours, however many ids share a key.
        member = np.zeros(keys.size, dtype=bool)
        member[:-1] |= same
        member[1:] |= same
        rows, key = order[member], keys[member]
        length = self.doc_length[rows]
        matrix = _byte_matrix(self.doc_raw[:-8], self.doc_first[rows], length)
        by = np.lexsort((*matrix.T[::-1], length, key))
        key, length, matrix, rows = key[by], length[by], matrix[by], rows[by]
        equal = ((key[1:] == key[:-1]) & (length[1:] == length[:-1])
                 & (matrix[1:] == matrix[:-1]).all(axis=1))
        a = rows[:-1]
        duplicated[self.code[a[equal]]] = True
        return duplicated


def read_plain_qrels(path: str) -> CommandQrels | None:
    """The qrels as :func:`~evalkit.trec._command_files.read_trec_qrels` reads them, when the
    file is plain (every line four fields, none starting with '#', short ids, grades plain
    whole numbers); else None (the general reader's turn, for its errors too)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    fields = plain_fields(data, 4)
    if fields is None:
        return None
    raw, text, ends, field_at, field_end = fields
    length = field_end - field_at
    grade = _whole_numbers(raw, field_at[3::4], length[3::4])
    query_first, query_length = field_at[0::4], length[0::4]
    doc_first, doc_length = field_at[2::4], length[2::4]
    if (grade is None or int(query_length.max()) > _WIDEST
            or int(doc_length.max()) > _WIDEST):
        return None
    # The runs of equal query ids (a grouped file has one per query), each decoded once.
    matrix = _byte_matrix(raw, query_first, query_length)
    starts = np.flatnonzero(np.r_[True, (matrix[1:] != matrix[:-1]).any(axis=1)])
    run_names = np.array([data[a:a + n].decode("latin-1") for a, n in
                          zip(query_first[starts].tolist(), query_length[starts].tolist(),
                              strict=True)], dtype=object)
    names, run_code = np.unique(run_names, return_inverse=True)
    code = np.repeat(run_code.astype(np.intp), np.diff(np.r_[starts, ends.size]))
    return CommandQrels(names, code, grade, np.frombuffer(text, dtype=np.uint8), doc_first,
                        doc_length)


def _whole_numbers(raw: np.ndarray, first: np.ndarray, length: np.ndarray
                   ) -> np.ndarray | None:
    """``atol`` of each field when every one is ``[+-]?[0-9]{1,18}``, else None."""
    matrix = _byte_matrix(raw, first, length)
    if matrix is None or matrix.shape[1] > 19:
        return None
    columns = matrix.T.copy()
    sign = np.where(columns[0] == ord("-"), -1, 1)
    columns[0][(columns[0] == ord("-")) | (columns[0] == ord("+"))] = 0
    whole = np.zeros(columns.shape[1], dtype=np.int64)
    n_digits = np.zeros(columns.shape[1], dtype=np.int64)
    other = np.zeros(columns.shape[1], dtype=bool)
    for column in columns:
        value = np.subtract(column, ord("0"), dtype=np.uint8)
        digit = value < 10
        n_digits += digit
        other |= ~(digit | (column == 0))
        whole = np.where(digit, whole * 10 + value, whole)
    if other.any() or (n_digits == 0).any() or (n_digits > 18).any():
        return None
    return sign * whole
