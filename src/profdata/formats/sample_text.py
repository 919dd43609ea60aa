"""Sample profile text format (``shared/spec/sample-text.md``): reader and writer.

The reader is a transcription of ``SampleProfileReaderText::readImpl`` with
its ``ParseHead``/``ParseLine`` helpers, including their ``StringRef``
arithmetic: positions wrap modulo 2**64 exactly where LLVM's ``size_t`` does,
so odd lines (``123`` is a header named ``123``; `` 5`` is the body line
``5: 5``; a trailing space is an error) are read as llvm-profdata reads them.
The differences between releases (duplicate headers, blank-looking lines,
`` !Flat``, ``vtables`` lines, the metadata error message) are named fields of
:class:`~profdata.releases.Release`.

Reading a large profile line by line through that transcription costs
microseconds a line, so the common shapes (plain body, callsite, header and
checksum lines) are taken by one regular expression over the whole text and
read inline; any other line, or one whose numbers are out of range, goes
through the transcription, which therefore decides every error.

Errors carry LLVM's first line (``FILE:LINE: Expected ...``) and our located
detail: the line, its byte offset and the field that failed.

The writer is ``SampleProfileWriterText``: profiles by TotalSamples
descending, body lines by location, call targets by count, callees by
location then name, ``!CFGChecksum`` for every function of a probe-based
profile and ``!Attributes`` when non-zero.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NoReturn

from profdata.errors import Location, MalformedError, SampleTextSyntaxError
from profdata.formats._collector import collector_paused
from profdata.formats._text import LLVM_WHITESPACE, LineCursor, int_of_digits, parse_uint
from profdata.formats.sample_registry import ORDER_TEXT, SampleFormat, register
from profdata.model.names import name_str
from profdata.model.sample import (
    U64,
    ContextAttribute,
    FunctionSamples,
    LineLocation,
    SampleContext,
    SampleContextFrame,
    SampleError,
    SampleProfile,
    SampleRecord,
    name_key,
    sort_func_profiles,
    sorted_by_name,
    spelled,
)
from profdata.model.sample_summary import release_summary
from profdata.releases import Release

NPOS = (1 << 64) - 1  # StringRef::npos
_MASK = NPOS
VTABLE_PREFIX = b"vtables "  # kVTableProfPrefix
FLAT_MARKER = b" !Flat"

BODY_EXPECTED = "Expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*', found "
HEAD_EXPECTED = "Expected 'mangled_name:NUM:NUM', found "
VTABLE_EXPECTED = "Expected 'vtables [mangled_vtable:NUM]+', found "
METADATA_EXPECTED = "Cannot parse metadata: "
COUNTER_OVERFLOW = "Counter overflow"
NON_METADATA = "Found non-metadata after metadata: "


# -- StringRef arithmetic ------------------------------------------------------
def _substr(s: bytes, start: int, n: int = NPOS) -> bytes:
    """``StringRef::substr`` with ``size_t`` (wrapping) arguments."""
    start = min(start & _MASK, len(s))
    return s[start : start + min(n & _MASK, len(s) - start)]


def _find(s: bytes, sub: bytes, start: int = 0) -> int:
    i = s.find(sub, min(start & _MASK, len(s)))
    return NPOS if i < 0 else i


def _rfind(s: bytes, sub: bytes, before: int = NPOS) -> int:
    """``StringRef::rfind(C, From)``: the last ``C`` strictly before ``From``."""
    i = s.rfind(sub, 0, min(before & _MASK, len(s)))
    return NPOS if i < 0 else i


def _first_not_space(s: bytes) -> int:
    stripped = len(s) - len(s.lstrip(b" "))
    return NPOS if stripped == len(s) else stripped


def _uint(text: bytes, bits: int = 64) -> int | None:
    return parse_uint(text, 10, bits)


# -- ParseHead -----------------------------------------------------------------
def parse_head(line: bytes) -> tuple[bytes, int, int] | None:
    """``ParseHead``: ``(name, total, head)``; the name ends at the second-to-last colon."""
    if line[:1] == b" ":
        return None
    n2 = _rfind(line, b":")
    n1 = _rfind(line, b":", n2 - 1)
    total = _uint(_substr(line, n1 + 1, n2 - n1 - 1))
    if total is None:
        return None
    head = _uint(_substr(line, n2 + 1))
    if head is None:
        return None
    return _substr(line, 0, n1), total, head


def parse_context(text: bytes) -> tuple[SampleContextFrame, ...]:
    """``createCtxVectorFromStr``: ``[f:1.2 @ g:3 @ leaf]`` with LLVM's lenient numbers."""
    body = _substr(text, 1, len(text) - 2)
    frames: list[SampleContextFrame] = []
    rest = body
    while rest:
        frame, _, rest = rest.partition(b" @ ")
        function, _, where = frame.partition(b":")
        offset = disc = 0
        if where:
            line_text, _, disc_text = where.partition(b".")
            offset = _signed32(line_text)
            if disc_text:
                parsed = _uint(disc_text, 32)
                disc = 0 if parsed is None else parsed
        frames.append(SampleContextFrame(name_str(function), LineLocation(offset, disc)))
    return tuple(frames)


def _signed32(text: bytes) -> int:
    """``getAsInteger<int>`` into a ``uint32_t``: a failed parse leaves 0."""
    digits = text[1:] if text[:1] == b"-" else text
    if not digits.isdigit():
        return 0
    value = int_of_digits(digits) * (-1 if text[:1] == b"-" else 1)
    if not -(1 << 31) <= value < (1 << 31):
        return 0
    return value & 0xFFFFFFFF


# -- ParseLine -----------------------------------------------------------------
@dataclass
class _Line:
    """What ``ParseLine`` fills in; ``kind`` is LLVM's ``LineType``."""

    kind: str = "body"  # "body" | "callsite" | "metadata" | "vtables"
    depth: int = 0
    loc: LineLocation = field(default_factory=lambda: LineLocation(0, 0))
    num: int = 0
    callee: bytes = b""
    targets: dict[bytes, int] = field(default_factory=dict)
    types: dict[bytes, int] = field(default_factory=dict)
    function_hash: int = 0
    attributes: int = 0
    is_flat: bool = False
    failed: str = "line"  # the field being parsed when parsing failed (located detail)


def _parse_metadata(text: bytes, out: _Line) -> bool:
    if text.startswith(b"!CFGChecksum:"):
        out.failed = "cfg_checksum"
        value = _uint(text[len(b"!CFGChecksum:") :].strip(LLVM_WHITESPACE))
        if value is None:
            return False
        out.function_hash = value
        return True
    if text.startswith(b"!Attributes:"):
        out.failed = "attributes"
        value = _uint(text[len(b"!Attributes:") :].strip(LLVM_WHITESPACE), 32)
        if value is None:
            return False
        out.attributes = value
        return True
    out.failed = "metadata"
    return False


def _substr_at(s: bytes, base: int, start: int, n: int = NPOS) -> bytes:
    """``_substr(s[base:], start, n)`` without copying ``s[base:]`` first."""
    size = len(s) - base
    start = min(start & _MASK, size)
    return s[base + start : base + start + min(n & _MASK, size - start)]


def _find_at(s: bytes, sub: bytes, base: int, start: int = 0) -> int:
    """``_find(s[base:], sub, start)`` without copying ``s[base:]``."""
    i = s.find(sub, base + min(start & _MASK, len(s) - base))
    return NPOS if i < 0 else i - base


_NOT_SPACE = re.compile(rb"[^ ]")


def _first_not_space_at(s: bytes, base: int) -> int:
    """``_first_not_space(s[base:])`` without copying ``s[base:]``."""
    found = _NOT_SPACE.search(s, base)
    return NPOS if found is None else found.start() - base


def _parse_type_counts(text: bytes, out: _Line) -> bool:
    """``parseTypeCountMap``: space separated ``vtable:count``; a repeated vtable fails."""
    index = _first_not_space(text)
    while index != NPOS:
        colon = _find(text, b":", index)
        if colon == NPOS:
            return False
        name = _substr(text, index, colon - index)
        after = _find(text, b" ", colon + 1)
        count = _uint(_substr(text, colon + 1, after - colon - 1))
        if count is None or name in out.types:
            return False
        out.types[name] = count
        if after == NPOS:
            break
        rest = _first_not_space_at(text, after)
        index = NPOS if rest == NPOS else after + rest
    return True


def _parse_targets(line: bytes, n3: int, out: _Line) -> bool:
    """The call-target loop: ``name:count`` pairs anchored on ``:<integer>``.

    LLVM narrows a ``StringRef`` to the rest of the line after each pair; here
    the rest is ``line[base:]``, never copied (a line of 100k targets would be
    copied 100k times), with the same ``size_t`` arithmetic on positions in it.
    """
    base = 0
    while n3 != NPOS:
        skip = _first_not_space_at(line, base + min(n3 & _MASK, len(line) - base))
        n3 = (n3 + skip) & _MASK
        base += min(n3, len(line) - base)
        n3 = _find_at(line, b":", base)
        if n3 in (NPOS, 0):
            return False
        size = len(line) - base
        while True:
            after = min(n3 + 1, size)  # after the colon, in the rest
            target = _substr_at(line, base, 0, n3)
            n4 = _find_at(line, b" ", base + after)
            n4 = (n3 + n4 + 1) & _MASK if n4 != NPOS else size
            count = _uint(_substr_at(line, base, n3 + 1, n4 - n3 - 1))
            if count is not None:
                break
            n5 = _find_at(line, b":", base + after)
            if n5 == NPOS:
                return False
            n3 = (n3 + n5 + 1) & _MASK
        out.targets[target] = count
        if n4 == size:
            break
        n3 = n4
    return True


def parse_line(line: bytes, release: Release) -> tuple[_Line, bool]:
    """``ParseLine``: the parsed line and whether it parsed."""
    out = _Line()
    depth = len(line) - len(line.lstrip(b" "))
    out.depth = depth
    if depth == 0:
        return out, False
    if line[depth : depth + 1] == b"!" and (depth == 1 or release.sample_text_nested_metadata):
        out.kind = "metadata"
        if release.sample_text_flat_marker and line == FLAT_MARKER:
            out.is_flat = True
            return out, True
        return out, _parse_metadata(line[depth:], out)
    n1 = _find(line, b":")
    loc = _substr(line, depth, n1 - depth)
    dot = _find(loc, b".")
    out.failed = "line_offset"
    if dot == NPOS:
        offset = _uint(loc, 32)
        if offset is None or offset > 0xFFFF:
            return out, False
        disc = 0
    else:
        offset = _uint(_substr(loc, 0, dot), 32)
        if offset is None:
            return out, False
        out.failed = "discriminator"
        parsed = _uint(_substr(loc, dot + 1), 32)
        if parsed is None:
            return out, False
        disc = parsed
    out.loc = LineLocation(offset, disc)
    rest = _substr(line, n1 + 2)
    if rest[:1].isdigit():
        out.failed = "samples"
        n3 = _find(rest, b" ")
        num = _uint(rest if n3 == NPOS else _substr(rest, 0, n3))
        if num is None:
            return out, False
        out.num = num
        out.failed = "call_targets"
        return out, _parse_targets(rest, n3, out)
    if release.sample_vtable_types and rest.startswith(VTABLE_PREFIX):
        out.kind = "vtables"
        out.failed = "vtable_types"
        return out, _parse_type_counts(rest[len(VTABLE_PREFIX) :], out)
    out.kind = "callsite"
    out.failed = "callee_samples"
    n3 = _rfind(rest, b":")
    out.callee = _substr(rest, 0, n3)
    callee_total = _uint(_substr(rest, n3 + 1))
    if callee_total is None:
        return out, False
    out.num = callee_total
    return out, True


# -- reader --------------------------------------------------------------------
def first_visible_line(data: bytes | memoryview) -> bytes | None:
    """The first line ``line_iterator`` yields (blank and ``#`` lines skipped), read lazily."""
    size = len(data)
    pos = 0
    while pos < size:
        step = 256
        while True:
            window = bytes(data[pos : min(size, pos + step)])
            newline = window.find(b"\n")
            nul = window.find(b"\0")
            if nul >= 0 and (newline < 0 or nul < newline):
                line = window[:nul]
                return line if line and line[0] != 0x23 else None
            if newline >= 0:
                line = window[:newline]
                line = line[:-1] if line.endswith(b"\r") else line
                pos += newline + 1
                break
            if pos + step >= size:
                return window if window and window[0] != 0x23 else None
            step *= 4
        if line and line[0] != 0x23:
            return line
    return None


def sniff(data: bytes | memoryview) -> bool:
    """``SampleProfileReaderText::hasFormat``: the first visible line is a header."""
    first = first_visible_line(data)
    return first is not None and parse_head(first) is not None


#: The common line shapes, matched over the whole text at once: an indented location
#: followed by body samples whose call target names hold no space or colon, or by a callee
#: name without space or colon that does not start with a digit; an indented
#: ``!CFGChecksum``; a header.  Each is read as ``ParseLine``/``ParseHead`` reads it once
#: its numbers are in range; anything else (``.*``) goes through the full parser.  Every
#: visible line yields exactly one row of groups: depth, location, samples, targets,
#: callee, callee total, checksum, name, total, head.
_LINE = re.compile(
    r"^(?:( +)(?:([0-9]++(?:\.[0-9]++)?+): (?:([0-9]++)((?: [^ :\n]++:[0-9]++)*+)"
    r"|([^0-9 :\n][^ :\n]*+):([0-9]++))|!CFGChecksum: ([0-9]++))"
    r"|([^ \n][^\n]*):([0-9]+):([0-9]+)"
    r"|.*)$",
    re.MULTILINE,
)


_LONG_NUMBER = re.compile(r"[0-9]{20,}")  # at least 20 digits: maybe past 2**64


def _location(text: str) -> LineLocation | None:
    """``NUM[.NUM]`` as ``ParseLine`` reads it: a bare offset is at most 0xffff, a pair u32."""
    offset_text, dot, disc_text = text.partition(".")
    offset = int_of_digits(offset_text)
    if not dot:
        return LineLocation(offset, 0) if offset <= 0xFFFF else None
    disc = int_of_digits(disc_text)
    if offset >> 32 or disc >> 32:
        return None
    return LineLocation(offset, disc)


def _visible_text(data: bytes | memoryview) -> tuple[str, list[str] | None]:
    """``line_iterator``'s lines as text (bytes kept by ``surrogateescape``) joined by
    ``\\n``, so that one ``findall`` yields one row per line, and the lines themselves;
    None when they are just the text split at ``\\n`` (no blank, comment or CR), split
    only if a line is needed."""
    raw = bytes(data)
    nul = raw.find(b"\0")
    if nul >= 0:
        raw = raw[:nul]
    text = raw.decode("utf-8", "surrogateescape")
    if (
        "\r" not in text
        and text[:1] not in ("#", "\n")
        and "\n\n" not in text
        and "\n#" not in text
    ):
        return (text[:-1] if text.endswith("\n") else text), None
    lines = text.split("\n")
    if "\r" in text:
        last = len(lines) - 1
        lines = [
            line[:-1] if i < last and line.endswith("\r") else line for i, line in enumerate(lines)
        ]
    lines = [line for line in lines if line and line[0] != "#"]
    return "\n".join(lines), lines


class _Reader:
    """``readImpl``'s loop: the common line shapes inline, every other line through
    :meth:`other_line` (the full ``ParseHead``/``ParseLine``), with one shared state."""

    def __init__(self, data: bytes | memoryview, path: str | None, release: Release) -> None:
        self.data = data
        self.path = path
        self._cursor: LineCursor | None = None
        self._text, self._lines = _visible_text(data)
        self.release = release
        self.profile = SampleProfile(format="text")
        self.overflow_at: int | None = None  # first line whose counts saturated
        self.stack: list[FunctionSamples] = []  # InlineStack
        self.depth_metadata = 0  # DepthMetadata
        self.top_level_probes = 0  # ProbeProfileCount
        self.cs_count = 0  # CSProfileCount
        self.preinlined = False

    @property
    def cursor(self) -> LineCursor:
        """Line numbers and offsets, worked out only for an error."""
        if self._cursor is None:
            self._cursor = LineCursor(self.data, path=self.path)
        return self._cursor

    def line(self, index: int) -> str:
        """A visible line, for the full parser and for errors."""
        if self._lines is None:
            self._lines = self._text.split("\n")
        return self._lines[index]

    def note(self, result: SampleError, index: int) -> None:
        if result is not SampleError.SUCCESS and self.overflow_at is None:
            self.overflow_at = index

    def fail(self, index: int, message: str, line: bytes, fld: str, detail: str) -> NoReturn:
        cursor = self.cursor
        raise SampleTextSyntaxError(
            detail,
            path=cursor.path,
            location=Location(
                offset=cursor.line_offset(index),
                line=cursor.line_number(index),
                field=fld,
                found=repr(name_str(line)),
            ),
            llvm_message=message + name_str(line),
        )

    def header(self, index: int, name: bytes | str, total: int, head_samples: int) -> None:
        self.depth_metadata = 0
        if isinstance(name, bytes):
            context = context_of_name(name)
        elif name[:1] == "[":
            context = context_of_name(name.encode("utf-8", "surrogateescape"))
        else:
            context = SampleContext(name)
        if context.has_context:
            self.cs_count += 1
        profiles = self.profile.profiles
        fs = profiles.get(context)
        if fs is None or not self.release.sample_text_merges_duplicates:
            fs = profiles[context] = FunctionSamples(context, total, head_samples)
        else:
            self.note(fs.add_total_samples(total), index)
            self.note(fs.add_head_samples(head_samples), index)
        stack = self.stack
        stack.clear()
        stack.append(fs)

    def other_line(self, index: int, line: bytes) -> None:
        """One line the fast shapes did not take, exactly as ``readImpl`` handles it."""
        release = self.release
        note = self.note
        stack = self.stack
        first = _first_not_space(line)
        if first == NPOS:
            if release.sample_text_skips_blank_lines:
                return
        elif line[first] == 0x23:  # '#'
            return
        if line[:1] != b" ":
            head = parse_head(line)
            if head is None:
                self.fail(
                    index, HEAD_EXPECTED, line, "function_header",
                    "a function header is 'name:total:head' with decimal u64 counts",
                )  # fmt: skip
            self.header(index, *head)
            return
        parsed, ok = parse_line(line, release)
        if not ok:
            if parsed.kind == "metadata" and release.sample_text_metadata_error:
                message = METADATA_EXPECTED
            elif parsed.kind == "vtables":
                message = VTABLE_EXPECTED
            else:
                message = BODY_EXPECTED
            self.fail(index, message, line, parsed.failed, f"cannot parse {parsed.failed}")
        depth = parsed.depth
        if parsed.kind != "metadata" and depth == self.depth_metadata:
            self.fail(
                index, NON_METADATA, line, "metadata",
                "!CFGChecksum/!Attributes must follow all body and callsite lines",
            )  # fmt: skip
        if not stack:
            self.fail(index, HEAD_EXPECTED, line, "function_header", "no function header yet")
        del stack[depth:]
        owner = stack[-1]
        if parsed.kind == "callsite":
            callee = owner.callee_at(parsed.loc, name_str(parsed.callee))
            note(callee.add_total_samples(parsed.num), index)
            stack.append(callee)
            self.depth_metadata = 0
        elif parsed.kind == "vtables":
            types = {name_str(k): v for k, v in parsed.types.items()}
            note(owner.add_type_samples(parsed.loc, types), index)
        elif parsed.kind == "body":
            for target, count in parsed.targets.items():
                note(owner.add_called_target_samples(parsed.loc, name_str(target), count), index)
            note(owner.add_body_samples(parsed.loc, parsed.num), index)
        else:
            self.metadata(depth, owner, parsed.function_hash, parsed.attributes)

    def metadata(self, depth: int, owner: FunctionSamples, function_hash: int, attrs: int) -> None:
        if function_hash:
            owner.function_hash = function_hash
            if depth == 1:
                self.top_level_probes += 1
        owner.attributes = attrs
        if (
            attrs & ContextAttribute.SHOULD_BE_INLINED
            and not self.release.sample_string_map_profiles
        ):
            self.preinlined = True  # 13 has no pre-inlined profiles
        self.depth_metadata = depth

    def read(self) -> SampleProfile:
        rows = _LINE.findall(self._text) if self._text else []
        # a number too long for int() (its digit limit, its quadratic cost) is rare: only
        # then does every number go through int_of_digits
        to_int = int_of_digits if self._text and _LONG_NUMBER.search(self._text) else int
        locations: dict[str, LineLocation | None] = {}
        stack = self.stack
        note = self.note
        for index, (
            depth_text, loc_text, samples_text, targets, callee, callee_total, checksum,
            name, total_text, head_text,
        ) in enumerate(rows):  # fmt: skip
            if loc_text:
                loc = locations.get(loc_text)
                if loc is None:
                    loc = locations[loc_text] = _location(loc_text)
                depth = len(depth_text)
                if loc is None or depth == self.depth_metadata or not stack:
                    pass
                elif samples_text:
                    samples = to_int(samples_text)
                    call_targets = {}
                    if targets:
                        for pair in targets[1:].split(" "):
                            target, _, count_text = pair.partition(":")
                            count = call_targets[target] = to_int(count_text)
                            if count > U64:
                                samples = U64 + 1  # the full parser reads this line
                    if samples <= U64:
                        if len(stack) > depth:
                            del stack[depth:]
                        record = SampleRecord(samples, call_targets)
                        into = stack[-1].body_samples.setdefault(loc, record)
                        if into is not record:
                            for target, count in call_targets.items():
                                note(into.add_called_target(target, count), index)
                            note(into.add_samples(samples), index)
                        continue
                elif to_int(callee_total) <= U64:
                    total = to_int(callee_total)
                    if len(stack) > depth:
                        del stack[depth:]
                    sites = stack[-1].callsite_samples
                    callees = sites.get(loc)
                    if callees is None:
                        callees = sites[loc] = {}
                    fs = callees.get(callee)
                    if fs is None:
                        fs = callees[callee] = FunctionSamples(SampleContext(callee), total)
                    else:
                        note(fs.add_total_samples(total), index)
                    stack.append(fs)
                    self.depth_metadata = 0
                    continue
            elif checksum:
                value = to_int(checksum)
                nested_ok = len(depth_text) == 1 or self.release.sample_text_nested_metadata
                if value <= U64 and stack and nested_ok:
                    depth = len(depth_text)
                    del stack[depth:]
                    self.metadata(depth, stack[-1], value, 0)
                    continue
            elif name:
                total = to_int(total_text)
                head = to_int(head_text)
                if total <= U64 and head <= U64:
                    self.header(index, name, total, head)
                    continue
            self.other_line(index, self.line(index).encode("utf-8", "surrogateescape"))
        return self.finish()

    def finish(self) -> SampleProfile:
        profile = self.profile
        profile.is_cs = self.cs_count > 0
        profile.is_probe_based = self.top_level_probes > 0
        profile.is_preinlined = self.preinlined
        if self.overflow_at is not None:
            index = self.overflow_at
            cursor = self.cursor
            raise MalformedError(
                "a count saturated at 2**64-1 (llvm-profdata reads on, then fails)",
                path=cursor.path,
                location=Location(
                    offset=cursor.line_offset(index),
                    line=cursor.line_number(index),
                    field="samples",
                    found=repr(self.line(index)),
                ),
                llvm_message=COUNTER_OVERFLOW,
            )
        profile.summary = release_summary(profile, self.release)
        return profile


def context_of_name(name: bytes) -> SampleContext:
    """``SampleContext(Name, CSNameTable)``: ``[...]`` is a calling context."""
    if name.startswith(b"["):
        return SampleContext.of_frames(parse_context(name))
    return SampleContext(name_str(name))


def read(data: bytes | memoryview, path: str | None, release: Release) -> SampleProfile:
    """Read a text sample profile as ``release``'s llvm-profdata reads it."""
    with collector_paused():
        return _Reader(data, path, release).read()


# -- writer --------------------------------------------------------------------
@dataclass(frozen=True)
class TextWriteOptions:
    """``SampleProfileWriterText`` settings."""

    mark_flat: bool = False  # LLVM 22 ``--split-layout`` with ``--text``: `` !Flat`` lines
    #: LLVM 13 (``Release.sample_string_map_profiles``): ties by name descending,
    #: ``!CFGChecksum`` at the top level only, ``!Attributes`` of every CS profile there
    string_map_profiles: bool = False


def write(profile: SampleProfile, options: TextWriteOptions | None = None) -> bytes:
    """``SampleProfileWriterText::write`` (identical output in 14, 16, 19 and 22; 13 with
    ``string_map_profiles``)."""
    opts = options or TextWriteOptions()
    out: list[str] = []
    functions = profile.profiles.values()
    for fs in sort_func_profiles(functions, profile.is_md5, opts.string_map_profiles):
        _write_sample(out, fs, profile, 0, opts)
    return "".join(out).encode("utf-8", "surrogateescape")


def _write_sample(
    out: list[str], fs: FunctionSamples, profile: SampleProfile, indent: int, opts: TextWriteOptions
) -> None:
    md5 = profile.is_md5
    if profile.is_cs:
        out.append(f"[{spelled(fs.context, opts.string_map_profiles)}]:{fs.total_samples}")
    else:
        out.append(f"{fs.name}:{fs.total_samples}")
    out.append(f":{fs.head_samples}\n" if indent == 0 else "\n")
    pad = " " * (indent + 1)
    types = fs.type_samples
    for loc, record in sorted(fs.body_samples.items()):
        if record.call_targets:
            targets = "".join([f" {n}:{c}" for n, c in record.sorted_call_targets(md5)])
            out.append(f"{pad}{loc}: {record.samples}{targets}\n")
        else:
            out.append(f"{pad}{loc}: {record.samples}\n")
        if types and types.get(loc):
            out.append(_vtables_line(pad, loc, types[loc], md5))
    for loc, callees in sorted(fs.callsite_samples.items()):
        for _, callee in sorted_by_name(callees, md5):
            out.append(f"{pad}{loc}: ")
            _write_sample(out, callee, profile, indent + 1, opts)
        if types.get(loc):
            out.append(_vtables_line(pad, loc, types[loc], md5))
    if opts.string_map_profiles:
        if indent == 0 and profile.is_probe_based:
            out.append(f" !CFGChecksum: {fs.function_hash}\n")
        if indent == 0 and profile.is_cs:
            out.append(f" !Attributes: {fs.attributes}\n")
    else:
        if profile.is_probe_based:
            out.append(f"{pad}!CFGChecksum: {fs.function_hash}\n")
        if fs.attributes:
            out.append(f"{pad}!Attributes: {fs.attributes}\n")
    if indent == 0 and opts.mark_flat and not fs.callsite_samples:
        out.append(" !Flat\n")


def _vtables_line(pad: str, loc: LineLocation, types: dict[str, int], md5: bool) -> str:
    pairs = "".join(f"{n}:{types[n]} " for n in sorted(types, key=lambda n: name_key(n, md5)))
    return f"{pad}{loc}: vtables {pairs}\n"


register(SampleFormat("text", ORDER_TEXT, sniff, read))
