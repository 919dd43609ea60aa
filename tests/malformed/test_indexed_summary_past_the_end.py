"""An indexed summary that runs past the end of the file, with a later header check that
fails, against the real llvm-profdata 16, 19 and 22.

``readSummary`` checks nothing against the end of the file: it reads on into
memory, and ``readHeader`` goes on to the binary-id and vtable-name sections,
whose checks fail first.  profdata failed at the summary (found by
``tools/fuzz_llvm.py``: files cut inside the summary gave "corrupted binary ids"
in LLVM).  The summary's own fault now comes after those checks.  The tests make
the later check fail deterministically: a binary-id section size that is not a
multiple of 8 ("file header is corrupt"), or a vtable-name section that starts
at the end of the file ("truncated").
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import FormatError, HeaderCorruptError, MalformedError, TruncatedError
from profdata.formats.indexed import read
from profdata.formats.indexed_layout import layout
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "indexed"
FILES = {16: "v09-cspgo", 19: "v12-temporal", 22: "v13-vpcalls"}


def _entries_past_the_end(data: bytes | bytearray, summary_at: int) -> int:
    """A NumCutoffEntries whose entries end two entries past the end of the file: LLVM
    copies them from just past it (a far larger count makes it read unmapped memory)."""
    fields: int = struct.unpack_from("<Q", data, summary_at)[0]
    return (len(data) - summary_at - 16 - 8 * fields) // 24 + 2


def _patched(name: str, later: str) -> bytes:
    """The golden with its (last) summary's entry count past the end, and ``later`` broken
    (a summary read from past the end would send LLVM into unmapped memory)."""
    data = bytearray((GOLDEN / f"{name}.profdata").read_bytes())
    (version,) = struct.unpack_from("<Q", data, 8)
    fmt = layout(version & 0xFFFFFFFF)
    at = fmt.header_size
    if version & (1 << 57):  # a CS profile: its CS summary, after the other, runs past the end
        fields, entries = struct.unpack_from("<QQ", data, at)
        at += 16 + 8 * fields + 24 * entries
    struct.pack_into("<Q", data, at + 8, _entries_past_the_end(data, at))
    if later == "binary ids":
        (offset,) = struct.unpack_from("<Q", data, fmt.field_offset("binary_id_offset"))
        struct.pack_into("<Q", data, offset, 12)  # the section's size
    else:
        struct.pack_into("<Q", data, fmt.field_offset("vtable_names_offset"), len(data))
    return bytes(data)


def _cases() -> list[tuple[int, str]]:
    return [
        (rel, later)
        for rel in sorted(FILES)
        for later in ("binary ids", "vtable names")
        if later == "binary ids" or rel >= 19
    ]


@pytest.mark.parametrize(
    ("later", "error"),
    [("binary ids", HeaderCorruptError), ("vtable names", TruncatedError)],
)
def test_later_header_checks_come_first(later: str, error: type[FormatError]) -> None:
    with pytest.raises(FormatError) as caught:
        read(memoryview(_patched("v13-vpcalls", later)), "summary.profdata")
    assert type(caught.value) is error


def test_the_summary_fails_when_nothing_later_does() -> None:
    data = bytearray((GOLDEN / "v13-vpcalls.profdata").read_bytes())
    at = layout(13).header_size
    struct.pack_into("<Q", data, at + 8, _entries_past_the_end(data, at))
    with pytest.raises(MalformedError) as caught:
        read(memoryview(bytes(data)), "summary.profdata")
    assert caught.value.location.field == "summary.num_cutoff_entries"


@pytest.mark.parametrize(("rel", "later"), _cases())
def test_commands_match_the_real_tool(
    rel: int,
    later: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    path = tmp_path / "summary.profdata"
    path.write_bytes(_patched(FILES[rel], later))
    golden = str(GOLDEN / f"{FILES[rel]}.profdata")
    commands = [
        ["show", str(path)],
        ["show", "--detailed-summary", "--all-functions", str(path)],
        ["merge", golden, str(path), "-o", "@OUT"],
        ["overlap", golden, str(path)],
    ]
    for args in commands:
        same, real = compare_with_tool(
            llvm_profdata(rel), rel, args, run_profdata, tmp_path, first_error_line=True
        )
        assert real.returncode == 1 and same, args
