"""Text sample profiles merged as columns: the same as reading them into objects.

``formats/sample_text_columns.py`` scans a text profile as bytes and must give
exactly what the text reader gives -- or decline.  Two sources of texts:
profiles our text writer prints (the shape llvm-profdata writes; the column
path must take them), and texts assembled line by line from well-formed and
odd lines (indents that jump, spaces where the reader does not expect them,
repeated targets and headers, checksums, comments, numbers of 20 digits,
locations out of range), where anything may decline but whatever is taken
must merge to the record-by-record result, and a text the reader rejects must
never be taken.
"""

from __future__ import annotations

import dataclasses
import re
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from profdata.errors import ColumnsDeclined, ProfdataError
from profdata.formats import sample_text, sample_text_columns
from profdata.formats.sample_columns import ProfileColumns
from profdata.formats.sample_registry import read_sample_bytes
from profdata.formats.sample_text_columns import read_text_columns
from profdata.model.sample import FunctionSamples, SampleProfile
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_sample import SampleMergeOptions, merge_samples
from profdata.ops.merge_sample_columns import merge_columns
from profdata.releases import release
from tests.property.test_sample_column_merge import (
    COUNTS,
    HUGE,
    assert_same,
    encode,
    merged_both_ways,
    profiles,
)

pytestmark = pytest.mark.property

SETTINGS = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def plain_names(profile: SampleProfile) -> bool:
    """Whether every callee and call-target name is one the text reader's fast lines take
    (no colon or space, a callee not starting with a digit)."""

    def fine(name: str, callee: bool) -> bool:
        return ":" not in name and " " not in name and not (callee and name[:1].isdigit())

    def walk(fs: FunctionSamples) -> bool:
        for record in fs.body_samples.values():
            if not all(fine(n, False) for n in record.call_targets):
                return False
        for callees in fs.callsite_samples.values():
            for name, callee in callees.items():
                if not fine(name, True) or not walk(callee):
                    return False
        return True

    return all(walk(fs) for fs in profile.profiles.values())


@SETTINGS
@given(
    inputs=st.lists(
        st.tuples(
            profiles(COUNTS),
            st.integers(1, 5),
            st.sampled_from(["text", "text", "extbinary", "binary"]),
        ),
        min_size=1,
        max_size=4,
    ),
    number=st.sampled_from([13, 14, 16, 19, 22]),
)
def test_text_inputs_merge_as_columns(
    tmp_path: Path, inputs: list[tuple[SampleProfile, int, str]], number: int
) -> None:
    """Written text (with binary and ext-binary inputs among them): the same merge, and
    taken whenever every name is one the fast lines read."""
    paths = []
    for index, (profile, _, kind) in enumerate(inputs):
        path = tmp_path / f"in{index}.{kind}"
        if kind == "text" and not profile.profiles:
            kind = "extbinary"  # an empty text is no sample profile at all
        path.write_bytes(sample_text.write(profile) if kind == "text" else encode(profile, kind))
        paths.append(path)
    columns, records, took = merged_both_ways(paths, [w for _, w, _ in inputs], number)
    texts = [p for p, _, kind in inputs if kind == "text"]
    if all(plain_names(p) for p in texts):
        assert took
    event("taken" if took else "declined: names with colons")
    assert_same(columns, records)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(inputs=st.lists(st.tuples(profiles(HUGE), st.integers(1, 3)), min_size=1, max_size=3))
def test_text_counts_near_the_limit(
    tmp_path: Path, inputs: list[tuple[SampleProfile, int]]
) -> None:
    paths = []
    for index, (profile, _) in enumerate(inputs):
        path = tmp_path / f"in{index}.txt"
        path.write_bytes(sample_text.write(profile) if profile.profiles else b"main:1:1\n")
        paths.append(path)
    columns, records, _ = merged_both_ways(paths, [w for _, w in inputs], 22)
    assert_same(columns, records)


# -- texts line by line ------------------------------------------------------------------
def mostly(good: st.SearchStrategy[str], odd: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``good`` 29 times in 30: a text holds many of these, and one odd one decides it."""
    return st.integers(0, 29).flatmap(lambda k: odd if k == 0 else good)


NAME = mostly(
    st.sampled_from(["main", "foo", "bar", "_Z1fv", "q.1", "\u00e9t\u00e9"]),
    st.sampled_from(["f:g", "a b", "1x"]),
)
NUMBER = mostly(
    st.integers(0, 50).map(str),
    st.sampled_from(["0", "007", "18446744073709551615", "99999999999999999999", "1" * 19]),
)
LOCATION = mostly(
    st.one_of(
        st.integers(0, 9).map(str),
        st.tuples(st.integers(0, 9), st.integers(0, 5)).map(lambda t: f"{t[0]}.{t[1]}"),
    ),
    st.sampled_from(["65535", "65536", "4294967295.1", "4294967296.1", "1.4294967296", "1.",
                     "1.2.3", "x"]),
)  # fmt: skip


@st.composite
def lines(draw: st.DrawFn) -> str:
    depth = draw(st.sampled_from([1, 1, 1, 2, 2, 3]))
    pad = " " * depth
    kind = draw(st.sampled_from(["header", *["body"] * 12, *["callee"] * 6, "odd"]))
    if kind == "header":
        return f"{draw(NAME)}:{draw(NUMBER)}:{draw(NUMBER)}"
    loc = draw(LOCATION)
    if kind == "body":
        targets = draw(st.lists(st.tuples(NAME, NUMBER), max_size=3))
        return f"{pad}{loc}: {draw(NUMBER)}" + "".join(f" {n}:{c}" for n, c in targets)
    if kind == "callee":
        return f"{pad}{loc}: {draw(NAME)}:{draw(NUMBER)}"
    return draw(st.sampled_from([
        f"{pad}!CFGChecksum: 5", f"{pad}!Attributes: 1", "", "   ", "# comment", f"{pad}# c",
        f"{pad}{loc}: 5 ", f"{pad}{loc}:  5", f"{pad}{loc}: 5  f:1", f"{pad}{loc}: vtables v:1",
        "[main:1 @ foo]:5:1", "main:1:2 !Flat", f"{pad}{loc}: 5 f:1 f:2", "main:5", "\t1: 5",
        f"{pad}7a 5", f"{pad}7.1a 5 f:1", f"{pad}7 5", f"{pad}{loc}: 5x f:1",
    ]))  # fmt: skip


@st.composite
def texts(draw: st.DrawFn) -> bytes:
    body = draw(st.lists(lines(), max_size=12))
    first = f"{draw(NAME)}:{draw(NUMBER)}:{draw(NUMBER)}"
    text = "\n".join([first, *body]) + draw(st.sampled_from(["", "\n", "\n", "\n\n", "\r\n"]))
    return text.encode()


@SETTINGS
@given(data=texts(), weight=st.integers(1, 3), number=st.sampled_from([13, 14, 16, 19, 22]))
def test_any_text_is_read_as_the_reader_reads_it_or_declined(
    tmp_path: Path, data: bytes, weight: int, number: int
) -> None:
    rel = release(number)
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    taken = read_text_columns(memoryview(data), str(path), rel) is not None
    try:
        profile = read_sample_bytes(data, str(path), rel)
    except ProfdataError:
        event("the reader rejects it")
        assert not taken
        return
    entries = [WeightedFile(str(path), weight), WeightedFile(str(path), 1)]
    merged = merge_columns(entries, rel)
    event("taken" if merged is not None else "declined")
    assert (merged is not None) <= taken
    if merged is None:
        return
    records = merge_samples(entries, SampleMergeOptions(rel), [profile, profile])
    assert_same(merged[0], records.profile)


def test_written_texts_are_taken_and_odd_ones_declined(tmp_path: Path) -> None:
    rel = release(22)

    def taken(text: str) -> bool:
        return read_text_columns(memoryview(text.encode()), None, rel) is not None

    assert taken("main:10:1\n 1: 4 foo:2 bar:1\n 2: foo:6\n  1: 6\n 3.2: 0\nfoo:3:3\n 1: 3\n")
    assert taken("a b:c:1:2\n 65535: 1\n 4294967295.4294967295: 1")
    for odd in [
        " 1: 5\nmain:1:1",  # before any header
        "main:1:1\n  1: 5",  # two levels deeper
        "main:1:1\n 1: foo:2\n   1: 5",
        "main:1:1\nmain:2:2",  # a header twice
        "[main]:1:1",
        "main:1:1\n 1: 5 f:1 f:2",  # a target twice in one line
        "main:1:1\n 65536: 5",
        "main:1:1\n 1.4294967296: 5",
        "main:1:1\n 1: 99999999999999999999",
        "main:1:1\n 1: 5 ",
        "main:1:1\n 1: 1foo:5",
        "main:1:1\n !CFGChecksum: 3",
        "main:1:1\n\n 1: 5",
        "main:1:1\r\n 1: 5",
        "# c\nmain:1:1",
        "main:1:1\n 1: 5\x00",
        "main:1:1\n 1: vtables v:1",
        "main:1:1 !Flat",
        "main:1:1\n 7a 5",  # a location ended by another byte than ':' or '.'
        "main:1:1\n 7.1a 5 f:1",
        "main:1:1\n 7: 5x f:1",  # samples ended by another byte than a space
        "main:1:1\n 1.: 5",
        "main:1:1\n 12345678901234567890: 5",
    ]:
        assert not taken(odd), odd


# -- a text read in parts ----------------------------------------------------------------
def same_columns(a: ProfileColumns, b: ProfileColumns) -> bool:
    """Every column equal, numbers with their types."""
    for f in dataclasses.fields(ProfileColumns):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            if x.dtype != y.dtype or not np.array_equal(x, y):
                return False
        elif x != y:
            return False
    return True


def read_in_parts(data: bytes, cuts: list[int]) -> ProfileColumns | None:
    """``data`` cut before the header lines at ``cuts`` (the trailing newline dropped, as
    the reader drops it), each part read on its own and the parts joined."""
    stop = len(data) - data.endswith(b"\n")
    bounds = [0, *cuts, stop + 1]
    try:
        return sample_text_columns.joined_parts(
            [sample_text_columns._Scan(data, a, b - 1).part() for a, b in pairwise(bounds)]
        )
    except ColumnsDeclined:
        return None


@settings(max_examples=300, deadline=None)
@given(
    data=st.one_of(texts(), profiles(COUNTS).filter(
        lambda p: len(p.profiles) > 1 and plain_names(p)
    ).map(sample_text.write)),
    picks=st.lists(st.integers(0, 1 << 16), min_size=1, max_size=3),
)  # fmt: skip
def test_a_text_read_in_parts_is_the_text_read_whole(data: bytes, picks: list[int]) -> None:
    """Cut before any header lines (as a large text is cut, and its second part read by
    another process): the parts joined are the whole text's columns, declined alike."""
    whole = read_text_columns(memoryview(data), None, release(22))
    starts = [m.start() + 1 for m in re.finditer(rb"\n[^ ]", data.rstrip(b"\n"))]
    if whole is None and not starts:
        return
    cuts = sorted({starts[p % len(starts)] for p in picks}) if starts else []
    event(f"{len(cuts) + 1} parts")
    if data[:1] in (b"", b"#", b"\n") or any(odd in data for odd in sample_text_columns._ODD):
        assert whole is None  # declined before any part is read
        return
    parts = read_in_parts(data, cuts)
    event("declined" if whole is None else "taken")
    assert (parts is None) == (whole is None)
    if whole is not None and parts is not None:
        assert same_columns(whole[1], parts)


def test_parts_join_names_headers_first_then_call_sites_then_targets() -> None:
    """Each part names a header, a call site and a call target of its own, and the second
    names the first's call target as a call site: the order of one read."""
    data = (
        b"a:9:1\n 1: 4 ta:2 tz:1\n 2: ca:5\n  1: 5 tb:1\n"
        b"b:7:2\n 1: 3 tb:1 tc:2\n 2: ta:4\n  1: 4\n 3: cb:0\n"
    )
    whole = read_text_columns(memoryview(data), None, release(22))
    assert whole is not None
    assert whole[1].names == ["a", "b", "ca", "ta", "cb", "tz", "tb", "tc"]
    parts = read_in_parts(data, [data.index(b"b:7")])
    assert parts is not None and same_columns(whole[1], parts)
    assert parts.tgt_rec.tolist() == [0, 0, 1, 2, 2]  # the second part's records follow
    assert parts.node_parent.tolist() == [-1, 0, -1, 2, 2]
