"""An indexed profile whose vtable name offset wraps below the file, against the real
llvm-profdata 19 and 22.

``readHeader`` adds ``VTableNamesOffset`` to the buffer's start and tests only that
the pointer to the names (after their length word) is not past the buffer's end.
An offset just below 2**64 wraps to before the start, passes, and has the length
read from memory the file does not hold; the names are used only where a vtable
target is named.  profdata refused every such file at open (``tools/fuzz_llvm.py``,
seed 5071).  It now opens them and fails only where the names are needed.  More
than a page below 2**64 the length lies in memory that may not be mapped (the real
tools crash, or not, as the buffer's address decides), and profdata still refuses
them.  The inputs are the golden indexed profiles of the branches program.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import TruncatedError
from profdata.formats import read_instr_bytes
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

PROGRAMS = Path(__file__).resolve().parents[1] / "golden" / "programs"
OFFSET_AT = 64  # VTableNamesOffset, the ninth header word of indexed versions 12 and 13
OPENED = (2**64 - 1, 2**64 - 8, 2**64 - 4096)
REFUSED = 2**64 - 4096 - 8


def _golden(rel: int) -> Path:
    return PROGRAMS / f"l{rel}-ir-branches" / "default.profdata"


def _wrapped(rel: int, offset: int, into: Path) -> Path:
    data = bytearray(_golden(rel).read_bytes())
    assert struct.unpack_from("<Q", data, 8)[0] & 0xFFFFFFFF in (12, 13)
    struct.pack_into("<Q", data, OFFSET_AT, offset)
    into.write_bytes(bytes(data))
    return into


@pytest.mark.parametrize("rel", [19, 22])
@pytest.mark.parametrize("offset", OPENED)
def test_opened_and_shown_as_the_golden(
    rel: int, offset: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    path = _wrapped(rel, offset, tmp_path / "wrapped.profdata")
    args = (f"--llvm-release={rel}", "show", "--all-functions", "--counts")
    shown, golden = run_profdata(*args, str(path)), run_profdata(*args, str(_golden(rel)))
    assert shown.code == 0 and shown.stdout == golden.stdout and b"Counters:" in shown.stdout
    merged = run_profdata(f"--llvm-release={rel}", "merge", str(path), "-o", str(tmp_path / "o"))
    assert merged.code == 0
    # the names themselves are memory LLVM does not own: asked for, they fail, located
    profile = read_instr_bytes(path.read_bytes(), str(path), release=release(rel))
    with pytest.raises(TruncatedError, match="vtable name section starts before the file"):
        assert profile.vtable_names is None


@pytest.mark.parametrize("rel", [19, 22])
def test_further_down_still_refused(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    path = _wrapped(rel, REFUSED, tmp_path / "wrapped.profdata")
    shown = run_profdata(f"--llvm-release={rel}", "show", str(path))
    assert shown.code == 1
    assert "the vtable name section starts past the end of the file" in shown.stderr.decode()


@pytest.mark.parametrize("rel", [19, 22])
def test_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """``show --text`` decodes the names, with a length read from memory before the
    file: what the real tool does then is that memory's (22 has crashed at every
    offset, in 2 of 5 runs at 2**64-1), so it is compared only where the real tool
    read the names and went on."""
    tool = llvm_profdata(rel)
    compared = 0
    for offset in OPENED:
        path = str(_wrapped(rel, offset, tmp_path / f"{offset:x}.profdata"))
        for args in (
            ["show", "--all-functions", "--counts", path],
            ["show", "--text", "--all-functions", path],
            ["merge", path, "-o", "@OUT"],
        ):
            same, real = compare_with_tool(
                tool, rel, args, run_profdata, tmp_path, first_error_line=True
            )
            if real.returncode != 0 and args[1] == "--text":
                continue
            assert real.returncode == 0 and same, (hex(offset), args)
            compared += 1
    assert compared >= 2 * len(OPENED)
