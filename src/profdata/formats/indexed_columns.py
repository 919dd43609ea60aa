"""Indexed profile records decoded in bulk, as :class:`~profdata.model.instr.RecordColumns`.

:class:`~profdata.formats.indexed_records.RecordDecoder` turns one hash-table item at
a time into records, with every check of LLVM's ``InstrProfLookupTrait::ReadData``.
``show`` needs only the names, hashes and counters of all records, and for
100k functions the per-item Python work costs more than the real tool's whole
run.  Here every item is decoded at once: the j-th record of all items in one
numpy step, the counters of all records gathered into one array.  The checks
are ``RecordDecoder``'s, vectorized; if any fails, :func:`decode_bulk`
returns None and the caller decodes item by item, which raises the located
error of the first bad item, in LLVM's order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from profdata.formats._onhash import FileWords, ItemArrays
from profdata.formats.indexed_layout import IndexedLayout
from profdata.formats.indexed_records import reads_nothing
from profdata.formats.raw_values import ValueRecords, decode_sites, value_columns
from profdata.model.instr import InstrRecord, RecordColumns, ValueSite, spans
from profdata.model.kinds import ValueKind
from profdata.model.names import ENCODING, ERRORS
from profdata.model.record_table import RecordTable, ValueColumns

Ints = npt.NDArray[np.int64]

_VALUE_KINDS = int(max(ValueKind)) + 1  # IPVK_Last + 1
_NO_VALUE_DATA = 8  # ValueProfData{TotalSize 8, NumValueKinds 0} read as one u64
_LOW32 = np.uint64(0xFFFFFFFF)
_NAME_CHUNK = 4096  # keys gathered per numpy step (bounds the index arrays)


def item_names(words: FileWords, items: ItemArrays) -> list[str]:
    """The items' keys as names (``str`` with surrogate escapes, like ``name_str``).

    Keys are gathered with a NUL after each (read from a zero byte of the
    header), decoded at once and split; names hold no NUL in practice, and a
    chunk whose keys do is sliced key by key.
    """
    raw = words.bytes
    zeros = np.flatnonzero(raw[:64] == 0)
    names: list[str] = []
    for lo in range(0, len(items.key_offset), _NAME_CHUNK):
        offsets = items.key_offset[lo : lo + _NAME_CHUNK]
        lengths = items.key_length[lo : lo + _NAME_CHUNK]
        at = spans(offsets, lengths + 1)
        ends = np.cumsum(lengths + 1)
        if len(zeros):
            at[ends - 1] = zeros[0]
        blob = raw[at].tobytes()
        if len(zeros) and blob.count(0) == len(lengths):
            names.extend(str(blob, ENCODING, ERRORS).split("\x00")[:-1])
        else:
            names.extend(
                str(blob[end - 1 - n : end - 1], ENCODING, ERRORS)
                for end, n in zip(ends.tolist(), lengths.tolist(), strict=True)
            )
    return names


class ItemListing:
    """The hash table's items read in bulk, and their names (decoded on first use)."""

    def __init__(self, words: FileWords, items: ItemArrays) -> None:
        self.words = words
        self.items = items
        self._names: list[str] | None = None

    @property
    def names(self) -> list[str]:
        if self._names is None:
            self._names = item_names(self.words, self.items)
        return self._names


def gather_counts(words: FileWords, starts: Ints, lengths: Ints) -> npt.NDArray[np.uint64]:
    """The little-endian u64 runs ``lengths[i]`` words long at byte ``starts[i]``, concatenated."""
    counts: npt.NDArray[np.uint64] = words.at[spans(starts, lengths, 8)]
    return counts


@dataclass(eq=False)
class BulkRecords:
    """Every record of the table, decoded and checked in bulk, in payload order.

    ``columns`` is what ``show`` needs; the rest says where each record's
    bitmap and value data are, so that :meth:`records` can build the
    :class:`InstrRecord` objects without walking the payload again.
    """

    columns: RecordColumns
    item_of: Ints  # the item each record belongs to
    counts_at: Ints  # where each record's counters start in the file
    bitmap_at: Ints
    num_bitmap: Ints
    #: where each record's ValueProfData starts; -1 when it has none (or the version none)
    value_at: Ints
    item_end: Ints  # the end of each record's item data
    data: memoryview  # the file, which the offsets index
    #: the kind records of every ValueProfData, ``blob`` a record index (None: not kept)
    value_rows: ValueRecords | None = None

    def records(self) -> list[InstrRecord]:
        """The records; like item-by-item decoding, their counters are views of the file."""
        cols = self.columns
        count = len(cols)
        raw = np.frombuffer(self.data, dtype=np.uint8)
        bitmaps = [b""] * count
        for i in np.flatnonzero(self.num_bitmap).tolist():
            at = int(self.bitmap_at[i])
            words = raw[at : at + 8 * int(self.num_bitmap[i])].view("<u8")
            bitmaps[i] = words.astype(np.uint8).tobytes()  # LLVM keeps the low byte
        sites: list[dict[ValueKind, list[ValueSite]]] = [{} for _ in range(count)]
        with_values = np.flatnonzero(self.value_at >= 0)
        found = _value_data(
            FileWords(self.data), self.value_at[with_values], self.item_end[with_values]
        )
        if found is not None:
            decoded = decode_sites(self.data, "<", found[1], len(with_values))
            for i, record_sites in zip(with_values.tolist(), decoded, strict=True):
                sites[i] = record_sites
        starts = self.counts_at.tolist()
        ends = (self.counts_at + 8 * cols.lengths).tolist()
        views = [raw[a:b].view("<u8") for a, b in zip(starts, ends, strict=True)]
        return list(map(InstrRecord, cols.names, cols.hashes.tolist(), views, bitmaps, sites))

    def table(self) -> RecordTable:
        """The records as a :class:`RecordTable`, read from the file with no record objects:
        what ``RecordTable.of(self.records())`` gives, at a fraction of the cost (``show
        --text`` of 100k functions spent most of its time building and flattening records)."""
        rows = self.value_rows
        if rows is None:
            with_values = np.flatnonzero(self.value_at >= 0)
            words = FileWords(self.data)
            found = _value_data(words, self.value_at[with_values], self.item_end[with_values])
            if found is not None:
                rows = replace(found[1], blob=with_values[found[1].blob])
        values = ValueColumns.empty() if rows is None else value_columns(self.data, "<", rows)
        return RecordTable(self.columns, self.num_bitmap.copy(), self.bitmap_bytes(), values)

    def bitmap_bytes(self) -> npt.NDArray[np.uint8]:
        """Every record's bitmap bytes, concatenated: each is stored as a little-endian u64,
        of which LLVM keeps the low byte."""
        at = spans(self.bitmap_at, self.num_bitmap, 8)
        bytes_: npt.NDArray[np.uint8] = np.frombuffer(self.data, dtype=np.uint8)[at]
        return bytes_


def decode_bulk(
    data: memoryview,
    words: FileWords,
    items: ItemArrays,
    item_names: Callable[[], list[str]],
    layout: IndexedLayout,
    num_kinds: int = _VALUE_KINDS,
) -> BulkRecords | None:
    """All records of ``items``, or None where ``RecordDecoder`` would fail.

    ``item_names`` gives the items' names when the records' names are first used;
    ``num_kinds`` is the reading release's ``IPVK_Last + 1``.
    """
    begin, size = items.data_offset, items.data_length
    if bool(np.any(reads_nothing(size))):
        return None
    end = begin + size
    steps: list[tuple[Ints, npt.NDArray[np.uint64], Ints, Ints, Ints, Ints, Ints]] = []
    rows: list[ValueRecords] = []  # each step's kind records, blob indexing its records
    live = np.arange(len(size))  # every item holds a hash and more (reads_nothing)
    if not layout.has_num_counts:
        at = begin[live]
        none = np.full(len(live), -1, dtype=np.int64)
        zero = np.zeros(len(live), dtype=np.int64)
        steps.append((live, words.u64(at)[:, 0], at + 8, size[live] // 8 - 1, none, zero, none))
        live = live[:0]
    pos = begin[live]
    while len(live):
        stop = end[live]
        if bool(np.any(stop - pos <= 8)):
            return None
        head = words.u64(pos, 2)
        room = ((stop - pos - 16) // 8).astype(np.uint64)
        if bool(np.any(head[:, 1] > room)):
            return None
        num_counts = head[:, 1].astype(np.int64)
        counts_at = pos + 16
        pos = counts_at + 8 * num_counts
        bitmap_at = np.full(len(live), -1, dtype=np.int64)
        num_bitmap = np.zeros(len(live), dtype=np.int64)
        if layout.has_bitmap:
            if bool(np.any(stop - pos < 8)):
                return None
            stated = words.u64(pos)[:, 0]
            pos = pos + 8
            if bool(np.any(stated > ((stop - pos) // 8).astype(np.uint64))):
                return None
            bitmap_at, num_bitmap = pos, stated.astype(np.int64)
            pos = pos + 8 * num_bitmap
        value_at = np.full(len(live), -1, dtype=np.int64)
        if layout.has_value_data:
            found = _value_data(words, pos, stop, num_kinds)
            if found is None:
                return None
            value_at = np.where(found[0] - pos > 8, pos, -1)
            pos = found[0]
            rows.append(found[1])
        steps.append((live, head[:, 0], counts_at, num_counts, bitmap_at, num_bitmap, value_at))
        more = pos < stop
        live, pos = live[more], pos[more]
    if steps:
        item_of, hashes, starts, lengths, bitmap_at, num_bitmap, value_at = (
            np.concatenate(column) for column in zip(*steps, strict=True)
        )
    else:
        item_of = starts = lengths = bitmap_at = num_bitmap = value_at = np.zeros(0, np.int64)
        hashes = np.zeros(0, dtype=np.uint64)
    if len(steps) > 1:  # some item holds several records: back to item order
        order = np.argsort(item_of, kind="stable")
        item_of, hashes, starts = item_of[order], hashes[order], starts[order]
        lengths, bitmap_at = lengths[order], bitmap_at[order]
        num_bitmap, value_at = num_bitmap[order], value_at[order]
    one_each = len(item_of) == len(items.key_offset) and bool(np.all(item_of[1:] > item_of[:-1]))

    def names() -> list[str]:
        every = item_names()
        return every if one_each else [every[i] for i in item_of.tolist()]

    counts = gather_counts(words, starts, lengths)
    counts.flags.writeable = False  # like the zero-copy views of item-by-item decoding
    columns = RecordColumns(names, hashes, counts, lengths)
    # with one record per item, the first step's records are all records in order
    value_rows = rows[0] if len(rows) == 1 and len(steps) == 1 else None
    return BulkRecords(
        columns, item_of, starts, bitmap_at, num_bitmap, value_at, end[item_of], data, value_rows
    )


def value_records(
    words: FileWords, pos: Ints, stop: Ints, num_kinds: int = _VALUE_KINDS
) -> ValueRecords | None:
    """The kind records of the ``ValueProfData`` blobs at ``pos`` (``blob`` indexes ``pos``)."""
    found = _value_data(words, pos, stop, num_kinds)
    return None if found is None else found[1]


def _value_data(
    words: FileWords, pos: Ints, stop: Ints, num_kinds: int = _VALUE_KINDS
) -> tuple[Ints, ValueRecords] | None:
    """Where each record's ``ValueProfData`` ends, and the kind records inside them.

    None where ``RecordDecoder.value_sites`` would fail (``num_kinds``: the reading
    release's ``IPVK_Last + 1``); the kind records' ``blob`` is the index into ``pos``.
    """
    if bool(np.any(stop - pos < 8)):
        return None
    head = words.u64(pos)[:, 0]
    empty = head == np.uint64(_NO_VALUE_DATA)
    out = pos + 8
    full = np.flatnonzero(~empty)
    at, head, left = pos[full], head[full], (stop - pos)[full]
    total = (head & _LOW32).astype(np.int64)
    kinds = (head >> np.uint64(32)).astype(np.int64)
    if bool(np.any((total > left) | (kinds > num_kinds) | (total % 8 != 0) | (total < 8))):
        return None
    value_end = at + total
    cursor = at + 8
    found: list[tuple[Ints, ...]] = []
    for k in range(int(kinds.max(initial=0))):
        live = np.flatnonzero(kinds > k)
        p, vend = cursor[live], value_end[live]
        if bool(np.any(vend - p < 8)):
            return None
        record = words.u64(p)[:, 0]
        kind = (record & _LOW32).astype(np.int64)
        num_sites = (record >> np.uint64(32)).astype(np.int64)
        if bool(np.any(kind >= num_kinds)):
            return None
        header = (8 + num_sites + 7) & ~7
        if bool(np.any(header > vend - p)):
            return None
        sites = spans(p + 8, num_sites)
        sums = np.zeros(len(sites) + 1, dtype=np.int64)
        np.cumsum(words.bytes[sites], dtype=np.int64, out=sums[1:])
        ends = np.cumsum(num_sites)
        num_values = sums[ends] - sums[ends - num_sites]
        if bool(np.any(16 * num_values > vend - p - header)):
            return None
        found.append(
            (full[live], np.full(len(live), k), kind, p + 8, num_sites, p + header, num_values)
        )
        cursor[live] = p + header + 16 * num_values
    out[full] = value_end
    return out, _kind_records(found)


def _kind_records(found: list[tuple[Ints, ...]]) -> ValueRecords:
    """The kind records found step by step, in record order then file order."""
    none = np.zeros(0, dtype=np.int64)
    if not found:
        return ValueRecords(none, none, none, none, none, none, none)
    owner, ordinal, kind, sites_at, num_sites, values_at, num_values = (
        np.concatenate(column) for column in zip(*found, strict=True)
    )
    order = np.lexsort((ordinal, owner))
    return ValueRecords(
        owner[order], kind[order], sites_at[order], num_sites[order], values_at[order],
        num_values[order], none,
    )  # fmt: skip
