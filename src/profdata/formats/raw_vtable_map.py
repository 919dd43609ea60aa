"""A raw profile's vtable address map as LLVM's ``IntervalMap`` holds it.

``RawInstrProfReader::createSymtab`` inserts each vtable's half-open interval
``[VTablePointer, VTablePointer + VTableSize)`` (the sum in pointer width; a
null pointer is skipped) in file order into an ``IntervalMap`` of
``IntervalMapHalfOpenInfo``, and a profiled vtable address becomes the hash
of the interval the map finds for it.  A real binary's vtables are disjoint
(one often ends where the next begins, which only half-open intervals keep
apart), and the map is then an ordinary interval lookup.  A damaged
``VTableSize`` makes intervals overlap, which the map assumes never happens.
Up to its root leaf's capacity (8 intervals of 64-bit keys and values) it keeps
them in one array:

* an insert goes before the first interval that ends after its start,
  coalescing with a neighbour of the same hash that it touches;
* a lookup gives 0 for an address before the first interval's start or at or
  after the last one's end, else takes the first interval that ends after the
  address, and gives its hash if the address is not before its start.

(Stop 50 took the intervals as closed.  The tenth shadow program set, whose 8
vtables lie end to end, showed the real tools naming all of them where closed
intervals put the later ones out of order and lost 4; 8 vtables with one size
damaged four ways agree with the real 19 and 22 as half-open ones.)

So an interval grown over others hides some of them, and ``tools/fuzz_llvm.py``
found ``show`` printing "** External Symbol **" where profdata named the
vtable.  That array is emulated here.  Past 8 intervals the map becomes a B+
tree, whose handling of overlaps is not emulated: the disjoint lookup is used.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

U64s = npt.NDArray[np.uint64]

#: ``IntervalMap<uint64_t, uint64_t>``'s root leaf: three 64-byte cache lines of
#: (start, stop, value) triples, 24 bytes each (``IntervalMapImpl::NodeSizer``)
ROOT_LEAF_CAPACITY = 8
_MASK = (1 << 64) - 1


def _root_leaf(
    starts: list[int], stops: list[int], refs: list[int]
) -> list[tuple[int, int, int]] | None:
    """The root leaf after inserting the intervals in order (``LeafNode::insertFrom``);
    None once one more would make the map a tree."""
    leaf: list[tuple[int, int, int]] = []
    for a, b, y in zip(starts, stops, refs, strict=True):
        if len(leaf) == ROOT_LEAF_CAPACITY:
            return None
        i = next((k for k, (_, stop, _) in enumerate(leaf) if stop > a), len(leaf))
        if i and leaf[i - 1][2] == y and leaf[i - 1][1] == a:
            if i != len(leaf) and leaf[i][2] == y and b == leaf[i][0]:
                leaf[i - 1] = (leaf[i - 1][0], leaf[i][1], y)
                del leaf[i]
            else:
                leaf[i - 1] = (leaf[i - 1][0], b, y)
        elif i == len(leaf):
            leaf.append((a, b, y))
        elif leaf[i][2] == y and b == leaf[i][0]:
            leaf[i] = (a, leaf[i][1], y)
        else:
            leaf.insert(i, (a, b, y))
    return leaf


class VTableMap:
    """Vtable addresses to vtable name hashes (0: none), as ``getVTableHashFromAddress``."""

    def __init__(self, pointers: U64s, sizes: U64s, refs: U64s, pointer_bits: int) -> None:
        known = pointers != 0
        starts = pointers[known].astype(np.uint64)
        width = np.uint64((1 << pointer_bits) - 1) if pointer_bits < 64 else np.uint64(_MASK)
        with np.errstate(over="ignore"):
            stops = (starts + sizes[known].astype(np.uint64)) & width
        hashes = refs[known].astype(np.uint64)
        leaf = _root_leaf(starts.tolist(), stops.tolist(), hashes.tolist())
        #: the lookup is the root leaf's (else the intervals are taken as disjoint)
        self.in_leaf = leaf is not None
        if leaf is not None:
            columns = np.array(leaf, dtype=np.uint64).reshape(-1, 3)
            starts, stops, hashes = columns[:, 0], columns[:, 1], columns[:, 2]
        else:
            order = np.argsort(starts, kind="stable")
            starts, stops, hashes = starts[order], stops[order], hashes[order]
        #: the intervals as the lookup takes them: the leaf's order, or by start
        self.starts, self.stops, self.refs = starts, stops, hashes

    def lookup(self, values: U64s) -> U64s:
        if not len(self.starts):
            return np.zeros_like(values)
        if self.in_leaf:
            return self._leaf_lookup(values, self.starts, self.stops, self.refs)
        idx = np.searchsorted(self.starts, values, side="right") - 1
        safe = np.maximum(idx, 0)
        hit = (idx >= 0) & (values < self.stops[safe])
        return np.where(hit, self.refs[safe], np.uint64(0))

    @staticmethod
    def _leaf_lookup(values: U64s, starts: U64s, stops: U64s, refs: U64s) -> U64s:
        """``IntervalMap::lookup`` on the root leaf (``safeLookup``)."""
        inside = (values >= starts[0]) & (values < stops[-1])
        reaches = stops[None, :] > values[:, None]
        first = np.argmax(reaches, axis=1)  # some interval reaches every value inside
        hit = inside & (values >= starts[first])
        return np.where(hit, refs[first], np.uint64(0))


__all__ = ["ROOT_LEAF_CAPACITY", "VTableMap"]
