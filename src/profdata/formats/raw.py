"""Raw instrumentation profiles (``.profraw``, raw versions 5, 7, 8, 9, 10): reader and writer.

The reader mirrors ``RawInstrProfReader`` of LLVM 11 to 22 -- the checks it
makes, the order it makes them in and the first error line llvm-profdata
prints -- but reads every raw version, where each ``llvm-profdata`` release
reads only its own.  The data section becomes one numpy structured array and
the counters one numpy array; counter and bitmap offsets of all records are
computed and bounds-checked at once, and the value-profile blobs are checked
with numpy (:mod:`profdata.formats.raw_values`) once Python has followed the
chain of their sizes.  The profile keeps the records as columns; names,
value sites and :class:`~profdata.model.instr.InstrRecord` objects (whose
counts are views of the counter array) are made on first use
(:mod:`profdata.formats.raw_profile`).

The writer (:func:`write`) produces what compiler-rt's ``__llvm_profile_write_file``
would write for the same data, so that people writing their own runtime, and
tests, get a reference dump.  Layouts live in :mod:`profdata.formats.raw_layout`.
"""

from __future__ import annotations

import copy
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import NoReturn

import numpy as np
import numpy.typing as npt

from profdata.errors import (
    FormatError,
    HeaderCorruptError,
    Location,
    MalformedError,
    ProfdataError,
    RawVersionError,
    RelabelledVersionError,
    TooMuchDataError,
    TruncatedError,
    UnrecognizedFormatError,
    UnsupportedVersionError,
)
from profdata.formats import InstrFormat, register
from profdata.formats._binary import ByteOrder, ByteReader, pad8
from profdata.formats._binary_ids import read_binary_id_entries
from profdata.formats._names import read_names_as_llvm
from profdata.formats.correlate_data import (
    Correlation,
    CorrelationSource,
    correlated_sections,
    is_lightweight,
)
from profdata.formats.raw_layout import (
    SUPPORTED_VERSIONS,
    UNSET_TIMESTAMPS,
    VERSION_MASK,
    RawHeader,
    RawLayout,
    Section,
    detect_magic,
    raw_layout,
    sections,
)
from profdata.formats.raw_profile import NameTable, RawProfile
from profdata.formats.raw_values import (
    ValueSites,
    chain_starts,
    decode_sites,
    scan_blobs,
    value_columns,
)
from profdata.formats.raw_write import write
from profdata.model.instr import (
    Counts,
    InstrProfile,
    InstrRecord,
    RecordColumns,
    TemporalTrace,
    spans,
)
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.record_table import RecordTable

__all__ = ["read", "sniff", "write"]

_MALFORMED = MalformedError.llvm_message
_BAD_MAGIC = "invalid instrumentation profile data (bad magic)"  # instrprof_error::bad_magic
_IPVK_LAST = int(max(ValueKind))
_MAX_U64 = 0xFFFFFFFFFFFFFFFF


def sniff(prefix: bytes) -> bool:
    """A raw profile starts with one of the four raw magics (either width, either byte order)."""
    return detect_magic(prefix) is not None


def read(
    data: bytes | bytearray | memoryview,
    path: str | None = None,
    *,
    correlation: CorrelationSource | None = None,
    _relabel_tried: bool = False,
) -> InstrProfile:
    """Every raw profile in ``data`` (several may be concatenated) as one profile.

    Records come in data-record order.  ``kind`` and ``version`` are those of
    the first header (what ``llvm-profdata merge`` uses); ``symbols`` holds
    every function and vtable name of every concatenated profile; temporal
    timestamps of all of them form one trace, as in ``getTemporalProfTraces``.
    A lightweight profile takes its data records and names from ``correlation``, or
    from the one it gives for the profile's build IDs when it is a function
    (:mod:`profdata.formats.correlate`) and cannot be read without one.
    """
    view = memoryview(data).cast("B")
    magic = detect_magic(view[:8])
    if magic is None:
        raise UnrecognizedFormatError("the first 8 bytes are not a raw profile magic", path=path)
    width, order = magic
    cur = ByteReader(view, path=path, order=order)
    parts: list[_RawPart] = []
    pos: int | None = 0
    while pos is not None:
        reader: _ProfileReader | None = None
        try:
            reader = _ProfileReader(cur, pos, width, first=not parts, correlation=correlation)
            part = reader.parse()
        except ProfdataError as exc:
            read_so_far = parts + ([reader.partial] if reader and reader.partial else [])
            if read_so_far:
                exc.partial = _assemble(read_so_far)
            if isinstance(exc, FormatError) and not _relabel_tried:
                _refuse_relabelled(view, width, order, path, correlation, exc)
            raise
        parts.append(part)
        try:
            pos = _next_header(cur, part.end, parts[0].header_size)
        except ProfdataError as exc:
            exc.partial = _assemble(parts)
            if isinstance(exc, FormatError) and not _relabel_tried:
                _refuse_relabelled(view, width, order, path, correlation, exc)
            raise
    return _assemble(parts)


def _refuse_relabelled(
    view: memoryview,
    width: int,
    order: ByteOrder,
    path: str | None,
    correlation: CorrelationSource | None,
    failure: FormatError,
) -> None:
    """Raise the version error a file deserves whose version field was changed: it fails
    as the version it names but reads cleanly as another one.

    llvm-profdata reads only its own raw version and refuses every other at the
    header; profdata reads them all, so such a file would otherwise fail with
    whatever the wrong layout makes of its sections (a binary id of length 0, a
    cut name table).  Only a failing file is looked at again, so a file that
    reads as what it says it is never gets here.
    """
    if isinstance(failure, UnsupportedVersionError) or len(view) < 16:
        return
    word = int.from_bytes(view[8:16], "little" if order == "<" else "big")
    declared = word & VERSION_MASK
    if declared not in SUPPORTED_VERSIONS:
        return
    for version in SUPPORTED_VERSIONS:
        if version == declared:
            continue
        patched = bytearray(view)
        patched[8:16] = ((word & ~VERSION_MASK) | version).to_bytes(
            8, "little" if order == "<" else "big"
        )
        try:
            profile = read(patched, path, correlation=correlation, _relabel_tried=True)
        except ProfdataError:
            continue
        if not profile.records:  # a cut header can read as a shorter, empty one
            continue
        as_declared = failure.locate() or failure.llvm_message
        if failure.path and as_declared.startswith(f"{failure.path}: "):
            as_declared = as_declared[len(failure.path) + 2 :]
        raise RelabelledVersionError(
            f"the header says raw version {declared}, but the file reads cleanly only as "
            f"version {version} (was its version field changed?); read as version "
            f"{declared} it fails: {as_declared}",
            path=path,
            location=Location(
                8, field="header.version", expected=str(version), found=str(declared)
            ),
            as_declared=failure,
        )


@dataclass
class _RawPart:
    """What one raw profile (one header) contributes to the file's profile."""

    header: RawHeader
    header_size: int
    columns: RecordColumns
    #: builds the part's records (value sites decoded, bitmaps copied) when first asked for
    build_records: Callable[[], list[InstrRecord]]
    binary_ids: list[bytes]
    names: NameTable  # NameRef -> function name
    vtable_names: NameTable
    timestamps: list[tuple[int, int]]
    end: int
    #: the same records as a table (None for the records before a failure)
    build_table: Callable[[], RecordTable] | None = None


def _assemble(parts: list[_RawPart]) -> RawProfile:
    binary_ids: list[bytes] = []
    timestamps: list[tuple[int, int]] = []
    for part in parts:
        binary_ids.extend(part.binary_ids)
        timestamps.extend(part.timestamps)
    # each header gets a new symbol table (readHeader's createSymtab): the reader's vtable
    # names, what merge --keep-vtable-symbols takes, are the last profile's
    vtable_names = list(parts[-1].vtable_names.table().values())
    traces: list[TemporalTrace] = []
    if timestamps:
        timestamps.sort()
        traces.append(TemporalTrace(1, tuple(ref for _, ref in timestamps)))
    first = parts[0].header
    if len(parts) == 1:
        columns = parts[0].columns
    else:
        columns = RecordColumns(
            lambda: [name for part in parts for name in part.columns.names],
            np.concatenate([part.columns.hashes for part in parts]),
            np.concatenate([part.columns.counts for part in parts]),
            np.concatenate([part.columns.lengths for part in parts]),
        )

    def build_records() -> list[InstrRecord]:
        return [record for part in parts for record in part.build_records()]

    return RawProfile(
        columns=columns,
        build_records=build_records,
        build_table=parts[0].build_table if len(parts) == 1 else None,
        kind=first.kind,
        format="raw",
        version=first.raw_version,
        binary_ids=binary_ids,
        traces=traces,
        trace_stream_size=1 if traces else 0,
        vtable_names=vtable_names,
        name_tables=[table for part in parts for table in (part.names, part.vtable_names)],
        last_raw_binary_ids=list(parts[-1].binary_ids) if len(parts) > 1 else None,
    )


def _next_header(cur: ByteReader, pos: int, header_size: int) -> int | None:
    """Where the next concatenated profile starts (``readNextHeader``); None at the end.

    LLVM wants room for a header of its own version, which is the first profile's.
    """
    if pos >= cur.end:
        return None
    nonzero = np.flatnonzero(np.frombuffer(cur.data, dtype=np.uint8, offset=pos))
    if not len(nonzero):
        return None
    pos += int(nonzero[0])
    if cur.end - pos < header_size:
        cur.fail(
            MalformedError,
            "bytes after the last profile are neither zero padding nor a header",
            field="header",
            expected=f"{header_size} bytes for a header",
            found=f"{cur.end - pos} bytes",
            at=pos,
            llvm_message=f"{_MALFORMED}: not enough space for another header",
        )
    if pos % 8:
        cur.fail(
            MalformedError,
            "a concatenated profile does not start on an 8-byte boundary",
            field="header.magic",
            expected="an offset that is a multiple of 8",
            found=str(pos),
            at=pos,
            llvm_message=f"{_MALFORMED}: insufficient padding",
        )
    if bytes(cur.data[pos : pos + 8]) != bytes(cur.data[0:8]):
        cur.fail(
            UnrecognizedFormatError,
            "a concatenated profile has another magic (pointer width or byte order)",
            field="header.magic",
            expected=bytes(cur.data[0:8]).hex(),
            found=bytes(cur.data[pos : pos + 8]).hex(),
            at=pos,
            llvm_message=_BAD_MAGIC,
        )
    return pos


def _signed_offsets(
    ptrs: npt.NDArray[np.unsignedinteger], delta: int, stride: int, width: int
) -> npt.NDArray[np.int64]:
    """``Ptr_i - (Delta - i*stride)`` for every record, modulo the pointer width, sign-extended.

    v8+ pointers are relative to their own data record, so ``Delta`` drops by
    ``D`` per record (``advanceData``); v5/v7 pointers and deltas are absolute
    (stride 0).  Wrapping in pointer width gives LLVM's numbers for every real
    file and stays right for 32-bit programs with an unusual section order.
    """
    count = len(ptrs)
    base = np.full(count, delta & _MAX_U64, dtype=np.uint64)
    if stride:
        base -= np.arange(count, dtype=np.uint64) * np.uint64(stride)
    diff = ptrs.astype(np.uint64) - base
    if width == 4:
        return (diff & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32).astype(np.int64)
    return diff.view(np.int64)


class _AddressMap:
    """``InstrProfSymtab``'s address maps of one raw profile, as sorted numpy arrays.

    Indirect-call targets are function addresses: the record whose
    FunctionPointer equals the address gives the NameRef (first record in
    file order wins on duplicates).  VTable targets are address points inside
    a vtable: closed interval ``[VTablePointer, VTablePointer + VTableSize]``.
    Anything unmatched becomes 0, LLVM's "external symbol".
    """

    def __init__(self, data: npt.NDArray[np.void], vtables: npt.NDArray[np.void]) -> None:
        pointers = data["function_pointer"].astype(np.uint64)
        known = pointers != 0
        self.addresses, first = np.unique(pointers[known], return_index=True)
        self.refs = data["name_ref"].astype(np.uint64)[known][first]
        starts = vtables["vtable_pointer"].astype(np.uint64)
        known = starts != 0
        order = np.argsort(starts[known], kind="stable")
        self.vtable_starts = starts[known][order]
        self.vtable_ends = (
            self.vtable_starts + vtables["vtable_size"].astype(np.uint64)[known][order]
        )
        self.vtable_refs = vtables["vtable_name_hash"].astype(np.uint64)[known][order]

    def translate(self, kind: int, values: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
        if kind == ValueKind.INDIRECT_CALL_TARGET:
            if not len(self.addresses):
                return np.zeros_like(values)
            idx = np.minimum(np.searchsorted(self.addresses, values), len(self.addresses) - 1)
            return np.where(self.addresses[idx] == values, self.refs[idx], np.uint64(0))
        if kind == ValueKind.VTABLE_TARGET:
            if not len(self.vtable_starts):
                return np.zeros_like(values)
            idx = np.searchsorted(self.vtable_starts, values, side="right") - 1
            safe = np.maximum(idx, 0)
            hit = (idx >= 0) & (values <= self.vtable_ends[safe])
            return np.where(hit, self.vtable_refs[safe], np.uint64(0))
        return values


class _ProfileReader:
    """One header and the sections it describes, checked in ``RawInstrProfReader``'s order."""

    def __init__(
        self,
        cur: ByteReader,
        start: int,
        width: int,
        *,
        first: bool,
        correlation: CorrelationSource | None = None,
    ) -> None:
        self.cur = cur
        self.start = start
        self.layout, self.header = self._read_header(width, first)
        self.regions = {s.name: s for s in sections(self.layout, self.header, start)}
        self.correlation: Correlation | None = None
        #: ``--correlate``: gives the correlation of the binary the profile's build ID names
        self.by_build_id: Callable[[Sequence[bytes]], Correlation] | None = None
        if correlation is None or isinstance(correlation, Correlation):
            self.correlation = correlation
        else:
            self.by_build_id = correlation
        self.correlated = correlation is not None or is_lightweight(self.header)
        #: what ``RawInstrProfReader`` delivered before a bad data record: the records
        #: before it (llvm-profdata merges and prints them before failing)
        self.partial: _RawPart | None = None

    def _read_header(self, width: int, first: bool) -> tuple[RawLayout, RawHeader]:
        cur, start = self.cur, self.start
        available = cur.end - start
        if available < 16:
            cur.fail(
                HeaderCorruptError,
                "the file is too short for a raw profile header",
                field="header.version",
                expected="at least 16 bytes",
                found=f"{available} bytes",
                at=start + 8 * (available // 8),
            )
        cur.pos = start + 8
        word = cur.u64("header.version")
        version = word & VERSION_MASK
        if version not in SUPPORTED_VERSIONS:
            cur.fail(
                RawVersionError,
                f"raw profile version {version} is not one of {SUPPORTED_VERSIONS}",
                field="header.version",
                expected=" or ".join(map(str, SUPPORTED_VERSIONS)),
                found=str(version),
                at=start + 8,
            )
        layout = raw_layout(version, width, cur.order)
        if available < layout.header_size:
            cur.fail(
                HeaderCorruptError if first else MalformedError,
                f"the file ends inside a version {version} header",
                field=f"header.{layout.header_fields[available // 8]}",
                expected=f"{layout.header_size} header bytes",
                found=f"{available} bytes",
                at=start + 8 * (available // 8),
                llvm_message=None
                if first
                else f"{_MALFORMED}: not enough space for another header",
            )
        cur.pos = start
        header = RawHeader.from_words(layout, cur.words(len(layout.header_fields), "header"))
        return layout, header

    def _field_offset(self, name: str) -> int:
        return self.start + 8 * self.layout.header_fields.index(name)

    def _check_binary_ids_size(self) -> None:
        """``readHeader``'s first bad_header test: whole words of binary ids, inside the file.

        Version 7 (LLVM 13, the only reader of it) has no word test: its runtime writes each
        id unpadded (a 32-bit program's 20-byte build id gives 28 bytes) and the data follow.
        """
        cur, header = self.cur, self.header
        if header.binary_ids_size % 8 and self.layout.version >= 8:
            cur.fail(
                HeaderCorruptError,
                "the binary-id section size is not a multiple of 8",
                field="header.binary_ids_size",
                expected="a multiple of 8",
                found=str(header.binary_ids_size),
                at=self._field_offset("binary_ids_size"),
            )
        ids = self.regions["binary_ids"]
        if ids.end > cur.end:
            cur.fail(
                HeaderCorruptError,
                "the header's BinaryIdsSize puts the binary-id section past the end of the file",
                field="binary_ids",
                expected=f"{ids.size} bytes",
                found=f"{cur.end - ids.start} bytes",
                at=ids.start,
            )

    def _check_regions(self) -> None:
        cur = self.cur
        for region in self.regions.values():
            if region.end > cur.end:
                cur.fail(
                    HeaderCorruptError,
                    f"the header's sizes put the {region.name} section past the end of the file",
                    field=region.name,
                    expected=f"{region.size} bytes",
                    found=f"{max(cur.end - region.start, 0)} bytes",
                    at=min(region.start, cur.end),
                )

    def _binary_ids(self) -> list[bytes]:
        region = self.regions["binary_ids"]
        padded = self.layout.version >= 8
        return read_binary_id_entries(self.cur, region.start, region.end, padded=padded)

    def _names(self, region: Section) -> NameTable:
        """``InstrProfSymtab::create``: decode the chunks; an empty name is malformed."""
        if not region.size:
            return NameTable([])
        return NameTable(read_names_as_llvm(self.cur, region.start, region.end, region.name))

    def _array(self, region: Section, dtype: np.dtype[np.void], count: int) -> npt.NDArray[np.void]:
        return np.frombuffer(self.cur.data, dtype=dtype, count=count, offset=region.start)

    def parse(self) -> _RawPart:
        self._check_binary_ids_size()
        binary_ids = self._binary_ids()
        self._check_regions()
        if self.by_build_id is not None:
            self.correlation = self.by_build_id(binary_ids)
        names = self._names(self.regions["names"])
        vtable_names = self._names(self.regions["vnames"])
        data = self._array(self.regions["data"], self.layout.data_dtype, self.header.num_data)
        vtables = self._array(
            self.regions["vtables"], self.layout.vtable_dtype, self.header.num_vtables
        )
        if self.correlated:
            data, names = correlated_sections(
                self.cur, self.start, self.layout, self.header, self.correlation
            )
            vtables, vtable_names = vtables[:0], NameTable([])
        reader = _RecordReader(self, data, vtables, names)
        try:
            columns, end = reader.read()
        except ProfdataError:
            if reader.failed is not None:  # the records before the bad one were read
                good = reader.first(reader.failed)
                good_columns, good_end = good.read()
                # a record whose value data fails had its counters (and timestamp) read
                stamped = reader.first(reader.failed + 1) if reader.failed_in_values else good
                self.partial = _RawPart(
                    self.header, self.layout.header_size, good_columns, good.records,
                    binary_ids, names, vtable_names, stamped.timestamps(), good_end,
                )  # fmt: skip
            raise
        return _RawPart(
            self.header,
            self.layout.header_size,
            columns,
            reader.records,
            binary_ids,
            names,
            vtable_names,
            reader.timestamps(),
            end,
            reader.table,
        )


class _RecordReader:
    """Counters, bitmaps and value data of one raw profile's data records."""

    def __init__(
        self,
        profile: _ProfileReader,
        data: npt.NDArray[np.void],
        vtables: npt.NDArray[np.void],
        names: NameTable,
    ) -> None:
        self.cur = profile.cur
        self.layout = layout = profile.layout
        self.data = data
        self.addresses = _AddressMap(data, vtables)
        self.names = names
        self.data_start = profile.regions["data"].start
        self.counters = profile.regions["counters"]
        self.bitmap = profile.regions["bitmap"]
        self.value_start = profile.regions["vnames_padding"].end
        self.temporal = bool(profile.header.kind & ProfileKind.TEMPORAL)
        self.width = profile.header.counter_width
        header = profile.header
        self.num_counters = data["num_counters"].astype(np.int64)
        stride = 0 if profile.correlated else layout.counter_stride
        self.offsets = _signed_offsets(
            data["counter_ptr"], header.counters_delta, stride, layout.width
        )
        if layout.has_bitmap:
            self.num_bitmap = data["num_bitmap_bytes"].astype(np.int64)
            self.boffsets = _signed_offsets(
                data["bitmap_ptr"], header.bitmap_delta, layout.data_size, layout.width
            )
        else:
            self.num_bitmap = self.boffsets = np.zeros(len(data), dtype=np.int64)
        if layout.maybe_trunk_relative and self._first_bad_record() < len(data):
            absolute = self.offsets
            self.offsets = _signed_offsets(
                data["counter_ptr"], header.counters_delta, layout.data_size, layout.width
            )
            if self._first_bad_record() < len(data):
                self.offsets = absolute
        self.pair_dtype = np.dtype([("value", layout.word_dtype), ("count", layout.word_dtype)])
        #: the data record :meth:`read` failed at (LLVM reads them in order)
        self.failed: int | None = None
        self.failed_in_values = False
        self._checking = 0

    def first(self, count: int) -> _RecordReader:
        """A reader of the first ``count`` records only (indirect-call targets still
        resolved against every record, as ``createSymtab`` does)."""
        part = copy.copy(self)
        part.data = self.data[:count]
        part.num_counters = self.num_counters[:count]
        part.offsets = self.offsets[:count]
        part.num_bitmap = self.num_bitmap[:count]
        part.boffsets = self.boffsets[:count]
        part.failed = None
        return part

    def _field_at(self, index: int, name: str) -> int:
        return self.data_start + index * self.layout.data_size + self.layout.data_offset(name)

    def _first_bad_record(self) -> int:
        """The first record whose counters or bitmap fall outside their sections (vectorized)."""
        num, offsets = self.num_counters, self.offsets
        size = self.counters.size
        safe = np.maximum(offsets, 0)
        bad = (num == 0) | (offsets < 0) | (offsets >= size) | (num > (size - safe) // self.width)
        if self.temporal:
            bad |= safe + 8 > size
        nbytes, boffsets, bsize = self.num_bitmap, self.boffsets, self.bitmap.size
        bsafe = np.maximum(boffsets, 0)
        bad |= (nbytes > 0) & ((boffsets < 0) | (boffsets >= bsize) | (nbytes > bsize - bsafe))
        hits = np.flatnonzero(bad)
        return int(hits[0]) if len(hits) else len(num)

    def _fail_malformed(
        self, detail: str, llvm_detail: str, field: str, at: int, expected: str, found: str
    ) -> NoReturn:
        self.cur.fail(
            MalformedError,
            detail,
            field=field,
            expected=expected,
            found=found,
            at=at,
            llvm_message=f"{_MALFORMED}: {llvm_detail}",
        )

    def _fail_record(self, index: int) -> NoReturn:
        """The error of ``readRawCounts`` / ``readRawBitmapBytes`` for a record that failed."""
        num, offset = int(self.num_counters[index]), int(self.offsets[index])
        size, width = self.counters.size, self.width
        where = f"data record {index}"
        ptr_field, ptr_at = f"data[{index}].counter_ptr", self._field_at(index, "counter_ptr")
        num_field, num_at = f"data[{index}].num_counters", self._field_at(index, "num_counters")
        span = f"an offset in [0, {size})"
        if num == 0:
            self._fail_malformed(
                f"{where} has no counters", "number of counters is zero",
                num_field, num_at, ">= 1", "0",
            )  # fmt: skip
        if offset < 0:
            self._fail_malformed(
                f"{where}: CounterPtr points before the counters section",
                f"counter offset {offset} is negative", ptr_field, ptr_at, span, str(offset),
            )  # fmt: skip
        if offset >= size:
            self._fail_malformed(
                f"{where}: CounterPtr points past the counters section",
                f"counter offset {offset} is greater than the maximum counter offset {size - 1}",
                ptr_field, ptr_at, span, str(offset),
            )  # fmt: skip
        room = (size - offset) // width
        if num > room:
            self._fail_malformed(
                f"{where}: its counters run past the counters section",
                f"number of counters {num} is greater than the maximum number of counters {room}",
                num_field, num_at, f"<= {room}", str(num),
            )  # fmt: skip
        nbytes, boffset, bsize = (
            int(self.num_bitmap[index]), int(self.boffsets[index]), self.bitmap.size,
        )  # fmt: skip
        if self.temporal and offset + 8 > size:
            self.cur.fail(
                MalformedError,
                f"{where}: the 8-byte timestamp of a temporal profile runs past the counters",
                field=num_field,
                expected=f"{offset + 8} counter bytes",
                found=f"{size} bytes",
                at=ptr_at,
            )
        bptr_field, bptr_at = f"data[{index}].bitmap_ptr", self._field_at(index, "bitmap_ptr")
        bspan = f"an offset in [0, {bsize})"
        if boffset < 0:
            self._fail_malformed(
                f"{where}: BitmapPtr points before the bitmap section",
                f"bitmap offset {boffset} is negative", bptr_field, bptr_at, bspan, str(boffset),
            )  # fmt: skip
        if boffset >= bsize:
            self._fail_malformed(
                f"{where}: BitmapPtr points past the bitmap section",
                f"bitmap offset {boffset} is greater than the maximum bitmap offset {bsize - 1}",
                bptr_field, bptr_at, bspan, str(boffset),
            )  # fmt: skip
        broom = bsize - boffset
        self._fail_malformed(
            f"{where}: its bitmap bytes run past the bitmap section",
            f"number of bitmap bytes {nbytes} is greater than the maximum number of bitmap "
            f"bytes {broom}",
            f"data[{index}].num_bitmap_bytes", self._field_at(index, "num_bitmap_bytes"),
            f"<= {broom}", str(nbytes),
        )  # fmt: skip

    # -- value data ----------------------------------------------------------
    def _check_value_blob(self, pos: int, index: int) -> int:
        """Check one ``ValueProfData`` as ``getValueProfData`` + ``checkIntegrity`` do; its end.

        The located error of a bad blob comes from here; :mod:`raw_values`
        finds the bad blobs and decodes the good ones in bulk.
        """
        cur = self.cur
        self._checking = index
        fld = f"value_data[{index}]"
        left = cur.end - pos
        if left < 8:
            cur.fail(
                TruncatedError,
                f"the value data of data record {index} is cut off",
                field=f"{fld}.total_size",
                expected="8 bytes",
                found=f"{left} bytes",
                at=pos,
            )
        cur.pos = pos
        total = cur.u32(f"{fld}.total_size")
        # LLVM copies TotalSize bytes over a zeroed header: a shorter blob has no kinds
        num_kinds = cur.u32(f"{fld}.num_value_kinds") if total >= 8 else 0
        if total > left:
            cur.fail(
                TooMuchDataError,
                f"the value data of data record {index} runs past the end of the file",
                field=f"{fld}.total_size",
                expected=f"<= {left}",
                found=str(total),
                at=pos,
            )
        if num_kinds > _IPVK_LAST + 1:
            self._fail_malformed(
                f"data record {index} claims {num_kinds} value kinds",
                "number of value profile kinds is invalid",
                f"{fld}.num_value_kinds", pos + 4, f"<= {_IPVK_LAST + 1}", str(num_kinds),
            )  # fmt: skip
        if total % 8:
            self._fail_malformed(
                f"the value data of data record {index} has an impossible size",
                "total size is not multiples of quardword",
                f"{fld}.total_size", pos, "a multiple of 8", str(total),
            )  # fmt: skip
        end = pos + total
        rec = pos + 8
        for k in range(num_kinds):
            kfld = f"{fld}.records[{k}]"
            if rec + 8 > end:
                self._overrun(index, f"{kfld}.kind", rec, end)
            kind, num_sites = struct.unpack_from(f"{cur.order}II", cur.data, rec)
            if kind > _IPVK_LAST:
                self._fail_malformed(
                    f"the value data of data record {index} has an unknown value kind",
                    "value kind is invalid", f"{kfld}.kind", rec, f"<= {_IPVK_LAST}", str(kind),
                )  # fmt: skip
            if rec + 8 + num_sites > end:
                self._overrun(index, f"{kfld}.site_count_array", rec + 8, end)
            head = 8 + num_sites + pad8(8 + num_sites)
            num_values = sum(cur.data[rec + 8 : rec + 8 + num_sites])
            if rec + head + 16 * num_values > end:
                self._overrun(index, f"{kfld}.value_data", rec + head, end)
            rec += head + 16 * num_values
        return end

    def _overrun(self, index: int, field: str, at: int, end: int) -> NoReturn:
        self._fail_malformed(
            f"a value-profile record of data record {index} runs past its TotalSize",
            "value profile address is greater than total size",
            field, at, f"inside the blob ending at {end}", "past it",
        )  # fmt: skip

    # -- records -------------------------------------------------------------
    def _scan_value_blobs(self, rows: list[int]) -> int:
        """Check the value data of ``rows`` as LLVM reads it; where it ends.

        Each blob's size says where the next one starts, so only that chain
        is followed in Python; :func:`~profdata.formats.raw_values.scan_blobs`
        reads the blobs' insides with numpy, and the first bad blob is handed
        to :meth:`_check_value_blob` for its located error.  The sites are
        decoded only when records are built (:meth:`records`).
        """
        cur = self.cur
        data, size = cur.data, cur.end
        chain = chain_starts(cur, self.value_start, len(rows))
        if chain is not None:
            self.blob_rows = rows
            self.blobs = scan_blobs(cur, chain)
            for bad in self.blobs.bad.tolist():
                self._check_value_blob(int(chain[bad]), rows[bad])
            last = int(chain[-1])
            return last + int(struct.unpack_from(f"{cur.order}I", data, last)[0])
        unpack = struct.Struct(f"{cur.order}I").unpack_from
        starts: list[int] = []
        kept: list[int] = []
        pos = self.value_start
        broken = None  # the first blob whose size is already wrong
        for index in rows:
            if size - pos < 8:
                broken = index
                break
            (total,) = unpack(data, pos)
            if total == 0:
                continue  # LLVM reads an empty ValueProfData: no value data, nothing skipped
            if total < 8 or total % 8 or total > size - pos:
                broken = index
                break
            starts.append(pos)
            kept.append(index)
            pos += total
        self.blob_rows = kept
        self.blobs = scan_blobs(cur, np.array(starts, dtype=np.int64))
        for bad in self.blobs.bad.tolist():
            self._check_value_blob(starts[bad], self.blob_rows[bad])
        if broken is not None:
            self._check_value_blob(pos, broken)
        return pos

    def _counter_columns(self) -> tuple[Counts, npt.NDArray[np.int64]]:
        """Counters of every record, concatenated, and how many each record has.

        Records usually own consecutive counters, so the result is a view of
        the counters section itself.
        """
        cur, region = self.cur, self.counters
        skip = (8 // self.width) if self.temporal else 0
        lengths = np.maximum(self.num_counters - skip, 0)
        if not region.size:
            return np.zeros(0, dtype=np.uint64), np.zeros(len(lengths), dtype=np.int64)
        if self.width == 1:
            raw = np.frombuffer(cur.data, dtype=np.uint8, count=region.size, offset=region.start)
            section = (raw == 0).astype(np.uint64)  # single-byte coverage: 0 means executed
            starts = self.offsets + skip
        elif not (self.offsets % 8).any():
            section = np.frombuffer(
                cur.data, dtype=self.layout.word_dtype, count=region.size // 8, offset=region.start
            ).astype(np.uint64, copy=False)
            starts = self.offsets // 8 + skip
        else:
            counts = [
                np.frombuffer(
                    cur.data, dtype=self.layout.word_dtype, count=max(n - skip, 0),
                    offset=region.start + o + 8 * skip,
                ).astype(np.uint64, copy=False)
                for o, n in zip(self.offsets.tolist(), self.num_counters.tolist(), strict=True)
            ]  # fmt: skip
            return np.concatenate(counts) if counts else np.zeros(0, np.uint64), lengths
        total = int(lengths.sum())
        if not len(starts) or (bool(np.all(starts[1:] == starts[:-1] + lengths[:-1]))):
            first = int(starts[0]) if len(starts) else 0
            return section[first : first + total], lengths
        return section[spans(starts, lengths)], lengths

    def timestamps(self) -> list[tuple[int, int]]:
        """(timestamp, NameRef) of every called function of a temporal profile."""
        if not self.temporal or not len(self.data):
            return []
        region = self.counters
        raw = np.frombuffer(self.cur.data, dtype=np.uint8, count=region.size, offset=region.start)
        gathered = raw[self.offsets[:, None] + np.arange(8)]
        stamps = np.ascontiguousarray(gathered).view(self.layout.word_dtype)[:, 0]
        stamps = stamps.astype(np.uint64)
        called = (stamps != np.uint64(UNSET_TIMESTAMPS[0])) & (
            stamps != np.uint64(UNSET_TIMESTAMPS[1])
        )
        refs = self.data["name_ref"][called].tolist()
        return list(zip(stamps[called].tolist(), refs, strict=True))

    def read(self) -> tuple[RecordColumns, int]:
        """Check the records as ``RawInstrProfReader`` does; their columns, and the data end."""
        count = len(self.data)
        stop = self._first_bad_record()
        has_values = np.flatnonzero((self.data["num_value_sites"] != 0).any(axis=1))
        try:
            end = self._scan_value_blobs(has_values[has_values < stop].tolist())
        except ProfdataError:
            self.failed, self.failed_in_values = self._checking, True
            raise
        if stop < count:
            self.failed = stop
            self._fail_record(stop)
        counts, lengths = self._counter_columns()
        refs = self.data["name_ref"]

        def names() -> list[str]:
            return self.names.names_of(refs.astype(np.uint64))

        columns = RecordColumns(
            names,
            self.data["func_hash"].astype(np.uint64),
            counts,
            lengths,
        )
        self.columns = columns
        return columns, end

    def table(self) -> RecordTable:
        """:meth:`records` as a table, built from the sections with no record objects."""
        columns = self.columns
        raw = np.frombuffer(self.cur.data, dtype=np.uint8)
        bitmaps = raw[spans(self.bitmap.start + self.boffsets, self.num_bitmap)]
        rows = replace(self.blobs, blob=np.array(self.blob_rows, dtype=np.int64)[self.blobs.blob])
        values = value_columns(self.cur.data, self.cur.order, rows, self.addresses.translate)
        return RecordTable(columns, self.num_bitmap.copy(), bitmaps, values)

    def records(self) -> list[InstrRecord]:
        """The records of :meth:`read`'s columns, value sites and bitmaps decoded."""
        columns = self.columns
        count = len(columns)
        bitmaps = [b""] * count
        for index in np.flatnonzero(self.num_bitmap).tolist():
            start = self.bitmap.start + int(self.boffsets[index])
            bitmaps[index] = bytes(self.cur.data[start : start + int(self.num_bitmap[index])])
        sites: list[ValueSites] = [{}] * count
        decoded = decode_sites(
            self.cur.data, self.cur.order, self.blobs, len(self.blob_rows), self.addresses.translate
        )
        for index, blob_sites in zip(self.blob_rows, decoded, strict=True):
            sites[index] = blob_sites
        counts = columns.counts
        ends = (columns.starts + columns.lengths).tolist()
        return [
            InstrRecord(name, fhash, counts[start:end], bitmap, site)
            for name, fhash, start, end, bitmap, site in zip(
                columns.names, columns.hashes.tolist(), columns.starts.tolist(), ends,
                bitmaps, sites, strict=True,
            )
        ]  # fmt: skip


register(InstrFormat("raw", sniff, read))
