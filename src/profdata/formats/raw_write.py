"""Raw profile writer: what compiler-rt's ``__llvm_profile_write_file`` writes for a profile.

For people writing their own profile runtime (a reference dump to compare
against) and for tests (every raw variant from one model).  The layout rules
are ``shared/spec/instr-raw.md`` §14, checked against real files of clang 14,
16, 19 and 22: given the same names and counters, every section except the
addresses is byte-identical to what those runtimes wrote.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from profdata.errors import UsageError
from profdata.formats._binary import ByteOrder, ByteWriter, pad8
from profdata.formats._names import write_name_chunk
from profdata.formats.raw_layout import (
    SUPPORTED_VERSIONS,
    RawHeader,
    RawLayout,
    magic_for,
    raw_layout,
)
from profdata.model.instr import InstrProfile, ValueSite
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_hash


@dataclass(frozen=True)
class _AddressSpace:
    """Where the synthetic program keeps its sections (close to x86-64 / i386 Linux PIEs)."""

    text: int  # first function; one every _FUNCTION_ALIGN bytes
    vtables: int
    names: int
    data: int  # __llvm_prf_data; counters and bitmap bytes sit right below it
    values: int  # the runtime's value-profile nodes
    external: int  # an uninstrumented library function or vtable


_ADDRESS_SPACES = {
    8: _AddressSpace(
        text=0x5555_5555_6000, vtables=0x5555_5556_0000, names=0x5555_5555_D000,
        data=0x5555_5556_8000, values=0x5555_5557_0000, external=0x7FFF_F7C0_0000,
    ),
    4: _AddressSpace(
        text=0x5655_6000, vtables=0x5656_0000, names=0x5655_D000,
        data=0x5656_8000, values=0x5657_0000, external=0xF7C0_0000,
    ),
}  # fmt: skip
_FUNCTION_ALIGN = 0x10
_VTABLE_STRIDE = 0x40
_VTABLE_SIZE = 0x30  # offset-to-top, RTTI and four virtual functions
_VTABLE_ADDRESS_POINT = 0x10  # where a vptr points: past offset-to-top and RTTI
_MAX_SITES = 0xFFFF  # NumValueSites entries are u16
_MAX_SITE_VALUES = 0xFF  # SiteCountArray entries are u8 (the runtime stops at 255)


def write(
    profile: InstrProfile,
    *,
    version: int = 10,
    width: int = 8,
    byteorder: ByteOrder = "<",
    compress_names: bool = True,
) -> bytes:
    """``profile`` as one raw profile of the given version, pointer width and byte order.

    Sections follow ``instr-raw.md`` §14: counters right below the data records
    in memory (bitmap bytes right below the counters), deltas and
    CounterPtr/BitmapPtr computed from that placement, names compressed with
    zlib level 9 unless ``compress_names`` is false, one value-profile blob per
    record with value sites, and raw v8's unpadded single-byte counters.
    Simplifications against a real program:

    * all function names go into one name chunk in record order (the runtime
      writes one chunk per translation unit); a record named ``""`` (an
      unresolved NameRef) keeps no name; other ``symbols`` follow the records'
      names, as names of functions whose counters the compiler dropped do;
    * every record gets a distinct synthetic FunctionPointer (compilers leave
      it 0 when the address is never needed) and every vtable a synthetic
      address; indirect-call targets become the address of the first record
      with that name hash and vtable targets an address point inside the
      vtable with that hash, so the reader maps them back -- a target that is
      0 or names no record or vtable becomes an uninstrumented address and
      reads back as 0, as a library function's does;
    * single-byte coverage counters store "covered" for any non-zero count;
    * a temporal profile's trace becomes timestamps 1, 2, ... in trace order
      (other functions get 0, "never called"); the weight is not stored.

    Raises :class:`~profdata.errors.UsageError` for what the variant cannot
    hold: bitmaps before v9, vtables before v10, binary ids in v5, records
    without counters, names containing 0x01, more than one trace, more than
    65535 sites of a kind or 255 values at a site.
    """
    if version not in SUPPORTED_VERSIONS or width not in (4, 8) or byteorder not in ("<", ">"):
        raise UsageError(
            f"cannot write a raw profile of version {version}, width {width}, byte order "
            f"{byteorder!r}: versions are {SUPPORTED_VERSIONS}, widths 8 and 4, orders < and >"
        )
    return _RawWriter(profile, raw_layout(version, width, byteorder), compress_names).write()


@dataclass(frozen=True)
class _Counters:
    """The counters section and, per record, its byte offset there and its NumCounters."""

    section: bytes
    offsets: list[int]
    num_counters: list[int]


class _RawWriter:
    """Builds the sections of one raw profile, then the header that describes them."""

    def __init__(self, profile: InstrProfile, layout: RawLayout, compress: bool) -> None:
        self.profile = profile
        self.layout = layout
        self.compress = compress
        self.records = list(profile.records)
        self.space = _ADDRESS_SPACES[layout.width]
        self.byte_coverage = bool(profile.kind & ProfileKind.SINGLE_BYTE_COVERAGE)
        self.temporal = bool(profile.kind & ProfileKind.TEMPORAL)
        self.name_refs = [md5_hash(r.name) for r in self.records]
        self.sites = [r.sites_by_kind() for r in self.records]
        self.vtable_names = list(dict.fromkeys(profile.vtable_names))
        self._check()

    def _check(self) -> None:
        layout, profile = self.layout, self.profile
        version = layout.version
        if profile.binary_ids and not layout.has_binary_ids:
            raise UsageError(f"raw version {version} has no binary-id section")
        if not all(profile.binary_ids):
            raise UsageError("a binary id is empty; LLVM rejects zero-length binary ids")
        if self.vtable_names and not layout.has_vtables:
            raise UsageError(f"raw version {version} has no vtable section")
        if len(profile.traces) > 1:
            raise UsageError("a raw profile holds at most one temporal trace")
        if profile.traces and not self.temporal:
            raise UsageError("temporal traces need the TEMPORAL flag in the profile kind")
        for name in [r.name for r in self.records] + self.vtable_names:
            if "\x01" in name:
                raise UsageError(f"name {name!r} contains the name separator byte 0x01")
        for record, record_sites in zip(self.records, self.sites, strict=True):
            where = f"record {record.name!r} (hash {record.hash:#x})"
            if not len(record.counts) and not self.temporal:
                raise UsageError(f"{where} has no counters; LLVM rejects NumCounters = 0")
            if record.bitmap and not layout.has_bitmap:
                raise UsageError(f"{where} has MC/DC bitmap bytes; raw version {version} has none")
            for kind, sites in record_sites.items():
                if kind >= layout.num_value_kinds:
                    raise UsageError(
                        f"{where} has {kind.name} sites; raw version {version} has none"
                    )
                if len(sites) > _MAX_SITES:
                    raise UsageError(f"{where} has more than {_MAX_SITES} {kind.name} sites")
                if any(len(site) > _MAX_SITE_VALUES for site in sites):
                    raise UsageError(f"{where} has a site with more than {_MAX_SITE_VALUES} values")

    # -- sections ------------------------------------------------------------
    def _timestamps(self) -> list[int]:
        """Per record, its position in the trace counted from 1, or 0 if not in the trace."""
        stamps = [0] * len(self.records)
        if not self.profile.traces:
            return stamps
        free: dict[int, list[int]] = {}
        for index, ref in enumerate(self.name_refs):
            free.setdefault(ref, []).append(index)
        for position, ref in enumerate(self.profile.traces[0].function_hashes, start=1):
            slots = free.get(ref)
            if not slots:
                raise UsageError(
                    f"the temporal trace names hash {ref:#x} more often than records have it"
                )
            stamps[slots.pop(0)] = position
        return stamps

    def _counters(self) -> _Counters:
        order, records = self.layout.order, self.records
        lengths = np.array([len(r.counts) for r in records], dtype=np.int64)
        values = np.concatenate(
            [np.zeros(0, np.uint64), *(np.asarray(r.counts, np.uint64) for r in records)]
        )
        if self.byte_coverage:
            body = np.where(values != 0, 0, 0xFF).astype(np.uint8)
        else:
            body = values.astype(f"{order}u8")
        if not self.temporal:
            offsets = (np.cumsum(lengths) - lengths) * body.itemsize
            return _Counters(body.tobytes(), offsets.tolist(), lengths.tolist())
        chunks: list[bytes] = []
        offsets_: list[int] = []
        nums: list[int] = []
        pos = start = 0
        for length, stamp in zip(lengths.tolist(), self._timestamps(), strict=True):
            if pad8(pos):  # the u64 timestamp of byte counters stays aligned
                chunks.append(bytes(pad8(pos)))
                pos += pad8(pos)
            chunk = struct.pack(f"{order}Q", stamp) + body[start : start + length].tobytes()
            start += length
            offsets_.append(pos)
            nums.append(len(chunk) // body.itemsize)
            chunks.append(chunk)
            pos += len(chunk)
        return _Counters(b"".join(chunks), offsets_, nums)

    def _bitmap_offsets(self) -> list[int]:
        """Where each record's bitmap bytes start (records without any point past the last)."""
        offsets: list[int] = []
        pos = 0
        for record in self.records:
            offsets.append(pos)
            pos += len(record.bitmap)
        return offsets

    def _function_names(self) -> list[str]:
        names = dict.fromkeys(r.name for r in self.records)
        vtables = set(self.vtable_names)
        for name in self.profile.symbols.values():
            if name not in vtables:
                names.setdefault(name, None)
        return list(names)

    def _names(self, names: list[str]) -> bytes:
        named = [n for n in names if n]
        if not named:
            return b""
        out = ByteWriter(self.layout.order)
        write_name_chunk(out, named, compress=self.compress)
        return out.getvalue()

    def _vtables(self) -> npt.NDArray[np.void]:
        table = np.zeros(len(self.vtable_names), dtype=self.layout.vtable_dtype)
        for index, name in enumerate(self.vtable_names):
            table[index] = (
                md5_hash(name),
                self.space.vtables + _VTABLE_STRIDE * index,
                _VTABLE_SIZE,
            )
        return table

    def _value_targets(self) -> dict[ValueKind, dict[int, int]]:
        """Name hash -> the address a value profiler would have seen, per target kind."""
        functions: dict[int, int] = {}
        for index, ref in enumerate(self.name_refs):
            functions.setdefault(ref, self.space.text + _FUNCTION_ALIGN * index)
        vtables: dict[int, int] = {}
        for index, name in enumerate(self.vtable_names):
            start = self.space.vtables + _VTABLE_STRIDE * index
            vtables.setdefault(md5_hash(name), start + _VTABLE_ADDRESS_POINT)
        return {ValueKind.INDIRECT_CALL_TARGET: functions, ValueKind.VTABLE_TARGET: vtables}

    def _value_blob(
        self, kinds: dict[ValueKind, list[ValueSite]], targets: dict[ValueKind, dict[int, int]]
    ) -> bytes:
        """One ``ValueProfData``: kinds in increasing order, every site present."""
        order = self.layout.order
        body = ByteWriter(order)
        for kind, sites in kinds.items():
            body.u32(int(kind))
            body.u32(len(sites))
            body.bytes(bytes(len(site) for site in sites))
            body.zeros(pad8(8 + len(sites)))
            mapping = targets.get(kind)
            pairs = [
                (v.value if mapping is None else mapping.get(v.value, self.space.external), v.count)
                for site in sites
                for v in site
            ]
            body.bytes(np.array(pairs, dtype=np.uint64).astype(f"{order}u8").tobytes())
        out = ByteWriter(order)
        out.u32(8 + len(body))
        out.u32(len(kinds))
        out.bytes(body.buf)
        return out.getvalue()

    def _binary_ids(self) -> bytes:
        """Each id's length and bytes; from version 8 padded to 8 (LLVM 13's runtime wrote
        version 7 ids unpadded)."""
        out = ByteWriter(self.layout.order)
        for bid in self.profile.binary_ids:
            out.u64(len(bid))
            out.bytes(bid)
            if self.layout.version >= 8:
                out.align8()
        return out.getvalue()

    def _data(
        self, counters: _Counters, counters_base: int, bitmap_base: int, has_values: list[bool]
    ) -> npt.NDArray[np.void]:
        """The data records; ``*_base`` are CountersDelta/BitmapDelta as signed numbers."""
        layout, records = self.layout, self.records
        count = len(records)
        mask = np.uint64(layout.pointer_mask)
        index = np.arange(count, dtype=np.int64)
        data = np.zeros(count, dtype=layout.data_dtype)
        data["name_ref"] = np.array(self.name_refs, dtype=np.uint64)
        data["func_hash"] = np.array([r.hash for r in records], dtype=np.uint64)
        ptrs = counters_base - index * layout.counter_stride + np.array(counters.offsets, np.int64)
        data["counter_ptr"] = ptrs.astype(np.uint64) & mask
        data["function_pointer"] = (self.space.text + _FUNCTION_ALIGN * index).astype(np.uint64)
        values = np.array(has_values, dtype=bool)
        nodes = self.space.values + _FUNCTION_ALIGN * np.cumsum(values)
        data["values"] = np.where(values, nodes, 0).astype(np.uint64) & mask
        data["num_counters"] = np.array(counters.num_counters, dtype=np.uint32)
        for row, record_sites in enumerate(self.sites):
            for kind, sites in record_sites.items():
                data["num_value_sites"][row, int(kind)] = len(sites)
        if layout.has_bitmap:
            bptrs = bitmap_base - index * layout.data_size + np.array(self._bitmap_offsets())
            data["bitmap_ptr"] = bptrs.astype(np.uint64) & mask if bitmap_base else 0
            data["num_bitmap_bytes"] = np.array([len(r.bitmap) for r in records], dtype=np.uint32)
        return data

    def write(self) -> bytes:
        layout, space, records = self.layout, self.space, self.records
        counters = self._counters()
        bitmap = b"".join(r.bitmap for r in records)
        names = self._names(self._function_names())
        vtables = self._vtables()
        vnames = self._names(self.vtable_names)
        csize = len(counters.section)
        counters_addr = space.data - csize - pad8(csize)
        bitmap_addr = counters_addr - len(bitmap) - pad8(len(bitmap))
        counters_base = counters_addr - space.data if layout.relative_counter_ptr else counters_addr
        bitmap_base = bitmap_addr - space.data if bitmap else 0
        targets = self._value_targets()
        has_values = [bool(sites) for sites in self.sites]
        blobs = [self._value_blob(sites, targets) for sites in self.sites if sites]
        binary_ids = self._binary_ids()
        pads_counters = layout.pads_byte_counters or not self.byte_coverage
        mask = layout.pointer_mask
        header = RawHeader(
            magic=magic_for(layout.width),
            version=self.profile.kind.version_word(layout.version),
            binary_ids_size=len(binary_ids),
            num_data=len(records),
            num_counters=csize if self.byte_coverage else csize // 8,
            padding_bytes_after_counters=pad8(csize) if pads_counters else 0,
            num_bitmap_bytes=len(bitmap),
            padding_bytes_after_bitmap_bytes=pad8(len(bitmap)),
            names_size=len(names),
            counters_delta=counters_base & mask,
            bitmap_delta=(bitmap_base if bitmap else -space.data) & mask,  # null BitmapBegin
            names_delta=space.names,
            num_vtables=len(vtables),
            vnames_size=len(vnames),
            value_kind_last=layout.value_kind_last,
        )
        out = ByteWriter(layout.order)
        out.words(header.words(layout))
        out.bytes(binary_ids)
        out.bytes(self._data(counters, counters_base, bitmap_base, has_values).tobytes())
        out.bytes(counters.section)
        out.zeros(header.padding_bytes_after_counters)
        for section in (bitmap, names, vtables.tobytes(), vnames):
            out.bytes(section)
            out.zeros(pad8(len(section)))
        for blob in blobs:
            out.bytes(blob)
        return out.getvalue()
