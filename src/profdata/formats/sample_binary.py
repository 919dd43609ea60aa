"""Sample profile binary format, ``SPF_Binary`` version 103 (``sample-binary.md`` §2-§3).

``ULEB magic, ULEB version, summary, name table, profiles until the end``.
The reader is ``SampleProfileReaderRawBinary`` (``readNumber`` checks each
ULEB against the width of its C++ type: a count of records is a ``uint32_t``)
and the writer ``SampleProfileWriterBinary``.  The summary and name-table
pieces are shared with the extensible binary format, which reuses them.

The profiles are read by walking their pre-decoded ULEB128 numbers
(:mod:`profdata.formats.sample_body`); :func:`read_body` is the field-by-field
reader that takes over when that walk meets a fault, so that the error is
located where LLVM finds it.  Writers collect the numbers and encode them
in one pass.

Errors carry LLVM's message (``Truncated profile data``, ``Malformed sample
profile data``, ``Truncated function name table``, ``Unsupported sample
profile format version``) and the offset and field of the fault.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from profdata.errors import (
    FormatError,
    MalformedError,
    SampleMalformedError,
    SampleTruncatedError,
    TruncatedError,
    UnsupportedVersionError,
)
from profdata.formats._binary import ByteReader, ByteWriter
from profdata.formats._collector import collector_paused
from profdata.formats._uleb import decode_run, encode_run
from profdata.formats.sample_body import BodyEncoder, read_profiles
from profdata.formats.sample_registry import ORDER_BINARY, SampleFormat, register
from profdata.model.names import name_bytes, name_str
from profdata.model.sample import (
    FunctionSamples,
    LineLocation,
    SampleContext,
    SampleProfile,
    SampleRecord,
    name_key,
    sort_func_profiles,
)
from profdata.model.sample_summary import summarize_profile
from profdata.model.summary import ProfileSummary, SummaryEntry
from profdata.releases import Release

SPF_BINARY = 0xFF
SPF_COMPACT_BINARY = 0x02
SPF_EXT_BINARY = 0x04
SPF_GCC = 0x03
VERSION = 103  # SPVersion()

MSG_TRUNCATED = "Truncated profile data"
MSG_MALFORMED = "Malformed sample profile data"
MSG_NAME_TABLE = "Truncated function name table"
MSG_VERSION = "Unsupported sample profile format version"
MSG_BAD_MAGIC = "Invalid sample profile data (bad magic)"
MSG_ILLEGAL_OFFSET = "Illegal line offset in sample profile data"
MSG_UNWRITABLE = "Profile encoding format unsupported for writing operations"

U32 = 0xFFFFFFFF
U64 = (1 << 64) - 1


def sp_magic(fmt: int = SPF_BINARY) -> int:
    """``SPMagic(Format)``: "SPROF42" and the format byte."""
    return 0x5350524F46343200 | fmt


def decode_uleb_prefix(data: bytes | memoryview) -> int:
    """``decodeULEB128`` of a NUL-terminated buffer start, as the format sniffers call it."""
    value = shift = 0
    for byte in bytes(data[:10]) + b"\0":
        if shift < 64:
            value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            break
    return value & U64


def sniff(data: bytes | memoryview) -> bool:
    """``SampleProfileReaderRawBinary::hasFormat``."""
    return decode_uleb_prefix(data) == sp_magic()


# -- reading -------------------------------------------------------------------
def read_number(cur: ByteReader, field: str, bits: int = 64) -> int:
    """``readNumber<T>``: a ULEB128 that must fit ``T`` and end inside the data.

    ``decodeULEB128`` is called without an error pointer: a number that grows past
    64 bits reads as 0, and only the bytes before the one that overflows are taken,
    so the next number starts at that byte."""
    start = cur.pos
    data = cur.data
    end = cur.end
    if start < end:
        first = data[start]
        if first < 0x80:
            cur.pos = start + 1
            return first
    value = shift = 0
    pos = start
    while True:
        if pos >= end:
            cur.fail(
                SampleTruncatedError, f"{field} (ULEB128) runs past the end of the data",
                field=field, at=start, llvm_message=MSG_TRUNCATED,
            )  # fmt: skip
        byte = data[pos]
        slice_ = byte & 0x7F
        if shift >= 63 and (slice_ > 1 if shift == 63 else slice_):
            cur.pos = pos  # too big for uint64: 0, and the offending byte is left unread
            return 0
        pos += 1
        value |= slice_ << shift
        shift += 7
        if byte < 0x80:
            break
    if value >> bits:
        cur.fail(
            SampleMalformedError, f"{field} does not fit in {bits} bits",
            field=field, at=start, expected=f"< 2**{bits}", found=str(value),
            llvm_message=MSG_MALFORMED,
        )  # fmt: skip
    cur.pos = pos
    return value


def read_strings(cur: ByteReader, count: int, field: str) -> list[str]:
    """``readString`` ``count`` times: each name runs to a NUL inside the data.

    The NULs are found on a numpy view of the data, in growing windows, so that
    only the names themselves are copied (once, to decode them), never what follows.
    """
    if count <= 0:
        return []
    pos = cur.pos
    used = _nth_nul_end(cur, count, field)
    cur.pos = pos + used
    # NUL is a whole character in UTF-8, so decoding once and splitting names the same.
    return name_str(bytes(cur.data[pos : pos + used - 1])).split("\0")


def _nth_nul_end(cur: ByteReader, count: int, field: str) -> int:
    """How many bytes from the cursor up to and including the ``count``-th NUL;
    without one, fails just after the last NUL there is, as ``readString`` does."""
    rest = np.frombuffer(cur.data, dtype=np.uint8, count=cur.end - cur.pos, offset=cur.pos)
    found = start = 0
    last_end = 0
    window = 64 * count
    while True:
        stop = min(len(rest), start + window)
        nuls = np.flatnonzero(rest[start:stop] == 0)
        if found + len(nuls) >= count:
            return start + int(nuls[count - found - 1]) + 1
        found += len(nuls)
        if len(nuls):
            last_end = start + int(nuls[-1]) + 1
        if stop == len(rest):
            cur.pos += last_end
            cur.fail(
                SampleTruncatedError, f"{field} has no terminating NUL before the end of the data",
                field=field, llvm_message=MSG_TRUNCATED,
            )  # fmt: skip
        start = stop
        window *= 4


def read_magic(cur: ByteReader, fmt: int) -> None:
    """``readMagicIdent``: the magic of ``fmt`` and version 103."""
    magic = read_number(cur, "magic")
    if magic != sp_magic(fmt):
        cur.fail(
            FormatError, "the magic is not this format's", field="magic", at=0,
            expected=f"0x{sp_magic(fmt):016x}", found=f"0x{magic:016x}",
            llvm_message=MSG_BAD_MAGIC,
        )  # fmt: skip
    at = cur.pos
    version = read_number(cur, "version")
    if version != VERSION:
        cur.fail(
            UnsupportedVersionError, "sample profiles have version 103 in every release",
            field="version", at=at, expected=str(VERSION), found=str(version),
            llvm_message=MSG_VERSION,
        )  # fmt: skip


def read_summary(cur: ByteReader) -> ProfileSummary:
    """``readSummary``: six counts and the detailed entries."""
    total = read_number(cur, "total_count")
    max_count = read_number(cur, "max_block_count")
    max_function = read_number(cur, "max_function_count")
    num_blocks = read_number(cur, "num_blocks")
    num_functions = read_number(cur, "num_functions")
    num_entries = read_number(cur, "num_summary_entries")
    if num_entries > cur.remaining // 3:
        cur.fail(
            SampleTruncatedError, "the summary promises more entries than bytes remain",
            field="num_summary_entries", expected=f"<= {cur.remaining // 3}",
            found=str(num_entries), llvm_message=MSG_TRUNCATED,
        )  # fmt: skip
    entries: list[SummaryEntry] = []
    for _ in range(num_entries):
        cutoff = read_number(cur, "cutoff")
        min_count = read_number(cur, "min_block_count")
        num_counts = read_number(cur, "num_blocks")
        # ProfileSummaryEntry holds a uint32_t Cutoff: a larger one is cut to it
        entries.append(SummaryEntry(cutoff & U32, min_count, num_counts))
    return ProfileSummary(
        num_functions=num_functions & U32,
        num_counts=num_blocks & U32,
        max_function_count=max_function,
        max_count=max_count,
        max_internal_count=0,
        total_count=total,
        detailed=tuple(entries),
    )


def read_name_table_size(
    cur: ByteReader, entries: str, table: str = "name table", *, at_count: bool = False
) -> int:
    """The name-table count, refused when even one byte per entry cannot fit.

    The refusal is located after the count, or at it when ``at_count``
    (the extensible binary format's MD5 table reports it there).
    """
    at = cur.pos
    size = read_number(cur, "num_names")
    if size > cur.remaining:
        cur.fail(
            SampleTruncatedError, f"the {table} promises more {entries} than bytes remain",
            field="num_names", at=at if at_count else None, expected=f"<= {cur.remaining}",
            found=str(size), llvm_message=MSG_TRUNCATED,
        )  # fmt: skip
    return size


def read_name_table(cur: ByteReader) -> list[str]:
    """``SampleProfileReaderBinary::readNameTable``: a count, then NUL-terminated names."""
    return read_strings(cur, read_name_table_size(cur, "names"), "name")


def read_uleb_md5_name_table(
    cur: ByteReader, field: str, table: str = "name table", *, at_count: bool = False
) -> list[str]:
    """A count, then that many ULEB128 MD5 values, kept as decimal text.

    The compact format's ``readNameTable`` and the extensible binary format's
    ``readNameTableSec`` (MD5, not fixed-length) read the same bytes; they only
    name the table and its entries (``field``) differently in errors, and
    locate the bad count differently (``at_count``, see :func:`read_name_table_size`).
    The values are decoded in one numpy pass over at most the bytes the
    longest 64-bit ULEB128s could take; a value cut off there, or any fault,
    is then read field by field, so errors fall where ``readNumber`` finds them.
    """
    size = read_name_table_size(cur, "hashes", table, at_count=at_count)
    run = decode_run(cur.data, cur.pos, min(cur.end, cur.pos + 10 * size))
    names = [str(value) for value in run.values[:size]]
    cur.pos = run.position(len(names))
    while len(names) < size:
        names.append(str(read_number(cur, field)))
    return names


def read_name_index(cur: ByteReader, names: list[str], field: str, bits: int = 64) -> str:
    """``readStringFromTable``: an index that must be inside the table, a ``uint32_t``
    in 16 and older (``bits``; a wider one is malformed there)."""
    at = cur.pos
    index = read_number(cur, field, bits)
    if index >= len(names):
        cur.fail(
            TruncatedError, f"{field} is past the end of the name table",
            field=field, at=at, expected=f"< {len(names)}", found=str(index),
            llvm_message=MSG_NAME_TABLE,
        )  # fmt: skip
    return names[index]


def read_body(
    cur: ByteReader,
    fs: FunctionSamples,
    names: list[str],
    release: Release,
    trailer: Callable[[ByteReader, FunctionSamples], None] | None = None,
) -> None:
    """``readProfile``: samples, body records, then the inlined callees (recursively);
    ``trailer`` reads what follows each level (ext-binary vtable type profiles)."""
    bits = release.sample_name_index_bits
    fs.add_total_samples(read_number(cur, "total_samples"))
    num_records = read_number(cur, "num_records", 32)
    body = fs.body_samples
    for _ in range(num_records):
        at = cur.pos
        offset = read_number(cur, "line_offset")
        if offset > 0xFFFF:
            if not release.sample_binary_illegal_offset_error:
                return  # LLVM <= 19 returns "success" here, mid-record, and reads on from there
            cur.fail(
                MalformedError, "a body line offset must fit in 16 bits", field="line_offset",
                at=at, expected="<= 65535", found=str(offset), llvm_message=MSG_ILLEGAL_OFFSET,
            )  # fmt: skip
        disc = read_number(cur, "discriminator") & U32
        samples = read_number(cur, "samples")
        num_calls = read_number(cur, "num_call_targets", 32)
        loc = LineLocation(offset, disc)
        if loc not in body:
            targets: dict[str, int] = {}
            for _ in range(num_calls):
                target = read_name_index(cur, names, "call_target_name_index", bits)
                count = read_number(cur, "call_target_samples")
                if target in targets:
                    count = min(U64, targets[target] + count)
                targets[target] = count
            body[loc] = SampleRecord(samples, targets)
            continue
        for _ in range(num_calls):
            target = read_name_index(cur, names, "call_target_name_index", bits)
            fs.add_called_target_samples(loc, target, read_number(cur, "call_target_samples"))
        fs.add_body_samples(loc, samples)
    num_callsites = read_number(cur, "num_callsites", 32)
    for _ in range(num_callsites):
        offset = read_number(cur, "callsite_line_offset") & U32
        disc = read_number(cur, "callsite_discriminator") & U32
        callee_name = read_name_index(cur, names, "callee_name_index", bits)
        callee = fs.callee_at(LineLocation(offset, disc), callee_name)
        read_body(cur, callee, names, release, trailer)
    if trailer is not None:
        trailer(cur, fs)


def read(
    data: bytes | memoryview, path: str | None, release: Release, *, checked: bool = False
) -> SampleProfile:
    """Read an ``SPF_Binary`` profile; the summary is the one stored in the file.  A
    function repeated in the file adds up (17+) or replaces the one before (16 and older,
    whose ``readFuncProfile`` assigns a fresh profile), as in ext-binary files.

    The profiles are walked over their pre-decoded numbers unless ``checked``
    (or that walk finds a fault), and then read field by field through the cursor.
    """
    cur = ByteReader(data, path=path)
    read_magic(cur, SPF_BINARY)
    summary = read_summary(cur)
    names = read_name_table(cur)
    with collector_paused():
        profile = SampleProfile(format="binary", summary=summary)
        if not checked:
            run = decode_run(cur.data, cur.pos, cur.end)
            merge = release.sample_binary_duplicates_merge
            if read_profiles(
                run, cur.end, names, release, profile.profiles, merge_duplicates=merge
            ):
                return profile
            profile = SampleProfile(format="binary", summary=summary)
        profiles = profile.profiles
        while cur.remaining > 0:
            head = read_number(cur, "head_samples")
            context = SampleContext(
                read_name_index(cur, names, "function_name_index", release.sample_name_index_bits)
            )
            fs = profiles.get(context)
            if fs is None or not release.sample_binary_duplicates_merge:  # 16-: the last wins
                fs = profiles[context] = FunctionSamples(context)
            fs.add_head_samples(head)
            read_body(cur, fs, names, release)
    return profile


# -- writing -------------------------------------------------------------------
def check_writable(profile: SampleProfile) -> str | None:
    """Why ``SampleProfileWriter::create`` refuses this profile for ``SPF_Binary``, if it does."""
    if profile.is_cs:
        return "the binary format cannot hold context-sensitive profiles (use --extbinary)"
    if profile.is_probe_based:
        return "the binary format cannot hold probe-based profiles (use --extbinary)"
    return None


def collect_names(profiles: Iterable[FunctionSamples], md5: bool = False) -> list[str]:
    """Every function, callee and call-target name, sorted bytewise (``stablizeNameTable``;
    ``md5``: names read as MD5 values sort as numbers, LLVM 18+)."""
    seen: set[str] = set()
    for fs in profiles:
        seen.add(fs.name)
        add_called_names(fs, seen)
    return sorted(seen, key=lambda name: name_key(name, md5))


def add_called_names(fs: FunctionSamples, names: set[str], types: bool = False) -> None:
    """The call targets and inlined callees of ``fs``, at any depth, into ``names``, and
    with ``types`` its vtable types (``addNames`` of a writer that writes type samples).

    A function of its own, not a recursive closure: a closure that calls
    itself is a reference cycle, which keeps what it captured until the
    cycle collector runs (a sample merge pauses it).
    """
    for record in fs.body_samples.values():
        if record.call_targets:
            names.update(record.call_targets)
    if types:
        for site_types in fs.type_samples.values():
            names.update(site_types)
    for callees in fs.callsite_samples.values():
        for callee in callees.values():
            names.add(callee.name)
            add_called_names(callee, names, types)


def write_summary(out: ByteWriter, summary: ProfileSummary) -> None:
    """``writeSummary``."""
    for value in (
        summary.total_count,
        summary.max_count,
        summary.max_function_count,
        summary.num_counts,
        summary.num_functions,
        len(summary.detailed),
    ):
        out.uleb128(value)
    for entry in summary.detailed:
        out.uleb128(entry.cutoff)
        out.uleb128(entry.min_count)
        out.uleb128(entry.num_counts)


def write_name_table(out: ByteWriter, names: list[str]) -> dict[str, int]:
    """``SampleProfileWriterBinary::writeNameTable``; returns each name's index."""
    out.uleb128(len(names))
    for name in names:
        out.bytes(name_bytes(name))
        out.u8(0)
    return {name: i for i, name in enumerate(names)}


def write_body(
    out: ByteWriter, fs: FunctionSamples, index: dict[str, int], md5: bool = False
) -> None:
    """``writeBody`` of one profile: name index, samples, body records, callees."""
    encoder = BodyEncoder(index, md5, lambda fs: index[fs.name])
    encoder.body(fs)
    out.bytes(encode_run(encoder.values)[0])


def write(
    profile: SampleProfile,
    *,
    skip_duplicated_into_base: bool = True,
    md5_names: bool = False,
    by_string_map_key: bool = False,
    contextless: bool | None = None,
) -> bytes:
    """``SampleProfileWriterBinary::write`` (same bytes from 14 to 22).

    ``skip_duplicated_into_base=False`` computes the summary as LLVM 14 does;
    ``by_string_map_key`` orders the profiles as 13 does; ``contextless`` is
    ``--profile-summary-contextless``.
    """
    reason = check_writable(profile)
    if reason is not None:
        raise FormatError(reason, llvm_message=MSG_UNWRITABLE)
    out = ByteWriter()
    out.uleb128(sp_magic())
    out.uleb128(VERSION)
    summary = summarize_profile(
        profile, skip_duplicated=skip_duplicated_into_base, contextless=contextless
    )
    write_summary(out, summary)
    index = write_name_table(out, collect_names(profile.profiles.values(), md5_names))
    encoder = BodyEncoder(index, md5_names, lambda fs: index[fs.name])
    ordered = sort_func_profiles(profile.profiles.values(), md5_names, by_string_map_key)
    body, _ = encoder.profiles(ordered)
    out.bytes(body)
    return out.getvalue()


register(SampleFormat("binary", ORDER_BINARY, sniff, read))
