"""``llvm-profdata show --memory`` of an indexed profile (LLVM 20+), byte for byte.

LLVM prints the MemProf summary as YAML comments (stored in MemProf V4,
built by ``MemProfSummaryBuilder`` otherwise), then ``AllMemProfData``
through ``yaml::Output`` with a wrap column of 80.  The emitter below
reproduces the parts of ``yaml::Output`` that this document uses: block
mappings with keys padded to 16 columns, block sequences, flow mappings
(frames) and flow sequences (callee GUIDs) that wrap before an entry once the
line is past column 80, and the elision of empty optional sequences.
"""

from __future__ import annotations

from profdata.errors import (
    FileError,
    FormatError,
    MalformedError,
    ProfdataError,
    UsageError,
)
from profdata.formats import map_file, read_instr_bytes
from profdata.formats.indexed import IndexedProfile
from profdata.formats.indexed_layout import MAGIC
from profdata.formats.memprof import raw_memprof_refused, rules_for
from profdata.formats.memprof_magic import is_memprof_raw
from profdata.model.memprof import (
    Frame,
    MemProfData,
    MemProfRecord,
    MemProfSummary,
    build_summary,
)
from profdata.releases import Release

_WRAP = 80
_KEY_PAD = 16


INDEXED_MAGIC = MAGIC.to_bytes(8, "little")
_BAD_MAGIC = "invalid instrumentation profile data (bad magic)"


def show_memory_file(path: str, release: Release, show_format: str = "text") -> str:
    """``showMemProfProfile`` for one file, as ``release`` does it.

    Raw ``.memprofraw`` profiles are refused: symbolizing them against the
    profiled binary is not implemented.  LLVM 16/19 read nothing else; LLVM
    22 reads indexed profiles (and crashes on one without MemProf data, where
    this reports an error).
    """
    if show_format == "json":
        raise UsageError("JSON output is not supported for MemProf")
    try:
        contents = map_file(path)
    except FileError as exc:
        if not release.memprof_show_split_errors:
            raise
        # 15 to 19 print the file's name and the system's message on two lines.
        raise FileError(f"{path}\n{exc.detail}") from exc
    magic = bytes(contents[: len(INDEXED_MAGIC)])
    if is_memprof_raw(magic):
        raise raw_memprof_refused(path)
    if not release.memprof_show_indexed:
        split = release.memprof_show_split_errors
        raise FormatError(
            f"llvm-profdata {release.number} shows only raw MemProf profiles",
            path=None if split else path,
            llvm_message=f"{path}\n{_BAD_MAGIC}" if split else _BAD_MAGIC,
        )
    if magic != INDEXED_MAGIC:
        raise FormatError("not an indexed profile", path=path, llvm_message=_BAD_MAGIC)
    profile = read_instr_bytes(contents, path, release=release)
    try:
        data = (
            profile.memprof_data(rules_for(release))
            if isinstance(profile, IndexedProfile)
            else None
        )
    except ProfdataError as exc:
        raise exc.with_path(path) from None
    if data is None:
        raise MalformedError(
            "the indexed profile has no MemProf section (llvm-profdata 22 crashes here)",
            path=path,
        )
    return show_memory(data)


def summary_yaml(summary: MemProfSummary) -> str:
    """``MemProfSummary::printSummaryYaml`` (LLVM 22 wording)."""
    return (
        "---\n"
        "# MemProfSummary:\n"
        f"#   Total contexts: {summary.num_contexts}\n"
        f"#   Total cold contexts: {summary.num_cold_contexts}\n"
        f"#   Total hot contexts: {summary.num_hot_contexts}\n"
        f"#   Maximum cold context total size: {summary.max_cold_total_size}\n"
        f"#   Maximum warm context total size: {summary.max_warm_total_size}\n"
        f"#   Maximum hot context total size: {summary.max_hot_total_size}\n"
    )


def show_memory(data: MemProfData) -> str:
    """The whole ``show --memory`` output for an indexed profile's MemProf data."""
    summary = data.summary if data.summary is not None else build_summary(data, by_frames=True)
    return summary_yaml(summary) + memprof_yaml(data)


def memprof_yaml(data: MemProfData) -> str:
    """``yaml::Output(OS, nullptr, 80) << AllMemProfData``."""
    if not data.records:
        return "---\n{}\n...\n"
    out = _Lines()
    out.line("---")
    out.line("HeapProfileRecords:")
    for guid, record in data.listed_records():
        out.line(f"  - {_padded('GUID')}{_hex(guid)}")
        _record(out, data, record)
    out.line("...")
    return out.text()


def _record(out: _Lines, data: MemProfData, record: MemProfRecord) -> None:
    if record.alloc_sites:
        out.line("    AllocSites:")
        for site in record.alloc_sites:
            _frames(out, "      - Callstack", data.frames_of(site.call_stack_id))
            out.line("        MemInfoBlock:")
            for name, value in site.info.items():
                out.line(f"          {_padded(name)}{value}")
    if record.call_sites:
        out.line("    CallSites:")
        for call in record.call_sites:
            _frames(out, "      - Frames", data.frames_of(call.call_stack_id))
            if call.callee_guids:
                head = f"        {_padded('CalleeGuids')}"
                out.line(_flow(head, "[ ", " ]", [_hex(g) for g in call.callee_guids]))


def _frames(out: _Lines, key: str, frames: list[Frame]) -> None:
    """A required frame list: an empty one stays on the key's line as ``[]``."""
    head, name = key.rsplit(" ", 1)
    if not frames:
        out.line(f"{head} {_padded(name)}[]")
        return
    out.line(f"{key}:")
    indent = 10
    for frame in frames:
        entries = [
            f"Function: {_hex(frame.function)}",
            f"LineOffset: {frame.line_offset}",
            f"Column: {frame.column}",
            f"IsInlineFrame: {'true' if frame.is_inline_frame else 'false'}",
        ]
        out.line(_flow(" " * indent + "- ", "{ ", " }", entries))


def _flow(head: str, open_: str, close: str, entries: list[str]) -> str:
    """A flow collection after ``head``: entries joined by ``, ``; before an entry, a
    line already past column 80 breaks and continues two columns in from the bracket."""
    start = len(head)
    text = head + open_
    column = len(text)
    for index, entry in enumerate(entries):
        if index:
            text += ", "
            column += 2
        if column > _WRAP:
            text += "\n" + " " * (start + 2)
            column = start + 2
        text += entry
        column += len(entry)
    return text + close


def _padded(key: str) -> str:
    """``Output::paddedKey``: the key, a colon and spaces up to column 16 (at least one)."""
    return f"{key}:" + " " * max(_KEY_PAD - len(key), 1)


def _hex(value: int) -> str:
    return f"0x{value:x}"


class _Lines:
    def __init__(self) -> None:
        self._parts: list[str] = []

    def line(self, text: str) -> None:
        self._parts.append(text)

    def text(self) -> str:
        return "\n".join(self._parts) + "\n"
