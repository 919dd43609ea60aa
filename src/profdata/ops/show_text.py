"""The text ``llvm-profdata show`` prints for instrumentation profiles.

Formats a :class:`~profdata.ops.show.ShowReport` exactly as ``showInstrProfile``
and ``ProfileSummary::printDetailedSummary`` of the chosen release print it
(``shared/spec/show-output.md`` §1.2-§1.5): C ``printf`` formats are
reproduced with Python format specs of the same meaning (``%10 PRId64`` prints
counts above 2**63 as negative numbers; the detailed summary's percentages
are 32-bit float arithmetic).  The records' lines are the hot path of
``--all-functions --counts`` (100k function blocks, 700k counters): they are
laid out for all records at once by a :class:`~profdata.ops.row_text.RowText`,
column by column, so no Python code runs per function unless the function
has value sites to print or is dumped with ``--text``.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from profdata.formats.row_text import RowText
from profdata.model.instr import PSEUDO_HOT, InstrProfile
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import ENCODING, ERRORS
from profdata.model.summary import ProfileSummary
from profdata.offload import in_two
from profdata.ops.show import (
    CODE,
    ItemKind,
    ShowOptions,
    ShowReport,
    ValueSiteStats,
    collect,
    profile_version,
    reader_traits,
)
from profdata.ops.show_value_sites import value_site_text
from profdata.ops.summary_text import detailed_summary_text
from profdata.releases import Release

_STATS_HEADER = {
    ValueKind.INDIRECT_CALL_TARGET: "Statistics for indirect call sites profile:\n",
    ValueKind.VTABLE_TARGET: "Statistics for vtable profile:\n",
    ValueKind.MEMOP_SIZE: "Statistics for memory intrinsic calls sizes profile:\n",
}


def show_instr(profile: InstrProfile, options: ShowOptions, release: Release) -> str:
    """``llvm-profdata show`` output of ``release`` for an instrumentation profile."""
    return render_text(collect(profile, options, release))


def render_text(report: ShowReport) -> str:
    return render_text_bytes(report).decode(ENCODING, ERRORS)


def render_text_bytes(report: ShowReport) -> bytes:
    """The output as bytes: names carry their exact bytes through surrogate escapes."""
    out = [render_streamed_bytes(report)]
    if report.summary is not None:
        tail: list[str] = []
        _render_tail(tail, report, report.summary)
        out.append("".join(tail).encode(ENCODING, ERRORS))
    return b"".join(out)


def render_streamed_bytes(report: ShowReport) -> bytes:
    """What llvm-profdata prints before and while it reads the records (not the
    summary after them)."""
    opts = report.options
    out: list[bytes] = []
    if opts.list_below_cutoff and not opts.text:
        cutoff = opts.value_cutoff
        out.append(f"The list of functions with the maximum counter less than {cutoff}:\n".encode())
    if opts.text and report.is_ir:
        out.append(b":ir\n")
    out.extend(_render_items(report))
    return b"".join(out)


#: rows rendered per :class:`RowText`: its temporaries stay small enough to be reused
#: from one chunk to the next instead of being freshly paged in
_CHUNK = 4096


#: chunks from which the second half is rendered by a forked process when a CPU is idle
_SPLIT_CHUNKS = 4


def _render_items(report: ShowReport) -> list[bytes]:
    """What each contributing record prints, in chunks of records (see :mod:`row_text`);
    with many chunks the second half rendered by a forked child, if a CPU is idle for it
    (a chunk depends on the report alone)."""
    total = len(report.item_rows)
    blocks = np.flatnonzero(_is_block(report.item_codes))
    first = int(blocks[0]) if len(blocks) else -1  # "Counters:" goes before it
    starts = list(range(0, total, _CHUNK))
    if len(starts) >= _SPLIT_CHUNKS:
        _prepare(report)
        half = len(starts) // 2
        render = partial(_render_chunks, report, total, first)
        halves = in_two(partial(render, starts[:half]), partial(render, starts[half:]))
        if halves is not None:
            return list(halves)
    return [_render_chunk(report, lo, min(lo + _CHUNK, total), first) for lo in starts]


def _render_chunks(report: ShowReport, total: int, first: int, starts: list[int]) -> bytes:
    return b"".join(_render_chunk(report, lo, min(lo + _CHUNK, total), first) for lo in starts)


def _prepare(report: ShowReport) -> None:
    """Make here, before a fork, what the chunks take from the profile on first use: a
    child would make it again, and the names' MD5s may be a child's of this process."""
    if report.options.text or report.options.value_kinds():
        report.profile.symbols  # noqa: B018 - made on first use
    if report.profile.cheap_table() is None:
        report.records  # noqa: B018 - made on first use


def _render_chunk(report: ShowReport, lo: int, hi: int, first_block: int) -> bytes:
    codes, rows = report.item_codes[lo:hi], report.item_rows[lo:hi]
    count = hi - lo
    opts, cols = report.options, report.columns
    is_function = codes == CODE[ItemKind.FUNCTION]
    is_pseudo = codes == CODE[ItemKind.PSEUDO]
    is_below = codes == CODE[ItemKind.BELOW_CUTOFF]
    is_covered = codes == CODE[ItemKind.COVERED]
    is_text = codes == CODE[ItemKind.TEXT]
    block = is_function | is_pseudo
    text = RowText(count)

    if lo <= first_block < hi:
        text.add_const(b"Counters:\n", np.arange(lo, hi) == first_block)
    if is_text.any():
        from profdata.formats.text_table import record_texts  # only --text needs it

        table = report.table(rows[is_text])
        blob, bounds = record_texts(table, report.profile.symbols, report.release)
        if is_text.all():  # ``--text``: the records' blocks back to back, nothing between
            return blob[: int(bounds[-1])].tobytes()
        starts = np.zeros(count, dtype=np.int64)
        lengths = np.zeros(count, dtype=np.int64)
        starts[is_text], lengths[is_text] = bounds[:-1], np.diff(bounds)
        text.add_bytes(blob, starts, lengths, is_text)

    indented = block | is_below
    text.add_const(b"  ", indented)
    blob, starts, lengths = _name_bytes(report.rows.names, rows)
    text.add_bytes(blob, starts, lengths, indented | is_covered)
    text.add_const(b"\n", is_covered)

    if is_below.any():
        text.add_const(b": (Max = ", is_below)
        text.add_decimal(cols.maxima[rows], is_below)
        text.add_const(b" Sum = ", is_below)
        text.add_decimal(cols.sums[rows], is_below)
        text.add_const(b")\n", is_below)

    if not block.any():
        return text.render()
    num_counts = cols.lengths[rows]
    text.add_const(b":\n    Hash: 0x", block)
    text.add_hex16(report.rows.hashes[rows], block)
    text.add_const(b"\n    Counters: ", block)
    text.add_decimal(num_counts.astype(np.uint64), block)
    first = cols.first[rows]
    hot = is_pseudo & (first == np.uint64(PSEUDO_HOT))
    text.add_const(b"    <PseudoHot>\n", hot)
    text.add_const(b"    <PseudoWarm>\n", is_pseudo & ~hot)
    text.add_const(b"\n", is_function)
    if not report.is_ir:
        # a record without counters prints the stale first counter LLVM reads (stale_firsts)
        text.add_const(b"    Function count: ", is_function)
        text.add_decimal(first, is_function)
        text.add_const(b"\n", is_function)
    kinds = opts.value_kinds()
    sections = None
    if kinds:
        sections = value_site_text(report.table(rows[is_function]), kinds, report.profile.symbols)
        for position, kind in enumerate(kinds):
            label = _SITE_COUNT_LINES[kind]
            sites = sections.sites_of(position).astype(np.uint64)
            where = is_function.copy()
            if kind is ValueKind.MEMOP_SIZE:
                where[is_function] = sites > 0
            text.add_const(label, where)
            text.add_decimal(_spread(sites, is_function), where)
            text.add_const(b"\n", where)
    if opts.counts:
        skip = 0 if report.is_ir else 1
        listed = np.where(is_function, np.maximum(num_counts - skip, 0), 0)
        text.add_const(b"    Block counts: ", is_function)
        text.add_lists(cols.all_counts, cols.starts[rows] + skip, listed, is_function, suffix=b"\n")
    if sections is not None:
        starts = np.zeros(count, dtype=np.int64)
        lengths = np.zeros(count, dtype=np.int64)
        starts[is_function] = sections.bounds[:-1]
        lengths[is_function] = np.diff(sections.bounds)
        text.add_bytes(sections.text, starts, lengths, is_function)
    return text.render()


def _is_block(codes: np.ndarray) -> np.ndarray:
    block: np.ndarray = (codes == CODE[ItemKind.FUNCTION]) | (codes == CODE[ItemKind.PSEUDO])
    return block


#: the per-kind site count lines of a function block (printed in kind order)
_SITE_COUNT_LINES = {
    ValueKind.INDIRECT_CALL_TARGET: b"    Indirect Call Site Count: ",
    ValueKind.VTABLE_TARGET: b"    Number of instrumented vtables: ",
    ValueKind.MEMOP_SIZE: b"    Number of Memory Intrinsics Calls: ",
}


def _spread(values: np.ndarray, where: np.ndarray) -> np.ndarray:
    """``values`` (one per selected row) placed at the selected rows, 0 elsewhere."""
    full = np.zeros(len(where), dtype=values.dtype)
    full[where] = values
    return full


def _name_bytes(names: list[str], rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The names of ``rows`` as one byte blob, with each row's (start, length) in it."""
    picked = names if len(rows) == len(names) else [names[i] for i in rows.tolist()]
    joined = "".join(picked)
    if joined.isascii():
        blob = joined.encode("ascii")
        lengths = np.fromiter(map(len, picked), dtype=np.int64, count=len(picked))
    else:
        encoded = [n.encode(ENCODING, ERRORS) for n in picked]
        blob = b"".join(encoded)
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    return np.frombuffer(blob, dtype=np.uint8), np.cumsum(lengths) - lengths, lengths


def _render_tail(out: list[str], report: ShowReport, summary: ProfileSummary) -> None:
    opts = report.options
    release = report.release
    profile = report.profile
    kind = profile.kind_at_end  # asked after the records: the last header's
    if kind.is_ir:
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
        out.append(detailed_summary_text(summary, release))
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


def _render_binary_ids(profile: InstrProfile, release: Release) -> str:
    traits = reader_traits(profile)
    if not traits.has_binary_ids:
        return ""
    header_always = traits.header_without_ids and release.show_indexed_binary_ids_header
    ids = profile.binary_ids_seen(release.raw_binary_ids_last_profile_only)
    if not ids and not header_always:
        return ""
    return "Binary IDs: \n" + "".join(f"{bid.hex()}\n" for bid in ids)


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
