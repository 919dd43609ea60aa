"""Damaged indexed profiles: every failure is a located FormatError with LLVM's first line.

Inputs are the goldens of ``tests/golden/indexed`` cut short or patched at known
fields, the deliberately broken files of the shared corpus (when present), and
hypothesis byte flips.  Where llvm-profdata's behaviour is defined the error
class and first line match it; where LLVM reads out of bounds (offsets past
the end of the file) we report ``malformed instrumentation profile data`` with
the offending field.
"""

from __future__ import annotations

import contextlib
import json
import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata.errors import (
    DecompressionError,
    FormatError,
    HeaderCorruptError,
    MalformedError,
    TruncatedError,
    UnrecognizedFormatError,
    UnsupportedHashTypeError,
    UnsupportedVersionError,
)
from profdata.formats import read_instr_bytes
from profdata.formats.indexed import IndexedProfile, read
from profdata.formats.indexed_records import PROFILE_DATA_EMPTY
from tests.conftest import SHARED, CliResult
from tests.malformed.header_words import patched

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "indexed"
GOLDENS = sorted(json.loads((GOLDEN / "goldens.json").read_text()))
SMALL = [name for name in GOLDENS if name != "v13-many"]


def golden(name: str) -> bytes:
    return (GOLDEN / f"{name}.profdata").read_bytes()


def consume(data: bytes) -> IndexedProfile:
    """Read and touch everything a caller can reach (records decode lazily)."""
    profile = read(memoryview(data), "input.profdata")
    records = list(profile.records)
    assert len(profile.records) == len(records)
    names = list(profile.names())
    assert set(profile.symbols.values()) >= set(names)
    for name in names:
        profile.lookup(name)
    assert all(profile.binary_ids)  # read on first use (as merge reads them); none empty
    _ = profile.vtable_names  # decoded on first use (merge --keep-vtable-symbols)
    return profile


def fails(data: bytes, error: type[FormatError] = FormatError) -> FormatError:
    with pytest.raises(error) as info:
        consume(data)
    return info.value


def same_content(a: IndexedProfile, b: IndexedProfile) -> bool:
    return (
        list(a.records) == list(b.records)
        and a.binary_ids == b.binary_ids
        and a.traces == b.traces
        and a.vtable_names == b.vtable_names
        and a.summary == b.summary
    )


# -- truncation ------------------------------------------------------------------------
def cut_points(data: bytes) -> list[int]:
    """Every header/summary/table word boundary, every item field boundary, the last bytes."""
    profile = read(memoryview(data))
    table = profile.table
    points = set(range(0, table.payload_offset + 1, 8))  # header and summaries
    points |= set(range(table.table_offset, table.table_offset + 16 + 8 * table.num_buckets, 8))
    for item in table.items():
        header = item.key_offset - 24
        points |= {header - 2, header, header + 8, header + 16, item.key_offset}
        points |= set(range(item.data_offset, item.data_offset + item.data_length, 8))
    points |= set(range(table.table_offset, len(data), 8))  # sections after the table
    points |= set(range(len(data) - 9, len(data)))
    return sorted(p for p in points if 0 <= p < len(data))


@pytest.mark.parametrize("name", GOLDENS)
def test_truncation_at_every_field_boundary(name: str) -> None:
    data = golden(name)
    whole = consume(data)
    for size in cut_points(data):
        cut = data[:size]
        try:
            profile = consume(cut)
        except FormatError as err:
            assert err.location.offset is not None, (size, err)
            assert 0 <= err.location.offset <= size, (size, err)
            assert err.location.field, (size, err)
            continue
        # only the zero padding after the last section may go missing unnoticed
        assert size > len(data) - 8, f"cut at {size} of {len(data)} was not noticed"
        assert same_content(profile, whole)


def test_short_files_are_truncated_like_llvm() -> None:
    data = golden("v13-vpcalls")
    for size in (8, 16, 23):
        err = fails(data[:size], TruncatedError)
        assert err.llvm_message == "truncated profile data"
        assert err.location.offset == 0


def test_cut_inside_the_header() -> None:
    """LLVM 22: 'file header is corrupt' from v9 on, 'malformed' before (corpus goldens)."""
    err = fails(golden("v13-vpcalls")[:24], HeaderCorruptError)
    assert (
        err.headline()
        == "input.profdata: invalid instrumentation profile data (file header is corrupt)"
    )
    assert (err.location.offset, err.location.field) == (24, "hash_type")
    err = fails(golden("v07-vpcalls")[:32], MalformedError)
    assert err.headline() == "input.profdata: malformed instrumentation profile data"
    assert (err.location.offset, err.location.field) == (32, "hash_offset")


# -- header fields ----------------------------------------------------------------------
def test_bad_magic_is_unrecognized() -> None:
    data = patched(golden("v13-vpcalls"), 7, 0x00, "<B")
    with pytest.raises(UnrecognizedFormatError) as info:
        read(memoryview(data))
    assert info.value.location.field == "magic"
    with pytest.raises(UnrecognizedFormatError):
        read_instr_bytes(data, "x.profdata")


@pytest.mark.parametrize("version", [14, 99, 0xFFFFFFFF])
def test_unsupported_versions(version: int) -> None:
    """Versions above the last; 0 reads as version 2 (``test_version_word.py``)."""
    err = fails(patched(golden("v13-vpcalls"), 8, version, "<I"), UnsupportedVersionError)
    assert err.llvm_message == "unsupported instrumentation profile format version"
    assert (err.location.offset, err.location.found) == (8, str(version))


def test_unsupported_hash_type() -> None:
    err = fails(patched(golden("v13-vpcalls"), 24, 7), UnsupportedHashTypeError)
    assert err.llvm_message == "unsupported instrumentation profile hash type"
    assert (err.location.offset, err.location.field) == (24, "hash_type")


@pytest.mark.parametrize(("name", "at"), [("v07-vpcalls", 32), ("v13-vpcalls", 32)])
def test_hash_offset_past_the_end(name: str, at: int) -> None:
    err = fails(patched(golden(name), at, 1 << 40), MalformedError)
    assert err.llvm_message == "malformed instrumentation profile data"
    assert (err.location.offset, err.location.field) == (at, "hash_table.offset")


@pytest.mark.parametrize("word", [0, 1])
def test_summary_sizes_past_the_end(word: int) -> None:
    err = fails(patched(golden("v13-vpcalls"), 72 + 8 * word, 1 << 40), MalformedError)
    assert err.location.field == "summary.num_cutoff_entries"
    assert err.location.offset == 72


def test_an_item_past_the_end_is_located_inside_the_file() -> None:
    """Bucket 20's offset with its low byte flipped to 0 (hypothesis found it) lands inside
    another item, whose garbage lengths send the walk 16 MiB past the file: the error's
    offset is the end of the file, and its text names the position."""
    data = bytearray(golden("v05-stable"))
    table = read(memoryview(bytes(data))).table
    at = table.table_offset + 16 + 8 * 20
    assert data[at] != 0
    data[at] = 0
    err = fails(bytes(data))
    assert err.location.offset == len(data)
    assert err.location.field == "hash_table.item"
    assert f"past the end ({len(data)} bytes)" in str(err.location.found)


# -- sections after the table -------------------------------------------------------------
def test_binary_ids_past_the_end() -> None:
    err = fails(patched(golden("v13-vpcalls"), 48, 1 << 40), MalformedError)
    assert err.llvm_message == "malformed instrumentation profile data: corrupted binary ids"
    assert (err.location.offset, err.location.field) == (48, "binary_id_offset")


def test_binary_id_section_size_not_a_multiple_of_8() -> None:
    data = golden("v13-vpcalls")
    (offset,) = struct.unpack_from("<Q", data, 48)
    err = fails(patched(data, offset, 31), HeaderCorruptError)
    assert err.llvm_message == "invalid instrumentation profile data (file header is corrupt)"
    assert (err.location.offset, err.location.field) == (offset, "binary_ids.size")


@pytest.mark.parametrize(
    ("length", "message"),
    [(0, "binary id length is 0"), (40, "not enough data to read binary id data")],
)
def test_bad_binary_id_length(length: int, message: str) -> None:
    data = golden("v13-vpcalls")
    (offset,) = struct.unpack_from("<Q", data, 48)
    err = fails(patched(data, offset + 8, length), MalformedError)
    assert err.llvm_message == f"malformed instrumentation profile data: {message}"
    assert err.location.offset == offset + 8


def test_binary_id_section_running_into_the_next_one() -> None:
    # readBinaryIds trusts the declared size: after the one id it reads the vtable-name
    # section's length word (0) as the next id's length (llvm-profdata 16, 19 and 22)
    data = golden("v13-vpcalls")
    (offset,) = struct.unpack_from("<Q", data, 48)
    (vtables,) = struct.unpack_from("<Q", data, 64)
    err = fails(patched(data, offset, 1 << 20), MalformedError)
    assert err.llvm_message == "malformed instrumentation profile data: binary id length is 0"
    assert (err.location.offset, err.location.field) == (vtables, "binary_ids[1].length")


def test_binary_id_ending_past_the_buffer() -> None:
    # version 9 keeps the ids last: a file cut inside the id (llvm-profdata 16's message)
    data = golden("v09-cspgo")
    (offset,) = struct.unpack_from("<Q", data, 48)
    err = fails(data[: offset + 8 + 8 + 8], MalformedError)
    assert err.llvm_message.endswith(": binary id section is greater than buffer size")
    assert (err.location.offset, err.location.field) == (offset + 16, "binary_ids[0].data")


def test_cut_inside_the_binary_ids_is_first_a_truncated_vtable_section() -> None:
    # readHeader checks the vtable-name section (v12+) before anything reads the ids
    data = golden("v13-vpcalls")
    (offset,) = struct.unpack_from("<Q", data, 48)
    err = fails(data[: offset + 24], TruncatedError)
    assert err.llvm_message == "truncated profile data"


def test_bad_binary_ids_fail_merge_and_show_binary_ids_only(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """llvm-profdata 16/19/22 read the entries in ``merge`` (after the records) and
    ``show --binary-ids`` only: ``show`` and ``overlap`` of such a file succeed."""
    good = tmp_path / "good.profdata"
    good.write_bytes(golden("v13-vpcalls"))
    (offset,) = struct.unpack_from("<Q", good.read_bytes(), 48)
    bad = tmp_path / "bad.profdata"
    bad.write_bytes(patched(good.read_bytes(), offset + 8, 0))
    assert run_profdata("show", "--all-functions", "--counts", str(bad)).stdout == (
        run_profdata("show", "--all-functions", "--counts", str(good)).stdout
    )
    shown = run_profdata("show", "--binary-ids", str(bad))
    assert shown.code == 1 and shown.stdout == b""
    assert shown.stderr.startswith(
        b"error: " + str(bad).encode() + b": malformed instrumentation profile data: "
        b"binary id length is 0\n"
    )
    overlap = run_profdata("overlap", str(good), str(bad))
    assert overlap.code == 0 and b"Edge profile overlap: 100.000%" in overlap.stdout
    out, twice = tmp_path / "out.profdata", tmp_path / "twice.profdata"
    merged = run_profdata("merge", "-o", str(out), str(bad))
    assert merged.code == 1 and not out.exists()
    assert b"warning: " + str(bad).encode() + b": malformed instrumentation profile data: " \
        b"binary id length is 0" in merged.stderr  # fmt: skip
    # the bad input's records were merged before its ids were read (LLVM's loadInput)
    args = ("merge", "--failure-mode=all", "-o")
    assert run_profdata(*args, str(out), str(good), str(bad)).code == 0
    assert run_profdata(*args, str(twice), str(good), str(good)).code == 0
    assert out.read_bytes() == twice.read_bytes()


def test_vtable_names_past_the_end() -> None:
    err = fails(patched(golden("v12-vtable"), 64, 1 << 40), TruncatedError)
    assert (err.location.offset, err.location.field) == (64, "vtable_names_offset")
    data = golden("v12-vtable")
    (offset,) = struct.unpack_from("<Q", data, 64)
    err = fails(patched(data, offset, 1 << 20), TruncatedError)
    assert err.location.field == "vtable_names.data"


def test_vtable_names_that_do_not_inflate() -> None:
    data = golden("v12-vtable")
    (offset,) = struct.unpack_from("<Q", data, 64)
    err = fails(patched(data, offset + 8 + 4, 0xFFFFFFFF, "<I"), DecompressionError)
    assert err.location.offset == offset + 8


def test_temporal_traces_cut_short() -> None:
    data = golden("v13-temporal")
    (offset,) = struct.unpack_from("<Q", data, 56)
    err = fails(patched(data, offset, 1000), TruncatedError)
    assert err.location.field == "temporal_traces.num_traces"
    err = fails(patched(data, offset + 16 + 8, 1 << 40), TruncatedError)
    assert err.location.field == "temporal_traces[0].function_name_refs"
    err = fails(patched(data, 56, len(data) - 8), TruncatedError)
    assert (err.location.offset, err.location.field) == (56, "temporal_prof_traces_offset")


def test_memprof_offset_past_the_end() -> None:
    err = fails(patched(golden("v13-memprof3"), 40, 1 << 40), MalformedError)
    assert (err.location.offset, err.location.field) == (40, "memprof_offset")


# -- record data ----------------------------------------------------------------------------
def first_item(data: bytes) -> tuple[int, int]:
    """(offset of the first item's DataLength word, offset of its data)."""
    item = next(read(memoryview(data)).table.items())
    return item.key_offset - 8, item.data_offset


@pytest.mark.parametrize(
    ("name", "delta", "value", "field"),
    [
        ("v13-vpcalls", 8, 1 << 40, "num_counts"),  # NumCounts
        ("v07-vpcalls", 8, 1 << 40, "num_counts"),
        ("v02-compat", 8, 1 << 40, "num_counts"),
    ],
)
def test_counts_past_the_record(name: str, delta: int, value: int, field: str) -> None:
    data = golden(name)
    _, data_at = first_item(data)
    err = fails(patched(data, data_at + delta, value), MalformedError)
    assert err.llvm_message == PROFILE_DATA_EMPTY
    assert (err.location.offset, err.location.field) == (data_at + delta, field)


def test_data_length_not_a_multiple_of_8() -> None:
    data = golden("v13-vpcalls")
    length_at, _ = first_item(data)
    (length,) = struct.unpack_from("<Q", data, length_at)
    err = fails(patched(data, length_at, length - 3), MalformedError)
    assert err.llvm_message == PROFILE_DATA_EMPTY
    assert (err.location.offset, err.location.field) == (length_at, "data_length")


def test_v1_record_without_counters_is_malformed() -> None:
    """LLVM's ReadData needs more than the FuncHash in a v1 record."""
    data = golden("v01-compat")
    length_at, _ = first_item(data)
    err = fails(patched(data, length_at, 8), MalformedError)
    assert err.location.field == "func_hash"


def _value_prof_at(data: bytes) -> int:
    """Offset of the first record's ValueProfData in a v13 file (no bitmap bytes)."""
    _, data_at = first_item(data)
    num_counts: int = struct.unpack_from("<Q", data, data_at + 8)[0]
    return data_at + 16 + 8 * num_counts + 8


@pytest.mark.parametrize(
    ("delta", "fmt", "value", "field"),
    [
        (0, "<I", 1 << 20, "value_prof_data.total_size"),
        (0, "<I", 12, "value_prof_data.total_size"),
        (4, "<I", 4, "value_prof_data.num_value_kinds"),
    ],
)
def test_bad_value_profile_header(delta: int, fmt: str, value: int, field: str) -> None:
    data = golden("v13-vpcalls")
    at = _value_prof_at(data)
    err = fails(patched(data, at + delta, value, fmt), MalformedError)
    assert err.llvm_message == PROFILE_DATA_EMPTY
    assert err.location.field == field


def _first_value_record(data: bytes) -> int:
    """Offset of the first ValueProfRecord of the first item that has value data (v13)."""
    profile = read(memoryview(data))
    for item in profile.table.items():
        (record,) = profile.lookup(profile.table.key(item).decode())
        if record.value_sites:
            return item.data_offset + 16 + 8 * len(record.counts) + 8 + 8
    raise AssertionError("no value data in the golden")


def test_bad_value_kind() -> None:
    data = golden("v13-vpcalls")
    at = _first_value_record(data) - 8
    err = fails(patched(data, at + 8, 7, "<I"), MalformedError)
    assert err.location.field == "value_prof_record.kind"
    err = fails(patched(data, at + 12, 200, "<I"), MalformedError)
    assert (err.location.field or "").startswith("value_prof_record.")


# -- the corpus's broken files -------------------------------------------------------------------
BAD = SHARED / "corpus" / "bad-inputs-vis"
CORPUS_CASES: dict[str, tuple[type[FormatError], str]] = {
    "l14-bad-magic": (UnrecognizedFormatError, "unrecognized instrumentation profile encoding"),
    "l22-bad-magic": (UnrecognizedFormatError, "unrecognized instrumentation profile encoding"),
    "l14-version-99": (UnsupportedVersionError, "unsupported instrumentation profile format"),
    "l22-version-99": (UnsupportedVersionError, "unsupported instrumentation profile format"),
    "l14-hash-type-bad": (UnsupportedHashTypeError, "unsupported instrumentation profile hash"),
    "l22-hash-type-bad": (UnsupportedHashTypeError, "unsupported instrumentation profile hash"),
    "l22-truncated-header": (HeaderCorruptError, "invalid instrumentation profile data"),
    "l14-truncated-header": (MalformedError, "malformed instrumentation profile data"),
    "l22-truncated-half": (MalformedError, "malformed instrumentation profile data: corrupted"),
    # LLVM reads out of bounds for these (crash or garbage); we name the bad offset
    "l14-truncated-half": (MalformedError, "malformed instrumentation profile data"),
    "l14-hash-offset-huge": (MalformedError, "malformed instrumentation profile data"),
    "l22-hash-offset-huge": (MalformedError, "malformed instrumentation profile data"),
}


@pytest.mark.parametrize("case", sorted(CORPUS_CASES))
def test_corpus_bad_inputs(case: str, corpus_dir: Path) -> None:
    error, first_line = CORPUS_CASES[case]
    path = BAD / f"{case}.profdata"
    with pytest.raises(error) as info:
        profile = read_instr_bytes(path.read_bytes(), str(path))
        assert isinstance(profile, IndexedProfile)
        list(profile.records)
    assert info.value.headline().startswith(f"{path}: {first_line}")


# -- fuzzing ---------------------------------------------------------------------------------
def _check_flips(data: bytes, flips: list[tuple[int, int]]) -> None:
    mutated = bytearray(data)
    for position, value in flips:
        mutated[position % len(mutated)] = value
    try:
        consume(bytes(mutated))
    except FormatError as err:
        assert err.location.offset is None or 0 <= err.location.offset <= len(mutated)


_FLIPS = st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), min_size=1, max_size=6)


@pytest.mark.property
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(SMALL), flips=_FLIPS)
def test_byte_flips_anywhere(name: str, flips: list[tuple[int, int]]) -> None:
    _check_flips(golden(name), flips)


@pytest.mark.property
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(SMALL), data=st.data())
def test_byte_flips_in_header_summary_and_table(name: str, data: st.DataObject) -> None:
    blob = golden(name)
    profile = read(memoryview(blob))
    table = profile.table
    regions = [
        (0, table.payload_offset),
        (table.table_offset, table.table_offset + 16 + 8 * table.num_buckets),
        (table.payload_offset, min(table.payload_offset + 64, len(blob))),
    ]
    flips = []
    for _ in range(data.draw(st.integers(1, 4))):
        lo, hi = data.draw(st.sampled_from(regions))
        flips.append((data.draw(st.integers(lo, max(lo, hi - 1))), data.draw(st.integers(0, 255))))
    _check_flips(blob, flips)


@pytest.mark.property
@settings(max_examples=200, deadline=None)
@given(blob=st.binary(min_size=0, max_size=400))
def test_random_bytes_after_the_magic(blob: bytes) -> None:
    data = struct.pack("<Q", 0x8169666F72706CFF) + blob
    with contextlib.suppress(FormatError):
        consume(data)
