"""Raw profiles (version 10) whose function names stand in the vtable name section,
against the real llvm-profdata 19 and 22.

The raw reader builds one ``InstrProfSymtab`` of both name sections:
``addVTableName`` is ``addSymbolName`` plus a note of the name, so a record's
NameRef finds its function's name in the vtable section as well.  A header
whose NamesSize and VNamesSize words are swapped (found by
``tools/fuzz_llvm.py``) leaves the name section empty and puts every name in
the vtable section: llvm-profdata names every function, profdata named none.
The inputs are golden raw profiles of the real clang 19 and 22 (no vtables),
the two words swapped.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats import open_instr
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

RAW = Path(__file__).resolve().parents[1] / "golden" / "raw" / "inputs"
FILES = {
    19: RAW / "binary-ids-vpcalls-l19__none.profraw",
    22: RAW / "binary-ids-vpcalls-l22__none.profraw",
}
NAMES_SIZE, VNAMES_SIZE = 72, 112  # header words of version 10


def _swapped(rel: int, into: Path) -> Path:
    data = bytearray(FILES[rel].read_bytes())
    names, vnames = (
        struct.unpack_from("<Q", data, NAMES_SIZE)[0],
        struct.unpack_from("<Q", data, VNAMES_SIZE)[0],
    )
    assert names and not vnames
    struct.pack_into("<Q", data, NAMES_SIZE, vnames)
    struct.pack_into("<Q", data, VNAMES_SIZE, names)
    into.write_bytes(bytes(data))
    return into


@pytest.mark.parametrize("rel", sorted(FILES))
def test_functions_are_named_from_the_vtable_section(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    swapped = str(_swapped(rel, tmp_path / "swapped.profraw"))
    commands = [
        ["show", "--all-functions", "--counts", "--ic-targets", swapped],
        ["merge", swapped, "-o", "@OUT"],
        ["merge", "--text", swapped, "-o", "@OUT"],
        ["overlap", swapped, str(FILES[rel])],
    ]
    for args in commands:
        same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
        assert real.returncode == 0 and same, args


@pytest.mark.parametrize("rel", sorted(FILES))
def test_the_names_are_the_undamaged_files(rel: int, tmp_path: Path) -> None:
    swapped = _swapped(rel, tmp_path / "swapped.profraw")
    ours = [record.name for record in open_instr(swapped, release=release(rel)).records]
    assert ours == [record.name for record in open_instr(FILES[rel], release=release(rel)).records]
    assert all(ours)
