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

import os
from collections.abc import Callable
from typing import TypeVar
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata import offload
from profdata.errors import ProfdataError
from profdata.formats import text, text_columns
from profdata.formats._text import parse_uint
from profdata.formats.text_columns import read_columns
from profdata.model.instr import InstrProfile
from profdata.model.kinds import ValueKind
from profdata.releases import release
from profdata.testing.strategies import instr_profiles

pytestmark = pytest.mark.property
T = TypeVar("T")
U = TypeVar("U")

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


def _in_turn(here: Callable[[], T], there: Callable[[], U]) -> tuple[T, U]:
    """``offload.in_two`` without the fork: both parts read here, one after the other."""
    return here(), there()


def _read_cut(data: bytes) -> InstrProfile | None:
    """The column reader with any text of two or more records cut in two parts."""
    with (
        mock.patch.object(text_columns, "_SPLIT_BYTES", 0),
        mock.patch.object(text_columns, "in_two", _in_turn),
    ):
        return read_columns(data)


def _assert_same(data: bytes) -> bool:
    """Both readers agree on ``data``, read whole and cut in two; whether the column
    reader read it (whole)."""
    cut = _read_cut(data)
    if cut is not None:
        _assert_profile(cut, _line_read(data))
    columns = read_columns(data)
    if columns is None:
        return False
    _assert_profile(columns, _line_read(data))
    assert cut is not None, "declined when cut, read whole"
    return True


def _assert_profile(columns: InstrProfile, lines: InstrProfile | ProfdataError) -> None:
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


def _record(name: bytes, counters: int, values: list[bytes]) -> list[bytes]:
    """A record as llvm-profdata writes it, with one call site of ``values`` (if any)."""
    lines = [name, b"# Func Hash:", b"7", b"# Num Counters:", str(counters).encode()]
    lines += [b"# Counter Values:", *[b"1"] * counters]
    if values:
        lines += [b"# Num Value Kinds:", b"1", b"# ValueKind = IPVK_IndirectCallTarget:", b"0"]
        count = sum(not value.startswith(b"#") for value in values)
        lines += [b"# NumValueSites:", b"1", str(count).encode(), *values]
    return [*lines, b""]


def test_a_cut_where_no_record_starts_reads_whole() -> None:
    """A ``# Func Hash:`` comment inside a value site (a hand-edited text) puts the cut
    there: the first part ends inside the site, and the text is read whole instead."""
    lines = [b":ir", *_record(b"main", 200, [b"foo:5", b"# Func Hash:", b"bar:3"])]
    data = b"\n".join([*lines, *_record(b"foo", 1, []), *_record(b"bar", 1, [])])
    read = text_columns._header(data)
    assert read is not None
    assert data[text_columns._cut(data, read[1]) :].startswith(b"foo:5\n")
    assert _assert_same(data)
    assert _read_cut(data) is not None


@pytest.mark.parametrize("name", [b"17", b"$x", b"# c"])
def test_no_cut_before_a_line_the_record_before_would_read(name: bytes) -> None:
    """The record before a cut looks at the line after it (a u32 starts a value block,
    ``$`` a bitmap block), and a comment is no record: no cut before such a line."""
    lines = [b":ir", *_record(b"main", 200, []), *_record(name, 1, [])]
    data = b"\n".join([*lines, *_record(b"foo", 1, [])])
    read = text_columns._header(data)
    assert read is not None
    assert text_columns._cut(data, read[1]) is None
    _assert_same(data)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
def test_the_second_part_read_in_a_forked_process(
    monkeypatch: pytest.MonkeyPatch, forks: list[int], child_must_answer: None
) -> None:
    """The second part comes back from a forked child, pickled, as read here."""
    monkeypatch.setattr(offload, "may_fork", lambda: True)
    monkeypatch.setattr(text_columns, "_SPLIT_BYTES", 0)
    records = [_record(f"f{k}".encode(), 1 + k % 3, [b"f1:2", b"f2:1"] * (k % 2)) for k in range(9)]
    data = b"\n".join([b":ir", *[line for record in records for line in record]])
    assert _assert_same(data)
    profile = read_columns(data)
    assert profile is not None
    assert [r.name for r in profile.records] == [f"f{k}" for k in range(9)]
    assert len(forks) == 2  # one child for each of the two reads


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=12),
        st.text("0123456789", max_size=12).map(str.encode),
        st.text("0123456789_ +-\u0663", max_size=11).map(lambda t: t.encode("utf-8")),
    )
)
def test_the_walks_counts_read_as_parse_uint(line: bytes) -> None:
    """The walk's short cut for counts reads every line as ``parse_uint`` (LLVM's
    ``getAsInteger``) does: ``int()`` would also take spaces, signs and underscores."""
    assert text_columns._u32(line) == parse_uint(line, 10, 32)
