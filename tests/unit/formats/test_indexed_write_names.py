"""The indexed writer's name table (``indexed_write._Names``) against Python's bytes.

LLVM 19+ inserts names into the on-disk hash table generator sorted by their
bytes, and the table's keys are the names back to back: the numpy paths
(fixed-width rows, lexsort of big-endian words, rows put as words) must give
exactly what ``sorted`` gives and put exactly the names' bytes, NUL bytes and
empty names included, and so must the fallback for names too large for one
array.  Names put as whole words of their NUL-padded rows write the rest of
their last word as zeros, into the item's data that follows (written after).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats import indexed_write
from profdata.model.record_table import distinct_names

_names = st.lists(
    st.binary(max_size=30) | st.sampled_from([b"", b"a", b"a\x00", b"\x00", b"ab", b"\xff"]),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(_names, st.randoms(use_true_random=False), st.booleans())
def test_sorted_and_put_are_pythons(names: list[bytes], rng: random.Random, large: bool) -> None:
    table = indexed_write._Names.of(names)
    if large:  # as if the names were too large for one array
        table = indexed_write._Names(table.encoded, table.lengths, None)
    everything = np.arange(len(names), dtype=np.int64)
    picked = np.array([i for i in range(len(names)) if i % 3], dtype=np.int64)
    for candidates in (everything, picked):
        got = table.sorted(candidates).tolist()
        assert [names[i] for i in got] == sorted(names[i] for i in candidates.tolist())
        # equal names keep no particular order between them, but every candidate is there once
        assert sorted(got) == candidates.tolist()
    items = np.array(rng.sample(range(len(names)), len(names)), dtype=np.int64)
    # each name at any byte phase, followed by its item's data (a word at least)
    gaps = [8 + rng.randrange(12) for _ in items.tolist()]
    starts, at = [], rng.randrange(8)
    for index, gap in zip(items.tolist(), gaps, strict=True):
        starts.append(at)
        at += len(names[index]) + gap
    dest = np.full(at, 0xEE, dtype=np.uint8)
    ends = table.put(dest, np.array(starts, dtype=np.int64), items)
    expected = bytearray(b"\xee" * at)
    for index, start in zip(items.tolist(), starts, strict=True):
        name = names[index]
        expected[start : start + len(name)] = name
        if table.fixed is not None:  # the rest of its last word: padding, before the data
            spill = -len(name) % 8
            expected[start + len(name) : start + len(name) + spill] = bytes(spill)
    assert dest.tobytes() == bytes(expected)
    assert ends.tolist() == [s + len(names[i]) for s, i in zip(starts, items.tolist(), strict=True)]


@pytest.mark.parametrize(
    ("hashes", "names", "distinct"),
    [
        ([1, 2, 3], ["a", "b", "c"], True),
        ([1, 1, 3], ["a", "a", "c"], False),
        ([1, 1, 3], ["a", "b", "c"], True),  # an MD5 collision: the names decide
        (None, ["a", "b", "a"], False),
    ],
)
def test_distinct_names_told_by_hashes_then_names(
    hashes: list[int] | None, names: list[str], distinct: bool
) -> None:
    array = None if hashes is None else np.array(hashes, dtype=np.uint64)
    assert distinct_names(names, array) is distinct
