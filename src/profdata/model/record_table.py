"""Many records as flat numpy columns: the form the fast merge and the indexed writer share.

A profile of 100k functions held as 100k :class:`InstrRecord` objects costs
more to build and walk than the whole merge of its counters; a
:class:`RecordTable` keeps every record's counters, bitmap bytes and value
sites in a few arrays instead.  The fast merge produces one directly
(:class:`TableProfile`), the indexed writer encodes from one, and any other
profile is flattened into one by :func:`record_table`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

from profdata.model.instr import (
    InstrProfile,
    InstrRecord,
    RecordColumns,
    ValueSite,
    spans,
    value_sites_of,
)
from profdata.model.kinds import ValueKind

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]
Bytes = npt.NDArray[np.uint8]

_KINDS = tuple(ValueKind)


@dataclass(eq=False)
class ValueColumns:
    """The value sites of many records, flat.

    One *row* per (record, kind) with at least one site, ordered by record
    then kind: ``row_sites[j]`` sites, whose value counts follow in
    ``site_lengths``; the (value, count) pairs of all sites follow in
    ``values`` / ``counts``.
    """

    row_record: Ints
    row_kind: Ints
    row_sites: Ints
    site_lengths: Ints
    values: U64s
    counts: U64s

    @classmethod
    def empty(cls) -> ValueColumns:
        none = np.zeros(0, dtype=np.int64)
        return cls(none, none, none, none, np.zeros(0, np.uint64), np.zeros(0, np.uint64))

    @classmethod
    def of(cls, records: Sequence[InstrRecord]) -> ValueColumns:
        rows: list[tuple[int, int, int]] = []
        sites: list[ValueSite] = []
        for index, rec in enumerate(records):
            if not rec.value_sites:
                continue
            for kind, lst in rec.sites_by_kind().items():
                rows.append((index, int(kind), len(lst)))
                sites.extend(lst)
        if not rows:
            return cls.empty()
        row = np.array(rows, dtype=np.int64).reshape(-1, 3)
        lengths = np.fromiter(map(len, sites), dtype=np.int64, count=len(sites))
        total = int(lengths.sum())
        flat = np.fromiter(
            chain.from_iterable(chain.from_iterable(sites)), dtype=np.uint64, count=2 * total
        )
        return cls(row[:, 0], row[:, 1], row[:, 2], lengths, flat[0::2], flat[1::2])

    def site_starts(self) -> Ints:
        """Index of each row's first site in ``site_lengths``."""
        return np.cumsum(self.row_sites) - self.row_sites

    def site_bounds(self) -> Ints:
        """Where each site's values start, with the end last: site ``i`` holds
        ``values[bounds[i] : bounds[i + 1]]``."""
        bounds = np.zeros(len(self.site_lengths) + 1, dtype=np.int64)
        np.cumsum(self.site_lengths, out=bounds[1:])
        return bounds

    def value_starts(self) -> tuple[Ints, Ints]:
        """Each row's first value and number of values."""
        bounds = self.site_bounds()
        first = self.site_starts()
        return bounds[first], bounds[first + self.row_sites] - bounds[first]

    def sites_of_rows(self, rows: Ints) -> Ints:
        """The sites of ``rows``, in their order (indexes into ``site_lengths``)."""
        return spans(self.site_starts()[rows], self.row_sites[rows])

    def rows(self, rows: Ints) -> ValueColumns:
        """Only ``rows``, in that order, with their record numbers as they are."""
        first, nvalues = self.value_starts()
        values = spans(first[rows], nvalues[rows])
        return ValueColumns(
            self.row_record[rows],
            self.row_kind[rows],
            self.row_sites[rows],
            self.site_lengths[self.sites_of_rows(rows)],
            self.values[values],
            self.counts[values],
        )

    def take(self, records: Ints, num_records: int) -> ValueColumns:
        """The rows of ``records`` (indexes among ``num_records``), renumbered in that order."""
        position = np.full(num_records, -1, dtype=np.int64)
        position[records] = np.arange(len(records))
        new_record = position[self.row_record]
        rows = np.flatnonzero(new_record >= 0)
        rows = rows[np.argsort(new_record[rows], kind="stable")]
        taken = self.rows(rows)
        taken.row_record = new_record[rows]
        return taken


def distinct_names(names: list[str], name_hashes: U64s | None) -> bool:
    """Whether no name repeats; told by the names' MD5s when there are some (distinct hashes
    mean distinct names; equal ones are looked at as names)."""
    if name_hashes is not None and len(names) > 1:
        ordered = np.sort(name_hashes)
        if not bool(np.any(ordered[1:] == ordered[:-1])):
            return True
    return len(set(names)) == len(names)


@dataclass(eq=False)
class RecordTable:
    """Records as parallel columns, in the merge's first-seen order.

    ``name_hashes`` may carry the MD5 of each record's name when the caller
    already has it (a raw profile's NameRefs), saving 100k MD5 calls.
    """

    columns: RecordColumns
    bitmap_lengths: Ints
    bitmaps: Bytes
    values: ValueColumns
    name_hashes: U64s | None = None

    def __len__(self) -> int:
        return len(self.columns)

    @classmethod
    def of(cls, records: Sequence[InstrRecord]) -> RecordTable:
        bitmaps = [rec.bitmap for rec in records]
        return cls(
            RecordColumns.of(records),
            np.fromiter(map(len, bitmaps), dtype=np.int64, count=len(bitmaps)),
            np.frombuffer(b"".join(bitmaps), dtype=np.uint8),
            ValueColumns.of(records),
        )

    @cached_property
    def names_distinct(self) -> bool:
        """Whether no name has two records (the usual case: then a name's records need no
        grouping)."""
        return distinct_names(self.columns.names, self.name_hashes)

    @cached_property
    def bitmap_starts(self) -> Ints:
        """Where each record's bitmap bytes start (once per table: ``show --text`` takes a
        chunk of the same table at a time)."""
        return np.cumsum(self.bitmap_lengths) - self.bitmap_lengths

    def has_data(self) -> npt.NDArray[np.bool_]:
        """``shouldEncodeData`` per record: a non-zero counter or bitmap byte."""
        cols = self.columns
        return _any_per_record(cols.counts != 0, cols.starts, cols.lengths) | _any_per_record(
            self.bitmaps != 0, self.bitmap_starts, self.bitmap_lengths
        )

    def take(self, records: Ints) -> RecordTable:
        """The table of ``records`` (row indexes), in that order."""
        cols = self.columns
        if len(records) == len(cols) and bool(np.all(records == np.arange(len(cols)))):
            return self
        names = cols.names
        lengths = cols.lengths[records]
        blens = self.bitmap_lengths[records]
        return RecordTable(
            RecordColumns(
                [names[i] for i in records.tolist()],
                cols.hashes[records],
                gather(cols.counts, cols.starts[records], lengths),
                lengths,
            ),
            blens,
            gather(self.bitmaps, self.bitmap_starts[records], blens),
            self.values.take(records, len(cols)),
            None if self.name_hashes is None else self.name_hashes[records],
        )

    def records(self) -> list[InstrRecord]:
        """The table as :class:`InstrRecord` objects (counters are views of the table's)."""
        cols = self.columns
        counts = cols.counts
        ends = (cols.starts + cols.lengths).tolist()
        bstarts = self.bitmap_starts.tolist()
        bends = (self.bitmap_starts + self.bitmap_lengths).tolist()
        raw_bitmaps = self.bitmaps.tobytes()
        vals = self.values
        sites = value_sites_of(
            zip(vals.values.tolist(), vals.counts.tolist(), strict=True),
            vals.site_lengths.tolist(),
        )
        by_record: list[dict[ValueKind, list[ValueSite]]] = [{} for _ in range(len(cols))]
        at = 0
        for rec, kind, num in zip(
            vals.row_record.tolist(), vals.row_kind.tolist(), vals.row_sites.tolist(), strict=True
        ):
            by_record[rec][_KINDS[kind]] = sites[at : at + num]
            at += num
        return [
            InstrRecord(name, fhash, counts[start:end], raw_bitmaps[bstart:bend], value_sites)
            for name, fhash, start, end, bstart, bend, value_sites in zip(
                cols.names, cols.hashes.tolist(), cols.starts.tolist(), ends, bstarts, bends,
                by_record, strict=True,
            )
        ]  # fmt: skip


def _any_per_record(
    flags: npt.NDArray[np.bool_], starts: Ints, lengths: Ints
) -> npt.NDArray[np.bool_]:
    seen = np.zeros(len(flags) + 1, dtype=np.int64)
    np.cumsum(flags, out=seen[1:])
    result: npt.NDArray[np.bool_] = seen[starts + lengths] > seen[starts]
    return result


class TableProfile(InstrProfile):
    """A merged profile held as a :class:`RecordTable`; its records are built on first use.

    ``distinct_values`` says no value site holds a value twice, known from how the
    table was made (the fast merge keys its values by site and value), so the check
    ``merge`` runs after writing need not sort them again.
    """

    def __init__(self, *, table: RecordTable, distinct_values: bool = False, **fields: Any) -> None:
        self._records: Sequence[InstrRecord] | None = None
        super().__init__(records=[], **fields)
        self._records = None
        self.table = table
        self.distinct_values = distinct_values

    @property
    def records(self) -> Sequence[InstrRecord]:
        if self._records is None:
            self._records = self.table.records()
        return self._records

    @records.setter
    def records(self, value: Sequence[InstrRecord]) -> None:
        self._records = value

    def columns(self) -> RecordColumns:
        return self.table.columns

    def cheap_table(self) -> RecordTable:
        return self.table


def record_table(profile: InstrProfile) -> RecordTable:
    """The profile's records as a table (free for a :class:`TableProfile`, read in bulk from
    an indexed file)."""
    table = profile.cheap_table()
    return table if table is not None else RecordTable.of(profile.records)


def gather(flat: npt.NDArray[Any], starts: Ints, lengths: Ints) -> npt.NDArray[Any]:
    """``flat[starts[i] : starts[i] + lengths[i]]`` for all i, concatenated (a view if in place)."""
    total = int(lengths.sum())
    if not len(starts) or total == 0:
        return flat[:0]
    first = int(starts[0])
    if first + total <= len(flat) and bool(np.all(starts[1:] == starts[:-1] + lengths[:-1])):
        return flat[first : first + total]
    return flat[spans(starts, lengths)]


__all__ = [
    "RecordTable",
    "TableProfile",
    "ValueColumns",
    "distinct_names",
    "gather",
    "record_table",
]
