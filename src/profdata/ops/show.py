"""``llvm-profdata show`` for instrumentation profiles (``showInstrProfile``).

The output must equal the real tool's byte for byte for the release chosen
with ``--llvm-release`` (``shared/spec/show-output.md`` §1), so the work is
split the way LLVM's single loop behaves:

* :func:`collect` walks the records once in reader order and decides, exactly
  as the C++ loop does, what each record contributes (a text dump, a covered
  name, a pseudo-count block, a below-cutoff line or a function block) and
  gathers the summary, ``--topn`` heap, hot list and value-site statistics.
  Per-record maxima, sums and the summary are computed on one concatenated
  counter array, so a profile of 100k functions costs a few numpy calls plus
  one cheap Python pass.
* :func:`render_text` turns that :class:`ShowReport` into llvm-profdata's text;
  :mod:`profdata.ops.show_json` renders the same report as JSON, so both honour
  the same filters.

Behaviour that depends on the reader rather than the model (which symbol
table resolves value targets, what ``--profile-version`` prints, when
``Binary IDs:`` appears) is keyed by :attr:`InstrProfile.format` in
:data:`READER_TRAITS`; behaviour that changed between releases is asked of
:class:`~profdata.releases.Release`.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

import numpy as np

from profdata.errors import UsageError
from profdata.formats.text import format_record
from profdata.model.counters import U64_MAX
from profdata.model.instr import PSEUDO_HOT, PSEUDO_WARM, InstrProfile, InstrRecord
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.summary import DEFAULT_CUTOFFS, ProfileSummary, summarize_counts
from profdata.ops.cxx_heap import PriorityQueue
from profdata.releases import OLD_SHOW_CUTOFFS, Release

#: ``ProfileSummaryCutoffHot``: the percentile whose minimum count is the hot threshold.
HOT_CUTOFF = 990000
_U64 = np.uint64
_I64_SIGN = 1 << 63
_U64_WRAP = 1 << 64


@dataclass(frozen=True)
class ShowOptions:
    """The ``show`` options that apply to instrumentation profiles (LLVM's names)."""

    all_functions: bool = False  # --all-functions
    function: str = ""  # --function: substring filter
    counts: bool = False  # --counts
    ic_targets: bool = False  # --ic-targets
    memop_sizes: bool = False  # --memop-sizes
    vtables: bool = False  # --show-vtables
    text: bool = False  # --text
    topn: int = 0  # --topn
    detailed_summary: bool = False  # --detailed-summary
    cutoffs: tuple[int, ...] = ()  # --detailed-summary-cutoffs
    value_cutoff: int = 0  # --value-cutoff
    list_below_cutoff: bool = False  # --list-below-cutoff
    covered: bool = False  # --covered
    showcs: bool = False  # --showcs
    hot_func_list: bool = False  # --hot-func-list
    binary_ids: bool = False  # --binary-ids
    profile_version: bool = False  # --profile-version
    temporal_traces: bool = False  # --temporal-profile-traces


@dataclass(frozen=True)
class ReaderTraits:
    """What LLVM's reader of one format answers where the model has no say."""

    #: ``getVersion()`` returns the whole raw version word, flags included.
    version_is_word: bool
    #: ``getVersion()`` of the text reader is always 0.
    has_version: bool
    #: ``printBinaryIds`` exists for the format at all.
    has_binary_ids: bool
    #: prints the ``Binary IDs:`` header with no ids (indexed, from ``show_indexed_...``).
    header_without_ids: bool
    #: ``show`` iterates the reader's one reused record by reference and the text reader
    #: only assigns bitmap bytes when a record has a bitmap block, so ``--text`` prints
    #: the previous record's bitmap for a record without one.
    bitmap_carries_over: bool = False


READER_TRAITS: dict[str, ReaderTraits] = {
    "raw": ReaderTraits(
        version_is_word=True, has_version=True, has_binary_ids=True, header_without_ids=False
    ),
    "indexed": ReaderTraits(
        version_is_word=False, has_version=True, has_binary_ids=True, header_without_ids=True
    ),
    "text": ReaderTraits(
        version_is_word=False,
        has_version=False,
        has_binary_ids=False,
        header_without_ids=False,
        bitmap_carries_over=True,
    ),
}


class ItemKind(Enum):
    """What one record contributes to the output, in reader order."""

    TEXT = "text"  # --text dump of a shown record
    COVERED = "covered"  # --covered: the name of a record with a non-zero counter
    PSEUDO = "pseudo"  # a shown record whose first counter is a pseudo count
    BELOW_CUTOFF = "below_cutoff"  # --list-below-cutoff line
    FUNCTION = "function"  # a shown record's block


@dataclass(frozen=True, slots=True)
class ShowItem:
    kind: ItemKind
    record: InstrRecord
    max_count: int = 0
    sum_count: int = 0  # wraps at 2**64 like LLVM's FuncSum


@dataclass
class ValueSiteStats:
    """``ValueSitesStats``: value sites of the shown records of one kind."""

    num_sites: int = 0
    num_sites_with_values: int = 0
    num_values: int = 0
    #: histogram[k - 1] = sites with exactly k values
    histogram: list[int] = field(default_factory=list)

    def add(self, record: InstrRecord, kind: ValueKind) -> None:
        sites = record.sites(kind)
        self.num_sites += len(sites)
        hist = self.histogram
        for site in sites:
            n = len(site)
            if not n:
                continue
            self.num_values += n
            self.num_sites_with_values += 1
            if n > len(hist):
                hist.extend([0] * (n - len(hist)))
            hist[n - 1] += 1


@dataclass
class ShowReport:
    """Everything ``show`` prints, decided once; renderers only format it."""

    profile: InstrProfile
    options: ShowOptions
    release: Release
    items: list[ShowItem]
    num_shown: int
    num_below_cutoff: int
    #: None in --text and --covered modes, which print no summary
    summary: ProfileSummary | None
    #: --topn: (name, max count), hottest first
    top: list[tuple[str, int]]
    #: --hot-func-list (LLVM 22): threshold and (name, max count), hottest first
    hot_threshold: int | None
    hot: list[tuple[str, int]]
    site_stats: dict[ValueKind, ValueSiteStats]

    @property
    def is_ir(self) -> bool:
        return self.profile.kind.is_ir

    def shown_kinds(self) -> list[ValueKind]:
        """Value kinds whose results and statistics are printed, in LLVM's order."""
        kinds: list[ValueKind] = []
        if self.options.ic_targets:
            kinds.append(ValueKind.INDIRECT_CALL_TARGET)
        if self.options.vtables:
            kinds.append(ValueKind.VTABLE_TARGET)
        if self.options.memop_sizes:
            kinds.append(ValueKind.MEMOP_SIZE)
        return kinds


def summary_cutoffs(options: ShowOptions, release: Release) -> tuple[int, ...]:
    """The builder's cutoffs: the given ones, else the release's defaults when needed."""
    if options.cutoffs:
        return options.cutoffs
    if options.detailed_summary or (options.hot_func_list and release.show_instr_hot_func_list):
        return OLD_SHOW_CUTOFFS if release.show_old_default_cutoffs else DEFAULT_CUTOFFS
    return ()


@dataclass
class _Columns:
    """Per-record numbers of the processed records, computed on one counter array.

    Before pseudo counts (LLVM 14), a counter of 2**64-1 was an "invalid count":
    the summary builder and the per-function maximum and sum skipped it (the
    function is still counted), while ``--covered`` still sees it as non-zero.
    """

    all_counts: np.ndarray
    lengths: np.ndarray
    starts: np.ndarray
    first: np.ndarray
    #: any counter non-zero (``--covered``)
    covered: np.ndarray
    maxima: np.ndarray
    sums: np.ndarray
    skip_invalid: bool

    @classmethod
    def of(cls, records: Sequence[InstrRecord], skip_invalid: bool) -> _Columns:
        n = len(records)
        arrays = [r.counts for r in records]
        lengths = np.fromiter(map(len, arrays), dtype=np.int64, count=n)
        if n and int(lengths.sum()):
            all_counts = np.concatenate(arrays).astype(_U64, copy=False)
        else:
            all_counts = np.zeros(0, dtype=_U64)
        starts = np.cumsum(lengths) - lengths
        nonempty = lengths > 0
        first = np.zeros(n, dtype=_U64)
        covered = np.zeros(n, dtype=bool)
        maxima = np.zeros(n, dtype=_U64)
        sums = np.zeros(n, dtype=_U64)
        if all_counts.size:
            idx = starts[nonempty]
            first[nonempty] = all_counts[idx]
            covered[nonempty] = np.maximum.reduceat(all_counts, idx) > 0
            valid = all_counts
            if skip_invalid:
                valid = np.where(all_counts == _U64(U64_MAX), _U64(0), all_counts)
            maxima[nonempty] = np.maximum.reduceat(valid, idx)
            with np.errstate(over="ignore"):
                sums[nonempty] = np.add.reduceat(valid, idx, dtype=_U64)
        return cls(all_counts, lengths, starts, first, covered, maxima, sums, skip_invalid)

    def summary(self, keep: np.ndarray, cutoffs: Sequence[int]) -> ProfileSummary:
        """``InstrProfSummaryBuilder`` over the records selected by ``keep``."""
        keep = keep & (self.lengths > 0)
        internal = np.repeat(keep, self.lengths)
        internal[self.starts[keep]] = False
        entry = self.first[keep]
        counts = self.all_counts[internal]
        if not self.skip_invalid:
            return summarize_counts(entry, counts, cutoffs)
        summary = summarize_counts(
            entry[entry != _U64(U64_MAX)], counts[counts != _U64(U64_MAX)], cutoffs
        )
        return replace(summary, num_functions=len(entry) & 0xFFFFFFFF)


def collect(profile: InstrProfile, options: ShowOptions, release: Release) -> ShowReport:
    """Walk the records as ``showInstrProfile`` does and decide every line of its output."""
    records = list(profile.records)
    carried = (
        _carried_bitmaps(records) if options.text and _traits(profile).bitmap_carries_over else {}
    )
    if profile.kind.is_ir:
        records = [r for r in records if r.is_cs == options.showcs]
    cols = _Columns.of(records, skip_invalid=not release.show_pseudo_counts)
    if release.show_pseudo_counts:
        pseudo = (cols.first >= _U64(PSEUDO_WARM)) & (cols.lengths > 0)
    else:
        pseudo = np.zeros(len(records), dtype=bool)
    maxima = cols.maxima.tolist()
    covered = cols.covered.tolist()
    sums = cols.sums.tolist()
    pseudo_flags = pseudo.tolist()
    dumped = np.zeros(len(records), dtype=bool)

    want_hot = options.hot_func_list and release.show_instr_hot_func_list
    stats_kinds = [
        kind
        for kind, wanted in (
            (ValueKind.INDIRECT_CALL_TARGET, options.ic_targets),
            (ValueKind.VTABLE_TARGET, options.vtables),
            (ValueKind.MEMOP_SIZE, options.memop_sizes),
        )
        if wanted
    ]
    stats = {kind: ValueSiteStats() for kind in stats_kinds}
    items: list[ShowItem] = []
    heap: PriorityQueue[tuple[str, int]] = PriorityQueue(lambda a, b: a[1] > b[1])
    use_heap = bool(options.topn) and not release.show_topn_stable
    want_candidates = want_hot or (bool(options.topn) and release.show_topn_stable)
    candidates: list[tuple[str, int]] = []
    num_shown = 0
    num_below = 0
    topn = options.topn
    needle = options.function
    cutoff = options.value_cutoff

    for i, rec in enumerate(records):
        show = options.all_functions or (bool(needle) and needle in rec.name)
        fmax = maxima[i]
        if show and options.text:
            dump = replace(rec, bitmap=carried[id(rec)]) if id(rec) in carried else rec
            items.append(ShowItem(ItemKind.TEXT, dump, fmax, sums[i]))
            dumped[i] = True
            continue
        if options.covered:
            if covered[i]:
                items.append(ShowItem(ItemKind.COVERED, rec, fmax, sums[i]))
            continue
        if pseudo_flags[i]:
            if show:
                items.append(ShowItem(ItemKind.PSEUDO, rec, fmax, sums[i]))
                num_shown += 1
            continue
        if fmax < cutoff:
            num_below += 1
            if options.list_below_cutoff:
                items.append(ShowItem(ItemKind.BELOW_CUTOFF, rec, fmax, sums[i]))
            continue
        if options.list_below_cutoff:
            continue
        if use_heap:
            if len(heap) == topn:
                if heap.top()[1] < fmax:
                    heap.pop()
                    heap.push((rec.name, fmax))
            else:
                heap.push((rec.name, fmax))
        if want_candidates:
            candidates.append((rec.name, fmax))
        if show:
            items.append(ShowItem(ItemKind.FUNCTION, rec, fmax, sums[i]))
            num_shown += 1
            for kind, kind_stats in stats.items():
                kind_stats.add(rec, kind)

    summary: ProfileSummary | None = None
    hot_threshold: int | None = None
    hot: list[tuple[str, int]] = []
    if not (options.text or options.covered):
        cutoffs = summary_cutoffs(options, release)
        summary = cols.summary(~dumped & ~pseudo, cutoffs)
        if want_hot:
            hot_threshold = hot_count_threshold(summary)
            hot = sorted((c for c in candidates if c[1] >= hot_threshold), key=_hottest_first)
    if use_heap:
        top = heap.drain()[::-1]
    else:
        top = heapq.nsmallest(topn, candidates, key=_hottest_first) if topn else []
    return ShowReport(
        profile=profile,
        options=options,
        release=release,
        items=items,
        num_shown=num_shown,
        num_below_cutoff=num_below,
        summary=summary,
        top=top,
        hot_threshold=hot_threshold,
        hot=hot,
        site_stats=stats,
    )


def _carried_bitmaps(records: Sequence[InstrRecord]) -> dict[int, bytes]:
    """The bitmap LLVM's text reader leaves on records without one (by ``id()``)."""
    carried: dict[int, bytes] = {}
    last = b""
    for rec in records:
        if rec.bitmap:
            last = rec.bitmap
        elif last:
            carried[id(rec)] = last
    return carried


def _hottest_first(candidate: tuple[str, int]) -> int:
    """Sort key: descending count; Python's sorts are stable, so ties keep reader order."""
    return -candidate[1]


def hot_count_threshold(summary: ProfileSummary) -> int:
    """``ProfileSummaryBuilder::getHotCountThreshold`` over the summary's detailed entries."""
    for entry in summary.detailed:
        if entry.cutoff >= HOT_CUTOFF:
            return entry.min_count
    raise UsageError(
        "--hot-func-list needs a detailed-summary cutoff of at least 990000 "
        "(llvm-profdata aborts: Desired percentile exceeds the maximum cutoff)"
    )


# -- text rendering ------------------------------------------------------------------------


def show_instr(profile: InstrProfile, options: ShowOptions, release: Release) -> str:
    """``llvm-profdata show`` output of ``release`` for an instrumentation profile."""
    return render_text(collect(profile, options, release))


def render_text(report: ShowReport) -> str:
    opts = report.options
    profile = report.profile
    out: list[str] = []
    if opts.list_below_cutoff and not opts.text:
        out.append(
            f"The list of functions with the maximum counter less than {opts.value_cutoff}:\n"
        )
    if opts.text and report.is_ir:
        out.append(":ir\n")
    shown_kinds = report.shown_kinds()
    is_ir = report.is_ir
    first_block = True
    for item in report.items:
        kind = item.kind
        rec = item.record
        if kind is ItemKind.FUNCTION or kind is ItemKind.PSEUDO:
            if first_block:
                out.append("Counters:\n")
                first_block = False
            if kind is ItemKind.FUNCTION:
                _render_function(out, rec, is_ir, opts, shown_kinds, profile.symbols)
            else:
                tag = "<PseudoHot>" if int(rec.counts[0]) == PSEUDO_HOT else "<PseudoWarm>"
                out.append(
                    f"  {rec.name}:\n    Hash: 0x{rec.hash:016x}\n"
                    f"    Counters: {len(rec.counts)}    {tag}\n"
                )
        elif kind is ItemKind.BELOW_CUTOFF:
            out.append(f"  {rec.name}: (Max = {item.max_count} Sum = {item.sum_count})\n")
        elif kind is ItemKind.COVERED:
            out.append(f"{rec.name}\n")
        else:
            out.append(format_record(rec, profile.symbols, report.release))
    if report.summary is not None:
        _render_tail(out, report, report.summary)
    return "".join(out)


def _render_function(
    out: list[str],
    rec: InstrRecord,
    is_ir: bool,
    opts: ShowOptions,
    shown_kinds: list[ValueKind],
    symbols: dict[int, str],
) -> None:
    counts = rec.counts
    lines = [f"  {rec.name}:\n    Hash: 0x{rec.hash:016x}\n    Counters: {len(counts)}\n"]
    if not is_ir and len(counts):
        lines.append(f"    Function count: {int(counts[0])}\n")
    num_memops = rec.num_sites(ValueKind.MEMOP_SIZE)
    if opts.ic_targets:
        lines.append(
            f"    Indirect Call Site Count: {rec.num_sites(ValueKind.INDIRECT_CALL_TARGET)}\n"
        )
    if opts.vtables:
        lines.append(
            f"    Number of instrumented vtables: {rec.num_sites(ValueKind.VTABLE_TARGET)}\n"
        )
    if opts.memop_sizes and num_memops:
        lines.append(f"    Number of Memory Intrinsics Calls: {num_memops}\n")
    if opts.counts:
        shown = counts if is_ir else counts[1:]
        lines.append("    Block counts: [" + ", ".join(map(str, shown.tolist())) + "]\n")
    for kind in shown_kinds:
        if kind is ValueKind.MEMOP_SIZE and not num_memops:
            continue
        lines.append(_RESULTS_HEADER[kind])
        _render_sites(lines, rec, kind, symbols)
    out.append("".join(lines))


_RESULTS_HEADER = {
    ValueKind.INDIRECT_CALL_TARGET: "    Indirect Target Results:\n",
    ValueKind.VTABLE_TARGET: "    VTable Results:\n",
    ValueKind.MEMOP_SIZE: "    Memory Intrinsic Size Results:\n",
}

_STATS_HEADER = {
    ValueKind.INDIRECT_CALL_TARGET: "Statistics for indirect call sites profile:\n",
    ValueKind.VTABLE_TARGET: "Statistics for vtable profile:\n",
    ValueKind.MEMOP_SIZE: "Statistics for memory intrinsic calls sizes profile:\n",
}


def _render_sites(
    lines: list[str], rec: InstrRecord, kind: ValueKind, symbols: dict[int, str]
) -> None:
    """``traverseAllValueSites``: ``\\t[ %2u, target, %10 PRId64 ] (%.2f%%)`` per value."""
    names = kind.targets_are_names
    for index, site in enumerate(rec.sites(kind)):
        if not site:
            continue
        site_sum = sum(v.count for v in site) % _U64_WRAP or 1
        for value, count in site:
            target = symbols.get(value, "") if names else f"{value:4d}"
            signed = count - _U64_WRAP if count >= _I64_SIGN else count
            lines.append(
                f"\t[ {index:2d}, {target}, {signed:10d} ] ({count * 100.0 / site_sum:.2f}%)\n"
            )


def _render_tail(out: list[str], report: ShowReport, summary: ProfileSummary) -> None:
    opts = report.options
    release = report.release
    profile = report.profile
    kind = profile.kind
    if report.is_ir:
        level = f"IR  entry_first = {int(bool(kind & ProfileKind.ENTRY_FIRST))}"
        if release.show_loop_entries_on_level_line:
            level += f"  instrument_loop_entries = {int(bool(kind & ProfileKind.LOOP_ENTRIES))}"
    else:
        level = "Front-end"
    out.append(f"Instrumentation level: {level}\n")
    if opts.all_functions or opts.function:
        out.append(f"Functions shown: {report.num_shown}\n")
    cutoff_lines = ""
    if opts.value_cutoff > 0:
        cutoff_lines = (
            f"Number of functions with maximum count (< {opts.value_cutoff}): "
            f"{report.num_below_cutoff}\n"
            f"Number of functions with maximum count (>= {opts.value_cutoff}): "
            f"{summary.num_functions - report.num_below_cutoff}\n"
        )
    totals = f"Total number of blocks: {summary.num_counts}\nTotal count: {summary.total_count}\n"
    out.append(f"Total functions: {summary.num_functions}\n")
    if not release.show_totals_always:
        out.append(cutoff_lines)
    out.append(
        f"Maximum function count: {summary.max_function_count}\n"
        f"Maximum internal block count: {summary.max_internal_count}\n"
    )
    if release.show_totals_always:
        out.append(totals)
        out.append(cutoff_lines)
    if opts.topn:
        out.append(f"Top {opts.topn} functions with the largest internal block counts: \n")
        out.extend(f"  {name}, max count = {count}\n" for name, count in report.top)
    if report.hot_threshold is not None:
        out.append(f"# Hot count threshold: {report.hot_threshold}\n")
        out.extend(f"{name}\n" for name, _ in report.hot)
    if report.num_shown:
        for vkind, stats in report.site_stats.items():
            out.append(_STATS_HEADER[vkind])
            out.append(_render_stats(stats))
    if opts.detailed_summary:
        if not release.show_totals_always:
            out.append(totals)
        out.append(_render_detailed(summary, release))
    if opts.binary_ids:
        out.append(_render_binary_ids(profile, release))
    if opts.profile_version:
        out.append(f"Profile version: {profile_version(profile)}\n")
    if opts.temporal_traces:
        out.append(_render_traces(profile))


def _render_stats(stats: ValueSiteStats) -> str:
    lines = [
        f"  Total number of sites: {stats.num_sites}\n",
        f"  Total number of sites with values: {stats.num_sites_with_values}\n",
        f"  Total number of profiled values: {stats.num_values}\n",
        "  Value sites histogram:\n\tNumTargets, SiteCount\n",
    ]
    lines.extend(f"\t{k + 1}, {n}\n" for k, n in enumerate(stats.histogram) if n)
    return "".join(lines)


def _render_detailed(summary: ProfileSummary, release: Release) -> str:
    """``ProfileSummary::printDetailedSummary``; its percentages are float (32-bit) math."""
    lines = ["Detailed summary:\n"]
    total = np.float32(summary.num_counts)
    for entry in summary.detailed:
        cutoff = "%.6g" % float(np.float32(entry.cutoff) / np.float32(1_000_000) * np.float32(100))
        if release.show_new_detailed_lines:
            share = (
                float(np.float32(100) * np.float32(entry.num_counts) / total)
                if summary.num_counts
                else 0.0
            )
            lines.append(
                f"{entry.num_counts} blocks ({share:.2f}%) with count >= {entry.min_count} "
                f"account for {cutoff}% of the total counts.\n"
            )
        else:
            lines.append(
                f"{entry.num_counts} blocks with count >= {entry.min_count} "
                f"account for {cutoff} percentage of the total counts.\n"
            )
    return "".join(lines)


def _traits(profile: InstrProfile) -> ReaderTraits:
    return READER_TRAITS.get(profile.format, READER_TRAITS["text"])


def profile_version(profile: InstrProfile) -> int:
    """What ``InstrProfReader::getVersion()`` returns for the profile's reader."""
    traits = _traits(profile)
    if not traits.has_version or profile.version is None:
        return 0
    if traits.version_is_word:
        return profile.kind.version_word(profile.version)
    return profile.version & 0xFFFFFFFF


def _render_binary_ids(profile: InstrProfile, release: Release) -> str:
    traits = _traits(profile)
    if not traits.has_binary_ids:
        return ""
    header_always = traits.header_without_ids and release.show_indexed_binary_ids_header
    if not profile.binary_ids and not header_always:
        return ""
    return "Binary IDs: \n" + "".join(f"{bid.hex()}\n" for bid in profile.binary_ids)


def _render_traces(profile: InstrProfile) -> str:
    traces = profile.traces
    symbols = profile.symbols
    lines = [f"Temporal Profile Traces (samples={len(traces)} seen={profile.trace_stream_size}):\n"]
    for index, trace in enumerate(traces):
        lines.append(
            f"  Temporal Profile Trace {index} (weight={trace.weight} "
            f"count={len(trace.function_hashes)}):\n"
        )
        lines.extend(f"    {symbols.get(h, '')}\n" for h in trace.function_hashes)
    return "".join(lines)
