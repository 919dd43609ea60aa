"""MemProf (heap profile) data as indexed profiles hold it, format-neutral.

Mirrors LLVM's ``IndexedMemProfData``: frames and call stacks are interned
under 64-bit ids and records (one per function GUID) refer to call stacks by
id.  Keeping the ids (not only the resolved frames) is what lets a writer
reproduce LLVM's bytes: the ids order hash-table buckets and break ties in the
frame array and radix tree.  Dictionaries keep insertion order, which is
LLVM's ``MapVector`` order.

``MemInfoBlock`` holds the fields of the schema it was read with
(``PortableMemInfoBlock``): a writer stores exactly the fields of its own
schema, missing ones as 0.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import astuple, dataclass, field
from typing import NamedTuple

import numpy as np

#: ``MIBEntryDef.inc``: (name, Meta id, byte width); ``Meta::Start`` is 0, so ids start at 1.
MIB_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("AllocCount", 1, 4),
    ("TotalAccessCount", 2, 8),
    ("MinAccessCount", 3, 8),
    ("MaxAccessCount", 4, 8),
    ("TotalSize", 5, 8),
    ("MinSize", 6, 4),
    ("MaxSize", 7, 4),
    ("AllocTimestamp", 8, 4),
    ("DeallocTimestamp", 9, 4),
    ("TotalLifetime", 10, 8),
    ("MinLifetime", 11, 4),
    ("MaxLifetime", 12, 4),
    ("AllocCpuId", 13, 4),
    ("DeallocCpuId", 14, 4),
    ("NumMigratedCpu", 15, 4),
    ("NumLifetimeOverlaps", 16, 4),
    ("NumSameAllocCpu", 17, 4),
    ("NumSameDeallocCpu", 18, 4),
    ("DataTypeId", 19, 8),
    ("TotalAccessDensity", 20, 8),
    ("MinAccessDensity", 21, 4),
    ("MaxAccessDensity", 22, 4),
    ("TotalLifetimeAccessDensity", 23, 8),
    ("MinLifetimeAccessDensity", 24, 4),
    ("MaxLifetimeAccessDensity", 25, 4),
    ("AccessHistogramSize", 26, 4),  # LLVM 19+
    ("AccessHistogram", 27, 8),  # LLVM 19+; a pointer in the writing process
)
MIB_ID = {name: fid for name, fid, _ in MIB_FIELDS}
MIB_WIDTH = {fid: width for _, fid, width in MIB_FIELDS}

#: ``getHotColdSchema()``: AllocCount, TotalSize, TotalLifetime, TotalLifetimeAccessDensity
HOT_COLD_SCHEMA: tuple[int, ...] = (1, 5, 10, 23)
_COLD_DENSITY = np.float32(0.05)  # memprof-lifetime-access-density-cold-threshold
_COLD_LIFETIME = np.float32(200 * 1000)  # memprof-ave-lifetime-cold-threshold, in ms


def full_schema(num_fields: int) -> tuple[int, ...]:
    """``getFullSchema()`` of a release whose ``MIBEntryDef.inc`` has ``num_fields`` fields."""
    return tuple(fid for _, fid, _ in MIB_FIELDS[:num_fields])


class Frame(NamedTuple):
    """``memprof::Frame``: a source location inside a function (GUID)."""

    function: int
    line_offset: int
    column: int
    is_inline_frame: bool


@dataclass(frozen=True)
class MemInfoBlock:
    """``PortableMemInfoBlock``: the stored fields (Meta id -> value) in schema order."""

    values: Mapping[int, int]

    def get(self, name: str) -> int:
        return self.values.get(MIB_ID[name], 0)

    def items(self) -> Iterator[tuple[str, int]]:
        """Present fields as (name, value) in ``MIBEntryDef.inc`` order (LLVM's YAML order)."""
        for name, fid, _ in MIB_FIELDS:
            if fid in self.values:
                yield name, self.values[fid]


@dataclass(frozen=True)
class AllocSite:
    """``IndexedAllocationInfo``: an allocation context and its counters."""

    call_stack_id: int
    info: MemInfoBlock


@dataclass(frozen=True)
class CallSite:
    """``IndexedCallSiteInfo``: a call site context and its callee GUIDs (V4)."""

    call_stack_id: int
    callee_guids: tuple[int, ...] = ()


@dataclass
class MemProfRecord:
    """``IndexedMemProfRecord``: what one function (GUID) allocates and calls."""

    alloc_sites: list[AllocSite] = field(default_factory=list)
    call_sites: list[CallSite] = field(default_factory=list)


@dataclass(frozen=True)
class MemProfSummary:
    """``MemProfSummary`` (stored by MemProf V4, computed for earlier versions)."""

    num_contexts: int = 0
    num_cold_contexts: int = 0
    num_hot_contexts: int = 0
    max_cold_total_size: int = 0
    max_warm_total_size: int = 0
    max_hot_total_size: int = 0

    def fields(self) -> tuple[int, ...]:
        """The fields in their stored order (``MemProfSummary::write``)."""
        return astuple(self)


@dataclass
class MemProfData:
    """``IndexedMemProfData`` plus what the section it came from stated.

    ``version`` and ``schema`` are those of the section read (None for data
    built in memory); ``summary`` is V4's stored summary.  Dictionaries are in
    insertion order: a reader inserts in an order from which LLVM's hash-table
    generator emits the stored payload, so writing reproduces the bytes.
    """

    frames: dict[int, Frame] = field(default_factory=dict)
    call_stacks: dict[int, tuple[int, ...]] = field(default_factory=dict)
    records: dict[int, MemProfRecord] = field(default_factory=dict)
    version: int | None = None
    schema: tuple[int, ...] | None = None
    summary: MemProfSummary | None = None
    #: record GUIDs in the section's payload order (what readers list); the dicts above
    #: hold LLVM's insertion order instead, which a writer replays
    listed: tuple[int, ...] | None = None

    def frames_of(self, call_stack_id: int) -> list[Frame]:
        """The frames of a call stack, leaf first (``CallStackIdConverter``)."""
        return [self.frames[f] for f in self.call_stacks.get(call_stack_id, ())]

    def listed_records(self) -> Iterator[tuple[int, MemProfRecord]]:
        """Records in the order LLVM's reader iterates them (payload order when read)."""
        order = self.listed if self.listed is not None else tuple(self.records)
        for guid in order:
            yield guid, self.records[guid]

    def is_empty(self) -> bool:
        return not self.records and not self.frames and not self.call_stacks


def build_summary(data: MemProfData, *, by_frames: bool) -> MemProfSummary:
    """``MemProfSummaryBuilder`` over the records' allocation contexts.

    A context counts once, the first time it is seen: ``show`` keys it by
    ``computeFullStackId`` (function, line and column of every frame,
    ``by_frames``) over the records as read, the writer by call stack id over
    the records in insertion order.  It is cold when the average lifetime
    access density is under 0.05 and the average lifetime at least 200 s,
    with LLVM's single-precision arithmetic.  Hot contexts need
    ``-memprof-use-hot-hints``, which llvm-profdata never sets.
    """
    seen: set[object] = set()
    counts = [0, 0, 0]
    sizes = [0, 0, 0]
    records = [r for _, r in data.listed_records()] if by_frames else data.records.values()
    for record in records:
        for site in record.alloc_sites:
            key: object = site.call_stack_id
            if by_frames:
                frames = data.frames_of(site.call_stack_id)
                key = tuple((f.function, f.line_offset, f.column) for f in frames)
            if key in seen:
                continue
            seen.add(key)
            counts[0] += 1
            info = site.info
            cold = _is_cold(
                info.get("TotalLifetimeAccessDensity"),
                info.get("AllocCount"),
                info.get("TotalLifetime"),
            )
            slot = 1 if cold else 2
            if cold:
                counts[1] += 1
            sizes[slot] = max(sizes[slot], info.get("TotalSize"))
    return MemProfSummary(counts[0], counts[1], 0, sizes[1], sizes[2], 0)


def _is_cold(density: int, alloc_count: int, lifetime: int) -> bool:
    """``getAllocType`` == Cold, in float32 as LLVM computes it (zero counts give inf/nan)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        count = np.float32(alloc_count)
        ave_density = np.float32(np.float32(density) / count) / np.float32(100)
        ave_lifetime = np.float32(lifetime) / count
        return bool(ave_density < _COLD_DENSITY and ave_lifetime >= _COLD_LIFETIME)
