"""Damaged GCC AutoFDO profiles: a located FormatError with LLVM's message, never a crash.

The GCC inputs of ``tests/golden/sample_formats`` (LLVM's
``gcc-sample-profile.gcov`` and the word-by-word ``gcc_targets.gcov``), cut at
every byte or patched; the messages are those llvm-profdata printed for the
damaged copies recorded in that folder's goldens.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from profdata.errors import FormatError, SampleMalformedError, SampleTruncatedError
from profdata.formats import sample_gcc
from profdata.releases import release

INPUTS = Path(__file__).resolve().parents[1] / "golden" / "sample_formats" / "inputs"
R22 = release(22)


def _input(name: str) -> bytes:
    return (INPUTS / name).read_bytes()


@pytest.mark.parametrize("name", ["llvm14-gcc-sample-profile.gcov", "gcc_targets.gcov"])
def test_every_truncation_is_a_located_format_error(name: str) -> None:
    data = _input(name)
    end = len(data) if name == "gcc_targets.gcov" else 0x194  # LLVM's file: functions end there
    for cut in range(8, end):
        with pytest.raises(SampleTruncatedError) as info:
            sample_gcc.read(data[:cut], "cut.gcov", R22)
        assert info.value.llvm_message == "Truncated profile data"
        location = info.value.location
        assert location is not None and location.offset is not None
        assert location.offset <= cut


def test_trailing_sections_are_ignored() -> None:
    data = _input("llvm14-gcc-sample-profile.gcov")
    assert sample_gcc.read(data[:0x194], None, R22) == sample_gcc.read(data, None, R22)


@pytest.mark.parametrize(
    ("cut", "offset", "field", "buffer_offset"),
    [(8, 8, "reserved", 4), (13, 12, "string_table_tag", 8), (100, 100, "pos_offset", 96)],
)
def test_short_word_reports_gcov_buffer_offset(
    cut: int, offset: int, field: str, buffer_offset: int
) -> None:
    with pytest.raises(SampleTruncatedError) as info:
        sample_gcc.read(_input("llvm14-gcc-sample-profile.gcov")[:cut], "t.gcov", R22)
    assert info.value.location.offset == offset
    assert info.value.location.field == field
    assert f"unexpected end of memory buffer: {buffer_offset}" in str(info.value)


@pytest.mark.parametrize(
    ("name", "offset", "field", "expected", "found"),
    [
        ("gcc_bad_names_tag.gcov", 12, "string_table_tag", "0xaa000000", "0xab000000"),
        ("gcc_bad_functions_tag.gcov", 0x44, "function_table_tag", "0xac000000", "0xab000000"),
        ("gcc_bad_hist_type.gcov", None, "hist_type", "7", "6"),
    ],
)
def test_malformed(name: str, offset: int | None, field: str, expected: str, found: str) -> None:
    with pytest.raises(SampleMalformedError) as info:
        sample_gcc.read(_input(name), name, R22)
    location = info.value.location
    assert info.value.llvm_message == "Malformed sample profile data"
    assert (location.field, location.expected, location.found) == (field, expected, found)
    if offset is not None:
        assert location.offset == offset


def test_zero_length_name_is_truncation() -> None:
    with pytest.raises(SampleTruncatedError) as info:
        sample_gcc.read(_input("gcc_zero_name_length.gcov"), "z.gcov", R22)
    assert (info.value.location.offset, info.value.location.field) == (0x20, "name_length")


def test_name_index_past_the_table_is_malformed_not_a_crash() -> None:
    """llvm-profdata reads ``Names[NameIdx]`` unchecked and crashes; we refuse the file."""
    data = bytearray(_input("llvm14-gcc-sample-profile.gcov"))
    data[0x58:0x5C] = (9).to_bytes(4, "little")
    with pytest.raises(FormatError) as info:
        sample_gcc.read(bytes(data), "n.gcov", R22)
    assert info.value.location.offset == 0x58
    assert info.value.location.found == "9"


def test_sniff_wants_the_exact_c_string() -> None:
    data = _input("llvm14-gcc-sample-profile.gcov")
    assert sample_gcc.sniff(data) and sample_gcc.sniff(data[:8])
    assert not sample_gcc.sniff(b"adcg*704x" + data[9:])
    assert not sample_gcc.sniff(b"gcda*704\0")
