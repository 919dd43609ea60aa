"""A writer context's value sites while many runs are merged into it: a hash table.

:mod:`profdata.ops.merge_fast` keeps a context's profiled values as one
sorted key array (``site << id_bits | value id``) with counts.  Merging a
run into sorted arrays costs a binary search per entry and a copy of the
whole arrays whenever the run brings a new value or a site loses some to
the 255 cut; in a long merge almost every entry of a run is already there
and only a few hundred are new, so the searches and copies were most of a
run's cost.

:class:`ValueStore` keeps the entries in insertion order instead and finds
them through an open-addressing table cut into one region per site (a power
of two at least twice the site's entries, linear probing inside the region).
A run's entries come sorted by site, so the lookups walk the table from
front to back.  New entries are appended; a site that outgrows its region
moves to a new one at the end of the table.  The result is exactly the
sorted merge's (:func:`profdata.ops.context_arrays.merge_sorted` is the
reference, and the tests hold the two side by side): a value already in the
site adds ``count * weight`` (saturating), a new value is inserted with its
count as is, and a site that grows past 255 entries keeps its 255 first by
(count descending, value ascending); its region is then filled again from
the kept entries.  :meth:`ValueStore.sorted` gives the sorted arrays back
once, when the context is written, folded or sent to another process.

Measured on the 128 runs of the 100k-function bench program (77k value
entries per run, ~290k in the store): 6.5-7 ms a run against 9 ms for the
sorted merge.  Merging runs in batches, so that the table stays in the CPU's
cache, gained nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from profdata.model.counters import U64_MAX
from profdata.model.instr import distinct, spans, take
from profdata.ops.merge_records import MAX_VALUES_PER_SITE

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]
Flags = npt.NDArray[np.bool_]

_EMPTY = -1
#: the memop sizes LLVM's runtime records (``InstrProfGetRangeRepValue``: up to 8 as they
#: are, a larger size as the power of two or power of two + 1 of its range, 8192 and
#: above as 8192): the columns of :class:`_Sizes`
SIZES = np.array(
    sorted({*range(9), *(1 << k for k in range(3, 14)), *((1 << k) + 1 for k in range(3, 13))}),
    dtype=np.int64,
)
_COLUMN = np.full(int(SIZES[-1]) + 2, -1, dtype=np.int64)  # the last stands for every larger
_COLUMN[SIZES] = np.arange(len(SIZES))
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: the high bits are well mixed
_U64_MAX = np.uint64(U64_MAX)
_MIN_REGION = 4


def _regions(fill: Ints) -> Ints:
    """Each site's region size: the power of two at least four times its entries (a site
    may triple before it has to move; a full site, 255 entries and as many new, stays)."""
    need = np.maximum(4 * fill, _MIN_REGION)
    return np.left_shift(1, np.ceil(np.log2(need)).astype(np.int64))


def add_scaled(current: U64s, counts: U64s, weight: int) -> tuple[U64s, Flags]:
    """``current + counts * weight`` saturating at 2**64-1 (``SaturatingMultiplyAdd``), and
    which entries saturated."""
    over = np.zeros(len(counts), dtype=bool)
    if weight != 1:
        over = counts > np.uint64(U64_MAX // weight)
        with np.errstate(over="ignore"):
            counts = counts * np.uint64(weight)
    with np.errstate(over="ignore"):
        total = current + counts
    over |= total < counts
    total[over] = _U64_MAX
    return total, over


def beyond_cut(keys: Ints, counts: U64s, sizes: Ints, id_bits: int) -> Flags:
    """``sortByCount``'s cut of sites that hold more than 255 values: which entries fall
    past each site's 255 first by (count descending, value ascending).  The entries are
    the sites' ones, the sites in ascending order, ``sizes`` entries each."""
    order = np.lexsort((keys, _U64_MAX - counts, keys >> id_bits))
    rank = np.arange(len(keys)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    cut = np.zeros(len(keys), dtype=bool)
    cut[order[rank >= MAX_VALUES_PER_SITE]] = True
    return cut


def add_found(stored: U64s, where: Ints, found: Flags, counts: U64s, weight: int) -> Flags | None:
    """Add the run's entries that are already stored (``found``; ``stored[where]`` is
    theirs) with :func:`add_scaled`; the overflow flag of every run entry if any saturated."""
    total, over = add_scaled(take(stored, where), np.compress(found, counts), weight)
    stored[where] = total
    if not bool(over.any()):
        return None
    flags = np.zeros(len(counts), dtype=bool)
    flags[np.flatnonzero(found)[over]] = True
    return flags


def _twice(stamp: npt.NDArray[np.int32], index: Ints) -> bool:
    """Whether ``index`` holds a position twice: each writes its own number into the
    scratch ``stamp``, and a later one overwrites an earlier."""
    stamps = np.arange(len(index), dtype=np.int32)
    stamp[index] = stamps
    return not np.array_equal(take(stamp, index), stamps)


@dataclass(frozen=True, eq=False)
class _Cells:
    """A run's entries that :class:`_Sizes` holds, as :meth:`ValueStore.find` found them."""

    taken: slice | Flags  # which of the run's entries
    cells: Ints
    present: Flags  # their cells held a count already


@dataclass(frozen=True, eq=False)
class Lookup:
    """A run's keys as :meth:`ValueStore.find` found them."""

    keys: Ints  # the entries in the hash table
    slots: Ints  # each key's home slot
    found: Flags  # stored already
    where: Ints  # the stored entry of each found key
    hashed: slice | Flags | None = None  # which of the run's entries ``keys`` are (None: all)
    sized: _Cells | None = None  # the others


class _Sizes:
    """The entries of memop sites as a count per (site, size) in a dense table: a run's
    sizes are added where they fall, with no hashing (a site leaves the table for the
    hash table when a size outside :data:`SIZES` comes)."""

    def __init__(self, sites: Ints) -> None:
        self.sites = sites  # the site of each row
        cells = len(sites) * len(SIZES)
        self.counts = np.zeros(cells, dtype=np.uint64)  # 0 where not present
        self.present = np.zeros(cells, dtype=bool)
        self.stamp = np.zeros(cells, dtype=np.int32)  # scratch of :meth:`twice`

    @staticmethod
    def columns(sizes: Ints) -> Ints:
        """Each size's column, -1 for a size the table has none for."""
        column: Ints = take(_COLUMN, np.minimum(sizes, len(_COLUMN) - 1))
        return column

    def twice(self, cells: Ints) -> bool:
        """Whether a cell comes twice (a size twice in a site)."""
        return _twice(self.stamp, cells)

    def fill(self) -> Ints:
        """The sizes held per row."""
        held: Ints = self.present.reshape(len(self.sites), len(SIZES)).sum(axis=1)
        return held

    def entries(self, rows: Ints | None, id_bits: int) -> tuple[Ints, U64s]:
        """The keys and counts held (in ``rows``, or all)."""
        if rows is None:
            cells = np.flatnonzero(self.present)
        else:
            cells = self._cells(rows)
            cells = cells[self.present[cells]]
        row, column = np.divmod(cells, len(SIZES))
        keys = (self.sites[row] << id_bits) | SIZES[column]
        return keys, self.counts[cells]

    def clear(self, rows: Ints) -> None:
        cells = self._cells(rows)
        self.present[cells] = False
        self.counts[cells] = 0

    @staticmethod
    def _cells(rows: Ints) -> Ints:
        return spans(rows * len(SIZES), np.full(len(rows), len(SIZES), dtype=np.int64))


class ValueStore:
    """The value entries of one writer context: ``keys``/``counts`` in insertion order
    (``live`` false where a site's 255 cut dropped one), ``fill`` live entries per site."""

    region: Ints  # each site's region size (a power of two)
    start: Ints  # each site's first slot
    end: int  # slots in use, regions left behind by moved sites included
    table: npt.NDArray[np.int32]  # entry index per slot, -1 where empty

    def __init__(
        self, keys: Ints, counts: U64s, fill: Ints, id_bits: int, sized: Flags | None = None
    ) -> None:
        """The entries ``keys``, ``counts``; ``sized`` flags the sites of memop sizes, held in
        a table of sizes (:class:`_Sizes`) as long as their sizes are all in :data:`SIZES`."""
        self.id_bits = id_bits
        self.top = int(counts.max()) if len(counts) else 0  # no stored count is above it
        self.row: Ints | None = None  # each site's row in ``sizes`` (-1: hashed)
        self.sizes: _Sizes | None = None
        fill = fill.astype(np.int64, copy=True)
        if sized is not None and bool(sized.any()):
            keys, counts = self._size(keys, counts, fill, sized)
        self._fill = fill
        self.size = len(keys)
        capacity = max(self.size + self.size // 4, 1024)
        # one slot more than entries ever fill, holding -1: an empty table slot (-1) reads it
        # and matches no key, so a lookup needs no mask for empty slots
        self.keys = np.full(capacity + 1, -1, dtype=np.int64)
        self.counts = np.zeros(capacity, dtype=np.uint64)
        self.live = np.zeros(capacity, dtype=bool)
        self.keys[: self.size] = keys
        self.counts[: self.size] = counts
        self.live[: self.size] = True
        self.dead = 0
        self.stamp = np.zeros(capacity, dtype=np.int32)  # scratch of :meth:`find`
        self._rebuild()

    @property
    def fill(self) -> Ints:
        """Entries per site."""
        if self.sizes is None:
            return self._fill
        fill = self._fill.copy()
        fill[self.sizes.sites] += self.sizes.fill()  # 0 in the table's rows of hashed sites
        return fill

    def _size(self, keys: Ints, counts: U64s, fill: Ints, sized: Flags) -> tuple[Ints, U64s]:
        """Put the entries of ``sized`` sites in a table of sizes; the rest, and ``fill``
        left to the hash table."""
        sites = keys >> self.id_bits
        columns = _Sizes.columns(keys & ((1 << self.id_bits) - 1))
        sized = sized.copy()
        sized[sites[sized[sites] & (columns < 0)]] = False  # a size it has no column for
        held = np.flatnonzero(sized)
        if not len(held):
            return keys, counts
        self.row = np.full(len(fill), -1, dtype=np.int64)
        self.row[held] = np.arange(len(held))
        self.sizes = _Sizes(held)
        mine = sized[sites]
        cells = self.row[sites[mine]] * len(SIZES) + columns[mine]
        self.sizes.counts[cells] = counts[mine]
        self.sizes.present[cells] = True
        fill[held] = 0
        return keys[~mine], counts[~mine]

    def _route(self, keys: Ints, split: int | None) -> tuple[slice | Flags, _Cells] | None:
        """Which of a run's keys the hash table holds, and the cells of the others; None if
        a size comes twice in a site.  With ``split``, the keys from there on are those of
        memop sites."""
        assert self.row is not None and self.sizes is not None
        sized: slice | Flags
        hashed: slice | Flags
        if split is not None:
            sized, hashed = slice(split, None), slice(0, split)
            rows = take(self.row, keys[sized] >> self.id_bits)
            if len(rows) and int(rows.min()) < 0:
                split = None  # a memop site that left the table
        if split is None:
            every = self.row[keys >> self.id_bits]
            held = every >= 0
            sized, hashed = held, ~held
            rows = every[held]
        mine = keys[sized]
        columns = _Sizes.columns(mine & ((1 << self.id_bits) - 1))
        if len(columns) and int(columns.min()) < 0:
            self._unsize(distinct(mine[columns < 0] >> self.id_bits))
            return self._route(keys, None)
        cells = rows * len(SIZES) + columns
        if self.sizes.twice(cells):
            return None
        return hashed, _Cells(sized, cells, take(self.sizes.present, cells))

    def _unsize(self, sites: Ints) -> None:
        """Move ``sites`` from the table of sizes to the hash table (a size came that the
        table has no column for)."""
        assert self.row is not None and self.sizes is not None
        rows = self.row[sites]
        keys, counts = self.sizes.entries(rows, self.id_bits)
        self.sizes.clear(rows)
        self.row[sites] = -1
        if len(keys):
            self._append(keys, counts, self._slots(keys))

    # -- the table ------------------------------------------------------------------
    def _rebuild(self) -> None:
        """Regions for the current fill, holding every live entry (dead ones are dropped)."""
        if self.dead:
            keep = np.flatnonzero(self.live[: self.size])
            size = len(keep)
            self.keys[:size] = self.keys[keep]
            self.counts[:size] = self.counts[keep]
            self.live[:size] = True
            self.live[size : self.size] = False
            self.size, self.dead = size, 0
        self.region = _regions(self._fill)
        self.mask = self.region - 1
        self.start = np.cumsum(self.region) - self.region
        self.end = int(self.region.sum())
        # twice the room: sites that outgrow their regions move to the free end
        self.table = np.full(2 * self.end, _EMPTY, dtype=np.int32)
        keys = self.keys[: self.size]
        self._place(self._slots(keys), np.arange(self.size, dtype=np.int64), keys)

    def _slots(self, keys: Ints) -> Ints:
        """Each key's home slot: its site's region start plus its hash inside the region."""
        sites = keys >> self.id_bits
        with np.errstate(over="ignore"):
            mixed = keys.view(np.uint64) * _MULTIPLIER
        mixed >>= np.uint64(32)
        slots: Ints = mixed.view(np.int64)
        slots &= take(self.mask, sites)
        slots += take(self.start, sites)
        return slots

    def _next(self, slots: Ints, keys: Ints) -> Ints:
        """The slot after each one, wrapping inside the key's region."""
        sites = keys >> self.id_bits
        start: Ints = take(self.start, sites)
        following: Ints = start + ((slots - start + 1) & take(self.mask, sites))
        return following

    def _place(self, slots: Ints, index: Ints, keys: Ints) -> None:
        """Put entries ``index`` (with ``keys``, none in the table, all distinct) at the first
        free slot from ``slots`` on; of several aiming at one slot, the one written stays."""
        table = self.table
        while len(index):
            free = table[slots] == _EMPTY
            aim, who = slots[free], index[free]
            table[aim] = who
            placed = np.zeros(len(index), dtype=bool)
            placed[np.flatnonzero(free)[table[aim] == who]] = True
            left = ~placed
            index, keys = index[left], keys[left]
            slots = self._next(slots[left], keys)

    def _find(self, keys: Ints, slots: Ints) -> Ints:
        """Each key's entry, -1 where it has none.

        Most keys sit in their home slot: the first probe is a few whole-array
        steps with no masks; only the rest probe on.
        """
        table, stored = self.table, self.keys
        entry = take(table, slots).astype(np.int64)
        hit = take(stored, entry) == keys  # an empty slot (-1) reads the sentinel
        found = np.where(hit, entry, -1)
        pending = np.flatnonzero(~hit & (entry != _EMPTY))
        slots = slots[pending]
        while len(pending):
            slots = self._next(slots, keys[pending])
            entry = table[slots].astype(np.int64)
            hit = stored[entry] == keys[pending]
            found[pending[hit]] = entry[hit]
            more = ~hit & (entry != _EMPTY)
            pending, slots = pending[more], slots[more]
        return found

    # -- merging --------------------------------------------------------------------
    def find(self, keys: Ints, split: int | None = None) -> Lookup | None:
        """Where each of a run's keys is stored (-1: new), before anything changes but
        where they are held; None if the run holds a key twice (LLVM pairs such values
        by position: not this merge's business).  The keys need no order; in site order
        the lookups walk the table from front to back.  ``split``: the keys from there
        on are of memop sites (and none before it)."""
        hashed: slice | Flags | None = None
        sized = None
        if self.sizes is not None:
            routed = self._route(keys, split)
            if routed is None:
                return None
            hashed, sized = routed
            keys = keys[hashed]
        slots = self._slots(keys)
        at = self._find(keys, slots)
        found = at >= 0
        where = np.compress(found, at)
        if len(self.stamp) < self.size:
            self.stamp = np.zeros(len(self.keys), dtype=np.int32)
        if _twice(self.stamp, where):  # a stored entry found twice
            return None
        if len(where) < len(keys) - 1:
            new = np.sort(np.compress(~found, keys))
            if bool(np.any(new[1:] == new[:-1])):
                return None
        return Lookup(keys, slots, found, where, hashed, sized)

    def merge_found(self, lookup: Lookup, counts: U64s, weight: int) -> Flags | None:
        """A run's entries as :meth:`find` looked them up (nothing changed in between); the
        overflow flag of each entry if any saturated."""
        top = int(counts.max()) if len(counts) else 0
        safe = self.top + top * weight <= U64_MAX  # nothing can saturate: add unchecked
        self.top = min(self.top + top * weight, U64_MAX)
        hashed = counts if lookup.hashed is None else counts[lookup.hashed]
        flags = self._merge_hashed(lookup, hashed, weight, safe)
        sized = None
        if lookup.sized is not None:
            sized = self._merge_sized(lookup.sized, counts[lookup.sized.taken], weight, safe)
        new = len(lookup.where) < len(lookup.found)
        new = new or (lookup.sized is not None and not bool(lookup.sized.present.all()))
        if new and int(self._fill.max()) > MAX_VALUES_PER_SITE:
            self._truncate()  # a run that brings a value cuts every site past 255
        if sized is None and (flags is None or lookup.hashed is None):
            return flags
        every = np.zeros(len(counts), dtype=bool)
        if flags is not None:
            every[lookup.hashed] = flags
        if sized is not None:
            assert lookup.sized is not None
            every[lookup.sized.taken] = sized
        return every

    def _merge_hashed(self, lookup: Lookup, counts: U64s, weight: int, safe: bool) -> Flags | None:
        found = lookup.found
        if safe:
            added = np.compress(found, counts)
            if weight != 1:
                added *= np.uint64(weight)
            self.counts[lookup.where] = take(self.counts, lookup.where) + added
            flags = None
        else:
            flags = add_found(self.counts, lookup.where, found, counts, weight)
        if len(lookup.where) < len(found):
            new = ~found
            self._append(
                np.compress(new, lookup.keys), np.compress(new, counts),
                np.compress(new, lookup.slots),
            )  # fmt: skip
        return flags

    def _merge_sized(self, sized: _Cells, counts: U64s, weight: int, safe: bool) -> Flags | None:
        """A present size adds ``count * weight``, a new one is its count as is (its cell
        holds 0)."""
        assert self.sizes is not None
        table, cells, present = self.sizes.counts, sized.cells, sized.present
        flags = None
        if safe:
            if weight != 1:
                counts = np.where(present, counts * np.uint64(weight), counts)
            table[cells] = take(table, cells) + counts
        else:
            flags = add_found(table, cells[present], present, counts, weight)
            new = ~present
            table[cells[new]] = counts[new]
        self.sizes.present[cells] = True
        return flags

    def _append(self, keys: Ints, counts: U64s, slots: Ints) -> None:
        count = len(keys)
        if self.size + count > len(self.counts):
            capacity = (self.size + count) * 5 // 4
            for name in ("keys", "counts", "live"):
                old = getattr(self, name)
                grown = np.zeros(capacity + (name == "keys"), dtype=old.dtype)
                grown[: self.size] = old[: self.size]
                setattr(self, name, grown)
            self.keys[-1] = -1
        first = self.size
        self.keys[first : first + count] = keys
        self.counts[first : first + count] = counts
        self.live[first : first + count] = True
        self.size += count
        sites = keys >> self.id_bits
        self._fill += np.bincount(sites, minlength=len(self._fill))
        index = np.arange(first, first + count, dtype=np.int64)
        full = np.flatnonzero(4 * self._fill > 3 * self.region)
        if len(full):
            moving = np.zeros(len(self._fill), dtype=bool)
            moving[full] = True
            stay = ~moving[sites]
            self._place(slots[stay], index[stay], keys[stay])
            self._move(full, index[~stay])
        else:
            self._place(slots, index, keys)

    def _move(self, sites: Ints, extra: Ints) -> None:
        """New regions at the end of the table for ``sites``, which outgrew theirs, holding
        their entries and the new entries ``extra``; without room there, a new table."""
        old = spans(self.start[sites], self.region[sites])
        held = self.table[old]
        region = _regions(self._fill[sites])
        if self.end + int(region.sum()) > len(self.table):
            self._rebuild()
            return
        self.table[old] = _EMPTY
        index = np.concatenate([held[held >= 0].astype(np.int64), extra])
        self.start[sites] = self.end + np.cumsum(region) - region
        self.region[sites] = region
        self.mask[sites] = region - 1
        self.end += int(region.sum())
        keys = self.keys[index]
        self._place(self._slots(keys), index, keys)

    def _truncate(self) -> None:
        """``sortByCount``'s cut: a site keeps its 255 first entries by (count desc, value asc),
        and its region is filled again from those."""
        heavy = np.flatnonzero(self._fill > MAX_VALUES_PER_SITE)
        slots = spans(self.start[heavy], self.region[heavy])
        entries = self.table[slots]
        index = entries[entries >= 0].astype(np.int64)
        cut = beyond_cut(self.keys[index], self.counts[index], self._fill[heavy], self.id_bits)
        drop, keep = index[cut], index[~cut]
        self.live[drop] = False
        self.dead += len(drop)
        self._fill[heavy] = MAX_VALUES_PER_SITE
        self.table[slots] = _EMPTY
        kept = self.keys[keep]
        self._place(self._slots(kept), keep, kept)

    # -- the result -----------------------------------------------------------------
    def entries(self) -> tuple[Ints, U64s]:
        """The live entries in the order they were stored (the table of sizes' last), with
        their counts."""
        index = np.flatnonzero(self.live[: self.size])
        keys, counts = self.keys[index], self.counts[index]
        if self.sizes is None:
            return keys, counts
        sized_keys, sized_counts = self.sizes.entries(None, self.id_bits)
        return np.concatenate([keys, sized_keys]), np.concatenate([counts, sized_counts])

    def sorted(self) -> tuple[Ints, U64s]:
        """The live entries by key, with their counts."""
        keys, counts = self.entries()
        order = np.argsort(keys, kind="stable")
        return keys[order], counts[order]


__all__ = ["SIZES", "Lookup", "ValueStore", "add_found", "add_scaled", "beyond_cut"]
