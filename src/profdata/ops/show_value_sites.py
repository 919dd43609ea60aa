"""The value-profile parts of ``show --ic-targets / --memop-sizes / --show-vtables``, per table.

``traverseAllValueSites`` prints one ``\\t[ site, target, count ] (percent%)``
line per profiled value under a ``... Results:`` header per kind, and the
statistics count the sites of every shown function.  A 100k-function profile
has about 80k such lines; formatting them value by value from record objects
took most of ``show``'s time.  Here they come from a
:class:`~profdata.model.record_table.RecordTable`'s flat value columns: every
line of every record is laid out at once by a :class:`RowText`, and each
record's section is a slice of one buffer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from profdata.formats.row_text import RowText
from profdata.formats.text_table import add_target_names
from profdata.model.instr import spans
from profdata.model.kinds import ValueKind
from profdata.model.record_table import RecordTable

Ints = npt.NDArray[np.int64]
Bytes = npt.NDArray[np.uint8]

RESULTS_HEADER = {
    ValueKind.INDIRECT_CALL_TARGET: b"    Indirect Target Results:\n",
    ValueKind.VTABLE_TARGET: b"    VTable Results:\n",
    ValueKind.MEMOP_SIZE: b"    Memory Intrinsic Size Results:\n",
}


@dataclass(frozen=True, eq=False)
class ValueSiteText:
    """Each record's ``Results`` sections, and its number of sites of each kind."""

    text: Bytes
    bounds: Ints  # record i's sections are text[bounds[i] : bounds[i + 1]]
    num_sites: Ints  # (records, kinds): sites of each shown kind

    def sites_of(self, position: int) -> Ints:
        """Every record's sites of the ``position``-th shown kind."""
        column: Ints = self.num_sites[:, position]
        return column


def sites_per_kind(table: RecordTable, kinds: Sequence[ValueKind]) -> Ints:
    """(records, kinds): each record's number of sites of each kind (``InstrRecord.num_sites``)."""
    vals = table.values
    result = np.zeros((len(table), len(kinds)), dtype=np.int64)
    for position, kind in enumerate(kinds):
        rows = vals.row_kind == int(kind)
        result[vals.row_record[rows], position] = vals.row_sites[rows]
    return result


def value_site_text(
    table: RecordTable, kinds: Sequence[ValueKind], symbols: Mapping[int, str]
) -> ValueSiteText:
    """What ``_value_results`` printed record by record, for every record of ``table``.

    A record's text is, per kind in ``kinds`` order, the kind's header (for
    memop sizes only when the record has such sites) and a line per value of
    each of its sites of that kind, the site's index counting empty sites too.
    """
    count, nkinds = len(table), len(kinds)
    vals = table.values
    num_sites = sites_per_kind(table, kinds)
    position_of = np.full(max(int(k) for k in ValueKind) + 1, -1, dtype=np.int64)
    for position, kind in enumerate(kinds):
        position_of[int(kind)] = position
    header_of = np.array([len(RESULTS_HEADER[k]) for k in kinds], dtype=np.int64)
    has_header = np.ones((count, nkinds), dtype=bool)
    for position, kind in enumerate(kinds):
        if kind is ValueKind.MEMOP_SIZE:
            has_header[:, position] = num_sites[:, position] > 0
    header_sizes = (has_header * header_of).reshape(-1)  # per (record, kind) segment

    # the lines: rows of shown kinds (record then kind order), their sites, their values
    row_position = position_of[vals.row_kind]
    shown = np.flatnonzero(row_position >= 0)
    row_sites = vals.row_sites[shown]
    sites = vals.sites_of_rows(shown)
    site_in_row = spans(np.zeros(len(shown), dtype=np.int64), row_sites)
    bounds = vals.site_bounds()
    lengths = vals.site_lengths[sites]
    entries = spans(bounds[sites], lengths)
    counts = vals.counts[entries]
    values = vals.values[entries]
    segment_of_row = vals.row_record[shown] * nkinds + row_position[shown]
    line_row = np.repeat(np.repeat(np.arange(len(shown)), row_sites), lengths)
    line_segment = segment_of_row[line_row]
    line_kind = np.repeat(np.repeat(vals.row_kind[shown], row_sites), lengths)
    # a site's sum wraps at 2**64 (LLVM sums uint64_t); a zero sum divides by 1
    running = np.zeros(len(counts) + 1, dtype=np.uint64)
    np.cumsum(counts, out=running[1:])
    line_first = np.repeat(np.cumsum(lengths) - lengths, lengths)
    line_last = np.repeat(np.cumsum(lengths), lengths)
    sums = running[line_last] - running[line_first]
    sums[sums == 0] = 1
    percents = counts.astype(np.float64) * 100.0 / sums.astype(np.float64)

    lines = RowText(len(counts))
    lines.add_const(b"\t[ ")
    lines.add_decimal(np.repeat(site_in_row, lengths), width=2)
    lines.add_const(b", ")
    named = line_kind != int(ValueKind.MEMOP_SIZE)
    add_target_names(lines, values, named, symbols, "")
    lines.add_decimal(values, ~named, width=4)
    lines.add_const(b", ")
    lines.add_decimal(counts, width=10, signed=True)
    lines.add_const(b" ] (")
    lines.add_strings([f"{p:.2f}" for p in percents.tolist()])
    lines.add_const(b"%)\n")

    line_sizes = lines.row_sizes()
    line_bytes = np.bincount(line_segment, weights=line_sizes, minlength=count * nkinds)
    line_bytes = line_bytes.astype(np.int64)
    segment_sizes = header_sizes + line_bytes
    segment_starts = np.cumsum(segment_sizes) - segment_sizes
    total = int(segment_sizes.sum())
    out = np.empty(total, dtype=np.uint8)
    for position, kind in enumerate(kinds):
        segments = np.flatnonzero(has_header[:, position]) * nkinds + position
        chars = np.frombuffer(RESULTS_HEADER[kind], dtype=np.uint8)
        out[segment_starts[segments][:, None] + np.arange(len(chars))] = chars
    # a segment's lines are its row's, consecutive in row order (rows go by kind number,
    # segments by the order of ``kinds``): each line follows the header and earlier lines
    line_starts = np.cumsum(line_sizes) - line_sizes
    row_bytes = np.bincount(line_row, weights=line_sizes, minlength=len(shown)).astype(np.int64)
    within = line_starts - (np.cumsum(row_bytes) - row_bytes)[line_row]
    lines.render_into(out, segment_starts[line_segment] + header_sizes[line_segment] + within)
    record_bounds = np.append(segment_starts.reshape(count, nkinds)[:, 0], total)
    return ValueSiteText(out, record_bounds, num_sites)


__all__ = ["RESULTS_HEADER", "ValueSiteText", "sites_per_kind", "value_site_text"]
