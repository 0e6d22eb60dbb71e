"""A vectorised 64-bit hash of strings: the one that the label encoding and the TREC engine share.

Hashing millions of ids or labels one at a time from Python is slow; here they are hashed in
numpy, 8 bytes at a time: a string's byte length and each of its 8-byte words, every one times
its own fixed odd 64-bit multiplier and then mixed (its top bits xored into its middle ones and
the result multiplied again), are summed (modulo 2**64) and the sum's top bits folded into its
low ones. A zero word adds 0, so a string's hash does not depend on the strings hashed with
it. Equal strings get equal hashes. Unequal ones share a hash rarely, and every
caller confirms what it matches on the strings themselves, so a collision costs time, never a
wrong result. Users: :mod:`evalkit._counting` (string labels, bucketed by the top bits of
their hash) and :mod:`evalkit.trec._pairs` (the (query, document) keys of qrels and runs).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._arrow_strings import VIEW_BYTES, _large_string_id, string_views, view_lengths
from ._str_memory import ArrayAt, ascii_strings
from ._threads import _chunk_rows, _for_each

__all__ = ["string_hashes", "string_hashes_at", "arrow_string_hashes", "view_hashes", "byte_hashes",
           "joined_bytes", "repeats_objects", "take_objects", "borrowable",
           "object_hashes_and_prefixes", "objects_at", "splitmix64", "BYTE_MASKS", "ROWS_AN_OBJECT"]

# Object arrays are hashed _OBJECT_CHUNK ids at a time on several threads, at most
# _OBJECT_CHUNK_ALONE on one: listing them, joining their text and freeing the list then touch
# each id while it is still in the CPU's cache. On one thread, a chunk's objects and
# temporaries should stay in a core's L2 (Intel Xeon, 2 MB; 10^6 ASCII ids, median of 7
# rounds: 37.3 ms at 2**15, 34.7 at 2**14, 31.5 at 2**13, 32.8 at 2**12; non-ASCII, joined,
# 60.9 against 55.8 at 2**13). On several threads, where chunks are hashed side by side, the
# shorter a chunk's numpy loops the longer each thread waits for the GIL between them: 10^6
# ids in two halves on two threads, 40.9 ms at 2**13, 26.1 at 2**15, 22.9 at 2**17, against
# 32.3 on one thread at 2**13 (evaluate on the object shapes of the bench, two threads, old
# and new in turn: 3-8% faster at 2**16 than at 2**15).
_OBJECT_CHUNK = 1 << 16
_OBJECT_CHUNK_ALONE = 1 << 13
# _object_codes numbers objects in a table of addresses when it needs at most this many
# slots per row (8 bytes each; 0: never); above _DENSE_SLOTS_PER_ROW, in a table of the pages
# they lie in instead when that leaves out half the slots or more.
_SLOTS_PER_ROW = 8
_DENSE_SLOTS_PER_ROW = 2
# _known_object_codes numbers this many rows at a time (their temporaries stay in cache),
# and at most _KNOWN_MOST known objects (more: a table of their slots would outgrow the
# cache, and the windows of address bits tried would rarely set them apart).
_KNOWN_CHUNK = 1 << 16
_KNOWN_MOST = 1 << 11
# Objects far apart are numbered in a table of the 1 MB pages they lie in (see _page_slots).
_PAGE_BITS = 20
# take_objects borrows the references of this many rows or more (fewer: numpy's gather).
_BORROW_MIN = 64
# Object arrays this long or longer are checked for repeated objects (repeats_objects).
_REPEATS_MIN = 1 << 16
# An object array repeats its objects when it has this many rows an object or more (then
# hashing each distinct object once pays; the query ids of an interleaved run too).
ROWS_AN_OBJECT = 4
#: 2**64 / the golden ratio (Knuth's multiplicative hashing), odd: spreads references and numbers.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def splitmix64(x: np.ndarray) -> np.ndarray:
    """Steele, Lea and Flood's SplitMix64 finaliser: every output bit depends on every input
    bit, so the top bits of a hash are as good as the others."""
    x = x ^ (x >> np.uint64(30))
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


def _odd_multipliers(count: int) -> np.ndarray:
    """``count`` fixed, well-mixed odd 64-bit numbers (SplitMix64 of 1, 2, ...)."""
    return splitmix64(np.arange(1, count + 1, dtype=np.uint64) * _GOLDEN) | np.uint64(1)


# One odd multiplier for the length and one for each 8 bytes of an id (more made on demand).
_MULTIPLIERS = _odd_multipliers(33)
#: BYTE_MASKS[k] keeps the low k bytes of a little-endian word (k = 0 ... 8).
BYTE_MASKS = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [2**64 - 1], dtype=np.uint64)
_FOLD = np.uint64(29)
# Short arrow strings are hashed from their views this many at a time (kept in cache).
_VIEW_CHUNK = 1 << 16
_HALF = np.uint64(32)
_BIG_ENDIAN = np.dtype(">u8")


# A word's product is mixed before it is added: its top bits, which a difference in an id's
# last bytes reaches alone, are xored into the middle ones and the result multiplied again.
# Without it the sum is linear, and ids differing in two words in step (clueweb09-en0031-12-08165
# and clueweb09-en0034-12-08155) collided about once in 256 such pairs.
_MIX_SHIFT = np.uint64(29)
_MIX_MULTIPLIER = np.uint64(0xBF58476D1CE4E5B9)


def _mix(products: np.ndarray) -> None:
    """Mix each word's product in place (0 stays 0)."""
    products ^= products >> _MIX_SHIFT
    products *= _MIX_MULTIPLIER


def _multipliers(n_words: int) -> np.ndarray:
    return _MULTIPLIERS if n_words < _MULTIPLIERS.size else _odd_multipliers(n_words + 1)


def string_hashes(values: np.ndarray, out: np.ndarray | None = None, *,
                  repeated: bool | None = None, views: np.ndarray | None = None) -> np.ndarray:
    """A 64-bit hash (uint64) of each string of ``values``, equal for equal strings.

    Parameters
    ----------
    values : numpy.ndarray or pyarrow.Array
        Either variable-length strings, an object array of str (or a numpy ``StringDType``
        array, or a pyarrow ``string`` array without nulls), hashed from their UTF-8 bytes
        (``str.join`` checks that each is a str: TypeError if one is not); or fixed-width
        strings, a numpy ``U`` array or a 2-D array whose rows are the raw words of such
        strings, hashed from each item's raw bytes (the code points, zero-padded to the
        width). Hashes of one kind and one width compare
        with each other: the same text as an object and as a ``U`` array hashes differently.
    out : numpy.ndarray, optional
        A uint64 array of ``len(values)`` to write the hashes to.
    repeated : bool, optional
        For an object array, whether it holds its objects many times over, so that each
        distinct object is hashed once: estimated by :func:`repeats_objects` when None;
        False hashes every row (a caller that has checked the whole column hashes its parts
        so, without checking each again).
    views : numpy.ndarray, optional
        For a pyarrow array, its string views when the caller has them (see
        :func:`~evalkit._arrow_strings.string_views`).

    Returns
    -------
    numpy.ndarray
        The hashes (``out`` when given). All 64 bits are usable; a caller that needs fewer
        takes the top ones, which depend on every byte of the string.

    Examples
    --------
    >>> import numpy as np
    >>> ids = np.array(["doc-1", "doc-2", "doc-1"], dtype=object)
    >>> hashes = string_hashes(ids)
    >>> bool(hashes[0] == hashes[2]), bool(hashes[0] == hashes[1])
    (True, False)
    """
    if not isinstance(values, np.ndarray) and hasattr(values, "buffers"):
        hashes = arrow_string_hashes(values, views)  # a pyarrow string array
        if out is not None:
            out[:] = hashes
        return hashes if out is None else out
    if values.ndim == 2 or values.dtype.kind in "US":
        return _fixed_width_hashes(values, out)
    if out is None:
        out = np.empty(len(values), dtype=np.uint64)
    if repeats_objects(values) if repeated is None else repeated:  # each object hashed once
        codes, objects = _object_codes(values)
        # Not string_hashes again: the estimate could call the distinct objects repeated.
        hashes = _object_hashes(objects, np.empty(objects.size, dtype=np.uint64))
        return np.take(hashes, codes, out=out, mode="clip")  # each code names an object
    return _object_hashes(values, out)


def string_hashes_at(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``string_hashes(values[rows])``; an object array is gathered a chunk at a time, so that
    each chunk's ids are listed, joined and let go while they are still in the CPU's cache
    (rows taken across memory, as a run sorted by query takes them, touch each id once).

    Examples
    --------
    >>> ids = np.array(["doc-1", "doc-2", "doc-3"], dtype=object)
    >>> bool((string_hashes_at(ids, np.array([2, 0])) == string_hashes(ids[[2, 0]])).all())
    True
    """
    if not isinstance(values, np.ndarray) or values.dtype != object:
        return string_hashes(values[rows])
    return _object_hashes(values, np.empty(len(rows), dtype=np.uint64), rows)


def _object_hashes(values: np.ndarray, out: np.ndarray, rows: np.ndarray | None = None,
                   prefix: np.ndarray | None = None) -> np.ndarray:
    """The hashes of an object array's ids (of ``values[rows]`` when given) into ``out`` (and
    ``prefix`` words: :func:`_hash_bytes`), ``_OBJECT_CHUNK`` at a time (on one thread
    ``_OBJECT_CHUNK_ALONE`` at most): read in place
    (:mod:`evalkit._str_memory`) until a chunk is refused, then joined (:func:`_utf8_hashes`)."""
    joined = False  # a refused chunk's check cost 5-10% of its join: not paid again after one
    chunk = _chunk_rows(_OBJECT_CHUNK, _OBJECT_CHUNK_ALONE)
    for start in range(0, len(out), chunk):
        stop = start + chunk
        ids = values[start:stop] if rows is None else take_objects(values, rows[start:stop])
        part = None if prefix is None else prefix[:, start:stop]
        in_place = None if joined or not borrowable(ids) else ascii_strings(ids)
        joined = in_place is None
        out[start:stop] = (_utf8_hashes(ids, part) if joined
                           else _hash_bytes(*in_place, part, within=True))
    return out


def object_hashes_and_prefixes(values: np.ndarray,
                               rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`string_hashes` of the ids of an object array of str (of ``values[rows]`` when
    given), each row hashed (none looked up as repeated), and with them the first 16 bytes
    of each id's UTF-8 as two big-endian words (``prefix[0]``, ``prefix[1]``, zero-padded):
    taken from the words the hashing reads anyway, they order ids as strcmp does wherever
    they differ, with no string compared (ids equal in their first 16 bytes, or holding a
    NUL byte there, must be compared as str). TypeError when an id is not a str.

    Examples
    --------
    >>> ids = np.array(["doc-10", "doc-9", "doc-1"], dtype=object)
    >>> hashes, prefix = object_hashes_and_prefixes(ids)
    >>> bool((hashes == string_hashes(ids)).all())
    True
    >>> np.argsort(prefix[0]).tolist()  # strcmp's order: doc-1, doc-10, doc-9
    [2, 0, 1]
    """
    n = len(values) if rows is None else len(rows)
    prefix = np.empty((2, n), dtype=np.uint64)
    return _object_hashes(values, np.empty(n, dtype=np.uint64), rows, prefix), prefix


def borrowable(values: Any) -> bool:
    """Whether ``values`` is an array whose buffer holds its objects' addresses, one after
    the other (a 1-D contiguous object array): :func:`take_objects` borrows from it, and its
    addresses can be read as numbers."""
    return (isinstance(values, np.ndarray) and values.dtype == object and values.ndim == 1
            and values.flags.c_contiguous)


def take_objects(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``values[rows]`` for an object array, as a read-only array that borrows ``values``'
    references instead of taking new ones: only the addresses are gathered, as numbers.

    numpy's gather of objects counts a reference to each object it copies, which writes to
    the object, wherever it lies in memory: about 40 ns an item on long arrays, against 2 ns
    for the addresses (10**6 items). The result keeps ``values`` alive (its objects with it)
    and cannot be written to, so it never frees an object; it is for reading at once (hashing,
    comparing), within a call that leaves ``values`` unchanged, never for returning to a
    user. Other arrays (not object, not contiguous, few rows) are gathered by numpy.

    Examples
    --------
    >>> ids = np.array(["doc-1", "doc-2", "doc-3"], dtype=object)
    >>> take_objects(ids, np.array([2, 0])).tolist()
    ['doc-3', 'doc-1']
    """
    rows = np.asarray(rows)
    if not borrowable(values) or rows.size < _BORROW_MIN:
        return values[rows]
    addresses = np.frombuffer(values, dtype=np.intp)[rows]  # checked as values[rows] is
    return objects_at(addresses, values)


def objects_at(addresses: np.ndarray, owner: np.ndarray) -> np.ndarray:
    """The objects at ``addresses`` (``intp``, read from a :func:`borrowable` array with
    ``np.frombuffer(owner, dtype=np.intp)`` and gathered), all held by the object array
    ``owner``, as a read-only object array that borrows ``owner``'s references (see
    :func:`take_objects`): the addresses offered to numpy as an object array (type "O": the
    memory holds pointers to Python objects), which holds on to them and to ``owner``."""
    addresses = np.ascontiguousarray(addresses, dtype=np.intp)
    return np.asarray(ArrayAt(addresses.ctypes.data, addresses.shape, "|O", (addresses, owner)))


def repeats_objects(values: np.ndarray) -> bool:
    """Whether a long object array holds the same objects many times over (about
    ``ROWS_AN_OBJECT`` times each or more), as an array taken from a vocabulary of ids
    does: hashing each distinct object once then pays. Estimated from the distinct
    references among those that fall in one 64th of a hash of their values (the distinct
    ones of ~n/64 numbers)."""
    n = len(values)
    if values.dtype != object or n < _REPEATS_MIN or not values.flags.c_contiguous:
        return False
    references = np.frombuffer(values, dtype=np.uint64)  # the array's own buffer, no copy
    sampled = []
    for start in range(0, n, _REPEATS_MIN):  # a chunk at a time: small temporaries
        chunk = references[start : start + _REPEATS_MIN]
        spread = chunk * _GOLDEN
        spread >>= np.uint64(58)
        sampled.append(chunk[spread == 0])
    import pandas as pd

    # pandas' hash table: a quarter of np.unique's time on these ~n/64 numbers.
    return pd.unique(np.concatenate(sampled)).size * 64 * ROWS_AN_OBJECT < n


def _object_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A number for each distinct object (reference) of ``values``, in order of address (so
    that reading the objects goes through memory in order), and those objects in that order
    (borrowed from ``values``, see :func:`take_objects`).

    Objects sit at distinct addresses, all multiples of their alignment: when the span of
    the addresses is a small multiple of the number of rows (as for the ids of one
    vocabulary), each address is a slot of a table, which numbers them in two passes.
    When the objects lie in a few stretches of memory far apart (a vocabulary's, with some
    other allocation mapped between two of them), the table covers only the 1 MB pages
    they lie in (see :func:`_page_slots`): tried first once the span is over 2 slots a row,
    and taken when it leaves out half the slots or more (a table costs about 3 ns a slot:
    10^6 rows of 2 * 10^5 objects spanning 5.3 * 10^6 slots, 11.5 ms against about 8 for
    the pages). Otherwise they are factorized, which costs 5-7 times as much (10^6 rows of
    2 * 10^5 objects: 70-95 ms against 13-15). Either way the distinct addresses come out
    of the numbering, so no row is looked for per object.
    """
    addresses = np.frombuffer(values, dtype=np.intp)
    small = np.int32 if values.size < 2**31 else np.intp
    codes = None
    distinct = addresses[:0]
    if addresses.size:
        low, high = int(addresses.min()), int(addresses.max())
        ored = int(np.bitwise_or.reduce(addresses))
        shift = min((ored & -ored).bit_length() - 1, 4) if ored else 0  # the alignment
        span = ((high - low) >> shift) + 1
        most = _SLOTS_PER_ROW * (addresses.size + 8192)
        slot, pages = None, None
        if span > min(_DENSE_SLOTS_PER_ROW * (addresses.size + 8192), most):
            # Beside a table of the addresses, only pages that leave out half of it pay.
            budget = most if span > most else span // 2
            paged = _page_slots(addresses, shift, budget, low, high)
            if paged is not None:
                slot, pages = paged
                span = pages.size << (_PAGE_BITS - shift)
        if slot is None and span <= most:
            slot = addresses - low
            slot >>= shift
        if slot is not None:
            table = np.zeros(span, dtype=small)
            table[slot] = 1
            present = np.flatnonzero(table)  # the distinct objects, in order of address
            table[present] = np.arange(present.size, dtype=small)
            codes = np.take(table, slot, mode="clip")  # table[slot]: each slot in range
            if pages is None:
                distinct = (present << shift) + low
            else:  # each slot's page, and its place in that page
                distinct = pages[present >> (_PAGE_BITS - shift)] << _PAGE_BITS
                distinct += (present & ((1 << (_PAGE_BITS - shift)) - 1)) << shift
    if codes is None:  # addresses spread too wide for a table: factorized
        import pandas as pd

        codes, distinct = pd.factorize(addresses)
        order = np.argsort(distinct)
        rank = np.empty(distinct.size, dtype=small)
        rank[order] = np.arange(distinct.size, dtype=small)
        codes = rank[codes]
        distinct = distinct[order]
    return codes, objects_at(distinct.astype(np.intp, copy=False), values)


def _address_window(known: np.ndarray) -> tuple[int, int] | None:
    """(shift, bits): the lowest shift from 4 to 11 (objects are aligned to 16 bytes at
    least) at which ``(address >> shift) & (2**bits - 1)`` differs for each of the distinct
    ``known`` addresses, ``bits`` giving about 1,000 slots each (2**20 at most: 4 MB). None
    when none does: rare, but objects at one place in two arenas are 2**k MB apart."""
    bits = min(int(known.size).bit_length() + 10, 20)
    mask = (1 << bits) - 1
    for shift in range(4, 12):
        if np.unique((known >> shift) & mask).size == known.size:
            return shift, bits
    return None


def _known_object_codes(values: np.ndarray, known: np.ndarray
                        ) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`_object_codes` for an object array whose objects are expected to be the few
    ``known`` ones (their addresses, distinct: those seen on its first rows), or None when
    some row holds another object, the known objects are over ``_KNOWN_MOST``, or no window
    of their address bits sets them apart (:func:`_address_window`).

    Some window of the address bits (starting a few bits above the alignment, about 1,000
    slots a known object, 2**20 at most) sets the known objects apart: each is a slot of a
    small table, and each row is numbered by the slot its address's bits name, whatever the
    span of the addresses (no pages, no factorizing). Each row is then checked against the
    object its number stands for, so an object that was not known (which may name an empty
    slot or a known object's) is found out, and the caller numbers the column as
    :func:`_object_codes` does. A chunk of rows at a time (in the threads of
    ``_for_each``), whose temporaries stay in cache. At 10^6 rows of 1,000 objects spread
    over 260 MB of memory: about 2 ms against 6-7.
    """
    if known.size > _KNOWN_MOST:
        return None
    known = np.sort(known)
    window = _address_window(known)
    if window is None:
        return None
    shift, bits = window
    mask = (1 << bits) - 1
    known_slots = (known >> shift) & mask
    addresses = np.frombuffer(values, dtype=np.intp)
    small = np.int32 if values.size < 2**31 else np.intp
    table = np.empty(1 << bits, dtype=small)  # slots no known object names: any number
    table[known_slots] = np.arange(known.size, dtype=small)
    codes = np.empty(addresses.size, dtype=small)
    unknown: list[int] = []  # the chunks that hold an object not known

    def one_chunk(start: int) -> None:
        if unknown:  # the column is numbered the other way: the chunks left need not be
            return
        chunk = addresses[start : start + _KNOWN_CHUNK]
        slot = chunk >> shift
        slot &= mask
        np.take(table, slot, out=codes[start : start + _KNOWN_CHUNK], mode="clip")  # in range
        # mode="clip": a row of an unknown object may name an empty slot.
        if not np.array_equal(np.take(known, codes[start : start + _KNOWN_CHUNK], mode="clip"),
                              chunk):
            unknown.append(start)

    _for_each(one_chunk, range(0, addresses.size, _KNOWN_CHUNK))
    return None if unknown else (codes, objects_at(known, values))


def _page_slots(addresses: np.ndarray, shift: int, most: int, low: int | None = None,
                high: int | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """Each address as a slot of a table of the pages (``2**_PAGE_BITS`` bytes each) the
    addresses lie in, the gaps between them left out: the page's rank among them, then the
    address within it (``shift``: the low bits every address has clear). Also those pages
    (their addresses, shifted down by ``_PAGE_BITS``), ascending. None when the table would
    have more than ``most`` slots (the addresses are spread over too many pages).

    ``low`` and ``high``, the least and greatest address, when the caller has them. The pages
    used are flagged in a table of every page between those two when it is no longer than
    the addresses (a few hundred MB apart, as one process's heap), else factorized (a few
    pages terabytes apart): the ids of 1,000 queries in 10^6 rows, 350 MB apart, take 5 ms
    against 7."""
    page = addresses >> _PAGE_BITS
    if low is None or high is None:
        low, high = int(addresses.min()), int(addresses.max())
    first, pages_between = low >> _PAGE_BITS, (high >> _PAGE_BITS) - (low >> _PAGE_BITS) + 1
    if pages_between <= max(addresses.size, 1 << 12):
        page -= first
        used = np.zeros(pages_between, dtype=bool)
        used[page] = True
        pages = np.flatnonzero(used)
        if pages.size << (_PAGE_BITS - shift) > most:
            return None
        rank = np.cumsum(used, dtype=np.intp)
        rank -= 1
        slot = rank[page]
        pages += first
    else:
        import pandas as pd

        page_code, pages = pd.factorize(page)  # few distinct: a small table
        if pages.size << (_PAGE_BITS - shift) > most:
            return None
        order = np.argsort(pages)
        rank = np.empty(pages.size, dtype=np.intp)
        rank[order] = np.arange(pages.size, dtype=np.intp)
        slot = rank[page_code]
        pages = pages[order]
    slot <<= _PAGE_BITS - shift
    within = addresses & ((1 << _PAGE_BITS) - 1)
    within >>= shift
    slot |= within
    return slot, pages


def arrow_string_hashes(array: Any, views: np.ndarray | None = None) -> np.ndarray:
    """:func:`string_hashes` of the ids of a pyarrow ``string`` or ``large_string`` array
    without nulls, read from its buffers (ids of at most 12 bytes from their views, see
    :func:`_short_string_hashes`): no Python str is made, and the hashes equal those of the
    same ids as str (both are hashes of the UTF-8 bytes). ``views``: the ids' string views
    when the caller has them (made here otherwise).

    Examples
    --------
    >>> import pyarrow as pa  # doctest: +SKIP
    >>> ids = ["doc-1", "doc-2"]
    >>> bool((arrow_string_hashes(pa.array(ids))  # doctest: +SKIP
    ...       == string_hashes(np.array(ids, dtype=object))).all())
    True
    """
    n = len(array)
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    hashes = _short_string_hashes(array) if views is None else view_hashes(views)
    if hashes is not None:
        return hashes
    _, offsets, data = array.buffers()
    width = np.int64 if array.type.id == _large_string_id() else np.int32
    offsets = np.frombuffer(offsets, dtype=width)[array.offset : array.offset + n + 1]
    first, last = int(offsets[0]), int(offsets[-1])
    # The bytes of these ids (a copy, padded with the 8 zero bytes _hash_bytes reads past).
    text = np.zeros(last - first + 8, dtype=np.uint8)
    if data is not None:
        text[: last - first] = np.frombuffer(data, dtype=np.uint8)[first:last]
    starts = (offsets[:-1] - first).astype(np.intp)
    return _hash_bytes(text, starts, np.diff(offsets).astype(np.intp))


def _short_string_hashes(array: Any) -> np.ndarray | None:
    """:func:`arrow_string_hashes` of strings of at most 12 bytes each, from their views
    (:func:`~evalkit._arrow_strings.string_views`: each whole in two words), with no gather
    from the offsets (6.7 against 13.7 ms at 10^6 ids of 4 to 9 bytes, one thread). None
    when one is longer, or this pyarrow has no ``string_view``."""
    words = string_views(array)
    return None if words is None else view_hashes(words)


def view_hashes(words: np.ndarray) -> np.ndarray | None:
    """:func:`arrow_string_hashes` of strings of at most 12 bytes each from their views
    (``words``, as :func:`~evalkit._arrow_strings.string_views` gives them); None when one
    is longer."""
    hashes = np.empty(len(words), dtype=np.uint64)
    for start in range(0, len(words), _VIEW_CHUNK):
        view = words[start : start + _VIEW_CHUNK]
        hashed = view_lengths(view)
        if int(hashed.max()) > VIEW_BYTES:
            return None
        hashed *= _MULTIPLIERS[0]
        # Bytes 0-7 and 8-11, zero-padded as in _hash_bytes (a second word of 0 adds 0).
        word = view[:, 0] >> _HALF
        word |= view[:, 1] << _HALF
        word *= _MULTIPLIERS[1]
        _mix(word)
        hashed += word
        word = view[:, 1] >> _HALF
        word *= _MULTIPLIERS[2]
        _mix(word)
        hashed += word
        hashed ^= hashed >> _FOLD
        hashes[start : start + _VIEW_CHUNK] = hashed
    return hashes


def _utf8_hashes(ids: np.ndarray, prefix: np.ndarray | None = None) -> np.ndarray:
    """The hash of each str from its UTF-8 bytes (and its ``prefix`` words: :func:`_hash_bytes`),
    the ids joined into one bytes object in C (``str.join`` checks that each is a str:
    TypeError if not) and read 8 bytes at a time in numpy."""
    part = ids.tolist()
    if not part:
        return np.zeros(0, dtype=np.uint64)
    text = "\0".join(part).encode("utf-8", "surrogatepass")
    data = np.frombuffer(text, dtype=np.uint8)
    ends = np.flatnonzero(data == 0)  # where each id ends; or a NUL inside an id
    if ends.size == len(part) - 1:
        first = np.empty(len(part), dtype=np.intp)
        first[0] = 0
        np.add(ends, 1, out=first[1:])
        length = np.empty(len(part), dtype=np.intp)
        np.subtract(ends, first[:-1], out=length[:-1])
        length[-1] = data.size - first[-1]
    else:  # some id holds a NUL: measure each one (rare)
        length = np.array([len(i.encode("utf-8", "surrogatepass")) for i in part], dtype=np.intp)
        text = "".join(part).encode("utf-8", "surrogatepass")
        first = np.cumsum(length) - length
    return _hash_bytes(text + bytes(8), first, length, prefix)


def joined_bytes(strings: list[str], encoding: str = "utf-8") -> np.ndarray:
    """The strings encoded and joined, as bytes (uint8) followed by the 8 zero bytes that
    :func:`byte_hashes` reads past the end (UnicodeEncodeError if one cannot be encoded)."""
    text = "".join(strings).encode(encoding)
    data = np.zeros(len(text) + 8, dtype=np.uint8)
    data[: len(text)] = np.frombuffer(text, dtype=np.uint8)
    return data


def byte_hashes(data: Any, first: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The hash of each byte string ``data[first:first + length]``: the hash
    :func:`string_hashes` gives the str whose UTF-8 bytes these are. ``data`` (bytes or a
    uint8 array, e.g. a file's bytes) must be followed by 8 zero bytes, which are read past
    the last string. A string's hash does not depend on the others hashed with it.

    Examples
    --------
    >>> data = b"doc-1 doc-22" + bytes(8)
    >>> hashes = byte_hashes(data, np.array([0, 6]), np.array([5, 6]))
    >>> bool((hashes == string_hashes(np.array(["doc-1", "doc-22"], dtype=object))).all())
    True
    """
    return _hash_bytes(data, np.asarray(first, dtype=np.intp), np.asarray(length, dtype=np.intp))


def _hash_bytes(text: Any, first: np.ndarray, length: np.ndarray,
                prefix: np.ndarray | None = None, *, within: bool = False) -> np.ndarray:
    """The hash of each byte string ``text[first:first + length]`` (``text`` padded with 8
    zero bytes at its end). ``within``: no word is read past each string's last (a shorter
    string's word j is read at its last, masked to 0), for strings read in place.

    ``prefix``, when given (uint64, shape ``(2, n)``), gets each string's first two words as
    big-endian numbers, zero-padded: compared as numbers, word 0 then word 1, they order the
    strings as their bytes do wherever they differ in their first 16 bytes.
    """
    # The 8 bytes from each offset of text, as one (unaligned) integer: a view, no copy.
    words = np.ndarray((len(text) - 7,), dtype=np.uint64, buffer=text, strides=(1,))
    if prefix is not None:
        prefix[...] = 0
    hashed = length.astype(np.uint64) * _MULTIPLIERS[0]
    longest, shortest = int(length.max(initial=0)), int(length.min(initial=0))
    multipliers = _multipliers((longest + 7) // 8)
    lengths_up_to_longest = np.arange(longest + 1)
    rows: np.ndarray | None = None  # the ids long enough to have word j (None: all)
    last = first + (length & ~7) if within else words.size - 1  # the last word one may read
    for j in range((longest + 7) // 8):
        # Bytes 8j to 8j + 7 of each id (all of them: a shorter id's are masked to 0), or of
        # just the ids this long once they are few.
        if rows is not None:
            rows = rows[length[rows] > 8 * j]
        elif j and np.count_nonzero(length > 8 * j) < length.size // 4:
            rows = np.flatnonzero(length > 8 * j)
        if rows is None:
            at, lengths = (first + 8 * j if j else first), length
        else:
            at, lengths = first[rows] + 8 * j, length[rows]
        if j and 8 * j >= shortest:  # a short id near the end would read past it
            np.minimum(at, last[rows] if within and rows is not None else last, out=at)
        word = words[at]
        if 8 * (j + 1) > shortest:  # some id ends in this word: drop the next id's bytes
            # The mask for each length (a small table), then each id's.
            word &= BYTE_MASKS[np.clip(lengths_up_to_longest - 8 * j, 0, 8)][lengths]
        if prefix is not None and j < 2:  # the bytes in order: the word read big-endian
            if rows is None:
                prefix[j] = word.view(_BIG_ENDIAN)
            else:
                prefix[j, rows] = word.view(_BIG_ENDIAN)
        word *= multipliers[j + 1]
        _mix(word)
        if rows is None:
            hashed += word
        else:
            hashed[rows] += word
    # The top bits of a sum of products depend on every byte; fold them into the low bits.
    hashed ^= hashed >> _FOLD
    return hashed


def _fixed_width_hashes(values: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """:func:`_hash_bytes` of each item's raw bytes (each row's, for a 2-D array), all of one
    length: the words are strided views of the array, read column by column, no gathers.

    Little-endian words, as in :func:`_hash_bytes`: the last, partial word of an item is its
    last 8 bytes shifted down, which equals those bytes masked.
    """
    raw = np.ascontiguousarray(values)
    n = raw.shape[0]
    data = raw.reshape(-1).view(np.uint8)
    size = data.size // n if n else 0
    if out is None:
        out = np.empty(n, dtype=np.uint64)
    # The length's term, as in _hash_bytes: one number, as every item has the same length.
    length_term = np.uint64(size * int(_MULTIPLIERS[0]) % 2**64)
    full, tail = divmod(size, 8)
    if not full:
        out.fill(length_term)
    if n == 0 or size == 0:
        out ^= out >> _FOLD
        return out
    multipliers = _multipliers(full + (tail > 0))
    product = np.empty(n, dtype=np.uint64)
    for j in range(full):
        word = np.ndarray((n,), dtype=np.uint64, buffer=data, offset=8 * j, strides=(size,))
        if j == 0:
            np.multiply(word, multipliers[1], out=out)
            _mix(out)
            out += length_term
            continue
        np.multiply(word, multipliers[j + 1], out=product)
        _mix(product)
        out += product
    if tail:
        if full:  # the item's last 8 bytes, the tail at their top
            word = np.ndarray((n,), dtype=np.uint64, buffer=data, offset=size - 8,
                              strides=(size,))
            np.right_shift(word, np.uint64(8 * (8 - tail)), out=product)
        else:  # items shorter than a word: zero-padded to one
            padded = np.zeros((n, 8), dtype=np.uint8)
            padded[:, :size] = data.reshape(n, size)
            product[:] = padded.view(np.uint64)[:, 0]
        product *= multipliers[full + 1]
        _mix(product)
        out += product
    out ^= out >> _FOLD
    return out
