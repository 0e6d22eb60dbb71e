"""evalkit._hashing: the one vectorised string hash, and a check that it stays the only one."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek
from evalkit import _counting, _hashing

TEXT = st.text(st.characters() | st.sampled_from(["\0", "é", "😀", "中"]), max_size=20)


def raw_byte_hashes(values: np.ndarray) -> np.ndarray:
    """The byte-string hash of each item's raw bytes, item by item through ``_hash_bytes``."""
    size = values.dtype.itemsize
    raw = np.ascontiguousarray(values).tobytes()
    return np.array([int(_hashing._hash_bytes(raw[i * size : (i + 1) * size] + bytes(8),
                                              np.array([0]), np.array([size]))[0])
                     for i in range(len(values))], dtype=np.uint64)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.lists(TEXT.filter(lambda s: "\0" not in s), min_size=1, max_size=20),
       st.integers(0, 9))
def test_fixed_width_strings_hash_as_the_bytes_of_their_items(values, extra):
    # Fixed-width arrays are read a word column at a time; the hash must be the byte-string
    # hash of each item (the code points, zero-padded to the width), whatever the width
    # (multiple of 8 bytes or not, under 8 bytes), and the same for the words of each row.
    width = max(1, max(map(len, values))) + extra
    array = np.array(values, dtype=f"<U{width}")
    expected = raw_byte_hashes(array)
    np.testing.assert_array_equal(_hashing.string_hashes(array), expected)
    np.testing.assert_array_equal(_hashing.string_hashes(array.view(np.uint32)
                                                         .reshape(len(array), width)), expected)
    if width % 2 == 0:
        words = array.view(np.uint64).reshape(len(array), width // 2)
        np.testing.assert_array_equal(_hashing.string_hashes(words), expected)
    out = np.empty(len(array), dtype=np.uint64)
    assert _hashing.string_hashes(array, out=out) is out
    np.testing.assert_array_equal(out, expected)
    # Equal strings, equal hashes; different strings, different hashes (a collision here
    # would show a weak hash).
    distinct = dict(zip(array.tolist(), expected.tolist(), strict=True))
    assert len(set(distinct.values())) == len(distinct)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.lists(TEXT, min_size=1, max_size=20))
def test_variable_length_strings_hash_from_their_utf8_bytes(values):
    objects = np.array(values, dtype=object)
    expected = [int(_hashing._hash_bytes(v.encode() + bytes(8), np.array([0]),
                                         np.array([len(v.encode())]))[0]) for v in values]
    assert _hashing.string_hashes(objects).tolist() == expected
    # numpy's variable-width string dtype hashes as the same str objects do.
    strings = np.array(values, dtype=np.dtypes.StringDType())
    assert _hashing.string_hashes(strings).tolist() == expected


@pytest.mark.parametrize("intruder", [None, 1, 1.5, b"bytes", np.nan])
def test_an_object_array_with_a_non_string_raises_type_error(intruder):
    # The TREC engine relies on it: a TypeError sends it to the column check, which converts
    # whole numbers and names a missing id (ValueError naming the column).
    with pytest.raises(TypeError):
        _hashing.string_hashes(np.array(["a", intruder, "b"], dtype=object))


def test_a_missing_doc_id_met_while_hashing_is_named_with_its_column():
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query_id": "1", "doc_id": np.array(["a", None, "c"], dtype=object),
                        "score": [3.0, 2.0, 1.0]})
    with pytest.raises(ValueError, match=r"run\['doc_id'\] is missing .* in row 1"):
        ek.evaluate(qrels, run, ["AP"])
    whole = run.assign(doc_id=np.array(["a", 7, "c"], dtype=object))
    assert ek.evaluate(qrels, whole, ["NumRet"]).loc["1", "NumRet"] == 3


def test_empty_and_zero_width_arrays():
    for values in (np.array([], dtype=object), np.array([], dtype="<U3"),
                   np.zeros((0, 2), dtype=np.uint64)):
        assert _hashing.string_hashes(values).tolist() == []
    empty = _hashing.string_hashes(np.array(["", ""]))  # dtype <U1: one zero code point each
    assert empty[0] == empty[1]


def test_the_label_encoding_buckets_labels_by_the_top_bits_of_the_one_hash():
    # Labels that differ in a character or two must spread over the 2**20 buckets (the low
    # bits of the unmixed sum of products would not: they see only the low bytes of each
    # word, and collide by the hundred here). About 4 collisions are expected of random
    # buckets; a collision costs a fall back to np.unique, never a wrong count.
    for labels in ([f"label-{i}" for i in range(3000)], [f"{i}-label" for i in range(3000)],
                   [f"doc{i:06d}" for i in range(3000)]):
        array = np.array(labels)
        buckets = _counting._hash_block(_counting._words(array, array.dtype.itemsize),
                                        np.empty(len(array), dtype=np.uint64))
        np.testing.assert_array_equal(buckets, _hashing.string_hashes(array) >> np.uint64(44))
        assert len(array) - np.unique(buckets).size <= 12


def _watch_page_slots(monkeypatch) -> list[tuple[tuple, Any]]:
    """The calls of ``_hashing._page_slots`` from now on, each as (arguments, result)."""
    calls: list[tuple[tuple, Any]] = []
    page_slots = _hashing._page_slots

    def watched(*args):
        calls.append((args, page_slots(*args)))
        return calls[-1][1]

    monkeypatch.setattr(_hashing, "_page_slots", watched)
    return calls


def _vocabulary_rows(seed: int) -> np.ndarray:
    """20,000 rows drawn from a vocabulary of 3,000 str objects."""
    rng = np.random.default_rng(seed)
    vocabulary = np.array([f"doc-{i}" for i in range(3_000)], dtype=object)
    return vocabulary[rng.integers(0, vocabulary.size, 20_000)]


@pytest.mark.parametrize("route", ["table", "pages", "factorize"])
@pytest.mark.parametrize("vocabulary_size", [1, 50, 3_000])
def test_object_codes_number_each_object_once_in_order_of_address(
        monkeypatch, route, vocabulary_size):
    # The three ways of numbering the objects give each distinct object (not each distinct
    # str: equal copies are distinct objects) one code, in order of address, and return
    # those objects in that order; and the hashes taken through them are those of every row.
    # "pages": pages of 16 bytes, one object's each, and too few slots for the span of the
    # addresses but enough for a table of the pages: 1.5 a distinct object. A str here takes
    # 48 bytes or more, so n objects span at least 3n - 2 slots, over 1.5n for any n >= 2
    # however they lie (with 2.5, the two objects of vocabulary 1 side by side spanned 4 or
    # 5 slots, and took the table: a test that failed by where they happened to lie).
    rng = np.random.default_rng(vocabulary_size)
    vocabulary = [f"doc-{i}" for i in range(vocabulary_size)]
    vocabulary += [str(v).upper().lower() for v in vocabulary[:5]]  # equal text, new objects
    values = np.array(vocabulary, dtype=object)[rng.integers(0, len(vocabulary), 20_000)]
    distinct = len({id(v) for v in values.tolist()})
    slots_per_row = {"table": 8, "factorize": 0,
                     "pages": 1.5 * distinct / (values.size + 8192)}[route]
    monkeypatch.setattr(_hashing, "_SLOTS_PER_ROW", slots_per_row)
    paged = []
    if route == "pages":
        monkeypatch.setattr(_hashing, "_PAGE_BITS", 4)
        paged = _watch_page_slots(monkeypatch)
    codes, objects = _hashing._object_codes(values)
    assert (route == "pages") == (len(paged) == 1 and paged[0][1] is not None)
    by_address = sorted({id(v): v for v in values.tolist()}.items())
    assert objects.size == len(by_address) and not objects.flags.writeable
    assert [id(v) for v in objects.tolist()] == [address for address, _ in by_address]
    assert [id(v) for v in values.tolist()] == [by_address[c][0] for c in codes.tolist()]
    every_row = [int(_hashing.string_hashes(np.array([v], dtype=object))[0])
                 for v in values[:300].tolist()]
    monkeypatch.setattr(_hashing, "_REPEATS_MIN", 1 << 12)  # hashed through the codes
    assert _hashing.repeats_objects(values)
    assert _hashing.string_hashes(values)[:300].tolist() == every_row
    empty = _hashing._object_codes(np.array([], dtype=object))
    assert empty[0].size == empty[1].size == 0


@pytest.mark.parametrize("stretches", [
    [0x55D0_0000_0000, 0x7F10_0000_0000, 0x7F3A_0010_0000],  # terabytes apart: factorized
    [0x55D0_0000_0000, 0x55D0_0A00_0000, 0x55D0_1230_0000],  # MBs apart: a table of pages
])
@pytest.mark.parametrize("bounds", [False, True])
def test_page_slots_keep_the_order_of_addresses_and_leave_out_the_gaps(stretches, bounds):
    # Addresses in three stretches: each slot is its page's rank among the pages used, then
    # its place in that page; equal addresses share a slot; the pages come back ascending.
    # Too many pages for the slots allowed: None. The pages used are found by factorizing
    # (stretches terabytes apart) or flagged in a table of every page in the range (a few
    # hundred MB, as one process's heap); the least and greatest address may be given.
    rng = np.random.default_rng(5)
    addresses = (rng.choice(np.array(stretches), 5_000)
                 + rng.integers(0, 3 << 20, 5_000) * 16)
    extremes = (int(addresses.min()), int(addresses.max())) if bounds else ()
    slot, pages = _hashing._page_slots(addresses, 4, 1 << 30, *extremes)
    np.testing.assert_array_equal(pages, np.unique(addresses >> 20))
    order = np.argsort(addresses, kind="stable")
    assert np.all(np.diff(slot[order]) >= 0)  # ascending with the addresses
    assert np.unique(slot).size == np.unique(addresses).size
    np.testing.assert_array_equal(
        (pages[slot >> 16] << 20) + ((slot & 0xFFFF) << 4), addresses)
    assert slot.max() < pages.size << 16
    assert _hashing._page_slots(addresses, 4, (pages.size << 16) - 1, *extremes) is None
    assert _hashing._page_slots(addresses, 4, pages.size << 16, *extremes) is not None


@pytest.mark.parametrize("wide", [True, False])
def test_object_codes_give_the_pages_every_slot_only_where_the_addresses_do_not_fit(
        monkeypatch, wide):
    # Too wide for a table of the addresses (over _SLOTS_PER_ROW slots a row), the pages are
    # taken whenever their table fits in the slots allowed, even when it leaves out less
    # than half the span: the other way is factorizing, 5-7 times as slow. Beside a table
    # of the addresses they may have half the span's slots at most.
    values = _vocabulary_rows(7)
    addresses = np.frombuffer(values, dtype=np.intp)
    span = ((int(addresses.max()) - int(addresses.min())) >> 4) + 1
    most = 3 * span // 4 if wide else 2 * span
    monkeypatch.setattr(_hashing, "_SLOTS_PER_ROW", most / (values.size + 8192))
    monkeypatch.setattr(_hashing, "_DENSE_SLOTS_PER_ROW", 0)  # pages tried first
    calls = _watch_page_slots(monkeypatch)
    codes, _ = _hashing._object_codes(values)
    assert [args[2] for args, _ in calls] == [pytest.approx(most if wide else span // 2)]
    by_address = sorted({id(v): v for v in values.tolist()})
    assert [id(v) for v in values.tolist()] == [by_address[c] for c in codes.tolist()]


@pytest.mark.parametrize("page_bits", [4, 20])
def test_object_codes_take_the_pages_only_when_they_leave_out_half_the_span(
        monkeypatch, page_bits):
    # Past _DENSE_SLOTS_PER_ROW slots a row (0 here: always) the table of pages is tried
    # first, and taken when it has at most half the slots of the addresses' span: pages of
    # 16 bytes (one per object start; a str takes 48 bytes or more) leave out two thirds of
    # it; 1 MB pages hold the whole vocabulary and more, and the table of addresses is
    # used, unless the vocabulary lies split between pages far apart (as where it was
    # made happens to leave it): the rule is checked on the addresses as they lie. Either
    # way every object gets one code, in order of address.
    monkeypatch.setattr(_hashing, "_DENSE_SLOTS_PER_ROW", 0)
    monkeypatch.setattr(_hashing, "_PAGE_BITS", page_bits)
    calls = _watch_page_slots(monkeypatch)
    values = _vocabulary_rows(page_bits)
    addresses = np.frombuffer(values, dtype=np.intp)
    span = ((int(addresses.max()) - int(addresses.min())) >> 4) + 1
    most = _hashing._SLOTS_PER_ROW * (values.size + 8192)
    page_slots = np.unique(addresses >> page_bits).size << (page_bits - 4)
    paged = page_slots <= (most if span > most else span // 2)
    assert paged or page_bits != 4  # pages of 16 bytes pay whatever the layout
    codes, objects = _hashing._object_codes(values)
    assert len(calls) == 1 and (calls[0][1] is not None) == paged
    by_address = sorted({id(v): v for v in values.tolist()})
    assert [id(v) for v in objects.tolist()] == by_address
    assert [id(v) for v in values.tolist()] == [by_address[c] for c in codes.tolist()]


@pytest.mark.parametrize("rows_an_object", [4, 20, 2_000])
def test_one_rule_says_when_objects_recur(monkeypatch, rows_an_object):
    # An object array of 200,000 rows of 1,000 objects (200 rows each, interleaved) repeats
    # its objects when ROWS_AN_OBJECT is well under that, for hashing (repeats_objects,
    # which estimates it) and for numbering an interleaved query column (_coded_ids) alike:
    # by object when they recur, else by their strings (_short_ids or _factorized_ids, see
    # test_evaluate_shapes; here made to decline, so that only the object route numbers).
    from evalkit.trec import _tables

    monkeypatch.setattr(_hashing, "ROWS_AN_OBJECT", rows_an_object)
    monkeypatch.setattr(_tables, "_short_ids", lambda values: None)
    factorized = []
    monkeypatch.setattr(_tables, "_factorized_ids", lambda values: factorized.append(values.size))
    rng = np.random.default_rng(1)
    vocabulary = np.array([f"q{i}" for i in range(1_000)], dtype=object)
    values = vocabulary[rng.integers(0, vocabulary.size, 200_000)]
    coded, _ = _tables._coded_ids(pd.Series(values, dtype=object))
    assert _hashing.repeats_objects(values) == (rows_an_object < 200)
    assert (coded is not None) == (rows_an_object < 200)
    assert factorized == ([] if rows_an_object < 200 else [values.size])


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("chunk", [1_000, 1 << 16])
@pytest.mark.parametrize("vocabulary_size", [1, 7, 1_000])
def test_known_object_codes_are_the_object_codes(monkeypatch, chunk, vocabulary_size, threads):
    # Told every object of the column (in any order), the numbering by a window of the
    # address bits gives the codes and objects of _object_codes, a chunk of rows at a time,
    # on one thread or several.
    monkeypatch.setenv("EVALKIT_THREADS", threads)
    rng = np.random.default_rng(vocabulary_size)
    vocabulary = np.array([f"q{i}" for i in range(vocabulary_size)], dtype=object)
    values = vocabulary[rng.integers(0, vocabulary.size, 20_000)]
    monkeypatch.setattr(_hashing, "_KNOWN_CHUNK", chunk)
    known = pd.unique(np.frombuffer(values, dtype=np.intp))
    coded = _hashing._known_object_codes(values, rng.permutation(known))
    if _hashing._address_window(np.sort(known)) is None:  # rare: see _address_window
        assert coded is None
        return
    codes, objects = coded
    expected_codes, expected_objects = _hashing._object_codes(values)
    np.testing.assert_array_equal(codes, expected_codes)
    assert [id(v) for v in objects.tolist()] == [id(v) for v in expected_objects.tolist()]
    assert not objects.flags.writeable


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
@pytest.mark.parametrize("twin", [False, True])
def test_known_object_codes_find_out_an_object_not_known(monkeypatch, where, twin, threads):
    # A row holding an object that was not known (in the first, a middle or the last chunk
    # of rows) gives None, whether its address's slot is empty or a known object's; so
    # does a row whose object is an equal str of another object. On one thread or several.
    monkeypatch.setenv("EVALKIT_THREADS", threads)
    monkeypatch.setattr(_hashing, "_KNOWN_CHUNK", 4_096)
    rng = np.random.default_rng(3)
    vocabulary = np.array([f"q{i}" for i in range(200)], dtype=object)
    values = vocabulary[rng.integers(0, 150, 20_000)]
    known = pd.unique(np.frombuffer(values, dtype=np.intp))
    at = {"first": 5, "middle": 10_000, "last": 19_999}[where]
    values[at] = "".join(["q", "3"]) if twin else vocabulary[170]
    assert _hashing._known_object_codes(values, known) is None
    values[at] = vocabulary[3]
    coded = _hashing._known_object_codes(values, known)
    assert (coded is None) == (_hashing._address_window(np.sort(known)) is None)


def test_known_object_codes_give_up_when_no_window_of_bits_sets_the_objects_apart(
        monkeypatch):
    # Addresses that agree on every window tried (2**40 bytes apart), or more known objects
    # than _KNOWN_MOST: None, before any row is read; the caller then numbers the column as
    # _object_codes does.
    values = np.array(["a", "b"], dtype=object)
    addresses = np.frombuffer(values, dtype=np.intp)
    assert _hashing._known_object_codes(
        values, np.array([addresses[0], addresses[0] + (1 << 40)], dtype=np.intp)) is None
    assert _hashing._known_object_codes(values, addresses) is not None
    monkeypatch.setattr(_hashing, "_KNOWN_MOST", 1)
    assert _hashing._known_object_codes(values, addresses) is None


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(1, 300), st.integers(1, 300), st.integers(0, 2**32 - 1))
def test_known_object_codes_are_right_or_none(vocabulary_size, known_size, seed):
    # Whatever part of the objects is known: the codes of _object_codes, or None when some
    # row's object is not known, or (rarely, as the addresses fall) when no window of the
    # address bits sets the known objects apart.
    rng = np.random.default_rng(seed)
    vocabulary = np.array([f"d{i}" for i in range(vocabulary_size)], dtype=object)
    values = vocabulary[rng.integers(0, vocabulary.size, 3_000)]
    addresses = pd.unique(np.frombuffer(values, dtype=np.intp))
    known = rng.permutation(addresses)[:known_size]
    coded = _hashing._known_object_codes(values, known)
    if known.size < addresses.size:
        assert coded is None
    elif _hashing._address_window(np.sort(known)) is None:  # rare: see _address_window
        assert coded is None
    else:
        np.testing.assert_array_equal(coded[0], _hashing._object_codes(values)[0])


@pytest.mark.parametrize(("apart", "expected"), [
    (16, (4, 12)),          # the lowest window tells them apart
    (1 << 20, (9, 12)),     # bit 20: in the window once 9 + 12 bits reach it
    (1 << 23, None),        # bit 23: beyond 11 + 12 bits, no window tells them apart
])
def test_address_window_is_the_lowest_that_sets_the_addresses_apart(apart, expected):
    # Two addresses (so 2 + 10 = 12 bits a window): the window must hold a bit in which
    # they differ; objects 2**20 bytes apart (the same place in two arenas) first differ
    # at bit 20. A hundred addresses 48 bytes apart need 7 + 10 = 17 bits, from bit 4.
    base = 0x7F00_0000_0000
    assert _hashing._address_window(np.array([base, base + apart], dtype=np.intp)) == expected
    assert _hashing._address_window(base + 48 * np.arange(100, dtype=np.intp)) == (4, 17)


@pytest.mark.parametrize("chunk", [3, 1 << 14])
@pytest.mark.parametrize("seed", range(6))
def test_prefixes_are_the_first_16_bytes_and_the_hashes_unchanged(monkeypatch, seed, chunk):
    # object_hashes_and_prefixes: the hashes string_hashes gives, and each id's first 16
    # UTF-8 bytes (zero-padded) as two big-endian numbers; over several chunks, at rows,
    # with NUL bytes, surrogates and characters of 1-4 bytes, and with mostly short ids and
    # a few long ones (whose second word _hash_bytes reads for those rows only).
    monkeypatch.setattr(_hashing, "_OBJECT_CHUNK", chunk)
    monkeypatch.setattr(_hashing, "_BORROW_MIN", 2)
    rng = np.random.default_rng(seed)
    alphabet = list("ab0\0é€😀") + ["\ud800"]
    if seed % 2:  # mostly up to 8 bytes, a few long
        lengths = np.where(rng.random(300) < 0.1, rng.integers(9, 30, 300),
                           rng.integers(0, 5, 300))
    else:
        lengths = rng.integers(0, 25, 300)
    ids = np.array(["".join(rng.choice(alphabet, k)) for k in lengths], dtype=object)
    rows = rng.integers(0, ids.size, 200)
    for at in (None, rows):
        hashes, prefix = _hashing.object_hashes_and_prefixes(ids, at)
        chosen = ids if at is None else ids[at]
        assert hashes.tolist() == _hashing.string_hashes(chosen).tolist()
        head = [i.encode("utf-8", "surrogatepass")[:16].ljust(16, b"\0") for i in chosen]
        assert prefix[0].tolist() == [int.from_bytes(h[:8], "big") for h in head]
        assert prefix[1].tolist() == [int.from_bytes(h[8:], "big") for h in head]
    with pytest.raises(TypeError):
        _hashing.object_hashes_and_prefixes(np.array(["a", 3], dtype=object))


@pytest.mark.parametrize("threads", ["1", "2"])
def test_object_chunks_are_sized_by_the_threads(monkeypatch, threads):
    # _chunk_rows: the larger chunk where evalkit may use several threads, at most the
    # smaller on one; the hashes are the same whichever size cuts the ids.
    from evalkit._threads import _chunk_rows

    monkeypatch.setenv("EVALKIT_THREADS", threads)
    assert _chunk_rows(64, 8) == (64 if threads == "2" else 8)
    assert _chunk_rows(4, 8) == 4
    rng = np.random.default_rng(9)
    ids = np.array([f"doc-{i}" + "é" * int(i % 3 == 0) for i in rng.integers(0, 10**6, 100)],
                   dtype=object)
    whole = _hashing.string_hashes(ids, repeated=False).tolist()
    monkeypatch.setattr(_hashing, "_OBJECT_CHUNK", 16)
    monkeypatch.setattr(_hashing, "_OBJECT_CHUNK_ALONE", 5)
    assert _hashing.string_hashes(ids, repeated=False).tolist() == whole
    rows = rng.integers(0, ids.size, 70)
    assert _hashing.string_hashes_at(ids, rows).tolist() == [whole[r] for r in rows]


@pytest.mark.parametrize("kind", ["object", "U", "StringDType"])
def test_hashes_at_some_rows_are_those_of_the_rows_gathered(monkeypatch, kind):
    monkeypatch.setattr(_hashing, "_OBJECT_CHUNK", 7)  # rows gathered over several chunks
    monkeypatch.setattr(_hashing, "_BORROW_MIN", 2)  # the chunks' objects borrowed
    rng = np.random.default_rng(4)
    ids = [f"d{i}é" * int(k) for i, k in enumerate(rng.integers(1, 5, 60))]
    values = np.array(ids, dtype={"object": object, "U": str,
                                  "StringDType": np.dtypes.StringDType()}[kind])
    for rows in (rng.permutation(60), rng.integers(0, 60, 25), np.zeros(0, dtype=np.intp)):
        expected = _hashing.string_hashes(values[rows])
        assert _hashing.string_hashes_at(values, rows).tolist() == expected.tolist()
    with pytest.raises(TypeError):
        _hashing.string_hashes_at(np.array(["a", 3, "b"], dtype=object), np.array([2, 1]))


def test_taking_objects_borrows_their_references_and_gives_what_numpy_gives():
    import gc
    import sys

    rng = np.random.default_rng(5)
    values = np.array([f"doc-{i}" * int(k) for i, k in enumerate(rng.integers(1, 4, 500))]
                      + [None, 3.5, ("a",)], dtype=object)
    n = values.size
    counts = [sys.getrefcount(v) for v in values if v is not None]  # None's count moves
    for rows in (rng.permutation(n), rng.integers(-n, n, 900), rng.random(n) < 0.5,
                 np.arange(n)[::-1], np.zeros(0, dtype=np.intp), rng.integers(0, n, 70)):
        taken = _hashing.take_objects(values, rows)
        expected = values[rows]
        assert taken.dtype == object and taken.shape == expected.shape
        assert all(a is b for a, b in zip(taken, expected, strict=True))
        if rows.size >= _hashing._BORROW_MIN:
            assert not taken.flags.writeable  # so it never frees an object
            with pytest.raises(ValueError):
                taken[0] = "other"
        del taken, expected
    gc.collect()
    # No reference taken or dropped:
    assert [sys.getrefcount(v) for v in values if v is not None] == counts
    # The borrowed array holds the original, whose objects outlive the name.
    made = np.array([f"id{i}" * 3 for i in range(200)], dtype=object)
    taken = _hashing.take_objects(made, np.arange(199, -1, -1))
    del made
    gc.collect()
    assert taken[0] == "id199" * 3 and taken.tolist()[-1] == "id0" * 3
    with pytest.raises(IndexError):
        _hashing.take_objects(values, np.array([0, n] * 40))
    # Not a contiguous object array: numpy's gather.
    strided = values[::2]
    rows = rng.integers(0, strided.size, 100)
    assert _hashing.take_objects(strided, rows).flags.writeable
    assert _hashing.take_objects(strided, rows).tolist() == strided[rows].tolist()
    numbers = np.arange(float(strided.size))
    assert _hashing.take_objects(numbers, rows).tolist() == numbers[rows].tolist()


def test_string_classes_come_in_order_of_first_appearance_whatever_the_hash(monkeypatch):
    # encode promises string classes in order of first appearance; the order must not
    # depend on the hash (it shows, e.g., in the error that lists labels missing from y_proba).
    y_true = np.array(["pear", "apple", "fig", "kiwi", "apple", "plum", "lime"])
    y_pred = np.array(["fig", "date", "pear", "pear", "kiwi", "fig", "fig"])
    appearance = ["pear", "apple", "fig", "kiwi", "plum", "lime", "date"]
    real = _hashing.string_hashes
    for flip in (0, 2**64 - 1):  # the real hash, and one that reverses the bucket order
        monkeypatch.setattr(_counting, "string_hashes",
                            lambda values, out=None, flip=flip: np.bitwise_xor(
                                real(values, out=out), np.uint64(flip), out=out))
        classes, true_codes, pred_codes = _counting.encode(y_true, y_pred)
        assert classes.tolist() == appearance
        assert classes[true_codes].tolist() == y_true.tolist()
        assert classes[pred_codes].tolist() == y_pred.tolist()
    monkeypatch.undo()
    with pytest.raises(ValueError, match=r"not columns of y_proba: \['pear', 'apple', 'fig', "):
        ek.brier_score(y_true, np.full((7, 2), 0.5), labels=["x", "y"])


# ---------------------------------------------------------------------------------------------
# One hash: no second vectorised string hash in evalkit
# ---------------------------------------------------------------------------------------------

EVALKIT = Path(ek.__file__).parent
HASHING = EVALKIT / "_hashing.py"


def second_hashes(source: str) -> list[str]:
    """What in ``source`` (a module other than _hashing) looks like a hash of its own.

    - an integer literal of 2**32 or more (the odd 64-bit multipliers and mixing constants
      that every multiplicative string hash needs);
    - a module-level name for hash multipliers, mixers or byte masks;
    - a function named for hashing that neither calls ``string_hashes`` nor is a
      cryptographic digest (hashlib, hmac);
    - a function that encodes text and reads the bytes as numbers (``np.frombuffer``).
    """
    found = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and type(node.value) is int
                and node.value >= 2**32):
            found.append(f"line {node.lineno}: the constant {node.value:#x}")
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        for target in targets:
            if isinstance(target, ast.Name) and any(
                    word in target.id.upper() for word in ("MULTIPLIER", "MIX", "BYTE_MASK")):
                found.append(f"line {node.lineno}: {target.id}")
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
        if "hash" in node.name.lower() and not names & {"string_hashes", "hashlib", "hmac"}:
            found.append(f"line {node.lineno}: {node.name}() hashes without string_hashes")
        if {"encode", "frombuffer"} <= names:
            found.append(f"line {node.lineno}: {node.name}() reads encoded text as numbers")
    return found


def test_evalkit_has_one_vectorised_string_hash():
    offenders = {
        str(path.relative_to(EVALKIT)): second_hashes(path.read_text(encoding="utf-8"))
        for path in sorted(EVALKIT.rglob("*.py")) if path != HASHING
    }
    offenders = {path: found for path, found in offenders.items() if found}
    assert not offenders, (f"a second string hash outside evalkit/_hashing.py: {offenders}; "
                           "use evalkit._hashing.string_hashes")
    assert second_hashes(HASHING.read_text(encoding="utf-8"))  # the check sees the real one


def test_the_one_hash_check_finds_the_hashes_it_replaced():
    # The label encoding's own hash before issue 31, and a byte-wise FNV-1a: both caught.
    counting_before = '''
_MIX = np.uint64(0x9E3779B97F4A7C15)
_MULTIPLIERS = np.random.default_rng(0x5EED).integers(1, 2**63, 32, dtype=np.uint64)

def _hash_block(block, out):
    np.multiply(block[:, 0], _MULTIPLIERS[0], out=out, casting="unsafe")
    out ^= out >> np.uint64(31)
    out *= _MIX
    return out.astype(np.intp)
'''
    fnv = '''
def _label_keys(labels):
    data = np.frombuffer("\\0".join(labels).encode(), dtype=np.uint8)
    keys = np.full(len(labels), 0xCBF29CE484222325, dtype=np.uint64)
    return keys
'''
    assert len(second_hashes(counting_before)) == 4
    assert len(second_hashes(fnv)) == 2
    uses_the_one = '''
def _hash_block(block, out):
    string_hashes(block, out=out)
    return out
'''
    assert second_hashes(uses_the_one) == []


def test_distinct_objects_are_hashed_once_even_if_called_repeated(monkeypatch):
    # repeats_objects is an estimate from a sample of addresses: it can call an array of
    # distinct objects repeated (rarely, for short arrays). string_hashes then numbers the
    # objects and hashes each distinct one once, which must not ask the estimate again
    # (that recursed without end, about 1 run in 100 of a test with a low threshold).
    from evalkit import _hashing

    monkeypatch.setattr(_hashing, "repeats_objects", lambda values: True)
    ids = np.array([f"d{i % 70}" for i in range(300)], dtype=object)
    expected = np.array([_hashing._utf8_hashes(ids[i:i + 1])[0] for i in range(ids.size)])
    assert _hashing.string_hashes(ids).tolist() == expected.tolist()


@pytest.mark.parametrize("repeated", [None, True, False])
def test_string_hashes_are_the_same_whether_objects_are_numbered_or_not(repeated):
    # repeated=True numbers the distinct objects and hashes each once, False hashes every
    # row, None lets repeats_objects choose: the same hashes for a column of a vocabulary's
    # objects, of copies of them, and of distinct ids.
    rng = np.random.default_rng(9)
    vocabulary = np.array([f"doc-{i}" for i in range(300)] + ["é☃", ""], dtype=object)
    repeated_ids = vocabulary[rng.integers(0, vocabulary.size, 100_000)]
    copies = np.array([i + "" for i in repeated_ids.tolist()], dtype=object)
    for ids in (repeated_ids, copies, vocabulary):
        expected = np.concatenate([_hashing._utf8_hashes(ids[i:i + 1000])
                                   for i in range(0, ids.size, 1000)])
        assert _hashing.string_hashes(ids, repeated=repeated).tolist() == expected.tolist()
