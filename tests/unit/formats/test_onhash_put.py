"""``_onhash_write.put_bytes`` and ``put_words``: runs scattered to their items' offsets.

The on-disk hash table's payload is assembled stream by stream; chunks of
whole words go through word views of the buffer at each of the eight byte
phases, others byte by byte in steps.  Both must write exactly what copying
each chunk in Python writes, and nothing else; so must words taken in place
from a source (the counters from the table's own array), in any order, with
the phases grouped by the caller or not.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats import _onhash_write


@st.composite
def _chunks(draw: st.DrawFn) -> tuple[list[int], list[bytes], int]:
    words = draw(st.booleans())
    most = draw(st.sampled_from([1, 4])) if words else 20  # 1: a word each, as hashes go
    least = 1 if most == 1 else 0
    count = draw(st.integers(0, 40))
    sizes = [
        8 * draw(st.integers(least, most)) if words else draw(st.integers(0, most))
        for _ in range(count)
    ]
    chunks = [draw(st.binary(min_size=n, max_size=n)) for n in sizes]
    starts, at = [], 0
    for size in sizes:  # each chunk after a gap of 0-9 bytes, so every phase shows up
        at += draw(st.integers(0, 9))
        starts.append(at)
        at += size
    return starts, chunks, at + draw(st.integers(0, 9))


@settings(max_examples=300, deadline=None)
@given(_chunks(), st.integers(1, 5))
def test_chunks_land_at_their_offsets(case: tuple[list[int], list[bytes], int], step: int) -> None:
    starts, chunks, size = case
    dest = np.full(size, 0xEE, dtype=np.uint8)
    data = np.frombuffer(b"".join(chunks), dtype=np.uint8)
    lengths = np.array([len(c) for c in chunks], dtype=np.int64)
    with mock.patch.object(_onhash_write, "_CHUNK_ITEMS", step):  # several byte steps
        _onhash_write.put_bytes(dest, np.array(starts, dtype=np.int64), data, lengths)
    expected = bytearray(b"\xee" * size)
    for start, chunk in zip(starts, chunks, strict=True):
        expected[start : start + len(chunk)] = chunk
    assert dest.tobytes() == bytes(expected)


@st.composite
def _runs(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, int]], int, list[int]]:
    source = draw(st.lists(st.integers(0, 2**64 - 1), max_size=30))
    single = draw(st.booleans())  # a word each: the path without spans
    runs = []
    for _ in range(draw(st.integers(0, 20) if source or not single else st.just(0))):
        if single:
            runs.append((draw(st.integers(0, len(source) - 1)), 1))
            continue
        first = draw(st.integers(0, len(source)))
        runs.append((first, draw(st.integers(0, len(source) - first))))
    starts, at = [], 0
    for _, count in runs:  # each run after a gap of 0-9 bytes, so every phase shows up
        at += draw(st.integers(0, 9))
        starts.append(at)
        at += 8 * count
    return starts, runs, at + draw(st.integers(0, 9)), source


@settings(max_examples=300, deadline=None)
@given(_runs(), st.booleans())
def test_words_taken_in_place_land_at_their_offsets(
    case: tuple[list[int], list[tuple[int, int]], int, list[int]], grouped: bool
) -> None:
    starts, runs, size, source = case
    dest = np.full(size, 0xEE, dtype=np.uint8)
    at = np.array(starts, dtype=np.int64)
    firsts = np.array([first for first, _ in runs], dtype=np.int64)
    counts = np.array([count for _, count in runs], dtype=np.int64)
    phases = _onhash_write.Phases.of(at) if grouped else None
    words = np.array(source, dtype=np.uint64)
    _onhash_write.put_words(dest, at, words, counts, firsts, phases)
    expected = bytearray(b"\xee" * size)
    for start, (first, count) in zip(starts, runs, strict=True):
        chunk = b"".join(v.to_bytes(8, "little") for v in source[first : first + count])
        expected[start : start + len(chunk)] = chunk
    assert dest.tobytes() == bytes(expected)
