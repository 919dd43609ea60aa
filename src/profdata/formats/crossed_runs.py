"""Runs of one binary read in the other format, as runs of the merge's group.

The common incremental merge, ``merge -o new.profdata old.profdata
*.profraw``, mixes the two formats of one binary's runs: an indexed profile
lists its records in its hash table's payload order and names call targets
by name hash, a raw run lists them in the binary's data order and names
call targets by address.  Each kind alone is merged as arrays
(:mod:`profdata.ops.merge_fast`); the first input's shape is the group, and
an input of the other format used to send its writer context to the
record-by-record merge (a hundred times slower for the bench's 100k
functions).

When the other shape holds exactly the group's records -- the same
(name, function hash) pairs, counter and bitmap lengths, and value sites of
each kind -- a :class:`Crossing` maps it onto the group: a permutation of
records (so of counters, bitmap bytes and sites) and a map of call-target
ids.  Its runs are then merged as runs of the group, each entry in the
order the record-by-record merge would meet it.  Anything short of a
one-to-one match (a record more or less, as ``--sparse`` leaves, a site
count that differs, a target the group has no id for) is no crossing, and
the record-by-record merge decides what happens, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt

from profdata.formats.raw_columns import RawRun, RawShape, value_ids
from profdata.model.instr import InstrProfile, spans
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.record_table import record_table

if TYPE_CHECKING:
    from profdata.formats.indexed_runs import IndexedShape
    from profdata.formats.table_shapes import TableShape

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]
Shape: TypeAlias = "RawShape | IndexedShape | TableShape"

_INDIRECT = int(ValueKind.INDIRECT_CALL_TARGET)


@dataclass(eq=False)
class CrossedRun(RawRun):
    """A run of another shape, in the group's order; what else the merge needs of it."""

    source: Shape | None = None
    #: the group's record of each of the run's own records, in the run's order: the order
    #: the record-by-record merge meets them (first seen, overflow warnings)
    records: Ints | None = None
    #: the counters as the run holds them (LLVM names the first too large one in that order)
    own_counts: U64s | None = None


@dataclass(frozen=True, eq=False)
class Crossing:
    """How runs of ``source`` become runs of the group's ``target`` shape."""

    source: Shape
    target: Shape
    records: Ints  # the target record of each source record
    counter_index: Ints  # the source counter of each target counter
    bitmap_index: Ints  # the source bitmap byte of each target byte
    site_of: Ints  # the target site of each source site
    call_ids: Ints  # the target id of each source call-target id (-1: the target has none)

    def run(self, run: RawRun) -> CrossedRun | None:
        """``run`` (of the source shape) as a run of the target; None if a value has no
        id in the target (the record-by-record merge takes it then)."""
        target = self.target
        own = run.entry_id
        calls = self.source.values.site_kind[run.entry_site] == _INDIRECT
        ids = value_ids(own, calls, self.call_ids[own[calls]], target.id_bits)
        if ids is None:
            return None
        # the entries stay where they are: their sites are renumbered, and so is the order
        # the run holds its sites in
        held = run.site_order if run.site_order is not None else self._every_site
        site_lengths = np.zeros(target.num_sites, dtype=np.int64)
        site_lengths[self.site_of] = run.site_lengths
        return CrossedRun(
            counts=np.take(run.counts, self.counter_index),
            bitmaps=np.take(run.bitmaps, self.bitmap_index),
            entry_site=self.site_of[run.entry_site],
            entry_id=ids,
            entry_count=run.entry_count,
            site_lengths=site_lengths,
            trace=run.trace,
            site_order=self.site_of[held],
            calls=run.calls,
            source=self.source,
            records=self.records,
            own_counts=run.counts,
            profile=run.profile,
        )

    @cached_property
    def _every_site(self) -> Ints:
        return np.arange(len(self.site_of), dtype=np.int64)


def crossing(
    source: Shape, source_names: list[str], target: Shape, target_names: list[str]
) -> Crossing | None:
    """How ``source`` maps onto ``target`` record for record; None unless one to one.

    The names are compared as strings, not only through the hashes the files
    state: a raw record without a name, or a hand-made indexed key hash,
    would otherwise pair records the record-by-record merge keeps apart.
    """
    count = len(target.hashes)
    if source.kind != target.kind or len(source.hashes) != count:
        return None
    if source.kind & ProfileKind.TEMPORAL:
        return None  # traces are kept in input order by the long way: not crossed here
    records = _pairing((source.quick_refs, source.hashes), (target.quick_refs, target.hashes))
    if records is None:
        return None
    indexes = _indexes(records, source.lengths, source.bitmap_lengths, target)
    if indexes is None:
        return None
    if list(map(target_names.__getitem__, records.tolist())) != source_names:
        return None
    site_of = _pairing(_site_keys(source, records), _site_keys(target, None))
    if site_of is None:
        return None
    return Crossing(
        source=source,
        target=target,
        records=records,
        counter_index=indexes[0],
        bitmap_index=indexes[1],
        site_of=site_of,
        call_ids=_positions(_call_values(source), _call_values(target)),
    )


def table_run(
    profile: InstrProfile, target: Shape, records_of: Mapping[tuple[str, int], int]
) -> CrossedRun | None:
    """A profile read in full (a text profile: no shape to read its like by) as a run of
    ``target``, when it holds exactly the target's records; None otherwise.

    ``records_of`` finds the target's record of each (name, function hash).
    The profile's vtable names, traces and binary ids stay with it
    (:attr:`CrossedRun.profile`), as for an indexed run.
    """
    count = len(target.hashes)
    if profile.kind != target.kind or profile.kind & ProfileKind.TEMPORAL:
        return None
    if profile.memprof is not None:
        return None
    table = record_table(profile)
    if profile.without_bitmap_block and len(table.bitmaps):
        return None  # LLVM's text reader may hand a record the bitmap of the one before
    columns = table.columns
    if len(columns.hashes) != count:
        return None
    keys = zip(columns.names, columns.hashes.tolist(), strict=True)
    records = np.fromiter((records_of.get(key, -1) for key in keys), dtype=np.int64, count=count)
    if count and (int(records.min()) < 0 or int(np.bincount(records).max()) > 1):
        return None
    indexes = _indexes(records, columns.lengths, table.bitmap_lengths, target)
    if indexes is None:
        return None
    vals = table.values
    site_record = np.repeat(vals.row_record, vals.row_sites)
    site_kind = np.repeat(vals.row_kind, vals.row_sites)
    mine = _keyed(records[site_record], site_kind, vals.row_sites)
    site_of = _pairing(mine, _site_keys(target, None))
    if site_of is None:
        return None
    entry_site = np.repeat(np.arange(len(site_of), dtype=np.int64), vals.site_lengths)
    values = vals.values
    calls = site_kind[entry_site] == _INDIRECT
    ids = value_ids(values, calls, _positions(values[calls], _call_values(target)), target.id_bits)
    if ids is None:
        return None
    site_lengths = np.zeros(target.num_sites, dtype=np.int64)
    site_lengths[site_of] = vals.site_lengths
    return CrossedRun(
        counts=np.take(columns.counts, indexes[0]),
        bitmaps=np.take(table.bitmaps, indexes[1]),
        entry_site=site_of[entry_site],
        entry_id=ids,
        entry_count=vals.counts,
        site_lengths=site_lengths,
        trace=(),
        site_order=site_of,
        records=records,
        profile=profile,
    )


def _indexes(
    records: Ints, lengths: Ints, bitmap_lengths: Ints, target: Shape
) -> tuple[Ints, Ints] | None:
    """Where each of the target's counters and bitmap bytes is among the source's, the
    source's records being the target's ``records``; None unless every record has its
    target's counter and bitmap lengths."""
    if not np.array_equal(lengths, target.lengths[records]):
        return None
    if not np.array_equal(bitmap_lengths, target.bitmap_lengths[records]):
        return None
    back = np.empty(len(records), dtype=np.int64)
    back[records] = np.arange(len(records), dtype=np.int64)
    return (
        spans(_starts(lengths)[back], target.lengths),
        spans(_starts(bitmap_lengths)[back], target.bitmap_lengths),
    )


def _pairing(
    source: tuple[npt.NDArray[np.integer], ...], target: tuple[npt.NDArray[np.integer], ...]
) -> Ints | None:
    """The target row of each source row where the rows (the columns' tuples) are equal;
    None unless that pairs every row with one other (the target's rows are distinct)."""
    if len(source[0]) != len(target[0]):
        return None
    mine = np.lexsort(source[::-1])
    theirs = np.lexsort(target[::-1])
    for a, b in zip(source, target, strict=True):
        if not np.array_equal(a[mine], b[theirs]):
            return None
    if len(theirs) > 1:
        first = target[0][theirs]
        same = first[1:] == first[:-1]
        for column in target[1:]:
            ordered = column[theirs]
            same &= ordered[1:] == ordered[:-1]
        if bool(np.any(same)):
            return None
    paired = np.empty(len(mine), dtype=np.int64)
    paired[mine] = theirs
    return paired


def _site_keys(shape: Shape, records: Ints | None) -> tuple[Ints, Ints, Ints]:
    """Each site as (record, kind, position among its record's sites of that kind), the
    records renumbered by ``records``."""
    vals = shape.values
    owner = vals.site_record if records is None else records[vals.site_record]
    return _keyed(owner, vals.site_kind, vals.row_sites)


def _keyed(owner: Ints, kind: Ints, row_sites: Ints) -> tuple[Ints, Ints, Ints]:
    """Sites as (record, kind, position in their row), given each site's record and kind
    and the sites of each row (the sites in row order)."""
    first = np.cumsum(row_sites) - row_sites
    position = np.arange(int(row_sites.sum()), dtype=np.int64) - np.repeat(first, row_sites)
    return owner.astype(np.int64), kind.astype(np.int64), position


def _starts(lengths: Ints) -> Ints:
    starts: Ints = np.cumsum(lengths) - lengths
    return starts


def _call_values(shape: Shape) -> U64s:
    """The call-target value of each id (sorted)."""
    if isinstance(shape, RawShape):
        return shape.targets.values
    return shape.vocabulary.values


def _positions(values: U64s, vocabulary: U64s) -> Ints:
    """Where each of ``values`` is in the sorted ``vocabulary``, -1 where it is not."""
    at = np.searchsorted(vocabulary, values)
    inside = at < len(vocabulary)
    found = np.zeros(len(values), dtype=bool)
    found[inside] = vocabulary[at[inside]] == values[inside]
    return np.where(found, at, -1).astype(np.int64)


__all__ = ["CrossedRun", "Crossing", "crossing", "table_run"]
