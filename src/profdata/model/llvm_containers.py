"""Iteration orders of the LLVM hash containers that decide ``merge``'s output order.

``llvm-profdata merge`` keeps function names in a ``StringMap`` and the
records of one name in a ``SmallDenseMap<uint64_t, InstrProfRecord>`` (4
inline buckets); it writes, and merges per-thread writers, in those maps'
iteration orders (``instr-indexed.md`` §6.4, §6.5, §7.4); LLVM 16's
``supplementInstrProfile`` walks a ``DenseMap<StringRef, ...>`` of flattened
sample profiles.  Reproducing LLVM's
bytes therefore means replaying the maps' probing and growth exactly; these
functions do that and return the iteration order as indexes into the keys in
insertion order, so callers can reorder whatever they attach to the keys.

Hashes: ``StringMap`` uses ``djbHash(key, 0)`` up to release 16 and
``xxh3_64bits`` (low 32 bits) from 17; ``DenseMapInfo<uint64_t>`` uses
``key * 37`` up to 16 and a splitmix-style mix from 19 (``releases.py`` says
which release does what).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from profdata.model.names import names_bytes
from profdata.model.xxh3 import xxh3_64bits

_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_STRINGMAP_INIT_BUCKETS = 16
_DENSEMAP_INLINE_BUCKETS = 4
_DENSEMAP_MIN_LARGE_BUCKETS = 64
_TOMBSTONE = -2  # an erased StringMap bucket


def djb_hash(data: bytes) -> int:
    """``llvm::djbHash(data, 0)``: ``h = h * 33 + byte`` over 32 bits."""
    h = 0
    for byte in data:
        h = (h * 33 + byte) & _M32
    return h


def djb_hashes(keys: Sequence[bytes]) -> npt.NDArray[np.uint32]:
    """:func:`djb_hash` of many keys at once: ``sum(byte_i * 33**(n-1-i)) mod 2**32``.

    A 100k-function profile has megabytes of names; a per-byte Python loop
    would dominate the 14/16 writer, so the polynomial is evaluated with one
    multiply and one segmented sum over all bytes.
    """
    lengths = np.fromiter((len(k) for k in keys), dtype=np.int64, count=len(keys))
    if not len(keys):
        return np.zeros(0, dtype=np.uint32)
    flat = np.frombuffer(b"".join(keys), dtype=np.uint8).astype(np.uint64)
    longest = int(lengths.max())
    powers = np.ones(max(longest, 1), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for i in range(1, longest):
            powers[i] = (powers[i - 1] * np.uint64(33)) & np.uint64(_M32)
    ends = np.cumsum(lengths)
    starts = ends - lengths
    # exponent of each byte = bytes after it in its own key
    exponent = np.repeat(ends - 1, lengths) - np.arange(len(flat), dtype=np.int64)
    with np.errstate(over="ignore"):
        terms = flat * powers[exponent]
    out = np.zeros(len(keys), dtype=np.uint64)
    nonempty = lengths > 0
    if nonempty.any():
        with np.errstate(over="ignore"):
            out[nonempty] = np.add.reduceat(terms, starts[nonempty])
    return (out & np.uint64(_M32)).astype(np.uint32)


def stringmap_hashes(keys: Sequence[bytes], *, xxh3: bool) -> list[int]:
    """The 32-bit ``StringMapImpl`` hash of each key."""
    if xxh3:
        return [xxh3_64bits(k) & _M32 for k in keys]
    return [int(h) for h in djb_hashes(keys)]


def probe_bucket(table: list[int], full_hash: int) -> int:
    """``LookupBucketFor``'s quadratic probe, for a key not in the table, to the first
    empty (``-1``) or tombstone (``-2``) bucket: where an insert puts it."""
    mask = len(table) - 1
    slot = full_hash & mask
    step = 1
    while table[slot] >= 0:
        slot = (slot + step) & mask
        step += 1
    return slot


def stringmap_order(keys: Sequence[bytes], *, xxh3: bool) -> list[int]:
    """Iteration order of a ``StringMap`` filled with ``keys`` in this order.

    :class:`StringMapTable` gives the same order; this loop without its erase
    bookkeeping stays because the indexed writer orders every function name with
    it (100k names: 0.26 s here against 0.39 s through the table).

    Returns indexes into ``keys``; a repeated key keeps its first index (a
    ``StringMap`` insert of a present key is a lookup).
    """
    hashes = stringmap_hashes(keys, xxh3=xxh3)
    table = [-1] * _STRINGMAP_INIT_BUCKETS
    seen: dict[bytes, int] = {}
    for index, key in enumerate(keys):
        if key in seen:
            continue
        seen[key] = index
        table[probe_bucket(table, hashes[index])] = index
        if len(seen) * 4 > len(table) * 3:
            old = table
            table = [-1] * (2 * len(old))
            for item in old:
                if item >= 0:
                    table[probe_bucket(table, hashes[item])] = item
    return [item for item in table if item >= 0]


def stringmap_ordered(names: Sequence[str], *, xxh3: bool) -> list[str]:
    """``names`` (distinct) as a ``StringMap`` filled with them in this order iterates them:
    what a symbol table or a ``StringSet`` of names hands on."""
    return [names[i] for i in stringmap_order(names_bytes(list(names)), xxh3=xxh3)]


class StringMapTable:
    """A ``StringMap`` that keys are also erased from: its buckets, tombstones included.

    ``RemoveKey`` leaves a tombstone, which the next insert whose probe passes
    it takes, and the table never shrinks; so once keys were erased the
    iteration order is no longer that of a fresh map of the remaining keys
    (:func:`stringmap_order`).  LLVM 13's cold-context trimmer erases cold
    profiles from its ``StringMap`` of profiles and then inserts the merged ones.
    """

    def __init__(self, *, xxh3: bool) -> None:
        self.xxh3 = xxh3
        self.buckets = [-1] * _STRINGMAP_INIT_BUCKETS  # entry id, -1 empty, -2 tombstone
        self.keys: list[bytes] = []  # by entry id (an erased key inserted again gets a new id)
        self.hashes: list[int] = []
        self.slots: dict[bytes, int] = {}  # live key -> bucket
        self.tombstones = 0

    @classmethod
    def filled(cls, keys: Sequence[bytes], *, xxh3: bool) -> StringMapTable:
        """A map that ``keys`` were inserted into in this order."""
        table = cls(xxh3=xxh3)
        for key, full_hash in zip(keys, stringmap_hashes(keys, xxh3=xxh3), strict=True):
            table.insert(key, full_hash)
        return table

    def holds_exactly(self, keys: Sequence[bytes]) -> bool:
        return len(set(keys)) == len(self.slots) and all(k in self.slots for k in keys)

    def insert(self, key: bytes, full_hash: int | None = None) -> None:
        """``try_emplace``: a present key stays where it is."""
        if key in self.slots:
            return
        if full_hash is None:
            full_hash = stringmap_hashes([key], xxh3=self.xxh3)[0]
        ident = len(self.keys)
        self.keys.append(key)
        self.hashes.append(full_hash)
        slot = probe_bucket(self.buckets, full_hash)  # the first tombstone or empty bucket
        if self.buckets[slot] == _TOMBSTONE:
            self.tombstones -= 1
        self.buckets[slot] = ident
        self.slots[key] = slot
        size, items = len(self.buckets), len(self.slots)
        if items * 4 > size * 3:
            self._rehash(size * 2)
        elif size - (items + self.tombstones) <= size // 8:
            self._rehash(size)  # too few empty buckets left: tombstones are dropped

    def erase(self, key: bytes) -> None:
        slot = self.slots.pop(key, None)
        if slot is not None:
            self.buckets[slot] = _TOMBSTONE
            self.tombstones += 1

    def _rehash(self, size: int) -> None:
        old, self.buckets = self.buckets, [-1] * size
        for ident in old:
            if ident >= 0:
                slot = probe_bucket(self.buckets, self.hashes[ident])
                self.buckets[slot] = ident
                self.slots[self.keys[ident]] = slot
        self.tombstones = 0

    def order(self) -> list[bytes]:
        """The live keys in iteration (bucket) order."""
        return [self.keys[ident] for ident in self.buckets if ident >= 0]


def densemap_hash(key: int, *, mix: bool) -> int:
    """``DenseMapInfo<uint64_t>::getHashValue`` (32 bits)."""
    if not mix:
        return (key * 37) & _M32
    y = (key * 0xBF58476D1CE4E5B9) & _M64
    return (y ^ (y >> 31)) & _M32


def small_densemap_order(keys: Sequence[int], *, mix: bool) -> list[int]:
    """Iteration order of a ``SmallDenseMap<uint64_t, T>`` (4 inline buckets).

    Returns indexes into ``keys`` (inserted in this order, repeats ignored).
    """
    firsts: dict[int, int] = {}
    for index, key in enumerate(keys):
        firsts.setdefault(key, index)
    hashes = [densemap_hash(key, mix=mix) for key in firsts]
    order = _densemap_slots(hashes, _DENSEMAP_INLINE_BUCKETS)
    indexes = list(firsts.values())
    return [indexes[i] for i in order]


def densemap_order(hashes: Sequence[int]) -> list[int]:
    """Iteration order of a ``DenseMap`` filled with distinct keys of these 32-bit hashes,
    in this order (LLVM 16's ``DenseMap<StringRef, ...>`` in ``supplementInstrProfile``).

    Returns indexes into ``hashes``.
    """
    return _densemap_slots(hashes, 0)


def _densemap_slots(hashes: Sequence[int], inline_buckets: int) -> list[int]:
    """``DenseMapBase::InsertIntoBucket`` for distinct keys, then the bucket walk.

    Before an insert the map grows when it would be 3/4 full, or rehashes at
    its size when fewer than 1/8 of the buckets would stay empty.  A
    ``SmallDenseMap`` stays in its ``inline_buckets`` while the new size fits
    them; otherwise (and always for a ``DenseMap``, ``inline_buckets`` 0) it
    allocates the next power of two, at least 64.
    """
    table = [-1] * inline_buckets
    for index, full_hash in enumerate(hashes):
        entries = index + 1
        buckets = len(table)
        if entries * 4 >= buckets * 3 or buckets - entries <= buckets // 8:
            grow_to = 2 * buckets if entries * 4 >= buckets * 3 else buckets
            if not inline_buckets or grow_to > inline_buckets:
                grow_to = max(_DENSEMAP_MIN_LARGE_BUCKETS, 1 << (grow_to - 1).bit_length())
            old = table
            table = [-1] * grow_to
            for item in old:
                if item >= 0:
                    table[probe_bucket(table, hashes[item])] = item
        table[probe_bucket(table, full_hash)] = index
    return [item for item in table if item >= 0]
