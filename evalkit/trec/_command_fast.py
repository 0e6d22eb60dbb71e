"""``evalkit trec_eval``'s fast path: a well-formed grouped run scored from its bytes.

Most run files are plain: every line has exactly six fields, scores are plain finite decimal
numbers, ids are short and free of odd bytes, and each query's lines are together. Such a
file is read here a piece at a time and scored without making a Python str of any doc id:

- the fields are found in numpy (C's white space); only one str per query is decoded;
- each doc id is hashed from the piece's bytes (:func:`evalkit._hashing.byte_hashes`), and
  the (query, doc) keys find documents listed twice and join the run to the qrels; a match
  is confirmed on the bytes of both ids;
- each query's rows are ranked by score descending; only rows tied on score are ordered by
  their doc ids' bytes, descending (trec_eval's ``qsort`` with ``strcmp``: ``d10`` before
  ``d1``, high bytes unsigned);
- the measures' kernels are fed a :class:`~evalkit.trec._measures.JudgedRun` directly.

Anything else gives up: a file that is not plain raises :class:`NotPlain` before a value is
printed (the command reads the file again the general way), and a block with a repeated key
(a document listed twice, or a hash collision) or an unconfirmed match is scored the general
way (:meth:`ByteBlock.table`). So the fast path changes how long trec_eval takes, never what
it prints.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from .._hashing import BYTE_MASKS, byte_hashes
from .._sorting import argsort_numbers
from . import _streaming
from ._command_files import _WIDEST, _byte_matrix, _latin1, _plain_numbers, plain_fields
from ._measures import JudgedRun
from ._pairs import _pair_keys
from ._streaming import Ungrouped, byte_pieces, gather_rows

__all__ = ["NotPlain", "ByteBlock", "PlainStream", "FastScorer"]

#: Bytes read at a time: numpy's passes over a piece are quicker when it stays in the cache
#: (2 MB: 15-20% less time than 8 MB on 10^6 lines; smaller pieces pay more per block).
_PIECE_BYTES = 1 << 21
#: A private knob for the tests: keep only these bits of each doc hash (forces collisions; a
#: key keeps a hash's top bits, below the query's number).
_HASH_MASK = ~np.uint64(0)


class NotPlain(Exception):
    """The run file is not one the fast path reads (see the module's documentation)."""


class ByteBlock:
    """Rows of whole queries from a piece of the run: the piece's bytes and, per row, where
    its doc id is and its score; one name per query (the queries are consecutive runs of
    rows starting at ``starts``)."""

    def __init__(self, raw: np.ndarray, text: bytes, starts: np.ndarray, names: list[str],
                 doc_first: np.ndarray, doc_length: np.ndarray, score: np.ndarray) -> None:
        self.raw, self.text = raw, text  # text: the bytes padded with 8 zero bytes
        self.starts, self.names = starts, names
        self.doc_first, self.doc_length, self.score = doc_first, doc_length, score

    def __len__(self) -> int:
        return int(self.score.size)

    def table(self) -> Any:
        """The block as the general path's table (``query_id``, ``doc_id``, ``score``)."""
        import pandas as pd

        n = len(self)
        query = np.repeat(np.array(self.names, dtype=object), np.diff(np.r_[self.starts, n]))
        doc = _latin1(self.raw, self.doc_first, self.doc_length)
        return pd.DataFrame({"query_id": pd.Series(query, dtype=object, copy=False),
                             "doc_id": pd.Series(doc, dtype=object, copy=False),
                             "score": self.score})


def _parse_plain(data: bytes, version: str) -> tuple[ByteBlock, str]:
    """The rows of ``data`` (whole lines) and its last line's run id; NotPlain unless every
    line is plain."""
    fields = plain_fields(data, 6)
    if fields is None:
        raise NotPlain
    raw, text, ends, field_at, field_end = fields
    first = field_at[0::6]
    length = field_end - field_at
    doc_first, doc_length = field_at[2::6], length[2::6]
    if int(doc_length.max()) > _WIDEST:
        raise NotPlain
    starts = _query_starts(text, first, length[0::6])
    score = _decimal_numbers(raw, field_at[4::6], length[4::6])
    if score is None:
        score = _plain_numbers(raw, field_at[4::6], length[4::6])
    if score is None or not np.isfinite(score).all():
        raise NotPlain
    if version == "9.0.8":
        with np.errstate(over="ignore"):
            score = score.astype(np.float32).astype(np.float64)
        if not np.isfinite(score).all():
            raise NotPlain
    names = [data[a:b].decode("latin-1") for a, b in
             zip(first[starts].tolist(), field_end[0::6][starts].tolist(), strict=True)]
    run_id = data[field_at[-1]:field_end[-1]].decode("latin-1")
    return ByteBlock(raw, text, starts, names, doc_first, doc_length, score), run_id


#: 10**k, exact in a double for k <= 22.
_POWERS_OF_TEN = 10.0 ** np.arange(23)


def _decimal_numbers(raw: np.ndarray, first: np.ndarray, length: np.ndarray
                     ) -> np.ndarray | None:
    """``atof`` of each field when every one is a plain decimal of at most 15 digits
    (``[+-]?[0-9]*[.]?[0-9]*``, a digit at least), else None. Such a number is a whole number
    M < 2**53 over 10**k, k <= 15, both exact in a double, so one division rounds it
    correctly, as ``strtod`` does (Clinger's fast path)."""
    fixed = _fixed_decimals(raw, first, length)
    if fixed is not None:
        return fixed
    matrix = _byte_matrix(raw, first, length)
    if matrix is None or not matrix.size:
        return None
    columns = matrix.T.copy()  # one contiguous row per column: the loop reads whole rows
    n = columns.shape[1]
    sign = np.where(columns[0] == ord("-"), -1.0, 1.0)
    columns[0][(columns[0] == ord("-")) | (columns[0] == ord("+"))] = 0  # now padding
    whole = np.zeros(n, dtype=np.int64)
    n_digits = np.zeros(n, dtype=np.int64)
    n_dots = np.zeros(n, dtype=np.int64)
    k = np.zeros(n, dtype=np.int64)
    other = np.zeros(n, dtype=bool)
    for column in columns:
        value = np.subtract(column, ord("0"), dtype=np.uint8)
        digit = value < 10
        dot = column == ord(".")
        n_dots += dot
        k += digit & (n_dots > 0)
        n_digits += digit
        other |= ~(digit | dot | (column == 0))
        whole = np.where(digit, whole * 10 + value, whole)
    if other.any() or (n_dots > 1).any() or (n_digits == 0).any() or (n_digits > 15).any():
        return None
    return sign * (whole / _POWERS_OF_TEN[k])


def _fixed_decimals(raw: np.ndarray, first: np.ndarray, length: np.ndarray
                    ) -> np.ndarray | None:
    """:func:`_decimal_numbers` in the common case (what ``printf("%.6f")`` writes): every
    field is ``[0-9]*[.][0-9]{k}``, the same k, a digit at least, at most 15 digits; else
    None. The fields are read right-aligned, so the dot is in one column: the digits are a
    matrix whose product with the powers of ten is M (whole numbers: exact), 2x quicker
    than a pass per column."""
    n = length.size
    width = int(length.max(initial=0))
    if not n or width > 16:
        return None
    end = first + length
    dot = raw[int(first[0]):int(end[0])].tobytes().find(b".")
    if dot < 0:
        return None
    k = int(length[0]) - 1 - dot  # digits after the dot
    if int(length.min()) < max(k + 1, 2):  # the dot within each field, a digit beside it
        return None
    padded = np.concatenate((np.zeros(width, dtype=np.uint8), raw))
    # Row e of this view is the ``width`` bytes that end before raw[e]: each field's row ends
    # with its last byte.
    rows = np.lib.stride_tricks.as_strided(padded, shape=(raw.size + 1, width),
                                           strides=(1, 1), writeable=False)
    digits = rows[end]
    digits -= ord("0")
    column = width - 1 - k
    if not (digits[:, column] == (ord(".") - ord("0")) % 256).all():
        return None
    digits[:, column] = 0
    lead = width - length  # bytes before the field, in the first columns: zeroed
    for place in range(width - int(length.min())):
        digits[:, place] *= lead <= place
    if (digits > 9).any():  # a sign, a second dot or any other byte
        return None
    places = np.arange(width)
    powers = np.where(places > column, 10 ** (width - 1 - places),
                      10 ** np.maximum(width - 2 - places, 0))
    powers[column] = 0
    return (digits.astype(np.int64) @ powers) / _POWERS_OF_TEN[k]


def _query_starts(text: bytes, first: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The rows where the query id differs from the row before's (and row 0)."""
    if int(length.max()) <= 8:  # each id is its length and one word: compare those
        words = np.ndarray((len(text) - 7,), dtype=np.uint64, buffer=text, strides=(1,))
        word = words[first] & BYTE_MASKS[length]
        changed = (word[1:] != word[:-1]) | (length[1:] != length[:-1])
    else:
        matrix = _byte_matrix(np.frombuffer(text, dtype=np.uint8)[:-8], first, length)
        if matrix is None:
            raise NotPlain
        changed = (matrix[1:] != matrix[:-1]).any(axis=1)
    return np.flatnonzero(np.r_[True, changed])


def _head(block: ByteBlock, stop: int) -> ByteBlock:
    """The block's rows of its first ``stop`` queries."""
    rows = int(block.starts[stop]) if stop < len(block.starts) else len(block)
    return ByteBlock(block.raw, block.text, block.starts[:stop], block.names[:stop],
                     block.doc_first[:rows], block.doc_length[:rows], block.score[:rows])


class PlainStream:
    """The run file as :class:`ByteBlock` s of whole queries; NotPlain as soon as a line is
    not plain; Ungrouped when a query comes back. After the blocks: ``run_id``, ``n_rows``."""

    def __init__(self, path: str, version: str) -> None:
        self.path, self.version = path, version
        self.run_id = ""
        self.n_rows = 0

    def blocks(self) -> Iterator[ByteBlock]:
        try:
            handle = open(self.path, "rb")  # noqa: SIM115 (closed below)
        except OSError:
            raise NotPlain from None
        seen: set[str] = set()
        carry = b""
        with handle:
            size = min(_streaming._CHUNK_BYTES, _PIECE_BYTES)
            # Each line of a plain file is a row: the data start at line n_rows + 1.
            for piece, _ in byte_pieces(handle, size, count_lines=False):
                data = carry + piece if carry else piece
                block, run_id = _parse_plain(data, self.version)
                self._check_grouped(block, seen, self.n_rows + 1)
                if len(block.names) == 1:  # one query so far: it may go on
                    carry = data
                    continue
                # The last query may go on in the next piece: its lines wait.
                split = int(block.starts[-1])
                offset = int(block.doc_first[split])
                offset = data.rfind(b"\n", 0, offset) + 1
                carry = data[offset:]
                seen.update(block.names[:-1])
                self.n_rows += split
                yield _head(block, len(block.names) - 1)
            if not carry:
                if not self.n_rows:
                    raise NotPlain  # an empty file: the general path says so
                return
            block, self.run_id = _parse_plain(carry, self.version)
            self._check_grouped(block, seen, self.n_rows + 1)
            self.n_rows += len(block)
            yield block

    def _check_grouped(self, block: ByteBlock, seen: set[str], line: int) -> None:
        names = block.names
        if len(set(names)) != len(names) or not seen.isdisjoint(names):
            raise Ungrouped(self.path, line, names[-1])


class FastScorer:
    """What scoring a :class:`ByteBlock` needs of the qrels (a
    :class:`~evalkit.trec._command_qrels.CommandQrels`), made once: each judgement's
    (query, doc) key, and its doc id's bytes, to confirm a match."""

    def __init__(self, qrels: Any, scorable: np.ndarray, labels: list[str],
                 options: dict[str, Any]) -> None:
        from ._metric_names import _parse_metrics
        from ._registry import MEASURES

        self.qrels, self.scorable, self.labels = qrels, scorable, labels
        self.level = options["relevance_level"]
        self.judged_only = options.get("judged_only", False)
        self.version = options.get("trec_eval_version", "9.0.8")
        self.metrics = [(m.label, MEASURES[m.name], m.cutoff, m.options)
                        for m in _parse_metrics(labels)] if labels else []
        self.ok = bool(labels) and not any(
            options_.get("ties") == "average" for *_, options_ in self.metrics)
        if not self.ok:
            return
        if qrels.doc_raw is None or not len(qrels):
            self.ok = False
            return
        length, first = qrels.doc_length, qrels.doc_first
        self.width = int(length.max())
        self.doc_bytes = _byte_matrix(qrels.doc_raw[:-8], first, length)
        self.row_keys = self._keys(qrels.code, byte_hashes(qrels.doc_raw, first, length))
        keys = np.sort(self.row_keys)
        if (keys[1:] == keys[:-1]).any():  # a repeat or a collision: general path
            self.ok = False

    def _keys(self, code: np.ndarray, hashes: np.ndarray) -> np.ndarray:
        """(query, doc) keys, in place, comparable across the qrels and every block."""
        hashes &= _HASH_MASK
        return _pair_keys(code, hashes, len(self.qrels.names))

    def score(self, block: ByteBlock) -> tuple[np.ndarray, Any] | None:
        """The block's query ids and (the ids of its judged queries, each label's values)
        (None when none is judged); None (not scored: the general path's turn) for a block
        with a repeated key or an unconfirmed match, or judged queries that are not
        scorable."""
        qrels = self.qrels
        ids = np.array(block.names, dtype=object)
        code = qrels.lookup(ids)
        judged = code >= 0
        if not judged.any():
            return ids, None
        if not self.scorable[code[judged]].all():
            return None
        n = len(block)
        sizes = np.diff(np.r_[block.starts, n])
        wanted = np.repeat(judged, sizes)
        local = np.repeat(np.cumsum(judged) - 1, sizes)
        doc_first, doc_length = block.doc_first, block.doc_length
        score = block.score
        if not judged.all():
            local, doc_first = local[wanted], doc_first[wanted]
            doc_length, score = doc_length[wanted], score[wanted]
        codes = code[judged]
        row_code = codes[local]
        keys = self._keys(row_code, byte_hashes(block.text, doc_first, doc_length))
        key_order = argsort_numbers(keys)
        sorted_keys = keys[key_order]
        if (sorted_keys[1:] == sorted_keys[:-1]).any():  # a doc listed twice, or a collision
            return None
        # The block's judgements looked up among its rows (fewer than the rows).
        gathered = gather_rows(qrels.order, qrels.bounds, codes)
        wanted_keys = self.row_keys[gathered]
        at = np.minimum(np.searchsorted(sorted_keys, wanted_keys), sorted_keys.size - 1)
        hit = np.flatnonzero(sorted_keys[at] == wanted_keys)
        qrels_row = np.full(keys.size, -1, dtype=np.intp)
        if hit.size:
            rows = gathered[hit]
            matched = key_order[at[hit]]
            same = (qrels.code[rows] == row_code[matched]) & (
                qrels.doc_length[rows] == doc_length[matched])
            if not same.all():
                return None
            run_bytes = _byte_matrix(block.raw, doc_first[matched], doc_length[matched])
            width = run_bytes.shape[1]
            if width > self.width or not (
                    run_bytes == self.doc_bytes[rows, :width]).all():
                return None
            qrels_row[matched] = rows
        order = _ranking(local, score, block.raw, doc_first, doc_length)
        if order is not None:
            local, qrels_row = local[order], qrels_row[order]
        k = codes.size
        n_retrieved = np.bincount(local, minlength=k)
        query_start = np.cumsum(n_retrieved) - n_retrieved
        judged_at = np.flatnonzero(qrels_row >= 0)
        judged_code = local[judged_at]
        q_local = np.repeat(np.arange(k), qrels.bounds[codes + 1] - qrels.bounds[codes])
        ranked = JudgedRun(k, self.level, q_local, qrels.grade[gathered], n_retrieved,
                           judged_code, judged_at - query_start[judged_code] + 1,
                           qrels.grade[qrels_row[judged_at]])
        if self.judged_only:
            ranked = ranked.condensed()
        columns = {}
        for label, measure, cutoff, options in self.metrics:
            extra = {"version": self.version} if measure.versioned else {}
            columns[label] = np.asarray(measure.function(ranked, cutoff, **options, **extra))
        return ids, (ids[judged], columns)


def _ranking(local: np.ndarray, score: np.ndarray, raw: np.ndarray, doc_first: np.ndarray,
             doc_length: np.ndarray) -> np.ndarray | None:
    """trec_eval's order of the rows (grouped by ``local``, consecutive): score descending,
    ties by doc id descending in byte order; None when the rows are in that order."""
    n = score.size
    same_query = local[1:] == local[:-1]
    if (~same_query | (score[1:] < score[:-1])).all():
        return None  # ranked already, no ties
    order = None
    if not (~same_query | (score[1:] <= score[:-1])).all():
        # By score descending, then (stable: a radix sort of small ints) by query: 6x quicker
        # than a lexsort. The order among tied scores does not matter: ties are ordered
        # below on the doc ids' bytes, and no query lists a doc twice here.
        order = argsort_numbers(-score)
        small = np.uint16 if int(local[-1]) < 1 << 16 else np.uint32
        order = order[np.argsort(local[order].astype(small), kind="stable")]
        local_s, score_s = local[order], score[order]
        same_query = local_s[1:] == local_s[:-1]
    else:
        score_s = score
    tied = same_query & (score_s[1:] == score_s[:-1])
    if not tied.any():
        return order
    if order is None:
        order = np.arange(n)
    member = np.zeros(n, dtype=bool)
    member[:-1] |= tied
    member[1:] |= tied
    positions = np.flatnonzero(member)
    group = np.cumsum(np.r_[True, ~tied][positions])  # a number per block of tied rows
    rows = order[positions]
    matrix = _byte_matrix(raw, doc_first[rows], doc_length[rows])
    inverted = 255 - matrix  # ascending on inverted bytes: descending names, 'd10' before 'd1'
    within = np.lexsort((*inverted.T[::-1], group))
    order[positions] = rows[within]
    return order
