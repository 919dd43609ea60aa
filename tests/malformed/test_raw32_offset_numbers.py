"""The numbers in llvm-profdata's "counter offset ..." and "bitmap offset ..." errors for
32-bit raw profiles, against the real llvm-profdata 14, 16, 19 and 22.

``readRawCounts`` computes ``ptrdiff_t Offset = swap(Data->CounterPtr) -
CountersDelta``: a 32-bit pointer less the 64-bit delta (which drops by the
record size per record), in 64 bits.  profdata reads 32-bit offsets wrapped in
32 bits (so a profile whose data precede its counters reads, where LLVM's
64-bit difference fails), and so named other numbers for a damaged record:
"counter offset 384 is greater than ..." where LLVM says "counter offset
-4294966912 is negative" (found by ``tools/fuzz_llvm.py``).  A record that
fails now fails with LLVM's numbers.  The inputs are 32-bit golden raw
profiles of the real clang of each release with one record's pointer set to
0 or to 0xFFFFFFFF.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats.raw_layout import raw_layout
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

RAW = Path(__file__).resolve().parents[1] / "golden" / "raw" / "inputs"
VERSIONS = {14: 8, 16: 8, 19: 10, 22: 10}


def _with_pointer(rel: int, field: str, record: int, value: int, into: Path) -> Path:
    data = bytearray((RAW / f"m32-vpcalls-l{rel}__run1.profraw").read_bytes())
    layout = raw_layout(VERSIONS[rel], 4, "<")
    (binary_ids,) = struct.unpack_from("<Q", data, 16)
    num_data = struct.unpack_from("<Q", data, 24)[0]
    record %= num_data
    fields = layout.data_dtype.fields
    assert fields is not None
    offset = fields[field][1]
    at = layout.header_size + binary_ids + layout.data_dtype.itemsize * record + offset
    struct.pack_into("<I", data, at, value)
    into.write_bytes(bytes(data))
    return into


CASES = [
    ("counter_ptr", 1, 0),
    ("counter_ptr", 3, 0),
    ("counter_ptr", -1, 0),
    ("counter_ptr", 2, 0xFFFFFFFF),
    ("counter_ptr", 0, 0x7FFFFFFF),
]
BITMAP_CASES = [("bitmap_ptr", 1, 0), ("bitmap_ptr", -1, 0xFFFFFFFF)]


@pytest.mark.parametrize("rel", sorted(VERSIONS))
def test_offset_errors_name_llvms_numbers(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    cases = CASES + (BITMAP_CASES if VERSIONS[rel] >= 9 else [])
    failed = 0
    for field, record, value in cases:
        bad = str(_with_pointer(rel, field, record, value, tmp_path / "bad.profraw"))
        for args in (["show", "--all-functions", "--counts", bad], ["merge", bad, "-o", "@OUT"]):
            same, real = compare_with_tool(
                llvm_profdata(rel), rel, args, run_profdata, tmp_path, first_error_line=True
            )
            assert same, (field, record, value, args)
            failed += b"offset" in real.stderr
    assert failed >= 6  # the numbers were compared, not only exit codes
