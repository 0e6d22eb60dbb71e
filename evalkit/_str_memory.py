"""The characters of Python str objects read where they lie, by numpy, for hashing them (or,
short ones, as numbers: :func:`short_keys`).

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

from ._threads import _chunk_rows, _for_each

__all__ = ["ascii_strings", "short_keys", "short_keys_here", "ArrayAt"]

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


def _headers(addresses: np.ndarray, header: int
             ) -> tuple[int, int, np.ndarray, np.ndarray, np.ndarray] | None:
    """``(low, high, words, word, length)``: the lowest and highest address, the 8-byte
    words of memory from the lowest to past the last header, where each object's first word
    is among them and each str's length; None unless each object is a compact ASCII str."""
    low, high = int(addresses.min()), int(addresses.max())
    if int(np.bitwise_or.reduce(addresses)) % 8:
        return None
    word = np.subtract(addresses, low)
    word >>= 3
    words = _words(low, high - low + header)
    # _word(words[k:], word): each object's k-th word, without adding k to every index.
    read = _word(words[_TYPE:], word)
    if not bool((read == id(str)).all()):
        return None
    read = _word(words[_STATE:], word, out=read)
    read &= _STATE_MASK
    if not bool((read == _STATE_ASCII).all()):
        return None
    return low, high, words, word, _word(words[_LENGTH:], word)


def _word(words: np.ndarray, word: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``words[word]``: ``word`` lies within ``words`` (each object's word within the memory
    read), so numpy's gather need not check each index (``mode="clip"``, which also writes
    straight to ``out``: 10^6 short ids read in 12.3 against 13.3 ms, best of 30 taken in
    turn with the checked gather, Intel Xeon, one thread)."""
    return np.take(words, word, out=out, mode="clip")


def _read(addresses: np.ndarray, header: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(memory, first, length)``: the bytes from the lowest address, and where each str's
    characters start in them and how many there are; None unless each object is a compact
    ASCII str."""
    read = _headers(addresses, header)
    if read is None:
        return None
    low, high, _, word, length = read
    memory = _bytes(low, high - low + header + int(length.max()) + 8)
    return memory, (word << 3) + header, length


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


# The longest id that short_keys reads as a number: its characters fill at most 7 bytes of
# one word, and the top byte holds its length.
SHORT_KEY_MOST = 7
# short_keys reads this many ids at a time on several threads (in the threads of _for_each);
# on one, _SHORT_CHUNK_ALONE at most, whose objects and temporaries stay in its core's L2. On
# an Intel Xeon (2 MB of L2 a core), 10^6 query ids of one object each, best of 9: one
# thread 19.3 ms at 2**15, 14.7 at 2**14, 14.3 at 2**13, 16.1 at 2**12; two threads 15.9 at
# 2**15, 13.1 at 2**16 and 2**17, 25.0 at 2**13 (the shorter a chunk's numpy loops, the
# longer each thread waits for the GIL between them).
_SHORT_CHUNK = 1 << 16
_SHORT_CHUNK_ALONE = 1 << 13
_LENGTH_MASKS = np.array([(1 << (8 * n)) - 1 for n in range(SHORT_KEY_MOST + 1)],
                         dtype=np.uint64)


def short_keys(ids: np.ndarray, out: np.ndarray | None = None) -> np.ndarray | None:
    """Each id of a 1-D contiguous object array as a number that equal ids, and only they,
    share (uint64): its characters' bytes, read in place (see :func:`ascii_strings`), and
    its length in the top byte. None unless every id is a compact ASCII str of at most
    ``SHORT_KEY_MOST`` characters on an interpreter whose layout :func:`_layout`
    recognises. ``out``: a uint64 array of ``ids.size`` to write the keys to.

    An id's characters start a word (the header's size is a multiple of 8) and fill at most
    7 bytes of it; the rest of that word is read (the terminating NUL, then memory of the
    object's own allocation, which is at least 8-byte aligned) and masked off. Query ids are
    most often this short (TREC's "301", MS MARCO's "1048585"): a key a word, read in one
    pass, where hashing them reads each id's object twice. A chunk of ids at a time (in the
    threads of ``_for_each``).

    Examples
    --------
    >>> ids = np.array(["".join(["q", "17"]), "".join(["q", "9"]), "".join(["q", "17"])],
    ...                dtype=object)
    >>> keys = short_keys(ids)
    >>> bool(keys[0] == keys[2]), bool(keys[0] == keys[1])
    (True, False)
    """
    header = _layout()
    if header is None:
        return None
    addresses = np.frombuffer(ids, dtype=np.intp)
    keys = np.empty(addresses.size, dtype=np.uint64) if out is None else out
    refused: list[int] = []  # the chunks holding an id that is not read as a key
    chunk = _chunk_rows(_SHORT_CHUNK, _SHORT_CHUNK_ALONE)

    def one_chunk(start: int) -> None:
        if refused:  # the ids are hashed instead: the chunks left need not be read
            return
        if not _short_chunk(addresses[start : start + chunk], header,
                            keys[start : start + chunk]):
            refused.append(start)

    _for_each(one_chunk, range(0, addresses.size, chunk))
    return None if refused else keys


def short_keys_here(ids: np.ndarray, out: np.ndarray) -> bool:
    """:func:`short_keys` of ``ids`` into ``out`` (uint64) on this thread, in one go: for a
    caller that cuts a column into chunks itself (that stay in cache while it reads, then
    ranks them); False where :func:`short_keys` gives None."""
    header = _layout()
    return header is not None and (ids.size == 0 or _short_chunk(
        np.frombuffer(ids, dtype=np.intp), header, out))


def _short_chunk(addresses: np.ndarray, header: int, out: np.ndarray) -> bool:
    """The keys of the objects at ``addresses`` into ``out`` (see :func:`short_keys`);
    False, ``out`` left half written, unless each is a str that :func:`short_keys` reads."""
    read = _headers(addresses, header)
    if read is None or int(read[-1].max()) > SHORT_KEY_MOST:
        return False
    _, _, words, word, length = read
    np.bitwise_and(_word(words[header // 8 :], word).view(np.uint64),
                   np.take(_LENGTH_MASKS, length, mode="clip"), out=out)
    out |= length.view(np.uint64) << np.uint64(56)
    return True
