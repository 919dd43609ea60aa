"""An indexed summary whose NumSummaryFields has any of its top three bits set, against the
real llvm-profdata 14, 16, 19 and 22.

``readSummary`` sizes the summary with ``Summary::getSize``, whose counts are
``uint32_t``, and finds the cutoff entries ``NumSummaryFields`` words after the
fields: a 64-bit pointer step of ``8 * NumSummaryFields``, which drops the top
three bits.  So ``2**63 + 6`` fields read as 6, and every release reads the
file as if the bits were clear.  profdata refused the file: the summary "runs
past the end" (found by ``tools/fuzz_llvm.py``, a header word set to
``0x80000000``).  Counts that stay past ``2**32`` without those bits make LLVM
read wild memory and crash; they remain located errors here.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import MalformedError
from profdata.formats.indexed import read
from profdata.formats.indexed_layout import layout
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "indexed"
FILES = {14: "v07-vpcalls", 16: "v09-cspgo", 19: "v12-temporal", 22: "v13-vpcalls"}


def _fields_at(data: bytes | bytearray) -> int:
    """Where NumSummaryFields is: the summary follows the header of the file's version."""
    (version,) = struct.unpack_from("<Q", data, 8)
    return layout(version & 0xFFFFFFFF).header_size


def _with_fields(name: str, fields: int) -> bytes:
    data = bytearray((GOLDEN / f"{name}.profdata").read_bytes())
    at = _fields_at(data)
    (stated,) = struct.unpack_from("<Q", data, at)
    assert stated == 6  # the golden's own count, so the patch keeps its low bits
    struct.pack_into("<Q", data, at, fields)
    return bytes(data)


@pytest.mark.parametrize("top", [1 << 63, 1 << 62, 1 << 61, 7 << 61])
@pytest.mark.parametrize("name", sorted(set(FILES.values())))
def test_the_top_bits_of_the_field_count_are_dropped(name: str, top: int) -> None:
    plain = read(memoryview(_with_fields(name, 6)))
    patched = read(memoryview(_with_fields(name, top | 6)))
    assert patched.summary == plain.summary
    assert patched.summary.num_functions > 0 and patched.summary.detailed
    assert patched.cs_summary == plain.cs_summary
    pairs = zip(patched.records, plain.records, strict=True)
    assert all((a.name, a.counts.tolist()) == (b.name, b.counts.tolist()) for a, b in pairs)


@pytest.mark.parametrize("fields", [(1 << 32) | 6, (1 << 60) | 6])
def test_other_wide_field_counts_still_fail_located(fields: int) -> None:
    data = _with_fields("v13-vpcalls", fields)
    with pytest.raises(MalformedError) as caught:
        read(memoryview(data), "wide.profdata")
    assert caught.value.location.field == "summary.num_cutoff_entries"
    assert caught.value.location.offset == _fields_at(data)


@pytest.mark.parametrize("rel", sorted(FILES))
def test_commands_match_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    path = tmp_path / "wide.profdata"
    path.write_bytes(_with_fields(FILES[rel], (1 << 63) | 6))
    commands = [
        ["show", "--detailed-summary", str(path)],
        ["show", "--all-functions", "--counts", "--ic-targets", str(path)],
        ["merge", str(path), "-o", "@OUT"],
    ]
    for args in commands:
        same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
        assert real.returncode == 0 and same, args
