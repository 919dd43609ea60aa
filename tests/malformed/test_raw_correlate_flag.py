"""A raw header whose version word carries ``VARIANT_MASK_DBG_CORRELATE`` (bit 59), read
without ``--debug-info``, against the real llvm-profdata 14, 16, 19 and 22.

14 to 16 refuse it in ``readHeader`` ("debug info for correlation is required") whatever
the profile holds; 19 and 22 read the data records it has (only a profile without them
needs the binary).  profdata read it under every release (``tools/fuzz_llvm.py``, stop
52: the flag bit set by damage in a 16 merge input).

With ``--debug-info`` too, 14 to 16 go by the flag alone: a header without it is refused
("debug info for correlation is not necessary") even when it holds no data records, and
one with it takes the binary's records and names whatever sizes and deltas the header
states (``readHeader`` only asserted them to be 0), the counters where the header puts
them.  profdata went by the header's sizes, as 19 does (stop 53).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import CorrelationMismatchError
from profdata.formats import read_instr_bytes
from profdata.formats.correlate import load_correlation
from profdata.formats.correlate_data import Correlation, CorrelatorKind
from profdata.formats.raw import read as read_raw
from profdata.releases import release
from tests.compat.tools import differing
from tests.conftest import CliResult
from tests.malformed.header_words import with_bit, with_word

PROGRAMS = Path(__file__).resolve().parents[1] / "golden" / "programs"


def _flagged(rel: int) -> tuple[bytes, bytes]:
    """A golden raw run of ``rel`` as written, and with bit 59 of its version word set."""
    data = (PROGRAMS / f"l{rel}-ir-vp" / "default.profraw").read_bytes()
    return data, with_bit(data, 59)


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


# -- with --debug-info: up to 17 the flag decides, from 19 what the file holds --------------

CORRELATE = Path(__file__).resolve().parents[1] / "golden" / "correlate"
BINARY = CORRELATE / "l14-ir-dbg"  # built by clang 14 with -mllvm -debug-info-correlate


def _lightweight(word: int | None = None, value: int = 0) -> bytes:
    """The golden lightweight run of clang 14, with header word ``word`` set to ``value``."""
    data = (CORRELATE / "l14-ir-dbg.1.profraw").read_bytes()
    return data if word is None else with_word(data, word, value)


def _correlation() -> Correlation:
    return load_correlation(BINARY, CorrelatorKind.DEBUG_INFO, binary_wording=False)


def _correlated(data: bytes, rel: int) -> list[tuple[str, list[int]]]:
    profile = read_raw(data, "run.profraw", correlation=_correlation(), release=release(rel))
    return sorted((r.name, r.counts.tolist()) for r in profile.records)


@pytest.mark.parametrize("rel", [14, 16])
def test_up_to_16_debug_info_needs_the_flag(rel: int) -> None:
    data = bytearray(_lightweight())
    data[15] &= ~0x08  # the data records are still the binary's: only the flag is gone
    with pytest.raises(CorrelationMismatchError) as caught:
        read_raw(bytes(data), "noflag.profraw", correlation=_correlation(), release=release(rel))
    assert caught.value.llvm_message == "debug info for correlation is not necessary"
    assert caught.value.location.offset == 8


@pytest.mark.parametrize("rel", [14, 16])
def test_up_to_16_the_binary_wins_over_the_header_sizes(rel: int) -> None:
    # NamesDelta is not 0: 19 refuses such a header (unexpected_correlation_info); 14 and
    # 16 only asserted it, and read the binary's records
    assert _correlated(_lightweight(9, 0x1234), rel) == _correlated(_lightweight(), rel)
    assert ("main", [1, 1, 0]) in _correlated(_lightweight(), rel)


@pytest.mark.parametrize("rel", [14, 16])
def test_debug_info_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    noflag = bytearray(_lightweight())
    noflag[15] &= ~0x08
    own = bytearray((PROGRAMS / f"l{rel}-ir-vp" / "default.profraw").read_bytes())
    own[15] |= 0x08  # its own data records, which 14 and 16 pass over for the binary's
    files = {
        "noflag": bytes(noflag),
        "own": bytes(own),
        "names-delta": _lightweight(9, 0x1234),
        "counters-delta": _lightweight(8, -8),  # each record's counters one further on
        "good": _lightweight(),
    }
    commands = []
    for name, data in files.items():
        (tmp_path / f"{name}.profraw").write_bytes(data)
        path = str(tmp_path / f"{name}.profraw")
        commands.append(["merge", f"--debug-info={BINARY}", "-o", "@OUT", path])
    tool = llvm_profdata(rel)
    assert not differing(tool, rel, commands, run_profdata, tmp_path, stderr="first")
