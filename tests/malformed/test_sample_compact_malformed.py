"""Damaged compact binary sample profiles: a located FormatError with LLVM's message, never a crash.

Inputs are the compact files llvm-profdata 14 wrote for the goldens
(``tests/golden/sample_formats``), cut or patched byte by byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from profdata.errors import FormatError, SampleTruncatedError, UnsupportedVersionError
from profdata.formats import sample_compact
from profdata.formats._binary import ByteReader
from profdata.formats.sample_binary import SPF_COMPACT_BINARY, read_magic, read_summary
from profdata.formats.sample_registry import read_sample_bytes
from profdata.releases import release

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "sample_formats" / "expected"
R14 = release(14)


def _golden(name: str = "inline") -> bytes:
    return (GOLDEN / f"{name}.l14.compbin").read_bytes()


def _layout(data: bytes) -> tuple[int, list[tuple[str, int]]]:
    """Where the u64 table offset sits, and the (name, offset) rows of the table."""
    cur = ByteReader(data)
    read_magic(cur, SPF_COMPACT_BINARY)
    read_summary(cur)
    names = sample_compact.read_md5_name_table(cur)
    slot = cur.pos
    _, rows = sample_compact.read_offset_table(cur, names)
    return slot, rows


@pytest.mark.parametrize("name", ["inline", "llvm14-sample-hot-func-list"])
def test_every_truncation_is_a_located_format_error(name: str) -> None:
    data = _golden(name)
    for cut in range(10, len(data)):
        with pytest.raises(FormatError) as info:
            sample_compact.read(data[:cut], "cut.compbin", R14)
        error = info.value
        assert error.llvm_message in (
            "Truncated profile data",
            "Truncated function name table",
            "Malformed sample profile data",
        ), cut
        assert error.location is not None and error.location.offset is not None
        assert error.location.offset <= len(data)


def test_truncated_summary_names_field_and_offset() -> None:
    with pytest.raises(SampleTruncatedError) as info:
        sample_compact.read(_golden()[:12], "cut.compbin", R14)
    assert info.value.llvm_message == "Truncated profile data"
    assert info.value.location.offset == 12
    assert info.value.location.field == "max_block_count"  # total_count took bytes 10-11


def test_bad_version() -> None:
    data = bytearray(_golden())
    data[9] = 0x66
    with pytest.raises(UnsupportedVersionError) as info:
        sample_compact.read(bytes(data), "v.compbin", R14)
    assert info.value.llvm_message == "Unsupported sample profile format version"
    assert info.value.location.offset == 9
    assert info.value.location.found == "102"


def test_bad_magic_when_read_directly() -> None:
    data = bytearray(_golden())
    data[0] = 0x83
    assert not sample_compact.sniff(bytes(data))
    with pytest.raises(FormatError) as info:
        sample_compact.read(bytes(data), "m.compbin", R14)
    assert info.value.llvm_message == "Invalid sample profile data (bad magic)"


def test_name_index_past_the_table() -> None:
    data = _golden()
    _, rows = _layout(data)
    offset = rows[0][1]
    head_end = next(i for i in range(offset, len(data)) if data[i] < 0x80) + 1
    bad = bytearray(data)
    bad[head_end] = 0x7F  # the profile's name index
    with pytest.raises(FormatError) as info:
        sample_compact.read(bytes(bad), "n.compbin", R14)
    assert info.value.llvm_message == "Truncated function name table"
    assert info.value.location.offset == head_end
    assert info.value.location.found == "127"


def test_table_offset_past_the_end() -> None:
    data = bytearray(_golden())
    slot, _ = _layout(bytes(data))
    data[slot : slot + 8] = (10_000).to_bytes(8, "little")
    with pytest.raises(SampleTruncatedError) as info:
        sample_compact.read(bytes(data), "t.compbin", R14)
    assert info.value.location.offset == slot
    assert info.value.location.field == "func_offset_table_offset"


def test_duplicate_rows_read_once_with_the_last_offset() -> None:
    """``FuncOffsetTable[Name] = Offset``: a repeated name keeps its place, takes the new offset."""
    data = _golden()
    profile = read_sample_bytes(data, "ok.compbin", R14)
    assert [fs.total_samples for fs in profile.sorted_profiles()] == [10000, 2500, 900]


def test_unreadable_after_16() -> None:
    data = _golden()
    assert sample_compact.readable(release(16))
    assert not sample_compact.readable(release(19))
    with pytest.raises(FormatError) as info:
        read_sample_bytes(data, "x.compbin", release(19))
    assert info.value.llvm_message == "Unrecognized sample profile encoding format"
