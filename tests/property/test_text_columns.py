"""The column reader of text profiles (``formats/text_columns``) against the line reader.

Whatever the column reader returns must be the profile the line reader
makes of the same bytes -- the same records (names, hashes, counters,
bitmaps, value sites in order), kind, frontend flag, symbols in the same
order, vtable names and records without a bitmap block -- and where the line
reader fails, the column reader must decline (None).  Inputs: texts our
writer makes of generated profiles (every release's text form), and those
texts with one line changed the way hand-made or damaged files are: leading
zeros and radix prefixes, spaces, comments and blank lines, a count cut or
grown, kinds reordered, lines dropped or repeated, carriage returns.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata.errors import ProfdataError
from profdata.formats import text
from profdata.formats.text_columns import read_columns
from profdata.model.instr import InstrProfile
from profdata.model.kinds import ValueKind
from profdata.releases import release
from profdata.testing.strategies import instr_profiles

pytestmark = pytest.mark.property

_CHANGES = (
    b"0",  # prefix: leading zero (a hash then reads as octal)
    b"0x",
    b" ",
    b"#",
    b"+",
    b"$",
    b"1",
)


def _line_read(data: bytes) -> InstrProfile | ProfdataError:
    """The line reader alone (the column reader switched off)."""
    try:
        return text.read_lines(memoryview(data))
    except ProfdataError as exc:
        return exc


def _assert_same(data: bytes) -> bool:
    """Both readers agree on ``data``; whether the column reader read it."""
    columns = read_columns(data)
    lines = _line_read(data)
    if columns is None:
        return False
    assert isinstance(lines, InstrProfile), f"the line reader fails: {lines}"
    assert columns.kind == lines.kind
    assert columns.explicit_frontend == lines.explicit_frontend
    assert list(columns.symbols.items()) == list(lines.symbols.items())
    assert columns.vtable_names == lines.vtable_names
    assert columns.without_bitmap_block == lines.without_bitmap_block
    assert columns.traces == lines.traces
    assert len(columns.records) == len(lines.records)
    for a, b in zip(columns.records, lines.records, strict=True):
        assert (a.name, a.hash, a.bitmap) == (b.name, b.hash, b.bitmap)
        assert np.array_equal(a.counts, b.counts) and a.counts.dtype == b.counts.dtype
        assert list(a.value_sites.items()) == list(b.value_sites.items())
    return True


#: what the column reader reads: no bitmaps, no vtable targets
PROFILES = instr_profiles(
    max_records=6,
    bitmaps=False,
    vtables=False,
    value_kinds=(ValueKind.INDIRECT_CALL_TARGET, ValueKind.MEMOP_SIZE),
)


@settings(max_examples=300, deadline=None)
@given(PROFILES, st.sampled_from([14, 16, 19, 22]))
def test_written_texts_read_alike(profile: InstrProfile, rel: int) -> None:
    data = text.write(profile, release(rel))
    read = _assert_same(data)
    plain = not profile.kind & profile.kind.TEMPORAL  # traces: the line reader's
    if plain and all(_plain(r.name) for r in profile.records):
        assert read


def _plain(name: str) -> bool:
    """A name that reads back as a name (one of digits may read as a value block, one
    starting with ':' as a header line, '#' as a comment: then both readers fail)."""
    return name[:1] not in ":#$" and not name[:1].isdigit() and name.strip() == name


@settings(max_examples=100, deadline=None)
@given(instr_profiles(max_records=4, temporal=None))
def test_bitmaps_vtables_and_traces_are_declined_or_alike(profile: InstrProfile) -> None:
    _assert_same(text.write(profile, release(22)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PROFILES, st.data())
def test_changed_texts_read_alike_or_are_declined(
    profile: InstrProfile, data: st.DataObject
) -> None:
    lines = text.write(profile, release(22)).split(b"\n")
    at = data.draw(st.integers(0, len(lines) - 1))
    how = data.draw(st.sampled_from(["prefix", "suffix", "drop", "repeat", "cr", "blank"]))
    if how == "prefix":
        lines[at] = data.draw(st.sampled_from(_CHANGES)) + lines[at]
    elif how == "suffix":
        lines[at] = lines[at] + data.draw(st.sampled_from([b" ", b"0", b"\r", b":1", b"x"]))
    elif how == "drop":
        del lines[at]
    elif how == "repeat":
        lines.insert(at, lines[at])
    elif how == "cr":
        lines[at] += b"\r"
    else:
        lines.insert(at, b"")
    _assert_same(b"\n".join(lines))


def test_the_bench_like_text_reads_in_columns() -> None:
    """Not only declines: a text llvm-profdata would write, with calls, sizes and external
    targets, is read in columns."""
    data = b"\n".join(
        [
            b"# IR level Instrumentation Flag",
            b":ir",
            b"main",
            b"# Func Hash:",
            b"1234",
            b"# Num Counters:",
            b"2",
            b"# Counter Values:",
            b"7",
            b"18446744073709551615",
            b"# Num Value Kinds:",
            b"2",
            b"# ValueKind = IPVK_IndirectCallTarget:",
            b"0",
            b"# NumValueSites:",
            b"2",
            b"2",
            b"foo:5",
            b"** External Symbol **:3",
            b"0",
            b"# ValueKind = IPVK_MemOPSize:",
            b"1",
            b"# NumValueSites:",
            b"1",
            b"1",
            b"8:4",
            b"",
            b"foo",
            b"# Func Hash:",
            b"99",
            b"# Num Counters:",
            b"1",
            b"# Counter Values:",
            b"0",
            b"",
        ]
    )
    assert _assert_same(data)
    profile = read_columns(data)
    assert profile is not None
    assert [r.name for r in profile.records] == ["main", "foo"]
