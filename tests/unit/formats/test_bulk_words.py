"""Word-wise reads the fast merge relies on: key bytes as words, multi-word gathers,
value blob chains found without walking, and names encoded at once."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from profdata.formats._binary import ByteReader
from profdata.formats._onhash import FileWords
from profdata.formats.indexed_runs import _key_words
from profdata.formats.raw_values import chain_starts, scan_blobs
from profdata.model.instr import distinct
from profdata.model.names import name_bytes, names_bytes

KEYS = st.lists(st.tuples(st.binary(max_size=6), st.binary(min_size=0, max_size=21)), max_size=8)


def _padded(keys: list[bytes]) -> bytes:
    return b"".join(k + b"\0" * (-len(k) % 8) for k in keys)


@given(KEYS, st.binary(max_size=3))
def test_key_words_are_the_keys_zero_padded(pieces: list[tuple[bytes, bytes]], tail: bytes) -> None:
    buf = bytearray()
    offsets, keys = [], []
    for gap, key in pieces:
        buf += gap
        offsets.append(len(buf))
        buf += key
        keys.append(key)
    buf += tail  # no tail: the last key ends the file and is read byte by byte
    words = FileWords(memoryview(bytes(buf)))
    got = _key_words(
        words, np.array(offsets, dtype=np.int64), np.array([len(k) for k in keys], dtype=np.int64)
    )
    assert got.tobytes() == _padded(keys)


def test_key_words_tell_keys_apart_by_their_last_byte() -> None:
    a = FileWords(memoryview(b"abcdefghiX" + b"\xff" * 8))
    b = FileWords(memoryview(b"abcdefghiY" + b"\xff" * 8))
    at, length = np.array([0]), np.array([10])
    assert not np.array_equal(_key_words(a, at, length), _key_words(b, at, length))
    # what follows a key does not count
    c = FileWords(memoryview(b"abcdefghiX" + b"\x00" * 8))
    assert np.array_equal(_key_words(a, at, length), _key_words(c, at, length))


@given(st.binary(min_size=40, max_size=200), st.lists(st.integers(0, 15), max_size=10))
def test_multi_word_reads_match_word_by_word(data: bytes, positions: list[int]) -> None:
    words = FileWords(memoryview(data))
    at = np.array(positions, dtype=np.int64)
    for count in (1, 2, 3):
        expected = [list(struct.unpack_from(f"<{count}Q", data, p)) for p in positions] or np.zeros(
            (0, count)
        )
        assert np.array_equal(words.u64(at, count), np.array(expected, dtype=np.uint64))


def _blobs(sizes: list[int]) -> bytes:
    out = bytearray()
    for size in sizes:  # TotalSize, NumValueKinds 1, a kind record's Kind, then filler
        out += struct.pack("<III", size, 1, 1) + b"\x01" * (size - 12)
    return bytes(out)


def test_chain_starts_follow_the_sizes() -> None:
    data = b"\0" * 8 + _blobs([16, 24, 16])
    cur = ByteReader(memoryview(data))
    got = chain_starts(cur, 8, 3)
    assert got is not None and got.tolist() == [8, 24, 48]


def test_chain_starts_give_up_when_a_candidate_is_extra_or_missing() -> None:
    data = b"\0" * 8 + _blobs([16, 24, 16])
    cur = ByteReader(memoryview(data))
    assert chain_starts(cur, 8, 2) is None  # three candidates for two blobs
    assert chain_starts(cur, 8, 4) is None  # past the end
    longer = b"\0" * 8 + _blobs([16, 32, 16])  # the second blob at 24, its kind word at 32
    assert chain_starts(ByteReader(memoryview(longer)), 8, 3) is not None
    forged = bytearray(longer)
    forged[40:52] = struct.pack("<III", 16, 2, 0)  # a look-alike inside it, a Kind after
    assert chain_starts(ByteReader(memoryview(bytes(forged))), 8, 3) is None
    forged[48:52] = struct.pack("<I", 7)  # no Kind after it: no candidate, the chain stands
    got = chain_starts(ByteReader(memoryview(bytes(forged))), 8, 3)
    assert got is not None and got.tolist() == [8, 24, 56]


@given(st.lists(st.integers(0, 2**64 - 1), max_size=30))
def test_distinct_is_sorted_unique(values: list[int]) -> None:
    got = distinct(np.array(values, dtype=np.uint64))
    assert got.tolist() == sorted(set(values))


@given(st.lists(st.text(max_size=6), max_size=6))
def test_names_bytes_is_name_bytes_of_each(names: list[str]) -> None:
    assert names_bytes(names) == [name_bytes(n) for n in names]


def test_blobs_without_kind_records_scan_to_no_records() -> None:
    """A mutated raw profile whose value blobs all claim NumValueKinds 0 once crashed
    the scan (no column to join); the blobs hold no record and are not bad."""
    data = struct.pack("<II", 8, 0) + struct.pack("<II", 16, 0) + b"\0" * 8
    found = scan_blobs(ByteReader(memoryview(data)), np.array([0, 8], dtype=np.int64))
    assert found.blob.tolist() == [] and found.kind.tolist() == [] and found.bad.tolist() == []
