"""``_onhash_write._put``: chunks of a stream scattered to their items' offsets.

The on-disk hash table's payload is assembled stream by stream; chunks of
whole words go through word views of the buffer at each of the eight byte
phases, others byte by byte in steps.  Both must write exactly what copying
each chunk in Python writes, and nothing else.
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
        _onhash_write._put(dest, np.array(starts, dtype=np.int64), data, lengths)
    expected = bytearray(b"\xee" * size)
    for start, chunk in zip(starts, chunks, strict=True):
        expected[start : start + len(chunk)] = chunk
    assert dest.tobytes() == bytes(expected)
