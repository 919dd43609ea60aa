"""A 32-bit raw profile whose ``CountersDelta`` has a bit above the low 32.

A 32-bit runtime writes the delta zero-extended, and profdata locates a
record's counters modulo 2**32 (``instr-raw.md`` §7.1: right also for an
unusual section order).  llvm-profdata subtracts in 64 bits, so a damaged high
half makes every offset hugely negative, and every release 14-22 refuses the file
("counter offset -17179869184 is negative"); profdata read it as if the bit
were not there (found by ``tools/fuzz_llvm.py``).  Now such a delta is taken in 64
bits as LLVM takes it; a delta inside the low 32 bits keeps the wrap.

The inputs are the real tools' 32-bit goldens (``-m32``) with one bit added.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import MalformedError
from profdata.formats import open_instr
from profdata.formats.raw_layout import raw_layout
from tests.compat.tools import compare_with_tool
from tests.conftest import GOLDEN, CliResult

RELEASES = (14, 16, 19, 22)
#: bit added to the delta -> LLVM's offset of the first record's counters
ADDED = {34: -(1 << 34), 20: -(1 << 20)}


def _golden(rel: int) -> Path:
    return GOLDEN / "raw" / "inputs" / f"m32-vpcalls-l{rel}__run1.profraw"


def _with_delta_bit(rel: int, bit: int) -> bytes:
    data = bytearray(_golden(rel).read_bytes())
    (word,) = struct.unpack_from("<Q", data, 8)
    at = 8 * raw_layout(word & 0xFFFFFFFF, 4, "<").header_fields.index("counters_delta")
    (delta,) = struct.unpack_from("<Q", data, at)
    struct.pack_into("<Q", data, at, delta + (1 << bit))
    return bytes(data)


@pytest.mark.parametrize("bit", sorted(ADDED))
@pytest.mark.parametrize("rel", RELEASES)
def test_the_offset_is_llvms(rel: int, bit: int, tmp_path: Path) -> None:
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(_with_delta_bit(rel, bit))
    with pytest.raises(MalformedError) as caught:
        open_instr(bad)
    assert caught.value.llvm_message.endswith(f"counter offset {ADDED[bit]} is negative")


@pytest.mark.parametrize("rel", RELEASES)
def test_the_undamaged_file_reads(rel: int) -> None:
    profile = open_instr(_golden(rel))
    assert len(profile.records) > 0
    assert all(len(r.counts) > 0 for r in profile.records)


@pytest.mark.compat
@pytest.mark.parametrize("bit", sorted(ADDED))
@pytest.mark.parametrize("rel", RELEASES)
def test_as_llvm_profdata(
    rel: int,
    bit: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(_with_delta_bit(rel, bit))
    for argv in (
        ["show", "--all-functions", "--counts", str(bad)],
        ["merge", "--text", "-o", "@OUT", str(bad), str(_golden(rel))],
    ):
        assert compare_with_tool(tool, rel, argv, run_profdata, tmp_path, stderr="first")[0], argv
