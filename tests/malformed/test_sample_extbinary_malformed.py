"""Damaged extensible binary sample profiles: a located FormatError, never a crash.

Inputs are ext-binary files llvm-profdata 22 wrote for the goldens
(``tests/golden/sample/expected``), cut or patched.  Where llvm-profdata
itself reads the damaged file without crashing, the compat test checks that
our first error line is its line.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import (
    DecompressionError,
    FormatError,
    MalformedError,
    SampleDiagnosticError,
    TruncatedError,
    UnrecognizedFormatError,
    UnsupportedVersionError,
)
from profdata.formats._binary import ByteReader
from profdata.formats.sample_extbinary import FLAG_COMPRESS, SecType, read_section_table
from profdata.formats.sample_registry import read_sample_bytes
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult
from tests.leb128 import uleb
from tests.malformed import extbinary_goldens
from tests.malformed.extbinary_goldens import GOLDENS, TABLE_AT, patch_entry

R22 = release(22)


def golden(name: str, case: str) -> bytes:
    return extbinary_goldens.golden(22, name, f"extbin-{case}")


def entry_index(data: bytes, kind: SecType) -> int:
    table = read_section_table(ByteReader(data))
    return next(i for i, e in enumerate(table) if e.type == kind and e.size)


def read(data: bytes) -> None:
    read_sample_bytes(data, "bad.extbin", R22)


@pytest.mark.parametrize(
    ("name", "case"),
    [("corpus-inline", "default"), ("corpus-cs", "all"), ("corpus-probe", "compress")],
)
def test_every_truncation_is_a_located_format_error(name: str, case: str) -> None:
    data = golden(name, case)
    read(data)
    for cut in range(9):  # the magic itself cut: no sample format claims the bytes
        with pytest.raises(UnrecognizedFormatError):
            read(data[:cut])
    # 19+ steps over the FuncOffsetTable without reading it: a cut there loses nothing
    read_end = max(
        e.offset + e.size
        for e in read_section_table(ByteReader(data))
        if e.size and (e.type != SecType.FUNC_OFFSET_TABLE or e.flags & FLAG_COMPRESS)
    )
    whole = read_sample_bytes(data, "bad.extbin", R22)
    for cut in range(9, len(data)):
        if cut >= read_end:
            assert read_sample_bytes(data[:cut], "bad.extbin", R22) == whole
            continue
        with pytest.raises(FormatError) as caught:
            read(data[:cut])
        assert caught.value.path == "bad.extbin"
        assert caught.value.location.offset is not None


def test_section_beyond_the_end_names_the_table_entry() -> None:
    data = golden("corpus-inline", "default")
    index = entry_index(data, SecType.LBR_PROFILE)
    bad = patch_entry(data, index, 2, len(data) + 100)
    with pytest.raises(MalformedError) as caught:
        read(bad)
    err = caught.value
    assert not isinstance(err, SampleDiagnosticError)  # --failure-mode=all skips the input
    assert err.headline() == "bad.extbin: Malformed sample profile data"
    assert err.location.offset == TABLE_AT + 32 * index + 16
    assert err.location.field == "section_offset"
    assert (
        err.location.found
        == f"{len(data) + 100} + {read_section_table(ByteReader(data))[index].size}"
    )


def corrupt_stream(data: bytes) -> bytes:
    """The compressed name table with a byte of its zlib stream flipped."""
    entry = read_section_table(ByteReader(data))[entry_index(data, SecType.NAME_TABLE)]
    at = entry.offset + entry.size - 6  # inside the deflate data, before the adler32
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


def test_bad_compression_is_an_uncompress_failure() -> None:
    bad = corrupt_stream(golden("corpus-inline", "compress"))
    with pytest.raises(DecompressionError) as caught:
        read(bad)
    assert caught.value.headline() == "bad.extbin: Uncompress failure"
    assert caught.value.location.field in ("compressed_data", "uncompressed_size")


def longer_name_table(data: bytes) -> bytes:
    """The name table's size grown by one byte: the section is not consumed exactly."""
    index = entry_index(data, SecType.NAME_TABLE)
    size = read_section_table(ByteReader(data))[index].size
    return patch_entry(data, index, 3, size + 1)


def test_section_not_consumed_exactly_is_malformed() -> None:
    data = golden("corpus-inline", "default")
    with pytest.raises(MalformedError) as caught:
        read(longer_name_table(data))
    err = caught.value
    assert not isinstance(err, SampleDiagnosticError)
    assert err.headline() == "bad.extbin: Malformed sample profile data"
    assert err.location.field == "section_size"
    entry = read_section_table(ByteReader(data))[entry_index(data, SecType.NAME_TABLE)]
    assert err.location.offset == entry.offset + entry.size
    assert (err.location.expected, err.location.found) == (
        f"{entry.size + 1} bytes",
        f"{entry.size} bytes read",
    )


def name_index_out_of_range(data: bytes) -> bytes:
    """The first profile's name index (after its head samples) set past the name table."""
    entry = read_section_table(ByteReader(data))[entry_index(data, SecType.LBR_PROFILE)]
    at = entry.offset + 1  # head samples of the first profile fit one byte in this file
    assert data[at] < 0x80
    return data[:at] + b"\x7f" + data[at + 1 :]


def test_name_index_past_the_table() -> None:
    data = golden("corpus-inline", "default")
    with pytest.raises(TruncatedError) as caught:
        read(name_index_out_of_range(data))
    err = caught.value
    assert err.headline() == "bad.extbin: Truncated function name table"
    assert err.location.field == "function_name_index"
    assert err.location.found == "127"


def oversized_with_bad_name_index(data: bytes) -> bytes:
    """The profile section's size run far past the end of the file, and its first name
    index past the name table: LLVM reads the section as far as the file goes and fails
    on the index, before it reads past its buffer."""
    bad = name_index_out_of_range(data)
    return patch_entry(bad, entry_index(data, SecType.LBR_PROFILE), 3, 1 << 40)


def test_a_section_running_past_the_end_fails_on_what_the_file_holds() -> None:
    data = golden("corpus-inline", "default")
    with pytest.raises(TruncatedError) as caught:
        read(oversized_with_bad_name_index(data))
    assert caught.value.headline() == "bad.extbin: Truncated function name table"
    assert caught.value.location.field == "function_name_index"
    index = entry_index(data, SecType.LBR_PROFILE)
    with pytest.raises(MalformedError) as beyond:  # nothing wrong inside the file
        read(patch_entry(data, index, 3, 1 << 40))
    assert beyond.value.location.field == "section_offset"
    assert beyond.value.location.offset == TABLE_AT + 32 * index + 16


def test_bad_version() -> None:
    data = golden("corpus-inline", "default")
    with pytest.raises(UnsupportedVersionError) as caught:
        read(data[:9] + b"\x66" + data[10:])
    assert caught.value.headline() == "bad.extbin: Unsupported sample profile format version"
    assert caught.value.location.offset == 9


def test_unknown_section_is_skipped() -> None:
    data = golden("corpus-inline", "default")
    index = entry_index(data, SecType.NAME_TABLE)
    # a profile whose symbol list entry turned into an unknown type still reads
    symbols = golden("corpus-inline", "symlist")
    sym_index = entry_index(symbols, SecType.PROFILE_SYMBOL_LIST)
    profile = read_sample_bytes(patch_entry(symbols, sym_index, 0, 99), "x", R22)
    assert profile.symbol_list is None
    assert index != sym_index


def cut_in_sections(data: bytes) -> bytes:
    return data[:300]


DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "cut": cut_in_sections,
    "bad-compression": corrupt_stream,
    "not-consumed": longer_name_table,
    "name-index": name_index_out_of_range,
    "oversized-name-index": oversized_with_bad_name_index,
}
SOURCES = {
    "cut": ("corpus-inline", "default"),
    "bad-compression": ("corpus-inline", "compress"),
    "not-consumed": ("corpus-inline", "default"),
    "name-index": ("corpus-inline", "default"),
    "oversized-name-index": ("corpus-inline", "default"),
}


@pytest.mark.compat
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_error_line_is_llvm_profdata_s(
    damage: str, tmp_path: Path, llvm_profdata: Callable[[int], Path]
) -> None:
    tool = llvm_profdata(22)
    bad = tmp_path / "bad.extbin"
    bad.write_bytes(DAMAGES[damage](golden(*SOURCES[damage])))
    proc = subprocess.run(
        [str(tool), "show", "--sample", str(bad)], capture_output=True, timeout=60
    )
    assert proc.returncode == 1
    with pytest.raises(FormatError) as caught:
        read_sample_bytes(bad.read_bytes(), str(bad), R22)
    first = proc.stderr.decode().splitlines()[0]
    assert first == f"error: {caught.value.headline()}"


@pytest.mark.compat
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_failure_mode_all_as_llvm_profdata(
    damage: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """Which damages only skip the input under ``--failure-mode=all`` (error codes) and
    which stop the merge (LLVM's diagnostics)."""
    tool = llvm_profdata(22)
    bad = tmp_path / "bad.extbin"
    bad.write_bytes(DAMAGES[damage](golden(*SOURCES[damage])))
    good = str(GOLDENS.parent / "inputs" / "corpus-flat.txt")
    args = ["merge", "--sample", "--text", "--failure-mode=all", good, str(bad), "-o", "-"]
    proc = subprocess.run([str(tool), *args], capture_output=True, timeout=60)
    got = run_profdata(*args)
    assert got.code == proc.returncode
    assert got.stdout == proc.stdout
    assert got.stderr.decode().splitlines()[0] == proc.stderr.decode().splitlines()[0]


def stated_size(data: bytes, size: int, kind: SecType = SecType.NAME_TABLE) -> bytes:
    """The compressed section ``kind`` (the name table) stating another uncompressed size
    (the sections after it moved to fit the longer ULEB)."""
    table = read_section_table(ByteReader(data))
    index = entry_index(data, kind)
    entry = table[index]
    cur = ByteReader(data)
    cur.seek(entry.offset)
    cur.uleb128("uncompressed_size")
    old = cur.pos - entry.offset
    new = uleb(size)
    grown = data[: entry.offset] + new + data[entry.offset + old :]
    delta = len(new) - old
    grown = patch_entry(grown, index, 3, entry.size + delta)
    for other, e in enumerate(table):
        if e.offset > entry.offset:
            grown = patch_entry(grown, other, 2, e.offset + delta)
    return grown


@pytest.mark.parametrize("size", [2**64 - 1, 2**63, 2**40, 0])
def test_a_stated_size_no_stream_reaches_is_an_uncompress_failure(size: int) -> None:
    """A zlib stream inflates at most 1032-fold: a larger stated size (up to 2**64-1, past
    what zlib can be asked for) fails as a short stream, without a giant buffer."""
    bad = stated_size(golden("corpus-inline", "compress"), size)
    with pytest.raises(DecompressionError) as caught:
        read(bad)
    assert caught.value.headline() == "bad.extbin: Uncompress failure"
    assert caught.value.location.field == "uncompressed_size"
    assert caught.value.location.expected == str(size)


def _true_size(data: bytes, kind: SecType) -> int:
    entry = read_section_table(ByteReader(data))[entry_index(data, kind)]
    cur = ByteReader(data)
    cur.seek(entry.offset)
    return cur.uleb128("uncompressed_size")


@pytest.mark.parametrize(
    "kind",
    [SecType.NAME_TABLE, SecType.LBR_PROFILE, SecType.FUNC_OFFSET_TABLE, SecType.PROFILE_SUMMARY],
    ids=lambda k: k.name,
)
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_a_stream_shorter_than_stated_leaves_zeros(
    rel: int,
    kind: SecType,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """``decompressSection`` inflates into a buffer of the stated size and keeps that size:
    a stream that ends sooner leaves the rest of the section as fresh (zeroed) memory,
    which the section's reader then reads -- a clean end for some sections, "Malformed"
    for those that must end where their data does (found by ``tools/fuzz_llvm.py``: a
    profile both tools read failed in profdata with "Uncompress failure")."""
    data = golden("corpus-inline", "compress")
    true = _true_size(data, kind)
    bad = tmp_path / "bad.extbin"
    for extra in (1, 8, 64, 1000):
        bad.write_bytes(stated_size(data, true + extra, kind))
        for args in (
            ["show", "--sample", str(bad)],
            ["show", "--sample", "--detailed-summary", str(bad)],
        ):
            same, real = compare_with_tool(
                llvm_profdata(rel), rel, args, run_profdata, tmp_path, first_error_line=True
            )
            assert real.returncode >= 0 and same, (extra, args)


def test_the_stated_size_helper_keeps_a_good_file_good() -> None:
    """``stated_size`` with the true size changes nothing the reader sees."""
    data = golden("corpus-inline", "compress")
    entry = read_section_table(ByteReader(data))[entry_index(data, SecType.NAME_TABLE)]
    cur = ByteReader(data)
    cur.seek(entry.offset)
    true_size = cur.uleb128("uncompressed_size")
    assert stated_size(data, true_size) == data
    read(stated_size(data, true_size))
