"""An indexed record whose value-profile data says it is 0 bytes long, against the real
llvm-profdata 14, 16, 19 and 22.

``ValueProfData::getValueProfData`` allocates ``TotalSize`` bytes, constructs a
zeroed header in them, and copies ``TotalSize`` bytes of the file over it: for
0 nothing is copied, so the header says no kinds whatever the file holds, the
integrity check passes, and ``ReadData`` moves on by 0 bytes -- the next record
of the item starts where the value data did.  profdata refused every size
under 8 (found by ``tools/fuzz_llvm.py``: two swapped words gave a record no
counters and a value size of 0, which every release reads as two records).
The input is a golden file of the real llvm-profdata 14 with those two words
swapped; ``merge`` of it crashes every release (a record with no counters), so
only ``show`` and ``overlap`` are compared.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats import open_instr
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "indexed" / "v07-cspgo.profdata"
SWAPPED = (288, 1264)  # the record's counter count, and a word of zeros after it


def _swapped(into: Path) -> Path:
    data = bytearray(GOLDEN.read_bytes())
    a, b = SWAPPED
    data[a : a + 8], data[b : b + 8] = data[b : b + 8], data[a : a + 8]
    into.write_bytes(bytes(data))
    return into


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_a_zero_value_size_moves_on_by_nothing(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    swapped = str(_swapped(tmp_path / "swapped.profdata"))
    commands = [
        ["show", "--all-functions", "--counts", swapped],
        ["show", "--text", "--all-functions", swapped],
        ["show", "--function=combine", "--counts", swapped],
        ["show", "--detailed-summary", swapped],
        ["overlap", swapped, str(GOLDEN)],
    ]
    for args in commands:
        same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
        assert real.returncode == 0 and same, args


def test_the_item_reads_as_two_records(tmp_path: Path) -> None:
    swapped = _swapped(tmp_path / "swapped.profdata")
    records = [r for r in open_instr(swapped, release=release(22)).records if r.name == "combine"]
    assert [(r.hash, len(r.counts)) for r in records][-2:] == [(0x2894FFFFFFF, 0), (0, 0)]
