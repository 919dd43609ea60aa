"""A bit set between the version and the variant flags of a raw or indexed header, and
an indexed version of 0.

``GET_VERSION`` of llvm-profdata 16 and older keeps every bit but the top 8,
so such a bit makes another version, which it refuses ("unsupported
instrumentation profile format version"); 19 and later keep the low 32 bits
and read the file as if the bit were not there (found by ``tools/fuzz_llvm.py``
on damaged goldens, checked with the real llvm-profdata 13-22).  profdata reads
with the selected release's mask: ``show`` fails, ``merge`` counts the input
as failed (``--failure-mode``) on every path, the array merge's included, and
19/22 read the file as its undamaged self.

An indexed version of 0 is no error of the version: llvm-profdata refuses only
versions above its own, and reads 0 with version 2's layout (so a header whose
version and hash type words are swapped fails at the hash type).

The inputs are golden files of the real tools with one bit set.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import UnsupportedVersionError
from profdata.formats import open_instr
from profdata.formats.version_word import VERSION_MASK, stray_version_bits
from profdata.model.kinds import ProfileKind
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
#: (golden file, the release whose llvm-profdata reads it)
FILES = {
    "raw14": (GOLDEN / "raw" / "inputs" / "binary-ids-vpcalls-l14__none.profraw", 14),
    "raw16": (GOLDEN / "raw" / "inputs" / "binary-ids-vpcalls-l16__none.profraw", 16),
    "raw19": (GOLDEN / "raw" / "inputs" / "binary-ids-vpcalls-l19__none.profraw", 19),
    "raw22": (GOLDEN / "raw" / "inputs" / "binary-ids-vpcalls-l22__none.profraw", 22),
    "indexed14": (GOLDEN / "indexed" / "v07-vpcalls.profdata", 14),
    "indexed16": (GOLDEN / "indexed" / "v09-cspgo.profdata", 16),
    "indexed19": (GOLDEN / "indexed" / "v12-vtable.profdata", 19),
    "indexed22": (GOLDEN / "indexed" / "v13-vpcalls.profdata", 22),
}
BITS = (32, 48, 54)
MASK_16 = 0x00FFFFFFFFFFFFFF


def _with_bit(name: str, bit: int) -> bytes:
    data = bytearray(FILES[name][0].read_bytes())
    (word,) = struct.unpack_from("<Q", data, 8)
    struct.pack_into("<Q", data, 8, word | 1 << bit)
    return bytes(data)


def _records(path: Path, rel: int) -> list[tuple[str, int, list[int]]]:
    profile = open_instr(path, release=release(rel))
    return [(r.name, r.hash, [int(c) for c in r.counts]) for r in profile.records]


def test_the_masks_of_the_releases() -> None:
    assert release(14).version_mask == release(16).version_mask == MASK_16
    assert release(19).version_mask == release(22).version_mask == VERSION_MASK


def test_the_detail_names_the_stray_bits() -> None:
    word = 0x0100010000000008
    detail = stray_version_bits(word, MASK_16)
    assert detail is not None
    assert "0x0100010000000008" in detail
    assert "(8)" in detail and "0x10000000000" in detail
    assert stray_version_bits(word, VERSION_MASK) is None  # 19+: no such bits
    assert stray_version_bits(0x0100000000000008, MASK_16) is None  # a flag only


@pytest.mark.parametrize("bit", BITS)
@pytest.mark.parametrize("name", sorted(FILES))
def test_16_refuses_19_reads(name: str, bit: int, tmp_path: Path) -> None:
    bad = tmp_path / "bad.prof"
    bad.write_bytes(_with_bit(name, bit))
    with pytest.raises(UnsupportedVersionError) as caught:
        open_instr(bad, release=release(16))
    (word,) = struct.unpack_from("<Q", bad.read_bytes(), 8)
    assert caught.value.location.offset == 8
    assert caught.value.location.found == str(word & MASK_16)
    assert str(caught.value.location.field).endswith("version")
    assert f"0x{word:016x}" in caught.value.detail
    assert _records(bad, 22) == _records(FILES[name][0], 22)


@pytest.mark.parametrize("name", sorted(FILES))
def test_show_fails_as_16_does(
    name: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    bad = tmp_path / "bad.prof"
    bad.write_bytes(_with_bit(name, 40))
    good = FILES[name][0]
    for rel in (14, 16):
        got = run_profdata(f"--llvm-release={rel}", "show", str(bad))
        assert got.code == 1
        first = got.stderr.decode().splitlines()[0]
        assert first == f"error: {bad}: unsupported instrumentation profile format version"
    for rel in (19, 22):
        damaged = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", str(bad))
        undamaged = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", str(good))
        if rel == 19 and name == "indexed22":  # version 13 is one profdata reads beyond 19
            assert damaged.code == 0
            continue
        assert (damaged.code, damaged.stdout) == (undamaged.code, undamaged.stdout)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("name", ["raw14", "raw16", "indexed14", "indexed16", "raw22"])
def test_merge_leaves_the_input_out(
    name: str, jobs: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """Among good copies (9: ``-j 2`` starts a worker process), on the array path a run
    whose header words differ from the first's is read in full, with the mask."""
    path, rel = FILES[name]
    good = [tmp_path / f"good{i}.prof" for i in range(8)]
    for file in good:
        file.write_bytes(path.read_bytes())
    bad = tmp_path / "bad.prof"
    bad.write_bytes(_with_bit(name, 40))
    inputs = [str(good[0]), str(bad), *map(str, good[1:])]
    merged, expected = tmp_path / "merged.profdata", tmp_path / "expected.profdata"
    got = run_profdata(
        f"--llvm-release={rel}", "merge", "-j", jobs, "--failure-mode=all", "-o", str(merged),
        *inputs,
    )  # fmt: skip
    assert got.code == 0
    refused = rel <= 16
    assert (b"unsupported instrumentation profile format version" in got.stderr) == refused
    kept = [str(file) for file in good] if refused else [str(bad), *map(str, good)]
    assert run_profdata(f"--llvm-release={rel}", "merge", "-o", str(expected), *kept).code == 0
    assert merged.read_bytes() == expected.read_bytes()


def _version_zero() -> bytes:
    """Version 1's golden with version 0: llvm-profdata reads it with version 2's layout
    (the header of 1-7, the records of 2+), which its version 1 records do not fit."""
    data = bytearray((GOLDEN / "indexed" / "v01-compat.profdata").read_bytes())
    struct.pack_into("<Q", data, 8, 0)
    return bytes(data)


def _version_and_hash_type_swapped(name: str) -> bytes:
    """The version word and the hash type swapped: version 0, hash type the version."""
    data = bytearray(FILES[name][0].read_bytes())
    version, hash_type = struct.unpack_from("<Q", data, 8)[0], struct.unpack_from("<Q", data, 24)[0]
    struct.pack_into("<Q", data, 8, hash_type)
    struct.pack_into("<Q", data, 24, version)
    return bytes(data)


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_version_zero_is_read_as_version_2(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    zero = tmp_path / "zero.profdata"
    zero.write_bytes(_version_zero())
    got = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", str(zero))
    assert got.code == 1
    empty = "malformed instrumentation profile data: profile data is empty"
    assert got.stderr.decode().splitlines()[0] == f"error: {zero}: {empty}"
    name = {14: "indexed14", 16: "indexed16", 19: "indexed19", 22: "indexed22"}[rel]
    swapped = tmp_path / "swapped.profdata"
    swapped.write_bytes(_version_and_hash_type_swapped(name))
    got = run_profdata(f"--llvm-release={rel}", "show", str(swapped))
    hash_type = "unsupported instrumentation profile hash type"
    assert got.stderr.decode().splitlines()[0] == f"error: {swapped}: {hash_type}"


@pytest.mark.compat
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_version_zero_as_llvm_profdata(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    files = {"zero": _version_zero()}
    files.update(
        (name, _version_and_hash_type_swapped(name)) for name in FILES if "indexed" in name
    )
    for label, data in files.items():
        path = tmp_path / f"{label}.profdata"
        path.write_bytes(data)
        argv = ["show", "--all-functions", "--counts", str(path)]
        assert compare_with_tool(tool, rel, argv, run_profdata, tmp_path, stderr="first")[0], label


def _temporal(name: str) -> bytes:
    """A raw golden with VARIANT_MASK_TEMPORAL_PROF (bit 63) set: 14 and 16 know no such
    flag, and read each function's first counter as a counter, not a timestamp."""
    data = bytearray(FILES[name][0].read_bytes())
    (word,) = struct.unpack_from("<Q", data, 8)
    struct.pack_into("<Q", data, 8, word | 1 << 63)
    return bytes(data)


@pytest.mark.parametrize("name", ["raw14", "raw16"])
def test_bit_63_is_no_flag_before_17(
    name: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    path, rel = FILES[name]
    temporal = tmp_path / "temporal.profraw"
    temporal.write_bytes(_temporal(name))
    assert _records(temporal, rel) == _records(path, rel)
    assert not open_instr(temporal, release=release(rel)).kind & ProfileKind.TEMPORAL
    # 19 and later take it as the flag: the first counter is the timestamp
    assert [len(c) for _, _, c in _records(temporal, 22)] == [
        max(len(c) - 1, 0) for _, _, c in _records(path, 22)
    ]
    for argv in (["show", "--all-functions", "--counts"], ["merge", "--text", "-o", "-"]):
        damaged = run_profdata(f"--llvm-release={rel}", *argv, str(temporal))
        undamaged = run_profdata(f"--llvm-release={rel}", *argv, str(path))
        assert damaged.stdout.replace(str(temporal).encode(), b"") == undamaged.stdout.replace(
            str(path).encode(), b""
        )


@pytest.mark.compat
@pytest.mark.parametrize("name", ["raw14", "raw16"])
def test_bit_63_as_llvm_profdata(
    name: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    path, rel = FILES[name]
    tool = llvm_profdata(rel)
    temporal = tmp_path / "temporal.profraw"
    temporal.write_bytes(_temporal(name))
    for argv in (
        ["show", "--all-functions", "--counts", str(temporal)],
        ["show", "--detailed-summary", str(temporal)],
        ["merge", "-o", "@OUT", str(temporal), str(path)],
    ):
        assert compare_with_tool(tool, rel, argv, run_profdata, tmp_path)[0], argv


@pytest.mark.compat
@pytest.mark.parametrize("name", sorted(FILES))
def test_as_llvm_profdata(
    name: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    path, rel = FILES[name]
    tool = llvm_profdata(rel)
    bad = tmp_path / "bad.prof"
    bad.write_bytes(_with_bit(name, 48))
    commands = (
        ["show", "--all-functions", "--counts", str(bad)],
        ["merge", "--failure-mode=all", "-o", "@OUT", str(path), str(bad), str(path)],
        ["merge", "--failure-mode=all", "-o", "@OUT", str(bad), str(path)],
    )
    for argv in commands:
        assert compare_with_tool(tool, rel, argv, run_profdata, tmp_path, stderr="first")[0], argv
