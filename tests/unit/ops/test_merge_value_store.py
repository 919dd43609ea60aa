"""The hash-table value store of the fast merge against the sorted merge it stands in for.

``context_arrays.merge_sorted`` (sorted key arrays) is the reference: every
sequence of runs merged into a :class:`ValueStore` must leave the same
entries, counts, per-site fill and overflow flags after every run.  The
runs are drawn so that sites grow past their hash regions (moves, new
tables), past 255 values (the cut), and counts reach 2**64 (saturation).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.ops import context_arrays
from profdata.ops.merge_value_store import SIZES, ValueStore

U64_MAX = (1 << 64) - 1
ID_BITS = 14  # memop sizes up to 8193 fit


class _Shape:
    """What ``_merge_values`` reads of a shape."""

    id_bits = ID_BITS


Run = tuple[np.ndarray, np.ndarray, int]  # sorted keys, counts, weight
#: values of a memop site: mostly sizes of the table, now and then one it has no column for
SIZE_VALUES = [*SIZES.tolist(), 10, 100, 1000]


def _merge(
    store: ValueStore, keys: np.ndarray, counts: np.ndarray, weight: int, split: int | None = None
) -> np.ndarray | None:
    """A run looked up and merged, as the fast merge does; a run with a value twice fails."""
    lookup = store.find(keys, split)
    assert lookup is not None, "a run holds a value twice in one site"
    return store.merge_found(lookup, counts, weight)


@st.composite
def _runs(draw: st.DrawFn) -> tuple[list[bool], list[Run]]:
    sized = draw(st.lists(st.booleans(), min_size=1, max_size=6))  # the memop sites
    runs = []
    for _ in range(draw(st.integers(2, 7))):
        rng = random.Random(draw(st.integers(0, 2**32)))
        huge = draw(st.booleans())  # some counts near 2**64: sums saturate
        odd = draw(st.booleans())  # a memop site may get a size the table has no column for
        entries: dict[int, int] = {}
        for site, sizes in enumerate(sized):
            # a site takes up to 300 of 1,000 values: runs push it past 255 and its region
            pool = (SIZE_VALUES if odd else SIZES.tolist()) if sizes else range(1000)
            sample = draw(st.sampled_from([0, 2, 30, 200, 300]))
            for value in rng.sample(pool, min(sample, len(pool))):
                near_max = huge and rng.random() < 0.1
                count = rng.randrange(U64_MAX - 3, U64_MAX + 1) if near_max else rng.randrange(60)
                entries[site << ID_BITS | value] = count
        keys = np.array(sorted(entries), dtype=np.int64)
        counts = np.array([entries[k] for k in keys.tolist()], dtype=np.uint64)
        runs.append((keys, counts, draw(st.sampled_from([1, 1, 2, 3]))))
    return sized, runs


@settings(max_examples=200, deadline=None)
@given(_runs(), st.booleans())
def test_store_merges_as_the_sorted_arrays(
    case: tuple[list[bool], list[Run]], split_by_kind: bool
) -> None:
    """With memop sites held in the table of sizes (given apart from the other sites'
    entries, or mixed with them) or not, and leaving it."""
    sized, runs = case
    keys, counts, _ = runs[0]
    fill = np.bincount(keys >> ID_BITS, minlength=len(sized)).astype(np.int64)
    reference = context_arrays.ContextValues(keys.copy(), counts.copy(), None, fill.copy())
    memop = np.array(sized)
    store = ValueStore(keys, counts, fill, ID_BITS, memop if any(sized) else None)
    for keys, counts, weight in runs[1:]:
        expected = context_arrays.merge_sorted(reference, keys, counts, weight, _Shape())  # type: ignore[arg-type]
        # the store takes a run's keys in any order (the fast merge gives file order), the
        # memop sites' last when it is told where they begin
        shuffled = np.random.default_rng(len(keys)).permutation(len(keys))
        split = None
        if split_by_kind:
            shuffled = shuffled[np.argsort(memop[keys[shuffled] >> ID_BITS], kind="stable")]
            split = int(np.count_nonzero(~memop[keys >> ID_BITS]))
        flags = _merge(store, keys[shuffled], counts[shuffled], weight, split)
        if flags is not None:
            unshuffled = np.zeros(len(flags), dtype=bool)
            unshuffled[shuffled] = flags
            flags = unshuffled
        assert (flags is None) == (expected is None)
        if flags is not None and expected is not None:
            assert flags.tolist() == expected.tolist()
        got_keys, got_counts = store.sorted()
        assert got_keys.tolist() == reference.keys.tolist()
        assert got_counts.tolist() == reference.counts.tolist()
        assert store.fill.tolist() == reference.fill.tolist()


def test_a_site_past_255_keeps_the_largest_counts_then_values() -> None:
    first = np.arange(200, dtype=np.int64)
    store = ValueStore(first, np.full(200, 5, dtype=np.uint64), np.array([200]), ID_BITS)
    more = np.arange(150, 350, dtype=np.int64)  # 50 known values and 150 new ones
    _merge(store, more, np.arange(200, dtype=np.uint64), 1)
    keys, counts = store.sorted()
    assert len(keys) == 255 and store.fill.tolist() == [255]
    kept = dict(zip(keys.tolist(), counts.tolist(), strict=True))
    # the 150 new values count 50..199 and all stay; the 50 shared ones count 5 + 0..49, so
    # 151..199 stay; the last 56 places go to the lowest values counting 5 (old 0..149, 150)
    assert kept[349] == 199 and kept[200] == 50 and kept[199] == 54 and kept[151] == 6
    assert 0 in kept and 55 in kept and 56 not in kept and 150 not in kept


def test_new_values_are_inserted_unscaled_and_known_ones_scaled() -> None:
    store = ValueStore(
        np.array([1, 2], dtype=np.int64), np.array([10, 20], dtype=np.uint64), np.array([2]), 10
    )
    flags = _merge(store, np.array([2, 3], dtype=np.int64), np.array([7, 7], dtype=np.uint64), 3)
    assert flags is None
    keys, counts = store.sorted()
    assert dict(zip(keys.tolist(), counts.tolist(), strict=True)) == {1: 10, 2: 41, 3: 7}
    flags = _merge(store, np.array([1], dtype=np.int64), np.array([U64_MAX], dtype=np.uint64), 1)
    assert flags is not None and flags.tolist() == [True]
    assert store.sorted()[1].tolist() == [U64_MAX, 41, 7]


@pytest.mark.parametrize(
    ("run", "twice"),
    [
        ([1, 3, 1], True),  # a stored value twice
        ([5, 9, 5], True),  # a new value twice
        ([3, 5, 1, 9], False),
    ],
)
def test_a_run_holding_a_value_twice_is_not_looked_up(run: list[int], twice: bool) -> None:
    store = ValueStore(
        np.array([1, 2, 3], dtype=np.int64), np.array([1, 1, 1], dtype=np.uint64), np.array([3]), 10
    )
    lookup = store.find(np.array(run, dtype=np.int64))
    assert (lookup is None) == twice
    if lookup is not None:
        assert lookup.found.tolist() == [True, False, True, False]
        assert store.keys[lookup.where].tolist() == [3, 1]
        assert store.find(np.array([2, 2], dtype=np.int64)) is None
    assert store.sorted()[0].tolist() == [1, 2, 3]  # nothing changed


def test_sizes_in_the_table_merge_like_hashed_values() -> None:
    """Known sizes add ``count * weight``, new ones come unscaled, a size twice is refused,
    and a size outside the table moves its site to the hash table with its counts."""
    sized = np.array([True, False])
    keys = np.array([1, 8, 1 << ID_BITS | 7], dtype=np.int64)
    store = ValueStore(keys, np.array([5, 6, 7], dtype=np.uint64), np.array([2, 1]), ID_BITS, sized)
    assert store.sizes is not None and store.size == 1  # site 0 in the table, site 1 hashed
    flags = _merge(store, np.array([1, 16], dtype=np.int64), np.array([2, 3], dtype=np.uint64), 4)
    assert flags is None
    assert dict(zip(*(a.tolist() for a in store.sorted()), strict=True)) == {
        1: 13,
        8: 6,
        16: 3,
        1 << ID_BITS | 7: 7,
    }
    assert store.find(np.array([16, 16], dtype=np.int64)) is None  # a size twice
    flags = _merge(store, np.array([100, 1], dtype=np.int64), np.array([1, U64_MAX], np.uint64), 1)
    assert flags is not None and flags.tolist() == [False, True]  # the second saturated
    assert store.row is not None and store.row[0] == -1  # 100 has no column: site 0 left
    assert dict(zip(*(a.tolist() for a in store.sorted()), strict=True)) == {
        1: U64_MAX,
        8: 6,
        16: 3,
        100: 1,
        1 << ID_BITS | 7: 7,
    }
    assert store.fill.tolist() == [4, 1]


def _home(key: int, region: int) -> int:
    """A key's slot in its site's region (the store's Fibonacci hash)."""
    return ((key * 0x9E3779B97F4A7C15) % (1 << 64) >> 32) % region


@pytest.mark.parametrize("wrap", [False, True])
def test_keys_far_from_their_home_slot_are_found(wrap: bool) -> None:
    """Twenty values of one site that all hash to one slot of its 128-slot region (the
    last slot, with ``wrap``: their chain wraps to the region's start): each is found
    however many slots it sits from home, and values that hash there too but are not
    stored are new, whether their probe ends at the chain's end or passes a stored key."""
    region = 128  # the region of 20 entries: a power of two at least four times as many
    aim = region - 1 if wrap else 3
    ids = [v for v in range(1 << ID_BITS) if _home(v, region) == aim]
    stored, absent = ids[:20], ids[20:26]
    store = ValueStore(
        np.array(stored, dtype=np.int64), np.arange(1, 21, dtype=np.uint64), np.array([20]), ID_BITS
    )
    assert store.region.tolist() == [region]
    keys = np.array(stored[::-1] + absent, dtype=np.int64)
    lookup = store.find(keys)
    assert lookup is not None
    assert lookup.found.tolist() == [True] * 20 + [False] * 6
    assert store.keys[lookup.where].tolist() == stored[::-1]
    flags = store.merge_found(lookup, np.full(26, 100, dtype=np.uint64), 1)
    assert flags is None
    got = dict(zip(*(a.tolist() for a in store.sorted()), strict=True))
    assert got == {**{v: 101 + i for i, v in enumerate(stored)}, **dict.fromkeys(absent, 100)}
