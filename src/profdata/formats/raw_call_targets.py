"""Indirect-call targets of raw runs as value ids: ``InstrProfSymtab``'s address map.

A raw profile states each indirect-call target as the address the program
called, and LLVM's reader maps it through the data records'
``FunctionPointer`` column to the callee's NameRef (0 where no function starts
there).  Every run of one binary holds the same map moved by one ASLR load
offset, so the fast merge (:mod:`profdata.formats.raw_columns`) builds it once
from the first run, as a direct table of value ids when the functions lie
close together, and looks each later run's targets up as ``address -
offset`` with a few whole-array steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from profdata.model.bucketed import BucketedValues
from profdata.model.cxx_algo import sort_by
from profdata.model.instr import take

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]

_FULL = 0xFFFFFFFFFFFFFFFF
_DIRECT_SLOTS_PER_ADDRESS = 32  # 100k functions of ~350 bytes (16-aligned): 22 slots each


@dataclass(frozen=True, eq=False)
class CallTargets:
    """``InstrProfSymtab``'s address map of the shape's profile, as value ids.

    Another run of the binary has the same map moved by one load offset, so
    a target is looked up as ``address - offset``: its bucket of ``2**bits``
    bytes (about one function each) says which addresses to compare with
    (:class:`~profdata.model.bucketed.BucketedValues`).
    """

    pointers: U64s  # FunctionPointer column of the shape's profile
    known: U64s  # 1 where it is not 0
    every_known: bool  # no FunctionPointer is 0
    first_known: int  # the first record with a FunctionPointer (-1: none)
    addresses: U64s  # sorted distinct non-zero FunctionPointers
    address_ids: Ints  # value id of each address's NameRef
    unknown_id: int  # value id of 0, what an unmatched target becomes
    values: U64s  # the NameRef of each id (ascending)
    bucket_bits: int
    lookup: BucketedValues | None  # the addresses by bucket; None with ``direct``
    align_bits: int = 0
    #: :attr:`direct` and one more slot past its end, holding ``unknown_id``
    direct_ids: npt.NDArray[np.int32] | None = None

    @property
    def direct(self) -> npt.NDArray[np.int32] | None:
        """When the addresses are dense enough: the value id at each multiple of their
        common alignment from the first (``unknown_id`` where no function starts)."""
        return None if self.direct_ids is None else self.direct_ids[:-1]

    def ids(self, targets: U64s, offset: int, mask: int) -> Ints:
        if not len(self.addresses):
            return np.full(len(targets), self.unknown_id, dtype=np.int64)
        local = targets - np.uint64(offset)
        if mask != _FULL:
            local &= np.uint64(mask)
        rel = local - self.addresses[0]
        if self.direct is not None:
            return self._direct_ids(rel, targets, mask)
        assert self.lookup is not None
        result = np.full(len(targets), self.unknown_id, dtype=np.int64)
        inside = rel >> np.uint64(self.bucket_bits) < np.uint64(self.lookup.count)
        if mask != _FULL:
            inside &= targets <= np.uint64(mask)
        pending = np.flatnonzero(inside)
        bucket = (rel[pending] >> np.uint64(self.bucket_bits)).astype(np.int64)
        at = self.lookup.find(local[pending], bucket)
        hit = at >= 0
        result[pending[hit]] = self.address_ids[at[hit]]
        return result

    def dense_ids(self, values: U64s, offset: int) -> npt.NDArray[np.int32]:
        """:meth:`ids` in fewer steps, no masks (with a full pointer mask and a ``direct``
        table): one slot for every target, past the table when outside it or misaligned."""
        assert self.direct_ids is not None
        outside = len(self.direct_ids) - 1
        with np.errstate(over="ignore"):
            rel = values - np.uint64((int(self.addresses[0]) + offset) & _FULL)
        slot = rel >> np.uint64(self.align_bits)
        if self.align_bits:  # rotated: a misaligned value's low bits make it huge
            rel <<= np.uint64(64 - self.align_bits)
            slot |= rel
        np.minimum(slot, np.uint64(outside), out=slot)
        ids: npt.NDArray[np.int32] = take(self.direct_ids, slot.view(np.int64))
        return ids

    def _direct_ids(self, rel: U64s, targets: U64s, mask: int) -> Ints:
        """:meth:`ids` by one look into ``direct``: an address below the first one wraps
        around to a huge ``rel`` and falls outside like one past the last."""
        assert self.direct is not None
        slot = rel >> np.uint64(self.align_bits)
        inside = slot < np.uint64(len(self.direct))
        if self.align_bits:
            inside &= (rel & np.uint64((1 << self.align_bits) - 1)) == 0
        if mask != _FULL:
            inside &= targets <= np.uint64(mask)
        slot[~inside] = 0
        ids: Ints = self.direct[slot].astype(np.int64)
        ids[~inside] = self.unknown_id
        return ids


def function_addresses(
    pointers: U64s, name_refs: npt.NDArray[np.unsignedinteger], known: npt.NDArray[np.bool_]
) -> tuple[U64s, U64s]:
    """``InstrProfSymtab::mapAddress`` of every record with a FunctionPointer: the distinct
    addresses, ascending, each with the NameRef ``getFunctionHashFromAddress`` finds.

    ``finalizeSymtab`` sorts the (address, NameRef) pairs, in file order, with
    ``llvm::sort`` by address alone, and the lookup takes the first pair of an
    address.  Where two records share an address with different NameRefs (damage, or
    a runtime that writes wrong addresses: each function's own counters keep the
    linker's identical code folding from merging instrumented functions), that is
    the one libstdc++'s introsort leaves first, the first in file order only while
    there are at most 16 pairs.
    """
    addresses = pointers[known]
    refs = name_refs.astype(np.uint64)[known]
    # compilers lay the records out by address: then every address is distinct (no sort);
    # else a shared address keeps its first record's NameRef when all of them agree
    if len(addresses) > 1 and not bool(np.all(addresses[1:] > addresses[:-1])):
        order = np.argsort(addresses, kind="stable")
        ordered, ordered_refs = addresses[order], refs[order]
        starts = np.append(True, ordered[1:] != ordered[:-1])
        first = np.flatnonzero(starts)
        if bool(np.any(ordered_refs != ordered_refs[first][np.cumsum(starts) - 1])):
            return _introsort_firsts(addresses, refs)
        addresses, refs = ordered[first], ordered_refs[first]
    return addresses, refs


def _introsort_firsts(addresses: U64s, refs: U64s) -> tuple[U64s, U64s]:
    """The distinct addresses, each with the NameRef ``std::sort`` leaves first."""
    order = np.array(sort_by(range(len(addresses)), addresses.tolist()), dtype=np.int64)
    ordered = addresses[order]
    first = order[np.flatnonzero(np.append(True, ordered[1:] != ordered[:-1]))]
    return addresses[first], refs[first]


def call_targets(
    data: npt.NDArray[np.void], slots_per_address: int = _DIRECT_SLOTS_PER_ADDRESS
) -> CallTargets:
    """The shape's address map, looked up through a direct table when it stays within
    ``slots_per_address`` slots a function, else through address buckets."""
    pointers = data["function_pointer"].astype(np.uint64)
    known = pointers != 0
    addresses, refs = function_addresses(pointers, data["name_ref"], known)
    # the distinct NameRefs and 0, and where each address's NameRef is among them
    values, position = np.unique(np.append(refs, np.uint64(0)), return_inverse=True)
    address_ids, unknown = position[:-1], int(position[-1])
    direct, align_bits = direct_table(addresses, address_ids, unknown, slots_per_address)
    bits = 0
    lookup = None
    if len(addresses) and direct is None:
        rel = addresses - addresses[0]
        bits = max(max(int(rel[-1]) // len(addresses), 1).bit_length() - 3, 0)  # ~4 per function
        nbuckets = (int(rel[-1]) >> bits) + 1
        lookup = BucketedValues.of(addresses, (rel >> np.uint64(bits)).astype(np.int64), nbuckets)
    first_known = int(np.argmax(known)) if bool(known.any()) else -1
    return CallTargets(
        pointers, known.astype(np.uint64), bool(known.all()), first_known, addresses,
        address_ids, unknown, values,
        bits, lookup, align_bits, direct,
    )  # fmt: skip


def direct_table(
    addresses: U64s, address_ids: Ints, unknown: int, slots_per_address: int
) -> tuple[npt.NDArray[np.int32] | None, int]:
    """The value id at every multiple of the addresses' common alignment, when that table
    is at most ``slots_per_address`` slots an address (functions start at aligned
    addresses and follow one another closely, so it usually is; 0: never)."""
    if slots_per_address <= 0 or not len(addresses) or int(address_ids.max()) >= 1 << 31:
        return None, 0
    rel = addresses - addresses[0]
    common = int(np.bitwise_or.reduce(rel))
    align_bits = (common & -common).bit_length() - 1 if common else 0
    slots = (int(rel[-1]) >> align_bits) + 1
    if slots > slots_per_address * len(addresses) + 1024:
        return None, 0
    # one slot more, past the end: where :meth:`CallTargets.dense_ids` sends what is outside
    table = np.full(slots + 1, unknown, dtype=np.int32)
    table[(rel >> np.uint64(align_bits)).astype(np.int64)] = address_ids
    return table, align_bits


__all__ = ["CallTargets", "call_targets", "direct_table", "function_addresses"]
