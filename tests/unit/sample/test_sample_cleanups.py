"""Pins of behaviour shared code must keep: NUL-terminated and ULEB MD5 name tables
(their errors' text and offsets per format), the summary's walk, and the MD5 decision."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from profdata.errors import FormatError
from profdata.formats import sample_binary, sample_compact, sample_extbinary
from profdata.formats._binary import ByteReader
from profdata.model.sample import (
    ContextAttribute,
    FunctionSamples,
    LineLocation,
    SampleContext,
    SampleProfile,
    SampleRecord,
    as_release_names,
    md5_function_ids,
)
from profdata.model.sample_summary import summarize_samples
from profdata.releases import release
from tests.leb128 import uleb


def _error(call: Callable[[], object]) -> tuple[str, int | None, str | None]:
    with pytest.raises(FormatError) as caught:
        call()
    location = caught.value.location
    assert location is not None
    return str(caught.value), location.offset, location.field


def _strings(
    data: bytes, count: int, pos: int = 0, end: int | None = None, base: int = 0
) -> tuple[list[str], int]:
    cur = ByteReader(data, pos=pos, end=end, base=base)
    names = sample_binary.read_strings(cur, count, "name")
    return names, cur.pos


def test_read_strings_stops_after_the_last_name() -> None:
    assert _strings(b"ab\0cd\0ef", 2) == (["ab", "cd"], 6)
    long = b"a" * 200 + b"\0" + b"b" * 300 + b"\0" + b"tail"  # needs a wider window
    assert _strings(long, 2) == (["a" * 200, "b" * 300], 502)
    assert _strings(b"xx\0y\0", 1, pos=2) == ([""], 3)


@pytest.mark.parametrize(
    ("data", "count", "where", "offset"),
    [
        (b"ab\0cd\0ef", 3, {}, 6),  # just after the last NUL
        (b"abcdef", 1, {}, 0),
        (b"", 1, {}, 0),
        (b"xxab\0cd\0ef\0", 3, {"pos": 2, "end": 9, "base": 100}, 108),  # NUL past end
        (b"a" * 200 + b"\0" + b"b" * 300, 2, {}, 201),
    ],
)
def test_read_strings_without_terminator(
    data: bytes, count: int, where: dict[str, int], offset: int
) -> None:
    message = "Truncated profile data: name has no terminating NUL before the end of the data"
    assert _error(lambda: _strings(data, count, **where)) == (message, offset, "name")


def _compact(data: bytes, base: int = 0) -> tuple[list[str], int]:
    cur = ByteReader(data, base=base)
    return sample_compact.read_md5_name_table(cur), cur.pos


def _ext(data: bytes, base: int = 0) -> tuple[list[str], int]:
    # 16, which keeps a hash of 0 as "0" like the compact reader (18+: the name "")
    reader = sample_extbinary._Reader(memoryview(data), "p.prof", release(16))
    cur = ByteReader(data, base=base)
    return reader.name_table(cur, True, False), cur.pos


PADDED_ZERO = b"\x80" * 11 + b"\x00"  # a valid ULEB128 longer than any 64-bit value needs
WIDE = b"\xff" * 9 + b"\x02"  # 2**64 + 2**63 - 1: its last byte overflows


@pytest.mark.parametrize("read", [_compact, _ext])
def test_uleb_md5_names(read: Callable[[bytes], tuple[list[str], int]]) -> None:
    assert read(uleb(3, 1, 2**64 - 1, 3)) == (["1", str(2**64 - 1), "3"], 13)
    # the padded value is cut by the decoded window and read on field by field
    assert read(uleb(2) + PADDED_ZERO + uleb(7, 9)) == (["0", "7"], 14)
    # a hash past 64 bits reads as 0 and leaves its last byte to the next number
    # (``decodeULEB128`` without an error pointer, as ``readNumber`` calls it)
    assert read(uleb(3, 1) + WIDE + uleb(4)) == (["1", "0", "2"], 12)


TRUNC = "Truncated profile data: "


@pytest.mark.parametrize(
    ("data", "base", "compact", "ext"),
    [
        (
            uleb(5, 1),
            7,
            (TRUNC + "the name table promises more hashes than bytes remain", 8, "num_names"),
            (TRUNC + "the MD5 name table promises more hashes than bytes remain", 7, "num_names"),
        ),
        (
            uleb(3, 1, 2) + b"\x80",
            0,
            (TRUNC + "name_md5 (ULEB128) runs past the end of the data", 3, "name_md5"),
            (TRUNC + "md5_name (ULEB128) runs past the end of the data", 3, "md5_name"),
        ),
        (
            uleb(4, 1) + WIDE,  # the wide hash is 0, its last byte the third; no fourth
            0,
            (TRUNC + "name_md5 (ULEB128) runs past the end of the data", 12, "name_md5"),
            (TRUNC + "md5_name (ULEB128) runs past the end of the data", 12, "md5_name"),
        ),
    ],
)
def test_uleb_md5_name_table_errors_per_format(
    data: bytes,
    base: int,
    compact: tuple[str, int, str],
    ext: tuple[str, int, str],
) -> None:
    assert _error(lambda: _compact(data, base)) == compact
    assert _error(lambda: _ext(data, base)) == ext


def _inlinee(name: str, samples: int, attributes: int = 0) -> FunctionSamples:
    fs = FunctionSamples(SampleContext(name), attributes=attributes)
    fs.body_samples[LineLocation(1, 0)] = SampleRecord(samples)
    return fs


def test_walk_order_and_skip() -> None:
    dup = int(ContextAttribute.DUPLICATED_INTO_BASE)
    top = _inlinee("top", 1)
    a, b, c = _inlinee("a", 2), _inlinee("b", 4, dup), _inlinee("c", 8)
    a.callsite_samples[LineLocation(1, 0)] = {"c": c}
    b.callsite_samples[LineLocation(1, 0)] = {"c": _inlinee("c", 16)}
    top.callsite_samples[LineLocation(2, 0)] = {"a": a, "b": b}
    top.callsite_samples[LineLocation(3, 0)] = {"d": _inlinee("d", 32)}
    assert [fs.name for fs in top.walk()] == ["top", "a", "c", "b", "c", "d"]
    assert [fs.name for fs in top.walk(dup)] == ["top", "a", "c", "d"]
    assert summarize_samples([top]).total_count == 1 + 2 + 8 + 32
    assert summarize_samples([top], skip_duplicated=False).total_count == 63
    assert summarize_samples([top], skip_duplicated=False).num_counts == 6


@pytest.mark.parametrize(
    ("n", "is_md5", "ids"), [(14, True, False), (22, True, True), (22, False, False)]
)
def test_md5_function_ids(n: int, is_md5: bool, ids: bool) -> None:
    profile = SampleProfile(is_md5=is_md5)
    assert md5_function_ids(profile, release(n)) is ids
    seen = as_release_names(profile, release(n))
    assert seen.is_md5 is ids
    assert (seen is profile) is (is_md5 == ids)
