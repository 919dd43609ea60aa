"""Unit tests of the raw profile reader and writer (``profdata.formats.raw``).

Real files come from ``tests/golden/raw/inputs`` (copies of the shared corpus
and of LLVM's test inputs, see ``make_goldens.py``).
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from profdata.errors import (
    FormatError,
    HeaderCorruptError,
    MalformedError,
    RelabelledVersionError,
    UsageError,
)
from profdata.formats import detect, raw
from profdata.formats._binary import ByteOrder
from profdata.formats.raw_layout import (
    MAGIC_32,
    MAGIC_64,
    RawHeader,
    detect_magic,
    raw_layout,
    sections,
)
from profdata.model.instr import InstrProfile, InstrRecord, TemporalTrace, ValueData
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_hash
from profdata.releases import release
from tests.conftest import GOLDEN

INPUTS = GOLDEN / "raw" / "inputs"
IC, MEMOP, VTABLE = ValueKind.INDIRECT_CALL_TARGET, ValueKind.MEMOP_SIZE, ValueKind.VTABLE_TARGET


def real(name: str) -> bytes:
    return (INPUTS / f"{name}.profraw").read_bytes()


ORDERS: tuple[ByteOrder, ...] = ("<", ">")


def header_of(data: bytes) -> tuple[int, ByteOrder, RawHeader]:
    magic = detect_magic(data)
    assert magic is not None
    width, order = magic
    version = struct.unpack_from(f"{order}Q", data, 8)[0] & 0xFFFFFFFF
    layout = raw_layout(version, width, order)
    words = struct.unpack_from(f"{order}{len(layout.header_fields)}Q", data)
    return width, order, RawHeader.from_words(layout, words)


# -- layouts -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("version", "header_size"), [(5, 80), (7, 88), (8, 88), (9, 112), (10, 128)]
)
def test_header_sizes(version: int, header_size: int) -> None:
    assert raw_layout(version, 8, "<").header_size == header_size
    assert set(raw_layout(version, 8, "<").header_fields) <= set(RawHeader.__dataclass_fields__)


#: instr-raw.md §5.1: (version, width) -> record size and field offsets.
DATA_LAYOUTS = {
    (8, 8): (48, {"counter_ptr": 16, "function_pointer": 24, "values": 32, "num_counters": 40,
                  "num_value_sites": 44}),
    (8, 4): (40, {"counter_ptr": 16, "function_pointer": 20, "values": 24, "num_counters": 28,
                  "num_value_sites": 32}),
    (9, 8): (64, {"bitmap_ptr": 24, "function_pointer": 32, "num_counters": 48,
                  "num_value_sites": 52, "num_bitmap_bytes": 56}),
    (9, 4): (48, {"bitmap_ptr": 20, "function_pointer": 24, "num_counters": 32,
                  "num_value_sites": 36, "num_bitmap_bytes": 40}),
    (10, 8): (64, {"bitmap_ptr": 24, "function_pointer": 32, "num_counters": 48,
                   "num_value_sites": 52, "num_bitmap_bytes": 60}),
    (10, 4): (48, {"bitmap_ptr": 20, "function_pointer": 24, "num_counters": 32,
                   "num_value_sites": 36, "num_bitmap_bytes": 44}),
}  # fmt: skip


@pytest.mark.parametrize(("key", "expected"), DATA_LAYOUTS.items(), ids=str)
def test_data_record_layout(key: tuple[int, int], expected: tuple[int, dict[str, int]]) -> None:
    version, width = key
    size, offsets = expected
    for order in ORDERS:
        dtype = raw_layout(version, width, order).data_dtype
        fields = dtype.fields
        assert fields is not None and dtype.itemsize == size
        assert {name: fields[name][1] for name in offsets} == offsets
        assert dtype["name_ref"] == np.dtype(f"{order}u8")
        assert dtype["counter_ptr"] == np.dtype(f"{order}u{width}")


def test_vtable_record_sizes() -> None:
    assert raw_layout(10, 8, "<").vtable_size == 24
    assert raw_layout(10, 4, "<").vtable_size == 16


def test_layouts_are_cached_per_variant() -> None:
    assert raw_layout(10, 8, "<") is raw_layout(10, 8, "<")
    assert raw_layout(10, 8, "<") is not raw_layout(10, 8, ">")


# -- detection -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        (MAGIC_64.to_bytes(8, "little"), (8, "<")),
        (MAGIC_64.to_bytes(8, "big"), (8, ">")),
        (MAGIC_32.to_bytes(8, "little"), (4, "<")),
        (MAGIC_32.to_bytes(8, "big"), (4, ">")),
        (b"\xfflprofi\x81", None),  # indexed magic
        (b"# IR lev", None),
        (MAGIC_64.to_bytes(8, "little")[:7], None),
    ],
)
def test_magic_detection(prefix: bytes, expected: tuple[int, str] | None) -> None:
    assert detect_magic(prefix) == expected
    assert raw.sniff(prefix) is (expected is not None)


def test_registry_detects_raw_files() -> None:
    assert detect(real("m32-vpcalls-l22__run1")[:8]).name == "raw"
    assert detect(real("irpgo-vpcalls-o0-l14__run1")[:8]).read is raw.read


# -- reading real files ----------------------------------------------------------------
def test_ir_profile_with_value_data() -> None:
    profile = raw.read(real("irpgo-vpcalls-o0-l22__run1"))
    assert profile.kind == ProfileKind.IR
    assert profile.version == 10
    assert len(profile.binary_ids) == 1 and len(profile.binary_ids[0]) == 20
    main = next(r for r in profile.records if r.name == "main")
    assert main.counts.dtype == np.uint64
    calls = [v for site in main.sites(IC) for v in site]
    assert calls and all(profile.symbols.get(v.value) for v in calls if v.value)


def test_counts_are_views_of_one_counter_array() -> None:
    data = real("irpgo-vpcalls-o2-l22__run1")
    profile = raw.read(data)
    base = profile.records[0].counts.base
    assert isinstance(base, np.ndarray) and base.size >= sum(len(r.counts) for r in profile.records)
    assert all(r.counts.base is base for r in profile.records)


def test_32_bit_file() -> None:
    data = real("m32-vpcalls-l22__run1")
    width, _, header = header_of(data)
    assert width == 4 and header.counters_delta >> 32 == 0  # zero-extended 32-bit delta
    profile = raw.read(data)
    assert len(profile.records) == header.num_data


def test_single_byte_coverage_counts_are_zero_or_one() -> None:
    profile = raw.read(real("fe-sbc-covdemo-l22__run1"))
    assert profile.kind & ProfileKind.SINGLE_BYTE_COVERAGE
    counts = np.concatenate([r.counts for r in profile.records])
    assert set(counts.tolist()) == {0, 1}


def test_v8_single_byte_counters_without_padding() -> None:
    """LLVM 14's runtime wrote PaddingBytesAfterCounters = 0 for byte counters (unaligned names)."""
    data = real("ir-fentrycov-vpcalls-l14__run1")
    _, _, header = header_of(data)
    assert header.num_counters % 8 and header.padding_bytes_after_counters == 0
    profile = raw.read(data)
    assert all(set(r.counts.tolist()) <= {0, 1} for r in profile.records)


def test_temporal_profile_trace() -> None:
    profile = raw.read(real("temporal-phases-l22__run1"))
    assert profile.kind & ProfileKind.TEMPORAL
    assert profile.trace_stream_size == 1 and len(profile.traces) == 1
    trace = profile.traces[0]
    assert trace.weight == 1
    assert next(profile.symbols[h] for h in trace.function_hashes) == "main"


def test_mcdc_bitmap_bytes() -> None:
    profile = raw.read(real("fe-mcdc-mcdcdemo-l22__run1"))
    bitmaps = {r.name: r.bitmap for r in profile.records}
    assert any(bitmaps.values()) and all(len(b) <= 2 for b in bitmaps.values())


def test_vtable_targets_and_names() -> None:
    profile = raw.read(real("irpgo-vtable-vcalls-cpp-l22__run1"))
    assert len(profile.vtable_names) == 4
    vtable_hashes = {md5_hash(n) for n in profile.vtable_names}
    targets = {v.value for r in profile.records for s in r.sites(VTABLE) for v in s}
    assert targets and targets <= vtable_hashes | {0}
    assert {md5_hash(n) for n in profile.vtable_names} <= profile.symbols.keys()


def test_v7_file_of_llvm14_trunk_with_relative_counter_pointers() -> None:
    """Both v7 files of LLVM's tests read: absolute (release 13) and relative (14 trunk)."""
    absolute = raw.read(real("llvm-13__c-general"))
    relative = raw.read(real("llvm-13__compressed"))
    assert absolute.version == relative.version == 7
    assert [list(r.counts) for r in absolute.records] == [list(r.counts) for r in relative.records]


# -- value-profile address translation ----------------------------------------------
def _one_target_profile(kind: ValueKind) -> InstrProfile:
    callee = InstrRecord("callee", 1, np.array([5], dtype=np.uint64))
    target = md5_hash("callee") if kind is IC else md5_hash("_ZTV1A")
    caller = InstrRecord(
        "caller", 2, np.array([7], dtype=np.uint64), value_sites={kind: [[ValueData(target, 3)]]}
    )
    return InstrProfile(
        ProfileKind.IR, [callee, caller], vtable_names=["_ZTV1A"] if kind is VTABLE else []
    )


def _patch_last_target(data: bytes, delta: int) -> bytes:
    """Move the last value of the (last) value-profile blob by ``delta``."""
    value = struct.unpack_from("<Q", data, len(data) - 16)[0]
    return data[:-16] + struct.pack("<Q", value + delta) + data[-8:]


def test_indirect_call_targets_map_exact_addresses_only() -> None:
    data = raw.write(_one_target_profile(IC))
    assert raw.read(data).records[1].sites(IC) == [[ValueData(md5_hash("callee"), 3)]]
    assert raw.read(_patch_last_target(data, 1)).records[1].sites(IC) == [[ValueData(0, 3)]]


@pytest.mark.parametrize(
    ("delta", "hit"),
    [(-0x10, True), (0x1F, True), (-0x11, False), (0x20, False)],  # address point = start + 0x10
)
def test_vtable_targets_use_half_open_intervals(delta: int, hit: bool) -> None:
    """The vtable's last byte is in it, its end is not (the real 19 and 22 give these four
    answers for this file; stop 50 took the end to be in)."""
    data = _patch_last_target(raw.write(_one_target_profile(VTABLE)), delta)
    (site,) = raw.read(data).records[1].sites(VTABLE)
    assert site == [ValueData(md5_hash("_ZTV1A") if hit else 0, 3)]


def test_unknown_name_ref_gives_an_empty_name() -> None:
    record = InstrRecord("", 9, np.array([1, 2], dtype=np.uint64))
    profile = raw.read(raw.write(InstrProfile(ProfileKind.FRONTEND, [record])))
    assert profile.records == [record] and profile.symbols == {}


# -- error locations -----------------------------------------------------------------
def test_truncated_header_names_the_missing_field() -> None:
    data = real("irpgo-vpcalls-o0-l22__run1")[:40]
    with pytest.raises(HeaderCorruptError) as info:
        raw.read(data)
    assert info.value.location.offset == 40
    assert info.value.location.field == "header.num_counters"


def test_counter_offset_error_points_at_the_record_field() -> None:
    data = bytearray(real("irpgo-vpcalls-o0-l22__run1"))
    _, _, header = header_of(bytes(data))
    record = 128 + header.binary_ids_size + 2 * 64
    struct.pack_into("<q", data, record + 16, struct.unpack_from("<q", data, record + 16)[0] - 800)
    with pytest.raises(MalformedError) as info:
        raw.read(bytes(data))
    assert info.value.location.offset == record + 16
    assert info.value.location.field == "data[2].counter_ptr"
    assert info.value.llvm_message.startswith(
        "malformed instrumentation profile data: counter offset -"
    )


def test_empty_name_in_names_section_is_malformed() -> None:
    profile = InstrProfile(ProfileKind.FRONTEND, [InstrRecord("a", 1, np.ones(1, np.uint64))])
    good = raw.write(profile, compress_names=False)
    bad = good.replace(b"\x01\x00a", b"\x01\x00\x01")  # names "a" -> "", ""
    assert bad != good
    with pytest.raises(MalformedError, match="empty name") as info:
        raw.read(bad)
    assert info.value.llvm_message.endswith("symbol name is empty")


# -- writer ----------------------------------------------------------------------------
def _split(data: bytes) -> dict[str, bytes | int | np.ndarray]:
    width, order, header = header_of(data)
    layout = raw_layout(header.raw_version, width, order)
    regions = {s.name: s for s in sections(layout, header, 0)}
    parts: dict[str, bytes | int | np.ndarray] = {
        name: data[r.start : r.end]
        for name, r in regions.items()
        if name in ("binary_ids", "counters", "bitmap", "names", "vnames")
    }
    for name in layout.header_fields:
        if not name.endswith("delta"):
            parts[f"header.{name}"] = getattr(header, name)
    records = np.frombuffer(data, layout.data_dtype, header.num_data, regions["data"].start)
    for name in ("name_ref", "func_hash", "num_counters", "num_value_sites", "num_bitmap_bytes"):
        if name in (records.dtype.names or ()):
            parts[name] = records[name]
    parts["size"] = len(data)
    return parts


#: Real files the writer reproduces section for section: everything but addresses.
SAME_LAYOUT = [
    "irpgo-vpcalls-o0-l22__run1", "irpgo-vpcalls-o2-l14__run2", "m32-vpcalls-l16__fe1",
    "m32-vpcalls-l22__run1", "fe-mcdc-mcdcdemo-l22__run1", "fe-sbc-covdemo-l19__run2",
    "ir-blockcov-vpcalls-l22__run1", "ir-fentrycov-vpcalls-l14__run1",
    "temporal-phases-l22__run3", "cspgo-classify-l22__stage2", "binary-ids-vpcalls-l16__none",
    "irpgo-vtable-vcalls-cpp-l22__run2", "llvm-14__c-general", "llvm-19__compressed",
    "llvm-11__c-general", "llvm-13__c-general", "llvm-18__c-general",
]  # fmt: skip


@pytest.mark.parametrize("name", SAME_LAYOUT)
def test_writer_reproduces_what_the_runtime_wrote(name: str) -> None:
    data = real(name)
    width, order, header = header_of(data)
    profile = raw.read(data)
    layout = raw_layout(header.raw_version, width, order)
    pos = {s.name: s for s in sections(layout, header, 0)}["names"].start
    while data[pos] & 0x80:  # skip the ULEB128 uncompressed size
        pos += 1
    compressed = data[pos + 1] != 0
    ours = raw.write(
        profile,
        version=header.raw_version,
        width=width,
        byteorder=order,
        compress_names=compressed,
    )
    expected, got = _split(data), _split(ours)
    assert expected.keys() == got.keys()
    for key, value in expected.items():
        if isinstance(value, np.ndarray):
            assert np.array_equal(value, got[key]), key
        else:
            assert value == got[key], key


def test_writer_places_counters_below_the_data() -> None:
    data = real("irpgo-vpcalls-o0-l22__run1")
    _, _, header = header_of(data)
    _, _, ours = header_of(raw.write(raw.read(data)))
    assert ours.counters_delta == header.counters_delta  # -(counter bytes), as clang's ELF layout


def _profile(**changes: object) -> InstrProfile:
    record = InstrRecord("f", 1, np.array([1], dtype=np.uint64))
    profile = InstrProfile(ProfileKind.IR, [record])
    for key, value in changes.items():
        setattr(profile, key, value)
    return profile


@pytest.mark.parametrize(
    ("profile", "options", "message"),
    [
        (_profile(binary_ids=[b"\x01"]), {"version": 5}, "no binary-id section"),
        (_profile(binary_ids=[b""]), {}, "binary id is empty"),
        (_profile(vtable_names=["_ZTV1A"]), {"version": 9}, "no vtable section"),
        (
            _profile(records=[InstrRecord("f", 1, np.ones(1, np.uint64), b"\x01")]),
            {"version": 8},
            "bitmap",
        ),
        (
            _profile(
                records=[
                    InstrRecord(
                        "f", 1, np.ones(1, np.uint64), value_sites={VTABLE: [[ValueData(0, 1)]]}
                    )
                ]
            ),
            {"version": 9},
            "VTABLE_TARGET",
        ),
        (_profile(records=[InstrRecord("f", 1, np.zeros(0, np.uint64))]), {}, "no counters"),
        (_profile(records=[InstrRecord("a\x01b", 1, np.ones(1, np.uint64))]), {}, "separator"),
        (
            _profile(
                records=[
                    InstrRecord(
                        "f",
                        1,
                        np.ones(1, np.uint64),
                        value_sites={MEMOP: [[ValueData(i, 1) for i in range(256)]]},
                    )
                ]
            ),
            {},
            "255 values",
        ),
        (_profile(traces=[TemporalTrace(1, (1,))]), {}, "TEMPORAL flag"),
        (
            _profile(kind=ProfileKind.TEMPORAL, traces=[TemporalTrace(1, (1,))] * 2),
            {},
            "at most one temporal trace",
        ),
        (
            _profile(kind=ProfileKind.TEMPORAL, traces=[TemporalTrace(1, (md5_hash("g"),))]),
            {},
            "temporal trace names hash",
        ),
        (_profile(), {"version": 6}, "cannot write"),
        (_profile(), {"width": 2}, "cannot write"),
    ],
)
def test_writer_refuses_what_the_variant_cannot_hold(
    profile: InstrProfile, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        raw.write(profile, **options)


def test_writer_output_for_every_variant_reads_back() -> None:
    record = InstrRecord(
        "main", 0x0A4D0AD3EFFFFFFF, np.array([3, 0, 2**64 - 1], dtype=np.uint64),
        value_sites={IC: [[ValueData(md5_hash("main"), 2), ValueData(0, 1)]],
                     MEMOP: [[ValueData(16, 2)], []]},
    )  # fmt: skip
    profile = InstrProfile(ProfileKind.IR, [record], binary_ids=[b"\xab" * 20])
    for version in (7, 8, 9, 10):
        for width in (4, 8):
            for order in ORDERS:
                data = raw.write(profile, version=version, width=width, byteorder=order)
                assert detect_magic(data) == (width, order)
                back = raw.read(data)
                assert back.version == version and back.records == [record]
                assert back.binary_ids == profile.binary_ids


def test_read_accepts_bytes_and_memoryview(tmp_path: Path) -> None:
    data = real("irpgo-vpcalls-o0-l22__run1")
    assert raw.read(data).records == raw.read(memoryview(bytearray(data))).records


def test_every_format_error_is_a_format_error_subclass() -> None:
    with pytest.raises(FormatError):
        raw.read(b"not a raw profile at all")


@pytest.mark.parametrize("labelled", [5, 7, 8, 9])
def test_a_changed_version_field_is_a_version_error(labelled: int) -> None:
    """A version 10 file whose header names another version fails as that version and
    reads as 10: a version error (as every llvm-profdata release but the one whose own
    version the header names reports it), located at the version field."""
    record = InstrRecord("main", 0x1234, np.array([3, 1], dtype=np.uint64), b"", {})
    good = raw.write(InstrProfile(kind=ProfileKind.IR, records=[record]))
    data = bytearray(good)
    data[8] = labelled
    with pytest.raises(RelabelledVersionError) as info:
        raw.read(bytes(data), "x.profraw")
    error = info.value
    assert (error.location.offset, error.location.field) == (8, "header.version")
    assert (error.location.found, error.location.expected) == (str(labelled), "10")
    assert f"reads cleanly only as version 10; read as version {labelled} it fails" in str(
        error
    ).replace(" (was its version field changed?)", "")
    assert error.for_release(release(22)).llvm_message.startswith(
        f"raw profile version mismatch: Profile uses raw profile format version = {labelled}; "
        "expected version = 10\nPLEASE update this tool"
    )
    assert error.for_release(release(16)).llvm_message == (
        "unsupported instrumentation profile format version"
        if labelled != 8
        else error.as_declared.llvm_message
    )
    assert isinstance(error.as_declared, FormatError)
    assert not isinstance(error.as_declared, RelabelledVersionError)
    assert list(raw.read(good).records) == [record]  # the file as it was reads
