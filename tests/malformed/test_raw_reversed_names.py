"""Raw profiles whose NamesSize or VNamesSize wraps below zero, against the real
llvm-profdata 14, 16, 19 and 22.

``readHeader`` sums the section sizes at 64 bits and checks only that the
value data begin inside the file, so a size of ``2**64 - k`` passes: with its
padding it moves the sections after it back by ``k`` rounded down to 8 bytes,
and the section itself ends before it starts.  ``readAndDecodeStrings`` decodes
while its pointer is below the end, so such a section holds no name: the
reader goes on, and fails (or not) where the moved value data lead it.  profdata
refused every such file as a corrupt header.  22 reads its vtable names another
way, from the section's start on as far as the bytes go (memory past the file
decides), and profdata still refuses those (README, Compatibility).  The inputs
are each release's golden raw profile of the branches program.
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
RELEASES = (14, 16, 19, 22)
NO_ROOM = "malformed instrumentation profile data: not enough space for another header"
WRAPS = (1, 7, 8, 16)  # the size is 2**64 - k


def _program(rel: int) -> Path:
    return PROGRAMS / f"l{rel}-ir-branches" / "default.profraw"


def _wrapped(rel: int, field: str, k: int, into: Path) -> Path | None:
    """The golden with header word ``field`` set to ``2**64 - k``; None if its raw
    version has no such word."""
    data = _program(rel).read_bytes()
    fields = raw_layout(word(data, 1) & 0xFFFFFFFF, 8, "<").header_fields
    if field not in fields:
        return None
    into.write_bytes(with_word(data, fields.index(field), -k))
    return into


@pytest.mark.parametrize("rel", RELEASES)
@pytest.mark.parametrize("k", WRAPS)
def test_names_ending_before_they_start_hold_none(
    rel: int, k: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """No name is decoded; the value data, moved back, leave bytes for no other header."""
    path = _wrapped(rel, "names_size", k, tmp_path / "names.profraw")
    assert path is not None
    shown = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", str(path))
    assert shown.code == 1 and shown.stdout == b""
    assert shown.stderr.decode().splitlines()[0] == f"error: {path}: {NO_ROOM}"


@pytest.mark.parametrize("k", WRAPS)
def test_vtable_names_ending_before_they_start_19(
    k: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """Below 8 bytes the padding brings the value data back where they were: the file
    reads as the golden does; from 8 on they move back, and the bytes left over fail."""
    path = _wrapped(19, "vnames_size", k, tmp_path / "vnames.profraw")
    assert path is not None
    args = ("--llvm-release=19", "show", "--all-functions", "--counts")
    shown = run_profdata(*args, str(path))
    if k < 8:
        golden = run_profdata(*args, str(_program(19)))
        assert shown.code == 0 and golden.code == 0
        assert shown.stdout == golden.stdout and b"Counters:" in shown.stdout
    else:
        assert shown.code == 1
        assert shown.stderr.decode().splitlines()[0] == f"error: {path}: {NO_ROOM}"


def test_vtable_names_ending_before_they_start_22_are_refused(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """22 decodes them from memory the file does not hold: a located refusal here."""
    path = _wrapped(22, "vnames_size", 1, tmp_path / "vnames.profraw")
    assert path is not None
    shown = run_profdata("--llvm-release=22", "show", str(path))
    assert shown.code == 1
    said = shown.stderr.decode()
    assert "put the vnames section outside the file" in said
    assert "found -1 bytes" in said


#: raw v8 (14, 16) has no VNamesSize; 22's vtable names depend on memory past the file
COMPARED = [(rel, "names_size") for rel in RELEASES] + [(19, "vnames_size")]


@pytest.mark.parametrize(("rel", "field"), COMPARED)
def test_as_the_real_tool(
    rel: int,
    field: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    for k in WRAPS:
        path = _wrapped(rel, field, k, tmp_path / f"{field}-{k}.profraw")
        assert path is not None
        for args in (
            ["show", "--all-functions", "--counts", str(path)],
            ["merge", str(path), "-o", "@OUT"],
        ):
            same, _ = compare_with_tool(
                tool, rel, args, run_profdata, tmp_path, first_error_line=True
            )
            assert same, (k, args)
