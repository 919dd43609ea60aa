"""Extensible binary sample profiles, ``SPF_Ext_Binary`` (``sample-binary.md`` §5): reading.

Mirrors ``SampleProfileReaderExtBinary`` as llvm-profdata runs it (no module,
so every profile is loaded): the section header table is read eagerly, then
the sections are decoded in table order, skipping empty ones; a compressed
section is inflated first and must then be consumed exactly, like every
other.  The FuncOffsetTable only serves on-demand loading and is skipped, as
are section types LLVM does not know.  Names of an MD5 name table become the
decimal string of the hash (``SampleProfile.is_md5``).

The CS name table, the LBR profiles and the function metadata are walked
over their pre-decoded ULEB128 numbers (:mod:`profdata.formats.sample_body`);
when a walk meets a fault the file is read again through the checked cursor,
which reports it where LLVM does.

:func:`read_named` serves ``show --function``: every section as :func:`read`
reads it, but only the named functions built (the others checked, not built).

:func:`section_info` is ``dumpSectionInfo`` (``show --show-sec-info-only``).
The writer lives in :mod:`profdata.formats.sample_extbinary_write`.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import IntEnum
from typing import NoReturn

from profdata.errors import (
    DecompressionError,
    FormatError,
    MalformedError,
    ProfdataError,
    SampleMalformedError,
    SampleTruncatedError,
    TruncatedError,
)
from profdata.formats._binary import ByteReader
from profdata.formats._collector import collector_paused
from profdata.formats._uleb import UlebRun, decode_run
from profdata.formats.sample_binary import (
    MSG_ILLEGAL_OFFSET,
    MSG_MALFORMED,
    MSG_NAME_TABLE,
    MSG_TRUNCATED,
    SPF_EXT_BINARY,
    U32,
    decode_uleb_prefix,
    read_body,
    read_magic,
    read_name_index,
    read_name_table,
    read_number,
    read_strings,
    read_summary,
    read_uleb_md5_name_table,
    sp_magic,
)
from profdata.formats.sample_body import function_spans, read_profiles
from profdata.formats.sample_registry import ORDER_EXT_BINARY, SampleFormat, register
from profdata.formats.sample_text import context_of_name
from profdata.model.names import name_bytes
from profdata.model.sample import (
    FunctionSamples,
    LineLocation,
    SampleContext,
    SampleContextFrame,
    SampleProfile,
)
from profdata.releases import Release

MSG_UNCOMPRESS = "Uncompress failure"
#: how far past the end of the file a section that runs past it is read (as zeros)
_PAST_THE_END = 4096
SEC_ENTRY_SIZE = 32  # 4 x u64: Type, Flags, Offset, Size


_MAX_INFLATE = 1032  # deflate's largest expansion of one input byte
#: how much of a compressed section's stated size a shorter stream may leave as zeros
_MAX_TAIL = 1 << 24


class SecType(IntEnum):
    """``SecType``."""

    INVALID = 0  # SecInValid
    PROFILE_SUMMARY = 1  # SecProfSummary
    NAME_TABLE = 2  # SecNameTable
    PROFILE_SYMBOL_LIST = 3  # SecProfileSymbolList
    FUNC_OFFSET_TABLE = 4  # SecFuncOffsetTable
    FUNC_METADATA = 5  # SecFuncMetadata
    CS_NAME_TABLE = 6  # SecCSNameTable
    LBR_PROFILE = 32  # SecLBRProfile


#: the section types :meth:`_Reader.decode` reads (the FuncOffsetTable apart)
_DECODED = frozenset(
    {
        SecType.PROFILE_SUMMARY, SecType.NAME_TABLE, SecType.CS_NAME_TABLE,
        SecType.LBR_PROFILE, SecType.FUNC_METADATA, SecType.PROFILE_SYMBOL_LIST,
    }
)  # fmt: skip


SEC_NAMES: dict[int, str] = {
    SecType.INVALID: "InvalidSection",
    SecType.PROFILE_SUMMARY: "ProfileSummarySection",
    SecType.NAME_TABLE: "NameTableSection",
    SecType.PROFILE_SYMBOL_LIST: "ProfileSymbolListSection",
    SecType.FUNC_OFFSET_TABLE: "FuncOffsetTableSection",
    SecType.FUNC_METADATA: "FunctionMetadata",
    SecType.CS_NAME_TABLE: "CSNameTableSection",
    SecType.LBR_PROFILE: "LBRProfileSection",
}

# Common flags are the low 32 bits; a section's own flags are shifted into the high 32.
FLAG_COMPRESS = 1  # SecCommonFlags::SecFlagCompress
FLAG_FLAT = 2  # SecCommonFlags::SecFlagFlat
FLAG_MD5_NAME = 1 << 32  # SecNameTableFlags::SecFlagMD5Name
FLAG_FIXED_LENGTH_MD5 = 2 << 32  # SecNameTableFlags::SecFlagFixedLengthMD5
FLAG_UNIQ_SUFFIX = 4 << 32  # SecNameTableFlags::SecFlagUniqSuffix
FLAG_PARTIAL = 1 << 32  # SecProfSummaryFlags::SecFlagPartial
FLAG_FULL_CONTEXT = 2 << 32  # SecProfSummaryFlags::SecFlagFullContext
FLAG_FS_DISCRIMINATOR = 4 << 32  # SecProfSummaryFlags::SecFlagFSDiscriminator
FLAG_IS_PREINLINED = 16 << 32  # SecProfSummaryFlags::SecFlagIsPreInlined
FLAG_HAS_VTABLE_TYPE_PROF = 32 << 32  # SecProfSummaryFlags::SecFlagHasVTableTypeProf
FLAG_PROBE_BASED = 1 << 32  # SecFuncMetadataFlags::SecFlagIsProbeBased
FLAG_HAS_ATTRIBUTE = 2 << 32  # SecFuncMetadataFlags::SecFlagHasAttribute
FLAG_ORDERED = 1 << 32  # SecFuncOffsetFlags::SecFlagOrdered


@dataclass(frozen=True)
class SecHdrTableEntry:
    """One entry of the section header table (``SecHdrTableEntry``)."""

    type: int
    flags: int
    offset: int
    size: int
    table_at: int = 0  # where the entry sits in the file (for error locations)

    def has(self, flag: int) -> bool:
        return bool(self.flags & flag)


def sniff(data: bytes | memoryview) -> bool:
    """``SampleProfileReaderExtBinary::hasFormat``."""
    return decode_uleb_prefix(data) == sp_magic(SPF_EXT_BINARY)


def read_section_table(cur: ByteReader) -> list[SecHdrTableEntry]:
    """``readHeader``: magic, version, then ``readSecHdrTable`` (u64 LE count and entries)."""
    read_magic(cur, SPF_EXT_BINARY)
    at = cur.pos
    if cur.remaining < 8:
        _truncated(cur, "num_sections", 8, at)
    count = cur.u64("num_sections")
    if count > cur.remaining // SEC_ENTRY_SIZE:
        _truncated(cur, "section_header_table", count * SEC_ENTRY_SIZE, cur.pos)
    table: list[SecHdrTableEntry] = []
    for _ in range(count):
        at = cur.pos
        kind, flags, offset, size = cur.words(4, "section_header")
        # the type word becomes a ``SecType``, a C++ enum of 32 bits: its high half is lost
        kind &= 0xFFFFFFFF
        table.append(SecHdrTableEntry(kind, flags, offset, size, table_at=at))
    return table


def _truncated(cur: ByteReader, field: str, wanted: int, at: int) -> None:
    cur.fail(
        SampleTruncatedError, f"{field} runs past the end of the file", field=field, at=at,
        expected=f"{wanted} bytes", found=f"{max(cur.end - at, 0)} bytes left",
        llvm_message=MSG_TRUNCATED,
    )  # fmt: skip


class _MetadataWalk:
    """One function's metadata and its inlinees', over a section's pre-decoded numbers
    (:meth:`_Reader.metadata_walk`); ``-1`` on a fault.

    A class, not a recursive closure: a closure that calls itself is a
    reference cycle, which kept every input's profile of a sample merge until
    the end (the merge pauses the cycle collector).
    """

    def __init__(
        self,
        values: list[int],
        probe: bool,
        attributes: bool,
        top_level_only: bool,
        context: Callable[[int], SampleContext],
    ) -> None:
        self.values = values
        self.probe = probe
        self.attributes = attributes
        self.top_level_only = top_level_only
        self.context = context

    def walk(self, i: int, fs: FunctionSamples | None) -> int:
        values = self.values
        if i >= len(values):  # at the end of the section an inlinee may go without
            return i
        if self.probe:
            if fs is not None:
                fs.function_hash = values[i]
            i += 1
        if self.attributes:
            value = values[i]
            i += 1
            if value > U32:
                return -1
            if fs is not None:
                fs.attributes = value
        if self.top_level_only:
            return i
        num_callsites = values[i]
        i += 1
        if num_callsites > U32:
            return -1
        for _ in range(num_callsites):
            loc = LineLocation(values[i] & U32, values[i + 1] & U32)
            name = self.context(values[i + 2]).name
            callee = fs.callee_at(loc, name, named=False) if fs is not None else None
            i = self.walk(i + 3, callee)
            if i < 0:
                return -1
        return i


class _Reader:
    """The state ``SampleProfileReaderExtBinaryBase`` keeps while decoding sections."""

    def __init__(
        self, data: memoryview, path: str | None, release: Release, checked: bool = False
    ) -> None:
        self.data = data
        self.path = path
        self.release = release
        self.index_bits = release.sample_name_index_bits
        self.names: list[str] = []
        self.contexts: list[SampleContext] = []
        self.profile = SampleProfile(format="extbinary")
        self.has_vtables = False
        #: read every section through the checked cursor, field by field
        self.checked = checked
        #: the pre-decoded walk found a fault: read the file again, checked
        self.recheck = False

    # -- sections ------------------------------------------------------------
    def section(self, entry: SecHdrTableEntry) -> None:
        """``readOneSection`` for one table entry, then the exact-consumption check."""
        file_cur = ByteReader(self.data, path=self.path)
        size = len(self.data)
        beyond = entry.offset > size or entry.size > size - entry.offset
        compressed = entry.has(FLAG_COMPRESS)
        if beyond and not compressed and self.stepped_over(entry.type):
            return  # its offset and size are pointer arithmetic, never read
        if entry.offset > size:
            self.beyond_the_end(file_cur, entry)
        if beyond and not compressed:
            self.read_past_the_end(file_cur, entry)
        # a compressed section's size only bounds its two sizes: the stream is read as far
        # as it goes and the inflated bytes are the section, so a stated size past the end
        # of the file is no fault of its own
        end = min(entry.offset + entry.size, size)
        cur = ByteReader(self.data, path=self.path, pos=entry.offset, end=end)
        if compressed:
            cur = self.decompress(cur)
        start = cur.pos
        self.decode(cur, entry)
        if cur.pos != cur.end:  # an error code, not a diagnostic: --failure-mode=all skips it
            cur.fail(
                MalformedError,
                f"{SEC_NAMES.get(entry.type, 'UnknownSection')} was not consumed exactly",
                field="section_size", expected=f"{cur.end - start} bytes",
                found=f"{cur.pos - start} bytes read", llvm_message=MSG_MALFORMED,
            )  # fmt: skip

    def stepped_over(self, kind: int) -> bool:
        """Whether ``readOneSection`` leaves a section of this type unread: a type it does
        not know, or (19+) the FuncOffsetTable, which only on-demand loading reads."""
        if kind == SecType.FUNC_OFFSET_TABLE:
            return self.release.sample_skips_func_offset_table
        return kind not in _DECODED

    def read_past_the_end(self, file_cur: ByteReader, entry: SecHdrTableEntry) -> NoReturn:
        """A section that starts in the file and runs past its end: LLVM reads it as far as
        it goes.  What it finds wrong inside the file is its error (read here with zeros
        after the file, what the memory after a mapped file holds); whatever happens
        beyond the file depends on memory no reader can know, and is our error."""
        size = len(self.data)
        padded = bytes(self.data) + bytes(min(entry.offset + entry.size - size, _PAST_THE_END))
        cur = ByteReader(memoryview(padded), path=self.path, pos=entry.offset, end=len(padded))
        self.checked = True
        try:
            self.decode(cur, entry)
        except FormatError as exc:
            if exc.location.offset is not None and exc.location.offset < size:
                raise
        self.beyond_the_end(file_cur, entry)

    def beyond_the_end(self, file_cur: ByteReader, entry: SecHdrTableEntry) -> NoReturn:
        file_cur.fail(
            MalformedError,
            f"{SEC_NAMES.get(entry.type, 'UnknownSection')} lies beyond the end of the file",
            field="section_offset", at=entry.table_at + 16,
            expected=f"offset + size <= {len(self.data)}",
            found=f"{entry.offset} + {entry.size}", llvm_message=MSG_MALFORMED,
        )  # fmt: skip

    def decompress(self, cur: ByteReader) -> ByteReader:
        """``decompressSection``: ULEB sizes, then a zlib stream inflated into that size."""
        section_start = cur.pos
        size = read_number(cur, "uncompressed_size")
        at = cur.pos
        compressed_size = read_number(cur, "compressed_size")
        # zlib is handed ``compressed_size`` bytes from here, past the section's end if it
        # says so, and reads what the stream needs: a stream that ends in the file inflates
        # (one that runs past it is incomplete below; LLVM reads on into what follows)
        blob = self.data[cur.pos : cur.pos + min(compressed_size, len(self.data) - cur.pos)]
        # deflate expands a byte to at most 1032: no stream inflates past this, so a stated
        # size above it (up to 2**64-1) fails below without asking zlib for that buffer
        # (a stated size of 0 asks for one byte: zlib reads a limit of 0 as none)
        limit = max(1, min(size, _MAX_INFLATE * len(blob) + 64))
        try:
            inflater = zlib.decompressobj()
            out = inflater.decompress(blob, limit)
        except zlib.error as exc:
            cur.fail(
                DecompressionError, f"zlib: {exc}", field="compressed_data",
                at=at, llvm_message=MSG_UNCOMPRESS,
            )  # fmt: skip
        # ``uncompress`` into a buffer of the stated size: a stream that ends with fewer
        # bytes is fine, but the section stays as long as stated, its tail the fresh
        # allocator memory (zeros) the stream did not fill; one that needs more fails.
        # (LLVM runs out of memory on stated sizes near 2**40; a tail over _MAX_TAIL fails.)
        short = len(out) < size and inflater.eof and not inflater.unconsumed_tail
        if short and size - len(out) <= _MAX_TAIL:
            out += bytes(size - len(out))
        if len(out) != size or not inflater.eof or inflater.unconsumed_tail:
            cur.fail(
                DecompressionError, "the zlib stream does not inflate to the stated size",
                field="uncompressed_size", at=section_start, expected=str(size),
                found=f"{len(out)} bytes" + ("" if inflater.eof else " (stream incomplete)"),
                llvm_message=MSG_UNCOMPRESS,
            )  # fmt: skip
        # The consumption check then applies to the inflated bytes, as in LLVM.
        return ByteReader(out, path=self.path, base=cur.base)

    def decode(self, cur: ByteReader, entry: SecHdrTableEntry) -> None:
        profile = self.profile
        kind = entry.type
        if kind == SecType.PROFILE_SUMMARY:
            profile.summary = read_summary(cur)
            profile.is_partial = entry.has(FLAG_PARTIAL)
            profile.is_cs = profile.is_cs or entry.has(FLAG_FULL_CONTEXT)
            # LLVM 14's flag 16 (IsCSNested) marks no profile as preinlined; what it does to
            # the writer's static flag is ``sample_static_flags.static_preinlined_flag``'s
            profile.nested_flag_read = entry.has(FLAG_IS_PREINLINED)
            nested = profile.nested_flag_read and self.release.sample_preinlined_flag
            profile.is_preinlined = profile.is_preinlined or nested
            profile.is_fs = profile.is_fs or entry.has(FLAG_FS_DISCRIMINATOR)
            vtables = entry.has(FLAG_HAS_VTABLE_TYPE_PROF)
            self.has_vtables = vtables and self.release.sample_vtable_types
        elif kind == SecType.NAME_TABLE:
            md5 = entry.has(FLAG_MD5_NAME)
            fixed = entry.has(FLAG_FIXED_LENGTH_MD5)
            if fixed and not md5:  # only a damaged (or foreign) file has one flag alone
                # 18+ reads the fixed-length hashes as FunctionIds anyway (after printing
                # "If FixedLengthMD5 is true, UseMD5 has to be true", which profdata does
                # not), so they order, key and merge as MD5 names; before 18 only the MD5
                # flag asked for hashes and the table is read as strings
                md5 = self.release.sample_md5_function_ids
                fixed = md5
            profile.is_md5 = profile.is_md5 or md5
            self.names = self.name_table(cur, md5, fixed)
            if profile.is_cs and self.release.sample_string_map_profiles:
                # 13 has no CS name table: a context is its "[...]" string in this one
                self.contexts = [context_of_name(name_bytes(n)) for n in self.names]
        elif kind == SecType.CS_NAME_TABLE:
            contexts = None if self.checked else self.cs_name_table_walk(cur)
            self.contexts = self.cs_name_table(cur) if contexts is None else contexts
        elif kind == SecType.LBR_PROFILE:
            if not self.checked:
                self.recheck = not self.lbr_profiles(cur)
                cur.pos = cur.end
            while cur.pos < cur.end:
                self.function_profile(cur)
        elif kind == SecType.FUNC_METADATA:
            probe = entry.has(FLAG_PROBE_BASED)
            profile.is_probe_based = probe
            profile.probe_flag_read = True
            attributes = entry.has(FLAG_HAS_ATTRIBUTE)
            if not self.checked:
                self.recheck = not self.metadata_walk(cur, probe, attributes)
                cur.pos = cur.end
            while cur.pos < cur.end:
                context = self.context_from_table(cur)
                self.metadata(cur, profile.profiles.get(context), probe, attributes)
        elif kind == SecType.PROFILE_SYMBOL_LIST:
            self.symbol_list(cur)
        elif kind == SecType.FUNC_OFFSET_TABLE and not self.stepped_over(kind):
            self.func_offset_table(cur)
        else:  # FuncOffsetTable (19+: on-demand loading only) and unknown sections
            cur.pos = cur.end

    def name_table(self, cur: ByteReader, md5: bool, fixed_length: bool) -> list[str]:
        """``readNameTableSec``: strings, ULEB MD5 values, or u64 LE MD5 values.  An MD5
        value of 0 is the name "" where names are ``FunctionId``s (18+: its ``str()``
        prints nothing), "0" before."""
        names = self._name_table(cur, md5, fixed_length)
        if md5 and self.release.sample_md5_function_ids and "0" in names:
            names = ["" if name == "0" else name for name in names]
        return names

    def _name_table(self, cur: ByteReader, md5: bool, fixed_length: bool) -> list[str]:
        if not fixed_length:
            if md5:
                return read_uleb_md5_name_table(cur, "md5_name", "MD5 name table", at_count=True)
            return read_name_table(cur)
        at = cur.pos
        size = read_number(cur, "num_names")
        if size > cur.remaining // 8:
            cur.fail(
                SampleTruncatedError, "the MD5 name table has fewer hashes than it promises",
                field="num_names", at=at, expected=f"<= {cur.remaining // 8}",
                found=str(size), llvm_message=MSG_TRUNCATED,
            )  # fmt: skip
        return [str(h) for h in cur.array("<u8", size, "md5_name").tolist()]

    def cs_name_table(self, cur: ByteReader) -> list[SampleContext]:
        """``readCSNameTableSec``: contexts of (name index, line offset, discriminator)."""
        at = cur.pos
        size = read_number(cur, "num_contexts")
        if size > cur.remaining:
            cur.fail(
                SampleTruncatedError, "the CS name table promises more contexts than bytes remain",
                field="num_contexts", at=at, expected=f"<= {cur.remaining}", found=str(size),
                llvm_message=MSG_TRUNCATED,
            )  # fmt: skip
        contexts: list[SampleContext] = []
        for _ in range(size):
            frames: list[SampleContextFrame] = []
            for _ in range(read_number(cur, "num_frames", 32)):
                name = read_name_index(cur, self.names, "frame_name_index", self.index_bits)
                start = cur.pos
                offset = read_number(cur, "frame_line_offset")
                if offset > 0xFFFF:
                    legal = self.release.sample_binary_illegal_offset_error
                    message = MSG_ILLEGAL_OFFSET if legal else MSG_MALFORMED
                    cur.fail(
                        SampleMalformedError, "a frame line offset must fit in 16 bits",
                        field="frame_line_offset", at=start, expected="<= 65535",
                        found=str(offset), llvm_message=message,
                    )  # fmt: skip
                disc = read_number(cur, "frame_discriminator")
                frames.append(SampleContextFrame(name, LineLocation(offset, disc)))
            contexts.append(SampleContext.of_frames(frames))
        return contexts

    def lbr_profiles(self, cur: ByteReader) -> bool:
        """The section's profiles walked over its pre-decoded numbers (``False`` on a fault)."""
        run = decode_run(cur.data, cur.pos, cur.end)
        return read_profiles(
            run, cur.end, self.names, self.release, self.profile.profiles,
            contexts=self.contexts if self.profile.is_cs else None,
            merge_duplicates=self.release.sample_binary_duplicates_merge,
            vtables=self.has_vtables,
        )  # fmt: skip

    def cs_name_table_walk(self, cur: ByteReader) -> list[SampleContext] | None:
        """:meth:`cs_name_table` over pre-decoded numbers; ``None`` on a fault, with the
        cursor left for :meth:`cs_name_table` to find it."""
        run = decode_run(cur.data, cur.pos, cur.end)
        values = run.values
        names = self.names
        frame = SampleContextFrame
        contexts: list[SampleContext] = []
        try:  # a count past the numbers runs out of them as surely as of bytes
            i = 1
            for _ in range(values[0]):
                num_frames = values[i]
                i += 1
                if num_frames > U32:
                    return None
                frames: list[SampleContextFrame] = []
                for _ in range(num_frames):
                    offset = values[i + 1]
                    if offset > 0xFFFF:
                        return None
                    frames.append(frame(names[values[i]], LineLocation(offset, values[i + 2])))
                    i += 3
                contexts.append(SampleContext.of_frames(frames))
        except IndexError:
            return None
        cur.pos = run.position(i)
        return contexts

    def func_offset_table(self, cur: ByteReader) -> None:
        """``readFuncOffsetTable`` of 14-18: a count, then a context and an offset each.
        Only on-demand loading uses the offsets, but the table is read, so a context index
        past its table, a cut number or bytes left over fail the file there."""
        for _ in range(read_number(cur, "func_offset_table.count")):
            self.context_from_table(cur)
            read_number(cur, "func_offset_table.offset")

    def context_from_table(self, cur: ByteReader) -> SampleContext:
        """``readSampleContextFromTable``: a CS context index, or a name index."""
        if not self.profile.is_cs:
            return SampleContext(
                read_name_index(cur, self.names, "function_name_index", self.index_bits)
            )
        at = cur.pos
        index = read_number(cur, "context_index")
        if index >= len(self.contexts):
            cur.fail(
                TruncatedError, "context_index is past the end of the CS name table",
                field="context_index", at=at, expected=f"< {len(self.contexts)}",
                found=str(index), llvm_message=MSG_NAME_TABLE,
            )  # fmt: skip
        return self.contexts[index]

    def function_profile(self, cur: ByteReader) -> None:
        """``readFuncProfile``: head samples, the context, then the body."""
        head = read_number(cur, "head_samples")
        context = self.context_from_table(cur)
        profiles = self.profile.profiles
        fs = profiles.get(context)
        if fs is None or not self.release.sample_binary_duplicates_merge:
            fs = profiles[context] = FunctionSamples(context)
        fs.add_head_samples(head)
        trailer = self.vtable_profile if self.has_vtables else None
        read_body(cur, fs, self.names, self.release, trailer)

    def vtable_profile(self, cur: ByteReader, fs: FunctionSamples) -> None:
        """``readCallsiteVTableProf`` (LLVM 22, ``HasVTableTypeProf``), after each level."""
        for _ in range(read_number(cur, "num_vtable_callsites", 32)):
            start = cur.pos
            offset = read_number(cur, "vtable_line_offset")
            if offset > 0xFFFF:
                cur.fail(
                    SampleMalformedError, "a line offset must fit in 16 bits",
                    field="vtable_line_offset", at=start, expected="<= 65535",
                    found=str(offset), llvm_message=MSG_ILLEGAL_OFFSET,
                )  # fmt: skip
            loc = LineLocation(offset, read_number(cur, "vtable_discriminator") & U32)
            types = fs.type_samples_at(loc)
            for _ in range(read_number(cur, "num_vtable_types", 32)):
                name = read_name_index(cur, self.names, "vtable_type_name_index", self.index_bits)
                types[name] = read_number(cur, "vtable_type_count")

    def metadata(
        self, cur: ByteReader, fs: FunctionSamples | None, probe: bool, attributes: bool
    ) -> None:
        """``readFuncMetadata`` of one profile: checksum, attributes, inlinees (non-CS)."""
        if cur.pos >= cur.end:
            return
        if probe:
            checksum = read_number(cur, "checksum")
            if fs is not None:
                fs.function_hash = checksum
        if attributes:
            value = read_number(cur, "attributes", 32)
            if fs is not None:
                fs.attributes = value
        if self.profile.is_cs or self.release.sample_string_map_profiles:
            return  # 13 keeps no inlinee metadata
        for _ in range(read_number(cur, "num_callsites", 32)):
            offset = read_number(cur, "callsite_line_offset")
            disc = read_number(cur, "callsite_discriminator")
            callee = self.context_from_table(cur)
            inlinee = None
            if fs is not None:
                loc = LineLocation(offset & U32, disc & U32)
                inlinee = fs.callee_at(loc, callee.name, named=False)
            self.metadata(cur, inlinee, probe, attributes)

    def metadata_walk(self, cur: ByteReader, probe: bool, attributes: bool) -> bool:
        """The section's metadata over its pre-decoded numbers, as :meth:`metadata` reads
        it; ``False`` on a fault (the checked cursor reads the file again)."""
        run = decode_run(cur.data, cur.pos, cur.end)
        is_cs = self.profile.is_cs
        top_level_only = is_cs or self.release.sample_string_map_profiles
        contexts = self.contexts
        names = self.names

        def context(index: int) -> SampleContext:
            return contexts[index] if is_cs else SampleContext(names[index])

        walk = _MetadataWalk(run.values, probe, attributes, top_level_only, context)
        values, count = run.values, len(run.values)
        profiles = self.profile.profiles
        i = 0
        try:
            while i < count:
                i = walk.walk(i + 1, profiles.get(context(values[i])))
                if i < 0:
                    return False
        except IndexError:
            return False
        return run.end == cur.end

    def symbol_list(self, cur: ByteReader) -> None:
        """``ProfileSymbolList::read``: NUL-terminated names filling the section."""
        blob = bytes(cur.data[cur.pos : cur.end])
        count = blob.count(b"\0")
        if not blob.endswith(b"\0"):
            cur.pos += blob.rfind(b"\0") + 1
            cur.fail(
                SampleMalformedError, "the last symbol has no terminating NUL",
                field="symbol", llvm_message=MSG_MALFORMED,
            )  # fmt: skip
        symbols = read_strings(cur, count, "symbol")
        # a set in LLVM; kept in file order here, which --profile-symbol-list-cutoff cuts
        known = dict.fromkeys(self.profile.symbol_list or ())
        known.update(dict.fromkeys(symbols))
        self.profile.symbol_list = tuple(known)


def read(
    data: bytes | memoryview, path: str | None, release: Release, *, checked: bool = False
) -> SampleProfile:
    """Read an ``SPF_Ext_Binary`` profile; sections in table order, empty ones skipped.

    LBR profiles are walked over their pre-decoded numbers unless ``checked``;
    when that walk finds a fault the whole file is read again, ``checked``.
    """
    view = memoryview(data).cast("B") if not isinstance(data, memoryview) else data
    table = read_section_table(ByteReader(view, path=path))
    with collector_paused():
        reader = _Reader(view, path, release, checked)
        for entry in table:
            if entry.size:
                reader.section(entry)
                if reader.recheck:
                    return read(view, path, release, checked=True)
    return reader.profile


class _NamedReader(_Reader):
    """A :class:`_Reader` that builds only the function profiles whose plain context
    is one of ``wanted``.

    llvm-profdata reads every function (with no module it skips the
    FuncOffsetTable, ``readOneSection``), so a fault anywhere in the LBR
    profiles is its error even when another function is asked for.  The
    other functions are therefore still walked, by :func:`function_spans`,
    which checks them without building them and gives up (``recheck``) on
    anything the full read's walk could treat differently.
    """

    def __init__(
        self, data: memoryview, path: str | None, release: Release, wanted: frozenset[str]
    ) -> None:
        super().__init__(data, path, release)
        self.wanted = wanted

    def lbr_profiles(self, cur: ByteReader) -> bool:
        run = decode_run(cur.data, cur.pos, cur.end)
        names = self.names
        profile = self.profile
        contexts = self.contexts
        if profile.is_cs:  # a plain name is never equal to a calling context
            size = len(contexts)
            wanted = {i for i, c in enumerate(contexts) if not c.frames and c.name in self.wanted}
        else:
            size = len(names)
            wanted = {i for i, name in enumerate(names) if name in self.wanted}
        spans = function_spans(run, cur.end, len(names), size, wanted, self.has_vtables)
        if spans is None:
            return False
        for start, stop in spans:
            one = UlebRun(
                run.values[start:stop],
                run.starts[start:stop],
                run.position(stop),
                run.array[start:stop],
            )
            read = read_profiles(
                one, one.end, names, self.release, profile.profiles,
                contexts=contexts if profile.is_cs else None,
                merge_duplicates=self.release.sample_binary_duplicates_merge,
                vtables=self.has_vtables,
            )  # fmt: skip
            if not read:
                return False
        return True


def read_named(
    data: bytes | memoryview, path: str | None, release: Release, wanted: Collection[str]
) -> SampleProfile | None:
    """The profile :func:`read` gives, but with only the function profiles whose plain
    context is one of ``wanted``; ``None`` when the full read must decide.

    Every section but the LBR profiles is read as :func:`read` reads it, so the
    summary, flags, symbol list and metadata are the full read's.  Faults are
    not raised here: the full read reports them where LLVM does.
    """
    view = memoryview(data).cast("B") if not isinstance(data, memoryview) else data
    try:
        table = read_section_table(ByteReader(view, path=path))
        with collector_paused():
            reader = _NamedReader(view, path, release, frozenset(wanted))
            for entry in table:
                if entry.size:
                    reader.section(entry)
                    if reader.recheck:
                        return None
    except ProfdataError:
        return None
    return reader.profile


def _flags_text(entry: SecHdrTableEntry, release: Release) -> str:
    """``getSecFlagsStr``."""
    parts: list[str] = []
    if entry.has(FLAG_COMPRESS):
        parts.append("compressed")
    if entry.has(FLAG_FLAT):
        parts.append("flat")
    kind = entry.type
    if kind == SecType.NAME_TABLE:
        if entry.has(FLAG_FIXED_LENGTH_MD5):
            parts.append("fixlenmd5")
        elif entry.has(FLAG_MD5_NAME):
            parts.append("md5")
        if entry.has(FLAG_UNIQ_SUFFIX):
            parts.append("uniq")
    elif kind == SecType.PROFILE_SUMMARY:
        for flag, word in (
            (FLAG_PARTIAL, "partial"),
            (FLAG_FULL_CONTEXT, "context"),
            (
                0 if release.sample_string_map_profiles else FLAG_IS_PREINLINED,
                "preInlined" if release.sample_preinlined_flag else "context-nested",
            ),
            (FLAG_FS_DISCRIMINATOR, "fs-discriminator"),
        ):
            if entry.has(flag):
                parts.append(word)
    elif release.sample_string_map_profiles:
        pass  # 13 names no flag of the offset table or the metadata
    elif kind == SecType.FUNC_OFFSET_TABLE:
        if entry.has(FLAG_ORDERED):
            parts.append("ordered")
    elif kind == SecType.FUNC_METADATA:
        if entry.has(FLAG_PROBE_BASED):
            parts.append("probe")
        if entry.has(FLAG_HAS_ATTRIBUTE):
            parts.append("attr")
    return "{" + ",".join(parts) + "}"


def section_info(data: memoryview, path: str | None, release: Release) -> str:
    """``dumpSectionInfo``: one line per table entry, then the header and file sizes."""
    table = read_section_table(ByteReader(data, path=path))
    lines = [
        f"{SEC_NAMES.get(e.type, 'UnknownSection')} - Offset: {e.offset}, Size: {e.size}, "
        f"Flags: {_flags_text(e, release)}\n"
        for e in table
    ]
    header = table[0].offset if table else 0
    total = sum(e.size for e in table)
    lines.append(f"Header Size: {header}\n")
    lines.append(f"Total Sections Size: {total}\n")
    # ``getFileSize``: where the last section ends by the table, not the file's length
    # (the offset table is written after the profiles it indexes, so the largest end)
    end = max(((e.offset + e.size) & 0xFFFFFFFFFFFFFFFF for e in table), default=0)
    lines.append(f"File Size: {end}\n")
    return "".join(lines)


register(SampleFormat("extbinary", ORDER_EXT_BINARY, sniff, read, section_info=section_info))
