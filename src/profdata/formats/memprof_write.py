"""The MemProf section of indexed profiles, writer side (``writeMemProf``).

Writes MemProf V0-V4 the way ``llvm-profdata merge`` does: V0/V1
(LLVM 16/19 ``writeMemProfV0/V1``) always with the full schema, V2+ with the
hot/cold schema unless ``--memprof-full-schema``.  Hash tables go through
LLVM's generator replay (:mod:`~profdata.formats._onhash_write`) in the
data's insertion order (LLVM's ``MapVector`` order); V3/V4 order frames by
popularity and encode call stacks as LLVM's ``CallStackRadixTreeBuilder``
does.  Offsets in the section are absolute, so the writer must be handed the
file's own :class:`~profdata.formats._binary.ByteWriter` at the section's
position.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np

from profdata.errors import UsageError
from profdata.formats import _onhash_write
from profdata.formats._binary import ByteWriter
from profdata.formats.memprof_ids import FRAME_DTYPE, FRAME_SIZE, frame_bytes
from profdata.model.memprof import (
    HOT_COLD_SCHEMA,
    MIB_WIDTH,
    MemInfoBlock,
    MemProfData,
    MemProfRecord,
    build_summary,
)
from profdata.model.memprof import full_schema as full_schema_of
from profdata.releases import Release

_SUMMARY_FIELDS = 6
_U32 = (1 << 32) - 1


def write_memprof_section(
    out: ByteWriter,
    data: MemProfData | None,
    release: Release,
    version: int | None = None,
    full_schema: bool = False,
) -> None:
    """What ``release``'s merge writes: ``--memprof-version`` (default: the release's) and
    ``--memprof-full-schema``; no data writes an empty section, as LLVM does."""
    chosen = release.memprof_default_version if version is None else version
    if chosen not in release.memprof_write_versions:
        raise UsageError(
            f"MemProf version {chosen} not supported; requires version between "
            f"{min(release.memprof_write_versions)} and {max(release.memprof_write_versions)}, "
            "inclusive"
        )
    schema = schema_for(chosen, full_schema, full_schema_of(release.memprof_mib_fields))
    write_memprof(out, data if data is not None else MemProfData(), chosen, schema)


def schema_for(version: int, full_schema: bool, full: tuple[int, ...]) -> tuple[int, ...]:
    """The schema LLVM writes: V0/V1 always the full one, later versions hot/cold by default."""
    return full if version <= 1 or full_schema else HOT_COLD_SCHEMA


def write_memprof(
    out: ByteWriter, data: MemProfData, version: int, schema: tuple[int, ...]
) -> None:
    """Append the section at ``len(out)`` (the header's ``MemProfOffset``)."""
    if version >= 1:
        out.u64(version)
    header_at = len(out)
    header_words = {0: 3, 1: 3, 2: 5, 3: 3, 4: 4}[version]
    out.zeros(8 * header_words)
    if version >= 4:
        summary = data.summary if data.summary is not None else build_summary(data, by_frames=False)
        out.u32(_SUMMARY_FIELDS)
        out.words(list(summary.fields()))
    out.u64(len(schema))
    out.words(list(schema))
    if version <= 2:
        record_table = _records(out, data, version, schema, {})
        frame_payload = len(out)
        frame_table = _frames_table(out, data)
        header = [record_table, frame_payload, frame_table]
        if version == 2:
            cs_payload = len(out)
            header += [cs_payload, _call_stack_table(out, data)]
    else:
        frame_index = _frame_array(out, data)
        cs_payload = len(out)
        positions = _radix_array(out, data, frame_index)
        record_payload = len(out)
        record_table = _records(out, data, version, schema, positions)
        header = [cs_payload, record_payload, record_table]
        if version >= 4:
            header.append(0)  # DataAccessProfOffset: no data access profile
    out.patch_words(header_at, header)


# -- hash tables -------------------------------------------------------------------
def _records(
    out: ByteWriter,
    data: MemProfData,
    version: int,
    schema: tuple[int, ...],
    positions: dict[int, int],
) -> int:
    hashes = list(data.records)
    items = []
    for guid, record in data.records.items():
        body = _record_bytes(record, data, version, schema, positions)
        items.append(struct.pack("<QQQ", 8, len(body), guid) + body)
    return _onhash_write.emit(out, hashes, items)


def _frames_table(out: ByteWriter, data: MemProfData) -> int:
    hashes = list(data.frames)
    items = [
        struct.pack("<QQQ", 8, FRAME_SIZE, fid) + frame_bytes(f) for fid, f in data.frames.items()
    ]
    return _onhash_write.emit(out, hashes, items)


def _call_stack_table(out: ByteWriter, data: MemProfData) -> int:
    """``CallStackWriterTrait``: the item writes its data length only, then key and frames."""
    hashes = list(data.call_stacks)
    items = [
        struct.pack(f"<QQ{len(stack)}Q", 8 * len(stack), cs_id, *stack)
        for cs_id, stack in data.call_stacks.items()
    ]
    return _onhash_write.emit(out, hashes, items)


def _record_bytes(
    record: MemProfRecord,
    data: MemProfData,
    version: int,
    schema: tuple[int, ...],
    positions: dict[int, int],
) -> bytes:
    parts = [struct.pack("<Q", len(record.alloc_sites))]
    for site in record.alloc_sites:
        if version <= 1:
            stack = data.call_stacks[site.call_stack_id]
            parts.append(struct.pack(f"<Q{len(stack)}Q", len(stack), *stack))
        elif version == 2:
            parts.append(struct.pack("<Q", site.call_stack_id))
        else:
            parts.append(struct.pack("<I", positions[site.call_stack_id]))
        parts.append(mib_bytes(site.info, schema))
    parts.append(struct.pack("<Q", len(record.call_sites)))
    for call in record.call_sites:
        if version <= 1:
            stack = data.call_stacks[call.call_stack_id]
            parts.append(struct.pack(f"<Q{len(stack)}Q", len(stack), *stack))
        elif version == 2:
            parts.append(struct.pack("<Q", call.call_stack_id))
        elif version == 3:
            parts.append(struct.pack("<I", positions[call.call_stack_id]))
        else:
            guids = call.callee_guids
            parts.append(
                struct.pack(f"<IQ{len(guids)}Q", positions[call.call_stack_id], len(guids), *guids)
            )
    return b"".join(parts)


def mib_bytes(info: MemInfoBlock, schema: Sequence[int]) -> bytes:
    """``PortableMemInfoBlock::serialize``: the schema's fields, missing ones as 0."""
    widths = "".join("I" if MIB_WIDTH[fid] == 4 else "Q" for fid in schema)
    masks = [(1 << (8 * MIB_WIDTH[fid])) - 1 for fid in schema]
    values = [info.values.get(fid, 0) & mask for fid, mask in zip(schema, masks, strict=True)]
    return struct.pack("<" + widths, *values)


# -- V3/V4 arrays ----------------------------------------------------------------------
def _histogram(data: MemProfData) -> dict[int, tuple[int, int]]:
    """``computeFrameHistogram``: per frame id, (count, sum of positions in call stacks)."""
    count: dict[int, int] = {}
    position: dict[int, int] = {}
    for stack in data.call_stacks.values():
        for index, fid in enumerate(stack):
            count[fid] = count.get(fid, 0) + 1
            position[fid] = position.get(fid, 0) + index
    return {fid: (count[fid], position[fid]) for fid in count}


def _frame_array(out: ByteWriter, data: MemProfData) -> dict[int, int]:
    """``writeMemProfFrameArray``: popular frames first, then early ones, then by id."""
    hist = _histogram(data)

    def rank(fid: int) -> tuple[int, int, int]:
        c, p = hist.get(fid, (0, 0))
        return (-c, p, fid)

    order = sorted(data.frames, key=rank)
    array = np.zeros(len(order), dtype=FRAME_DTYPE)
    for index, fid in enumerate(order):
        f = data.frames[fid]
        array[index] = (f.function, f.line_offset, f.column, int(f.is_inline_frame))
    out.bytes(array.tobytes())
    return {fid: index for index, fid in enumerate(order)}


def _radix_array(out: ByteWriter, data: MemProfData, frame_index: dict[int, int]) -> dict[int, int]:
    """``CallStackRadixTreeBuilder::build``; returns each call stack's position."""
    if not data.call_stacks:
        return {}
    hist = _histogram(data)

    def root_first(item: tuple[int, tuple[int, ...]]) -> list[tuple[int, int]]:
        return [(hist.get(f, (0, 0))[0], f) for f in reversed(item[1])]

    stacks = sorted(data.call_stacks.items(), key=root_first)
    radix: list[int] = []
    indexes: list[int] = []
    positions: dict[int, int] = {}
    prev: tuple[int, ...] | None = None
    for cs_id, stack in reversed(stacks):
        common = 0
        if prev is not None:
            for a, b in zip(reversed(prev), reversed(stack), strict=False):
                if a != b:
                    break
                common += 1
        del indexes[common:]
        if common:
            radix.append((indexes[-1] - len(radix)) & _U32)
        for fid in list(reversed(stack))[common:]:
            indexes.append(len(radix))
            radix.append(frame_index[fid])
        radix.append(len(stack))
        positions[cs_id] = len(radix) - 1
        prev = stack
    last = len(radix) - 1
    out.bytes(np.array(radix[::-1], dtype="<u4").tobytes())
    return {cs_id: last - pos for cs_id, pos in positions.items()}
