"""The characters of Python str objects read where they lie, by numpy, for hashing them.

Hashing an object array of ids used to list them, join their text into one bytes object and
read that (``tolist`` + ``str.join`` + a scan for the separators: 16-23 ms per 10^6 ids, in
CPython under the GIL). But an object array's buffer holds its objects' addresses, and a
compact ASCII str (almost every id: what ``str.join`` and file readers make for ASCII
text) holds its characters right after a fixed header, one byte each, which are its UTF-8
bytes. So numpy can read them in place: the addresses as numbers, then a read-only byte
view of the memory from the lowest address to past the highest, in which each id is at
``address - lowest + header``, with its length in the header.

That reads CPython's layout (``PyASCIIObject``: reference count, type, length, hash, state
bits, then the characters), which the C API documents but Python does not promise. So
nothing here is trusted before it is checked: :func:`_layout` probes this interpreter once
(strings of known text, ASCII and not, interned and not, and a str subclass, must read back
as they are, and only the ASCII ones pass the test below), and every read id must have
type exactly ``str`` and state bits saying compact, ASCII, one byte a character. Anything
else (another interpreter or build, a subclass, a non-ASCII id, an object that is not a
str) returns None and the caller joins the ids as before. Only words within each id's own
memory are read: the type is read first, at the address (every object starts with its
reference count and type), and the header and characters only of exact str objects.
"""

from __future__ import annotations

import sys
from functools import cache

import numpy as np

__all__ = ["ascii_strings", "ArrayAt"]

# The state bits of a compact ASCII str (CPython 3.11 to 3.13, the build with a GIL, each run
# by make test-pythons; on others the probe decides): kind (bits 2-4) is one byte a character,
# compact (bit 5) and ascii (bit 6) are set; the bits below and above (interned, ready or
# statically allocated) may be anything.
_STATE_MASK = 0b1111100
_STATE_ASCII = 0b1100100
# The words of a str's header that hold its type, length and state bits.
_TYPE, _LENGTH, _STATE = 1, 2, 4


class ArrayAt:
    """``shape`` items of numpy type ``typestr`` in this process's memory from ``address``,
    offered to numpy as a read-only array (the array interface), which holds on to ``keep``:
    what keeps that memory alive, if the caller does not (``np.asarray`` of it keeps it)."""

    def __init__(self, address: int, shape: tuple[int, ...], typestr: str,
                 keep: object = None) -> None:
        self.keep = keep
        self.__array_interface__ = {"shape": shape, "typestr": typestr, "version": 3,
                                    "data": (address, True)}  # True: read-only


def _bytes(start: int, size: int) -> np.ndarray:
    """``size`` bytes of memory from ``start``; the caller keeps the objects in it alive."""
    return np.asarray(ArrayAt(start, (size,), "|u1"))


def _words(start: int, size: int) -> np.ndarray:
    """The 8-byte words of memory from ``start`` (a multiple of 8), ``size`` bytes or more,
    as signed numbers (a length is a ``Py_ssize_t``)."""
    return _bytes(start, size + 8).view(np.intp)


def _read(addresses: np.ndarray, header: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(memory, first, length)``: the bytes from the lowest address, and where each str's
    characters start in them and how many there are; None unless each object is a compact
    ASCII str."""
    low, high = int(addresses.min()), int(addresses.max())
    if int(np.bitwise_or.reduce(addresses)) % 8:
        return None
    at = addresses - low
    word = at >> 3
    words = _words(low, high - low + header)
    if not bool((words[word + _TYPE] == id(str)).all()):
        return None
    if not bool(((words[word + _STATE] & _STATE_MASK) == _STATE_ASCII).all()):
        return None
    length = words[word + _LENGTH]
    longest = int(length.max())
    memory = _bytes(low, high - low + header + longest + 8)
    at += header
    return memory, at, length


@cache
def _layout() -> int | None:
    """Where a compact ASCII str's characters start (bytes from its address) when this
    interpreter's str objects read back as described above; None otherwise."""
    if (sys.implementation.name != "cpython" or sys.byteorder != "little"
            or np.dtype(np.intp).itemsize != 8):
        return None
    header = sys.getsizeof("") - 1  # a compact ASCII str's size is its header + length + 1
    if header % 8:
        return None

    class Named(str):
        pass

    # Made at run time (not constants), of every length up to three words, one interned.
    ascii_ids = ["".join(["id-", "x" * i]) for i in range(24)] + [sys.intern("probe id 7")]
    others = ["é", "doc-\u20ac", "\U0001F600", "ascii, then é", Named("ascii subclass")]
    try:
        for text in ascii_ids:
            read = _read(np.array([id(text)], dtype=np.intp), header)
            if read is None:
                return None
            memory, at, length = read
            if (int(length[0]) != len(text)
                    or bytes(memory[at[0]:at[0] + length[0]]) != text.encode("ascii")):
                return None
        if any(_read(np.array([id(text)], dtype=np.intp), header) is not None
               for text in others):
            return None
    except (ValueError, TypeError, OverflowError):  # pragma: no cover - an odd interpreter
        return None
    return header


def ascii_strings(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Where the characters of each id of a 1-D contiguous object array lie, read in place:
    ``(memory, first, length)``, ``memory[first[i]:first[i] + length[i]]`` being id ``i``'s
    UTF-8 bytes; None unless every id is a compact ASCII str on an interpreter whose layout
    :func:`_layout` recognises (the caller then joins the ids).

    ``memory`` views the objects' own memory: it is valid while ``ids`` holds them, and only
    each id's bytes and the rest of its last 8-byte word (within its object) may be read.

    Examples
    --------
    >>> ids = np.array(["".join(["doc-", "17"]), "".join(["doc-", "9"])], dtype=object)
    >>> memory, first, length = ascii_strings(ids)
    >>> [bytes(memory[f:f + n]) for f, n in zip(first, length)]
    [b'doc-17', b'doc-9']
    """
    header = _layout()
    if header is None or ids.size == 0:
        return None
    return _read(np.frombuffer(ids, dtype=np.intp), header)
