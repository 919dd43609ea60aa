"""An indexed profile whose header claims MemProf data it does not hold, on every command.

``IndexedInstrProfReader::readHeader`` reads the MemProf header at the offset
the file header gives as soon as the version word has the MemProf variant
flag (bit 62), so every command that opens such a file fails on it --
``show``, ``merge``, ``order``, and ``overlap`` (as "error in getting profile
count sums"), base or test.  profdata checked it in ``show`` and ``merge``
only; ``overlap`` and ``order`` read the records and went on (found by
``tools/fuzz_llvm.py``).  The inputs are golden files of the real tools with
the flag set, compared with the real llvm-profdata of the release that wrote
them.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

INDEXED = Path(__file__).resolve().parents[1] / "golden" / "indexed"
#: a golden file each release's llvm-profdata reads (16 and 19 crash with a segmentation
#: fault on their v9 and v12 files so flagged, where profdata reads the records)
FILES = {
    22: INDEXED / "v13-vpcalls.profdata",
}
MEMPROF_FLAG = 1 << 62  # VARIANT_MASK_MEMPROF


def _flagged(rel: int, into: Path) -> Path:
    data = bytearray(FILES[rel].read_bytes())
    (word,) = struct.unpack_from("<Q", data, 8)
    assert not word & MEMPROF_FLAG
    struct.pack_into("<Q", data, 8, word | MEMPROF_FLAG)
    into.write_bytes(bytes(data))
    return into


@pytest.mark.parametrize("rel", sorted(FILES))
def test_every_command_fails_on_the_memprof_header(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    bad = str(_flagged(rel, tmp_path / "flagged.profdata"))
    good = str(FILES[rel])
    commands = [
        ["show", bad],
        ["show", "--all-functions", "--counts", bad],
        ["merge", bad, "-o", "@OUT"],
        ["overlap", bad, good],
        ["overlap", good, bad],
        ["order", bad],
    ]
    for args in commands:
        same, real = compare_with_tool(
            tool, rel, args, run_profdata, tmp_path, first_error_line=True
        )
        assert real.returncode == 1, args
        assert same, args


@pytest.mark.parametrize("rel", sorted(FILES))
def test_the_undamaged_file_overlaps(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """The same commands pass on the file itself: the flag alone makes the failure."""
    good = str(FILES[rel])
    commands = [["overlap", good, good], ["show", good], ["order", good]]
    for args in commands:
        same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
        assert real.returncode == 0 and same, args
