"""``show`` of indexed profiles whose hash table LLVM's walk reads past what a writer
makes, against the real llvm-profdata 14, 16, 19 and 22.

``OnDiskIterableChainedHashTable``'s iterator reads a bucket's 16-bit item count
only when the previous count ran out; a count of 0 is counted down past 0 (its
``offset_type`` wraps), so no count is read again and each later count is taken
as the first bytes of an item.  The table knows no end of its payload: an item
whose data length reaches past it is read from the bytes behind it (the table
header and bucket offsets).  profdata reads both the same way, bounded by the
end of the file.  Found by ``tools/fuzz_llvm.py``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from profdata.formats import read_instr_bytes
from profdata.formats.indexed_write import encode_indexed
from profdata.model.instr import InstrProfile, InstrRecord
from profdata.model.kinds import ProfileKind
from profdata.releases import release
from tests.compat.tools import compare_with_tool, run_tool
from tests.conftest import CliResult


def _indexed(rel: int) -> bytes:
    records = [
        InstrRecord(f"fn_{i}", 1000 + i, np.arange(1, i % 3 + 2, dtype=np.uint64) * (i + 1))
        for i in range(40)
    ]
    profile = InstrProfile(kind=ProfileKind.IR, records=records)
    return b"".join(bytes(c) for c in encode_indexed(profile, release=release(rel)))


def _bucket_starts(data: bytes, rel: int) -> list[int]:
    table = read_instr_bytes(data, release=release(rel)).table  # type: ignore[attr-defined]
    return sorted(int(offset) for offset in table._bucket_offsets if offset)


def _zero_count(data: bytes, rel: int, which: int) -> bytes:
    broken = bytearray(data)
    struct.pack_into("<H", broken, _bucket_starts(data, rel)[which], 0)
    return bytes(broken)


def _long_last_item(data: bytes, rel: int, extra: int) -> bytes:
    """The last item's data length reaching ``extra`` bytes into the table behind it."""
    table = read_instr_bytes(data, release=release(rel)).table  # type: ignore[attr-defined]
    last = list(table.items())[-1]
    broken = bytearray(data)
    struct.pack_into("<Q", broken, last.key_offset - 8, last.data_length + extra)
    return bytes(broken)


CASES = {
    "last-bucket-empty": lambda data, rel: _zero_count(data, rel, -1),
    "last-item-into-table-8": lambda data, rel: _long_last_item(data, rel, 8),
    "last-item-into-table-24": lambda data, rel: _long_last_item(data, rel, 24),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_same_as_llvm(
    rel: int,
    case: str,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    path = tmp_path / "walk.profdata"
    path.write_bytes(CASES[case](_indexed(rel), rel))
    tool = llvm_profdata(rel)
    for options in ((), ("--all-functions", "--counts"), ("--text", "--all-functions")):
        args = ["show", *options, str(path)]
        same, real = compare_with_tool(
            tool, rel, args, run_profdata, tmp_path, first_error_line=True
        )
        assert same, (args, real.returncode, real.stderr[:200])


@pytest.mark.parametrize("which", [0, 7])
@pytest.mark.parametrize("rel", [14, 22])
def test_where_llvm_reads_past_the_file(
    rel: int,
    which: int,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    """An emptied bucket with more behind it: LLVM takes the next count for part of an
    item, reads a wild length and crashes; profdata names the field."""
    path = tmp_path / "walk.profdata"
    path.write_bytes(_zero_count(_indexed(rel), rel, which))
    real = run_tool(llvm_profdata(rel), ["show", "--all-functions", str(path)])
    assert real.returncode < 0 or real.returncode > 128  # a signal
    got = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", str(path))
    assert got.code == 1
    assert b"field hash_table." in got.stderr and b"past the end of the file" in got.stderr
