"""A value-profile record of kind 2 (vtable targets, LLVM 18+) in a raw or indexed profile,
against the real llvm-profdata 14, 16, 19 and 22.

``ValueProfData::checkIntegrity`` refuses a kind above ``IPVK_Last``, which
is 1 (memory-operation sizes) before LLVM 18: there the raw reader fails
("value kind is invalid") and the indexed one drops the item ("profile data
is empty"), while 19 and 22 read the record as vtable targets.  profdata
checked every release against the newest ``IPVK_Last`` (found by
``tools/fuzz_llvm.py``).  The inputs are golden files of the real tools with
the first value record's kind set to 2.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats import read_instr_bytes
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
RAW = GOLDEN / "raw" / "inputs" / "binary-ids-vpcalls-l14__none.profraw"  # version 8
INDEXED = GOLDEN / "indexed" / "v07-vpcalls.profdata"


def _raw_kind_two(into: Path) -> Path:
    data = bytearray(RAW.read_bytes())
    # version 8, 64-bit: 11 header words, 48-byte data records, 8-byte counters
    (_, version, ids, num_data, pad_before, num_counters, pad_after, names) = struct.unpack_from(
        "<8Q", data, 0
    )
    assert version & 0xFFFFFFFF == 8
    start = 88 + ids + 48 * num_data + pad_before + 8 * num_counters + pad_after
    start += names + -names % 8
    total, num_kinds = struct.unpack_from("<II", data, start)
    assert total % 8 == 0 and num_kinds in (1, 2)  # the first value blob
    assert struct.unpack_from("<I", data, start + 8)[0] == 0  # indirect calls
    struct.pack_into("<I", data, start + 8, 2)
    into.write_bytes(bytes(data))
    return into


def _indexed_kind_two(into: Path) -> Path:
    data = bytearray(INDEXED.read_bytes())
    profile = read_instr_bytes(bytes(data), release=release(14))
    for item in profile.table.items():  # type: ignore[attr-defined]
        pos = item.data_offset
        (num_counts,) = struct.unpack_from("<Q", data, pos + 8)
        value = pos + 16 + 8 * num_counts
        if struct.unpack_from("<I", data, value)[0] > 8:  # a record with value data
            struct.pack_into("<I", data, value + 8, 2)
            into.write_bytes(bytes(data))
            return into
    raise AssertionError("no record with value data")


@pytest.mark.parametrize("rel", [14, 16])
def test_raw_kind_two_is_invalid_before_18(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    bad = str(_raw_kind_two(tmp_path / "kind2.profraw"))
    for args in (
        ["show", "--all-functions", "--ic-targets", bad],
        ["merge", bad, "-o", "@OUT"],
        ["merge", "--failure-mode=all", str(RAW), bad, "-o", "@OUT"],
    ):
        same, real = compare_with_tool(
            llvm_profdata(rel), rel, args, run_profdata, tmp_path, first_error_line=True
        )
        assert b"value kind is invalid" in real.stderr, args  # a warning with a good input
        assert same, args


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_indexed_kind_two_per_release(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    bad = str(_indexed_kind_two(tmp_path / "kind2.profdata"))
    for args in (
        ["show", "--all-functions", "--ic-targets", bad],
        ["show", bad],
        ["merge", bad, "-o", "@OUT"],
        ["merge", "--text", bad, "-o", "@OUT"],
    ):
        same, real = compare_with_tool(
            llvm_profdata(rel), rel, args, run_profdata, tmp_path, first_error_line=True
        )
        assert (real.returncode == 1) == (rel < 18), args
        assert same, args
