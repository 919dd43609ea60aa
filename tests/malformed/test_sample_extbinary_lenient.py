"""Damaged extensible binary sample profiles that llvm-profdata reads anyway, and so profdata.

Each was found by ``tools/fuzz_llvm.py`` (the real tool read a damaged file
that profdata refused, or printed it otherwise) and is rebuilt here from a
golden file llvm-profdata wrote (``tests/golden/sample/expected``):

* a section type word with its high half set: ``SecType`` is a 32-bit enum,
  so the type is its low half;
* a compressed section whose stated size runs past the end of the file: the
  size only bounds the two ULEB sizes in front of the zlib stream, which is
  read as far as it goes, and the section is what it inflates to;
* a section of a type it does not know, and from 19 the FuncOffsetTable, placed
  anywhere: ``readOneSection`` steps over them without reading;
* a FuncOffsetTable with bytes left over or a name index past the name table:
  19 and later step over it, 14 and 16 read it (``readFuncOffsetTable``) and
  refuse the file as they refuse any section not consumed exactly;
* a summary entry whose cutoff passes 32 bits: ``ProfileSummaryEntry`` holds a
  ``uint32_t`` cutoff, so the detailed summary prints the low half's percentage;
* summary entries out of order: the hot count threshold of ``overlap`` is
  ``getEntryForPercentile``'s, a binary search (``partition_point``), which
  lands where the order sends it;
* function metadata naming an inlinee the profile does not have:
  ``readFuncMetadata`` makes it (``functionSamplesAt(Loc)[Name]``) without a
  name, so it prints as "" and, in an MD5 profile, orders and hashes as
  ``FunctionId()`` (hash 0).

The non-compat tests hold profdata to the golden output of the undamaged file;
the compat tests hold both to the real tools.
"""

from __future__ import annotations

import struct
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats._binary import ByteReader
from profdata.formats.sample_extbinary import FLAG_COMPRESS, SecType, read_section_table
from tests.conftest import CliResult
from tests.leb128 import uleb
from tests.malformed.extbinary_goldens import TABLE_AT, golden, golden_text, patch_entry


def high_types(data: bytes) -> bytes:
    """Every section type word with bits in its high half."""
    for index in range(len(read_section_table(ByteReader(data)))):
        at = TABLE_AT + 32 * index
        (kind,) = struct.unpack_from("<Q", data, at)
        data = patch_entry(data, index, 0, kind | (0xABCD0000 + index) << 32)
    return data


def oversized(data: bytes, size: int) -> bytes:
    """Every compressed section stating ``size`` bytes (its offset kept)."""
    for index, entry in enumerate(read_section_table(ByteReader(data))):
        if entry.flags & FLAG_COMPRESS and entry.size:
            data = patch_entry(data, index, 3, size)
    return data


def far_entry(data: bytes, kind: int, new_kind: int | None = None) -> bytes:
    """The first section of type ``kind`` (retyped ``new_kind``) placed far past the end of
    the file, 8 bytes long."""
    index = next(i for i, e in enumerate(read_section_table(ByteReader(data))) if e.type == kind)
    if new_kind is not None:
        data = patch_entry(data, index, 0, new_kind)
    return patch_entry(patch_entry(data, index, 2, 1 << 40), index, 3, 8)


#: stated sizes past the end of the file: twice the file, and what the fuzzer wrote
SIZES = (2000, 0xFFFF000000000024)
#: the golden a 2-word swap of the fuzzer turned into metadata that names an inlinee the
#: profile does not hold (header word 120 with a word of the function metadata, 520)
METADATA = ("llvm-sample-flatten-profile", "extbin-md5")


def offset_table_byte(data: bytes, at: int, value: int) -> bytes:
    """Byte ``at`` of the FuncOffsetTable set to ``value`` (in the goldens: a count of 3,
    then three name indices and offsets of one byte each)."""
    table = next(e for e in read_section_table(ByteReader(data)) if e.type == 4)
    assert data[table.offset] == 3
    return data[: table.offset + at] + bytes([value]) + data[table.offset + at + 1 :]


#: damaged FuncOffsetTables -> the error of 14 and 16
OFFSET_TABLES = {
    "left-over": ((0, 2), "Malformed sample profile data"),
    "name-index": ((1, 9), "Truncated function name table"),
}


def wide_cutoff(data: bytes, cutoff: int) -> bytes:
    """The summary's first detailed entry with ``cutoff`` (the sections after it moved)."""
    table = read_section_table(ByteReader(data))
    index, entry = next((i, e) for i, e in enumerate(table) if e.type == SecType.PROFILE_SUMMARY)
    assert not entry.flags & FLAG_COMPRESS
    cur = ByteReader(data, pos=entry.offset)
    for _ in range(6):  # the six counts, the entry count last
        cur.uleb128("count")
    at = cur.pos
    cur.uleb128("cutoff")
    old = cur.pos - at
    new = uleb(cutoff)
    data = data[:at] + new + data[at + old :]
    grown = len(new) - old
    data = patch_entry(data, index, 3, entry.size + grown)
    for other, moved in enumerate(table):
        if moved.offset > entry.offset:
            data = patch_entry(data, other, 2, moved.offset + grown)
    return data


def reordered_summary(data: bytes, first: int, second: int) -> bytes:
    """The summary's detailed entries ``first`` and ``second`` swapped (their bytes: the
    section keeps its size, the entries between them move)."""
    entry = next(
        e for e in read_section_table(ByteReader(data)) if e.type == SecType.PROFILE_SUMMARY
    )
    cur = ByteReader(data, pos=entry.offset)
    for _ in range(5):
        cur.uleb128("count")
    spans = []
    for _ in range(cur.uleb128("num_entries")):
        at = cur.pos
        for _ in range(3):
            cur.uleb128("field")
        spans.append(data[at : cur.pos])
    start = cur.pos - sum(map(len, spans))
    spans[first], spans[second] = spans[second], spans[first]
    return data[:start] + b"".join(spans) + data[cur.pos :]


def metadata_inlinee(data: bytes) -> bytes:
    buf = bytearray(data)
    buf[120:128], buf[520:528] = buf[520:528], buf[120:128]
    return bytes(buf)


@pytest.mark.parametrize("rel", [16, 22])
def test_a_section_type_is_its_low_half(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    path = tmp_path / "high.extbin"
    path.write_bytes(high_types(golden(rel, "corpus-inline", "extbin-default")))
    got = run_profdata(f"--llvm-release={rel}", "show", "--sample", str(path))
    assert got.code == 0
    assert got.text == golden_text(rel, "corpus-inline", "extbin-default-show")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("rel", [16, 22])
def test_a_compressed_section_may_state_a_size_past_the_end(
    rel: int, size: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    data = golden(rel, "corpus-inline", "extbin-all")
    assert size > len(data)
    path = tmp_path / "oversized.extbin"
    path.write_bytes(oversized(data, size))
    got = run_profdata(f"--llvm-release={rel}", "show", "--sample", str(path))
    assert got.code == 0
    assert got.text == golden_text(rel, "corpus-inline", "extbin-all-show")


def test_a_compressed_stream_cut_by_the_end_of_the_file_is_an_uncompress_failure(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    data = oversized(golden(22, "corpus-inline", "extbin-all"), 2000)
    last = max(read_section_table(ByteReader(data)), key=lambda e: e.offset if e.size else 0)
    path = tmp_path / "cut.extbin"
    path.write_bytes(data[: last.offset + 4])  # the sizes and a little of the stream
    got = run_profdata("show", "--sample", str(path))
    assert got.code == 1
    assert got.stderr.decode().splitlines()[0] == f"error: {path}: Uncompress failure"


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_sections_llvm_profdata_steps_over_may_lie_anywhere(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """A section type it does not know, and from 19 the FuncOffsetTable (only on-demand
    loading reads it), are stepped over however far they claim to be; 14 and 16 read the
    FuncOffsetTable's entries, which are not there."""
    data = golden(rel, "corpus-inline", "extbin-default")
    unknown = tmp_path / "unknown.extbin"
    unknown.write_bytes(far_entry(data, SecType.PROFILE_SYMBOL_LIST, 77))
    offsets = tmp_path / "offsets.extbin"
    offsets.write_bytes(far_entry(data, SecType.FUNC_OFFSET_TABLE))
    expected = golden_text(rel, "corpus-inline", "extbin-default-show")
    got = run_profdata(f"--llvm-release={rel}", "show", "--sample", str(unknown))
    assert (got.code, got.text) == (0, expected)
    got = run_profdata(f"--llvm-release={rel}", "show", "--sample", str(offsets))
    if rel >= 19:
        assert (got.code, got.text) == (0, expected)
    else:
        assert got.code == 1
        first = got.stderr.decode().splitlines()[0]
        assert first == f"error: {offsets}: Malformed sample profile data"


@pytest.mark.parametrize("damage", sorted(OFFSET_TABLES))
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_14_and_16_read_the_func_offset_table(
    rel: int, damage: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    (at, value), error = OFFSET_TABLES[damage]
    path = tmp_path / "offsets.extbin"
    path.write_bytes(offset_table_byte(golden(rel, "corpus-inline", "extbin-default"), at, value))
    undamaged = tmp_path / "undamaged.extbin"
    undamaged.write_bytes(golden(rel, "corpus-inline", "extbin-default"))
    for command in (["show", "--sample"], ["show", "--sample", "--function=main"]):
        got = run_profdata(f"--llvm-release={rel}", *command, str(path))
        if rel >= 19:
            read = run_profdata(f"--llvm-release={rel}", *command, str(undamaged))
            assert (got.code, got.text) == (0, read.text)
        else:
            assert got.code == 1
            assert got.stderr.decode().splitlines()[0] == f"error: {path}: {error}"


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_a_cutoff_is_32_bits(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    path = tmp_path / "cutoff.extbin"
    path.write_bytes(wide_cutoff(golden(rel, "corpus-inline", "extbin-default"), 5 << 32 | 10000))
    got = run_profdata(f"--llvm-release={rel}", "show", "--sample", "--detailed-summary", str(path))
    assert got.code == 0
    first = " account for 1% of" if rel >= 22 else " account for 1 percentage of"  # 10000/10**6
    assert first in got.text


@pytest.mark.parametrize("rel", [19, 22])
def test_an_inlinee_only_metadata_names_has_no_name(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    path = tmp_path / "meta.extbin"
    path.write_bytes(metadata_inlinee(golden(rel, *METADATA)))
    shown = run_profdata(f"--llvm-release={rel}", "show", "--sample", str(path))
    assert shown.code == 0
    assert "3: inlined callee: : CFG checksum 4\n" in shown.text
    # merged to text it keeps the callee's name as the profile holds it; to ext-binary the
    # name table holds "" first, as FunctionId() (hash 0) orders, and as hash 0 with MD5
    out = tmp_path / "out.extbin"
    for options, first in (([], b"\x00"), (["--use-md5"], bytes(8))):
        got = run_profdata(
            f"--llvm-release={rel}", "merge", "--sample", "--extbinary", *options, str(path),
            "-o", str(out),
        )  # fmt: skip
        assert got.code == 0
        written = out.read_bytes()
        table = next(e for e in read_section_table(ByteReader(written)) if e.type == 2)
        assert written[table.offset + 1 : table.offset + 1 + len(first)] == first


@pytest.mark.compat
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_as_llvm_profdata(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    files = {"high": high_types(golden(rel, "corpus-inline", "extbin-default"))}
    for size in SIZES:
        files[f"size{size}"] = oversized(golden(rel, "corpus-inline", "extbin-all"), size)
    default = golden(rel, "corpus-inline", "extbin-default")
    files["unknown"] = far_entry(default, SecType.PROFILE_SYMBOL_LIST, 77)
    for damage, ((at, value), _) in OFFSET_TABLES.items():
        files[damage] = offset_table_byte(default, at, value)
    files["cutoff"] = wide_cutoff(default, 5 << 32 | 10000)
    files["order"] = reordered_summary(default, 2, 11)  # 990000 third: found past it
    if rel >= 19:  # 14 and 16 read the far table (and crash)
        files["offsets"] = far_entry(default, SecType.FUNC_OFFSET_TABLE)
        files["metadata"] = metadata_inlinee(golden(rel, *METADATA))
    for name, data in files.items():
        path = tmp_path / f"{name}.extbin"
        path.write_bytes(data)
        for args in (
            ["show", "--sample", str(path)],
            ["show", "--sample", "--detailed-summary", str(path)],
            ["merge", "--sample", "--text", str(path)],
            ["merge", "--sample", "--extbinary", str(path)],
            ["merge", "--sample", "--extbinary", "--use-md5", str(path)],
            ["overlap", "--sample", str(path), str(path)],
        ):
            real_out, our_out = tmp_path / "real.out", tmp_path / "our.out"
            real = subprocess.run(
                [str(tool), *args, "-o", str(real_out)], capture_output=True, timeout=60
            )
            ours = run_profdata(f"--llvm-release={rel}", *args, "-o", str(our_out))
            assert (ours.code, ours.stdout) == (real.returncode, real.stdout), (name, args)
            if real.returncode:
                first = real.stderr.decode().splitlines()[0]
                assert ours.stderr.decode().splitlines()[0] == first, (name, args)
                continue
            assert our_out.read_bytes() == real_out.read_bytes(), (name, args)
            real_out.unlink()
            our_out.unlink()
