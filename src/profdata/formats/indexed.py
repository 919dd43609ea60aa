"""Indexed instrumentation profiles (``.profdata``), versions 1 to 13: the reader.

Mirrors LLVM's ``IndexedInstrProfReader`` as of LLVM 22 (which reads every
older version, so one reader serves all releases).  Format reference:
``shared/spec/instr-indexed.md``.

Reading is split the way the format invites: the header, the (CS) profile
summary, the hash-table header, binary ids, temporal traces and vtable names
are small and parsed eagerly; function records are decoded only when a name
is looked up (one bucket) or the records are iterated (payload order, which is
the order ``llvm-profdata show`` prints), by
:class:`~profdata.formats.indexed_records.RecordDecoder`.  Counters are zero-copy numpy views
into the input buffer, so a memory-mapped file is never copied wholesale; the
views are read-only, and code that accumulates into them must copy first.

Checks happen in LLVM's order so that the first error line matches
llvm-profdata where LLVM's behaviour is defined; where LLVM reads out of
bounds (offsets or lengths past the end of the file) we raise a located
:class:`~profdata.errors.MalformedError` instead.
"""

from __future__ import annotations

import copy
import struct
from collections.abc import Iterator, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, NamedTuple, overload

import numpy as np

from profdata.errors import (
    FormatError,
    HeaderCorruptError,
    MalformedError,
    ProfdataError,
    TruncatedError,
    UnrecognizedFormatError,
    UnsupportedHashTypeError,
    UnsupportedVersionError,
)
from profdata.formats import InstrFormat, register
from profdata.formats._binary import ByteReader
from profdata.formats._names import names_before_failure, read_name_chunks
from profdata.formats._onhash import FileWords, ItemRef, OnDiskHashTable
from profdata.formats.indexed_binary_ids import BinaryIdSection
from profdata.formats.indexed_binary_ids import section as binary_id_section
from profdata.formats.indexed_columns import BulkRecords, ItemListing, decode_bulk
from profdata.formats.indexed_layout import (
    FIRST_VERSION,
    HASH_TYPE_MD5,
    LAST_VERSION,
    MAGIC,
    SUMMARY_FIELDS,
    IndexedLayout,
    layout,
)
from profdata.formats.indexed_layout import sniff as sniff  # ``IndexedInstrProfReader::hasFormat``
from profdata.formats.indexed_records import (
    PROFILE_DATA_EMPTY,
    VALUE_KIND_LAST,
    RecordDecoder,
    reads_nothing,
)
from profdata.formats.version_word import stray_version_bits, version_mask
from profdata.model import names as model_names
from profdata.model.instr import (
    InstrProfile,
    InstrRecord,
    RecordColumns,
    TemporalTrace,
)
from profdata.model.kinds import ProfileKind
from profdata.model.names import (
    ENCODING,
    ERRORS,
    md5_hash,
    md5_hash_bytes,
    md5_hashes,
    name_bytes,
    name_str,
)
from profdata.model.record_table import RecordTable
from profdata.model.summary import ProfileSummary, SummaryEntry, summarize_counts
from profdata.offload import Pending
from profdata.releases import Release

if TYPE_CHECKING:  # the MemProf reader loads with the first profile that has the section
    from profdata.formats.memprof import MemProfRules
    from profdata.model.memprof import MemProfData

MIN_SIZE = 24  # IndexedInstrProfReader::readHeader refuses shorter buffers
_U64X2 = struct.Struct("<QQ")
_EMPTY_COUNTS = np.zeros(0, dtype=np.uint64)
_U32 = 0xFFFFFFFF  # ``uint32_t`` arithmetic of ``Summary::getSize``


def truncated_header_error(layout: IndexedLayout) -> type[FormatError]:
    """What llvm-profdata 22 reports for a file that ends inside the header.

    LLVM reads the missing words out of bounds; the first check that then
    fails is the binary-id size (``file header is corrupt``) for versions that
    have one, else the record decoding (``malformed``).  Both outcomes are
    recorded in the corpus (``l22-``/``l14-truncated-header.profdata``).
    """
    return HeaderCorruptError if layout.has_binary_ids else MalformedError


class IndexedHeader(NamedTuple):
    """The header words; fields a version lacks are 0."""

    magic: int
    version: int  # the whole word: version | variant flags << 32
    unused: int = 0  # MaxFunctionCount in v1-v3
    hash_type: int = 0
    hash_offset: int = 0
    memprof_offset: int = 0
    binary_id_offset: int = 0
    temporal_prof_traces_offset: int = 0
    vtable_names_offset: int = 0


# --------------------------------------------------------------------------
# The lazy record sequence and the profile
# --------------------------------------------------------------------------
class IndexedRecords(Sequence[InstrRecord]):
    """Records in hash-table payload order, decoded on demand.

    Items are located and all records decoded in bulk with numpy
    (:meth:`listing`, :meth:`bulk`; see :mod:`~profdata.formats.indexed_columns`)
    when the payload is laid out the way every LLVM writer lays it out and
    every record checks out.  Otherwise iteration streams through the payload
    item by item and stops at the first bad one with LLVM's error, and
    ``len()`` and indexing first build an index (one pass over the item
    headers and record sizes, no counters decoded) that later iterations
    reuse.  The last decoded item is cached for sequential indexing.
    """

    def __init__(self, table: OnDiskHashTable, decoder: RecordDecoder) -> None:
        self._table = table
        self._decoder = decoder
        self._items: list[tuple[str, ItemRef]] | None = None
        self._starts: np.ndarray | None = None  # cumulative record counts per item
        self._cached: tuple[int, list[InstrRecord]] | None = None
        self._listing: ItemListing | None = None
        self._bulk: BulkRecords | None = None
        self._bulk_records: list[InstrRecord] | None = None  # built on the first iteration
        self._tried: set[str] = set()  # of "listing", "bulk": computed, maybe to None

    def listing(self) -> ItemListing | None:
        """Every item and its name, read with numpy (None: the payload must be walked)."""
        if "listing" not in self._tried:
            self._tried.add("listing")
            words = FileWords(self._table.data)
            items = self._table.item_arrays(words)
            self._listing = None
            if items is not None:
                self._listing = ItemListing(words, items)
        return self._listing

    def bulk(self) -> BulkRecords | None:
        """All records decoded with numpy (None: decode item by item, which finds the error)."""
        if "bulk" not in self._tried:
            self._tried.add("bulk")
            listing = self.listing()
            if listing is not None:
                self._bulk = decode_bulk(
                    self._table.data, listing.words, listing.items, lambda: listing.names,
                    self._decoder.layout, self._decoder.last_kind + 1,
                )  # fmt: skip
        return self._bulk

    def __iter__(self) -> Iterator[InstrRecord]:
        if self.bulk() is not None:
            return iter(self._decoded())
        return self._stream()

    def _decoded(self) -> list[InstrRecord]:
        """The bulk decoder's records, built once (only when :meth:`bulk` succeeded)."""
        if self._bulk_records is None:
            bulk = self.bulk()
            assert bulk is not None
            self._bulk_records = bulk.records()
        return self._bulk_records

    def _stream(self) -> Iterator[InstrRecord]:
        decode = self._decoder.decode
        if self._items is not None:
            for name, item in self._items:
                yield from decode(name, item)
            return
        for name, item in self._named_items():
            yield from decode(name, item)

    def _named_items(self) -> Iterator[tuple[str, ItemRef]]:
        listing = self.listing()
        if listing is not None:
            items = listing.items
            refs = map(
                ItemRef,
                items.key_hash.tolist(),
                items.key_offset.tolist(),
                items.key_length.tolist(),
                items.data_offset.tolist(),
                items.data_length.tolist(),
            )
            yield from zip(listing.names, refs, strict=True)
            return
        table = self._table
        data = table.data
        for item in table.items():
            key = data[item.key_offset : item.key_offset + item.key_length]
            yield str(key, ENCODING, ERRORS), item

    def _index(self) -> tuple[list[tuple[str, ItemRef]], np.ndarray]:
        bulk = self.bulk()
        if (self._items is None or self._starts is None) and bulk is not None:
            self._items = list(self._named_items())
            per_item = np.bincount(bulk.item_of, minlength=len(self._items))
            self._starts = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(per_item)])
        if self._items is None or self._starts is None:
            count = self._decoder.count
            items: list[tuple[str, ItemRef]] = []
            sizes: list[int] = []
            for name, item in self._named_items():
                sizes.append(count(name, item))  # item by item: errors in payload order
                items.append((name, item))
            self._starts = np.concatenate(
                [np.zeros(1, dtype=np.int64), np.cumsum(sizes, dtype=np.int64)]
            )
            self._items = items
        return self._items, self._starts

    def __len__(self) -> int:
        if self.bulk() is not None:
            return len(self._decoded())
        return int(self._index()[1][-1])

    @overload
    def __getitem__(self, index: int) -> InstrRecord: ...
    @overload
    def __getitem__(self, index: slice) -> list[InstrRecord]: ...
    def __getitem__(self, index: int | slice) -> InstrRecord | list[InstrRecord]:
        if self.bulk() is not None:
            return self._decoded()[index]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        items, starts = self._index()
        total = int(starts[-1])
        if index < 0:
            index += total
        if not 0 <= index < total:
            raise IndexError("record index out of range")
        item_no = int(np.searchsorted(starts, index, side="right")) - 1
        if self._cached is None or self._cached[0] != item_no:
            name, item = items[item_no]
            self._cached = (item_no, self._decoder.decode(name, item))
        return self._cached[1][index - int(starts[item_no])]


class IndexedProfile(InstrProfile):
    """An indexed profile whose records stay in the file until asked for.

    Besides the :class:`InstrProfile` fields it keeps the header, the stored
    summaries (``summary``; ``cs_summary`` when the CS flag is set) and the
    MemProf byte range (not decoded).  ``symbols`` maps name hashes to names
    the way ``IndexedInstrProfReader::getSymtab`` does: every function name in
    the table plus the names of the vtable-name section (LLVM 19+ writes them
    only with ``--keep-vtable-symbols``).  It needs a pass over all keys, so it
    is built on first use.
    """

    def __init__(
        self,
        *,
        header: IndexedHeader,
        layout: IndexedLayout,
        table: OnDiskHashTable,
        decoder: RecordDecoder,
        summary: ProfileSummary,
        cs_summary: ProfileSummary | None,
        binary_ids: BinaryIdSection | None,
        traces: list[TemporalTrace],
        trace_stream_size: int,
        vtable_names: tuple[ByteReader, FormatError | None] | None,
        memprof_range: tuple[int, int] | None,
    ) -> None:
        self._indexed = IndexedRecords(table, decoder)
        super().__init__(
            kind=ProfileKind.from_version_word(header.version),
            records=self._indexed,
            format="indexed",
            version=layout.version,
            traces=traces,
            trace_stream_size=trace_stream_size,
        )
        #: the vtable name section's bytes in the file (None: decoded or replaced)
        self._vtable_name_data = None if vtable_names is None else vtable_names[0]
        #: why it cannot be decoded whole: it runs past the end of the file
        self._vtable_name_error = None if vtable_names is None else vtable_names[1]
        self._symbols: dict[int, str] | None = None
        self._hashing: Pending[list[int]] = Pending()
        self._columns: RecordColumns | None = None
        self._table: RecordTable | None = None
        self._binary_id_section = binary_ids
        self.header = header
        self.layout = layout
        self.table = table
        self._decoder = decoder
        self.summary = summary
        self.cs_summary = cs_summary
        self.memprof_range = memprof_range
        self._memprof: tuple[MemProfRules, MemProfData] | None = None

    def memprof_data(self, rules: MemProfRules) -> MemProfData | None:
        """The MemProf section decoded as a release reads it (None if there is none).

        Decoded on first use, so reading counters never touches the section.
        """
        if self.memprof_range is None:
            return None
        if self._memprof is None or self._memprof[0] != rules:
            from profdata.formats.memprof import read_memprof

            data = read_memprof(self.table.data, self.memprof_range[0], rules)
            self._memprof = (rules, data)
        return self._memprof[1]

    @property
    def binary_ids(self) -> list[bytes]:
        """The binary ids, read on first use as ``readBinaryIds`` reads them: a bad entry
        fails ``merge`` and ``show --binary-ids`` only (see ``indexed_binary_ids``)."""
        section = self._binary_id_section
        if section is not None:
            self._binary_ids = section.entries()
            self._binary_id_section = None
        return self._binary_ids

    @binary_ids.setter
    def binary_ids(self, value: list[bytes]) -> None:
        self._binary_ids = value
        self._binary_id_section = None

    @property
    def vtable_names(self) -> list[str]:
        """The vtable names, decompressed on first use as ``getSymtab`` does: ``show`` and
        ``merge`` of the records never touch them (a small section may inflate to GBs)."""
        data = self._vtable_name_data
        if data is not None:
            if self._vtable_name_error is not None:
                raise self._vtable_name_error
            # a copy of the section's cursor each time: a failure fails again
            self._vtable_names = read_name_chunks(copy.copy(data), "vtable_names")
            self._vtable_name_data = None
        return self._vtable_names

    @vtable_names.setter
    def vtable_names(self, value: list[str]) -> None:
        self._vtable_names = value
        self._vtable_name_data = None

    def _symtab_vtable_names(self) -> list[str]:
        """The vtable names ``getSymtab`` adds: ``readAndDecodeStrings`` hands each chunk's
        names to ``addSymbolName`` as it decodes them, so a chunk that fails (or leaves
        the file, where LLVM reads other memory) or an empty name ends them, and
        ``getSymtab`` swallows the error, keeping the names before it."""
        data = self._vtable_name_data
        if data is None:
            return self._vtable_names
        return names_before_failure(copy.copy(data), "vtable_names")

    def listing(self) -> ItemListing | None:
        """Every item's key and data range, read with numpy (None: the payload must be walked)."""
        return self._indexed.listing()

    def bulk(self) -> BulkRecords | None:
        """Every record located and checked with numpy (None: decode item by item)."""
        return self._indexed.bulk()

    def read_so_far(self) -> tuple[InstrProfile, ProfdataError | None]:
        """Whole, with no record decoded yet, when the bulk decoder vouched for every
        record (so its table stays at hand); else decoded up to the first bad record."""
        if self.records is self._indexed and self._indexed.bulk() is not None:
            return self, None
        return super().read_so_far()

    def cheap_table(self) -> RecordTable | None:
        """The records as a table, decoded in bulk (None: the payload is decoded item by
        item, or the records were replaced)."""
        if self.records is not self._indexed:
            return None
        bulk = self._indexed.bulk()
        if bulk is None:
            return None
        if self._table is None:
            self._table = bulk.table()
        return self._table

    def columns(self) -> RecordColumns:
        """All records as columns, decoded in bulk (:mod:`~profdata.formats.indexed_columns`).

        A payload the bulk decoder cannot vouch for is decoded item by item,
        which raises the error LLVM's reader would.
        """
        if self._columns is None:
            bulk = self._indexed.bulk()
            self._columns = bulk.columns if bulk is not None else RecordColumns.of(self._indexed)
        return self._columns

    @property
    def symbols(self) -> dict[int, str]:
        if self._symbols is None:
            symbols = {md5_hash(name): name for name in self._symtab_vtable_names()}
            listing = self._indexed.listing()
            if listing is None:
                keys = self._walked_keys()
            else:
                hashes = self._hashing.take(self._key_hashes)
                keys = list(zip(hashes, listing.names, strict=True))
            for key_hash, name in keys:
                if not name:  # addFuncName refuses it; getSymtab keeps the names before it
                    break
                symbols[key_hash] = name
            self._symbols = symbols
        return self._symbols

    @symbols.setter
    def symbols(self, value: dict[int, str]) -> None:
        self._symbols = value or None

    def _walked_keys(self) -> list[tuple[int, str]]:
        """The keys of a table the bulk listing declines, with their MD5s, as
        ``InstrProfSymtab::create`` walks them: stepping over each item's data (only the
        keys must read, see :meth:`OnDiskHashTable.key_items`).  Where the walk leaves the
        file, LLVM reads names from other memory: the keys read before stay (what it reads
        there cannot be known)."""
        table = self.table
        keys: list[tuple[int, str]] = []
        with suppress(ProfdataError):
            for item in table.key_items():
                key = table.key(item)
                keys.append((md5_hash_bytes(key), name_str(key)))
        return keys

    def hash_names_meanwhile(self) -> bool:
        if self._symbols is not None:
            return False
        listing = self._indexed.listing()
        if (
            listing is not None
            and int(listing.items.key_length.sum()) >= model_names.HASH_MEANWHILE_BYTES
        ):
            self._hashing.start(self._key_hashes)
        return self._hashing.started

    def _key_hashes(self) -> list[int]:
        """The MD5 of every key of the table, in listing order (getSymtab hashes each name
        afresh: the hashes the file states are not taken on trust)."""
        listing = self._indexed.listing()
        assert listing is not None
        data = self.table.data
        starts = listing.items.key_offset
        ends = (starts + listing.items.key_length).tolist()
        return md5_hashes(map(data.__getitem__, map(slice, starts.tolist(), ends)))

    def names(self) -> Iterator[str]:
        """Function names (hash-table keys) in payload order."""
        table = self.table
        for item in table.items():
            yield name_str(table.key(item))

    def lookup(self, name: str) -> list[InstrRecord]:
        """All records stored under ``name``, reading only its bucket ([] if absent)."""
        item = self.table.find(md5_hash(name), name_bytes(name))
        return [] if item is None else self._decoder.decode(name, item)

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        return self.table.find(md5_hash(name), name_bytes(name)) is not None


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------
_VERSION_ZERO_AS = 2  # see :func:`read`


def read(
    view: memoryview, path: str | None = None, *, release: Release | None = None
) -> IndexedProfile:
    """The indexed profile in ``view``, as ``release`` reads it where releases differ: what
    its ``GET_VERSION`` keeps of the header's version word (see :mod:`.version_word`)."""
    mask = version_mask(release)
    data = view if view.format == "B" and view.ndim == 1 else view.cast("B")
    cur = ByteReader(data, path=path)
    size = len(data)
    if size < MIN_SIZE:
        cur.fail(
            TruncatedError,
            "an indexed profile is at least 24 bytes long",
            field="header",
            expected=f">= {MIN_SIZE} bytes",
            found=f"{size} bytes",
            at=0,
        )
    magic, word = _U64X2.unpack_from(data, 0)
    if magic != MAGIC:
        cur.fail(
            UnrecognizedFormatError,
            "not an indexed profile",
            field="magic",
            expected=f"0x{MAGIC:016x}",
            found=f"0x{magic:016x}",
            at=0,
        )
    version = word & mask
    if version > LAST_VERSION:
        cur.fail(
            UnsupportedVersionError,
            stray_version_bits(word, mask) or f"indexed version {version}",
            field="version",
            expected=f"{FIRST_VERSION}..{LAST_VERSION}",
            found=str(version),
            at=8,
        )
    # llvm-profdata refuses only versions above its own; below 1 (0, which no writer
    # made) its reader takes the header of 1-7 and, as for any version but 1, the
    # records of 2 and later: version 2's layout
    fmt = layout(version if version >= FIRST_VERSION else _VERSION_ZERO_AS)
    if size < fmt.header_size:
        missing = fmt.header_fields[size // 8]
        cur.fail(
            truncated_header_error(fmt),
            f"the file ends inside the version {version} header",
            field=missing,
            expected=f"{fmt.header_size} header bytes",
            found=f"{size} bytes",
            at=size // 8 * 8,
        )
    header = IndexedHeader(
        **dict(zip(fmt.header_fields, fmt.header.unpack_from(data, 0), strict=True))
    )
    kind = ProfileKind.from_version_word(word)
    if header.hash_type & 0xFFFFFFFF > HASH_TYPE_MD5:  # ``HashT`` is a 32-bit enum
        cur.fail(
            UnsupportedHashTypeError,
            "only MD5 (0) is defined",
            field="hash_type",
            expected=str(HASH_TYPE_MD5),
            found=str(header.hash_type),
            at=fmt.field_offset("hash_type"),
        )

    cur.seek(fmt.header_size)
    # a summary past the end of the file is no error of LLVM's ``readSummary``, which reads
    # on into memory: the header's later checks come first, and its items then fail
    summary_fault: MalformedError | None = None
    summary = summarize_counts(_EMPTY_COUNTS, _EMPTY_COUNTS)  # what LLVM reports before v4
    cs_summary = None
    try:
        if fmt.has_summary:
            summary = _read_summary(cur, "summary")
            cs_summary = _read_summary(cur, "cs_summary") if kind & ProfileKind.CS else None
    except MalformedError as fault:
        summary_fault = fault
    payload_offset = cur.pos

    memprof_range = None
    if fmt.has_memprof and kind & ProfileKind.MEMPROF:
        memprof_range = _memprof_range(cur, header, fmt.field_offset("memprof_offset"))
    binary_ids = None
    if fmt.has_binary_ids:
        binary_ids = binary_id_section(
            data, header.binary_id_offset, fmt.field_offset("binary_id_offset"), path
        )
    vtable_names = None
    if fmt.has_vtable_names:
        vtable_names = _vtable_name_data(
            cur, header.vtable_names_offset, fmt.field_offset("vtable_names_offset")
        )
    traces: list[TemporalTrace] = []
    stream_size = 0
    if fmt.has_temporal_traces and kind & ProfileKind.TEMPORAL:
        traces, stream_size = _read_traces(
            cur,
            header.temporal_prof_traces_offset,
            fmt.field_offset("temporal_prof_traces_offset"),
        )

    if summary_fault is not None:
        raise summary_fault
    table = OnDiskHashTable(
        data,
        table_offset=header.hash_offset,
        payload_offset=payload_offset,
        path=path,
        offset_at=fmt.field_offset("hash_offset"),
        unread_data=reads_nothing,
        item_fault=PROFILE_DATA_EMPTY,
    )
    return IndexedProfile(
        header=header,
        layout=fmt,
        table=table,
        decoder=RecordDecoder(
            data, fmt, path, VALUE_KIND_LAST if release is None else release.max_value_kind
        ),
        summary=summary,
        cs_summary=cs_summary,
        binary_ids=binary_ids,
        traces=traces,
        trace_stream_size=stream_size,
        vtable_names=vtable_names,
        memprof_range=memprof_range,
    )


def _read_summary(cur: ByteReader, field: str) -> ProfileSummary:
    """``IndexedInstrProf::Summary`` as ``readSummary`` reads it, which is not always as the
    file states it.

    LLVM sizes the summary with ``Summary::getSize``, whose counts and result
    are ``uint32_t``, copies that many bytes, and reads from the copy: field
    ``K`` at word ``2 + K`` whatever NumSummaryFields says, the cutoff entries
    ``NumSummaryFields`` words after the fields in 64-bit pointer arithmetic.
    The summary ends (and the hash table's payload begins) where that size
    says.  So a field count of ``2**64 - 2`` makes the summary 64 bytes
    shorter and its entries start 16 bytes before the fields, all inside the
    copy.  Where the copy runs past the end of the file, or the entries lie
    outside it, LLVM reads memory that is not the file (garbage or a crash):
    that stays a located error here.  Fields past the copy read as 0.
    """
    start = cur.pos
    cur.require(16, f"{field}.num_summary_fields", MalformedError)
    num_fields, num_entries = cur.words(2, f"{field}.num_summary_fields")
    size = (16 + 24 * (num_entries & _U32) + 8 * (num_fields & _U32)) & _U32
    entries_at = (16 + 8 * num_fields) % (1 << 64)  # from the summary's start
    if size < 16 or size - 16 > cur.remaining or entries_at + 24 * num_entries > size:
        cur.fail(
            MalformedError,
            f"the {field.replace('_', ' ')} runs past the end of the file",
            field=f"{field}.num_cutoff_entries",
            expected=f"<= {cur.remaining + 16} bytes, its entries inside them",
            found=f"{size} bytes of {num_fields} fields and {num_entries} entries",
            at=start,
            # LLVM reads on past the end, and the hash table's items from there
            llvm_message=PROFILE_DATA_EMPTY,
        )
    copy = np.frombuffer(cur.data, dtype="<u8", count=size // 8, offset=start)
    stated = copy[2 : 2 + len(SUMMARY_FIELDS)].tolist()
    padded = (stated + [0] * len(SUMMARY_FIELDS))[: len(SUMMARY_FIELDS)]
    values = dict(zip(SUMMARY_FIELDS, padded, strict=True))
    for narrow in ("num_functions", "num_counts"):  # uint32_t in llvm::ProfileSummary
        values[narrow] &= 0xFFFFFFFF
    first = entries_at // 8
    entries = copy[first : first + 3 * num_entries].reshape(-1, 3).tolist()
    cur.seek(start + size)
    return ProfileSummary(
        **values,
        detailed=tuple(SummaryEntry(c & 0xFFFFFFFF, m, n) for c, m, n in entries),
    )


def _memprof_range(cur: ByteReader, header: IndexedHeader, at: int) -> tuple[int, int]:
    """[MemProfOffset, next section or end of file): kept, not decoded."""
    size = cur.end
    start = header.memprof_offset
    if start > size - 8:
        cur.fail(
            MalformedError,
            "the MemProf section starts past the end of the file",
            field="memprof_offset",
            expected=f"<= {size - 8}",
            found=str(start),
            at=at,
        )
    others = (
        header.hash_offset,
        header.binary_id_offset,
        header.temporal_prof_traces_offset,
        header.vtable_names_offset,
    )
    end = min((o for o in others if o > start), default=size)
    return start, min(end, size)


#: a vtable name offset this close below 2**64 puts the section's length word in the page
#: before the buffer, which LLVM reads (19 and 22 verified up to a page); further down
#: it reads unmapped memory and crashes, or not, as the buffer's address decides
_BEFORE_THE_FILE = 4096


def _vtable_name_data(
    cur: ByteReader, offset: int, at: int
) -> tuple[ByteReader, FormatError | None]:
    """The vtable name section's bytes in the file, and the error of a section that runs
    past its end (or starts before the file)."""
    size = cur.end
    if offset >= (1 << 64) - _BEFORE_THE_FILE:
        # ``Start + offset`` wraps to before the buffer: the one test (the names' pointer
        # not past the end) passes, and the length is read from memory LLVM does not own
        before = cur.error(
            TruncatedError,
            "the vtable name section starts before the file (its offset wraps)",
            field="vtable_names_offset",
            expected=f"<= {size - 8}",
            found=str(offset),
            at=at,
        )
        return cur.sub(0, "vtable_names.data"), before
    if offset > size - 8:
        cur.fail(
            TruncatedError,
            "the vtable name section starts past the end of the file",
            field="vtable_names_offset",
            expected=f"<= {size - 8}",
            found=str(offset),
            at=at,
        )
    cur.seek(offset)
    length = cur.u64("vtable_names.length")
    try:
        return cur.sub(length, "vtable_names.data"), None
    except FormatError as exc:  # LLVM reads the length, not the names, until getSymtab
        return cur.sub(cur.remaining, "vtable_names.data"), exc


def _read_traces(cur: ByteReader, offset: int, at: int) -> tuple[list[TemporalTrace], int]:
    size = cur.end
    if offset > size - 16:
        cur.fail(
            TruncatedError,
            "the temporal trace section starts past the end of the file",
            field="temporal_prof_traces_offset",
            expected=f"<= {size - 16}",
            found=str(offset),
            at=at,
        )
    cur.seek(offset)
    num_traces, stream_size = cur.words(2, "temporal_traces.num_traces")
    if num_traces > cur.remaining // 16:
        cur.fail(
            TruncatedError,
            "more traces than the file can hold",
            field="temporal_traces.num_traces",
            expected=f"<= {cur.remaining // 16}",
            found=str(num_traces),
            at=offset,
        )
    traces: list[TemporalTrace] = []
    for i in range(num_traces):
        weight, num_functions = cur.words(2, f"temporal_traces[{i}].weight")
        refs = cur.array("<u8", num_functions, f"temporal_traces[{i}].function_name_refs")
        traces.append(TemporalTrace(weight, tuple(refs.tolist())))
    return traces, stream_size


INDEXED = register(InstrFormat("indexed", sniff, read))
