"""Indexed instrumentation profile writer (``InstrProfWriter::write``), versions 1..13.

Output is byte-identical to ``llvm-profdata merge`` of the release given
(``shared/spec/instr-indexed.md`` §12): 14 writes v7, 16 v9, 19 v12, 22 v13.
Besides the per-version layout (:mod:`profdata.formats.indexed_layout`) the
bytes depend on three orders that LLVM never sorts on purpose:

* the hash-table bucket layout (:mod:`profdata.formats._onhash_write`), which
  depends on the order names are inserted: sorted bytewise from 19, the
  iteration order of the merge's ``StringMap`` before (§6.5);
* the order of several records under one name: the iteration order of a
  ``SmallDenseMap`` keyed by FuncHash (§6.4);
* the order of vtable names: a ``StringSet``'s iteration order.

All three are replayed from the order in which the merge first saw each name
and each hash, which is why :func:`write_indexed` takes the *unfiltered*
merged profile in first-seen order (what ``InstrProfWriter.to_profile()``
returns) and applies ``--sparse`` itself: LLVM 14/16 drop sparse names only
while walking the full ``StringMap``, so the dropped names still shape the order.

The records are written from a :class:`RecordTable` -- every record's
counters, bitmap bytes and value sites as flat numpy columns -- so a profile
of 100k functions is encoded with a few dozen array operations rather than
100k Python-level encodings.  A fast merge hands over such a table directly
(:class:`TableProfile`); any other profile's records are flattened first.

Versions that no supported release writes (1-6, 8, 10, 11) get their own
layout but the generator and summary rules of ``release``; the releases that
once wrote them are not reproduced byte for byte, but LLVM 22 reads each back.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np
import numpy.typing as npt

from profdata.formats import _onhash_write
from profdata.formats._binary import ByteWriter, pad8
from profdata.formats._names import write_name_chunk
from profdata.formats.indexed_layout import (
    HASH_TYPE_MD5,
    MAGIC,
    SUMMARY_FIELDS,
    IndexedLayout,
    layout,
)
from profdata.model.instr import (
    PSEUDO_WARM,
    InstrProfile,
    spans,
)
from profdata.model.kinds import CS_HASH_BIT, ProfileKind, ValueKind
from profdata.model.llvm_containers import small_densemap_order, stringmap_order, stringmap_ordered
from profdata.model.names import md5_array, names_bytes
from profdata.model.record_table import (
    RecordTable,
    ValueColumns,
    gather,
    record_table,
)
from profdata.model.summary import DEFAULT_CUTOFFS, U64, ProfileSummary, summarize_counts
from profdata.releases import Release

MAX_VALUES_PER_SITE = 255  # SiteCountArray entries are u8

#: Variant flags ``InstrProfWriter::writeImpl`` of the latest release copies into the
#: version word (an older one copies those it knows: :func:`written_flags`).
WRITTEN_FLAGS = (
    ProfileKind.IR
    | ProfileKind.CS
    | ProfileKind.ENTRY_FIRST
    | ProfileKind.LOOP_ENTRIES
    | ProfileKind.SINGLE_BYTE_COVERAGE
    | ProfileKind.FUNCTION_ENTRY_ONLY
    | ProfileKind.MEMPROF
    | ProfileKind.TEMPORAL
)


def written_flags(release: Release) -> ProfileKind:
    """The variant flags ``release``'s writer puts in the version word."""
    flags = ProfileKind(0)
    for name in release.indexed_written_kinds:
        flags |= ProfileKind[name]
    return flags & WRITTEN_FLAGS


#: Bytes of one summary block: 2 counts, the fields, a (cutoff, min, count) triple per cutoff.
SUMMARY_SIZE = 8 * (2 + len(SUMMARY_FIELDS) + 3 * len(DEFAULT_CUTOFFS))

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]
Bytes = npt.NDArray[np.uint8]

_U32X2 = struct.Struct("<II")
_KINDS = tuple(ValueKind)
_MAX_SORT_BYTES = 64 << 20  # largest fixed-width name array sorted with numpy
#: emitted items from which a payload is filled in two processes when the caller can fork:
#: below that a fork costs more than half the filling saves
_SPLIT_ITEMS = 20_000
#: the share of the payload this process fills when split: it also sums up the summaries
#: (for a 100k-function merge ~20 ms beside ~120 ms of filling, measured: both sides end
#: together at about 0.39)
_OWN_SHARE = 0.39


class FillInTwo(Protocol):
    """Fills a buffer in two processes (:class:`profdata.ops.shared_fill.SharedFill`)."""

    def zeros(self, size: int) -> npt.NDArray[np.uint8]:
        """A zeroed buffer that both processes can fill in place."""

    def __call__(
        self,
        dest: npt.NDArray[np.uint8],
        cut: int,
        here: Callable[[npt.NDArray[np.uint8]], None],
        there: Callable[[npt.NDArray[np.uint8]], None],
    ) -> None:
        """``dest[:cut]`` filled by ``here(dest)``, ``dest[cut:]`` by ``there`` -- in another
        process, so both halves are filled at once."""


# -- the writer -------------------------------------------------------------------------
def write_indexed(
    profile: InstrProfile,
    *,
    release: Release,
    version: int | None = None,
    sparse: bool = False,
) -> bytes:
    """The indexed file ``llvm-profdata merge`` of ``release`` writes for this merged state.

    ``profile.records`` must hold at most one record per (name, FuncHash), in
    the order the merge first saw them; ``version`` overrides the release's
    indexed version (the layout changes, the ordering rules stay the
    release's); ``sparse`` drops names whose records are all zero.
    """
    return b"".join(encode_indexed(profile, release=release, version=version, sparse=sparse))


def encode_indexed(
    profile: InstrProfile,
    *,
    release: Release,
    version: int | None = None,
    sparse: bool = False,
    memprof_version: int | None = None,
    memprof_full_schema: bool = False,
    fill_in_two: FillInTwo | None = None,
) -> list[bytearray | memoryview]:
    """:func:`write_indexed` as the chunks of bytes it is made of, to be written one after the
    other: the hash-table payload is a block of its own, written out without a copy.

    With the MemProf flag set, the MemProf section holds ``profile.memprof``
    (LLVM's merge carries none from indexed inputs: then it is empty) in
    ``memprof_version`` (default: the release's).  With ``fill_in_two`` a
    large hash-table payload is filled half here, half by it.
    """
    lay = layout(release.indexed_version if version is None else version)
    kind = ProfileKind(profile.kind & written_flags(release))
    table = record_table(profile)
    plan = _plan(table, lay, release, sparse, profile.recordless_names)
    out = ByteWriter()
    header_at = len(out)
    out.zeros(lay.header_size)
    summary_at = len(out)
    if lay.has_summary:
        out.zeros(SUMMARY_SIZE * (2 if kind & ProfileKind.CS else 1))
    written = plan.records
    summaries: list[list[int]] = []  # summed up while the payload is filled

    def sum_up() -> None:
        if lay.has_summary:
            legacy = not release.summary_skips_pseudo_records
            summaries.extend(_summaries(table, written, bool(kind & ProfileKind.CS), legacy))

    offsets = {"hash_offset": _write_payload(out, table, plan, lay, release, fill_in_two, sum_up)}
    if kind & ProfileKind.MEMPROF and lay.has_memprof:
        from profdata.formats.memprof_write import write_memprof_section  # MemProf's own model

        offsets["memprof_offset"] = len(out)
        write_memprof_section(out, profile.memprof, release, memprof_version, memprof_full_schema)
    if lay.has_binary_ids:
        offsets["binary_id_offset"] = len(out)
        _write_binary_ids(out, profile.binary_ids)
    if lay.has_vtable_names:
        offsets["vtable_names_offset"] = len(out)
        _write_vtable_names(out, profile.vtable_names, release)
    if lay.has_temporal_traces and kind & ProfileKind.TEMPORAL:
        offsets["temporal_prof_traces_offset"] = len(out)
        _write_traces(out, profile)
    out.patch_words(header_at, _header_words(lay, kind, table, written, offsets))
    for index, words in enumerate(summaries):
        out.patch_words(summary_at + index * SUMMARY_SIZE, words)
    return out.chunks()


def _write_payload(
    out: ByteWriter,
    table: RecordTable,
    plan: _Plan,
    lay: IndexedLayout,
    release: Release,
    fill_in_two: FillInTwo | None,
    meanwhile: Callable[[], None],
) -> int:
    """The on-disk hash table of the records; its offset.  ``meanwhile`` runs here while
    another process fills its part, if one does.

    Every item's size is known before its bytes (:func:`_record_lengths`),
    so the payload is laid out first and its items filled in any number of
    ranges: in two processes when the caller allows it and the table is large.
    """
    count = len(plan.items)
    data_lengths = _record_lengths(table, plan.records, plan.item_records, lay, release)
    key_lengths = plan.names.lengths[plan.items]
    sixteens = np.full(count, 16, dtype=np.int64)
    payload = _onhash_write.lay_out(plan.order, [sixteens, key_lengths, data_lengths])
    rec_end = np.cumsum(plan.item_records)

    def fill(dest: Bytes, lo: int, hi: int) -> None:
        first, last = (int(rec_end[lo - 1]) if lo else 0), (int(rec_end[hi - 1]) if hi else 0)
        lengths = data_lengths[lo:hi]
        items = plan.items[lo:hi]
        pieces = [(_item_lengths(plan.names.lengths[items], lengths), sixteens[lo:hi])]
        keys_at = payload.put(dest, plan.item_hashes[lo:hi], pieces, lo, hi)
        data_at = plan.names.put(dest, keys_at, items)  # before the data: see _Names.put
        records = plan.records[first:last]
        _put_record_data(
            dest, data_at, lengths, table, records, plan.item_records[lo:hi], lay, release
        )

    payload_at = len(out)
    if fill_in_two is None or count < _SPLIT_ITEMS:
        # fresh zero pages, touched once by the filling (np.zeros maps them untouched)
        dest = np.zeros(payload.size, dtype=np.uint8)
        fill(dest, 0, count)
        meanwhile()
    else:
        dest = fill_in_two.zeros(payload.size)
        cut = payload.cut(_OWN_SHARE)

        def here(into: Bytes) -> None:
            fill(into, 0, cut)
            meanwhile()

        at = int(payload.item_at[cut]) if cut < count else payload.size
        fill_in_two(dest, at, here, lambda into: fill(into, cut, count))
    out.attach(dest.data)
    return _onhash_write.write_table(out, payload, payload_at)


# -- orders -------------------------------------------------------------------
@dataclass
class _Plan:
    """Which records are written, in which order, under which hash-table items."""

    names: _Names  # every name's bytes
    items: Ints  # names in emission order
    order: _onhash_write.BucketOrder
    item_hashes: U64s  # MD5 of each emitted item's name
    item_records: Ints  # records per emitted item
    records: Ints  # table rows in written order


@dataclass
class _Names:
    """Names as bytes, and when they fit in ``_MAX_SORT_BYTES`` also as one NUL-padded
    fixed-width array: sorting and gathering 100k names then touches no Python objects
    (each such touch costs a cache miss when the names are visited in hash order)."""

    encoded: list[bytes]
    lengths: Ints
    fixed: Bytes | None  # (names, width) bytes, width a multiple of 8

    @classmethod
    def of(cls, encoded: list[bytes], *, padded: bool = True) -> _Names:
        """``padded``: whether each name is followed by a word of its item's data, which
        the padding of its last word may overwrite (not so for an item of no data)."""
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        longest = int(lengths.max()) if len(lengths) else 0
        width = 8 * max(-(-longest // 8), 1)
        fixed = None
        if padded and width * len(encoded) <= _MAX_SORT_BYTES:
            fixed = np.array(encoded, dtype=f"S{width}").view(np.uint8).reshape(-1, width)
        return cls(encoded, lengths, fixed)

    def sorted(self, candidates: Ints) -> Ints:
        """``candidates`` ordered by their names' bytes.

        NUL-padded names compare as big-endian u64 columns, which lexsort
        orders about twice as fast as numpy sorts byte strings, as long as
        no name holds a NUL (the padding); otherwise Python sorts them.
        """
        if self.fixed is not None and np.count_nonzero(self.fixed) == int(self.lengths.sum()):
            words = self.fixed[candidates].view(">u8")
            return candidates[np.lexsort(words.T[::-1])]
        keys = [self.encoded[i] for i in candidates.tolist()]
        return candidates[sorted(range(len(keys)), key=keys.__getitem__)]

    def put(self, dest: Bytes, at: Ints, items: Ints) -> Ints:
        """The names of ``items`` into ``dest`` from bytes ``at`` on; where each one ends.

        NUL-padded names go as whole words of their rows, so a name's last word
        may write up to 7 zero bytes past its end: into its own item's data,
        which is at least a word (the function hash) and must be put after.
        """
        lengths = self.lengths[items]
        if self.fixed is not None:
            width = self.fixed.shape[1] // 8
            words = self.fixed.view("<u8").reshape(-1)
            _onhash_write.put_words(dest, at, words, (lengths + 7) >> 3, items * width)
        else:
            joined = b"".join([self.encoded[i] for i in items.tolist()])
            _onhash_write.put_bytes(dest, at, np.frombuffer(joined, dtype=np.uint8), lengths)
        ends: Ints = at + lengths
        return ends


def _plan(
    table: RecordTable,
    lay: IndexedLayout,
    release: Release,
    sparse: bool,
    recordless: Sequence[tuple[int, str]] = (),
) -> _Plan:
    """``recordless``: names with no record and their places among all names (see
    :attr:`~profdata.model.instr.InstrProfile.recordless_names`), items of no data."""
    names = table.columns.names
    hashes = table.columns.hashes
    if table.names_distinct and not recordless:  # one record per name, the usual case
        groups = names
        gid = np.arange(len(names), dtype=np.int64)
    else:
        groups = list(dict.fromkeys(names))
        for place, name in recordless:  # in place order, so each lands where it was
            groups.insert(place, name)
        group_of = {name: index for index, name in enumerate(groups)}
        gid = np.fromiter(map(group_of.__getitem__, names), dtype=np.int64, count=len(names))
    sizes = np.bincount(gid, minlength=len(groups))
    by_group = np.argsort(gid, kind="stable")  # records of each name, first seen first
    group_start = np.cumsum(sizes) - sizes
    _check_unique(names, hashes, gid, by_group, sizes, lay)
    keep = None
    if sparse:
        keep = np.bincount(gid, weights=table.has_data(), minlength=len(groups)) > 0
    encoded = _Names.of(names_bytes(groups), padded=not recordless)
    insertion = _insertion_order(encoded, keep, release)
    if table.name_hashes is not None and not recordless:
        name_hash = table.name_hashes[by_group[group_start]]
    else:
        name_hash = md5_array(encoded.encoded)
    order = _onhash_write.bucket_order(name_hash[insertion])
    items = insertion[order.items]
    item_records = sizes[items]
    written = by_group[spans(group_start[items], item_records)]
    if len(items) and int(item_records.max()) > 1:
        written = _densemap_ordered(written, item_records, hashes, release)
    return _Plan(encoded, items, order, name_hash[items], item_records, written)


def _check_unique(
    names: list[str], hashes: U64s, gid: Ints, by_group: Ints, sizes: Ints, lay: IndexedLayout
) -> None:
    """One record per (name, FuncHash), and one per name before indexed version 2."""
    if not len(names) or int(sizes.max()) == 1:
        return
    order = np.lexsort((np.arange(len(gid)), hashes, gid))
    same = (gid[order][1:] == gid[order][:-1]) & (hashes[order][1:] == hashes[order][:-1])
    if same.any():
        index = int(order[1:][same].min())
        raise ValueError(
            f"{names[index]!r} has two records with hash {int(hashes[index]):#x}; "
            "merge them before writing"
        )
    if not lay.multiple_records_per_name:
        second = by_group[(np.cumsum(sizes) - sizes + 1)[sizes > 1]]
        index = int(second.min())
        raise ValueError(
            f"{names[index]!r} has several records; "
            f"indexed version {lay.version} holds one per name"
        )


def _insertion_order(names: _Names, keep: npt.NDArray[np.bool_] | None, release: Release) -> Ints:
    """Names (indexes into ``names``) in the order LLVM inserts them into the generator."""
    if release.sorted_name_insertion:
        candidates = np.arange(len(names.encoded)) if keep is None else np.flatnonzero(keep)
        return names.sorted(candidates)
    order = stringmap_order(names.encoded, xxh3=release.stringmap_xxh3_hash)
    if keep is not None:
        order = [g for g in order if keep[g]]
    return np.array(order, dtype=np.int64)


def _densemap_ordered(written: Ints, item_records: Ints, hashes: U64s, release: Release) -> Ints:
    """The records of each name in ``SmallDenseMap`` order (names with one record stay)."""
    written = written.copy()
    starts = np.cumsum(item_records) - item_records
    for start, size in zip(starts.tolist(), item_records.tolist(), strict=True):
        if size > 1:
            members = written[start : start + size]
            slots = small_densemap_order(hashes[members].tolist(), mix=release.densemap_mix_hash)
            written[start : start + size] = members[slots]
    return written


# -- records ------------------------------------------------------------------
def _item_lengths(key_lengths: Ints, data_lengths: Ints) -> Bytes:
    """Each item's ``KeyLen, DataLen`` words (``InstrProfRecordWriterTrait::EmitKeyDataLength``)."""
    words = np.empty((len(key_lengths), 2), dtype="<u8")
    words[:, 0] = key_lengths
    words[:, 1] = data_lengths
    return words.reshape(-1).view(np.uint8)


def _put_record_data(
    dest: Bytes,
    data_at: Ints,
    planned: Ints,
    table: RecordTable,
    recs: Ints,
    item_records: Ints,
    lay: IndexedLayout,
    release: Release,
) -> None:
    """Every written record's data (§6.1) into ``dest``, item ``i``'s records one after the
    other from byte ``data_at[i]`` on; ``planned`` is each item's byte length as laid out.

    Each record is hash and counter count, counters, bitmap length and bytes,
    then its ``ValueProfData``: all whole u64 words, so each part goes straight
    from its source to its place (:func:`~profdata.formats._onhash_write.put_words`),
    the counters from the table's own array, with no stream of all the words
    assembled in between.
    """
    cols = table.columns
    count = len(recs)
    lengths = cols.lengths[recs]
    ones = np.ones(count, dtype=np.int64)
    # (source words, each record's first word in it or None: back to back, words per record)
    parts: list[tuple[U64s, Ints | None, Ints]] = []
    head = [cols.hashes[recs]]
    if lay.has_num_counts:
        head.append(lengths.astype(np.uint64))
    parts.append((np.stack(head, axis=1).reshape(-1), None, np.full(count, len(head))))
    parts.append((cols.counts, cols.starts[recs], lengths))
    if lay.has_bitmap:
        blens = table.bitmap_lengths[recs]
        parts.append((blens.astype(np.uint64), None, ones))
        bitmap = gather(table.bitmaps, table.bitmap_starts[recs], blens)
        parts.append((bitmap.astype(np.uint64), None, blens))
    rows: list[tuple[U64s, Ints]] = []
    row_of: Ints = np.zeros(0, dtype=np.int64)
    if lay.has_value_data:
        blob_head, rows, row_of = _value_prof_data(table.values, recs, release.max_value_kind)
        parts.append((blob_head, None, ones))
    record_words = np.zeros(count, dtype=np.int64)
    for _, _, sizes in parts:
        record_words += sizes
    row_words = np.zeros(len(row_of), dtype=np.int64)
    for _, sizes in rows:
        row_words += sizes
    if len(row_of):
        record_words += np.bincount(row_of, weights=row_words, minlength=count).astype(np.int64)
    if not np.array_equal(_item_bytes(record_words, item_records), planned):
        raise AssertionError("record data and their planned lengths differ")
    item_of = np.repeat(np.arange(len(item_records)), item_records)
    at = data_at[item_of] + 8 * _words_into_group(record_words, item_records)
    rows_at = _put_in_turn(dest, at, parts)  # where each record's rows start
    if len(row_of):
        row_in_record = _words_into_group(row_words, np.bincount(row_of, minlength=count))
        _put_in_turn(dest, rows_at[row_of] + 8 * row_in_record, [(src, None, n) for src, n in rows])


def _words_into_group(words: Ints, sizes: Ints) -> Ints:
    """Each element's offset in words from the start of its group, the elements being
    ``words`` long and the groups ``sizes`` consecutive elements (records of an item, rows
    of a record)."""
    word_at = np.cumsum(words) - words
    sizes = sizes[sizes > 0]
    offsets: Ints = word_at - np.repeat(word_at[np.cumsum(sizes) - sizes], sizes)
    return offsets


def _put_in_turn(dest: Bytes, at: Ints, parts: list[tuple[U64s, Ints | None, Ints]]) -> Ints:
    """Run ``i`` of each part (source words, first words or None, words per run) after run
    ``i`` of the part before it, the first at byte ``at[i]``; where each last run ends."""
    phases = _onhash_write.Phases.of(at)  # the same for every part: they are words apart
    at = at.copy()
    for source, firsts, sizes in parts:
        _onhash_write.put_words(dest, at, source, sizes, firsts, phases)
        at += 8 * sizes
    return at


def _record_lengths(
    table: RecordTable, recs: Ints, item_records: Ints, lay: IndexedLayout, release: Release
) -> Ints:
    """Each item's data bytes as :func:`_put_record_data` writes them, without writing them
    (the writer checks its own count of them against these)."""
    words = table.columns.lengths[recs] + (2 if lay.has_num_counts else 1)
    if lay.has_bitmap:
        words += 1 + table.bitmap_lengths[recs]
    if lay.has_value_data:
        vals = table.values
        rows, row_of = _value_rows(vals, recs, release.max_value_kind)
        _, num_values = vals.value_starts()
        row_words = 1 + _count_words(vals.row_sites[rows]) + 2 * num_values[rows]
        words += 1 + np.bincount(row_of, weights=row_words, minlength=len(recs)).astype(np.int64)
    return _item_bytes(words, item_records)


def _item_bytes(record_words: Ints, item_records: Ints) -> Ints:
    """Each item's data bytes from its records' words (``item_records`` records an item)."""
    item_of = np.repeat(np.arange(len(item_records)), item_records)
    item_words = np.bincount(item_of, weights=record_words, minlength=len(item_records))
    return 8 * item_words.astype(np.int64)


def _value_rows(vals: ValueColumns, recs: Ints, max_kind: int) -> tuple[Ints, Ints]:
    """The value rows written for ``recs``, in written order, and the position in ``recs``
    of each row's record."""
    position = np.full(int(vals.row_record.max()) + 1 if len(vals.row_record) else 0, -1)
    known = recs < len(position)
    position[recs[known]] = np.flatnonzero(known)
    row_pos = position[vals.row_record]
    live = (row_pos >= 0) & (vals.row_kind <= max_kind)
    rows = np.flatnonzero(live)
    rows = rows[np.argsort(row_pos[rows], kind="stable")]
    return rows, row_pos[rows]


def _count_words(num_sites: Ints) -> Ints:
    """Words after a row's kind header for its site counts (a byte each) and padding."""
    return (8 + num_sites + 7) // 8 - 1


def _value_prof_data(
    vals: ValueColumns, recs: Ints, max_kind: int
) -> tuple[U64s, list[tuple[U64s, Ints]], Ints]:
    """``ValueProfData::serializeFrom`` of every written record, in little endian.

    Returns each record's header word (TotalSize, NumValueKinds), the three
    per-row streams (kind header, site counts padded to 8, value pairs) and
    the written record of each row.  Kinds above the release's ``IPVK_Last``
    are not written: LLVM's loop over kinds stops there, so 14 and 16
    silently lose vtable value data.
    """
    count = len(recs)
    rows, row_of = _value_rows(vals, recs, max_kind)
    num_sites = vals.row_sites[rows]
    first_value, num_values = vals.value_starts()
    site_at = spans(vals.site_starts()[rows], num_sites)
    site_lengths = vals.site_lengths[site_at]
    if len(site_lengths) and int(site_lengths.max()) > MAX_VALUES_PER_SITE:
        raise ValueError(
            f"a value site holds {int(site_lengths.max())} values "
            f"(at most {MAX_VALUES_PER_SITE} can be written)"
        )
    count_words = _count_words(num_sites)
    site_bytes = np.zeros(8 * int(count_words.sum()), dtype=np.uint8)
    byte_start = 8 * (np.cumsum(count_words) - count_words)
    site_bytes[spans(byte_start, num_sites)] = site_lengths
    value_at = spans(first_value[rows], num_values[rows])
    pairs = np.empty(2 * len(value_at), dtype=np.uint64)
    pairs[0::2] = vals.values[value_at]
    pairs[1::2] = vals.counts[value_at]
    kind_head = vals.row_kind[rows].astype(np.uint64)
    kind_head |= num_sites.astype(np.uint64) << np.uint64(32)
    row_bytes = 8 + 8 * count_words + 16 * num_values[rows]
    total = 8 + np.bincount(row_of, weights=row_bytes, minlength=count).astype(np.uint64)
    kinds = np.bincount(row_of, minlength=count).astype(np.uint64)
    blob_head = total | (kinds << np.uint64(32))
    per_row = [
        (kind_head, np.ones(len(rows), dtype=np.int64)),
        (site_bytes.view("<u8").astype(np.uint64), count_words),
        (pairs, 2 * num_values[rows]),
    ]
    return blob_head, per_row, row_of


# -- header and summary -----------------------------------------------------------
def encode_summary(summary: ProfileSummary) -> list[int]:
    """The summary block words (§4): field and entry counts, 6 fields, cutoff triples."""
    words = [
        len(SUMMARY_FIELDS),
        len(summary.detailed),
        summary.num_functions,
        summary.num_counts,
        summary.max_function_count,
        summary.max_count,
        summary.max_internal_count,
        summary.total_count,
    ]
    for entry in summary.detailed:
        words.extend((entry.cutoff, entry.min_count, entry.num_counts))
    return words


def summarize_table(
    table: RecordTable, rows: Ints, *, legacy_invalid_counts: bool = False
) -> ProfileSummary:
    """:func:`~profdata.model.summary.summarize_records` of the table's ``rows``, vectorized.

    Since LLVM 16 records with a pseudo entry count are skipped.  LLVM 14 and 15 have
    no pseudo counts: every record counts as a function but counters equal to
    2**64-1 ("invalid") stay out of the counts.
    """
    cols = table.columns
    starts, lengths = cols.starts[rows], cols.lengths[rows]
    live = lengths > 0
    starts, lengths = starts[live], lengths[live]
    entry = cols.counts[starts]
    if not legacy_invalid_counts:
        real = entry < np.uint64(PSEUDO_WARM)
        starts, lengths, entry = starts[real], lengths[real], entry[real]
    num_functions = len(entry)
    internal = gather(cols.counts, starts + 1, lengths - 1)
    if legacy_invalid_counts:
        entry = entry[entry != np.uint64(U64)]
        internal = internal[internal != np.uint64(U64)]
    summary = summarize_counts(entry, internal, DEFAULT_CUTOFFS)
    if num_functions != summary.num_functions:
        summary = replace(summary, num_functions=num_functions & 0xFFFFFFFF)
    return summary


def _summaries(table: RecordTable, written: Ints, cs: bool, legacy: bool) -> list[list[int]]:
    """The summary blocks' words from the written records; CS records (bit 60) only feed
    the second, written only with ``cs``."""
    is_cs = (table.columns.hashes[written] & np.uint64(CS_HASH_BIT)) != 0
    normal = summarize_table(table, written[~is_cs], legacy_invalid_counts=legacy)
    if not cs:
        return [encode_summary(normal)]
    context = summarize_table(table, written[is_cs], legacy_invalid_counts=legacy)
    return [encode_summary(normal), encode_summary(context)]


def _header_words(
    lay: IndexedLayout,
    kind: ProfileKind,
    table: RecordTable,
    written: Ints,
    offsets: dict[str, int],
) -> list[int]:
    values = dict(offsets)
    values["magic"] = MAGIC
    values["version"] = kind.version_word(lay.version)
    values["hash_type"] = HASH_TYPE_MD5
    if lay.max_function_count_in_header:
        cols = table.columns
        live = written[cols.lengths[written] > 0]
        values["unused"] = int(cols.counts[cols.starts[live]].max()) if len(live) else 0
    return [values.get(name, 0) for name in lay.header_fields]


# -- trailing sections ----------------------------------------------------------
def _write_binary_ids(out: ByteWriter, binary_ids: Iterable[bytes]) -> None:
    """§8: sorted, deduplicated, each ``u64 length`` + bytes + padding to 8."""
    ids = sorted(set(binary_ids))
    out.u64(sum(8 + len(bid) + pad8(len(bid)) for bid in ids))
    for bid in ids:
        out.u64(len(bid))
        out.bytes(bid)
        out.zeros(pad8(len(bid)))


def _write_vtable_names(out: ByteWriter, vtable_names: Sequence[str], release: Release) -> None:
    """§10: one zlib name chunk in the ``StringSet``'s iteration order."""
    ordered = stringmap_ordered(vtable_names, xxh3=release.stringmap_xxh3_hash)
    chunk = ByteWriter()
    if ordered:
        write_name_chunk(chunk, ordered)
    out.u64(len(chunk))
    out.bytes(chunk.buf)
    out.zeros(pad8(len(chunk)))


def _write_traces(out: ByteWriter, profile: InstrProfile) -> None:
    """§9: trace count, stream size, then weight, length and name hashes per trace."""
    out.u64(len(profile.traces))
    out.u64(profile.trace_stream_size)
    for trace in profile.traces:
        out.u64(trace.weight)
        out.u64(len(trace.function_hashes))
        out.bytes(np.asarray(trace.function_hashes, dtype=np.uint64).astype("<u8").tobytes())


__all__ = [
    "MAX_VALUES_PER_SITE",
    "SUMMARY_SIZE",
    "WRITTEN_FLAGS",
    "encode_indexed",
    "encode_summary",
    "summarize_table",
    "write_indexed",
    "written_flags",
]
