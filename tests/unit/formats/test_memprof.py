"""MemProf section reader/writer (formats/memprof*.py) on the LLVM-made goldens.

Round trips: every golden's MemProf section, decoded and written again with
its own version and schema, is the same bytes.  Malformed sections (cut
short, bad schema, offsets out of range, versions the release does not
read) raise located errors, never IndexError/KeyError/struct.error.
"""

from __future__ import annotations

import contextlib
import random
import struct
from pathlib import Path

import pytest

from profdata.errors import FormatError, MalformedError, UnsupportedVersionError
from profdata.formats._binary import ByteWriter
from profdata.formats._onhash_write import bucket_order
from profdata.formats.memprof import (
    check_memprof_header,
    generator_insertion_order,
    read_memprof,
    rules_for,
)
from profdata.formats.memprof_ids import blake3_u64, frame_id_blake3, frame_id_golden
from profdata.formats.memprof_write import write_memprof
from profdata.model.memprof import Frame, MemProfData
from profdata.releases import release

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "memprof"
INPUTS = sorted(p.stem for p in GOLDEN.glob("l*.profdata"))
MEMPROF_OFFSET_AT = 0x28  # header word 5 of indexed versions 8+
BINARY_ID_OFFSET_AT = 0x30


def _release_of(name: str) -> int:
    return int(name[1:3])


def _section(name: str) -> tuple[bytes, int, int]:
    data = (GOLDEN / f"{name}.profdata").read_bytes()
    start = struct.unpack_from("<Q", data, MEMPROF_OFFSET_AT)[0]
    end = struct.unpack_from("<Q", data, BINARY_ID_OFFSET_AT)[0]
    return data, start, end


def test_goldens_are_present() -> None:
    assert {"l16-vd", "l19-v0", "l19-v1", "l19-v2", "l19-v3", "l22-v2", "l22-v3", "l22-v4"} <= set(
        INPUTS
    )


@pytest.mark.parametrize("name", INPUTS)
def test_section_round_trips_byte_identical(name: str) -> None:
    data, start, end = _section(name)
    rules = rules_for(release(_release_of(name)))
    decoded = read_memprof(memoryview(data), start, rules)
    assert decoded.records and decoded.frames and decoded.call_stacks
    assert decoded.schema is not None and decoded.version is not None
    out = ByteWriter()
    out.bytes(data[:start])
    write_memprof(out, decoded, decoded.version, decoded.schema)
    assert bytes(out.buf) == data[:end]


def test_versions_of_one_release_hold_the_same_records() -> None:
    rules = rules_for(release(19))
    decoded = []
    for name in ("l19-v0", "l19-v1", "l19-v2", "l19-v3"):
        data, start, _ = _section(name)
        decoded.append(read_memprof(memoryview(data), start, rules))
    resolved = [
        {
            guid: [d.frames_of(site.call_stack_id) for site in rec.alloc_sites]
            for guid, rec in d.records.items()
        }
        for d in decoded
    ]
    assert all(r == resolved[0] for r in resolved)
    assert [d.version for d in decoded] == [0, 1, 2, 3]
    assert len(decoded[0].schema or ()) == 27  # V0/V1 always carry the full schema
    assert decoded[2].schema == (1, 5, 10, 23)


def test_v2_ids_are_the_ones_llvm_computes() -> None:
    """V2 stores frame and call stack ids: LLVM 22 hashes with BLAKE3, 19 with Frame::hash."""
    for name, frame_id in (("l22-v2", frame_id_blake3), ("l19-v2", frame_id_golden)):
        data, start, _ = _section(name)
        decoded = read_memprof(memoryview(data), start, rules_for(release(_release_of(name))))
        assert all(frame_id(frame) == fid for fid, frame in decoded.frames.items())


def test_blake3_known_answers() -> None:
    """The specification's empty-input hash; longer inputs are checked against LLVM's
    call stack ids in the goldens (deep.yaml: 2400-byte, three-chunk inputs)."""
    assert struct.pack("<Q", blake3_u64(b"")).hex() == "af1349b9f5f9a1a6"
    frame = Frame(0xDB956436E78DD5FA, 12, 12, False)
    assert frame_id_blake3(frame) != frame_id_blake3(frame._replace(is_inline_frame=True))


# -- malformed input ------------------------------------------------------------------
def _read(data: bytes, start: int, rel: int = 22) -> MemProfData:
    return read_memprof(memoryview(data), start, rules_for(release(rel)))


def test_v0_is_refused_by_22_with_llvm_words() -> None:
    data, start, _ = _section("l19-v0")
    with pytest.raises(UnsupportedVersionError) as info:
        _read(data, start)
    first = struct.unpack_from("<Q", data, start)[0]
    assert info.value.llvm_message == (
        "unsupported instrumentation profile format version: MemProf version "
        f"{first} not supported; requires version between 2 and 4, inclusive"
    )
    assert info.value.location.offset == start
    assert info.value.location.field == "memprof.version"


def test_small_first_word_is_refused_by_19() -> None:
    data, start, _ = _section("l19-v2")
    bad = bytearray(data)
    struct.pack_into("<Q", bad, start, 7)
    with pytest.raises(UnsupportedVersionError, match="between 0 and 3"):
        _read(bytes(bad), start, 19)


@pytest.mark.parametrize("name", ["l22-v2", "l22-v3", "l22-v4", "l19-v0"])
def test_bad_schema_count(name: str) -> None:
    data, start, _ = _section(name)
    decoded = _read(data, start, _release_of(name))
    assert decoded.schema is not None
    header = {0: 3, 1: 4, 2: 6, 3: 4, 4: 5}[decoded.version or 0]
    at = start + 8 * header + (52 if decoded.version == 4 else 0)
    assert struct.unpack_from("<Q", data, at)[0] == len(decoded.schema)
    bad = bytearray(data)
    struct.pack_into("<Q", bad, at, 29)
    with pytest.raises(MalformedError) as info:
        _read(bytes(bad), start, _release_of(name))
    assert "memprof schema invalid" in info.value.llvm_message
    assert info.value.location.offset == at
    bad = bytearray(data)
    struct.pack_into("<Q", bad, at + 8, 0)  # Meta::Start is no field
    with pytest.raises(MalformedError) as info:
        _read(bytes(bad), start, _release_of(name))
    assert info.value.location.field == "memprof.schema[0]"


@pytest.mark.parametrize("name", ["l22-v2", "l22-v3", "l22-v4", "l19-v1", "l16-vd"])
def test_every_truncation_is_a_located_error_or_loses_nothing(name: str) -> None:
    """A cut that leaves only a table's bucket offsets short (which llvm-profdata never
    reads: it walks the payloads) reads every frame, call stack and record."""
    data, start, end = _section(name)
    rel = _release_of(name)
    whole = _read(data, start, rel)
    read = 0
    for cut in range(start, end, 3):
        try:
            got = _read(data[:cut], start, rel)
        except FormatError as exc:
            assert exc.location.offset is not None or exc.location.field
            continue
        read += 1
        assert (got.frames, got.call_stacks, got.records) == (
            whole.frames, whole.call_stacks, whole.records,
        )  # fmt: skip
    assert read < (end - start) // 6  # most cuts fail


@pytest.mark.parametrize("name", ["l22-v2", "l22-v3", "l19-v0"])
def test_record_table_offset_out_of_range(name: str) -> None:
    data, start, _ = _section(name)
    rel = _release_of(name)
    version = _read(data, start, rel).version
    word = {0: start, 1: start + 8, 2: start + 8, 3: start + 24}[version or 0]
    bad = bytearray(data)
    struct.pack_into("<Q", bad, word, len(data) + 100)
    with pytest.raises(MalformedError, match="past the end of the file"):
        _read(bytes(bad), start, rel)


def test_radix_index_out_of_range() -> None:
    data, start, _ = _section("l22-v3")
    cs_payload, record_payload = struct.unpack_from("<QQ", data, start + 8)
    bad = bytearray(data)
    # point every radix element at a frame index that does not exist
    for pos in range(cs_payload, record_payload, 4):
        struct.pack_into("<I", bad, pos, 0x7FFFFFF0)
    with pytest.raises(MalformedError) as info:
        _read(bytes(bad), start)
    assert info.value.location.field is not None
    assert info.value.location.field.startswith("memprof.radix")


def test_header_check_reads_no_records() -> None:
    data, start, _ = _section("l22-v3")
    record_payload, record_table = struct.unpack_from("<QQ", data, start + 16)
    bad = bytearray(data)
    bad[record_payload:record_table] = b"\xff" * (record_table - record_payload)
    check_memprof_header(memoryview(bytes(bad)), start, rules_for(release(22)))
    with pytest.raises(FormatError):
        _read(bytes(bad), start)


def test_frame_array_must_tile_its_span() -> None:
    data, start, _ = _section("l22-v3")
    bad = bytearray(data)
    cs_payload = struct.unpack_from("<Q", data, start + 8)[0]
    struct.pack_into("<Q", bad, start + 8, cs_payload - 1)
    with pytest.raises(MalformedError) as info:
        _read(bytes(bad), start)
    assert info.value.location.field == "memprof.call_stack_payload_offset"


def test_no_low_level_exceptions_on_random_corruption() -> None:
    data, start, end = _section("l22-v4")
    for pos in range(start, end, 5):
        bad = bytearray(data)
        bad[pos] ^= 0xA5
        with contextlib.suppress(FormatError):
            _read(bytes(bad), start)


@pytest.mark.parametrize("count", [0, 1, 2, 3, 46, 47, 48, 49, 95, 96, 200, 3000])
@pytest.mark.parametrize("key_bits", [64, 10])
def test_generator_insertion_order_reproduces_any_payload(count: int, key_bits: int) -> None:
    """Whatever order the generator was fed, the reconstructed order emits the same payload."""
    rng = random.Random(count * 131 + key_bits)
    keys = [rng.getrandbits(key_bits) for _ in range(count)]
    emitted = bucket_order(keys)
    stored = [keys[i] for i in emitted.items.tolist()]
    order = generator_insertion_order(stored, emitted.num_buckets)
    assert order is not None and sorted(order) == list(range(count))
    again = bucket_order([stored[i] for i in order])
    assert [order[i] for i in again.items.tolist()] == list(range(count))


def test_generator_insertion_order_rejects_foreign_payloads() -> None:
    """Shrinking to one bucket lists the 64-bucket chains last bucket first; LLVM's payload of
    keys 0 and 1 is [1, 0], and [0, 1] is no generator's."""
    assert generator_insertion_order([0x01, 0x00], 1) is not None
    assert generator_insertion_order([0x00, 0x01], 1) is None


def test_v4_data_access_profile_is_refused_not_dropped() -> None:
    data, start, _ = _section("l22-v4")
    bad = bytearray(data)
    struct.pack_into("<Q", bad, start + 32, len(data) - 8)  # DataAccessProfOffset
    with pytest.raises(UnsupportedVersionError, match="data access profiles") as info:
        _read(bytes(bad), start)
    assert info.value.location.offset == start + 32
