"""A raw header whose version word carries ``VARIANT_MASK_DBG_CORRELATE`` (bit 59), read
without ``--debug-info``, against the real llvm-profdata 14, 16, 19 and 22.

14 to 16 refuse it in ``readHeader`` ("debug info for correlation is required") whatever
the profile holds; 19 and 22 read the data records it has (only a profile without them
needs the binary).  profdata read it under every release (``tools/fuzz_llvm.py``, stop
52: the flag bit set by damage in a 16 merge input).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import CorrelationMismatchError
from profdata.formats import read_instr_bytes
from profdata.releases import release
from tests.compat.tools import differing
from tests.conftest import CliResult

PROGRAMS = Path(__file__).resolve().parents[1] / "golden" / "programs"


def _flagged(rel: int) -> tuple[bytes, bytes]:
    """A golden raw run of ``rel`` as written, and with bit 59 of its version word set."""
    data = (PROGRAMS / f"l{rel}-ir-vp" / "default.profraw").read_bytes()
    flagged = bytearray(data)
    flagged[15] |= 0x08  # little-endian: bit 59 is in the word's last byte
    return data, bytes(flagged)


@pytest.mark.parametrize("rel", [14, 16])
def test_up_to_16_the_flag_needs_the_binary(rel: int) -> None:
    _, flagged = _flagged(rel)
    with pytest.raises(CorrelationMismatchError) as caught:
        read_instr_bytes(flagged, "flagged.profraw", release=release(rel))
    error = caught.value.for_release(release(rel))
    assert "debug info for correlation is required" in str(error.llvm_message)
    assert caught.value.location.offset == 8
    assert "VARIANT_MASK_DBG_CORRELATE" in caught.value.detail


@pytest.mark.parametrize("rel", [19, 22])
def test_from_19_the_data_records_are_read(rel: int) -> None:
    data, flagged = _flagged(rel)
    whole = read_instr_bytes(data, "run.profraw", release=release(rel))
    read = read_instr_bytes(flagged, "flagged.profraw", release=release(rel))
    assert [(r.name, r.hash, r.counts.tolist()) for r in read.records] == [
        (r.name, r.hash, r.counts.tolist()) for r in whole.records
    ]


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_the_flag_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    data, flagged = _flagged(rel)
    path, good = tmp_path / "flagged.profraw", tmp_path / "good.profraw"
    path.write_bytes(flagged)
    good.write_bytes(data)
    commands = [
        ["show", "--all-functions", "--counts", str(path)],
        ["merge", "-o", "@OUT", str(path)],
        ["merge", "-o", "@OUT", str(good), str(path)],
        ["merge", "--failure-mode=all", "-o", "@OUT", str(good), str(path)],
    ]
    tool = llvm_profdata(rel)
    assert not differing(tool, rel, commands, run_profdata, tmp_path, first_error_line=True)
