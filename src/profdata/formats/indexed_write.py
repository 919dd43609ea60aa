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

Versions that no supported release writes (1-6, 8, 10, 11) get their own
layout but the generator and summary rules of ``release``; the releases that
once wrote them are not reproduced byte for byte, but LLVM 22 reads each back.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence

import numpy as np

from profdata.errors import UsageError
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
from profdata.model.instr import InstrProfile, InstrRecord
from profdata.model.kinds import ProfileKind
from profdata.model.llvm_containers import small_densemap_order, stringmap_order
from profdata.model.names import md5_hash, name_bytes
from profdata.model.summary import DEFAULT_CUTOFFS, ProfileSummary, summarize_records
from profdata.releases import Release

MAX_VALUES_PER_SITE = 255  # SiteCountArray entries are u8

#: Variant flags ``InstrProfWriter::writeImpl`` copies into the version word.
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

#: Bytes of one summary block: 2 counts, the fields, a (cutoff, min, count) triple per cutoff.
SUMMARY_SIZE = 8 * (2 + len(SUMMARY_FIELDS) + 3 * len(DEFAULT_CUTOFFS))

_U64 = struct.Struct("<Q")
_U64X2 = struct.Struct("<QQ")
_U32X2 = struct.Struct("<II")


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
    lay = layout(release.indexed_version if version is None else version)
    kind = ProfileKind(profile.kind & WRITTEN_FLAGS)
    if kind & ProfileKind.MEMPROF and lay.has_memprof:
        raise UsageError("writing the MemProf section of indexed profiles is not supported")
    groups = _group_by_name(profile.records, lay)
    names = _insertion_order(groups, release, sparse)
    out = ByteWriter()
    header_at = len(out)
    out.zeros(lay.header_size)
    summary_at = len(out)
    if lay.has_summary:
        out.zeros(SUMMARY_SIZE * (2 if kind & ProfileKind.CS else 1))
    written: list[InstrRecord] = []
    hashes: list[int] = []
    items: list[bytes] = []
    for name in names:
        records = _densemap_ordered(groups[name], release)
        written.extend(records)
        key = name_bytes(name)
        data = b"".join(_encode_record(rec, lay, release) for rec in records)
        hashes.append(md5_hash(name))
        items.append(_U64X2.pack(len(key), len(data)) + key + data)
    offsets = {"hash_offset": _onhash_write.emit(out, hashes, items)}
    if lay.has_binary_ids:
        offsets["binary_id_offset"] = len(out)
        _write_binary_ids(out, profile.binary_ids)
    if lay.has_vtable_names:
        offsets["vtable_names_offset"] = len(out)
        _write_vtable_names(out, profile.vtable_names, release)
    if lay.has_temporal_traces and kind & ProfileKind.TEMPORAL:
        offsets["temporal_prof_traces_offset"] = len(out)
        _write_traces(out, profile)
    header = _header_words(lay, kind, written, offsets)
    out.patch_words(header_at, header)
    if lay.has_summary:
        cs = bool(kind & ProfileKind.CS)
        _patch_summaries(out, summary_at, written, cs, not release.summary_skips_pseudo_records)
    return out.getvalue()


# -- orders -------------------------------------------------------------------
def _group_by_name(
    records: Iterable[InstrRecord], lay: IndexedLayout
) -> dict[str, list[InstrRecord]]:
    groups: dict[str, list[InstrRecord]] = {}
    for rec in records:
        group = groups.setdefault(rec.name, [])
        if any(other.hash == rec.hash for other in group):
            raise ValueError(
                f"{rec.name!r} has two records with hash {rec.hash:#x}; merge them before writing"
            )
        if group and not lay.multiple_records_per_name:
            raise ValueError(
                f"{rec.name!r} has several records; "
                f"indexed version {lay.version} holds one per name"
            )
        group.append(rec)
    return groups


def _has_data(records: Sequence[InstrRecord]) -> bool:
    """``InstrProfWriter::shouldEncodeData`` for ``--sparse``."""
    return any(bool(rec.counts.any()) or any(rec.bitmap) for rec in records)


def _insertion_order(
    groups: dict[str, list[InstrRecord]], release: Release, sparse: bool
) -> list[str]:
    """Names in the order LLVM inserts them into the on-disk hash table generator."""
    if release.sorted_name_insertion:
        keep = [n for n, recs in groups.items() if not sparse or _has_data(recs)]
        return sorted(keep, key=name_bytes)
    names = list(groups)
    order = stringmap_order([name_bytes(n) for n in names], xxh3=release.stringmap_xxh3_hash)
    return [names[i] for i in order if not sparse or _has_data(groups[names[i]])]


def _densemap_ordered(records: list[InstrRecord], release: Release) -> list[InstrRecord]:
    if len(records) == 1:
        return records
    order = small_densemap_order([r.hash for r in records], mix=release.densemap_mix_hash)
    return [records[i] for i in order]


# -- records ------------------------------------------------------------------
def _encode_record(rec: InstrRecord, lay: IndexedLayout, release: Release) -> bytes:
    """One record of a name's data (§6.1): hash, counts, bitmap, value data."""
    counts = np.asarray(rec.counts, dtype="<u8").tobytes()
    if lay.has_num_counts:
        parts = [_U64X2.pack(rec.hash, len(rec.counts)), counts]
    else:
        parts = [_U64.pack(rec.hash), counts]
    if lay.has_bitmap:
        parts.append(_U64.pack(len(rec.bitmap)))
        parts.append(np.frombuffer(rec.bitmap, dtype=np.uint8).astype("<u8").tobytes())
    if lay.has_value_data:
        parts.append(encode_value_prof_data(rec, release.max_value_kind))
    return b"".join(parts)


def encode_value_prof_data(rec: InstrRecord, max_kind: int) -> bytes:
    """``ValueProfData::serializeFrom`` in little endian (``instr-raw.md`` §10.2).

    Kinds above the release's ``IPVK_Last`` are not written: LLVM's loop over
    kinds stops there, so 14 and 16 silently lose vtable value data.
    """
    body: list[bytes] = []
    num_kinds = 0
    for kind, sites in rec.sites_by_kind().items():
        if kind > max_kind:
            continue
        num_kinds += 1
        site_counts = bytearray()
        values: list[int] = []
        for site in sites:
            if len(site) > MAX_VALUES_PER_SITE:
                raise ValueError(
                    f"{rec.name!r}: a value site holds {len(site)} values "
                    f"(at most {MAX_VALUES_PER_SITE} can be written)"
                )
            site_counts.append(len(site))
            for vd in site:
                values.append(vd.value)
                values.append(vd.count)
        body.append(_U32X2.pack(int(kind), len(sites)))
        body.append(bytes(site_counts) + bytes(pad8(8 + len(sites))))
        body.append(np.asarray(values, dtype=np.uint64).astype("<u8").tobytes())
    payload = b"".join(body)
    return _U32X2.pack(8 + len(payload), num_kinds) + payload


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


def _patch_summaries(
    out: ByteWriter, at: int, records: list[InstrRecord], cs: bool, legacy: bool
) -> None:
    """Both summaries from the written records; CS records (bit 60) only feed the second."""
    normal = summarize_records((r for r in records if not r.is_cs), legacy_invalid_counts=legacy)
    out.patch_words(at, encode_summary(normal))
    if cs:
        context = summarize_records((r for r in records if r.is_cs), legacy_invalid_counts=legacy)
        out.patch_words(at + SUMMARY_SIZE, encode_summary(context))


def _header_words(
    lay: IndexedLayout, kind: ProfileKind, written: list[InstrRecord], offsets: dict[str, int]
) -> list[int]:
    values = dict(offsets)
    values["magic"] = MAGIC
    values["version"] = kind.version_word(lay.version)
    values["hash_type"] = HASH_TYPE_MD5
    if lay.max_function_count_in_header:
        values["unused"] = max((int(r.counts[0]) for r in written if len(r.counts)), default=0)
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
    keys = [name_bytes(n) for n in vtable_names]
    order = stringmap_order(keys, xxh3=release.stringmap_xxh3_hash)
    chunk = ByteWriter()
    if order:
        write_name_chunk(chunk, [vtable_names[i] for i in order])
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
