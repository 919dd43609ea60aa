"""Raw headers whose counts make ``readHeader``'s sizes wrap at 64 bits, against the real
llvm-profdata 14, 16, 19 and 22.

``readHeader`` multiplies each count by its item size and adds the sizes into offsets in
64-bit integers, and tests one thing: that the value data start inside the file.  A count
of 2**58 more 64-byte data records (2**60 more 48-byte ones) takes no more bytes, so the
file reads as if it were not damaged; a count of 2**63, or of 2**64 - 1, leaves the data
region empty or 64 bytes long backwards, so the name table is read from where the shifted
offsets put it and fails on what it finds there (a zlib chunk that does not
decompress).  profdata refused all of them at the
header ("file header is corrupt"), where the real tools read or fail later (found by
``tools/fuzz_llvm.py``, stop 53: 10 cases of one campaign).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import DecompressionError, HeaderCorruptError
from profdata.formats import read_instr_bytes
from profdata.releases import release
from tests.compat.tools import differing
from tests.conftest import CliResult
from tests.malformed.header_words import with_word, word

PROGRAMS = Path(__file__).resolve().parents[1] / "golden" / "programs"
NUM_DATA, NUM_COUNTERS = 3, 5  # header words (raw versions 8 to 10)
#: the data-record count that takes no bytes: 2**64 / gcd(record size, 2**64)
DATA_WRAP = {14: 1 << 60, 16: 1 << 60, 19: 1 << 58, 22: 1 << 58}


def _run(rel: int) -> bytes:
    return (PROGRAMS / f"l{rel}-ir-vp" / "default.profraw").read_bytes()


def _damaged(rel: int) -> dict[str, bytes]:
    data = _run(rel)
    return {
        "data-wraps": with_word(data, NUM_DATA, word(data, NUM_DATA) + DATA_WRAP[rel]),
        "counters-wrap": with_word(data, NUM_COUNTERS, word(data, NUM_COUNTERS) + (1 << 61)),
        "data-2**63": with_word(data, NUM_DATA, 1 << 63),
        "data-all-ones": with_word(data, NUM_DATA, -1),
    }


def _records(data: bytes, rel: int) -> list[tuple[str, int, list[int]]]:
    profile = read_instr_bytes(data, "run.profraw", release=release(rel))
    return [(r.name, r.hash, r.counts.tolist()) for r in profile.records]


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_counts_that_wrap_to_the_same_sizes_read_as_the_run(rel: int) -> None:
    damaged = _damaged(rel)
    assert _records(damaged["data-wraps"], rel) == _records(_run(rel), rel)
    assert _records(damaged["counters-wrap"], rel) == _records(_run(rel), rel)
    assert len(_records(_run(rel), rel)) == word(_run(rel), NUM_DATA)


@pytest.mark.parametrize("rel", [14, 19])
def test_counts_that_shift_the_names_fail_at_the_names(rel: int) -> None:
    for name in ("data-2**63", "data-all-ones"):
        with pytest.raises(DecompressionError) as caught:
            read_instr_bytes(_damaged(rel)[name], "run.profraw", release=release(rel))
        assert (caught.value.location.field or "").startswith("names")


def test_a_region_the_sums_put_outside_the_file_is_refused() -> None:
    data = _run(22)
    # 2**64 - 8 bytes of padding before the counters: they would start 8 bytes before the
    # data records' end, but the value data would start past the file's end, which
    # readHeader refuses; 2**63 + 8 puts them past the start of memory instead
    padding = 4  # PaddingBytesBeforeCounters
    with pytest.raises(HeaderCorruptError):
        read_instr_bytes(with_word(data, padding, (1 << 63) + 8), "run.profraw")
    # 4096 bytes back: the value data would start before the file (the real 22 segfaults)
    with pytest.raises(HeaderCorruptError, match="before the start of the file"):
        read_instr_bytes(with_word(data, padding, -4096), "run.profraw")


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_wrapped_sizes_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    good = tmp_path / "good.profraw"
    good.write_bytes(_run(rel))
    commands = []
    for name, data in _damaged(rel).items():
        if rel == 14 and name in ("data-2**63", "data-all-ones"):
            continue  # 14 allocates the shifted name chunk's 366 GB up front and aborts
        path = tmp_path / f"{name}.profraw"
        path.write_bytes(data)
        commands += [
            ["show", "--all-functions", "--counts", str(path)],
            ["merge", "-o", "@OUT", str(good), str(path), str(path)],
        ]
    tool = llvm_profdata(rel)
    assert not differing(tool, rel, commands, run_profdata, tmp_path, stderr="first")
