"""A text profile's records as the shape of a merge's group.

The fast merge (:mod:`profdata.ops.merge_fast`) sums the runs of one group
as arrays laid out by the group's shape: its records (names, function
hashes, counter and bitmap lengths), their value sites, and ids for the
profiled values.  Raw and indexed profiles have shapes of their own, read
from their layout.  A text profile has none, so a merge of text profiles
only -- the conversion ``merge -o x.profdata x.proftext``, or several texts
summed -- went record by record: 1.5 s for the bench's 100k functions,
which llvm-profdata converts in 0.45 s.

A text profile read into a :class:`~profdata.model.record_table.RecordTable`
(:mod:`profdata.formats.text_columns`) holds everything a shape holds, in
the order the record-by-record merge meets it (the file's).
:func:`table_shape` makes that table a :class:`TableShape`, which offers
what :class:`~profdata.formats.indexed_runs.IndexedShape` offers to the
merge; later texts, raw runs and indexed profiles of the same records then
cross onto it (:mod:`profdata.formats.crossed_runs`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from profdata.formats.indexed_runs import IndexedValueRows, Vocabulary, VocabularyShape
from profdata.formats.raw_columns import RawRun, value_id_bits, value_ids
from profdata.model.instr import InstrProfile
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_array, names_bytes
from profdata.model.record_table import record_table

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]

_INDIRECT = int(ValueKind.INDIRECT_CALL_TARGET)
_MEMOP = int(ValueKind.MEMOP_SIZE)


@dataclass(frozen=True, eq=False)
class TableShape(VocabularyShape):
    """A text profile's records and value sites, as a group's shape."""

    kind: ProfileKind
    names: list[str]
    hashes: U64s
    lengths: Ints
    bitmap_lengths: Ints
    #: the MD5 of each record's name (a text states no hashes of its own)
    quick_refs: U64s
    values: IndexedValueRows
    vocabulary: Vocabulary
    id_bits: int
    binary_ids: list[bytes] = field(default_factory=list)  # a text profile holds none

    @property
    def name_refs(self) -> U64s:
        return self.quick_refs


def table_shape(profile: InstrProfile) -> tuple[TableShape, RawRun] | None:
    """The shape of a text profile and the profile as its first run; None where the
    record-by-record merge must take it.

    Declined: temporal traces (kept in input order by that merge), MemProf,
    value kinds other than call targets and memop sizes, and bitmaps where a
    record had no bitmap block (LLVM 19+'s text reader may hand such a record
    the bitmap of the record read before it).
    """
    if profile.kind & ProfileKind.TEMPORAL or profile.memprof is not None:
        return None
    table = record_table(profile)
    if profile.without_bitmap_block and len(table.bitmaps):
        return None
    vals = table.values
    kinds = vals.row_kind
    if len(kinds) and not bool(np.all((kinds == _INDIRECT) | (kinds == _MEMOP))):
        return None
    columns = table.columns
    refs = table.name_hashes
    if refs is None:
        refs = md5_array(names_bytes(columns.names))
    rows = IndexedValueRows.of(vals.row_record, vals.row_kind, vals.row_sites)
    num_sites = len(rows.site_kind)
    entry_site = np.repeat(np.arange(num_sites, dtype=np.int64), vals.site_lengths)
    calls = rows.site_kind[entry_site] == _INDIRECT
    targets = vals.values[calls]
    id_bits = value_id_bits(num_sites)
    vocabulary = Vocabulary.covering(refs, targets, id_bits)
    if vocabulary is None:
        return None
    ids = value_ids(vals.values, calls, vocabulary.positions(targets), id_bits)
    if ids is None:
        return None
    shape = TableShape(
        kind=profile.kind,
        names=columns.names,
        hashes=columns.hashes,
        lengths=columns.lengths,
        bitmap_lengths=table.bitmap_lengths,
        quick_refs=refs,
        values=rows,
        vocabulary=vocabulary,
        id_bits=id_bits,
    )
    run = RawRun(
        counts=columns.counts,
        bitmaps=table.bitmaps,
        entry_site=entry_site,
        entry_id=ids,
        entry_count=vals.counts,
        site_lengths=vals.site_lengths,
        trace=(),
        profile=profile,
    )
    return shape, run


__all__ = ["TableShape", "table_shape"]
