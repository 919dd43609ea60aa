"""The text ``llvm-profdata show`` prints for instrumentation profiles.

Formats a :class:`~profdata.ops.show.ShowReport` exactly as ``showInstrProfile``
and ``ProfileSummary::printDetailedSummary`` of the chosen release print it
(``shared/spec/show-output.md`` §1.2-§1.5): C ``printf`` formats are
reproduced with Python format specs of the same meaning (``%10 PRId64`` prints
counts above 2**63 as negative numbers; the detailed summary's percentages
are 32-bit float arithmetic).  Function blocks are the hot path of
``--all-functions --counts``: all counters become Python ints with one
``tolist()`` and each ``Block counts`` list is the ``repr`` of a slice, whose
``[a, b, c]`` is exactly LLVM's spelling.
"""

from __future__ import annotations

import numpy as np

from profdata.formats.text import format_record
from profdata.model.instr import PSEUDO_HOT, InstrProfile, InstrRecord
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.summary import ProfileSummary
from profdata.ops.show import (
    ItemKind,
    ShowOptions,
    ShowReport,
    ValueSiteStats,
    collect,
    profile_version,
    reader_traits,
)
from profdata.releases import Release

_I64_SIGN = 1 << 63
_U64_WRAP = 1 << 64

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


def show_instr(profile: InstrProfile, options: ShowOptions, release: Release) -> str:
    """``llvm-profdata show`` output of ``release`` for an instrumentation profile."""
    return render_text(collect(profile, options, release))


def render_text(report: ShowReport) -> str:
    opts = report.options
    records = report.records
    out: list[str] = []
    add = out.append
    if opts.list_below_cutoff and not opts.text:
        add(f"The list of functions with the maximum counter less than {opts.value_cutoff}:\n")
    if opts.text and report.is_ir:
        add(":ir\n")
    blocks = _FunctionBlocks(report)
    render = blocks.render
    function = ItemKind.FUNCTION
    first_block = True
    for kind, index in report.items():
        rec = records[index]
        if kind is function:
            if first_block:
                add("Counters:\n")
                first_block = False
            add(render(rec, index))
        elif kind is ItemKind.PSEUDO:
            if first_block:
                add("Counters:\n")
                first_block = False
            tag = "<PseudoHot>" if int(rec.counts[0]) == PSEUDO_HOT else "<PseudoWarm>"
            add(
                f"  {rec.name}:\n    Hash: 0x{rec.hash:016x}\n"
                f"    Counters: {len(rec.counts)}    {tag}\n"
            )
        elif kind is ItemKind.BELOW_CUTOFF:
            add(
                f"  {rec.name}: (Max = {report.max_count(index)} Sum = {report.sum_count(index)})\n"
            )
        elif kind is ItemKind.COVERED:
            add(f"{rec.name}\n")
        else:
            add(format_record(rec, report.profile.symbols, report.release))
    if report.summary is not None:
        _render_tail(out, report, report.summary)
    return "".join(out)


class _FunctionBlocks:
    """Renders function blocks; counters come from one ``tolist()`` of all counters."""

    def __init__(self, report: ShowReport) -> None:
        opts = report.options
        cols = report.columns
        self.is_ir = report.is_ir
        self.symbols = report.profile.symbols
        self.kinds = opts.value_kinds()
        self.ic = opts.ic_targets
        self.vtables = opts.vtables
        self.memops = opts.memop_sizes
        self.plain = not self.kinds and self.is_ir
        self.lengths: list[int] = cols.lengths.tolist()
        self.starts: list[int] = cols.starts.tolist()
        self.firsts: list[int] = [] if self.is_ir else cols.first.tolist()
        self.counts: list[int] | None = None
        if opts.counts and ItemKind.FUNCTION in report.item_kinds:
            self.counts = cols.all_counts.tolist()

    def render(self, rec: InstrRecord, index: int) -> str:
        length = self.lengths[index]
        head = f"  {rec.name}:\n    Hash: 0x{rec.hash:016x}\n    Counters: {length}\n"
        counts = self.counts
        if self.plain:
            if counts is None:
                return head
            start = self.starts[index]
            return f"{head}    Block counts: {counts[start : start + length]!r}\n"
        parts = [head]
        if not self.is_ir and length:
            parts.append(f"    Function count: {self.firsts[index]}\n")
        sites = rec.value_sites
        num_memops = len(sites.get(ValueKind.MEMOP_SIZE, ()))
        if self.ic:
            num = len(sites.get(ValueKind.INDIRECT_CALL_TARGET, ()))
            parts.append(f"    Indirect Call Site Count: {num}\n")
        if self.vtables:
            num = len(sites.get(ValueKind.VTABLE_TARGET, ()))
            parts.append(f"    Number of instrumented vtables: {num}\n")
        if self.memops and num_memops:
            parts.append(f"    Number of Memory Intrinsics Calls: {num_memops}\n")
        if counts is not None:
            start = self.starts[index] + (0 if self.is_ir else 1)
            end = self.starts[index] + length
            parts.append(f"    Block counts: {counts[start:end]!r}\n")
        for kind in self.kinds:
            if kind is ValueKind.MEMOP_SIZE and not num_memops:
                continue
            parts.append(_RESULTS_HEADER[kind])
            _render_sites(parts, rec, kind, self.symbols)
        return "".join(parts)


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
        cutoff = f"{float(np.float32(entry.cutoff) / np.float32(1_000_000) * np.float32(100)):.6g}"
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


def _render_binary_ids(profile: InstrProfile, release: Release) -> str:
    traits = reader_traits(profile)
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
