"""GCC AutoFDO sample profiles (``create_gcov`` output; ``sample-binary.md`` §6), read-only.

Mirrors ``SampleProfileReaderGCC`` over LLVM's ``GCOVBuffer`` (same in 14 to
22): detection wants the NUL-terminated string ``adcg*704`` at the start (a
little-endian file of gcov version 4.7), then a skipped word, the string
table (``0xAA000000``) and the function table (``0xAC000000``); anything
after the functions is ignored.  Sample counts are not stored as totals:
each position count is added to its function's body and to the total of
every function on the inline stack, and a top-level function seen again
(an alias) only adds its head count.  The summary is computed after
reading, as for text.

Errors: a short read is ``Truncated profile data`` (LLVM also prints
``unexpected end of memory buffer: N``, N counted from byte 4, which our
detail repeats), an unexpected section tag or histogram type ``Malformed
sample profile data``.  A name index past the string table, which crashes
llvm-profdata, is refused as malformed.  No release writes this format.
"""

from __future__ import annotations

from profdata.errors import SampleMalformedError, SampleTruncatedError
from profdata.formats._binary import ByteReader
from profdata.formats.sample_registry import ORDER_GCC, SampleFormat, register
from profdata.model.names import name_str
from profdata.model.sample import FunctionSamples, LineLocation, SampleContext, SampleProfile
from profdata.model.sample_summary import release_summary
from profdata.releases import Release

MAGIC = b"adcg*704"  # "gcda" read little-endian, and version 4.7 stored reversed
GCOV_TAG_AFDO_FILE_NAMES = 0xAA000000  # GCOVTagAFDOFileNames
GCOV_TAG_AFDO_FUNCTION = 0xAC000000  # GCOVTagAFDOFunction
HIST_TYPE_INDIR_CALL_TOPN = 7  # HIST_TYPE_INDIR_CALL_TOPN
#: ``GCOVBuffer`` reads through a ``DataExtractor`` of the bytes after the magic word
_EXTRACTOR_BASE = 4


def sniff(data: bytes | memoryview) -> bool:
    """``SampleProfileReaderGCC::hasFormat``: the buffer as a C string equals the magic."""
    head = bytes(data[: len(MAGIC) + 1])
    return head == MAGIC or head == MAGIC + b"\0"


class _GcovReader:
    """``GCOVBuffer`` and ``SampleProfileReaderGCC``'s parsing steps."""

    def __init__(self, cur: ByteReader) -> None:
        self.cur = cur
        self.names: list[str] = []

    def u32(self, field: str) -> int:
        """``GCOVBuffer::readInt``."""
        cur = self.cur
        if cur.remaining < 4:
            cur.fail(
                SampleTruncatedError,
                f"{field}: unexpected end of memory buffer: {cur.pos - _EXTRACTOR_BASE}",
                field=field, expected="4 bytes", found=f"{cur.remaining} bytes",
            )  # fmt: skip
        return cur.u32(field)

    def u64(self, field: str) -> int:
        """``GCOVBuffer::readInt64``: low word first."""
        low = self.u32(field)
        return low | self.u32(field) << 32

    def section_tag(self, expected: int, field: str) -> None:
        """``readSectionTag``: the tag, then a skipped length word."""
        at = self.cur.pos
        tag = self.u32(field)
        if tag != expected:
            self.cur.fail(
                SampleMalformedError, f"unexpected {field}", field=field, at=at,
                expected=f"0x{expected:08x}", found=f"0x{tag:08x}",
            )  # fmt: skip
        self.u32(f"{field}_length")

    def name_table(self) -> None:
        """``readNameTable``: ``GCOVBuffer::readString`` per name (length in words, > 0)."""
        self.section_tag(GCOV_TAG_AFDO_FILE_NAMES, "string_table_tag")
        cur = self.cur
        size = self.u32("num_names")
        for _ in range(size):
            at = cur.pos
            words = self.u32("name_length")
            if words == 0:
                cur.fail(
                    SampleTruncatedError, "a name of length 0 ends the string table early",
                    field="name_length", at=at, expected="> 0", found="0",
                )  # fmt: skip
            if words * 4 > cur.remaining:
                cur.fail(
                    SampleTruncatedError, "a name runs past the end of the data",
                    field="name", expected=f"{words * 4} bytes", found=f"{cur.remaining} bytes",
                )  # fmt: skip
            raw = bytes(cur.raw(words * 4, "name"))
            self.names.append(name_str(raw.split(b"\0", 1)[0]))

    def name(self, index: int, field: str, at: int) -> str:
        if index >= len(self.names):
            self.cur.fail(
                SampleMalformedError, f"{field} is past the end of the string table",
                field=field, at=at, expected=f"< {len(self.names)}", found=str(index),
            )  # fmt: skip
        return self.names[index]

    def function(
        self,
        profiles: dict[SampleContext, FunctionSamples],
        stack: list[FunctionSamples],
        update: bool,
        offset: int,
    ) -> None:
        """``readOneFunctionProfile``; ``stack`` is the inline stack, innermost caller last."""
        cur = self.cur
        head = self.u64("head_count") if not stack else 0
        at = cur.pos
        name = self.name(self.u32("name_index"), "name_index", at)
        num_pos_counts = self.u32("num_pos_counts")
        num_callsites = self.u32("num_callsites")
        if not stack:
            context = SampleContext(name)
            fs = profiles.get(context)
            if fs is None:
                fs = profiles[context] = FunctionSamples(context)
            fs.add_head_samples(head)
            if fs.total_samples > 0:
                update = False
        else:
            fs = stack[-1].callee_at(LineLocation(offset >> 16, offset & 0xFFFF), name)
        chain = [*stack, fs]
        for _ in range(num_pos_counts):
            pos = self.u32("pos_offset")
            num_targets = self.u32("num_targets")
            count = self.u64("pos_count")
            loc = LineLocation(pos >> 16, pos & 0xFFFF)
            if update:
                for caller in chain:
                    caller.add_total_samples(count)
                fs.add_body_samples(loc, count)
            for _ in range(num_targets):
                at = cur.pos
                hist = self.u32("hist_type")
                if hist != HIST_TYPE_INDIR_CALL_TOPN:
                    cur.fail(
                        SampleMalformedError, "only indirect-call top-N histograms are read",
                        field="hist_type", at=at, expected=str(HIST_TYPE_INDIR_CALL_TOPN),
                        found=str(hist),
                    )  # fmt: skip
                at = cur.pos
                target = self.name(self.u64("target_name_index"), "target_name_index", at)
                target_count = self.u64("target_count")
                if update:
                    fs.add_called_target_samples(loc, target, target_count)
        for _ in range(num_callsites):
            site = self.u32("callsite_offset")
            self.function(profiles, chain, update, site)


def read(data: bytes | memoryview, path: str | None, release: Release) -> SampleProfile:
    """Read a GCC AutoFDO profile; the summary is computed as for text."""
    cur = ByteReader(data, path=path, order="<")
    reader = _GcovReader(cur)
    cur.skip(len(MAGIC), "magic")
    reader.u32("reserved")
    reader.name_table()
    reader.section_tag(GCOV_TAG_AFDO_FUNCTION, "function_table_tag")
    profile = SampleProfile(format="gcc")
    num_functions = reader.u32("num_functions")
    for _ in range(num_functions):
        reader.function(profile.profiles, [], True, 0)
    profile.summary = release_summary(profile, release)
    return profile


register(SampleFormat("gcc", ORDER_GCC, sniff, read))
