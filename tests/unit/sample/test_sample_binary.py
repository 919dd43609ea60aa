"""Sample binary format (SPF_Binary 103): layout, located errors, every truncation."""

from __future__ import annotations

import pytest

from profdata.errors import (
    FormatError,
    SampleMalformedError,
    SampleTruncatedError,
    TruncatedError,
    UnsupportedVersionError,
)
from profdata.formats import sample_binary, sample_text
from profdata.formats._binary import ByteWriter
from profdata.formats.sample_registry import read_sample_bytes
from profdata.model.sample import LineLocation, SampleContext
from profdata.releases import release

R22 = release(22)
#: sample-binary.md §7: the "mine" profile (LLVM 22 and 14 write the same bytes for it)
MINE = b"""main:5000:100
 1: 100
 2: 300 foo:200 bar:100
 3.1: 50
 3.2: 60
 4: 4000 _M_construct<char *>:1000 ns::f(int):3000
 5: inl1:400
  1: 300
  2.3: 100 baz:60 qux:40
  3: inl2:50
   1: 50
 5: inl3:70
  1: 70
 6.7: inl4:10
  1: 10
foo:900:200
 1: 200
 2: 700
bar:100:100
 1: 100
zzz_unused:0:0
"""


def mine_binary() -> bytes:
    return sample_binary.write(sample_text.read(MINE, None, R22))


def test_layout_matches_spec_example() -> None:
    data = mine_binary()
    assert data[:10] == bytes.fromhex("ffe5d0b1f4c994a853") + b"\x67"
    assert data[0x0A:0x13] == bytes.fromhex("982f a01f c801 0d 04 10")
    names = data.index(b"_M_construct")
    assert data[names - 1] == 12
    assert data[0xC1:0xCA] == bytes.fromhex("64 08 8827 05 01 00 64 00")


def test_reader_gives_back_the_profile() -> None:
    profile = read_sample_bytes(mine_binary(), "m.afdo", R22)
    assert profile.format == "binary"
    assert sample_text.write(profile) == sample_text.write(sample_text.read(MINE, None, R22))
    assert profile.summary is not None and profile.summary.total_count == 6040
    main = profile.profiles[SampleContext("main")]
    assert main.callsite_samples[LineLocation(5, 0)]["inl1"].total_samples == 400


def test_every_truncation_is_a_located_truncated_error_or_fewer_functions() -> None:
    data = mine_binary()
    for cut in range(len(data)):
        view = data[:cut]
        if not sample_binary.sniff(view):
            continue
        try:
            partial = sample_binary.read(view, "m.afdo", R22)
        except FormatError as err:
            assert isinstance(err, SampleTruncatedError | TruncatedError), (cut, err)
            assert err.location.offset is not None and err.location.offset <= cut
            assert err.location.field
        else:  # cut between two function profiles: LLVM reads the ones before it
            assert len(partial.profiles) < 4
            assert all(fs.name in ("main", "foo", "bar") for fs in partial.profiles.values())


def test_unsupported_version_is_located() -> None:
    data = bytearray(mine_binary())
    data[9] = 102
    with pytest.raises(UnsupportedVersionError) as caught:
        sample_binary.read(bytes(data), "m.afdo", R22)
    assert caught.value.headline() == "m.afdo: Unsupported sample profile format version"
    assert (caught.value.location.offset, caught.value.location.field) == (9, "version")


def profile_bytes(names: list[bytes], body: bytes) -> bytes:
    out = ByteWriter()
    out.uleb128(sample_binary.sp_magic())
    out.uleb128(sample_binary.VERSION)
    for value in (0, 0, 0, 0, 0, 0):  # summary without entries
        out.uleb128(value)
    out.uleb128(len(names))
    for name in names:
        out.bytes(name + b"\0")
    out.bytes(body)
    return out.getvalue()


def test_name_index_past_table() -> None:
    data = profile_bytes([b"main"], bytes([0, 1, 0, 0, 0]))
    with pytest.raises(TruncatedError) as caught:
        sample_binary.read(data, "m.afdo", R22)
    err = caught.value
    assert err.headline() == "m.afdo: Truncated function name table"
    assert (err.location.field, err.location.found) == ("function_name_index", "1")
    assert not isinstance(err, SampleTruncatedError)  # LLVM returns it, no diagnostic


def test_record_count_wider_than_u32_is_malformed() -> None:
    wide = bytes.fromhex("8080808010")  # 2**32
    data = profile_bytes([b"main"], bytes([0, 0, 0]) + wide)
    with pytest.raises(SampleMalformedError) as caught:
        sample_binary.read(data, "m.afdo", R22)
    assert caught.value.headline() == "m.afdo: Malformed sample profile data"
    assert caught.value.location.field == "num_records"


def test_illegal_line_offset_per_release() -> None:
    # main: head 0, total 5, one record at offset 70000 (4 more fields), no callsites
    body = bytes([0, 0, 5, 1]) + bytes.fromhex("f0a204") + bytes([0, 5, 0, 0])
    data = profile_bytes([b"main"], body)
    with pytest.raises(FormatError) as caught:
        sample_binary.read(data, "m.afdo", R22)
    assert caught.value.headline() == "m.afdo: Illegal line offset in sample profile data"
    # LLVM 14-19 end the function there and read on from the middle of the record
    with pytest.raises(FormatError) as older:
        sample_binary.read(data, "m.afdo", release(19))
    assert older.value.headline() == "m.afdo: Truncated function name table"


def test_cs_and_probe_profiles_are_not_writable() -> None:
    cs = sample_text.read(b"[a:1 @ b]:1:0\n 1: 1\n", None, R22)
    assert sample_binary.check_writable(cs)
    with pytest.raises(FormatError) as caught:
        sample_binary.write(cs)
    assert "unsupported for writing" in caught.value.headline()


def test_sniff_needs_exact_magic() -> None:
    data = mine_binary()
    assert sample_binary.sniff(data)
    assert not sample_binary.sniff(b"\x84" + data[1:])  # ext-binary magic
    assert not sample_binary.sniff(b"")
