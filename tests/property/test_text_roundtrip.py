"""Round trips of the text instrumentation format: read(write(p)) == p, and friends.

Generated profiles stay inside what text can express (``instr-text.md`` §6):
names are non-empty lines that do not start with ``#``, ``:`` or ``$``, are not
all digits, carry no surrounding whitespace or ``,`` (trace lines) and are not
``** External Symbol **``; call/vtable targets are names the writer knows (or
0); traces are non-empty.
"""

from __future__ import annotations

import itertools
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats import text, text_table
from profdata.formats._text import LLVM_WHITESPACE
from profdata.formats.text_table import format_table, record_texts
from profdata.model.instr import InstrProfile, InstrRecord, TemporalTrace, ValueData, ValueSite
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_hash, name_str
from profdata.model.record_table import RecordTable
from profdata.releases import release

pytestmark = pytest.mark.property

U64 = st.integers(min_value=0, max_value=(1 << 64) - 1)


def _representable(raw: bytes) -> bool:
    return (
        not any(c in raw for c in b"\n\r\0,")
        and raw[:1] not in (b"#", b":", b"$")
        and not raw.isdigit()
        and raw.strip(LLVM_WHITESPACE) == raw
        and raw != text.EXTERNAL_SYMBOL.encode()
    )


NAMES = st.one_of(
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=10)
    .map(str.encode)
    .filter(_representable),
    st.binary(min_size=1, max_size=10).filter(_representable),
).map(name_str)

FLAGS = st.sets(
    st.sampled_from(
        [
            ProfileKind.IR,
            ProfileKind.IR | ProfileKind.CS,
            ProfileKind.ENTRY_FIRST,
            ProfileKind.LOOP_ENTRIES,
            ProfileKind.SINGLE_BYTE_COVERAGE,
            ProfileKind.TEMPORAL,
        ]
    )
)


def _sites(draw: st.DrawFn, values: st.SearchStrategy[int]) -> list[ValueSite]:
    site = st.lists(st.builds(ValueData, values, U64), max_size=4)
    return draw(st.lists(site, min_size=1, max_size=3))


@st.composite
def profiles(draw: st.DrawFn) -> InstrProfile:
    kind = ProfileKind.FRONTEND
    for flag in draw(FLAGS):
        kind |= flag
    keys = draw(st.lists(st.tuples(NAMES, U64), min_size=0, max_size=6, unique=True))
    names = sorted({n for n, _ in keys})
    targets = st.sampled_from([0, *(md5_hash(n) for n in names)])
    vtable_names = draw(st.lists(NAMES, max_size=3, unique=True))
    vtables = st.sampled_from([0, *(md5_hash(n) for n in vtable_names)])
    records = []
    for name, func_hash in keys:
        sites: dict[ValueKind, list[ValueSite]] = {}
        if draw(st.booleans()):
            sites[ValueKind.INDIRECT_CALL_TARGET] = _sites(draw, targets)
        if draw(st.booleans()):
            sites[ValueKind.MEMOP_SIZE] = _sites(draw, U64)
        if draw(st.booleans()):
            sites[ValueKind.VTABLE_TARGET] = _sites(draw, vtables)
        counts = draw(st.lists(U64, min_size=1, max_size=6))
        bitmap = draw(
            st.one_of(st.just(b""), st.binary(max_size=8), st.binary(min_size=256, max_size=300))
        )
        records.append(
            InstrRecord(name, func_hash, np.array(counts, dtype=np.uint64), bitmap, sites)
        )
    traces: list[TemporalTrace] = []
    stream_size = 0
    if kind & ProfileKind.TEMPORAL and names:
        trace = st.builds(
            TemporalTrace,
            U64,
            st.lists(st.sampled_from([md5_hash(n) for n in names]), min_size=1, max_size=5).map(
                tuple
            ),
        )
        traces = draw(st.lists(trace, max_size=3))
        stream_size = draw(U64)
    return InstrProfile(
        kind=kind,
        records=records,
        traces=traces,
        trace_stream_size=stream_size,
        vtable_names=vtable_names,
    )


def _read(data: bytes) -> InstrProfile:
    return text.read(memoryview(data), None)


@settings(max_examples=150, deadline=None)
@given(profiles())
def test_read_write_round_trip(profile: InstrProfile) -> None:
    back = _read(text.write(profile, release(22)))
    assert back.kind == profile.kind
    assert list(back.records) == text.sort_records(profile.records)
    assert back.traces == profile.traces
    if profile.kind & ProfileKind.TEMPORAL:
        assert back.trace_stream_size == profile.trace_stream_size
    assert set(back.vtable_names) <= set(profile.vtable_names)
    assert {r.name for r in profile.records} <= set(back.symbols.values())


@settings(max_examples=100, deadline=None)
@given(profiles(), st.sampled_from([14, 16, 19, 22]))
def test_written_text_is_a_fixed_point(profile: InstrProfile, number: int) -> None:
    """What any release writes reads back to something that release writes identically."""
    once = text.write(profile, release(number))
    again = _read(once)
    again.vtable_names = profile.vtable_names
    assert text.write(again, release(number)) == once


@settings(max_examples=100, deadline=None)
@given(profiles(), st.data())
def test_comments_blank_lines_and_crlf_are_invisible(
    profile: InstrProfile, data: st.DataObject
) -> None:
    written = text.write(profile, release(22))
    lines = written.split(b"\n")
    decoration = st.sampled_from([b"", b"#", b"# note", b"#:ir", b"#123"])
    inserts = data.draw(
        st.lists(st.tuples(st.integers(0, len(lines) - 1), decoration), max_size=12)
    )
    for pos, extra in sorted(inserts, reverse=True):
        lines.insert(pos, extra)
    newline = data.draw(st.sampled_from([b"\n", b"\r\n"]))
    variant = _read(newline.join(lines))
    plain = _read(written)
    assert variant.kind == plain.kind
    assert list(variant.records) == list(plain.records)
    assert variant.traces == plain.traces


@settings(max_examples=100, deadline=None)
@given(profiles(), st.sampled_from(["0x{:x}", "0X{:X}", "0b{:b}", "0o{:o}", "0{:o}", "{:d}"]))
def test_hashes_read_in_any_radix(profile: InstrProfile, spelling: str) -> None:
    """FuncHash is written in decimal but LLVM reads it with radix auto-detection."""
    plain = _read(text.write(profile, release(22)))
    lines = text.write(profile, release(22)).decode("utf-8", "surrogateescape").split("\n")
    for i, line in enumerate(lines[:-1]):
        if line == "# Func Hash:":
            value = int(lines[i + 1])
            lines[i + 1] = spelling.format(value) if value else "0"
    respelled = _read("\n".join(lines).encode("utf-8", "surrogateescape"))
    assert list(respelled.records) == list(plain.records)


@st.composite
def record_lists(draw: st.DrawFn) -> tuple[list[InstrRecord], dict[int, str]]:
    """Records in any order with anything in them: no counters, empty sites, targets
    no record is named after, names of any bytes, and a symbol table naming some."""
    names = draw(st.lists(NAMES, min_size=1, max_size=5, unique=True))
    symbols = {md5_hash(n): n for n in names if draw(st.booleans())}
    targets = st.one_of(st.sampled_from([0, *(md5_hash(n) for n in names)]), U64)
    records = []
    for _ in range(draw(st.integers(0, 6))):
        sites: dict[ValueKind, list[ValueSite]] = {}
        for kind in ValueKind:
            if draw(st.booleans()):
                values = U64 if kind is ValueKind.MEMOP_SIZE else targets
                site = st.lists(st.builds(ValueData, values, U64), max_size=4)
                sites[kind] = draw(st.lists(site, min_size=0, max_size=3))
        counts = np.array(draw(st.lists(U64, max_size=6)), dtype=np.uint64)
        bitmap = draw(st.one_of(st.just(b""), st.binary(max_size=300)))
        records.append(InstrRecord(draw(st.sampled_from(names)), draw(U64), counts, bitmap, sites))
    return records, symbols


@settings(max_examples=200, deadline=None)
@given(record_lists(), st.sampled_from([14, 16, 19, 22]))
def test_table_writer_writes_what_the_record_writer_writes(
    case: tuple[list[InstrRecord], dict[int, str]], number: int
) -> None:
    """``format_table`` (all records at once, with numpy) against ``format_record`` (one at
    a time), which is the reference: the same bytes, and each record's block where
    ``record_texts`` says it is."""
    records, symbols = case
    rel = release(number)
    blocks = [text.format_record(r, symbols, rel).encode("utf-8", "surrogateescape")
              for r in records]  # fmt: skip
    table = RecordTable.of(records)
    assert format_table(table, symbols, rel) == b"".join(blocks)
    with (  # in two halves (the second made here too, not in a child)
        mock.patch.object(text_table, "_SPLIT_RECORDS", 1),
        mock.patch.object(text_table, "in_two", lambda here, there: (here(), there())),
    ):
        assert format_table(table, symbols, rel) == b"".join(blocks)
    blob, bounds = record_texts(table, symbols, rel)
    assert [blob[a:b].tobytes() for a, b in itertools.pairwise(bounds)] == blocks
