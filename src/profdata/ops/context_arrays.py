"""A fast merge's writer context as arrays, and the sorted value entries of its first run.

:class:`~profdata.ops.merge_fast.FastMerge` holds each LLVM writer context as
a :class:`ContextState`: the counters in one array, bitmap bytes in another,
and the value sites as (site, value id) keys with counts.  A context's first
run stays sorted arrays (:func:`sorted_entries`, with the raw ranks a single
input's output keeps); from the second run on the entries live in a
:class:`~profdata.ops.merge_value_store.ValueStore`, for which
:func:`merge_sorted` is the reference merge the tests hold it against, and
which a fold into sorted arrays still uses.  :func:`by_count` gives the
entries back in the order they are written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from profdata.formats.raw_columns import RANK_BITS, RawRun
from profdata.model.counters import U64_MAX
from profdata.model.instr import spans
from profdata.ops.merge_records import MAX_VALUES_PER_SITE
from profdata.ops.merge_value_store import ValueStore, add_found, beyond_cut

if TYPE_CHECKING:
    from profdata.ops.merge_group import Shape

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]
Bytes = npt.NDArray[np.uint8]
#: a run's value entries sorted by key: keys, counts, raw ranks
SortedEntries = tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int64]]

_RANK_BITS = RANK_BITS
_RANK_MASK = (1 << _RANK_BITS) - 1
_U64_MAX = np.uint64(U64_MAX)


@dataclass(eq=False)
class ContextValues:
    """A context's value sites: ``keys`` (site << id_bits | value id) with counts, ascending
    unless ``ordered`` is false (a store's entries as they were stored, which is how a
    worker sends them: whoever needs them sorted sorts them, and a fold into a store
    does not).

    ``ranks`` is each entry's position in its raw site while the context
    holds a single input (its order then is the raw order by count).
    """

    keys: Ints
    counts: U64s
    ranks: Ints | None
    fill: Ints  # entries per site
    ordered: bool = True


@dataclass(eq=False)
class ContextState:
    """One writer context's records as arrays."""

    inputs: int = 0
    counts: U64s | None = None
    counts_max: int = 0  # an upper bound of ``counts``
    bitmaps: Bytes | None = None
    values: ContextValues | ValueStore | None = None  # a store from the second run on
    order: Ints | None = None  # first-seen record order, if not the data order

    def sorted_values(self) -> ContextValues:
        """The value sites as sorted arrays (a store is turned back into them once)."""
        values = self.values
        assert values is not None
        if isinstance(values, ValueStore):
            keys, counts = values.sorted()
            values = self.values = ContextValues(keys, counts, None, values.fill.copy())
        elif not values.ordered:
            keys, counts, ranks = sorted_by_key(values.keys, values.counts, values.ranks)
            values = self.values = ContextValues(keys, counts, ranks, values.fill)
        return values

    def unsorted_values(self) -> ContextValues:
        """The value sites in any order: a store becomes its entries (arrays travel lighter
        to another process than a store, and need no sort to be folded into one)."""
        values = self.values
        assert values is not None
        if isinstance(values, ValueStore):
            keys, counts = values.entries()
            values = self.values = ContextValues(keys, counts, None, values.fill.copy(), False)
        return values


def by_count(values: ContextValues | ValueStore | None, shape: Shape) -> tuple[Ints, Ints, U64s]:
    """A context's value entries as written: by site, then count descending, then raw rank
    (a single input's) or value id; their sites, ids and counts.

    Site, count and id usually fit in one 63-bit word together, and one sort
    of those words orders the entries straight from the store; otherwise
    the entries are sorted by key, then by site and count.
    """
    assert values is not None
    ranks = None
    if isinstance(values, ValueStore):
        keys, counts = values.entries()
    else:
        keys, counts, ranks = values.keys, values.counts, values.ranks
    id_bits = shape.id_bits
    id_mask = (1 << id_bits) - 1
    ids = keys & id_mask
    top = int(counts.max()) if len(counts) else 0
    count_bits = top.bit_length()
    low = int(ids.max()).bit_length() if len(ids) else 0  # the ids' bits in use
    site_bits = max(shape.num_sites - 1, 0).bit_length()
    if ranks is None and site_bits + count_bits + low <= 63:
        packed = (keys >> id_bits) << (count_bits + low)
        packed |= (np.int64(top) - counts.astype(np.int64)) << low
        packed |= ids
        packed.sort()
        below = (packed >> low) & ((1 << count_bits) - 1)
        sites = packed >> (count_bits + low)
        return sites, packed & ((1 << low) - 1), (top - below).astype(np.uint64)
    if isinstance(values, ValueStore) or not values.ordered:
        keys, counts, ranks = sorted_by_key(keys, counts, ranks)
    sites = keys >> id_bits
    # lexsort is stable and the keys are in (site, id) order: without raw ranks, equal
    # counts keep their ids' order with no third key to sort by
    sort_keys: list[npt.NDArray[np.integer]] = [_U64_MAX - counts, sites]
    if ranks is not None:
        sort_keys.insert(0, ranks)
    by_count = np.lexsort(sort_keys)
    return sites[by_count], (keys & id_mask)[by_count], counts[by_count]


def sorted_by_key(keys: Ints, counts: U64s, ranks: Ints | None) -> tuple[Ints, U64s, Ints | None]:
    """Entries held in any order (a store's, or a worker's sent as stored) by key."""
    by_key = np.argsort(keys, kind="stable")
    return keys[by_key], counts[by_key], None if ranks is None else ranks[by_key]


def take_back(state: ContextState, raw: U64s) -> None:
    """Subtract counters :meth:`FastMerge._add_unchecked` added to the first ones of the
    context (exactly: no sum wrapped)."""
    if state.counts is not None and len(raw):
        view = state.counts[: len(raw)]
        np.subtract(view, raw, out=view)


# -- value sites ---------------------------------------------------------------------
def sorted_entries(run: RawRun, shape: Shape) -> SortedEntries | None:
    """The run's profiled values sorted by key, with counts and raw ranks; None on a
    duplicate (the same value twice in a site)."""
    lengths = run.site_lengths
    order = np.arange(len(lengths)) if run.site_order is None else run.site_order
    ordered = lengths[order]  # where each site's entries begin, the sites in that order
    first = np.empty_like(lengths)
    first[order] = np.cumsum(ordered) - ordered
    site = run.entry_site
    rank = np.arange(len(site), dtype=np.int64) - first[site]
    packed = (site << (shape.id_bits + _RANK_BITS)) | (run.entry_id << _RANK_BITS) | rank
    packed.sort()
    rank = packed & _RANK_MASK
    keys = packed >> _RANK_BITS
    if len(keys) > 1 and bool(np.any(keys[1:] == keys[:-1])):
        return None
    counts = run.entry_count[first[keys >> shape.id_bits] + rank]
    return keys, counts, rank


def merge_sorted(
    state: ContextValues, keys: Ints, counts: U64s, weight: int, shape: Shape
) -> npt.NDArray[np.bool_] | None:
    """Merge sorted entries into the state; the overflow flag per entry if any overflowed."""
    state.ranks = None
    pos = np.searchsorted(state.keys, keys)
    found = pos < len(state.keys)
    found[found] = state.keys[pos[found]] == keys[found]
    flags = add_found(state.counts, pos[found], found, counts, weight)
    new = ~found
    if bool(new.any()):
        new_keys = keys[new]
        at_new = pos[new] + np.arange(len(new_keys))  # where they land in the merged arrays
        is_new = np.zeros(len(state.keys) + len(new_keys), dtype=bool)
        is_new[at_new] = True
        merged_keys = np.empty(len(is_new), dtype=np.int64)
        merged_counts = np.empty(len(is_new), dtype=np.uint64)
        merged_keys[at_new] = new_keys
        merged_counts[at_new] = counts[new]
        is_new = ~is_new
        merged_keys[is_new] = state.keys
        merged_counts[is_new] = state.counts
        state.keys, state.counts = merged_keys, merged_counts
        state.fill += np.bincount(new_keys >> shape.id_bits, minlength=len(state.fill))
        if int(state.fill.max()) > MAX_VALUES_PER_SITE:
            truncate_sites(state, shape)
    return flags


def truncate_sites(state: ContextValues, shape: Shape) -> None:
    """``sortByCount``'s cut: a site keeps its 255 first entries by (count desc, value asc)."""
    heavy = np.flatnonzero(state.fill > MAX_VALUES_PER_SITE)
    lo = np.searchsorted(state.keys, heavy << shape.id_bits)
    hi = np.searchsorted(state.keys, (heavy + 1) << shape.id_bits)
    sizes = hi - lo
    index = spans(lo, sizes)
    drop = index[beyond_cut(state.keys[index], state.counts[index], sizes, shape.id_bits)]
    state.keys = np.delete(state.keys, drop)
    state.counts = np.delete(state.counts, drop)
    state.fill[heavy] = MAX_VALUES_PER_SITE


__all__ = [
    "ContextState", "ContextValues", "SortedEntries", "by_count", "merge_sorted",
    "sorted_by_key", "sorted_entries", "take_back", "truncate_sites",
]  # fmt: skip
