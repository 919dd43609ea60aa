"""The MemProf section of indexed profiles (indexed version 8+), reader side.

Mirrors ``IndexedMemProfReader::deserialize`` of LLVM 16 (MemProf V0 only,
no version word), 19 (V0-V3; a first word >= 24 is V0's RecordTableOffset)
and 22 (V2-V4).  Every ``*Offset`` in the section is an absolute file offset.

* V0/V1: header RecordTableOffset, FramePayloadOffset, FrameTableOffset;
  records (on-disk hash table keyed by function GUID) list each allocation's
  frame ids; frames are a hash table keyed by frame id.
* V2: adds CallStackPayloadOffset, CallStackTableOffset; records refer to
  call stacks by 64-bit id; call stacks are a hash table (its items have no
  key length: ``CallStackWriterTrait`` writes only the data length).
* V3/V4: header CallStackPayloadOffset, RecordPayloadOffset, RecordTableOffset
  (V4: DataAccessProfOffset and a ``MemProfSummary``); then the schema, a
  frame array (17-byte frames), a radix-tree array of u32 and the record
  table; records refer to call stacks by radix position (V4 call sites add
  callee GUIDs).

The section is decoded into :class:`~profdata.model.memprof.MemProfData`
with LLVM's ids (V3/V4 frames and call stacks get the ids the writer of the
reading release computes), so the writer can reproduce the bytes.  LLVM
checks nothing beyond the version and schema; here every count and offset is
checked and a bad one is a located :class:`~profdata.errors.MalformedError`.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from profdata.errors import (
    MalformedError,
    TruncatedError,
    UnrecognizedFormatError,
    UnsupportedVersionError,
)
from profdata.formats._binary import ByteReader
from profdata.formats._onhash import ItemRef, OnDiskHashTable
from profdata.formats._onhash_write import bucket_order
from profdata.formats.memprof_ids import (
    FRAME_DTYPE,
    FRAME_LAYOUT,
    FRAME_SIZE,
    call_stack_id,
    frame_id_blake3,
    frame_id_golden,
)
from profdata.model.memprof import (
    MIB_WIDTH,
    AllocSite,
    CallSite,
    Frame,
    MemInfoBlock,
    MemProfData,
    MemProfRecord,
    MemProfSummary,
)
from profdata.releases import Release

_V0_MIN_FIRST_WORD = 24  # LLVM 19's heuristic: V0 starts with an offset past the header
_SUMMARY_FIELDS = 6


def raw_memprof_refused(path: str) -> UnrecognizedFormatError:
    """The refusal of a raw ``.memprofraw`` input: turning it into records means
    symbolizing its addresses against the profiled binary, which profdata does not do."""
    return UnrecognizedFormatError(
        "raw MemProf profiles need symbolization against the profiled binary, which "
        "profdata does not do; convert with llvm-profdata merge --profiled-binary=BIN",
        path=path,
        llvm_message="raw MemProf profile (.memprofraw): not supported by profdata",
    )


@dataclass(frozen=True)
class MemProfRules:
    """What one release's reader accepts and how its writer names frames.

    ``versions`` are the MemProf versions it reads (``(0,)`` with no version
    word for LLVM <= 17); ``meta_size`` is ``Meta::Size`` (schema ids must be
    below it); ``blake3_frame_ids`` selects ``hashFrame`` over ``Frame::hash``.
    """

    versions: tuple[int, ...]
    meta_size: int
    blake3_frame_ids: bool

    @property
    def version_word(self) -> bool:
        return self.versions != (0,)

    def frame_id(self, frame: Frame) -> int:
        return frame_id_blake3(frame) if self.blake3_frame_ids else frame_id_golden(frame)

    def unsupported(self, first: int) -> str:
        return (
            f"MemProf version {first} not supported; requires version between "
            f"{min(self.versions)} and {max(self.versions)}, inclusive"
        )


def rules_for(release: Release) -> MemProfRules:
    """The reading rules of an LLVM release (``Meta::Size`` is one past the last field id)."""
    return MemProfRules(
        versions=release.memprof_read_versions,
        meta_size=release.memprof_mib_fields + 1,
        blake3_frame_ids=release.memprof_blake3_frame_ids,
    )


def peek_version(data: memoryview, offset: int, rules: MemProfRules, path: str | None) -> int:
    """The section's MemProf version, or the error the release's reader gives."""
    cur = ByteReader(data, path=path, pos=offset)
    if not rules.version_word:
        return 0
    first = cur.u64("memprof.version")
    if first != 0 and first in rules.versions:
        return first
    if 0 in rules.versions and first >= _V0_MIN_FIRST_WORD:
        return 0
    msg = rules.unsupported(first)
    cur.fail(
        UnsupportedVersionError,
        msg,
        field="memprof.version",
        expected=f"{min(rules.versions)}..{max(rules.versions)}",
        found=str(first),
        at=offset,
        llvm_message=f"{UnsupportedVersionError.llvm_message}: {msg}",
    )


def read_memprof(
    data: memoryview, offset: int, rules: MemProfRules, path: str | None = None
) -> MemProfData:
    """Decode the MemProf section starting at ``offset`` (``MemProfOffset``)."""
    version = peek_version(data, offset, rules, path)
    return _SectionReader(data, offset, version, rules, path).read()


def check_memprof_header(
    data: memoryview, offset: int, rules: MemProfRules, path: str | None = None
) -> None:
    """What ``IndexedInstrProfReader::readHeader`` checks up front: version, header, schema."""
    version = peek_version(data, offset, rules, path)
    _SectionReader(data, offset, version, rules, path).read(header_only=True)


class _SectionReader:
    def __init__(
        self, data: memoryview, offset: int, version: int, rules: MemProfRules, path: str | None
    ) -> None:
        self.data = data
        self.version = version
        self.rules = rules
        self.path = path
        start = offset + (8 if version else 0)
        self.cur = ByteReader(data, path=path, pos=start)

    # -- header -------------------------------------------------------------
    def read(self, header_only: bool = False) -> MemProfData:
        cur = self.cur
        v = self.version
        summary = None
        if v <= 1:
            record_table, frame_payload, frame_table = cur.words(3, "memprof.header")
        elif v == 2:
            record_table, frame_payload, frame_table, cs_payload, cs_table = cur.words(
                5, "memprof.header"
            )
        else:
            cs_payload, record_payload, record_table = cur.words(3, "memprof.header")
            if v >= 4:
                at = cur.pos
                if cur.u64("memprof.data_access_prof_offset"):
                    cur.fail(
                        UnsupportedVersionError,
                        "data access profiles in MemProf V4 are not supported by profdata",
                        field="memprof.data_access_prof_offset",
                        expected="0",
                        at=at,
                    )
                summary = self._summary()
        schema = self._schema()
        out = MemProfData(version=v, schema=schema, summary=summary)
        if header_only:
            return out
        if v <= 2:
            payload = cur.pos
            self._frames_table(out, frame_payload, frame_table)
            if v == 2:
                self._call_stack_table(out, cs_payload, cs_table)
            self._records(out, payload, record_table, schema)
        else:
            self._radix(out, cs_payload, record_payload)
            self._records(out, record_payload, record_table, schema)
        return out

    def _summary(self) -> MemProfSummary:
        cur = self.cur
        at = cur.pos
        count = cur.u32("memprof.summary.num_fields")
        if count < _SUMMARY_FIELDS:
            cur.fail(
                MalformedError,
                "the MemProf summary has fewer fields than LLVM reads",
                field="memprof.summary.num_fields",
                expected=f">= {_SUMMARY_FIELDS}",
                found=str(count),
                at=at,
            )
        cur.require(8 * count, "memprof.summary")
        values = cur.words(count, "memprof.summary")[:_SUMMARY_FIELDS]
        return MemProfSummary(*values)

    def _schema(self) -> tuple[int, ...]:
        cur = self.cur
        at = cur.pos
        count = cur.u64("memprof.schema.num_ids")
        if count > self.rules.meta_size:
            cur.fail(
                MalformedError,
                "memprof schema invalid",
                field="memprof.schema.num_ids",
                expected=f"<= {self.rules.meta_size}",
                found=str(count),
                at=at,
                llvm_message=f"{MalformedError.llvm_message} (memprof schema invalid)",
            )
        ids = cur.words(int(count), "memprof.schema")
        for index, tag in enumerate(ids):
            if not 0 < tag < self.rules.meta_size:
                cur.fail(
                    MalformedError,
                    "memprof schema invalid",
                    field=f"memprof.schema[{index}]",
                    expected=f"1..{self.rules.meta_size - 1}",
                    found=str(tag),
                    at=at + 8 + 8 * index,
                    llvm_message=f"{MalformedError.llvm_message} (memprof schema invalid)",
                )
        return ids

    # -- tables -------------------------------------------------------------
    def _table(
        self, field: str, payload: int, table: int, *, key_less: bool = False
    ) -> OnDiskHashTable:
        return OnDiskHashTable(
            self.data,
            table_offset=table,
            payload_offset=payload,
            path=self.path,
            field=field,
            key_less=key_less,
        )

    def _frames_table(self, out: MemProfData, payload: int, table_at: int) -> None:
        table = self._table("memprof.frame_table", payload, table_at)
        items = list(table.items())
        for item in _reinserted(table, items):
            self._need(item, 8, FRAME_SIZE, "memprof.frame")
            key = struct.unpack_from("<Q", self.data, item.key_offset)[0]
            out.frames[key] = Frame(*FRAME_LAYOUT.unpack_from(self.data, item.data_offset))

    def _call_stack_table(self, out: MemProfData, payload: int, table_at: int) -> None:
        table = self._table("memprof.call_stack_table", payload, table_at, key_less=True)
        items = list(table.items())
        for item in _reinserted(table, items):
            if item.data_length % 8:
                self._bad(item, "memprof.call_stack", "a multiple of 8", item.data_length)
            key = struct.unpack_from("<Q", self.data, item.key_offset)[0]
            count = item.data_length // 8
            out.call_stacks[key] = struct.unpack_from(f"<{count}Q", self.data, item.data_offset)

    def _records(
        self, out: MemProfData, payload: int, table_at: int, schema: tuple[int, ...]
    ) -> None:
        table = self._table("memprof.record_table", payload, table_at)
        items = list(table.items())
        decode = self._record_v0 if self.version <= 1 else self._record
        by_offset: dict[int, int] = {}
        for item in _reinserted(table, items):
            self._need(item, 8, None, "memprof.record")
            guid = struct.unpack_from("<Q", self.data, item.key_offset)[0]
            sub = ByteReader(
                self.data, path=self.path, pos=item.data_offset,
                end=item.data_offset + item.data_length,
            )  # fmt: skip
            out.records[guid] = decode(sub, schema, out)
            by_offset[item.key_offset] = guid
        out.listed = tuple(by_offset[item.key_offset] for item in items)

    # -- records --------------------------------------------------------------
    def _mib_dtype(self, schema: tuple[int, ...], id_width: int) -> np.dtype[np.void]:
        fields = [("cs", f"<u{id_width}")] if id_width else []
        fields += [(f"f{fid}", f"<u{MIB_WIDTH[fid]}") for fid in schema]
        return np.dtype(fields)

    def _record(self, cur: ByteReader, schema: tuple[int, ...], out: MemProfData) -> MemProfRecord:
        """V2-V4 (``deserializeV2/V3/V4``): fixed-size allocation entries, read as one array."""
        v = self.version
        id_width = 8 if v == 2 else 4
        dtype = self._mib_dtype(schema, id_width)
        count = cur.u64("memprof.record.num_alloc_sites")
        self._fits(cur, count, dtype.itemsize, "memprof.record.alloc_sites")
        allocs = cur.array(dtype, int(count), "memprof.record.alloc_sites")
        rec = MemProfRecord()
        for row in allocs.tolist():
            info = MemInfoBlock(dict(zip(schema, row[1:], strict=True)))
            rec.alloc_sites.append(AllocSite(self._cs_id(row[0], cur), info))
        count = cur.u64("memprof.record.num_call_sites")
        if v <= 3:
            self._fits(cur, count, id_width, "memprof.record.call_sites")
            ids = cur.array(f"<u{id_width}", int(count), "memprof.record.call_sites")
            rec.call_sites = [CallSite(self._cs_id(i, cur)) for i in ids.tolist()]
            return rec
        self._fits(cur, count, 12, "memprof.record.call_sites")
        for _ in range(int(count)):
            linear = cur.u32("memprof.record.call_site")
            guids = cur.u64("memprof.record.call_site.num_callee_guids")
            self._fits(cur, guids, 8, "memprof.record.call_site.callee_guids")
            callees = tuple(cur.words(int(guids), "memprof.record.call_site.callee_guids"))
            rec.call_sites.append(CallSite(self._cs_id(linear, cur), callees))
        return rec

    def _record_v0(
        self, cur: ByteReader, schema: tuple[int, ...], out: MemProfData
    ) -> MemProfRecord:
        """V0/V1 (``deserializeV0``): frame ids inline; call stack ids are their BLAKE3."""
        dtype = self._mib_dtype(schema, 0)
        rec = MemProfRecord()
        count = cur.u64("memprof.record.num_alloc_sites")
        self._fits(cur, count, 8 + dtype.itemsize, "memprof.record.alloc_sites")
        for _ in range(int(count)):
            frames = self._frame_list(cur, "memprof.record.alloc_site.frames")
            row = cur.array(dtype, 1, "memprof.record.alloc_site.info").tolist()[0]
            info = MemInfoBlock(dict(zip(schema, row, strict=True)))
            rec.alloc_sites.append(AllocSite(self._intern(out, frames), info))
        count = cur.u64("memprof.record.num_call_sites")
        self._fits(cur, count, 8, "memprof.record.call_sites")
        for _ in range(int(count)):
            frames = self._frame_list(cur, "memprof.record.call_site.frames")
            rec.call_sites.append(CallSite(self._intern(out, frames)))
        return rec

    def _frame_list(self, cur: ByteReader, field: str) -> tuple[int, ...]:
        count = cur.u64(f"{field}.count")
        self._fits(cur, count, 8, field)
        return cur.words(int(count), field)

    @staticmethod
    def _intern(out: MemProfData, frames: tuple[int, ...]) -> int:
        cs_id = call_stack_id(frames)
        out.call_stacks.setdefault(cs_id, frames)
        return cs_id

    def _cs_id(self, stored: int, cur: ByteReader) -> int:
        if self.version <= 2:
            return stored
        found = self._linear_cs.get(stored)
        if found is None:
            if stored >= len(self._radix_array):
                cur.fail(
                    MalformedError,
                    "a call stack index points past the radix array",
                    field="memprof.record.call_stack_index",
                    expected=f"< {len(self._radix_array)}",
                    found=str(stored),
                    at=cur.pos - 4,
                )
            stack = tuple(self._frame_ids[i] for i in self._decode_stack(stored))
            found = self._linear_cs[stored] = call_stack_id(stack)
            self._out.call_stacks.setdefault(found, stack)
        return found

    # -- V3/V4 arrays -------------------------------------------------------------
    def _radix(self, out: MemProfData, cs_payload: int, record_payload: int) -> None:
        """The frame array and the radix array; call stacks are decoded as records name them."""
        cur = self.cur
        frame_base = cur.pos
        span = cs_payload - frame_base
        if cs_payload < frame_base or span % FRAME_SIZE or record_payload < cs_payload:
            cur.fail(
                MalformedError,
                "the frame and call stack arrays do not fit between the schema and the records",
                field="memprof.call_stack_payload_offset",
                expected=f"{frame_base} + 17*n <= call stacks <= {record_payload}",
                found=str(cs_payload),
                at=frame_base,
            )
        cur.require(record_payload - frame_base, "memprof.frames")
        frames = cur.array(FRAME_DTYPE, span // FRAME_SIZE, "memprof.frames")
        self._array_frames = [Frame(f, ln, col, bool(inl)) for f, ln, col, inl in frames.tolist()]
        self._frame_ids = [self.rules.frame_id(f) for f in self._array_frames]
        for fid, frame in zip(self._frame_ids, self._array_frames, strict=True):
            out.frames.setdefault(fid, frame)
        self._radix_array = np.frombuffer(
            self.data, dtype="<u4", count=(record_payload - cs_payload) // 4, offset=cs_payload
        )
        self._radix_base = cs_payload
        self._linear_cs: dict[int, int] = {}
        self._out = out

    def _decode_stack(self, pos: int) -> list[int]:
        """``LinearCallStackIdConverter``: length, then frames leaf first, following jumps."""
        frame_list, radix, base = self._array_frames, self._radix_array, self._radix_base
        n = len(radix)
        count = int(radix[pos])
        result: list[int] = []
        p = pos + 1
        for _ in range(count):
            if p >= n:
                self._radix_fail(base + 4 * pos, pos)
            elem = int(radix[p])
            if elem >= 0x80000000:
                p += (1 << 32) - elem
                if p >= n:
                    self._radix_fail(base + 4 * pos, pos)
                elem = int(radix[p])
            if elem >= len(frame_list):
                self._radix_fail(base + 4 * p, p)
            result.append(elem)
            p += 1
        return result

    def _radix_fail(self, at: int, pos: int) -> None:
        self.cur.fail(
            MalformedError,
            "the call stack radix array points outside itself or its frames",
            field=f"memprof.radix[{pos}]",
            at=at,
        )

    # -- checks -------------------------------------------------------------------
    @staticmethod
    def _fits(cur: ByteReader, count: int, size: int, field: str) -> None:
        if count > cur.remaining // max(size, 1):
            cur.fail(
                TruncatedError,
                f"{field} runs past the end of its record",
                field=field,
                expected=f"<= {cur.remaining // max(size, 1)} entries",
                found=str(count),
                at=cur.pos - 8,
            )

    def _need(self, item: ItemRef, key: int, data: int | None, field: str) -> None:
        if item.key_length != key:
            self._bad(item, f"{field}.key_length", str(key), item.key_length)
        if data is not None and item.data_length != data:
            self._bad(item, f"{field}.data_length", str(data), item.data_length)

    def _bad(self, item: ItemRef, field: str, expected: str, found: int) -> None:
        ByteReader(self.data, path=self.path).fail(
            MalformedError,
            f"{field} is not what LLVM writes",
            field=field,
            expected=expected,
            found=str(found),
            at=item.key_offset - 24,
        )


def _reinserted(table: OnDiskHashTable, items: list[ItemRef]) -> list[ItemRef]:
    """The items in an insertion order from which LLVM's generator emits them as stored.

    Decoded data is written again by replaying the generator in the data's
    order, so for a byte-identical rewrite the order must be one the
    generator turns into the stored one (see :func:`generator_insertion_order`).
    A payload no insertion order explains keeps payload order.
    """
    if not table.buckets_readable:  # no bucket count to replay the generator with
        return items
    hashes = [item.key_hash for item in items]
    order = generator_insertion_order(hashes, table.num_buckets)
    if order is None:
        return items
    emitted = bucket_order([hashes[i] for i in order]).items.tolist()
    if [order[i] for i in emitted] != list(range(len(items))):
        return items
    return [items[i] for i in order]


def generator_insertion_order(hashes: list[int], num_buckets: int) -> list[int] | None:
    """Undo ``OnDiskChainedHashTableGenerator``: an insertion order for a stored payload.

    The generator inserts at 64 buckets, doubling when 3/4 full; an insert
    goes to the head of its chain and a rehash rebuilds every chain reversed
    (a growth splits each chain in two, the final shrink to ``NumBuckets``
    merges chains in bucket order).  Walking the phases backwards, the items
    a phase inserted are a prefix of the chains of its table size; which
    chains give them is free (items of different chains never meet again),
    so taking them greedily always explains a payload the generator made.
    """
    n = len(hashes)
    if n < 2:
        return list(range(n))
    sizes: list[int] = []
    bounds: list[tuple[int, int]] = []
    size, lo = 64, 0
    while True:
        hi = max(lo, min(n, 3 * size // 4 - 1))
        sizes.append(size)
        bounds.append((lo, hi))
        if hi >= n:
            break
        size, lo = size * 2, hi
    chains: dict[int, list[int]] = {}
    for index, key in enumerate(hashes):
        chains.setdefault(key & (num_buckets - 1), []).append(index)
    if num_buckets != sizes[-1]:
        split: dict[int, list[int]] = {}
        for chain in chains.values():
            last = -1
            for index in reversed(chain):
                old = hashes[index] & (sizes[-1] - 1)
                if old < last:
                    return None
                last = old
                split.setdefault(old, []).append(index)
        chains = split
    phases: list[list[int]] = []
    for k in reversed(range(len(sizes))):
        need = bounds[k][1] - bounds[k][0]
        inserted: list[int] = []
        for bucket in sorted(chains):
            take = min(need, len(chains[bucket]))
            inserted.extend(reversed(chains[bucket][:take]))
            chains[bucket] = chains[bucket][take:]
            need -= take
        if need:
            return None
        phases.append(inserted)
        if k:
            merged: dict[int, list[int]] = {}
            for bucket in sorted(chains):
                for index in reversed(chains[bucket]):
                    merged.setdefault(bucket & (sizes[k - 1] - 1), []).append(index)
            chains = merged
    if any(chains.values()):
        return None
    return [index for phase in reversed(phases) for index in phase]
