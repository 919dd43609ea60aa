"""The data records of one raw profile: counters, bitmaps and value data, checked as
``RawInstrProfReader::readNextRecord`` checks them.

:mod:`profdata.formats.raw` reads a raw profile's headers and sections and
hands each profile's data records to :class:`RecordReader`: counter and
bitmap offsets of all records are computed and bounds-checked at once, the
value-profile blobs are followed along the chain of their sizes and checked
with numpy (:mod:`profdata.formats.raw_values`), and the first bad record
fails with the error line LLVM prints for it (the records before it stay
readable, as llvm-profdata merges and prints them).
"""

from __future__ import annotations

import copy
import struct
from dataclasses import replace
from typing import TYPE_CHECKING, NoReturn

import numpy as np
import numpy.typing as npt

from profdata.errors import (
    MalformedError,
    ProfdataError,
    TooMuchDataError,
    TruncatedError,
)
from profdata.formats._binary import pad8
from profdata.formats.raw_call_targets import function_addresses
from profdata.formats.raw_layout import UNSET_TIMESTAMPS
from profdata.formats.raw_profile import NameTable
from profdata.formats.raw_values import (
    ValueSites,
    chain_starts,
    decode_sites,
    scan_blobs,
    value_columns,
)
from profdata.formats.raw_vtable_map import VTableMap
from profdata.model.instr import Counts, InstrRecord, RecordColumns, spans
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.record_table import RecordTable

if TYPE_CHECKING:
    from profdata.formats.raw import ProfileReader

__all__ = ["AddressMap", "RecordReader", "signed_offsets"]

_MALFORMED = MalformedError.llvm_message
_IPVK_LAST = int(max(ValueKind))
_MAX_U64 = 0xFFFFFFFFFFFFFFFF


def signed_offsets(
    ptrs: npt.NDArray[np.unsignedinteger], delta: int, stride: int, width: int
) -> npt.NDArray[np.int64]:
    """``Ptr_i - (Delta - i*stride)`` for every record, modulo the pointer width, sign-extended.

    v8+ pointers are relative to their own data record, so ``Delta`` drops by
    ``D`` per record (``advanceData``); v5/v7 pointers and deltas are absolute
    (stride 0).  Wrapping in pointer width gives LLVM's numbers for every real
    file and stays right for 32-bit programs with an unusual section order.
    A 32-bit runtime writes ``Delta`` zero-extended: one with a bit above the
    low 32 is damage, and its offsets are LLVM's 64-bit differences, which its
    bounds checks refuse with LLVM's numbers ("counter offset -17179869184 is
    negative").
    """
    count = len(ptrs)
    base = np.full(count, delta & _MAX_U64, dtype=np.uint64)
    if stride:
        base -= np.arange(count, dtype=np.uint64) * np.uint64(stride)
    diff = ptrs.astype(np.uint64) - base
    if width == 4 and not (delta & _MAX_U64) >> 32:
        return (diff & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32).astype(np.int64)
    return diff.view(np.int64)


def _llvm_offset(ptr: int | np.unsignedinteger, delta: int, stride: int, index: int) -> int:
    """``ptrdiff_t Offset = swap(Data->CounterPtr) - CountersDelta`` of record ``index``:
    the pointer (32 bits in a 32-bit profile) less the 64-bit delta, in 64 bits.  A record
    that :func:`signed_offsets` (which wraps in 32 bits, reading 32-bit profiles whose
    data precede their counters) finds out of bounds fails with these numbers."""
    value = (int(ptr) - ((delta - index * stride) & _MAX_U64)) & _MAX_U64
    return value - (1 << 64) if value >> 63 else value


class AddressMap:
    """``InstrProfSymtab``'s address maps of one raw profile, as sorted numpy arrays.

    Indirect-call targets are function addresses: the record whose
    FunctionPointer equals the address gives the NameRef (on duplicates, the one
    ``std::sort`` leaves first: :func:`function_addresses`).  VTable targets are
    address points inside a vtable: closed interval ``[VTablePointer, VTablePointer +
    VTableSize]``, found as LLVM's ``IntervalMap`` finds it
    (:mod:`profdata.formats.raw_vtable_map`).
    Anything unmatched becomes 0, LLVM's "external symbol".
    """

    def __init__(self, data: npt.NDArray[np.void], vtables: npt.NDArray[np.void]) -> None:
        pointers = data["function_pointer"].astype(np.uint64)
        self.addresses, self.refs = function_addresses(pointers, data["name_ref"], pointers != 0)
        vtable_pointers = vtables["vtable_pointer"]
        self.vtables = VTableMap(
            vtable_pointers.astype(np.uint64),
            vtables["vtable_size"].astype(np.uint64),
            vtables["vtable_name_hash"].astype(np.uint64),
            8 * vtable_pointers.dtype.itemsize,
        )

    def translate(self, kind: int, values: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
        if kind == ValueKind.INDIRECT_CALL_TARGET:
            if not len(self.addresses):
                return np.zeros_like(values)
            idx = np.minimum(np.searchsorted(self.addresses, values), len(self.addresses) - 1)
            return np.where(self.addresses[idx] == values, self.refs[idx], np.uint64(0))
        if kind == ValueKind.VTABLE_TARGET:
            return self.vtables.lookup(values)
        return values


class RecordReader:
    """Counters, bitmaps and value data of one raw profile's data records."""

    def __init__(
        self,
        profile: ProfileReader,
        data: npt.NDArray[np.void],
        vtables: npt.NDArray[np.void],
        names: NameTable,
    ) -> None:
        self.cur = profile.cur
        self.layout = layout = profile.layout
        self.data = data
        self.addresses = AddressMap(data, vtables)
        self.names = names
        self.data_start = profile.regions["data"].start
        self.counters = profile.regions["counters"]
        self.bitmap = profile.regions["bitmap"]
        self.value_start = profile.regions["vnames_padding"].end
        self.temporal = bool(profile.header.kind & ProfileKind.TEMPORAL)
        #: ``IPVK_Last`` of the reading release: a later kind is invalid there
        self.last_kind = _IPVK_LAST if profile.release is None else profile.release.max_value_kind
        self.width = profile.header.counter_width
        self.header = header = profile.header
        self.num_counters = data["num_counters"].astype(np.int64)
        stride = 0 if profile.correlated else layout.counter_stride
        self.offsets = signed_offsets(
            data["counter_ptr"], header.counters_delta, stride, layout.width
        )
        self.counter_stride = stride  # which ``advanceData`` step made :attr:`offsets`
        if layout.has_bitmap:
            self.num_bitmap = data["num_bitmap_bytes"].astype(np.int64)
            self.boffsets = signed_offsets(
                data["bitmap_ptr"], header.bitmap_delta, layout.data_size, layout.width
            )
        else:
            self.num_bitmap = self.boffsets = np.zeros(len(data), dtype=np.int64)
        if layout.maybe_trunk_relative and self._first_bad_record() < len(data):
            absolute = self.offsets
            self.offsets = signed_offsets(
                data["counter_ptr"], header.counters_delta, layout.data_size, layout.width
            )
            self.counter_stride = layout.data_size
            if self._first_bad_record() < len(data):
                self.offsets, self.counter_stride = absolute, stride
        self.pair_dtype = np.dtype([("value", layout.word_dtype), ("count", layout.word_dtype)])
        #: the data record :meth:`read` failed at (LLVM reads them in order)
        self.failed: int | None = None
        self.failed_in_values = False
        self._checking = 0

    def first(self, count: int) -> RecordReader:
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
        header = self.header
        if self.layout.width == 4:  # LLVM's numbers: a u32 pointer less a u64 delta
            offset = _llvm_offset(
                self.data["counter_ptr"][index], header.counters_delta, self.counter_stride, index
            )
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
                f"{where}: CounterPtr points past the counters section"
                if size >= 0
                else f"{where}: the header's NumCounters wraps the counters section to "
                f"{size} bytes, where no CounterPtr can point",
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
        if self.layout.width == 4 and self.layout.has_bitmap:
            boffset = _llvm_offset(
                self.data["bitmap_ptr"][index], header.bitmap_delta, self.layout.data_size, index
            )
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
        if num_kinds > self.last_kind + 1:
            self._fail_malformed(
                f"data record {index} claims {num_kinds} value kinds",
                "number of value profile kinds is invalid",
                f"{fld}.num_value_kinds", pos + 4, f"<= {self.last_kind + 1}", str(num_kinds),
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
            if kind > self.last_kind:
                self._fail_malformed(
                    f"the value data of data record {index} has an unknown value kind",
                    "value kind is invalid", f"{kfld}.kind", rec, f"<= {self.last_kind}",
                    str(kind),
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
            self.blobs = scan_blobs(cur, chain, self.last_kind)
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
        self.blobs = scan_blobs(cur, np.array(starts, dtype=np.int64), self.last_kind)
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
        if region.size <= 0:  # no record's counters lie in a section of negative size
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
        # the names are made on first use from the name section and the refs, not from
        # this reader: the columns it keeps must not hold it (a reference cycle kept every
        # input's reader and mapped file of a merge alive until the cycle collector ran);
        # the refs are copied, since a view of them holds the mapped file too
        name_table, refs = self.names, self.data["name_ref"].astype(np.uint64)

        def names() -> list[str]:
            return name_table.names_of(refs)

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
