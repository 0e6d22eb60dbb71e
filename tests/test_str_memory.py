"""evalkit._str_memory: str ids read where they lie must hash as their joined UTF-8 bytes do,
be read only from their own objects, and be refused whenever they are not compact ASCII str."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import _hashing, _str_memory

CPYTHON = (sys.implementation.name == "cpython" and sys.byteorder == "little"
           and not sysconfig.get_config_var("Py_GIL_DISABLED"))
ASCII = st.text(st.characters(max_codepoint=127), max_size=40)


def joined_hashes(ids: np.ndarray, monkeypatch: pytest.MonkeyPatch
                  ) -> tuple[np.ndarray, np.ndarray]:
    """object_hashes_and_prefixes with the ids joined (the reading in place turned off)."""
    with monkeypatch.context() as patch:
        patch.setattr(_hashing, "ascii_strings", lambda ids: None)
        return _hashing.object_hashes_and_prefixes(ids)


def made(values: list[str]) -> np.ndarray:
    """An object array of new str objects of these values (made at run time, not the
    literals' interned constants)."""
    return np.array(["".join(["", v]) for v in values], dtype=object)


@pytest.mark.skipif(not CPYTHON, reason="the layout read is CPython's, with a GIL")
def test_this_cpython_is_recognised():
    assert _str_memory._layout() == sys.getsizeof("") - 1


@pytest.mark.skipif(not CPYTHON, reason="the layout read is CPython's, with a GIL")
@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(ASCII, min_size=1, max_size=60), st.data())
def test_ascii_ids_read_in_place_hash_as_their_joined_bytes(values, data):
    # Every length from 0 to 40 bytes (NULs included, which the join path must look for),
    # and ids taken at rows (borrowed references): the memory read gives each id's bytes,
    # and the hashes and 16-byte prefixes are those of the ids joined.
    patch = pytest.MonkeyPatch()
    ids = made(values)
    memory, first, length = _str_memory.ascii_strings(ids)
    assert [bytes(memory[f:f + n]) for f, n in zip(first, length, strict=True)] == [
        v.encode() for v in values]
    rows = np.array(data.draw(st.lists(st.integers(0, ids.size - 1), max_size=80)),
                    dtype=np.intp)
    for at in (None, rows):
        hashes, prefix = _hashing.object_hashes_and_prefixes(ids, at)
        chosen = ids if at is None else ids[at]
        expected_hashes, expected_prefix = joined_hashes(chosen, patch)
        assert hashes.tolist() == expected_hashes.tolist()
        assert prefix.tolist() == expected_prefix.tolist()
        expected = [int(_hashing._hash_bytes(v.encode() + bytes(8), np.array([0]),
                                             np.array([len(v)]))[0]) for v in chosen]
        assert _hashing.string_hashes(chosen).tolist() == expected


class Named(str):
    pass


@pytest.mark.parametrize("intruder", ["é", "doc-€", "😀", "ascii then 中", Named("doc-1"),
                                      b"doc-1", 7, None, np.nan])
def test_anything_but_compact_ascii_str_is_left_to_the_join(intruder):
    # One id that is not a compact ASCII str (another kind of str, a subclass, not a str)
    # sends the whole array back to the join, which hashes str ids from their UTF-8 bytes
    # and raises TypeError for the rest, as before.
    ids = made([f"doc-{i}" for i in range(50)])
    ids[17] = intruder
    assert _str_memory.ascii_strings(ids) is None
    if not isinstance(intruder, str):
        with pytest.raises(TypeError):
            _hashing.string_hashes(ids)
        return
    expected = [int(_hashing._hash_bytes(v.encode() + bytes(8), np.array([0]),
                                         np.array([len(v.encode())]))[0]) for v in ids]
    assert _hashing.string_hashes(ids).tolist() == expected


def test_an_interpreter_the_probe_does_not_recognise_joins(monkeypatch):
    monkeypatch.setattr(_str_memory, "_layout", lambda: None)
    ids = made(["doc-1", "doc-22"])
    assert _str_memory.ascii_strings(ids) is None
    assert _hashing.string_hashes(ids).tolist() == joined_hashes(ids, monkeypatch)[0].tolist()


GUARDED = textwrap.dedent("""
    import ctypes, mmap, sys
    import numpy as np
    from evalkit._hashing import _hash_bytes

    # Two pages, the second unreadable: a 3-byte id ends the first page's last word, after
    # ids of 40 bytes. Word j of the short id, read where it would lie, is in the second.
    page = mmap.PAGESIZE
    buffer = mmap.mmap(-1, 2 * page)
    start = ctypes.addressof(ctypes.c_char.from_buffer(buffer))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    assert libc.mprotect(start + page, page, 0) == 0  # PROT_NONE
    memory = np.frombuffer(buffer, dtype=np.uint8)  # both pages: no end to stop a read
    first = np.array([0, 40, 80, page - 8])
    length = np.array([40, 40, 40, 3])
    memory[:120] = np.frombuffer(b"x" * 120, dtype=np.uint8)
    memory[page - 8 : page - 5] = np.frombuffer(b"abc", dtype=np.uint8)
    hashes = _hash_bytes(memory, first, length, within=sys.argv[1] == "within")
    reference = _hash_bytes(b"abc" + bytes(8), np.array([0]), np.array([3]))
    assert hashes[3] == reference[0]
    print("read within")
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mprotect through libc")
def test_ids_read_in_place_are_read_only_within_their_own_words():
    # Ids read in place lie among other objects; a word past an id's last one may be on a
    # page that is not mapped. With within=True a short id's later words are read at its
    # last word (and masked to 0): the run beside an unreadable page succeeds. The control,
    # reading as joined text is read (every id at 8j), must crash on that page.
    def run(mode: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", GUARDED, mode], capture_output=True,
                              text=True, timeout=120)

    within = run("within")
    assert within.returncode == 0 and "read within" in within.stdout, within.stderr
    assert run("joined").returncode != 0  # SIGSEGV: the test can fail


def test_after_a_refused_chunk_the_rest_are_joined_unchecked(monkeypatch):
    # A column with one non-ASCII id in its first chunk: the later chunks are joined without
    # another check (a refused check costs 5-10% of a join), and every hash is still right.
    monkeypatch.setattr(_hashing, "_OBJECT_CHUNK", 4)
    checked = []
    monkeypatch.setattr(_hashing, "ascii_strings",
                        lambda ids: checked.append(ids.size) or _str_memory.ascii_strings(ids))
    ids = made(["doc-é"] + [f"doc-{i}" for i in range(11)])
    expected = [int(_hashing._hash_bytes(v.encode() + bytes(8), np.array([0]),
                                         np.array([len(v.encode())]))[0]) for v in ids]
    assert _hashing.string_hashes(ids, repeated=False).tolist() == expected
    assert checked == [4]
    checked.clear()
    assert _hashing.string_hashes(ids[1:], repeated=False).tolist() == expected[1:]
    assert checked == [4, 4, 3]  # all ASCII: each chunk read in place


SHORT = st.text(st.characters(max_codepoint=127), max_size=_str_memory.SHORT_KEY_MOST)


@pytest.mark.skipif(not CPYTHON, reason="the layout read is CPython's, with a GIL")
@pytest.mark.parametrize("threads", ["1", "2"])
@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.lists(SHORT, min_size=1, max_size=12), st.data())
def test_short_ids_read_as_keys_are_equal_exactly_when_the_ids_are(threads, vocabulary, data):
    # Ids of 0 to 7 ASCII characters, NULs included ("a" and "a\0" differ only in length),
    # each row a new object, read a few ids a chunk (some chunks on a second thread): equal
    # keys for equal ids and only for them.
    patch = pytest.MonkeyPatch()
    with patch.context() as patched:
        patched.setenv("EVALKIT_THREADS", threads)
        patched.setattr(_str_memory, "_SHORT_CHUNK", 8)
        rows = data.draw(st.lists(st.integers(0, len(vocabulary) - 1), min_size=1,
                                  max_size=100))
        ids = made([vocabulary[row] for row in rows])
        keys = _str_memory.short_keys(ids)
    assert keys is not None and keys.dtype == np.uint64
    here = np.zeros(ids.size, dtype=np.uint64)  # the same ids read in one go, on this thread
    assert _str_memory.short_keys_here(ids, here)
    np.testing.assert_array_equal(here, keys)
    assert first_seen_codes(keys) == first_seen_codes(ids)
    assert [int(key) >> 56 for key in keys] == [len(i) for i in ids]
    assert all(int(key) & ((1 << 56) - 1) == int.from_bytes(i.encode(), "little")
               for key, i in zip(keys, ids, strict=True))


def first_seen_codes(values: np.ndarray) -> list[int]:
    """Each value's number in order of first appearance, told apart by Python's equality
    (not pd.factorize: before pandas 3 it merges strings that differ after a NUL)."""
    numbers: dict = {}
    return [numbers.setdefault(value.item() if isinstance(value, np.generic) else value,
                               len(numbers)) for value in values]


@pytest.mark.skipif(not CPYTHON, reason="the layout read is CPython's, with a GIL")
@pytest.mark.parametrize("intruder", ["12345678", "é", "q-€", Named("q1"), b"q1", 7, None,
                                      np.nan])
@pytest.mark.parametrize("where", [0, 29])
def test_short_keys_refuse_an_id_they_cannot_read_exactly(monkeypatch, intruder, where):
    # One id longer than 7 characters, not ASCII, a subclass or not a str, in the first
    # chunk or the last: no keys (the caller numbers the ids by their strings).
    monkeypatch.setattr(_str_memory, "_SHORT_CHUNK", 8)
    ids = made([f"q{i}" for i in range(30)])
    assert _str_memory.short_keys(ids) is not None
    assert _str_memory.short_keys_here(ids, np.empty(ids.size, dtype=np.uint64))
    ids[where] = intruder
    assert _str_memory.short_keys(ids) is None
    assert not _str_memory.short_keys_here(ids, np.empty(ids.size, dtype=np.uint64))


def test_short_keys_need_a_recognised_interpreter(monkeypatch):
    monkeypatch.setattr(_str_memory, "_layout", lambda: None)
    assert _str_memory.short_keys(made(["q1", "q2"])) is None
    assert not _str_memory.short_keys_here(made(["q1", "q2"]), np.empty(2, dtype=np.uint64))
    assert _str_memory.short_keys(np.zeros(0, dtype=object)) is None
    monkeypatch.undo()
    if CPYTHON:  # no ids: no keys, and none refused
        assert _str_memory.short_keys(np.zeros(0, dtype=object)).shape == (0,)
        assert _str_memory.short_keys_here(np.zeros(0, dtype=object),
                                           np.empty(0, dtype=np.uint64))
