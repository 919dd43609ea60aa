"""Raw profiles whose NumCounters wraps the counters section below zero, against the real
llvm-profdata 14, 16, 19 and 22.

``readHeader`` multiplies and sums the sizes at 64 bits and tests only that the value
data begin inside the file.  A count of ``2**64 - k`` gives the counters ``-8k`` bytes:
the sections after them move back, the names are decoded from wherever that puts
them, and ``CountersEnd - CountersStart`` stays negative.  ``readRawCounts`` then fails
the first record against it: "counter offset 0 is greater than the maximum counter
offset -8k-1".  profdata refused every such file as a corrupt header.

Which ``k`` reach that test depends on the bytes the names land on: the cases below
are those where the moved names still decode inside the file (a larger ``k`` puts them
or the value data before the file's start, where LLVM reads memory it does not own,
and profdata still refuses the header).  The inputs are the golden raw profiles of the
branches and value-profiling programs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats.raw_layout import raw_layout
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult
from tests.malformed.header_words import with_word, word

PROGRAMS = Path(__file__).resolve().parents[1] / "golden" / "programs"
MALFORMED = "malformed instrumentation profile data"

#: (release whose golden is damaged, program, k, releases that read the result); each
#: was checked against the real tools of those releases
CASES = [
    (14, "ir-branches", 1, (14, 16)),
    (14, "ir-vp", 1, (14, 16)),
    (16, "ir-branches", 1, (14, 16)),
    (16, "ir-vp", 1, (14, 16)),
    (19, "ir-branches", 2, (19,)),
    (19, "ir-vp", 2, (19, 22)),
    (22, "ir-branches", 2, (19,)),
    (22, "ir-vp", 2, (19, 22)),
]
READS = [(made, prog, k, rel) for made, prog, k, rels in CASES for rel in rels]


def _wrapped(made: int, program: str, k: int, into: Path) -> Path:
    """The golden with NumCounters set to ``2**64 - k``."""
    data = (PROGRAMS / f"l{made}-{program}" / "default.profraw").read_bytes()
    fields = raw_layout(word(data, 1) & 0xFFFFFFFF, 8, "<").header_fields
    into.write_bytes(with_word(data, fields.index("num_counters"), -k))
    return into


@pytest.mark.parametrize(("made", "program", "k", "rel"), READS)
def test_every_record_fails_against_the_negative_size(
    made: int, program: str, k: int, rel: int, tmp_path: Path,
    run_profdata: Callable[..., CliResult],
) -> None:  # fmt: skip
    path = _wrapped(made, program, k, tmp_path / "counters.profraw")
    expected = (
        f"error: {path}: {MALFORMED}: counter offset 0 is greater than the maximum "
        f"counter offset {-8 * k - 1}"
    )
    shown = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", "--counts", str(path))
    assert shown.code == 1 and shown.stdout == b""
    assert shown.stderr.decode().splitlines()[0] == expected
    out = tmp_path / "out.profdata"
    merged = run_profdata(f"--llvm-release={rel}", "merge", str(path), "-o", str(out))
    assert merged.code == 1 and not out.exists()
    lines = merged.stderr.decode().splitlines()
    assert lines[0] == "warning" + expected.removeprefix("error")
    assert "error: no profile can be merged" in lines
    assert f"wraps the counters section to {-8 * k} bytes" in merged.stderr.decode()


def test_names_moved_before_the_file_are_still_refused(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """LLVM reads memory before its buffer there (its answer varies with it)."""
    path = _wrapped(22, "ir-branches", 100, tmp_path / "counters.profraw")
    shown = run_profdata("show", str(path))
    assert shown.code == 1
    said = shown.stderr.decode()
    assert said.splitlines()[0] == (
        f"error: {path}: invalid instrumentation profile data (file header is corrupt)"
    )
    assert "before the start of the file" in said


@pytest.mark.parametrize(("made", "program", "k", "rel"), READS)
def test_as_the_real_tool(
    made: int, program: str, k: int, rel: int, tmp_path: Path,
    llvm_profdata: Callable[[int], Path], run_profdata: Callable[..., CliResult],
) -> None:  # fmt: skip
    tool = llvm_profdata(rel)
    path = _wrapped(made, program, k, tmp_path / "counters.profraw")
    for args in (
        ["show", "--all-functions", "--counts", str(path)],
        ["merge", str(path), "-o", "@OUT"],
    ):
        same, _ = compare_with_tool(tool, rel, args, run_profdata, tmp_path, first_error_line=True)
        assert same, args
