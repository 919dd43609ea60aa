"""Indexed profiles of one binary as :class:`~profdata.formats.raw_columns.RawRun` arrays.

Merging sixteen indexed profiles of a 100k-function program record by
record costs 1.6 million Python record merges.  Profiles that one writer
made from runs of one binary hold the same items in the same payload order
-- the same keys, hashes, counter and bitmap lengths and value sites -- and
differ only in their counters, bitmap bytes and profiled values.  The first
such profile gives an :class:`IndexedShape`; every later one that matches it
is read as a run of that shape, which :mod:`profdata.ops.merge_fast` merges
with the same vector operations as raw runs.  Anything else (another binary,
a MemProf section, a value outside the shape's vocabulary, a payload the
bulk decoder does not vouch for) reads as None, and the merge takes the
record-by-record way, which reports problems the way LLVM does.

Values are stored as ids whose order is the values' order: an indirect-call
target is its position in the sorted vocabulary of the shape's name hashes
and the first profile's targets, a memop size is itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import numpy.typing as npt

from profdata.errors import ProfdataError
from profdata.formats import indexed
from profdata.formats._onhash import FileWords
from profdata.formats.indexed_columns import BulkRecords, value_records
from profdata.formats.raw_columns import RawRun, value_id_bits, value_ids, values_of_ids
from profdata.formats.raw_values import ValueRecords
from profdata.model.bucketed import BucketedValues
from profdata.model.instr import distinct, spans
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_array, names_bytes
from profdata.releases import Release

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]
Bytes = npt.NDArray[np.uint8]

_INDIRECT = int(ValueKind.INDIRECT_CALL_TARGET)


@dataclass(frozen=True, eq=False)
class IndexedValueRows:
    """The shape's value-profile rows (one per record and kind), in payload order."""

    blob_records: Ints  # the record owning each blob (a record with value data)
    row_blob: Ints
    row_kind: Ints
    row_sites: Ints
    site_kind: Ints  # per site, all rows' sites in order
    site_record: Ints

    @classmethod
    def of(cls, row_record: Ints, row_kind: Ints, row_sites: Ints) -> IndexedValueRows:
        """Rows given as (record, kind, sites), each record's rows one blob."""
        blob_records, row_blob = np.unique(row_record, return_inverse=True)
        site_row = np.repeat(np.arange(len(row_kind)), row_sites)
        return cls(
            blob_records=blob_records.astype(np.int64),
            row_blob=row_blob.astype(np.int64),
            row_kind=row_kind,
            row_sites=row_sites,
            site_kind=row_kind[site_row],
            site_record=row_record[site_row],
        )


@dataclass(frozen=True, eq=False)
class _Layout:
    """What must be equal for two indexed profiles to be runs of one shape."""

    kind: ProfileKind
    version: int
    key_lengths: Ints
    keys: U64s  # every key's bytes as words (see _key_words)
    item_of: Ints
    hashes: U64s
    lengths: Ints
    bitmap_lengths: Ints
    row_owner: Ints
    row_kind: Ints
    row_sites: Ints

    def same(self, other: _Layout) -> bool:
        return (
            self.kind == other.kind
            and self.version == other.version
            and np.array_equal(self.key_lengths, other.key_lengths)
            and np.array_equal(self.item_of, other.item_of)
            and np.array_equal(self.hashes, other.hashes)
            and np.array_equal(self.lengths, other.lengths)
            and np.array_equal(self.bitmap_lengths, other.bitmap_lengths)
            and np.array_equal(self.row_owner, other.row_owner)
            and np.array_equal(self.row_kind, other.row_kind)
            and np.array_equal(self.row_sites, other.row_sites)
            and np.array_equal(self.keys, other.keys)
        )


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """The sorted distinct indirect-call values of a shape, and where each lies.

    Values are name MD5s, spread evenly over 64 bits, so their top bits cut
    the sorted array into buckets of about one value each
    (:class:`~profdata.model.bucketed.BucketedValues`).
    """

    values: U64s
    bits: int
    lookup: BucketedValues

    @classmethod
    def of(cls, values: U64s) -> Vocabulary:
        bits = min(max(len(values).bit_length() + 1, 1), 24)
        lookup = BucketedValues.of(values, _top(values, bits), 1 << bits)
        return cls(values, bits, lookup)

    @classmethod
    def covering(cls, refs: U64s, targets: U64s, id_bits: int) -> Vocabulary | None:
        """The vocabulary of a shape whose records' names hash to ``refs`` and whose call
        sites name ``targets`` (and 0, a target nobody named); None if an id of it would
        not fit in ``id_bits``."""
        values = distinct(np.concatenate([refs, targets, np.zeros(1, dtype=np.uint64)]))
        if len(values).bit_length() > id_bits:
            return None
        return cls.of(values)

    def positions(self, targets: U64s) -> Ints | None:
        """Each target's position in ``values``; None if one is not there."""
        found = self.lookup.find(targets, _top(targets, self.bits))
        return None if bool(np.any(found < 0)) else found


def _top(values: U64s, bits: int) -> Ints:
    top: Ints = (values >> np.uint64(64 - bits)).astype(np.int64)
    return top


class VocabularyShape:
    """What a shape whose call targets are named through a :class:`Vocabulary` (an
    indexed or a text profile's) answers from its value rows."""

    values: IndexedValueRows
    vocabulary: Vocabulary  # sorted distinct indirect-call values; an id is a position here

    @property
    def num_sites(self) -> int:
        return len(self.values.site_kind)

    def values_of(self, ids: Ints, sites: Ints) -> U64s:
        """The profiled values behind ``ids`` at ``sites`` (name hashes, memop sizes)."""
        return values_of_ids(ids, self.values.site_kind[sites], self.vocabulary.values)


@dataclass(frozen=True, eq=False)
class IndexedShape(VocabularyShape):
    """What every indexed profile of the group shares, and the value vocabulary."""

    layout: _Layout
    #: the record names, made on first use (:attr:`names`, :attr:`name_refs`): hashing
    #: 100k names costs 84 ms, which a merge's worker process never needs
    name_source: Callable[[], list[str]]
    #: each record's item key hash as the file stores it: the MD5 of its name in any file
    #: LLVM wrote, which is all the vocabulary and a first look at the group need
    quick_refs: U64s
    values: IndexedValueRows
    vocabulary: Vocabulary  # sorted distinct indirect-call values; an id is a position here
    id_bits: int
    binary_ids: list[bytes]

    @cached_property
    def names(self) -> list[str]:
        return self.name_source()

    @cached_property
    def name_refs(self) -> U64s:
        """The MD5 of each record's name, computed."""
        return md5_array(names_bytes(self.names))

    @property
    def kind(self) -> ProfileKind:
        return self.layout.kind

    @property
    def hashes(self) -> U64s:
        return self.layout.hashes

    @property
    def lengths(self) -> Ints:
        return self.layout.lengths

    @property
    def bitmap_lengths(self) -> Ints:
        return self.layout.bitmap_lengths


@dataclass(frozen=True, eq=False)
class _Decoded:
    """One indexed profile in columns: its layout, counters, bitmaps and value entries."""

    profile: indexed.IndexedProfile
    bulk: BulkRecords
    words: FileWords
    layout: _Layout
    site_lengths: Ints
    entry_values: U64s
    entry_counts: U64s


def _decode(view: memoryview, path: str | None, release: Release | None = None) -> _Decoded | None:
    try:
        profile = indexed.read(view, path, release=release)
    except ProfdataError:
        return None
    if profile.memprof_range is not None and profile.memprof_range[1] > profile.memprof_range[0]:
        return None
    if profile.binary_ids_error is not None:  # its records count, the input fails: the long way
        return None
    listing = profile.listing()
    bulk = profile.bulk()
    if listing is None or bulk is None:
        return None
    words = listing.words
    items = listing.items
    with_values = np.flatnonzero(bulk.value_at >= 0)
    rows: ValueRecords | None = bulk.value_rows
    if rows is not None:  # found by the bulk decoder; blobs renumbered
        rows = replace(rows, blob=np.searchsorted(with_values, rows.blob))
    else:
        rows = value_records(words, bulk.value_at[with_values], bulk.item_end[with_values])
    if rows is None:
        return None
    owner = with_values[rows.blob]
    site_lengths = words.bytes[spans(rows.sites_at, rows.num_sites)].astype(np.int64)
    values, counts = _pairs(words, rows)
    layout = _Layout(
        kind=profile.kind,
        version=profile.version or 0,
        key_lengths=items.key_length,
        keys=_key_words(words, items.key_offset, items.key_length),
        item_of=bulk.item_of,
        hashes=bulk.columns.hashes,
        lengths=bulk.columns.lengths,
        bitmap_lengths=bulk.num_bitmap,
        row_owner=owner,
        row_kind=rows.kind,
        row_sites=rows.num_sites,
    )
    return _Decoded(profile, bulk, words, layout, site_lengths, values, counts)


def _key_words(words: FileWords, offsets: Ints, lengths: Ints) -> U64s:
    """Every key's bytes as little-endian words, the bytes past a key's end zeroed: two
    profiles have the same keys exactly when these are equal (key lengths being equal).

    Reading a word where a byte is read makes the gather eight times smaller;
    a key's last word may overlap what follows it, which a mask clears.
    """
    count = -(-lengths // 8)
    ends = np.cumsum(count)
    total = int(ends[-1]) if len(ends) else 0
    at = spans(offsets, count, 8)
    if total and int(at.max()) + 8 > words.size:  # a key ends the file: read bytewise
        padded = np.zeros(8 * total, dtype=np.uint8)
        into = spans(8 * (ends - count), lengths)
        padded[into] = words.bytes[spans(offsets, lengths)]
        return padded.view("<u8").astype(np.uint64)
    result: U64s = words.at[at].astype(np.uint64)
    used = count > 0
    tail = (lengths - 8 * (count - 1))[used]  # bytes of the last word that are the key's
    masks = np.where(tail >= 8, np.uint64(_ALL), (np.uint64(1) << (8 * tail).astype(np.uint64)) - 1)
    result[ends[used] - 1] &= masks
    return result


_ALL = 0xFFFFFFFFFFFFFFFF


def _pairs(words: FileWords, rows: ValueRecords) -> tuple[U64s, U64s]:
    """Every (value, count) pair of every row, in payload order."""
    at = spans(rows.values_at, rows.num_values, 16)
    return words.at[at].astype(np.uint64), words.at[at + 8].astype(np.uint64)


def indexed_shape(
    view: memoryview, path: str | None = None, release: Release | None = None
) -> tuple[IndexedShape, RawRun] | None:
    """The shape of an indexed profile and the profile read as a run of it (decoding it
    once, not once for each), as ``release`` reads it; None if its runs cannot be merged
    as arrays."""
    decoded = _decode(view, path, release)
    if decoded is None:
        return None
    lay = decoded.layout
    listing = decoded.profile.listing()
    assert listing is not None  # the bulk decoder needed it
    quick_refs = listing.items.key_hash[decoded.bulk.item_of]
    columns = decoded.bulk.columns
    rows = IndexedValueRows.of(lay.row_owner, lay.row_kind, lay.row_sites)
    num_sites = len(rows.site_kind)
    sites = np.repeat(np.arange(num_sites, dtype=np.int64), decoded.site_lengths)
    calls = rows.site_kind[sites] == _INDIRECT
    id_bits = value_id_bits(num_sites)
    vocabulary = Vocabulary.covering(quick_refs, decoded.entry_values[calls], id_bits)
    if vocabulary is None:
        return None
    shape = IndexedShape(
        layout=lay,
        name_source=columns.name_source(),
        quick_refs=quick_refs,
        values=rows,
        vocabulary=vocabulary,
        id_bits=id_bits,
        binary_ids=list(decoded.profile.binary_ids),
    )
    run = _run_of(decoded, shape)
    return None if run is None else (shape, run)


def read_indexed_run(
    view: memoryview, shape: IndexedShape, path: str | None = None, release: Release | None = None
) -> RawRun | None:
    """The counters and values of an indexed profile of ``shape``, read as ``release``
    reads it; None if it has another shape (or does not read)."""
    decoded = _decode(view, path, release)
    if decoded is None or not shape.layout.same(decoded.layout):
        return None
    return _run_of(decoded, shape)


def _run_of(decoded: _Decoded, shape: IndexedShape) -> RawRun | None:
    bulk = decoded.bulk
    counts = bulk.columns.counts  # gathered by the bulk decoder
    bitmaps = bulk.bitmap_bytes()
    site_lengths = decoded.site_lengths
    entry_site = np.repeat(np.arange(shape.num_sites, dtype=np.int64), site_lengths)
    values = decoded.entry_values
    calls = shape.values.site_kind[entry_site] == _INDIRECT
    ids = value_ids(values, calls, shape.vocabulary.positions(values[calls]), shape.id_bits)
    if ids is None:
        return None  # a target outside the vocabulary, or a size too large for an id
    return RawRun(
        counts, bitmaps, entry_site, ids, decoded.entry_counts, site_lengths, (),
        profile=decoded.profile,
    )  # fmt: skip


__all__ = [
    "IndexedShape",
    "IndexedValueRows",
    "Vocabulary",
    "VocabularyShape",
    "indexed_shape",
    "read_indexed_run",
]
