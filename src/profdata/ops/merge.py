"""Merging instrumentation profiles (LLVM's ``InstrProfWriter`` record model).

Mirrors ``InstrProfWriter::addRecord`` / ``InstrProfRecord::merge`` of LLVM 22:
a new (name, hash) is stored and scaled by the input weight; a known one is
merged with saturating arithmetic; afterwards every value site is stably
sorted by descending count and cut to 255 entries.  Python dicts keep the
first-seen order of names and of hashes under a name, which the indexed
writer needs to reproduce LLVM's hash-table layouts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from profdata.model.counters import (
    merge_counts,
    saturating_multiply,
    saturating_multiply_add,
    scale_counts,
)
from profdata.model.instr import (
    PSEUDO_HOT,
    PSEUDO_WARM,
    InstrProfile,
    InstrRecord,
    TemporalTrace,
    ValueData,
    ValueSite,
)
from profdata.model.kinds import ProfileKind, ValueKind

MAX_VALUES_PER_SITE = 255  # INSTR_PROF_MAX_NUM_VAL_PER_SITE


class WarningKind(Enum):
    """``instrprof_error`` values a merge reports without failing, with LLVM's text."""

    COUNT_MISMATCH = "function basic block count change detected (counter mismatch)"
    COUNTER_OVERFLOW = "counter overflow"
    BITMAP_MISMATCH = "function bitmap size change detected (bitmap size mismatch)"
    VALUE_SITE_COUNT_MISMATCH = "function value site count change detected (counter mismatch)"
    HASH_MISMATCH = "function control flow change detected (hash mismatch)"


@dataclass(frozen=True)
class MergeWarning:
    kind: WarningKind
    function: str
    source: str | None = None


@dataclass
class InstrProfWriter:
    """The merged state of any number of instrumentation profiles."""

    kind: ProfileKind | None = None
    explicit_frontend: bool = False
    functions: dict[str, dict[int, InstrRecord]] = field(default_factory=dict)
    binary_ids: list[bytes] = field(default_factory=list)
    traces: list[TemporalTrace] = field(default_factory=list)
    trace_stream_size: int = 0
    vtable_names: list[str] = field(default_factory=list)
    warnings: list[MergeWarning] = field(default_factory=list)

    # -- records ------------------------------------------------------------
    def add_record(self, record: InstrRecord, weight: int = 1, source: str | None = None) -> None:
        """``InstrProfWriter::addRecord``: store or merge, then sort value data."""
        by_hash = self.functions.setdefault(record.name, {})
        dest = by_hash.get(record.hash)
        warn: list[WarningKind] = []
        if dest is None:
            dest = _copy_scaled(record, weight, warn)
            by_hash[record.hash] = dest
        else:
            _merge_into(dest, record, weight, warn)
        _sort_value_data(dest)
        if warn:  # llvm-profdata reports only the first problem of each record
            self.warnings.append(MergeWarning(warn[0], record.name, source))

    def merge_kind(self, kind: ProfileKind, explicit_frontend: bool = False) -> str | None:
        """``mergeProfileKind``: None on success, else LLVM's reason for refusing."""
        if self.kind is None:
            self.kind = kind
            self.explicit_frontend = explicit_frontend
            return None
        fe_self = self.explicit_frontend
        if fe_self != explicit_frontend and (fe_self or explicit_frontend):
            if (fe_self and kind.is_ir) or (explicit_frontend and self.kind.is_ir):
                return "Merge IR generated profile with Clang generated profile."
        entry_only = ProfileKind.FUNCTION_ENTRY_ONLY
        bb_kinds = ProfileKind.ENTRY_FIRST | ProfileKind.LOOP_ENTRIES
        if (self.kind & entry_only and kind & bb_kinds) or (kind & entry_only and self.kind & bb_kinds):
            return "cannot merge FunctionEntryOnly profiles and BB profiles together"
        self.kind |= kind
        self.explicit_frontend = self.explicit_frontend or explicit_frontend
        return None

    def add_profile(
        self, profile: InstrProfile, weight: int = 1, source: str | None = None
    ) -> str | None:
        """Merge a whole profile; returns LLVM's reason when the kinds cannot be merged."""
        reason = self.merge_kind(profile.kind, profile.explicit_frontend)
        if reason is not None:
            return reason
        for rec in profile.records:
            self.add_record(rec, weight, source)
        self.binary_ids.extend(profile.binary_ids)
        for trace in profile.traces:
            self.traces.append(TemporalTrace(trace.weight * weight, trace.function_hashes))
        self.trace_stream_size += profile.trace_stream_size
        return None

    def records(self) -> Iterable[InstrRecord]:
        """Records in first-seen order (names, then hashes under a name)."""
        for by_hash in self.functions.values():
            yield from by_hash.values()

    def to_profile(self, *, sparse: bool = False) -> InstrProfile:
        """The merged profile; ``sparse`` drops names whose records are all zero."""
        recs = [
            rec
            for by_hash in self.functions.values()
            if not sparse or any(_has_data(r) for r in by_hash.values())
            for rec in by_hash.values()
        ]
        kind = self.kind if self.kind is not None else ProfileKind.FRONTEND
        return InstrProfile(
            kind=kind,
            records=recs,
            format="merged",
            binary_ids=sorted(set(self.binary_ids)),
            traces=list(self.traces),
            trace_stream_size=self.trace_stream_size,
            vtable_names=list(self.vtable_names),
            symbols={},
            explicit_frontend=self.explicit_frontend,
        )


def _has_data(rec: InstrRecord) -> bool:
    return bool(rec.counts.any()) or any(rec.bitmap)


def _copy_sites(sites: dict[ValueKind, list[ValueSite]]) -> dict[ValueKind, list[ValueSite]]:
    return {kind: [list(site) for site in lst] for kind, lst in sites.items()}


def _copy_scaled(record: InstrRecord, weight: int, warn: list[WarningKind]) -> InstrRecord:
    if weight > 1:
        counts, overflow = scale_counts(record.counts, weight)
        if overflow:
            warn.append(WarningKind.COUNTER_OVERFLOW)
        sites: dict[ValueKind, list[ValueSite]] = {}
        for kind, lst in record.value_sites.items():
            new_lst: list[ValueSite] = []
            for site in lst:
                new_site: ValueSite = []
                for vd in site:
                    count, over = saturating_multiply(vd.count, weight)
                    if over:
                        warn.append(WarningKind.COUNTER_OVERFLOW)
                    new_site.append(ValueData(vd.value, count))
                new_lst.append(new_site)
            sites[kind] = new_lst
    else:
        counts = record.counts.copy()
        sites = _copy_sites(record.value_sites)
    return InstrRecord(record.name, record.hash, counts, bytes(record.bitmap), sites)


def _merge_into(
    dest: InstrRecord, src: InstrRecord, weight: int, warn: list[WarningKind]
) -> None:
    """``InstrProfRecord::merge``: counters, pseudo counts, bitmap OR, value sites."""
    if len(dest.counts) != len(src.counts):
        warn.append(WarningKind.COUNT_MISMATCH)
        return
    src_pseudo, dst_pseudo = src.pseudo_kind, dest.pseudo_kind
    if src_pseudo is not None or dst_pseudo is not None:
        if src_pseudo is None or dst_pseudo is None:
            warn.append(WarningKind.COUNT_MISMATCH)
            return
        counts = dest.counts.copy()
        counts[0] = PSEUDO_HOT if PSEUDO_HOT in (src_pseudo, dst_pseudo) else PSEUDO_WARM
        dest.counts = counts
        return
    dest.counts, overflow = merge_counts(dest.counts, src.counts, weight)
    if overflow:
        warn.append(WarningKind.COUNTER_OVERFLOW)
    if len(dest.bitmap) != len(src.bitmap):
        warn.append(WarningKind.BITMAP_MISMATCH)
        return
    if src.bitmap:
        dest.bitmap = bytes(a | b for a, b in zip(dest.bitmap, src.bitmap, strict=True))
    for kind in ValueKind:
        dst_sites, src_sites = dest.sites(kind), src.sites(kind)
        if len(dst_sites) != len(src_sites):
            warn.append(WarningKind.VALUE_SITE_COUNT_MISMATCH)
            continue
        for site, other in zip(dst_sites, src_sites, strict=True):
            _merge_site(site, other, weight, warn)


def _merge_site(site: ValueSite, other: ValueSite, weight: int, warn: list[WarningKind]) -> None:
    """``InstrProfValueSiteRecord::merge``: both sorted by value, matched values summed.

    Values only in ``other`` are inserted with their count as is (LLVM does not
    apply the weight to them).
    """
    site.sort(key=lambda vd: vd.value)
    incoming = sorted(other, key=lambda vd: vd.value)
    i = 0
    for vd in incoming:
        while i < len(site) and site[i].value < vd.value:
            i += 1
        if i < len(site) and site[i].value == vd.value:
            count, over = saturating_multiply_add(vd.count, weight, site[i].count)
            if over:
                warn.append(WarningKind.COUNTER_OVERFLOW)
            site[i] = ValueData(vd.value, count)
            i += 1
            continue
        site.insert(i, vd)
        i += 1


def _sort_value_data(rec: InstrRecord) -> None:
    """``sortValueData``: stable sort by descending count, at most 255 values."""
    for lst in rec.value_sites.values():
        for idx, site in enumerate(lst):
            if len(site) > 1:
                site.sort(key=lambda vd: -vd.count)
            if len(site) > MAX_VALUES_PER_SITE:
                lst[idx] = site[:MAX_VALUES_PER_SITE]
