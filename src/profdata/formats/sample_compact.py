"""Compact binary sample profiles, ``SPF_Compact_Binary`` (``sample-binary.md`` §4).

Written by ``llvm-profdata merge --sample --compbinary`` of 14 and 16 (same
bytes) and read by the releases ``releases.py`` marks
(``sample_compact_binary_readable``); later releases dropped the format and
call such files unrecognized.  Layout: the binary format's magic (format
byte 2), version, summary, then a name table of ULEB MD5 hashes (names
sorted as strings, then hashed), a u64 LE absolute offset of the function
offset table, the profiles (as in the binary format, most samples first),
and the offset table: ``ULEB count, count x (ULEB name index, ULEB offset)``
in writing order.

The reader mirrors ``SampleProfileReaderCompactBinary``: names are only the
decimal strings of their hashes, which 14 and 16 order as strings, like any
name (``is_md5`` stays false: it means 19+'s numeric ``FunctionId`` order),
and profiles are loaded from the offsets
the table lists, in the iteration order of the ``DenseMap<StringRef,
uint64_t>`` LLVM keeps the table in (:func:`offset_table_order`; it decides
the reader's map order, which rows of equal samples in ``show
--hot-func-list`` and ``overlap`` follow).  A name listed twice keeps its
first place and its last offset, as ``FuncOffsetTable[Name] = Offset`` does.
"""

from __future__ import annotations

from profdata.errors import FormatError, SampleTruncatedError
from profdata.formats._binary import ByteReader, ByteWriter
from profdata.formats.sample_binary import (
    MSG_TRUNCATED,
    MSG_UNWRITABLE,
    SPF_COMPACT_BINARY,
    VERSION,
    check_writable,
    collect_names,
    decode_uleb_prefix,
    read_body,
    read_magic,
    read_name_index,
    read_number,
    read_summary,
    read_uleb_md5_name_table,
    sp_magic,
    write_summary,
)
from profdata.formats.sample_body import BodyEncoder
from profdata.formats.sample_registry import ORDER_COMPACT_BINARY, SampleFormat, register
from profdata.model.names import md5_hash, name_bytes
from profdata.model.sample import (
    FunctionSamples,
    SampleContext,
    SampleProfile,
    sort_func_profiles,
)
from profdata.model.sample_map_order import string_hash
from profdata.model.sample_summary import release_summary
from profdata.releases import Release


def sniff(data: bytes | memoryview) -> bool:
    """``SampleProfileReaderCompactBinary::hasFormat``."""
    return decode_uleb_prefix(data) == sp_magic(SPF_COMPACT_BINARY)


def readable(release: Release) -> bool:
    return release.sample_compact_binary_readable


# -- reading -------------------------------------------------------------------
def read_md5_name_table(cur: ByteReader) -> list[str]:
    """``SampleProfileReaderCompactBinary::readNameTable``: ULEB hashes, kept as decimal text."""
    return read_uleb_md5_name_table(cur, "name_md5")


def read_offset_table(cur: ByteReader, names: list[str]) -> tuple[int, list[tuple[str, int]]]:
    """``readFuncOffsetTable``: the table's absolute offset, then its (name, offset) rows."""
    cur.require(8, "func_offset_table_offset", SampleTruncatedError)
    table_offset = cur.u64("func_offset_table_offset")
    if table_offset > len(cur.data):
        cur.fail(
            SampleTruncatedError, "the function offset table starts past the end of the file",
            field="func_offset_table_offset", at=cur.pos - 8,
            expected=f"<= {len(cur.data)}", found=str(table_offset), llvm_message=MSG_TRUNCATED,
        )  # fmt: skip
    table = ByteReader(cur.data, path=cur.path, pos=table_offset)
    size = read_number(table, "num_func_offsets")
    if size > table.remaining // 2:
        table.fail(
            SampleTruncatedError, "the offset table promises more rows than bytes remain",
            field="num_func_offsets", expected=f"<= {table.remaining // 2}", found=str(size),
            llvm_message=MSG_TRUNCATED,
        )  # fmt: skip
    rows: list[tuple[str, int]] = []
    for _ in range(size):
        name = read_name_index(table, names, "func_offset_name_index", 32)  # 14-16 only
        rows.append((name, read_number(table, "func_offset")))
    return table_offset, rows


_DENSEMAP_MIN_BUCKETS = 64


def _next_power_of_2(value: int) -> int:
    """``llvm::NextPowerOf2``: the smallest power of two strictly above ``value``."""
    return 1 << value.bit_length()


def offset_table_order(names: list[str]) -> list[int]:
    """Iteration order (indexes into ``names``, first occurrences) of the reader's
    ``DenseMap<StringRef, uint64_t>`` after ``reserve(len(names))`` and the inserts.

    ``DenseMapInfo<StringRef>`` hashes with ``hash_value(StringRef)`` truncated to
    32 bits (14 and 16, the releases that read the format); probing is quadratic.
    """
    buckets = max(_DENSEMAP_MIN_BUCKETS, _next_power_of_2(len(names) * 4 // 3 + 1))
    table = [-1] * buckets
    seen: set[str] = set()
    for index, name in enumerate(names):
        if name in seen:
            continue
        if (len(seen) + 1) * 4 >= buckets * 3:
            buckets *= 2
            old, table = table, [-1] * buckets
            for item in old:
                if item >= 0:
                    table[_probe(table, names[item])] = item
        seen.add(name)
        table[_probe(table, name)] = index
    return [item for item in table if item >= 0]


def _probe(table: list[int], name: str) -> int:
    mask = len(table) - 1
    bucket = string_hash(name_bytes(name)) & 0xFFFFFFFF & mask
    step = 1
    while table[bucket] >= 0:
        bucket = (bucket + step) & mask
        step += 1
    return bucket


def read(data: bytes | memoryview, path: str | None, release: Release) -> SampleProfile:
    """Read a compact binary profile; the summary is the one stored in the file."""
    cur = ByteReader(data, path=path)
    read_magic(cur, SPF_COMPACT_BINARY)
    summary = read_summary(cur)
    names = read_md5_name_table(cur)
    table_offset, rows = read_offset_table(cur, names)
    profile = SampleProfile(format="compbinary", summary=summary)
    profiles = profile.profiles
    last_offset = {name: offset for name, offset in rows}
    for index in offset_table_order([name for name, _ in rows]):
        offset = last_offset[rows[index][0]]
        body = ByteReader(data, path=path, pos=offset, end=table_offset)
        if offset > table_offset:
            body.fail(
                SampleTruncatedError, "a function offset points past the profiles",
                field="func_offset", expected=f"<= {table_offset}", found=str(offset),
                llvm_message=MSG_TRUNCATED,
            )  # fmt: skip
        head = read_number(body, "head_samples")
        name = read_name_index(body, names, "function_name_index", 32)
        context = SampleContext(name)
        fs = profiles[context] = FunctionSamples(context)
        fs.add_head_samples(head)
        read_body(body, fs, names, release)
    return profile


# -- writing -------------------------------------------------------------------
def write(profile: SampleProfile, release: Release, contextless: bool | None = None) -> bytes:
    """``SampleProfileWriterCompactBinary::write`` (14 and 16 write the same bytes;
    ``contextless``: ``--profile-summary-contextless``)."""
    reason = check_writable(profile)
    if reason is not None:
        raise FormatError(reason.replace("binary format", "compact binary format"),
                          llvm_message=MSG_UNWRITABLE)  # fmt: skip
    out = ByteWriter()
    out.uleb128(sp_magic(SPF_COMPACT_BINARY))
    out.uleb128(VERSION)
    summary = release_summary(profile, release, contextless)
    write_summary(out, summary)
    names = collect_names(profile.profiles.values())
    out.uleb128(len(names))
    for name in names:
        out.uleb128(md5_hash(name))
    index = {name: i for i, name in enumerate(names)}
    table_slot = out.reserve_u64()
    ordered = sort_func_profiles(profile.profiles.values(), md5=False)
    encoder = BodyEncoder(index, False, lambda fs: index[fs.name])
    data, starts = encoder.profiles(ordered)
    base = len(out)
    offsets = [(index[fs.name], base + at) for fs, at in zip(ordered, starts, strict=True)]
    out.bytes(data)
    out.patch_u64(table_slot, len(out))
    out.uleb128(len(offsets))
    for name_index, offset in offsets:
        out.uleb128(name_index)
        out.uleb128(offset)
    return out.getvalue()


register(SampleFormat("compbinary", ORDER_COMPACT_BINARY, sniff, read, readable))
