"""Extensible binary sample profiles (``sample-binary.md`` §5): the writer.

Mirrors ``SampleProfileWriterExtBinary``: the header and a section table of
``-1`` placeholders, then the sections in LLVM's write order (which differs
from the table order, §5.10), each written into its own buffer so that a
compressed section is the zlib stream of exactly those bytes and the function
offsets stay relative to the uncompressed LBR section.  Section flags are
added when LLVM adds them (the uniq-suffix and ordered flags while the section
is written), and the table records each entry's flags as they were when the
section ended, so the bytes match llvm-profdata 14, 16, 19 and 22.

FuncMetadata follows the profile map's iteration order (§5.8), which the
caller may pass (``map_order``) when it erases profiles from a map it already
ordered, as ``--output-size-limit`` does.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from profdata.formats._binary import ByteWriter
from profdata.formats._uleb import encode_run
from profdata.formats.sample_binary import (
    SPF_EXT_BINARY,
    VERSION,
    add_called_names,
    sp_magic,
    write_summary,
)
from profdata.formats.sample_body import BodyEncoder
from profdata.formats.sample_extbinary import (
    FLAG_COMPRESS,
    FLAG_FIXED_LENGTH_MD5,
    FLAG_FLAT,
    FLAG_FS_DISCRIMINATOR,
    FLAG_FULL_CONTEXT,
    FLAG_HAS_ATTRIBUTE,
    FLAG_HAS_VTABLE_TYPE_PROF,
    FLAG_IS_PREINLINED,
    FLAG_MD5_NAME,
    FLAG_ORDERED,
    FLAG_PARTIAL,
    FLAG_PROBE_BASED,
    FLAG_UNIQ_SUFFIX,
    SecType,
)
from profdata.model.names import name_bytes
from profdata.model.sample import (
    FunctionSamples,
    SampleContext,
    SampleProfile,
    context_key,
    empty_cs_context,
    name_key,
    sort_func_profiles,
    string_map_key,
)
from profdata.model.sample_map_order import function_id_hash, profile_map_order
from profdata.model.sample_summary import summarize_profile
from profdata.model.summary import ProfileSummary

UNIQ_SUFFIX = ".__uniq."  # FunctionSamples::UniqSuffix

#: table order of ``ExtBinaryHdrLayoutTable`` and the order the sections are written in
DEFAULT_LAYOUT = (
    SecType.PROFILE_SUMMARY,
    SecType.NAME_TABLE,
    SecType.CS_NAME_TABLE,
    SecType.FUNC_OFFSET_TABLE,
    SecType.LBR_PROFILE,
    SecType.PROFILE_SYMBOL_LIST,
    SecType.FUNC_METADATA,
)
DEFAULT_WRITE_ORDER = (0, 1, 2, 4, 5, 3, 6)  # writeDefaultLayout
SPLIT_LAYOUT = (
    SecType.PROFILE_SUMMARY,
    SecType.NAME_TABLE,
    SecType.FUNC_OFFSET_TABLE,  # profiles with inlinees
    SecType.LBR_PROFILE,
    SecType.FUNC_OFFSET_TABLE,  # profiles without inlinees (Flat)
    SecType.LBR_PROFILE,
    SecType.PROFILE_SYMBOL_LIST,
    SecType.FUNC_METADATA,
)
SPLIT_WRITE_ORDER = (0, 1, 3, 2, 5, 4, 6, 7)  # writeCtxSplitLayout
SPLIT_FLAT_SECTIONS = (4, 5)
#: LLVM 13's layout: no CS name table (contexts are ``[...]`` names in the name table)
STRING_MAP_LAYOUT = (
    SecType.PROFILE_SUMMARY,
    SecType.NAME_TABLE,
    SecType.FUNC_OFFSET_TABLE,
    SecType.LBR_PROFILE,
    SecType.PROFILE_SYMBOL_LIST,
    SecType.FUNC_METADATA,
)
STRING_MAP_WRITE_ORDER = (0, 1, 3, 4, 2, 5)


@dataclass(frozen=True)
class ExtBinaryWriteOptions:
    """The writer's settings (``handleExtBinaryWriter``'s setters) and release behaviour."""

    compress_all_sections: bool = False  # setToCompressAllSections
    use_md5: bool = False  # setUseMD5: MD5Name | FixedLengthMD5
    partial: bool = False  # setPartialProfile
    split_layout: bool = False  # setUseCtxSplitLayout (LLVM 20+)
    skip_duplicated_into_base: bool = True  # the summary as 16+ computes it
    md5_frames: bool = True  # how the profile map hashes CS contexts (14/16: False)
    md5_function_ids: bool = True  # MD5 names are hash values, not strings (14/16: False)
    #: LLVM 13 (``Release.sample_string_map_profiles``): :data:`STRING_MAP_LAYOUT`, CS
    #: contexts as bracketed names, profiles by name descending on ties, offsets in write
    #: order (never Ordered), FuncMetadata of top-level profiles only
    string_map_profiles: bool = False
    contextless: bool | None = None  # --profile-summary-contextless (None: not given)
    #: --extbinary-write-vtable-type-prof (LLVM 22): type samples after each level's
    #: callees, their names in the name table, and the summary's HasVTableTypeProf flag
    vtable_types: bool = False


class SectionWriter:
    """The sections of one profile; the column writer (``sample_column_write``) gives
    it other names, summary and profile bodies."""

    def __init__(self, profile: SampleProfile, options: ExtBinaryWriteOptions) -> None:
        self.profile = profile
        self.options = options
        self.md5 = profile.is_md5 and options.md5_function_ids
        self.layout: tuple[SecType, ...] = DEFAULT_LAYOUT
        if options.split_layout:
            self.layout = SPLIT_LAYOUT
        elif options.string_map_profiles:
            self.layout = STRING_MAP_LAYOUT
        self.flags = [0] * len(self.layout)
        if options.compress_all_sections:
            self.flags = [FLAG_COMPRESS] * len(self.layout)
        if options.use_md5:
            self.add_flag(SecType.NAME_TABLE, FLAG_MD5_NAME | FLAG_FIXED_LENGTH_MD5)
        if options.partial:
            self.add_flag(SecType.PROFILE_SUMMARY, FLAG_PARTIAL)
        self.name_index: dict[str, int] = {}
        self.context_index: dict[SampleContext, int] = {}
        self.func_offsets: list[tuple[SampleContext, int]] = []

    def add_flag(self, kind: SecType, flag: int) -> None:
        """``addSectionFlag(Type, Flag)``: every entry of that type."""
        for i, entry_type in enumerate(self.layout):
            if entry_type == kind:
                self.flags[i] |= flag

    # -- names ---------------------------------------------------------------
    def collect_names(self) -> None:
        """``addContext``/``addNames`` over the map, then ``stablizeNameTable``."""
        names: set[str] = set()
        contexts: set[SampleContext] = set()
        bracketed = self.options.string_map_profiles and self.profile.is_cs
        for fs in self.profile.profiles.values():
            context = fs.context
            if bracketed:
                names.add(self.bracketed(context))
            elif self.in_cs_table(context):
                names.update(frame.function for frame in context.frames)
                contexts.add(context)
            else:
                names.add(context.name)
            add_called_names(fs, names, self.options.vtable_types)
        md5 = self.md5
        ordered = sorted(names, key=lambda n: name_key(n, md5))
        self.name_index = {name: i for i, name in enumerate(ordered)}
        cs_ordered = sorted(contexts, key=lambda c: context_key(c, md5))
        # Indexes are assigned by writeCSNameTableSection, which the split layout never
        # runs: there every context is written as index 0, as LLVM does.
        numbered = not self.options.split_layout
        self.context_index = {c: i if numbered else 0 for i, c in enumerate(cs_ordered)}

    @staticmethod
    def bracketed(context: SampleContext) -> str:
        """13's name of a CS profile in the name table: ``[`` its map key ``]``."""
        return "[" + string_map_key(context).decode("utf-8", "surrogateescape") + "]"

    def context_number(self, context: SampleContext) -> int:
        """What ``writeContextIdx`` writes: a CS name table index for contexts, else a name
        index (13: the bracketed name's)."""
        if self.options.string_map_profiles and self.profile.is_cs:
            return self.name_index[self.bracketed(context)]
        if self.in_cs_table(context):
            return self.context_index[context]
        return self.name_index[context.name]

    def in_cs_table(self, context: SampleContext) -> bool:
        """``SampleContext::hasContext``: a context of frames, or the empty one a damaged CS
        name table gives (:func:`~profdata.model.sample.empty_cs_context`), written as an
        entry of size 0 as LLVM writes it, not as a plain profile's name "" (whose body
        would read back as another context's)."""
        return bool(context.frames) or empty_cs_context(context, self.profile.is_cs)

    def name_table(self, out: ByteWriter) -> None:
        """``writeNameTableSection``: strings (uniq flag if any has the suffix) or MD5s."""
        names = list(self.name_index)
        out.uleb128(len(names))
        # The flag tells the compiler to keep ".__uniq." suffixes when matching names.  From
        # 18 an MD5 table has no names to look at; 14/16 still flag it from the strings.
        if (not self.options.use_md5 or not self.options.md5_function_ids) and any(
            UNIQ_SUFFIX in name for name in names
        ):
            self.add_flag(SecType.NAME_TABLE, FLAG_UNIQ_SUFFIX)
        if self.options.use_md5:
            md5 = self.md5
            for name in names:
                value = function_id_hash(name, md5)
                out.u64(value)
            return
        for name in names:
            out.bytes(name_bytes(name))
            out.u8(0)

    def cs_name_table(self, out: ByteWriter) -> None:
        """``writeCSNameTableSection``: the sorted contexts, frames with their locations."""
        values = [len(self.context_index)]
        for context in self.context_index:
            values.append(len(context.frames))
            for frame in context.frames:
                values.append(self.name_index[frame.function])
                values.extend(frame.location)
        out.bytes(encode_run(values)[0])

    # -- profiles ------------------------------------------------------------
    def lbr_profiles(self, out: ByteWriter, profiles: Sequence[Any]) -> None:
        """``writeFuncProfiles``: ``sortFuncProfiles`` order, offsets noted per context."""
        ordered = sort_func_profiles(profiles, self.md5, self.options.string_map_profiles)
        encoder = BodyEncoder(
            self.name_index,
            self.md5,
            lambda fs: self.context_number(fs.context),
            self.options.vtable_types,
        )
        data, offsets = encoder.profiles(ordered)
        base = len(out)
        pairs = zip(ordered, offsets, strict=True)
        self.func_offsets.extend((fs.context, base + at) for fs, at in pairs)
        out.bytes(data)

    def func_offset_table(self, out: ByteWriter) -> None:
        """``writeFuncOffsetTable``: write order, or context order (and Ordered) for CS."""
        entries = self.func_offsets
        if self.profile.is_cs and not self.options.string_map_profiles:
            md5 = self.md5
            entries = sorted(entries, key=lambda e: context_key(e[0], md5))
            self.add_flag(SecType.FUNC_OFFSET_TABLE, FLAG_ORDERED)
        values = [len(entries)]
        for context, offset in entries:
            values.extend((self.context_number(context), offset))
        out.bytes(encode_run(values)[0])
        self.func_offsets = []

    def metadata(self, values: list[int], fs: FunctionSamples) -> None:
        """``writeFuncMetadata`` of one profile (inlinees recursively unless CS or 13)."""
        profile = self.profile
        values.append(self.context_number(fs.context))
        if profile.is_probe_based:
            values.append(fs.function_hash)
        if profile.is_cs or profile.is_preinlined:
            values.append(fs.attributes)
        if not profile.is_cs and not self.options.string_map_profiles:
            callsites = fs.sorted_callsites(self.md5)
            values.append(len(callsites))
            for loc, callee in callsites:
                values.extend(loc)
                self.metadata(values, callee)

    # -- sections ------------------------------------------------------------
    def summary(self) -> ProfileSummary:
        return summarize_profile(
            self.profile,
            skip_duplicated=self.options.skip_duplicated_into_base,
            md5_frames=self.options.md5_frames,
            string_map=self.options.string_map_profiles,
            contextless=self.options.contextless,
        )

    def section(self, index: int, profiles: Sequence[Any], map_order: Sequence[Any]) -> bytes:
        """``writeOneSection``: the flags LLVM sets first, then the section's bytes.
        ``profiles``/``map_order``: what :meth:`lbr_profiles` and :meth:`metadata` take."""
        profile = self.profile
        kind = self.layout[index]
        if kind == SecType.FUNC_METADATA:
            if profile.is_probe_based:
                self.add_flag(kind, FLAG_PROBE_BASED)
            if profile.is_cs or profile.is_preinlined:
                self.add_flag(kind, FLAG_HAS_ATTRIBUTE)
        elif kind == SecType.PROFILE_SUMMARY:
            if profile.is_cs:
                self.add_flag(kind, FLAG_FULL_CONTEXT)
            if profile.is_preinlined:
                self.add_flag(kind, FLAG_IS_PREINLINED)
            if profile.is_fs:
                self.add_flag(kind, FLAG_FS_DISCRIMINATOR)
            if self.options.vtable_types:
                self.add_flag(kind, FLAG_HAS_VTABLE_TYPE_PROF)
        out = ByteWriter()
        if kind == SecType.PROFILE_SUMMARY:
            write_summary(out, self.summary())
        elif kind == SecType.NAME_TABLE:
            self.name_table(out)
        elif kind == SecType.CS_NAME_TABLE:
            self.cs_name_table(out)
        elif kind == SecType.LBR_PROFILE:
            self.lbr_profiles(out, profiles)
        elif kind == SecType.FUNC_OFFSET_TABLE:
            self.func_offset_table(out)
        elif kind == SecType.PROFILE_SYMBOL_LIST:
            for symbol in sorted(profile.symbol_list or (), key=name_bytes):
                out.bytes(name_bytes(symbol))
                out.u8(0)
        elif kind == SecType.FUNC_METADATA and (
            profile.is_probe_based or profile.is_cs or profile.is_preinlined
        ):
            values: list[int] = []
            for fs in map_order:
                self.metadata(values, fs)
            out.bytes(encode_run(values)[0])
        data = out.getvalue()
        if self.flags[index] & FLAG_COMPRESS and data:
            packed = zlib.compress(data, 9)
            head = ByteWriter()
            head.uleb128(len(data))
            head.uleb128(len(packed))
            data = head.getvalue() + packed
        return data


def write(
    profile: SampleProfile,
    options: ExtBinaryWriteOptions | None = None,
    map_order: Sequence[FunctionSamples] | None = None,
) -> bytes:
    """``SampleProfileWriterExtBinary::write``: header, sections, then the patched table."""
    opts = options or ExtBinaryWriteOptions()
    writer = SectionWriter(profile, opts)
    writer.collect_names()
    if map_order is not None:
        order = list(map_order)
    else:
        order = profile_map_order(profile, opts.md5_frames, writer.md5, opts.string_map_profiles)
    everything = list(profile.profiles.values())
    nested = [fs for fs in order if fs.callsite_samples]
    flat = [fs for fs in order if not fs.callsite_samples]
    return assemble(writer, everything, nested, flat, order)


def assemble(
    writer: SectionWriter,
    everything: Sequence[Any],
    nested: Sequence[Any],
    flat: Sequence[Any],
    map_order: Sequence[Any],
) -> bytes:
    """The header, the sections in LLVM's write order and the patched section table;
    ``nested``/``flat``: the profiles with and without inlinees in map order (the
    split layout's two LBR sections)."""
    opts = writer.options
    layout = writer.layout
    out = ByteWriter()
    out.uleb128(sp_magic(SPF_EXT_BINARY))
    out.uleb128(VERSION)
    out.u64(len(layout))
    table_at = len(out)
    out.bytes(b"\xff" * (32 * len(layout)))
    entries: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * len(layout)
    if opts.split_layout:
        sections: list[tuple[int, Sequence[Any]]] = [
            (0, everything), (1, everything), (3, nested), (2, nested),
            (5, flat), (4, flat), (6, everything), (7, everything),
        ]  # fmt: skip
    else:
        write_order = STRING_MAP_WRITE_ORDER if opts.string_map_profiles else DEFAULT_WRITE_ORDER
        sections = [(i, everything) for i in write_order]
    for index, profiles in sections:
        if opts.split_layout and index in SPLIT_FLAT_SECTIONS:
            writer.flags[index] |= FLAG_FLAT
        start = len(out)
        data = writer.section(index, profiles, map_order)
        out.bytes(data)
        entries[index] = (int(layout[index]), writer.flags[index], start, len(data))
    for i, entry in enumerate(entries):
        out.patch_words(table_at + 32 * i, entry)
    return out.getvalue()
