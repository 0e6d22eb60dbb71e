"""How trec_eval reads its files: C's ``atol`` and ``atof`` on arrays of tokens, fields split at C's
white space, comment lines, and the qrels and run as trec_eval 10.0 and 9.0.8 read them.

Reading (both releases): fields are separated by any of space, tab, vertical tab, form feed
and carriage return (C's ``isspace``); a qrels line has exactly 4 fields and a blank qrels
line is malformed; a run line has at least 6 fields (the rest are ignored) and blank run
lines are skipped; grades are read with C's ``atol`` (``1.5`` is 1, ``x`` is 0) and scores
with ``atof`` (``1,5`` is 1, ``0x10`` is 16); an empty file cannot be read; files are bytes
(no gzip, no decoding: ids are compared and printed byte for byte). The run id is the last
line's.

- The run is read a piece at a time (:class:`ResultsStream`, over
  :mod:`evalkit.trec._streaming`), in blocks of whole queries when it is grouped by query;
  its fields are found in numpy and only the query id, doc id and score made into objects.
- 9.0.8 keeps scores as 32-bit floats: scores equal in float32 tie (``0.30000001`` and
  ``0.3``) and are then ordered by doc_id. 10.0 keeps doubles.
- 10.0 skips ``#`` comment lines: in the run, any line whose first field starts with ``#``;
  in the qrels, a line starting with ``#`` in column 0, but the line after a skipped comment
  is read as data even if it starts with ``#`` (and a skipped comment as the qrels' last line
  crashes 10.0). 9.0.8 reads ``#`` as data.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

if TYPE_CHECKING:  # pandas is imported by the functions that need it
    import pandas as pd

__all__ = ["TrecEvalError", "Crash", "c_atol", "c_atof", "read_trec_qrels", "read_trec_results",
           "ResultsStream", "PlainFields", "plain_fields"]


class TrecEvalError(Exception):
    """A problem to report on stderr, with trec_eval's exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


# ---------------------------------------------------------------------------------------------
# C's atol and atof, on arrays of tokens
# ---------------------------------------------------------------------------------------------
_LONG_MAX = 2**63 - 1
_LONG_PREFIX = re.compile(r"[+-]?[0-9]*")
_PLAIN_LONG = r"[+-]?[0-9]{1,18}"
_PLAIN_FLOAT = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_FLOAT_PREFIX = re.compile(
    r"(?P<sign>[+-]?)(?:"
    r"(?P<hex>0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)"
    r"|(?P<inf>[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)"
    r"|(?P<nan>[nN][aA][nN](?:\([0-9A-Za-z_]*\))?)"
    r"|(?P<dec>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))")


def c_atol(text: str) -> int:
    """C's ``atol`` (glibc: ``strtol`` base 10, clamped): the leading whole number, else 0."""
    digits = _LONG_PREFIX.match(text).group()
    if digits in ("", "+", "-"):
        return 0
    return max(-_LONG_MAX - 1, min(_LONG_MAX, int(digits)))


def c_atof(text: str) -> float:
    """C's ``atof`` (glibc ``strtod``): the longest leading number, else 0.0."""
    match = _FLOAT_PREFIX.match(text)
    if match is None:
        return 0.0
    sign = -1.0 if match.group("sign") == "-" else 1.0
    if match.group("hex"):
        body = match.group("hex")
        if not re.match(r"0[xX](?:[0-9a-fA-F]|\.[0-9a-fA-F])", body):
            return sign * 0.0
        try:
            return sign * float.fromhex(body if "p" in body.lower() else body + "p0")
        except OverflowError:
            return sign * math.inf
    if match.group("inf"):
        return sign * math.inf
    if match.group("nan"):
        return math.nan
    return sign * float(match.group("dec"))


def _only(tokens: np.ndarray, allowed: bytes) -> bool:
    """Whether every token is made of the characters ``allowed`` (one pass in C)."""
    joined = "".join(tokens.tolist()).encode("latin-1")
    return not joined.translate(None, allowed)


def _c_numbers(tokens: np.ndarray, *, dtype: type, characters: bytes, plain: str,
               one: Any) -> np.ndarray:
    """``one`` (C's ``atol`` or ``atof``) of each token, vectorised where Python reads what C
    reads: in one pass when every token is made of ``characters`` and Python reads each
    whole, else the tokens that match ``plain`` in one pass and the rest one by one."""
    import pandas as pd

    if tokens.size and _only(tokens, characters):
        try:  # such a token read whole by int()/float() is read alike by atol/atof
            return tokens.astype(dtype)
        except (ValueError, OverflowError):
            pass
    series = pd.Series(tokens, dtype=object)
    matched = series.str.fullmatch(plain).to_numpy(dtype=bool)
    values = np.zeros(len(tokens), dtype=dtype)
    if matched.any():
        values[matched] = series[matched].astype(dtype).to_numpy()
    odd = np.flatnonzero(~matched)
    if odd.size:  # rare: '1.5', '1,5', '0x1p3', 'inf', '1e', '+', huge values, ...
        values[odd] = [one(t) for t in tokens[odd]]
    return values


def _atol_array(tokens: np.ndarray) -> np.ndarray:
    """``atol`` of each token; plain whole numbers in one vectorised pass."""
    return _c_numbers(tokens, dtype=np.int64, characters=b"0123456789+-", plain=_PLAIN_LONG,
                      one=c_atol)


def _atof_array(tokens: np.ndarray) -> np.ndarray:
    """``atof`` of each token; plain decimal numbers in one vectorised pass (Python's and
    glibc's conversions are both correctly rounded, so they agree)."""
    return _c_numbers(tokens, dtype=np.float64, characters=b"0123456789+-.eE",
                      plain=_PLAIN_FLOAT, one=c_atof)


# ---------------------------------------------------------------------------------------------
# Reading the files as trec_eval reads them
# ---------------------------------------------------------------------------------------------
# C's isspace: space, \t, \n, \v, \f, \r. Every other byte is part of a field.
_TOKEN = re.compile(r"[^ \t\n\v\f\r]+|\n")


class Crash(TrecEvalError):
    """trec_eval itself crashes (a segmentation fault) on this input."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code=139)


def _read_bytes(path: str, what: str, version: str, stdin: Any = None) -> bytes:
    if what == "results" and version == "10.0" and path.startswith("-"):
        data = (stdin or sys.stdin.buffer).read()  # 10.0 reads the run from stdin
        if not data:
            raise TrecEvalError(f"cannot read {what} file '{path}': stdin is empty", code=2)
        return data
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise TrecEvalError(f"cannot read {what} file '{path}' ({error.strerror})",
                            code=2) from None
    if not data:  # trec_eval cannot read an empty file
        raise TrecEvalError(f"cannot read {what} file '{path}': it is empty", code=2)
    return data
#: C's isspace over the 256 byte values.
_C_SPACE = np.zeros(256, dtype=bool)
_C_SPACE[[9, 10, 11, 12, 13, 32]] = True
#: Bytes that Python's str.split() takes for white space (decoded as Latin-1) and C does not.
_PYTHON_ONLY_SPACE = (b"\x1c", b"\x1d", b"\x1e", b"\x1f", b"\x85", b"\xa0")


class PlainFields(NamedTuple):
    """Where the fields of a plain TREC text lie (see :func:`plain_fields`)."""

    raw: np.ndarray  # the bytes, a newline added when the last line had none
    text: bytes  # the same bytes followed by 8 zero bytes (_byte_matrix reads whole words)
    ends: np.ndarray  # each line's newline
    field_at: np.ndarray  # each field's first byte, line after line
    field_end: np.ndarray  # the byte after each field's last


def plain_fields(data: bytes, n_fields: int) -> PlainFields | None:
    """The fields of ``data`` (whole lines) when it is plain: no NUL byte, every line exactly
    ``n_fields`` fields, none starting with white space (or blank) or with '#' (a comment in
    10.0, an id in 9.0.8); else None, the general readers' business. Found with numpy alone,
    no str made."""
    if not data:
        return None
    if not data.endswith(b"\n"):
        data += b"\n"
    if b"\0" in data:
        return None
    text = data + bytes(8)
    raw = np.frombuffer(text, dtype=np.uint8)[: len(data)]
    if _C_SPACE[raw[0]]:
        return None
    ends = np.flatnonzero(raw == 10)
    # C's isspace: ' ' and \t \n \v \f \r (9-13); two compares beat a table look-up.
    space = np.subtract(raw, 9, dtype=np.uint8) < 5
    space |= raw == 32
    # Where white space starts and ends, alternately: the data start with a field and end
    # with a newline, so the first is a field's end.
    turns = np.flatnonzero(space[1:] != space[:-1])
    del space
    turns += 1
    field_end = turns[0::2]
    field_at = np.r_[0, turns[1::2]]
    # Exactly n fields on every line: the (n i)-th field starts after line i - 1 ends and
    # the (n i + n - 1)-th ends before line i does.
    if (field_at.size != n_fields * ends.size
            or not (field_at[n_fields::n_fields] > ends[:-1]).all()
            or not (field_at[n_fields - 1::n_fields] < ends).all()
            or (raw[field_at[0::n_fields]] == ord("#")).any()):
        return None
    return PlainFields(raw, text, ends, field_at, field_end)


def _lines(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The fields of every line: (fields, the line of each field, fields per line, each
    line's first byte, the first byte of each line's first field, 0 for a line without one);
    every line ends with a newline (one is added at the end if missing).
    The text is decoded as Latin-1, one character per byte, so ids keep their bytes, their
    byte order and their equality. Fields are split at C's white space (``isspace``):
    ``str.split`` does that in C unless a byte it also splits at is in the file."""
    if not data.endswith(b"\n"):
        data += b"\n"
    raw = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(raw == 10)
    starts = np.r_[0, ends[:-1] + 1]
    first = raw[starts]
    space = _C_SPACE[raw]
    begins = ~space
    begins[1:] &= space[:-1]
    field_at = np.flatnonzero(begins)  # the byte where each field starts
    del space, begins
    field_line = np.searchsorted(ends, field_at)
    counts = np.bincount(field_line, minlength=ends.size)
    head = np.zeros(ends.size, dtype=np.uint8)
    has = counts > 0
    head[has] = raw[field_at[(np.cumsum(counts) - counts)[has]]]
    text = data.decode("latin-1")
    if any(byte in data for byte in _PYTHON_ONLY_SPACE):
        fields = np.array([t for t in _TOKEN.findall(text) if t != "\n"], dtype=object)
    else:
        fields = np.array(text.split(), dtype=object)
    return fields, field_line, counts, first, head


def _first_field_index(counts: np.ndarray) -> np.ndarray:
    return np.cumsum(counts) - counts


def read_trec_qrels(path: str, version: str) -> pd.DataFrame:
    """The qrels as trec_eval ``version`` reads them: ``query_id``, ``doc_id``, ``relevance``
    (``atol``), in file order."""
    import pandas as pd

    fields, field_line, counts, first, _ = _lines(_read_bytes(path, "qrels", version))
    n = counts.size
    parsed = np.ones(n, dtype=bool)
    if version == "10.0":
        # A '#' in column 0 skips the line, and the line after a skipped one is read as data:
        # in a run of '#' lines, the 1st, 3rd, ... are skipped.
        hashed = first == ord("#")
        index = np.arange(n)
        run_start = hashed & ~np.r_[False, hashed[:-1]]
        position = index - np.maximum.accumulate(np.where(run_start, index, 0))
        parsed = ~(hashed & (position % 2 == 0))
        if n and not parsed[-1]:
            raise Crash(f"{path}: trec_eval 10.0 crashes on a '#' comment as the last line of "
                        "the qrels")
    bad = np.flatnonzero(parsed & (counts != 4))
    if bad.size:
        line = int(bad[0]) + 1
        raise TrecEvalError(f"{path}, line {line}: malformed qrels line (expected 4 fields "
                            "'query_id iteration doc_id relevance', got "
                            f"{int(counts[bad[0]])}); trec_eval quits", code=2)
    keep = parsed[field_line]
    fields = fields[keep]
    return pd.DataFrame({"query_id": pd.Series(fields[0::4], dtype=object, copy=False),
                         "doc_id": pd.Series(fields[2::4], dtype=object, copy=False),
                         "relevance": _atol_array(fields[3::4])})


def read_trec_results(path: str, version: str, stdin: Any = None) -> tuple[pd.DataFrame, str]:
    """The run as trec_eval ``version`` reads it (``query_id``, ``doc_id``, ``score``; scores
    rounded to float32 for 9.0.8) and the run id of its last line."""
    table, run_id, nan_line = _parse_results(_read_bytes(path, "results", version, stdin),
                                             path, version, 1)
    if nan_line:
        raise _nan_error(path, nan_line)
    return table, run_id


def _nan_error(path: str, line: int) -> TrecEvalError:
    return TrecEvalError(f"{path}, line {line}: a score that reads as NaN; trec_eval's "
                         "ranking of NaN depends on its sort, evalkit refuses it", code=2)


def _parse_results(data: bytes, path: str, version: str, first_line: int,
                   lines: list[np.ndarray] | None = None) -> tuple[pd.DataFrame, str, int]:
    """The run lines in ``data`` (whose first line is line ``first_line`` of the file): the
    table, the run id of its last line ("" if none) and the line of the first NaN score (0
    if none); ``lines`` gets the line number of each row appended.

    The fields are found in numpy (C's white space) and only the three a row needs are made
    into Python objects: ids decoded as Latin-1 from a matrix of their bytes, scores read as
    numbers from theirs. Text that does not suit (a NUL byte, a field longer than
    ``_WIDEST``, a score ``float`` does not read as ``atof`` does) is read by
    :func:`_parse_results_split`."""
    if not data.endswith(b"\n"):
        data += b"\n"
    raw = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(raw == 10)
    space = _C_SPACE[raw]
    begins = ~space
    begins[1:] &= space[:-1]
    field_at = np.flatnonzero(begins)
    begins = ~space
    begins[:-1] &= space[1:]  # the last byte of each field (data ends with a newline)
    field_end = np.flatnonzero(begins) + 1
    del space, begins
    counts = np.bincount(np.searchsorted(ends, field_at), minlength=ends.size)
    starts = _first_field_index(counts)
    used = counts > 0  # blank lines are skipped
    if version == "10.0":
        head = np.zeros(ends.size, dtype=np.uint8)
        head[used] = raw[field_at[starts[used]]]
        used &= head != ord("#")  # a first field starting with '#' is a comment
    bad = np.flatnonzero(used & (counts < 6))
    if bad.size:
        line = int(bad[0]) + first_line
        raise TrecEvalError(f"{path}, line {line}: malformed results line (expected 6 fields "
                            "'query_id Q0 doc_id rank score run_id', got "
                            f"{int(counts[bad[0]])}); trec_eval quits", code=2)
    at = starts[used]
    if b"\0" in data or not at.size:
        return _parse_results_split(data, path, version, first_line, lines)
    length = field_end - field_at
    query = _latin1(raw, field_at[at], length[at], repeats=True)
    doc = _latin1(raw, field_at[at + 2], length[at + 2])
    score = _plain_numbers(raw, field_at[at + 4], length[at + 4])
    if query is None or doc is None or score is None:
        return _parse_results_split(data, path, version, first_line, lines)
    last = at[-1] + 5
    run_id = data[field_at[last]:field_end[last]].decode("latin-1")
    return _results_table(query, doc, score, run_id, used, version, first_line, lines)


#: The longest field read from a matrix of bytes (longer ones: str.split).
_WIDEST = 64


def _byte_matrix(raw: np.ndarray, first: np.ndarray, length: np.ndarray) -> np.ndarray | None:
    """The bytes of each field, one row each, zero-padded to the longest."""
    width = int(length.max(initial=1))
    if width > _WIDEST:
        return None
    padded = np.concatenate((raw, np.zeros(width, dtype=np.uint8)))
    # Row i of this view is the ``width`` bytes from offset i: a row per field, copied whole.
    rows = np.lib.stride_tricks.as_strided(padded, shape=(raw.size + 1, width),
                                           strides=(1, 1), writeable=False)
    matrix = rows[first]
    matrix *= np.arange(width) < length[:, None]  # the bytes after the field
    return matrix


def _latin1(raw: np.ndarray, first: np.ndarray, length: np.ndarray, *,
            repeats: bool = False) -> np.ndarray | None:
    """Each field as a str (Latin-1: each byte one character), an object array;
    ``repeats``: fields that mostly repeat the one before (query ids), each run of equal
    ones made one str."""
    matrix = _byte_matrix(raw, first, length)
    if matrix is None:
        return None
    starts = None
    if repeats and matrix.shape[0] > 1:
        starts = np.flatnonzero(np.r_[True, (matrix[1:] != matrix[:-1]).any(axis=1)])
        matrix = matrix[starts]
    # A byte widened to 32 bits is its Latin-1 code point: the rows are UCS-4 strings.
    text = matrix.astype(np.uint32).view(f"U{matrix.shape[1]}")[:, 0].astype(object)
    if starts is None:
        return text
    return np.repeat(text, np.diff(np.r_[starts, first.size]))


_PLAIN_NUMBER_BYTES = np.zeros(256, dtype=bool)
_PLAIN_NUMBER_BYTES[list(b"0123456789+-.eE")] = True
_PLAIN_NUMBER_BYTES[0] = True  # the padding


def _plain_numbers(raw: np.ndarray, first: np.ndarray, length: np.ndarray
                   ) -> np.ndarray | None:
    """``atof`` of each field when every one is a plain decimal number that ``float`` reads
    (then both read it alike: both round correctly), else None."""
    matrix = _byte_matrix(raw, first, length)
    if matrix is None or not _PLAIN_NUMBER_BYTES[matrix].all():
        return None
    try:
        return matrix.view(f"S{matrix.shape[1]}")[:, 0].astype(np.float64)
    except (ValueError, OverflowError):
        return None


def _parse_results_split(data: bytes, path: str, version: str, first_line: int,
                         lines: list[np.ndarray] | None = None
                         ) -> tuple[pd.DataFrame, str, int]:
    """:func:`_parse_results` on any text: every field made a str (``str.split``)."""
    fields, field_line, counts, _, head = _lines(data)
    starts = _first_field_index(counts)
    used = counts > 0  # blank lines are skipped
    if version == "10.0":
        used &= head != ord("#")  # a first field starting with '#' is a comment
    bad = np.flatnonzero(used & (counts < 6))
    if bad.size:
        line = int(bad[0]) + first_line
        raise TrecEvalError(f"{path}, line {line}: malformed results line (expected 6 fields "
                            "'query_id Q0 doc_id rank score run_id', got "
                            f"{int(counts[bad[0]])}); trec_eval quits", code=2)
    at = starts[used]
    score = _atof_array(fields[at + 4])
    run_id = str(fields[at[-1] + 5]) if at.size else ""
    return _results_table(fields[at], fields[at + 2], score, run_id, used, version,
                          first_line, lines)


def _results_table(query: np.ndarray, doc: np.ndarray, score: np.ndarray, run_id: str,
                   used: np.ndarray, version: str, first_line: int,
                   lines: list[np.ndarray] | None) -> tuple[pd.DataFrame, str, int]:
    import pandas as pd

    if version == "9.0.8":
        with np.errstate(over="ignore"):
            score = score.astype(np.float32).astype(np.float64)
    nan_line = 0
    if np.isnan(score).any():
        row = int(np.flatnonzero(np.isnan(score))[0])
        nan_line = int(np.flatnonzero(used)[row]) + first_line
    if lines is not None:
        lines.append(np.flatnonzero(used) + first_line)
    # Object columns: pandas would otherwise copy the ids into its own str type (with
    # pyarrow installed, an ArrowStringArray), and evaluate turn them back.
    table = pd.DataFrame({"query_id": pd.Series(query, dtype=object, copy=False),
                          "doc_id": pd.Series(doc, dtype=object, copy=False),
                          "score": score})
    return table, run_id, nan_line


class ResultsStream:
    """The run file read a piece at a time, in blocks of whole queries
    (:func:`evalkit.trec._streaming.query_blocks`: raises its ``Ungrouped`` when a query
    comes back after another's rows). After the blocks: ``run_id`` (the last line's),
    ``n_rows``."""

    def __init__(self, path: str, version: str) -> None:
        self.path, self.version = path, version
        self.run_id = ""
        self.n_rows = 0

    def blocks(self) -> Iterator[pd.DataFrame]:
        from ._streaming import query_blocks

        try:
            handle = open(self.path, "rb")  # noqa: SIM115 (closed below)
        except OSError as error:
            raise TrecEvalError(f"cannot read results file '{self.path}' "
                                f"({error.strerror})", code=2) from None
        with handle:
            yield from query_blocks(self._pieces(handle), self.path)

    def table(self) -> pd.DataFrame:
        """The whole run, in file order (read a piece at a time: what memory the parsing
        takes is a piece's)."""
        import pandas as pd

        try:
            handle = open(self.path, "rb")  # noqa: SIM115 (closed below)
        except OSError as error:
            raise TrecEvalError(f"cannot read results file '{self.path}' "
                                f"({error.strerror})", code=2) from None
        with handle:
            tables = [table for table, _ in self._pieces(handle)]
        return tables[0] if len(tables) == 1 else pd.concat(tables, ignore_index=True)

    def _pieces(self, handle: Any) -> Iterator[tuple[pd.DataFrame, Any]]:
        from ._streaming import byte_pieces

        nan_line = 0
        empty = True
        for piece, first_line in byte_pieces(handle):
            empty = False
            lines: list[np.ndarray] = []
            table, run_id, nan = _parse_results(piece, self.path, self.version, first_line,
                                                lines)
            if nan:  # reported once the file is read (a malformed line later comes first)
                nan_line = nan_line or nan
                table["score"] = table["score"].fillna(0.0)
            if len(table):
                self.run_id = run_id
                self.n_rows += len(table)
            yield table, lines[0].__getitem__
        if empty:  # trec_eval cannot read an empty file
            raise TrecEvalError(f"cannot read results file '{self.path}': it is empty",
                                code=2)
        if nan_line:
            raise _nan_error(self.path, nan_line)
