"""Raw profiles of one binary read as columns: the reader of the fast merge (raw v8, v9, v10).

Every run of one instrumented program writes the same raw profile but for
the counters, the MC/DC bitmap bytes, the value-profile data and a few
addresses that ASLR moves (``FunctionPointer``, ``Values``, ``NamesDelta``;
``instr-raw.md`` §4, §5).  :func:`shape_of` takes the first such profile --
already checked by :func:`profdata.formats.raw.read` -- apart once into a
:class:`RawShape`: record names and hashes, where each record's counters and
bitmap bytes are, the kinds and site counts of every value-profile blob, the
indirect-call address map (:mod:`profdata.formats.raw_call_targets`).
:func:`read_run` reads another profile of the
same binary with a handful of whole-array comparisons and gathers and returns
a :class:`RawRun`, its counters and profiled values in the shape's order.

The comparisons are what make this safe: the header words, the data section
(addresses masked), the names and binary ids are those of the shape, every
value blob has the shape's kinds and site counts and exactly the size they
imply, and nothing but zeros follows the last blob.  ``raw.read`` would then
accept the file and return the shape's records with these counts and values,
so anything unexpected makes :func:`read_run` return None and the caller
reads the file in full -- which also yields the located error of a bad file.

Profiled values are given as small integer ids (:meth:`RawShape.values_of`
maps them back): a memop size is its own id, an indirect-call target the
index of its NameRef among the NameRefs the address map can produce, so ids
order like the values they stand for.  Unsupported here, and left to the
record-by-record reader: raw versions 5 and 7, vtable value profiling,
value data not 8-byte aligned, several profiles in one file.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from profdata.formats._binary import ByteReader
from profdata.formats.raw_call_targets import CallTargets, call_targets
from profdata.formats.raw_layout import (
    UNSET_TIMESTAMPS,
    RawHeader,
    RawLayout,
    detect_magic,
    raw_layout,
    sections,
    wrapped,
)
from profdata.formats.raw_records import signed_offsets
from profdata.formats.raw_values import blob_candidates, chain_starts, scan_blobs
from profdata.formats.version_word import VERSION_MASK
from profdata.model.instr import InstrProfile, spans, take
from profdata.model.kinds import ProfileKind, ValueKind

Ints = npt.NDArray[np.int64]
U64s = npt.NDArray[np.uint64]
Bytes = npt.NDArray[np.uint8]

_MIN_VERSION = 8  # relative CounterPtr; v5 and v7 (absolute or ambiguous) go the long way
#: a merge key is ``site << id_bits | value id`` with RANK_BITS to spare for an entry's rank
#: in its site (a raw site holds at most 255 values), all in a non-negative int64
RANK_BITS = 8
_KEY_BITS = 63
_INDIRECT = int(ValueKind.INDIRECT_CALL_TARGET)
_MEMOP = int(ValueKind.MEMOP_SIZE)
#: the shape's ASLR-dependent header words
_MOVING_WORDS = ("names_delta",)
_FULL = 0xFFFFFFFFFFFFFFFF


@dataclass(frozen=True, eq=False)
class _Rank:
    """The k-th kind records of all blobs, with the index arrays reading them needs."""

    rows: Ints
    header: U64s  # each row's first word as the file holds it: Kind, NumValueSites
    head: Ints
    site_row: Ints  # for each of their sites: which of ``rows``
    site_offset: Ints  # the site's count byte, from its row's start
    sites: Ints  # the global index of each of their sites
    row_first: Ints  # where each row's sites begin among ``site_row`` (each has some)

    @classmethod
    def of(cls, rows: Ints, kinds: Ints, num_sites: Ints, first_site: Ints, order: str) -> _Rank:
        ns = num_sites[rows]
        firsts = np.cumsum(ns) - ns
        site_row = np.repeat(np.arange(len(rows)), ns)
        within = np.arange(len(site_row)) - np.repeat(firsts, ns)
        return cls(
            rows,
            pair_words(kinds[rows], ns, order),
            8 + ns + (-(8 + ns) % 8),
            site_row,
            8 + within,
            first_site[rows][site_row] + within,
            firsts,
        )


def pair_words(first: Ints, second: Ints, order: str) -> U64s:
    """The 8-byte words holding two u32 fields (``first`` at the lower address) in a file of
    byte ``order``, as its words read with that order hold them."""
    low, high = (first, second) if order == "<" else (second, first)
    word: U64s = (high.astype(np.uint64) << np.uint64(32)) | low.astype(np.uint64)
    return word


@dataclass(frozen=True, eq=False)
class ValueShape:
    """The value-profile blobs of one binary: who owns one, and their (kind, sites) rows."""

    blob_records: Ints  # data record owning each blob
    blob_kinds: U64s  # NumValueKinds of each blob, placed as its first word holds it
    blob_last_row: Ints  # last row of each blob (-1: none)
    size_shift: int  # where TotalSize sits in a blob's first word (0 or 32 bits up)
    all_rows: bool  # every blob holds a kind record (the first ones are then rank 0's rows)
    row_blob: Ints  # rows in file order: blob by blob, kind records in order
    row_kind: Ints
    row_sites: Ints
    row_head: Ints  # Kind, NumValueSites, the site counts and their padding
    row_first_site: Ints
    by_ordinal: tuple[_Rank, ...]  # the rows that are the k-th kind record of their blob
    site_kind: Ints  # per site, all rows' sites in order
    site_record: Ints
    #: rows, and sites, with those of indirect calls first (else in order): a run's
    #: values are read kind by kind (:attr:`RawRun.calls`)
    row_order: Ints
    call_rows: int
    site_order: Ints


@dataclass(frozen=True, eq=False)
class RawShape:
    """What every raw profile of one binary shares (see the module docstring)."""

    layout: RawLayout
    header: RawHeader
    header_words: U64s
    compared_words: Ints  # header words that must be equal
    kind: ProfileKind
    version: int
    #: the record names, made on first use (:attr:`names`): mapping 100k NameRefs to
    #: names hashes every name (0.14 s), which a merge's worker process never needs
    name_source: Callable[[], list[str]]
    name_refs: U64s
    hashes: U64s
    lengths: Ints  # counters per record (timestamps excluded)
    bitmap_lengths: Ints
    binary_ids: list[bytes]
    regions: dict[str, tuple[int, int]]  # name -> (start, size)
    data_words: U64s  # data section as (records, D/8) words, compared where the mask says
    word_masks: tuple[tuple[int, int, int], ...]  # (first, last + 1, mask) column runs
    same_bytes: dict[str, Bytes]  # regions that must be byte-identical
    counter_width: int
    counter_index: Ints | slice
    bitmap_index: Ints | slice
    stamp_offsets: Ints | None  # byte offset of each record's timestamp (temporal profiles)
    value_start: int
    values: ValueShape
    targets: CallTargets
    id_bits: int  # a value id takes this many bits of a key (see merge_fast)

    @cached_property
    def names(self) -> list[str]:
        """Per data record, as the reader names them ("" where the section has none)."""
        return self.name_source()

    @property
    def quick_refs(self) -> U64s:
        """The NameRefs: the MD5 of each record's name (checked when the names are made)."""
        return self.name_refs

    @property
    def num_sites(self) -> int:
        return len(self.values.site_kind)

    @property
    def pointer_mask(self) -> int:
        return self.layout.pointer_mask

    def values_of(self, ids: Ints, sites: Ints) -> U64s:
        """The profiled values behind ``ids`` at ``sites`` (NameRefs, memop sizes)."""
        return values_of_ids(ids, self.values.site_kind[sites], self.targets.values)


def value_id_bits(num_sites: int) -> int:
    """Bits left for a value id in a merge key of a shape with ``num_sites`` sites."""
    return _KEY_BITS - RANK_BITS - max(num_sites.bit_length(), 1)


def values_of_ids(ids: Ints, kinds: Ints, vocabulary: U64s) -> U64s:
    """Values behind ids: an indirect-call target's id indexes ``vocabulary`` (sorted
    name hashes), any other value (a memop size) is its own id."""
    calls = kinds == _INDIRECT
    out = ids.astype(np.uint64)
    out[calls] = vocabulary[ids[calls]]
    return out


def value_ids(
    values: npt.NDArray[np.integer],
    calls: npt.NDArray[np.bool_],
    call_ids: Ints | None,
    id_bits: int,
) -> Ints | None:
    """Each profiled value's id in a shape: ``call_ids`` for the indirect-call targets
    (``calls``), its own value for a memop size; None where a target has no id (``call_ids``
    None, or an id below 0) or a size does not fit in ``id_bits``."""
    if call_ids is None or (len(call_ids) and int(call_ids.min()) < 0):
        return None
    sizes = values[~calls]
    if len(sizes) and int(sizes.max()) >> id_bits:
        return None
    ids = np.empty(len(values), dtype=np.int64)
    ids[calls] = call_ids
    ids[~calls] = sizes.astype(np.int64)
    return ids


@dataclass(eq=False)
class RawRun:
    """One run's data in the shape's order."""

    counts: U64s  # every record's counters, concatenated (may be a view of the file)
    bitmaps: Bytes  # every record's bitmap bytes, concatenated
    entry_site: Ints  # the site of each profiled value, sites in ``site_order``
    entry_id: Ints
    entry_count: U64s
    site_lengths: Ints  # values per site
    trace: tuple[int, ...]  # NameRefs in timestamp order (temporal profiles)
    #: the order of the sites' entries: each site's in file order, the sites in this
    #: order (None: site by site)
    site_order: Ints | None = None
    #: the first ``calls`` entries are those of indirect-call sites, the rest memop sizes
    #: (None: the entries are not put apart by kind)
    calls: int | None = None
    #: the profile an indexed or text run was read from, which carries what the arrays do
    #: not (traces, binary ids, vtable names); None for a raw run
    profile: InstrProfile | None = None


# -- the shape ------------------------------------------------------------------------
def _index(starts: Ints, lengths: Ints) -> Ints | slice:
    """A slice when the runs follow each other, else the index of every element."""
    if not len(starts):
        return slice(0, 0)
    if bool(np.all(starts[1:] == starts[:-1] + lengths[:-1])):
        return slice(int(starts[0]), int(starts[0] + lengths.sum()))
    return spans(starts, lengths)


def _word_masks(lay: RawLayout) -> tuple[tuple[int, int, int], ...]:
    """Runs of data-record words to compare, with the bits that matter in each.

    Everything but ``FunctionPointer`` and ``Values`` (addresses), padding
    included: the compiler writes it as zeros, and it keeps the words whole.
    """
    keep = np.full(lay.data_size, 0xFF, dtype=np.uint8)
    for name in ("function_pointer", "values"):
        offset = lay.data_offset(name)
        keep[offset : offset + lay.width] = 0
    masks = keep.view("<u8").tolist()
    runs: list[tuple[int, int, int]] = []
    for j, mask in enumerate(masks):
        if not mask:
            continue
        if runs and runs[-1][1] == j and runs[-1][2] == mask == _FULL:
            runs[-1] = (runs[-1][0], j + 1, mask)
        else:
            runs.append((j, j + 1, mask))
    return tuple(runs)


def _masked_equal(words: U64s, ref: U64s, runs: tuple[tuple[int, int, int], ...]) -> bool:
    """Whether the data words agree wherever ``runs`` says they must.

    With 8 words per record, one ``!=`` over the section and a look at the
    kept words' flags (eight flag bytes read as one word) is one pass.
    """
    if words.shape[1] == 8 and all(mask == _FULL for _, _, mask in runs):
        keep = np.zeros(8, dtype=np.uint8)
        for first, last, _ in runs:
            keep[first:last] = 1
        differs = np.not_equal(words, ref).view(np.uint64)
        return not bool(np.bitwise_and(differs, keep.view("<u8")[0]).any())
    for first, last, mask in runs:
        if mask == _FULL:
            if not np.array_equal(words[:, first:last], ref[:, first:last]):
                return False
        elif not np.array_equal(words[:, first] & np.uint64(mask), ref[:, first] & np.uint64(mask)):
            return False
    return True


def _value_shape(
    cur: ByteReader, data: npt.NDArray[np.void], value_start: int
) -> tuple[ValueShape, int] | None:
    """The blobs' rows, read from the (checked) shape profile, and where value data ends."""
    blob_records = np.flatnonzero((data["num_value_sites"] != 0).any(axis=1)).astype(np.int64)
    unpack = struct.Struct(f"{cur.order}I").unpack_from
    begin = chain_starts(cur, value_start, len(blob_records))
    if begin is None:
        starts: list[int] = []
        pos = value_start
        for _ in range(len(blob_records)):
            starts.append(pos)
            pos += unpack(cur.data, pos)[0]
        begin = np.array(starts, dtype=np.int64)
    else:
        pos = int(begin[-1]) + unpack(cur.data, int(begin[-1]))[0]
    found = scan_blobs(cur, begin)
    if len(found.bad):
        return None
    nblobs = len(begin)
    rows_per_blob = np.bincount(found.blob, minlength=nblobs)
    first_row = np.cumsum(rows_per_blob) - rows_per_blob
    ordinal = np.arange(len(found.blob)) - first_row[found.blob]
    row_end = found.values_at + 16 * found.num_values
    last_row = np.where(rows_per_blob > 0, first_row + rows_per_blob - 1, -1)
    ends = begin + 8  # a blob without kind records ends after its header
    with_rows = last_row >= 0
    ends[with_rows] = row_end[last_row[with_rows]]
    if not np.array_equal(ends - begin, np.diff(np.append(begin, pos))):
        return None  # slack inside a blob: rare enough to leave to the reader
    if value_start % 4 == 0:
        u32 = np.frombuffer(cur.data, dtype=f"{cur.order}u4", count=len(cur.data) // 4)
        kinds = u32[(begin + 4) // 4].astype(np.int64)
    else:
        kinds = np.array([unpack(cur.data, s + 4)[0] for s in begin.tolist()], dtype=np.int64)
    same_blob = found.blob[1:] == found.blob[:-1]
    if bool(np.any(same_blob & (found.kind[1:] <= found.kind[:-1]))):
        return None  # a kind twice in one blob: the reader merges those sites
    if bool(np.any((found.kind == int(ValueKind.VTABLE_TARGET)) & (found.num_sites > 0))):
        return None
    if bool(np.any(found.num_sites == 0)):
        return None  # a kind record without sites (LLVM writes none): left to the reader
    site_row = np.repeat(np.arange(len(found.blob)), found.num_sites)
    head = 8 + found.num_sites + (-(8 + found.num_sites) % 8)
    max_ordinal = int(ordinal.max()) + 1 if len(ordinal) else 0
    first_site = np.cumsum(found.num_sites) - found.num_sites
    shape = ValueShape(
        blob_records=blob_records,
        blob_kinds=pair_words(np.zeros_like(kinds), kinds, cur.order),
        blob_last_row=last_row,
        size_shift=0 if cur.order == "<" else 32,
        all_rows=bool(np.all(last_row >= 0)),
        row_blob=found.blob,
        row_kind=found.kind,
        row_sites=found.num_sites,
        row_head=head,
        row_first_site=first_site,
        by_ordinal=tuple(
            _Rank.of(
                np.flatnonzero(ordinal == k), found.kind, found.num_sites, first_site, cur.order
            )
            for k in range(max_ordinal)
        ),
        site_kind=found.kind[site_row],
        row_order=np.argsort(found.kind != _INDIRECT, kind="stable"),
        call_rows=int(np.count_nonzero(found.kind == _INDIRECT)),
        site_order=np.argsort(found.kind[site_row] != _INDIRECT, kind="stable"),
        site_record=blob_records[found.blob[site_row]],
    )
    return shape, pos


def shape_of(view: memoryview, profile: InstrProfile) -> tuple[RawShape, RawRun] | None:
    """The shape of a raw profile ``raw.read`` has accepted as ``profile``, and the profile
    read as a run of it (which checks the shape against the reader); None if unsupported,
    or if its binary ids, parsed only when asked (14, 16), do not read: the long way
    fails the input or not, as the release does."""
    magic = detect_magic(view[:8])
    if magic is None or len(view) < 16 or profile.binary_ids_error is not None:
        return None
    width, order = magic
    version_word = struct.unpack_from(f"{order}Q", view, 8)[0]
    version = version_word & VERSION_MASK
    if version < _MIN_VERSION:
        return None
    lay = raw_layout(version, width, order)
    num_words = len(lay.header_fields)
    header_words = np.frombuffer(view, dtype=f"{order}u8", count=num_words).astype(np.uint64)
    header = RawHeader.from_words(lay, tuple(header_words.tolist()))
    if header.num_vtables or header.vnames_size or wrapped(lay, header):
        return None  # (a header whose sizes wrap is read the long way, as the reader puts it)
    regions = {s.name: (s.start, s.size) for s in sections(lay, header, 0)}
    start, size = regions["vnames_padding"]
    value_start = start + size
    if value_start % 8 or value_start > len(view):
        return None
    moving = set(_MOVING_WORDS)
    if not header.num_bitmap_bytes:
        moving.add("bitmap_delta")  # garbage when the binary has no bitmap
    compared = np.array(
        [i for i, name in enumerate(lay.header_fields) if name not in moving], dtype=np.int64
    )
    cur = ByteReader(view, order=order)
    data_at = regions["data"][0]
    data = np.frombuffer(view, dtype=lay.data_dtype, count=header.num_data, offset=data_at)
    offsets = signed_offsets(data["counter_ptr"], header.counters_delta, lay.data_size, width)
    temporal = bool(profile.kind & ProfileKind.TEMPORAL)  # as the release reads the flags
    cwidth = header.counter_width
    skip = 8 // cwidth if temporal else 0
    num_counters = data["num_counters"].astype(np.int64)
    lengths = np.maximum(num_counters - skip, 0)
    if cwidth == 8 and bool(np.any(offsets % 8)):
        return None
    counter_index = _index(offsets // cwidth + skip, lengths)
    if lay.has_bitmap:
        nbytes = data["num_bitmap_bytes"].astype(np.int64)
        boffsets = signed_offsets(data["bitmap_ptr"], header.bitmap_delta, lay.data_size, width)
        bitmap_index = _index(np.where(nbytes > 0, boffsets, 0), nbytes)
    else:
        nbytes = np.zeros(len(data), dtype=np.int64)
        bitmap_index = slice(0, 0)
    found = _value_shape(cur, data, value_start)
    if found is None:
        return None
    values, end = found
    if bool(np.any(np.frombuffer(view, dtype=np.uint8, offset=end))):
        return None  # another profile follows
    targets = call_targets(data)
    id_bits = value_id_bits(len(values.site_kind))
    if len(targets.values).bit_length() > id_bits:
        return None
    columns = profile.columns()
    same_bytes = {
        name: np.frombuffer(view, dtype=np.uint8, count=regions[name][1], offset=regions[name][0])
        .copy()
        for name in ("binary_ids", "names")
    }  # fmt: skip
    shape = RawShape(
        layout=lay,
        header=header,
        header_words=header_words,
        compared_words=compared,
        kind=header.kind,
        version=version,
        name_source=columns.name_source(),
        name_refs=data["name_ref"].astype(np.uint64),
        hashes=data["func_hash"].astype(np.uint64),
        lengths=lengths,
        bitmap_lengths=nbytes,
        binary_ids=list(profile.binary_ids),
        regions=regions,
        data_words=np.frombuffer(view, dtype="<u8", count=len(data) * lay.data_size // 8,
                                 offset=data_at).reshape(len(data), -1).copy(),
        word_masks=_word_masks(lay),
        same_bytes=same_bytes,
        counter_width=cwidth,
        counter_index=counter_index,
        bitmap_index=bitmap_index,
        stamp_offsets=offsets if temporal else None,
        value_start=value_start,
        values=values,
        targets=targets,
        id_bits=id_bits,
    )  # fmt: skip
    run = read_run(view, shape)
    if (
        run is None
        or not np.array_equal(run.counts, columns.counts)
        or not np.array_equal(lengths, columns.lengths)
        or not np.array_equal(shape.hashes, columns.hashes)
    ):
        return None
    return shape, run


# -- one run ---------------------------------------------------------------------------
def read_run(view: memoryview, shape: RawShape) -> RawRun | None:
    """The counters and values of a profile with ``shape``; None if it has another shape."""
    if len(view) < shape.value_start:
        return None
    lay = shape.layout
    order = lay.order
    words = np.frombuffer(view, dtype=f"{order}u8", count=len(shape.header_words))
    compared = shape.compared_words
    if not np.array_equal(words[compared], shape.header_words[compared]):
        return None
    for name, expected in shape.same_bytes.items():
        start, size = shape.regions[name]
        if not np.array_equal(np.frombuffer(view, np.uint8, count=size, offset=start), expected):
            return None
    data_at = shape.regions["data"][0]
    data_words = np.frombuffer(
        view, dtype="<u8", count=shape.data_words.size, offset=data_at
    ).reshape(shape.data_words.shape)
    if not _masked_equal(data_words, shape.data_words, shape.word_masks):
        return None
    offset = _load_offset(view, shape)
    if offset is None:
        return None
    values = _read_values(view, shape, offset)
    if values is None:
        return None
    entry_site, entry_id, entry_count, site_lengths, calls = values
    counts = _counters(view, shape)
    bitmaps = _bitmaps(view, shape)
    return RawRun(
        counts, bitmaps, entry_site, entry_id, entry_count, site_lengths, _trace(view, shape),
        shape.values.site_order, calls,
    )  # fmt: skip


def _load_offset(view: memoryview, shape: RawShape) -> int | None:
    """How far this run's functions moved from the shape's: one offset for all, or None."""
    lay = shape.layout
    at = shape.regions["data"][0] + lay.data_offset("function_pointer")
    pointers = np.ndarray(
        (shape.header.num_data,),
        dtype=f"{lay.order}u{lay.width}",
        buffer=view,
        offset=at,
        strides=(lay.data_size,),
    ).astype(np.uint64, copy=False)
    targets = shape.targets
    if targets.first_known < 0:
        return 0 if not pointers.any() else None
    first = targets.first_known
    moved = (int(pointers[first]) - int(targets.pointers[first])) & lay.pointer_mask
    with np.errstate(over="ignore"):
        moves = pointers - targets.pointers  # each function's move (0 without an address)
    if lay.pointer_mask != _FULL:
        moves &= np.uint64(lay.pointer_mask)
    if targets.every_known:  # all moved by ``moved``: one subtraction and a look for non-zero
        moves -= np.uint64(moved)
        return None if moves.any() else moved
    return moved if np.array_equal(moves, targets.known * np.uint64(moved)) else None


def _counters(view: memoryview, shape: RawShape) -> U64s:
    start, size = shape.regions["counters"]
    counts: U64s
    if shape.counter_width == 1:
        executed = np.frombuffer(view, dtype=np.uint8, count=size, offset=start) == 0
        counts = executed[shape.counter_index].astype(np.uint64)
    else:
        words = np.frombuffer(view, dtype=f"{shape.layout.order}u8", count=size // 8, offset=start)
        counts = words[shape.counter_index].astype(np.uint64, copy=False)
    return counts


def _bitmaps(view: memoryview, shape: RawShape) -> Bytes:
    start, size = shape.regions["bitmap"]
    return np.frombuffer(view, dtype=np.uint8, count=size, offset=start)[shape.bitmap_index]


def _trace(view: memoryview, shape: RawShape) -> tuple[int, ...]:
    """``getTemporalProfTraces``: the called functions' NameRefs by timestamp (then NameRef)."""
    if shape.stamp_offsets is None or not len(shape.stamp_offsets):
        return ()
    start, size = shape.regions["counters"]
    raw = np.frombuffer(view, dtype=np.uint8, count=size, offset=start)
    gathered = raw[shape.stamp_offsets[:, None] + np.arange(8)]
    stamps = np.ascontiguousarray(gathered).view(f"{shape.layout.order}u8")[:, 0]
    stamps = stamps.astype(np.uint64)
    called = (stamps != np.uint64(UNSET_TIMESTAMPS[0])) & (stamps != np.uint64(UNSET_TIMESTAMPS[1]))
    refs = shape.name_refs[called]
    order = np.lexsort((refs, stamps[called]))
    return tuple(refs[order].tolist())


def _blob_starts(view: memoryview, shape: RawShape, words: U64s) -> Ints | None:
    """Where each value blob starts, found without walking the chain: the candidates of
    :func:`~profdata.formats.raw_values.blob_candidates`, which :func:`_check_blobs`
    checks chain exactly; if there are more or fewer than blobs, the chain is walked."""
    found, _ = blob_candidates(words, shape.layout.order)
    if len(found) == len(shape.values.blob_records):
        starts: Ints = found * 8 + shape.value_start
        return starts
    return _walk_blobs(view, shape)


def _walk_blobs(view: memoryview, shape: RawShape) -> Ints | None:
    unpack = struct.Struct(f"{shape.layout.order}I").unpack_from
    starts = np.zeros(len(shape.values.blob_records), dtype=np.int64)
    pos, end = shape.value_start, len(view)
    for index in range(len(starts)):
        if end - pos < 8:
            return None
        total = unpack(view, pos)[0]
        if total < 8 or total % 8 or total > end - pos:
            return None
        starts[index] = pos
        pos += total
    return starts


def _read_values(
    view: memoryview, shape: RawShape, load_offset: int
) -> tuple[Ints, Ints, U64s, Ints, int] | None:
    """Every profiled value: its site, value id and count (in the order of
    :attr:`RawRun.site_order`); values per site; how many are indirect-call targets."""
    vshape = shape.values
    value_start = shape.value_start
    end = len(view)
    words = np.frombuffer(
        view, dtype=f"{shape.layout.order}u8", offset=value_start, count=(end - value_start) // 8
    )
    nblobs = len(vshape.blob_records)
    starts = _blob_starts(view, shape, words) if nblobs else np.zeros(0, dtype=np.int64)
    if starts is None:
        return None
    checked = _check_blobs(view, shape, words, starts)
    if checked is None and nblobs:
        starts = _walk_blobs(view, shape)
        checked = None if starts is None else _check_blobs(view, shape, words, starts)
    if checked is None:
        return None
    row_at, site_lengths, num_values, blobs_end = checked
    if blobs_end < end and bool(np.any(np.frombuffer(view, np.uint8, offset=blobs_end))):
        return None  # another profile follows: the reader's business
    # the word of each profiled value (its count is the next one), the rows of indirect
    # calls first, so that the values of each kind come out together
    order = vshape.row_order
    lengths = take(num_values, order)
    firsts = np.cumsum(lengths) - lengths
    pair_at = (take(row_at, order) + take(vshape.row_head, order) - value_start) >> 3
    at = spans(pair_at, lengths, 2)
    values = take(words, at).astype(np.uint64, copy=False)
    at += 1
    counts = take(words, at).astype(np.uint64, copy=False)
    calls = int(firsts[vshape.call_rows]) if vshape.call_rows < len(order) else len(values)
    sites = np.repeat(vshape.site_order, take(site_lengths, vshape.site_order))
    ids = _value_ids(shape, values, calls, load_offset)
    if ids is None:
        return None
    return sites, ids, counts, site_lengths, calls


def _value_ids(shape: RawShape, values: U64s, calls: int, load_offset: int) -> Ints | None:
    """Each profiled value's id, the first ``calls`` indirect-call targets (see the module
    docstring); None if a memop size is too large for a key."""
    targets = shape.targets
    ids = np.empty(len(values), dtype=np.int64)
    if targets.direct_ids is not None and shape.pointer_mask == _FULL:
        ids[:calls] = targets.dense_ids(values[:calls], load_offset)
    else:
        ids[:calls] = targets.ids(values[:calls], load_offset, shape.pointer_mask)
    sizes = values[calls:]
    if len(sizes) and not int(sizes.max()) < 1 << shape.id_bits:
        return None
    ids[calls:] = sizes.view(np.int64)
    return ids


def _check_blobs(
    view: memoryview, shape: RawShape, words: U64s, starts: Ints
) -> tuple[Ints, Ints, Ints, int] | None:
    """Each row's position, the site lengths and values per row, if the blobs chain exactly.

    Row ``k`` of a blob starts where row ``k-1`` ends, so the rows are read a
    rank at a time; every header word must be the shape's and every blob as
    long as its rows.
    """
    vshape = shape.values
    value_start, end = shape.value_start, len(view)
    nblobs = len(starts)
    if nblobs == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), value_start
    if int(starts[0]) != value_start or int(starts[-1]) + 8 > end:
        return None
    raw = np.frombuffer(view, dtype=np.uint8)
    nrows = len(vshape.row_blob)
    row_at = np.zeros(nrows, dtype=np.int64)
    row_end = np.zeros(nrows, dtype=np.int64)
    num_values = np.zeros(nrows, dtype=np.int64)
    site_lengths = np.zeros(shape.num_sites, dtype=np.int64)
    for index, rank in enumerate(vshape.by_ordinal):
        rows = rank.rows
        if index:
            at = take(row_end, rows - 1)
        else:
            at = starts + 8 if vshape.all_rows else take(starts, vshape.row_blob[rows]) + 8
        if int(at.max()) + int(rank.head.max()) > end:
            return None
        if not np.array_equal(take(words, (at - value_start) >> 3), rank.header):
            return None
        counts = take(raw, take(at, rank.site_row) + rank.site_offset)
        site_lengths[rank.sites] = counts
        values = np.add.reduceat(counts, rank.row_first, dtype=np.int64)
        row_at[rows] = at
        num_values[rows] = values
        values <<= 4
        values += at
        values += rank.head
        row_end[rows] = values
    last = vshape.blob_last_row
    if vshape.all_rows:
        blob_end = take(row_end, last)
    else:
        blob_end = np.where(last >= 0, row_end[np.maximum(last, 0)], starts + 8)
    sizes = blob_end - starts
    if int(blob_end[-1]) > end or not np.array_equal(starts[1:], blob_end[:-1]):
        return None
    if int(sizes.max()) >> 32:
        return None
    # each first word must be the size the rows add up to beside the shape's NumValueKinds
    first_words = sizes.astype(np.uint64) << np.uint64(vshape.size_shift)
    first_words |= vshape.blob_kinds
    if not np.array_equal(take(words, (starts - value_start) >> 3), first_words):
        return None
    return row_at, site_lengths, num_values, int(blob_end[-1])


__all__ = [
    "RANK_BITS",
    "RawRun",
    "RawShape",
    "ValueShape",
    "read_run",
    "shape_of",
    "value_id_bits",
    "values_of_ids",
]
