"""Unit tests of the text instrumentation format and its line cursor.

Expected values come from the inputs themselves (names, MD5 hashes) or from
outputs of the real llvm-profdata stored in ``tests/golden/text``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from profdata.errors import TextSyntaxError
from profdata.formats import text
from profdata.formats._text import LineCursor, parse_uint
from profdata.model.instr import InstrProfile, InstrRecord, TemporalTrace, ValueData
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_hash, name_bytes
from profdata.releases import release

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "text"
INPUTS = GOLDEN / "inputs"


def read_input(stem: str) -> InstrProfile:
    return text.read(memoryview((INPUTS / f"{stem}.proftext").read_bytes()), f"{stem}.proftext")


# ---------------------------------------------------------------------------
# StringRef::getAsInteger


@pytest.mark.parametrize(
    ("literal", "radix", "bits", "value"),
    [
        (b"0", 10, 64, 0),
        (b"18446744073709551615", 10, 64, (1 << 64) - 1),
        (b"18446744073709551616", 10, 64, None),
        (b"4294967295", 10, 32, (1 << 32) - 1),
        (b"4294967296", 10, 32, None),
        (b"0x10", 10, 64, None),
        (b"+5", 10, 64, None),
        (b"-1", 10, 64, None),
        (b" 5", 10, 64, None),
        (b"5 ", 10, 64, None),
        (b"1_0", 10, 64, None),
        (b"\xd9\xa3", 10, 64, None),  # ARABIC-INDIC DIGIT THREE: not an ASCII digit
        (b"", 10, 64, None),
        (b"010", 0, 64, 8),
        (b"09", 0, 64, None),
        (b"0", 0, 64, 0),
        (b"00", 0, 64, 0),
        (b"0x", 0, 64, None),
        (b"0XabCD", 0, 64, 0xABCD),
        (b"0b101", 0, 64, 5),
        (b"0B11", 0, 64, 3),
        (b"0b2", 0, 64, None),
        (b"0o17", 0, 64, 15),
        (b"0O17", 0, 64, None),
        (b"0x10000000000000000", 0, 64, None),
        (b"0xff", 0, 8, 255),
        (b"0x100", 0, 8, None),
        (b"", 0, 64, None),
    ],
)
def test_parse_uint_mirrors_getasinteger(
    literal: bytes, radix: int, bits: int, value: int | None
) -> None:
    assert parse_uint(literal, radix, bits) == value


def test_radix_golden_hashes() -> None:
    """The hashes llvm-profdata printed for ``radix.proftext`` (expected/l22)."""
    golden = (GOLDEN / "expected" / "l22" / "radix.proftext").read_text().split("\n")
    printed = [int(golden[i + 2]) for i, line in enumerate(golden) if line in "abcdef" and line]
    read = {r.name: r.hash for r in read_input("radix").records}
    assert [read[n] for n in "abcdef"] == printed


# ---------------------------------------------------------------------------
# detection


@pytest.mark.parametrize(
    ("prefix", "is_text"),
    [
        (b"", True),
        (b"main\n# F", True),
        (b"\t\v\f\r\n ~!", True),
        (b"abcdefgh\xff\x00", True),  # only the first 8 bytes are looked at
        (b"abc\x01", False),
        (b"\xffprofraw", False),
        (b"\x81Rforpl", False),
        (b"caf\xc3\xa9", False),
    ],
)
def test_sniff(prefix: bytes, is_text: bool) -> None:
    assert text.sniff(prefix) is is_text


# ---------------------------------------------------------------------------
# line cursor


def test_cursor_skips_blank_and_comment_lines_and_keeps_numbers() -> None:
    cur = LineCursor(b"# c\n\na\r\n  # not a comment\n\r\n#x\nb\r\nlast\r")
    assert cur.lines == [b"a", b"  # not a comment", b"b", b"last\r"]
    assert cur.numbers == [3, 4, 7, 8]
    assert [cur.line_offset(i) for i in range(4)] == [5, 8, 31, 34]


def test_cursor_stops_at_first_nul() -> None:
    cur = LineCursor(b"a\nb\0c\nd\n")
    assert cur.lines == [b"a", b"b"]


def test_cursor_fail_locates_line_and_column() -> None:
    cur = LineCursor(b"x\n\nyy\n", path="p.proftext")
    cur.next("first")
    with pytest.raises(TextSyntaxError) as info:
        cur.fail(TextSyntaxError, "bad", field="f", expected="e", found="'yy'", column=1)
    loc = info.value.location
    assert (loc.line, loc.offset, loc.field, loc.expected, loc.found) == (3, 4, "f", "e", "'yy'")
    assert info.value.path == "p.proftext"


def test_cursor_take_stops_at_end() -> None:
    cur = LineCursor(b"1\n2\n3\n")
    assert list(cur.take(2)) == [b"1", b"2"]
    assert list(cur.take(10**18)) == [b"3"]
    assert cur.at_end and cur.peek() is None


# ---------------------------------------------------------------------------
# reader


def test_read_ir_values() -> None:
    profile = read_input("corpus-ir_values")
    assert profile.kind == ProfileKind.IR
    assert [r.name for r in profile.records] == [
        "main", "op_add", "op_sub", "op_mul", "vp_text.c;helper",
    ]  # fmt: skip
    main = profile.records[0]
    assert main.hash == 1063705162469825436
    assert main.counts.dtype == np.uint64
    assert main.counts.tolist() == [1, 20, 4]
    calls = main.sites(ValueKind.INDIRECT_CALL_TARGET)
    assert calls == [
        [ValueData(md5_hash("op_add"), 12), ValueData(md5_hash("op_sub"), 6),
         ValueData(md5_hash("op_mul"), 2)],
        [ValueData(md5_hash("op_mul"), 4)],
    ]  # fmt: skip
    assert main.sites(ValueKind.MEMOP_SIZE) == [
        [ValueData(8, 10), ValueData(16, 7), ValueData(1, 3)]
    ]
    assert set(profile.symbols.values()) == {r.name for r in profile.records}
    assert profile.format == "text"
    assert profile.binary_ids == []


def test_reader_symbols_include_value_targets() -> None:
    """``show --ic-targets`` prints ext_target although no record has that name."""
    profile = read_input("ext_targets")
    assert profile.symbols == {md5_hash(n): n for n in ("main", "ext_target", "_ZTV1A")}
    assert profile.vtable_names == ["_ZTV1A"]
    (main,) = profile.records
    assert main.sites(ValueKind.VTABLE_TARGET) == [
        [ValueData(md5_hash("_ZTV1A"), 5), ValueData(0, 2)]
    ]


@pytest.mark.parametrize(
    ("stem", "kind"),
    [
        ("headers_all", ProfileKind.IR | ProfileKind.CS | ProfileKind.ENTRY_FIRST
         | ProfileKind.LOOP_ENTRIES | ProfileKind.SINGLE_BYTE_COVERAGE),
        ("headers_case", ProfileKind.IR | ProfileKind.ENTRY_FIRST),
        ("not_entry_first", ProfileKind.IR),
        ("entry_first", ProfileKind.IR | ProfileKind.ENTRY_FIRST),
        ("fe_explicit", ProfileKind.FRONTEND),
        ("corpus-fe_basic", ProfileKind.FRONTEND),
        ("only_header", ProfileKind.IR),
        ("llvm19-CSIR_profile", ProfileKind.IR | ProfileKind.CS),
    ],
)  # fmt: skip
def test_header_flags(stem: str, kind: ProfileKind) -> None:
    assert read_input(stem).kind == kind


def test_explicit_frontend_only_when_fe_line_present() -> None:
    assert read_input("fe_explicit").explicit_frontend
    assert not read_input("corpus-fe_basic").explicit_frontend


def test_temporal_block() -> None:
    profile = read_input("temporal")
    assert profile.kind == ProfileKind.IR | ProfileKind.TEMPORAL | ProfileKind.ENTRY_FIRST
    assert profile.trace_stream_size == 9
    assert profile.traces == [
        TemporalTrace(2, (md5_hash("a"), md5_hash("b"), md5_hash("unknown"))),
        TemporalTrace(7, (md5_hash("b"),)),
        TemporalTrace(3, (md5_hash(""), md5_hash("c"))),
    ]
    assert [r.name for r in profile.records] == ["a", "b", "c"]


def test_bitmap_blocks() -> None:
    check, other = read_input("mcdc_bitmap").records
    assert check.counts.tolist() == [10, 2, 8, 8, 5, 2]
    assert check.bitmap == bytes([0x13, 0b1, 0o17])
    assert other.bitmap == b""


def test_repeated_value_kind_appends_sites() -> None:
    first, _ = read_input("repeated_kind").records
    assert first.sites(ValueKind.INDIRECT_CALL_TARGET) == [
        [ValueData(md5_hash("g"), 2)],
        [ValueData(md5_hash("f"), 4)],
    ]
    assert first.sites(ValueKind.MEMOP_SIZE) == [[ValueData(64, 3)]]


def test_empty_sites_are_kept() -> None:
    (record,) = read_input("empty_sites").records
    assert record.sites(ValueKind.INDIRECT_CALL_TARGET) == [[], [ValueData(md5_hash("f"), 2)], []]
    assert ValueKind.MEMOP_SIZE not in record.value_sites


def test_name_is_the_whole_line() -> None:
    names = [r.name for r in read_input("names_odd").records]
    assert names == ["main", "  spaced name  ", "file.c;local:colon", "TAB\there"]
    assert read_input("dollar_first").records[0].name == "$first"
    assert [r.name for r in read_input("colon_record_name").records] == ["f", ":ir"]


def test_names_keep_their_bytes() -> None:
    records = read_input("names_bytes").records
    assert [name_bytes(r.name) for r in records] == [
        b"plain", "utf8-\u00e9\u20ac".encode(), b"latin1-\xe9\xff",
    ]  # fmt: skip


def test_last_colon_splits_value_lines() -> None:
    (record,) = read_input("multicolon_target").records
    assert record.sites(ValueKind.INDIRECT_CALL_TARGET) == [
        [ValueData(md5_hash("a:b:c"), 4), ValueData(md5_hash("f"), 3)]
    ]


def test_crlf_and_comments_do_not_change_the_profile() -> None:
    crlf = read_input("crlf")
    plain = text.read(
        memoryview((INPUTS / "crlf.proftext").read_bytes().replace(b"\r\n", b"\n")), None
    )
    assert list(crlf.records) == list(plain.records)
    assert crlf.records[0].sites(ValueKind.MEMOP_SIZE) == [[ValueData(16, 5), ValueData(8, 3)]]


def test_nul_ends_the_input() -> None:
    assert [r.name for r in read_input("nul_truncated").records] == ["f"]


def test_empty_and_comment_only_inputs() -> None:
    assert read_input("only_comments").records == []
    assert text.read(memoryview(b""), None).records == []


def test_registered() -> None:
    from profdata.formats import _REGISTRY

    assert any(f.name == "text" and f.read is text.read for f in _REGISTRY)


# ---------------------------------------------------------------------------
# writer


def _record(name: str, value_sites: dict[ValueKind, list[list[ValueData]]]) -> InstrRecord:
    return InstrRecord(name, 7, np.array([3, 4], dtype=np.uint64), b"\x05", value_sites)


def test_format_record_looks_targets_up_in_the_given_symbols() -> None:
    rec = _record(
        "f",
        {
            ValueKind.INDIRECT_CALL_TARGET: [[ValueData(md5_hash("g"), 2), ValueData(9, 1)]],
            ValueKind.VTABLE_TARGET: [[ValueData(md5_hash("g"), 1)]],
        },
    )
    shown = text.format_record(rec, {md5_hash("g"): "g"}, release(22))
    assert "\ng:2\n** External Symbol **:1\n" in shown
    assert "# ValueKind = IPVK_VTableTarget:\n2\n# NumValueSites:\n1\n1\ng:1\n" in shown
    assert text.read(memoryview(shown.encode()), None).records[0].sites(
        ValueKind.INDIRECT_CALL_TARGET
    ) == [[ValueData(md5_hash("g"), 2), ValueData(0, 1)]]


def test_release_gates_value_kinds_and_bitmaps() -> None:
    """14/16 know neither vtable sites nor bitmaps; their blocks are the 19 block without them."""
    rec = _record(
        "f",
        {
            ValueKind.MEMOP_SIZE: [[ValueData(8, 1)]],
            ValueKind.VTABLE_TARGET: [[ValueData(0, 1)]],
        },
    )
    new = text.format_record(rec, {}, release(19))
    old = text.format_record(rec, {}, release(16))
    vtable_block = new[new.index("# ValueKind = IPVK_VTableTarget") : -1]
    bitmap_block = new[new.index("# Num Bitmap Bytes") : new.index("# Num Value Kinds")]
    assert old == (
        new.replace(vtable_block, "")
        .replace(bitmap_block, "")
        .replace("# Num Value Kinds:\n2\n", "# Num Value Kinds:\n1\n")
    )
    only_vtables = _record("f", {ValueKind.VTABLE_TARGET: [[ValueData(0, 1)]]})
    assert "Value Kinds" not in text.format_record(only_vtables, {}, release(14))


def test_header_lines_per_release() -> None:
    """22's header for every flag; older releases drop the lines their reader rejects."""
    profile = read_input("headers_all")
    profile.kind |= ProfileKind.TEMPORAL
    new = text.write(profile, release(22)).decode()
    assert new == (GOLDEN / "expected" / "l22" / "headers_all.proftext").read_text().replace(
        "# Instrument block coverage\n:single_byte_coverage\n",
        "# Instrument block coverage\n:single_byte_coverage\n:temporal_prof_traces\n"
        "# Num Temporal Profile Traces:\n0\n# Temporal Profile Trace Stream Size:\n0\n\n",
    )
    loop = "# Always instrument the loop entry blocks\n:instrument_loop_entries\n"
    sbc = "# Instrument block coverage\n:single_byte_coverage\n"
    trace_block = new[new.index(":temporal_prof_traces") : new.index("f\n")]
    assert text.write(profile, release(19)).decode() == new.replace(loop, "")
    assert text.write(profile, release(14)).decode() == (
        new.replace(loop, "").replace(sbc, "").replace(trace_block, "")
    )


def test_writer_symbols_are_the_written_records() -> None:
    profile = read_input("ext_targets")
    out = text.write(profile, release(22)).decode()
    assert "ext_target:" not in out and "** External Symbol **:7" in out
    profile.vtable_names = []
    assert "_ZTV1A" not in text.write(profile, release(22)).decode()


def test_write_sorts_by_name_bytes_then_hash() -> None:
    records = [
        InstrRecord(n, h, np.array([1], dtype=np.uint64)) for n, h in [("b", 1), ("a", 9), ("a", 2)]
    ]
    profile = InstrProfile(kind=ProfileKind.FRONTEND, records=records)
    out = text.write(profile, release(22)).decode().split("\n")
    assert [(out[i], out[i + 2]) for i in (0, 8, 16)] == [("a", "2"), ("a", "9"), ("b", "1")]


def test_write_default_release_is_22() -> None:
    profile = read_input("headers_all")
    assert text.write(profile) == text.write(profile, release(22))
