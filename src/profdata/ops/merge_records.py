"""One record's merge arithmetic (LLVM's ``InstrProfRecord::merge`` / ``scale``).

The rules are those of ``InstrProfWriter::addRecord``: a (name, hash) seen
for the first time is stored and, with a weight above 1, scaled; a known one
is merged with saturating arithmetic; then every value site is stably sorted
by descending count and cut to 255 values.  Two LLVM quirks are kept on
purpose because they decide output bytes: a value present only in the
incoming site is inserted with its count *unscaled* by the weight, and the
merged site is ordered by value before the count sort, so equal counts end up
in ascending value order.  LLVM 14 knew neither pseudo counts nor the
``2**64-3`` clamp (``Release.merge_pseudo_counts``).
"""

from __future__ import annotations

from enum import Enum

import numpy as np

from profdata.model.counters import (
    INSTR_MAX_COUNT,
    U64_MAX,
    merge_counts,
    merge_counts_mask,
    saturating_multiply,
    saturating_multiply_add,
    scale_counts,
)
from profdata.model.cxx_algo import STABLE_UP_TO, sort_by
from profdata.model.instr import (
    PSEUDO_HOT,
    PSEUDO_WARM,
    Counts,
    InstrRecord,
    ValueData,
    ValueSite,
)
from profdata.model.kinds import ValueKind

MAX_VALUES_PER_SITE = 255  # INSTR_PROF_MAX_NUM_VAL_PER_SITE


class WarningKind(Enum):
    """``instrprof_error`` values a merge reports without failing, with LLVM's text."""

    COUNT_MISMATCH = "function basic block count change detected (counter mismatch)"
    COUNTER_OVERFLOW = "counter overflow"
    BITMAP_MISMATCH = "function bitmap size change detected (bitmap size mismatch)"
    VALUE_SITE_COUNT_MISMATCH = "function value site count change detected (counter mismatch)"
    HASH_MISMATCH = "function control flow change detected (hash mismatch)"

    @property
    def wants_hint(self) -> bool:
        """llvm-profdata follows these with "Make sure that all profile data ... same binary."."""
        return self in _HINTED


_HINTED = frozenset(
    {WarningKind.HASH_MISMATCH, WarningKind.COUNT_MISMATCH, WarningKind.VALUE_SITE_COUNT_MISMATCH}
)


def new_record(
    record: InstrRecord, name: str, weight: int, pseudo_counts: bool, warn: list[WarningKind]
) -> InstrRecord:
    """The stored copy of a first-seen record (scaled when ``weight > 1``), value data sorted.

    The counters array is shared, not copied: merging never writes into it,
    it always builds a new array.
    """
    max_count = INSTR_MAX_COUNT if pseudo_counts else U64_MAX
    counts = record.counts
    sites: dict[ValueKind, list[ValueSite]]
    if weight > 1:
        counts, overflow = scale_counts(record.counts, weight, max_count)
        if overflow:
            warn.append(WarningKind.COUNTER_OVERFLOW)
        sites = {
            kind: [_scaled_site(site, weight, warn) for site in lst]
            for kind, lst in record.value_sites.items()
        }
    else:
        sites = {kind: [list(site) for site in lst] for kind, lst in record.value_sites.items()}
    out = InstrRecord(name, record.hash, counts, bytes(record.bitmap), sites)
    sort_value_data(out)
    return out


def _scaled_site(site: ValueSite, weight: int, warn: list[WarningKind]) -> ValueSite:
    scaled: ValueSite = []
    for vd in site:
        count, overflow = saturating_multiply(vd.count, weight)
        if overflow:
            warn.append(WarningKind.COUNTER_OVERFLOW)
        scaled.append(ValueData(vd.value, count))
    return scaled


def merge_record(
    dest: InstrRecord,
    src: InstrRecord,
    weight: int,
    pseudo_counts: bool,
    warn: list[WarningKind],
    *,
    introsort: bool,
) -> None:
    """``InstrProfRecord::merge`` of ``src`` (times ``weight``) into ``dest``, then the sort."""
    if not counters_mergeable(dest, src, pseudo_counts):
        _merge_special(dest, src, pseudo_counts, warn)
        return
    max_count = INSTR_MAX_COUNT if pseudo_counts else U64_MAX
    dest.counts, overflow = merge_counts(dest.counts, src.counts, weight, max_count)
    if overflow:
        warn.append(WarningKind.COUNTER_OVERFLOW)
    merge_beyond_counters(dest, src, weight, warn, introsort=introsort)


def counters_mergeable(dest: InstrRecord, src: InstrRecord, pseudo_counts: bool) -> bool:
    """Whether the counters add up element by element (else :func:`merge_record` decides)."""
    if len(dest.counts) != len(src.counts):
        return False
    return not pseudo_counts or (src.pseudo_kind is None and dest.pseudo_kind is None)


def _merge_special(
    dest: InstrRecord, src: InstrRecord, pseudo_counts: bool, warn: list[WarningKind]
) -> None:
    """A counter-count mismatch, or (LLVM 16+) pseudo counts: nothing else is merged."""
    src_pseudo, dst_pseudo = src.pseudo_kind, dest.pseudo_kind
    if len(dest.counts) != len(src.counts) or src_pseudo is None or dst_pseudo is None:
        warn.append(WarningKind.COUNT_MISMATCH)
        return
    counts = dest.counts.copy()
    counts[0] = PSEUDO_HOT if PSEUDO_HOT in (src_pseudo, dst_pseudo) else PSEUDO_WARM
    dest.counts = counts


def merge_beyond_counters(
    dest: InstrRecord, src: InstrRecord, weight: int, warn: list[WarningKind], *, introsort: bool
) -> None:
    """The rest of ``InstrProfRecord::merge`` (bitmap OR, value sites) and the sort;
    ``introsort``: the release sorts sites by value with ``llvm::sort`` (see
    :func:`sort_by_value`)."""
    if len(dest.bitmap) != len(src.bitmap):
        warn.append(WarningKind.BITMAP_MISMATCH)
    else:
        if src.bitmap:
            dest.bitmap = (
                int.from_bytes(dest.bitmap, "little") | int.from_bytes(src.bitmap, "little")
            ).to_bytes(len(src.bitmap), "little")
        if dest.value_sites or src.value_sites:
            for kind in ValueKind:
                dst_sites, src_sites = dest.sites(kind), src.sites(kind)
                if len(dst_sites) != len(src_sites):
                    warn.append(WarningKind.VALUE_SITE_COUNT_MISMATCH)
                    continue
                for site, other in zip(dst_sites, src_sites, strict=True):
                    merge_site(site, other, weight, warn, introsort=introsort)
    sort_value_data(dest)


class CounterBatch:
    """Counter merges of many records done as one vectorized saturating multiply-add.

    Counters are independent of everything else a merge touches, so a caller
    can queue them while it merges the rest record by record, as long as it
    flushes before a record with a queued merge is merged again.
    """

    def __init__(self, weight: int, pseudo_counts: bool) -> None:
        self.weight = weight
        self.max_count = INSTR_MAX_COUNT if pseudo_counts else U64_MAX
        self.tags: list[int] = []
        self.dests: list[InstrRecord] = []
        self.srcs: list[Counts] = []

    def __len__(self) -> int:
        return len(self.dests)

    def add(self, tag: int, dest: InstrRecord, src: InstrRecord) -> None:
        self.tags.append(tag)
        self.dests.append(dest)
        self.srcs.append(src.counts)

    def flush(self) -> list[int]:
        """Apply the queued merges; returns the tags of the records that overflowed."""
        if not self.dests:
            return []
        lengths = np.fromiter((len(c) for c in self.srcs), dtype=np.int64, count=len(self.srcs))
        total, overflow = merge_counts_mask(
            np.concatenate([d.counts for d in self.dests]),
            np.concatenate(self.srcs),
            self.weight,
            self.max_count,
        )
        ends = np.cumsum(lengths)
        for dest, part in zip(self.dests, np.split(total, ends[:-1]), strict=True):
            dest.counts = part
        overflowed: list[int] = []
        if overflow.any():
            nonempty = np.flatnonzero(lengths)
            hit = np.logical_or.reduceat(overflow, (ends - lengths)[nonempty])
            overflowed = [self.tags[i] for i in nonempty[hit]]
        self.tags, self.dests, self.srcs = [], [], []
        return overflowed


def merge_site(
    site: ValueSite, other: ValueSite, weight: int, warn: list[WarningKind], *, introsort: bool
) -> None:
    """``InstrProfValueSiteRecord::merge``: both sorted by value, matched values summed.

    Values only in ``other`` are inserted with their count as is: LLVM applies
    the weight only to values both sites hold.  A value a site holds several
    times (unknown indirect-call targets are all 0) pairs with the other
    site's entries of that value in the order the sort leaves them.
    """
    sort_by_value(site, introsort)
    incoming = list(other)
    sort_by_value(incoming, introsort)
    merged: ValueSite = []
    i = 0
    for vd in incoming:
        while i < len(site) and site[i].value < vd.value:
            merged.append(site[i])
            i += 1
        if i < len(site) and site[i].value == vd.value:
            count, overflow = saturating_multiply_add(vd.count, weight, site[i].count)
            if overflow:
                warn.append(WarningKind.COUNTER_OVERFLOW)
            merged.append(ValueData(vd.value, count))
            i += 1
        else:
            merged.append(vd)
    merged.extend(site[i:])
    site[:] = merged


def sort_by_value(site: ValueSite, introsort: bool) -> None:
    """``sortByTargetValues``, in place.

    Up to LLVM 18 the site is a ``std::list`` and its ``sort`` is stable; from
    19 it is a vector sorted with ``llvm::sort``, libstdc++'s introsort, which
    leaves equal values in another order once a site holds more than 16
    entries (:func:`profdata.model.cxx_algo.sort` replays it).  Below that it
    is an insertion sort, as stable as the list's.
    """
    if introsort and len(site) > STABLE_UP_TO:
        site[:] = sort_by(site, [vd.value for vd in site])
    else:
        site.sort(key=_by_value)


def _by_value(vd: ValueData) -> int:
    return vd.value


def _by_count_descending(vd: ValueData) -> int:
    return -vd.count


def sort_value_data(rec: InstrRecord) -> None:
    """``sortValueData``: stable sort by descending count, at most 255 values per site."""
    for lst in rec.value_sites.values():
        for site in lst:
            if len(site) > 1:
                site.sort(key=_by_count_descending)
            if len(site) > MAX_VALUES_PER_SITE:
                del site[MAX_VALUES_PER_SITE:]


def has_duplicate_memop_values(rec: InstrRecord) -> bool:
    """What ``InstrProfWriter::validateRecord`` rejects: a memop size twice in one site."""
    return any(
        len({vd.value for vd in site}) != len(site) for site in rec.sites(ValueKind.MEMOP_SIZE)
    )
