"""Binary sample profiles read over pre-decoded ULEB128 runs, and written through them.

The walk over pre-decoded numbers must give what the field-by-field cursor
gives: the same profile in the same order, or, on bad input, the same
located error.  Real llvm-profdata files (the sample goldens) are read both
ways whole, cut at every byte and with bytes changed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.errors import FormatError
from profdata.formats import _uleb, sample_binary, sample_extbinary
from profdata.formats._binary import ByteReader, ByteWriter
from profdata.formats._uleb import U64, decode_run, encode_run
from profdata.formats.sample_binary import read_number
from profdata.formats.sample_body import name_ranks
from profdata.model.names import name_str
from profdata.model.sample import LineLocation, SampleContext, SampleProfile, name_key
from profdata.releases import release
from tests.golden._cases import release_goldens
from tests.unit.sample.test_sample_binary import profile_bytes

GOLDENS = Path(__file__).resolve().parents[2] / "golden" / "sample" / "expected"
Reader = Callable[..., SampleProfile]
KINDS: dict[str, Reader] = {
    "binary": sample_binary.read,
    "extbin-default": sample_extbinary.read,
    "extbin-md5": sample_extbinary.read,
    "extbin-split": sample_extbinary.read,
    "extbin-all": sample_extbinary.read,
}
#: inputs whose files cover inlinees, contexts, probes, MD5 names, vtables, overflow
FEATURED = (
    "corpus-inline",
    "corpus-csprobe",
    "corpus-md5names",
    "edge-vtables",
    "edge-targets_repeat",
    "llvm-overflow-sample",
)


#: ``llvm-profdata`` 22 ``merge --sample --extbinary --extbinary-write-vtable-type-prof``
#: of ``tests/golden/sample/inputs/edge-vtables.txt`` (then with ``--compress-all-sections``)
VTABLES = bytes.fromhex(
    "84e4d0b1f4c994a85367070000000000000001000000000000000000000020000000f2000000000000005500"
    "0000000000000200000000000000000000000000000047010000000000001c00000000000000060000000000"
    "0000000000000000000063010000000000000100000000000000040000000000000000000000000000008801"
    "0000000000000300000000000000200000000000000000000000000000006401000000000000240000000000"
    "0000030000000000000000000000000000008801000000000000000000000000000005000000000000000000"
    "0000000000008b010000000000000000000000000000080500020110904e0000a08d060000c09a0c0501e0a7"
    "12050180b5180501a0c21e0501c0cf240501e0dc2a050180ea300302a0f7360302f0fd390302b0b63c0302d8"
    "fc3c0302dc833d0302b6843d0302bf843d0302055f5a545661005f5a545662005f5a54566300696e6c006d61"
    "696e000000040a010100050001020003030101000300000003010002000301040200010201030000010400"
)
VTABLES_COMPRESSED = bytes.fromhex(
    "84e4d0b1f4c994a85367070000000000000001000000000000000100000020000000f2000000000000005a00"
    "000000000000020000000000000001000000000000004c010000000000002000000000000000060000000000"
    "000001000000000000006c010000000000000b00000000000000040000000000000001000000000000009d01"
    "0000000000000d00000000000000200000000000000001000000000000007701000000000000260000000000"
    "0000030000000000000001000000000000009d01000000000000000000000000000005000000000000000100"
    "000000000000aa010000000000000000000000000000555878dae3606560621498e0c7c0b0a0978d81e1c02c"
    "1e56c607cb8558191bb64ab0322e3824c7ca78e0bc0a50ec8e1650ec950133d382ef66cc4c1ffe5a32336dd8"
    "66c3cc74e30f90b8d36ccbccb4ad0548ec071100f82519b51c1e78da638d8f0a094b6400914960329921332f"
    "87213731338f01007544083d010978da63000000010001242478da0dc8b10100300c833088d3a5ff1f1c6f20"
    "f62b0f87a41520d273a76ae10004fe003b030b78da6364610000000e0006"
)


def golden_files(number: int) -> list[tuple[str, str, bytes]]:
    """(input, kind, bytes) of every binary and ext-binary file the real tool wrote."""
    out: list[tuple[str, str, bytes]] = []
    for name, results in sorted(release_goldens(GOLDENS, number).items()):
        for kind in KINDS:
            result = results.get(kind)
            if result is not None and result["exit"] == 0 and result["stdout"]:
                out.append((name, kind, bytes.fromhex(str(result["stdout"]))))
    return out


def outcome(read: Reader, data: bytes, number: int, checked: bool) -> tuple[object, ...]:
    """Everything a read tells: the profile in map order and its flags, or the error."""
    try:
        profile = read(data, "p.prof", release(number), checked=checked)
    except FormatError as err:
        return ("error", type(err), err.headline(), err.location, str(err))
    flags = (profile.is_cs, profile.is_probe_based, profile.is_preinlined, profile.is_fs)
    more = (profile.is_md5, profile.is_partial, profile.symbol_list)
    return ("ok", repr(profile.profiles), profile.summary, flags, more)


def assert_same(read: Reader, data: bytes, number: int, label: object) -> None:
    assert outcome(read, data, number, False) == outcome(read, data, number, True), label


def refuse(*args: object) -> None:
    raise AssertionError("the walk over pre-decoded numbers gave up on a readable file")


def walk_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make falling back to the field-by-field reader fail the test from here on."""
    monkeypatch.setattr(sample_binary, "read_body", refuse)
    monkeypatch.setattr(sample_extbinary._Reader, "function_profile", refuse)


@pytest.mark.parametrize("number", [14, 19, 22])
def test_readable_golden_files_need_no_second_read(
    number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    readable: list[tuple[str, bytes]] = []
    for _, kind, data in golden_files(number):
        try:
            KINDS[kind](data, "p.prof", release(number), checked=True)
        except FormatError:
            continue
        readable.append((kind, data))
    walk_only(monkeypatch)
    read = 0
    for kind, data in readable:
        KINDS[kind](data, "p.prof", release(number))
        read += 1
    assert read > 150


@pytest.mark.parametrize("number", [14, 19, 22])
def test_every_golden_file_reads_the_same_both_ways(number: int) -> None:
    files = golden_files(number)
    assert len(files) > 150
    failed = 0
    for name, kind, data in files:
        fast = outcome(KINDS[kind], data, number, False)
        failed += fast[0] == "error"  # a few files the real tool cannot read back either
        assert fast == outcome(KINDS[kind], data, number, True), (name, kind)
    assert failed < len(files) // 10


@pytest.mark.parametrize("number", [19, 22])
@pytest.mark.parametrize("kind", ["binary", "extbin-default"])
def test_every_truncation_fails_or_reads_the_same_both_ways(number: int, kind: str) -> None:
    files = {name: data for name, k, data in golden_files(number) if k == kind}
    featured = [name for name in FEATURED if name in files]
    assert len(featured) >= 4
    for name in featured:
        data = files[name]
        for cut in range(len(data)):
            assert_same(KINDS[kind], data[:cut], number, (name, cut))


@pytest.mark.parametrize("number", [14, 19, 22])
def test_changed_bytes_fail_or_read_the_same_both_ways(number: int) -> None:
    rng = random.Random(number)
    for name, kind, data in golden_files(number):
        for _ in range(12):
            changed = bytearray(data)
            at = rng.randrange(len(data))
            changed[at] = rng.choice((0x00, 0x7F, 0x80, 0xFF, rng.randrange(256)))
            if rng.random() < 0.3:  # a number too wide for a count, or for 64 bits
                changed[at:at] = rng.choice((b"\x80\x80\x80\x80\x10", b"\xff" * 10))
            assert_same(KINDS[kind], bytes(changed), number, (name, kind, at))


def test_vtable_type_samples_read_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    for data in (VTABLES, VTABLES_COMPRESSED):
        for cut in range(len(data)):
            assert_same(sample_extbinary.read, data[:cut], 22, cut)
        for at in range(len(data)):
            changed = bytearray(data)
            changed[at] ^= 0x81
            assert_same(sample_extbinary.read, bytes(changed), 22, at)
    checked = sample_extbinary.read(VTABLES, "p.prof", release(22), checked=True)
    walk_only(monkeypatch)
    profile = sample_extbinary.read(VTABLES, "p.prof", release(22))
    assert repr(profile) == repr(checked)
    main = profile.profiles[SampleContext("main")]
    assert main.type_samples[LineLocation(1, 0)] == {"_ZTVb": 4, "_ZTVa": 3}
    assert main.type_samples[LineLocation(3, 0)] == {}


names_table = profile_bytes  # a plain binary profile: empty summary, names, body


def test_illegal_offset_before_20_reads_on_from_the_next_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # main: head 0, total 5, one record whose offset is 70000; LLVM 19 ends the function
    # there and reads "0 0 0 0 0" as a second main profile: head 0, total 0, nothing in it.
    body = bytes([0, 0, 5, 1]) + bytes.fromhex("f0a204") + bytes([0, 0, 0, 0, 0])
    data = names_table([b"main"], body)
    checked = sample_binary.read(data, "p.prof", release(19), checked=True)
    walk_only(monkeypatch)
    profile = sample_binary.read(data, "p.prof", release(19))
    assert repr(profile) == repr(checked)
    main = profile.profiles[SampleContext("main")]
    assert (main.total_samples, main.body_samples) == (5, {})
    with pytest.raises(AssertionError):  # LLVM 20+ refuse it: only the cursor can say where
        sample_binary.read(data, "p.prof", release(22))


def test_repeated_location_merges_as_the_cursor_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # main: total 9, records at line 1 twice: 4 samples with foo:2 foo:3 baz:max baz:1,
    # then 5 with bar:1 and baz:1; saturated counts stay at 2**64-1
    top = b"\xff" * 9 + b"\x01"
    body = bytes([0, 0, 9, 2, 1, 0, 4, 4, 1, 2, 1, 3, 3]) + top + bytes([3, 1])
    body += bytes([1, 0, 5, 1, 2, 1, 0])
    body += top + bytes([0]) + top + bytes([0, 0]) + bytes([1, 0, 0, 0, 0])  # main again, twice
    data = names_table([b"main", b"foo", b"bar", b"baz"], body)
    checked = sample_binary.read(data, "p.prof", release(22), checked=True)
    walk_only(monkeypatch)
    profile = sample_binary.read(data, "p.prof", release(22))
    assert repr(profile) == repr(checked)
    record = profile.profiles[SampleContext("main")].body_samples[LineLocation(1, 0)]
    assert record.samples == 9
    assert record.call_targets == {"foo": 5, "baz": U64, "bar": 1}
    main = profile.profiles[SampleContext("main")]
    assert (main.head_samples, main.total_samples) == (U64, U64)


def test_name_table_is_split_without_copying_the_profiles() -> None:
    names = [b"a\xe2\x82", b"\x80b", b"", b"\xff\xfe", b"ok"]
    data = names_table(names, bytes([0, 4, 0, 0, 0]))
    profile = sample_binary.read(data, "p.prof", release(22))
    assert list(profile.profiles) == [SampleContext(name_str(b"ok"))]
    cur = ByteReader(data)
    cur.pos = data.index(b"a\xe2")
    assert sample_binary.read_strings(cur, 5, "name") == [name_str(n) for n in names]
    assert cur.pos == len(data) - 5
    cut = data[: data.index(b"ok") + 2]
    with pytest.raises(FormatError) as caught:
        sample_binary.read(cut, "p.prof", release(22))
    assert caught.value.location.offset == data.index(b"ok")
    assert caught.value.llvm_message == "Truncated profile data"


def test_uleb_md5_name_table() -> None:
    hashes = [5, 2**63 + 1, U64, 0]
    out = ByteWriter()
    out.uleb128(len(hashes))
    for value in hashes:
        out.uleb128(value)
    data = out.getvalue()
    reader = sample_extbinary._Reader(memoryview(data), "p.prof", release(22))
    cur = ByteReader(data)
    # a hash of 0 is the FunctionId "" (18+)
    assert reader.name_table(cur, True, False) == [str(h) for h in hashes[:3]] + [""]
    assert cur.pos == len(data)
    old = sample_extbinary._Reader(memoryview(data), "p.prof", release(16))
    assert old.name_table(ByteReader(data), True, False) == [str(h) for h in hashes]
    cur = ByteReader(data, end=len(data) - 1)
    with pytest.raises(FormatError) as caught:
        reader.name_table(cur, True, False)
    assert (caught.value.location.field, caught.value.location.offset) == ("md5_name", 22)


def checked_numbers(data: bytes) -> tuple[list[int], list[int], int]:
    """Numbers, their starts and the end as ``read_number`` finds them, up to a fault or
    a number past 64 bits (which it reads as 0, stopping before the byte that overflows:
    a run ends there, and the checked reader takes over)."""
    cur = ByteReader(data)
    values: list[int] = []
    starts: list[int] = []
    while cur.pos < len(data):
        start = cur.pos
        try:
            value = read_number(cur, "n")
        except FormatError:
            cur.pos = start
            break
        if data[cur.pos - 1] & 0x80:  # no terminator taken: the number overflowed
            cur.pos = start
            break
        values.append(value)
        starts.append(start)
    return values, starts, cur.pos


uleb_values = st.one_of(
    st.integers(0, 127), st.integers(0, 2**14), st.integers(0, U64), st.sampled_from([U64, 2**63])
)


@pytest.mark.property
@settings(max_examples=300)
@given(st.lists(uleb_values, max_size=40), st.binary(max_size=12))
def test_decode_run_finds_what_read_number_finds(values: list[int], tail: bytes) -> None:
    data, _ = encode_run(values)
    data += tail
    run = decode_run(b"xy" + data, 2, len(data) + 2)
    expected, starts, end = checked_numbers(data)
    assert run.values == expected
    assert [s - 2 for s in run.starts.tolist()] == starts
    assert run.end - 2 == end


@pytest.mark.property
@settings(max_examples=300)
@given(
    st.lists(st.one_of(uleb_values, st.just(-1)), max_size=40),
    st.binary(max_size=12),
    st.integers(1, 9),
)
def test_decode_run_in_pieces_finds_what_read_number_finds(
    values: list[int], tail: bytes, piece: int
) -> None:
    # pieces smaller than one number, and padded numbers (-1: a 12-byte 0x80 run) that
    # straddle piece ends, as a section of hundreds of megabytes is decoded
    data = (
        b"".join(b"\x81" + b"\x80" * 10 + b"\x00" if v < 0 else encode_run([v])[0] for v in values)
        + tail
    )
    saved = _uleb._PIECE
    _uleb._PIECE = piece
    try:
        run = decode_run(b"xy" + data, 2, len(data) + 2)
    finally:
        _uleb._PIECE = saved
    expected, starts, end = checked_numbers(data)
    assert run.values == expected
    assert [s - 2 for s in run.starts.tolist()] == starts
    assert run.end - 2 == end


@pytest.mark.property
@given(st.lists(st.integers(0, 9), max_size=12))
def test_decode_run_takes_long_numbers_as_read_number_does(zeros: list[int]) -> None:
    # padded encodings (0x80 runs) of small values, and 2**64 which must end the run
    data = b"".join(b"\x85" + b"\x80" * n + b"\x00" for n in zeros) + b"\x80" * 9 + b"\x02"
    run = decode_run(data, 0, len(data))
    assert run.values == [5] * len(zeros) == checked_numbers(data)[0]
    assert run.end == len(data) - 10


@pytest.mark.parametrize(
    ("data", "read"),
    [
        (b"\xff" * 9 + b"\x02\x05", [0, 2, 5]),  # bit 64 set at shift 63
        (b"\xff" * 9 + b"\x81\x02\x05", [0, 2, 5]),  # 64 bits, then more at shift 70
        (b"\xff" * 9 + b"\x81\x80\x00\x05", [2**64 - 1, 5]),  # zeros past 64 bits are fine
        (b"\x80" * 10 + b"\x01\x05", [0, 1, 5]),
    ],
)
def test_read_number_past_64_bits_is_zero_and_leaves_the_byte(data: bytes, read: list[int]) -> None:
    cur = ByteReader(data)
    got = []
    while cur.pos < len(data):
        got.append(read_number(cur, "n"))
    assert got == read


@pytest.mark.property
@given(st.lists(st.one_of(uleb_values, st.integers(0, 2**80)), max_size=40))
def test_encode_run_writes_what_the_byte_writer_writes(values: list[int]) -> None:
    out = ByteWriter()
    starts: list[int] = []
    for value in values:
        starts.append(len(out))
        out.uleb128(value)
    data, at = encode_run(values)
    assert data == out.getvalue()
    assert at.tolist() == starts


def test_name_ranks_order_md5_spellings_of_one_value_together() -> None:
    names = ["1", "01", "7", "foo"]
    ordered = sorted(names, key=lambda n: name_key(n, True))
    index = {name: i for i, name in enumerate(ordered)}
    ranks = name_ranks(index, True)
    assert ranks["1"] == ranks["01"] < ranks["7"] < ranks["foo"]
    assert name_ranks(index, False) is index
