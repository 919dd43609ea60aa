"""The text format's record blocks for a whole :class:`RecordTable` at once.

``merge --text`` of a 100k-function profile prints about 1.5 million short
pieces -- a header per record, a line per counter, bitmap byte, value site
and profiled value.  Formatting them record by record
(:func:`profdata.formats.text.format_record`, which stays the reference)
costs several seconds in Python.  Here every kind of piece is one *unit
type* rendered for all records at once by a :class:`RowText`, and each
unit's place in the output comes from counting, per record, the units that
precede it; the rendered units are then scattered into one buffer.

The block of one record, as ``writeRecordInText`` prints it::

    name / # Func Hash: / hash / # Num Counters: / n / # Counter Values:   (header)
    count                                                  (one per counter)
    # Num Bitmap Bytes: / $n / # Bitmap Byte Values:      (if bitmap bytes and 18+)
    0xHH                                                   (one per bitmap byte)
    (blank line after the bitmap bytes)
    # Num Value Kinds: / k                                 (if value sites)
    # ValueKind = NAME: / kind / # NumValueSites: / sites  (one per kind)
    values in the site                                     (one per site)
    target:count                                           (one per value)
    (blank line ending the record)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

import numpy as np
import numpy.typing as npt

from profdata.formats.row_text import RowText
from profdata.model.instr import spans
from profdata.model.kinds import ValueKind
from profdata.model.names import names_bytes
from profdata.model.record_table import RecordTable
from profdata.offload import in_two
from profdata.releases import Release

Ints = npt.NDArray[np.int64]
Bytes = npt.NDArray[np.uint8]

EXTERNAL_SYMBOL = "** External Symbol **"  # a target no written record is named after
_BITMAP_LINES = [f"0x{b:x}\n".encode() for b in range(256)]


def _blob(pieces: list[bytes]) -> tuple[Bytes, Ints, Ints]:
    """Pieces joined into one byte array, with each piece's start and length."""
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    blob = np.frombuffer(b"".join(pieces), dtype=np.uint8)
    return blob, np.cumsum(lengths) - lengths, lengths


class _Units:
    """Units of several types, each type a :class:`RowText`, and their positions among
    all units; rendered straight into one buffer."""

    def __init__(self, count: int) -> None:
        self.sizes = np.zeros(count, dtype=np.int64)
        self.parts: list[tuple[Ints, RowText]] = []
        self.newlines: list[Ints] = []

    def add(self, positions: Ints, text: RowText) -> None:
        self.sizes[positions] = text.row_sizes()
        self.parts.append((positions, text))

    def add_newlines(self, positions: Ints) -> None:
        self.sizes[positions] = 1
        self.newlines.append(positions)

    def render(self, marks: Ints) -> tuple[Bytes, Ints]:
        """The text, and where each of the units ``marks`` starts (a mark may be the
        number of units: the end)."""
        offsets = np.zeros(len(self.sizes) + 1, dtype=np.int64)
        np.cumsum(self.sizes, out=offsets[1:])
        out = np.empty(int(offsets[-1]), dtype=np.uint8)
        for positions, text in self.parts:
            text.render_into(out, offsets[positions])
        for positions in self.newlines:
            out[offsets[positions]] = ord("\n")
        return out, offsets[marks]


#: tables of this many records or more are formatted in two halves, the second by a forked
#: process when a CPU is idle (a block depends on its record alone): 100k records, 15 MB
#: of text, take 0.2 s in one
_SPLIT_RECORDS = 20_000


def format_table(table: RecordTable, symbols: Mapping[int, str], release: Release) -> bytes:
    """The blocks of every record of ``table``, in table order, as
    :func:`~profdata.formats.text.format_record` writes each."""
    count = len(table)
    if count >= _SPLIT_RECORDS:
        half = count // 2
        format_part = partial(_formatted, table, symbols, release)
        halves = in_two(partial(format_part, 0, half), partial(format_part, half, count))
        if halves is not None:
            return b"".join(halves)
    return record_texts(table, symbols, release)[0].tobytes()


def _formatted(
    table: RecordTable, symbols: Mapping[int, str], release: Release, start: int, stop: int
) -> bytes:
    """The blocks of records ``start`` to ``stop``."""
    part = table.take(np.arange(start, stop, dtype=np.int64))
    return record_texts(part, symbols, release)[0].tobytes()


def record_texts(
    table: RecordTable, symbols: Mapping[int, str], release: Release
) -> tuple[Bytes, Ints]:
    """The blocks of every record of ``table``, and where each starts (with the end
    last): record ``i``'s block is ``text[starts[i] : starts[i + 1]]``."""
    cols = table.columns
    num = len(cols)
    if not num:
        return np.zeros(0, dtype=np.uint8), np.zeros(1, dtype=np.int64)
    counters = cols.lengths
    bitmap_lengths = table.bitmap_lengths if release.text_bitmaps else np.zeros(num, np.int64)
    bitmap_units = np.where(bitmap_lengths > 0, bitmap_lengths + 2, 0)

    # value rows of the kinds the release knows, with their sites and values
    vals = table.values
    kept = np.flatnonzero(vals.row_kind <= release.max_value_kind)
    first_value, row_values = vals.value_starts()
    row_record, row_kind = vals.row_record[kept], vals.row_kind[kept]
    row_sites, row_values = vals.row_sites[kept], row_values[kept]
    site_lengths = vals.site_lengths[vals.sites_of_rows(kept)]
    value_index = spans(first_value[kept], row_values)
    values, value_counts = vals.values[value_index], vals.counts[value_index]
    kinds_per_record = np.bincount(row_record, minlength=num)
    row_units = 1 + row_sites + row_values
    value_units = np.bincount(row_record, weights=row_units, minlength=num).astype(np.int64)
    value_units += kinds_per_record > 0

    record_units = 2 + counters + bitmap_units + value_units
    record_at = np.cumsum(record_units) - record_units
    units = _Units(int(record_units.sum()))

    names, name_starts, name_lengths = _blob(names_bytes(cols.names))
    header = RowText(num)
    header.add_bytes(names, name_starts, name_lengths)
    header.add_const(b"\n# Func Hash:\n")
    header.add_decimal(cols.hashes)
    header.add_const(b"\n# Num Counters:\n")
    header.add_decimal(counters)
    header.add_const(b"\n# Counter Values:\n")
    units.add(record_at, header)

    counts = RowText(len(cols.counts))
    counts.add_decimal(cols.counts)
    counts.add_const(b"\n")
    units.add(spans(record_at + 1, counters), counts)

    with_bitmap = np.flatnonzero(bitmap_lengths > 0)
    if len(with_bitmap):
        bitmap_at = (record_at + 1 + counters)[with_bitmap]
        lengths = bitmap_lengths[with_bitmap]
        head = RowText(len(with_bitmap))
        head.add_const(b"# Num Bitmap Bytes:\n$")
        head.add_decimal(lengths)
        head.add_const(b"\n# Bitmap Byte Values:\n")
        units.add(bitmap_at, head)
        data = table.bitmaps[spans(table.bitmap_starts[with_bitmap], lengths)]
        lines, line_starts, line_lengths = _blob(_BITMAP_LINES)
        byte_lines = RowText(len(data))
        byte_lines.add_bytes(lines, line_starts[data], line_lengths[data])
        units.add(spans(bitmap_at + 1, lengths), byte_lines)
        units.add_newlines(bitmap_at + 1 + lengths)

    if len(kept):
        _value_units(
            units, symbols, record_at + 1 + counters + bitmap_units, kinds_per_record,
            row_record, row_kind, row_sites, row_units, site_lengths, values, value_counts,
        )  # fmt: skip
    units.add_newlines(record_at + record_units - 1)
    return units.render(np.append(record_at, len(units.sizes)))


def _value_units(
    units: _Units,
    symbols: Mapping[int, str],
    values_at: Ints,
    kinds_per_record: Ints,
    row_record: Ints,
    row_kind: Ints,
    row_sites: Ints,
    row_units: Ints,
    site_lengths: Ints,
    values: npt.NDArray[np.uint64],
    value_counts: npt.NDArray[np.uint64],
) -> None:
    """The value-profile units: each record's kind count, its kind rows, sites and values."""
    with_values = np.flatnonzero(kinds_per_record > 0)
    head = RowText(len(with_values))
    head.add_const(b"# Num Value Kinds:\n")
    head.add_decimal(kinds_per_record[with_values])
    head.add_const(b"\n")
    units.add(values_at[with_values], head)

    # a row starts after its record's kind count and the rows of the record before it
    before = np.cumsum(row_units) - row_units
    first_row = np.zeros(len(kinds_per_record), dtype=np.int64)
    first_row[with_values] = (np.cumsum(kinds_per_record) - kinds_per_record)[with_values]
    row_at = values_at[row_record] + 1 + before - before[first_row[row_record]]
    kind_names, kind_starts, kind_lengths = _blob(
        [f"{kind.llvm_name}:\n".encode() for kind in ValueKind]
    )
    rows = RowText(len(row_kind))
    rows.add_const(b"# ValueKind = ")
    rows.add_bytes(kind_names, kind_starts[row_kind], kind_lengths[row_kind])
    rows.add_decimal(row_kind)
    rows.add_const(b"\n# NumValueSites:\n")
    rows.add_decimal(row_sites)
    rows.add_const(b"\n")
    units.add(row_at, rows)

    # a site starts after its row's header and the sites (with their values) before it
    site_row = np.repeat(np.arange(len(row_kind)), row_sites)
    site_units = 1 + site_lengths
    site_before = np.cumsum(site_units) - site_units
    row_first_site = np.cumsum(row_sites) - row_sites
    site_at = row_at[site_row] + 1 + site_before - site_before[row_first_site[site_row]]
    sites = RowText(len(site_lengths))
    sites.add_decimal(site_lengths)
    sites.add_const(b"\n")
    units.add(site_at, sites)

    value_site = np.repeat(np.arange(len(site_lengths)), site_lengths)
    first_in_site = np.cumsum(site_lengths) - site_lengths
    value_at = site_at[value_site] + 1 + np.arange(len(values)) - first_in_site[value_site]
    named_kinds = np.array([kind.targets_are_names for kind in ValueKind], dtype=bool)
    named = named_kinds[row_kind[site_row[value_site]]]
    lines = RowText(len(values))
    add_target_names(lines, values, named, symbols, EXTERNAL_SYMBOL)
    lines.add_decimal(values, ~named)
    lines.add_const(b":")
    lines.add_decimal(value_counts)
    lines.add_const(b"\n")
    units.add(value_at, lines)


def add_target_names(
    text: RowText,
    values: npt.NDArray[np.uint64],
    named: npt.NDArray[np.bool_],
    symbols: Mapping[int, str],
    missing: str,
) -> None:
    """The ``named`` rows' values spelled as the names ``symbols`` gives them (``missing``
    where it has none), each distinct value looked up once."""
    if not named.any():
        return
    targets, which = np.unique(values[named], return_inverse=True)
    spelled = [symbols.get(target, missing) for target in targets.tolist()]
    blob, starts, lengths = _blob(names_bytes(spelled))
    value_starts = np.zeros(len(values), dtype=np.int64)
    value_lengths = np.zeros(len(values), dtype=np.int64)
    value_starts[named], value_lengths[named] = starts[which], lengths[which]
    text.add_bytes(blob, value_starts, value_lengths, named)


__all__ = ["add_target_names", "format_table", "record_texts"]
