"""The text instrumentation profile format (``llvm-profdata merge --text``).

Reader: LLVM 22's ``TextInstrProfReader`` (``shared/spec/instr-text.md`` §2-§4).
It accepts every header of LLVM 22 whatever ``--llvm-release`` is chosen and
words its errors as LLVM 22 does; the one deliberate difference is that bitmap
blocks of more than 255 bytes are read, where LLVM's 8-bit loop counter makes
it fail.

Writer: ``InstrProfWriter::writeText`` / ``writeRecordInText`` of the chosen
release (§5).  The writer only formats: records are sorted here because the
order is part of the format, but merging, value-site sorting and ``--sparse``
filtering belong to :mod:`profdata.ops.merge`.

The reader's :attr:`~profdata.model.instr.InstrProfile.symbols` mirror
``TextInstrProfReader``'s symbol table: record names plus every name met as an
indirect-call or vtable target (``show --ic-targets`` and ``show --text`` print
those even when the target is not a record of the file).
:attr:`~profdata.model.instr.InstrProfile.vtable_names` holds the vtable target
names (what ``merge --keep-vtable-symbols`` carries over).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from profdata import releases
from profdata.errors import (
    HeaderCorruptError,
    ProfdataError,
    TextEmptyNameError,
    TextSyntaxError,
    TruncatedError,
)
from profdata.formats import InstrFormat, register
from profdata.formats._text import (
    LLVM_WHITESPACE,
    LineCursor,
    parse_uint,
    plain_u64s,
    show_line,
)
from profdata.model.instr import (
    Counts,
    InstrProfile,
    InstrRecord,
    TemporalTrace,
    ValueData,
    ValueSite,
)
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import (
    md5_hash,
    md5_hash_bytes,
    md5_hashes,
    name_bytes,
    name_str,
    names_bytes,
)
from profdata.model.record_table import RecordTable, record_table
from profdata.releases import Release

__all__ = [
    "EXTERNAL_SYMBOL",
    "format_header",
    "format_record",
    "format_records",
    "format_traces",
    "read",
    "sniff",
    "sort_records",
    "write",
    "writer_symbols",
]

#: ``InstrProfSymtab::getExternalSymbol()``: a call/vtable target with no known name.
EXTERNAL_SYMBOL = "** External Symbol **"
_EXTERNAL_SYMBOL_BYTES = EXTERNAL_SYMBOL.encode()

_MALFORMED = "malformed instrumentation profile data"
_END_OF_FILE = "end of File"  # instrprof_error::eof, met only inside the temporal block
#: TextInstrProfReader's malformed-data messages (LLVM 22)
_BAD_FUNC_HASH = f"{_MALFORMED}: function hash is not a valid integer"
_BAD_NUM_COUNTERS = f"{_MALFORMED}: number of counters is not a valid integer"
_ZERO_COUNTERS = f"{_MALFORMED}: number of counters is zero"
_BAD_NUM_BITMAP_BYTES = f"{_MALFORMED}: number of bitmap bytes is not a valid integer"
_BAD_COUNT = f"{_MALFORMED}: count is invalid"
_BAD_BITMAP_BYTE = f"{_MALFORMED}: bitmap byte is not a valid integer"
_BAD_NUM_VALUE_KINDS = f"{_MALFORMED}: number of value kinds is invalid"
_BAD_VALUE_KIND = f"{_MALFORMED}: value kind is invalid"
_IPVK_LAST = max(ValueKind)  # the reader accepts LLVM 22's kinds

#: isPrint() or isSpace() in the C locale.
_TEXT_BYTES = frozenset(range(0x20, 0x7F)) | frozenset(b" \t\n\v\f\r")

_HEADER_FLAGS: dict[bytes, ProfileKind] = {
    b"ir": ProfileKind.IR,
    b"fe": ProfileKind.FRONTEND,
    b"csir": ProfileKind.IR | ProfileKind.CS,
    b"entry_first": ProfileKind.ENTRY_FIRST,
    b"instrument_loop_entries": ProfileKind.LOOP_ENTRIES,
    b"single_byte_coverage": ProfileKind.SINGLE_BYTE_COVERAGE,
}
_HEADER_WORDS = ":ir :fe :csir :entry_first :not_entry_first :instrument_loop_entries " + (
    ":single_byte_coverage :temporal_prof_traces"
)


# ---------------------------------------------------------------------------
# reader


def sniff(prefix: bytes) -> bool:
    """LLVM's ``TextInstrProfReader::hasFormat``: the first 8 bytes are printable or space."""
    return all(b in _TEXT_BYTES for b in prefix[:8])


def read(
    view: memoryview, path: str | None = None, *, release: Release | None = None
) -> InstrProfile:
    """Parse a text instrumentation profile (records in file order, duplicates kept); every
    release reads a text alike, so ``release`` (the registry's reader signature) goes unused.

    What llvm-profdata writes is read in columns
    (:mod:`profdata.formats.text_columns`, which declines anything else);
    the line reader below stays the reference, and reads the rest.
    """
    from profdata.formats.text_columns import read_columns  # it builds on this module

    columns = read_columns(view)
    return columns if columns is not None else read_lines(view, path)


def read_lines(view: memoryview, path: str | None = None) -> InstrProfile:
    """The line reader: every text profile, and every error located."""
    cur = LineCursor(view, path=path)
    profile = InstrProfile(kind=ProfileKind.FRONTEND, records=[], format="text")
    read_header(cur, profile)
    vtable_names: dict[str, None] = {}
    records: list[InstrRecord] = []
    no_block: list[int] = []
    try:
        while not cur.at_end:
            record, had_block = _read_record(cur, profile.symbols, vtable_names)
            if not had_block:
                no_block.append(len(records))
            records.append(record)
    except ProfdataError as exc:  # LLVM had handed out the records before this one
        exc.partial = profile
        raise
    finally:
        profile.records, profile.vtable_names = records, list(vtable_names)
        profile.without_bitmap_block = frozenset(no_block)
    return profile


def read_header(cur: LineCursor, profile: InstrProfile) -> None:
    while (line := cur.peek()) is not None and line.startswith(b":"):
        word = line[1:].lower()
        if word == b"temporal_prof_traces":
            profile.kind |= ProfileKind.TEMPORAL
            cur.index += 1
            _read_traces(cur, profile)
            continue
        if word == b"not_entry_first":
            profile.kind &= ~ProfileKind.ENTRY_FIRST
        elif word in _HEADER_FLAGS:
            profile.kind |= _HEADER_FLAGS[word]
            if word == b"fe":
                profile.explicit_frontend = True
        else:
            cur.fail(
                HeaderCorruptError,
                "unknown header line",
                field="header",
                expected=_HEADER_WORDS,
                found=show_line(line),
            )
        cur.index += 1


def _read_traces(cur: LineCursor, profile: InstrProfile) -> None:
    """The block after ``:temporal_prof_traces`` (``readTemporalProfTraceData``)."""

    def number(field: str, bits: int) -> int:
        return cur.uint(
            field,
            radix=0,
            bits=bits,
            error=TextSyntaxError,
            truncated_message=_END_OF_FILE,
        )

    num_traces = number("num_traces", 32)
    profile.trace_stream_size = number("trace_stream_size", 64)
    traces: list[tuple[int, list[bytes]]] = []
    for _ in range(num_traces):
        weight = number("trace_weight", 64)
        names = cur.next(
            "trace_function_names", expected="name,name,...", truncated_message=_END_OF_FILE
        )
        pieces = [piece.strip(LLVM_WHITESPACE) for piece in names.split(b",") if piece]
        traces.append((weight, pieces))
    distinct = list(dict.fromkeys(name for _, pieces in traces for name in pieces))
    hashes = dict(zip(distinct, md5_hashes(distinct), strict=True))  # each name once
    for weight, pieces in traces:
        profile.traces.append(TemporalTrace(weight, tuple(map(hashes.__getitem__, pieces))))


def _read_record(
    cur: LineCursor, symbols: dict[int, str], vtable_names: dict[str, None]
) -> tuple[InstrRecord, bool]:
    """The next record, and whether it had a ``$`` bitmap block."""
    name_line = cur.next("function_name")
    name = name_str(name_line)
    symbols.setdefault(md5_hash_bytes(name_line), name)
    func_hash = cur.uint(
        "func_hash",
        radix=0,
        error=TextSyntaxError,
        llvm_message=_BAD_FUNC_HASH,
    )
    num_counters = cur.uint(
        "num_counters",
        error=TextSyntaxError,
        llvm_message=_BAD_NUM_COUNTERS,
    )
    if num_counters == 0:
        cur.fail(
            TextSyntaxError,
            "a record needs at least one counter",
            field="num_counters",
            expected="> 0",
            found="0",
            index=cur.index - 1,
            llvm_message=_ZERO_COUNTERS,
        )
    counts = _read_counts(cur, num_counters)
    bitmap = b""
    line = cur.peek()
    had_block = False
    if line is not None and line.startswith(b"$"):
        had_block = True
        num_bytes = parse_uint(line[1:].strip(LLVM_WHITESPACE), 0, 64)
        if num_bytes is None:
            cur.fail(
                TextSyntaxError,
                "the bitmap size after '$' is not a valid integer",
                field="num_bitmap_bytes",
                expected="$ and an integer (0x/0b/0o/0 prefixes) u64",
                found=show_line(line),
                llvm_message=_BAD_NUM_BITMAP_BYTES,
            )
        cur.index += 1
        bitmap = _read_bitmap(cur, num_bytes)
    record = InstrRecord(
        name=name,
        hash=func_hash,
        counts=counts,
        bitmap=bitmap,
        value_sites=_read_value_sites(cur, symbols, vtable_names),
    )
    return record, had_block


def _read_counts(cur: LineCursor, num_counters: int) -> Counts:
    """The counter lines, checked and converted in one pass; the slow path only locates errors."""
    chunk = cur.take(num_counters)
    start = cur.index - len(chunk)
    values = plain_u64s(chunk)
    if values is None:
        parsed = [parse_uint(text) for text in chunk]
        for i, text in enumerate(chunk):
            if parsed[i] is None:
                cur.fail(
                    TextSyntaxError,
                    f"counter {i} of {num_counters} is not a valid decimal u64",
                    field="counter",
                    expected="decimal u64",
                    found=show_line(text),
                    index=start + i,
                    llvm_message=_BAD_COUNT,
                )
    if len(chunk) < num_counters:
        cur.fail(
            TruncatedError,
            f"the file ends after {len(chunk)} of {num_counters} counters",
            field="counter",
            expected=f"{num_counters} counter lines",
            found=f"{len(chunk)}",
        )
    if values is None:  # every counter parsed (long ones have leading zeros)
        values = [value for value in parsed if value is not None]
    return np.array(values, dtype=np.uint64)


def _read_bitmap(cur: LineCursor, num_bytes: int) -> bytes:
    chunk = cur.take(num_bytes)
    start = cur.index - len(chunk)
    out = bytearray()
    for i, text in enumerate(chunk):
        byte = parse_uint(text, 0, 8)
        if byte is None:
            cur.fail(
                TextSyntaxError,
                f"bitmap byte {i} of {num_bytes} is not a valid integer below 256",
                field="bitmap_byte",
                expected="integer (0x/0b/0o/0 prefixes) u8",
                found=show_line(text),
                index=start + i,
                llvm_message=_BAD_BITMAP_BYTE,
            )
        out.append(byte)
    if len(chunk) < num_bytes:
        cur.fail(
            TruncatedError,
            f"the file ends after {len(chunk)} of {num_bytes} bitmap bytes",
            field="bitmap_byte",
            expected=f"{num_bytes} bitmap byte lines",
            found=f"{len(chunk)}",
        )
    return bytes(out)


def _read_value_sites(
    cur: LineCursor, symbols: dict[int, str], vtable_names: dict[str, None]
) -> dict[ValueKind, list[ValueSite]]:
    """The optional value block (``readValueProfileData``).

    A repeated kind appends sites, as LLVM's ``addValueData`` does.
    """
    line = cur.peek()
    num_kinds = None if line is None else parse_uint(line, 10, 32)
    if num_kinds is None:
        return {}
    if num_kinds == 0 or num_kinds > _IPVK_LAST + 1:
        cur.fail(
            TextSyntaxError,
            "the number of value kinds is out of range",
            field="num_value_kinds",
            expected=f"1..{_IPVK_LAST + 1}",
            found=str(num_kinds),
            llvm_message=_BAD_NUM_VALUE_KINDS,
        )
    cur.index += 1
    sites: dict[ValueKind, list[ValueSite]] = {}
    for _ in range(num_kinds):
        kind_number = cur.uint("value_kind", bits=32, error=TextSyntaxError)
        if kind_number > _IPVK_LAST:
            cur.fail(
                TextSyntaxError,
                "unknown value kind",
                field="value_kind",
                expected=f"0..{_IPVK_LAST}",
                found=str(kind_number),
                index=cur.index - 1,
                llvm_message=_BAD_VALUE_KIND,
            )
        kind = ValueKind(kind_number)
        num_sites = cur.uint("num_value_sites", bits=32, error=TextSyntaxError)
        if num_sites == 0:
            continue
        kind_sites = sites.setdefault(kind, [])
        for _ in range(num_sites):
            num_data = cur.uint("num_value_data", bits=32, error=TextSyntaxError)
            kind_sites.append(_read_site(cur, kind, num_data, symbols, vtable_names))
    return sites


def _read_site(
    cur: LineCursor,
    kind: ValueKind,
    num_data: int,
    symbols: dict[int, str],
    vtable_names: dict[str, None],
) -> ValueSite:
    chunk = cur.take(num_data)
    start = cur.index - len(chunk)
    site: ValueSite = []
    for i, line in enumerate(chunk):
        target, colon, count_text = line.rpartition(b":")
        if not colon:
            target, count_text = line, b""
        if not kind.targets_are_names:
            value = parse_uint(target)
            if value is None:
                cur.fail(
                    TextSyntaxError,
                    "the value before the last ':' is not a valid decimal u64",
                    field="value_data.value",
                    expected="<decimal>:<decimal>",
                    found=show_line(line),
                    index=start + i,
                )
        elif target == _EXTERNAL_SYMBOL_BYTES:
            value = 0
        elif not target:
            cur.fail(
                TextEmptyNameError,
                "the target name before the last ':' is empty",
                field="value_data.value",
                expected="<name>:<decimal>",
                found=show_line(line),
                index=start + i,
            )
        else:
            value = md5_hash_bytes(target)
            name = name_str(target)
            symbols.setdefault(value, name)
            if kind is ValueKind.VTABLE_TARGET:
                vtable_names[name] = None
        count = parse_uint(count_text)
        if count is None:
            cur.fail(
                TextSyntaxError,
                "the count after the last ':' is not a valid decimal u64",
                field="value_data.count",
                expected="<value>:<decimal>",
                found=show_line(line),
                index=start + i,
            )
        site.append(ValueData(value, count))
    if len(chunk) < num_data:
        cur.fail(
            TruncatedError,
            f"the file ends after {len(chunk)} of {num_data} values of a site",
            field="value_data",
            expected=f"{num_data} value lines",
            found=f"{len(chunk)}",
        )
    return site


register(InstrFormat("text", sniff, read))


# ---------------------------------------------------------------------------
# writer

_BITMAP_LINES = tuple(f"0x{b:x}\n" for b in range(256))


def writer_symbols(
    records: Iterable[InstrRecord], vtable_names: Iterable[str] = ()
) -> dict[int, str]:
    """The symbol table ``writeText`` builds: names of the written records, then vtable names.

    Targets of value sites and temporal traces print through this table, so an
    indirect-call target that is not itself a written record prints as
    :data:`EXTERNAL_SYMBOL` and an unknown trace entry as an empty string.
    """
    return names_symbols([record.name for record in records], vtable_names)


def names_symbols(
    names: list[str], vtable_names: Iterable[str] = (), name_hashes: list[int] | None = None
) -> dict[int, str]:
    """:func:`writer_symbols` of the written records' names (first one per hash kept),
    with their MD5 hashes when the caller has them already."""
    known = md5_hashes(names_bytes(names)) if name_hashes is None else name_hashes
    table: dict[int, str] = {}
    for name_hash, name in zip(known, names, strict=True):
        table.setdefault(name_hash, name)
    for name in vtable_names:
        table.setdefault(md5_hash(name), name)
    return table


def sort_records(records: Iterable[InstrRecord]) -> list[InstrRecord]:
    """``writeText``'s order: name bytes (``StringRef`` order), then FuncHash."""
    return sorted(records, key=lambda r: (name_bytes(r.name), r.hash))


def format_header(kind: ProfileKind, release: Release) -> str:
    """The flag lines ``merge --text`` writes before the records (not the trace block)."""
    parts: list[str] = []
    if kind & ProfileKind.CS:
        parts.append("# CSIR level Instrumentation Flag\n:csir\n")
    elif kind & ProfileKind.IR:
        parts.append("# IR level Instrumentation Flag\n:ir\n")
    if kind & ProfileKind.ENTRY_FIRST:
        parts.append("# Always instrument the function entry block\n:entry_first\n")
    if kind & ProfileKind.LOOP_ENTRIES and release.text_loop_entries_header:
        parts.append("# Always instrument the loop entry blocks\n:instrument_loop_entries\n")
    if kind & ProfileKind.SINGLE_BYTE_COVERAGE and release.text_single_byte_header:
        parts.append("# Instrument block coverage\n:single_byte_coverage\n")
    return "".join(parts)


def format_traces(
    traces: Sequence[TemporalTrace], stream_size: int, symbols: Mapping[int, str]
) -> str:
    """The ``:temporal_prof_traces`` block (``writeTextTemporalProfTraceData``)."""
    parts = [
        ":temporal_prof_traces\n# Num Temporal Profile Traces:\n",
        f"{len(traces)}\n# Temporal Profile Trace Stream Size:\n{stream_size}\n",
    ]
    for trace in traces:
        parts.append(f"# Weight:\n{trace.weight}\n")
        parts.append("".join(f"{symbols.get(h, '')}," for h in trace.function_hashes))
        parts.append("\n")
    parts.append("\n")
    return "".join(parts)


def format_record(record: InstrRecord, symbols: Mapping[int, str], release: Release) -> str:
    """One record block (``writeRecordInText``), ending with its blank line(s).

    ``show --text`` prints these in reader order with the reader's symbol
    table; ``merge --text`` in :func:`sort_records` order with
    :func:`writer_symbols`.  Value kinds the release does not know, and bitmaps
    before LLVM 18, are left out as that release's writer would.  Both
    commands write all blocks at once with
    :func:`profdata.formats.text_table.format_table`, several times faster on
    large profiles; this one-record form is its reference (the property tests
    hold the two byte for byte).
    """
    counts = record.counts.tolist()
    parts = [
        f"{record.name}\n# Func Hash:\n{record.hash}\n# Num Counters:\n{len(counts)}\n",
        "# Counter Values:\n",
    ]
    if counts:
        parts.append("\n".join(map(str, counts)))
        parts.append("\n")
    if record.bitmap and release.text_bitmaps:
        parts.append(f"# Num Bitmap Bytes:\n${len(record.bitmap)}\n# Bitmap Byte Values:\n")
        parts.extend(_BITMAP_LINES[b] for b in record.bitmap)
        parts.append("\n")
    kinds = [
        (kind, sites)
        for kind, sites in sorted(record.value_sites.items())
        if sites and kind <= release.max_value_kind
    ]
    if kinds:
        parts.append(f"# Num Value Kinds:\n{len(kinds)}\n")
        for kind, sites in kinds:
            parts.append(f"# ValueKind = {kind.llvm_name}:\n{int(kind)}\n")
            parts.append(f"# NumValueSites:\n{len(sites)}\n")
            for site in sites:
                parts.append(f"{len(site)}\n")
                if kind.targets_are_names:
                    parts.extend(
                        f"{symbols.get(v.value, EXTERNAL_SYMBOL)}:{v.count}\n" for v in site
                    )
                else:
                    parts.extend(f"{v.value}:{v.count}\n" for v in site)
    parts.append("\n")
    return "".join(parts)


def format_records(
    records: Iterable[InstrRecord], symbols: Mapping[int, str], release: Release
) -> str:
    """:func:`format_record` for each record, in the order given."""
    return "".join(format_record(record, symbols, release) for record in records)


def write(profile: InstrProfile, release: Release | None = None) -> bytes:
    """``llvm-profdata merge --text`` output of ``release`` (default 22) for a merged profile.

    ``profile.vtable_names`` join the symbol table, as ``InstrProfWriter``'s
    registered vtable names do; plain ``merge`` registers none (only
    ``--keep-vtable-symbols`` does), so the merge op leaves that list empty.
    """
    release = release or releases.release()
    return _write_table(profile, record_table(profile), release)


def merge_text(profile: InstrProfile, release: Release) -> bytes | None:
    """:func:`write` as ``merge --text`` runs ``writeText``: None where it stops after the
    flag lines.  It adds every written record's name to a symbol table before writing
    any record, and an empty name fails that (``llvm-profdata`` warns and keeps the file
    as far as it got)."""
    table = record_table(profile)
    if "" in table.columns.names:
        return None
    return _write_table(profile, table, release)


def _write_table(profile: InstrProfile, table: RecordTable, release: Release) -> bytes:
    from profdata.formats.text_table import format_table  # the writer needs numpy text

    table = table.take(_text_order(table))
    hashes = None if table.name_hashes is None else table.name_hashes.tolist()
    symbols = names_symbols(table.columns.names, profile.vtable_names, hashes)
    parts = [format_header(profile.kind, release)]
    if profile.kind & ProfileKind.TEMPORAL and release.text_temporal_block:
        parts.append(format_traces(profile.traces, profile.trace_stream_size, symbols))
    head = "".join(parts).encode("utf-8", "surrogateescape")
    return head + format_table(table, symbols, release)


def _text_order(table: RecordTable) -> npt.NDArray[np.int64]:
    """:func:`sort_records`'s order of a table's records."""
    cols = table.columns
    names = names_bytes(cols.names)
    hashes = cols.hashes.tolist()
    order = sorted(range(len(names)), key=lambda i: (names[i], hashes[i]))
    return np.array(order, dtype=np.int64)
