"""An indexed hash-table item whose data length is 0, against the real llvm-profdata
14, 16, 19 and 22.

``InstrProfLookupTrait::ReadData`` turns zero bytes into no records, and
``getRecords`` refuses an item without records ("profile data is empty"),
whether the walk of ``show``/``merge`` meets it or a lookup by name finds it.
profdata took such an item as a function without records and went on (found by
``tools/fuzz_llvm.py``: a swapped word zeroed one item's length).  The inputs
are golden files of the real tools with one item's data length zeroed; what
follows that item is then read from the middle of its data, as LLVM reads it.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import MalformedError
from profdata.formats import open_instr, read_instr_bytes
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

INDEXED = Path(__file__).resolve().parents[1] / "golden" / "indexed"
FILES = {
    14: INDEXED / "v07-vpcalls.profdata",
    16: INDEXED / "v09-cspgo.profdata",
    19: INDEXED / "v12-vtable.profdata",
    22: INDEXED / "v13-vpcalls.profdata",
}


def _emptied(rel: int, which: int, into: Path) -> tuple[Path, str]:
    """The golden file with item ``which`` (in file order) holding no data; its name."""
    data = FILES[rel].read_bytes()
    table = read_instr_bytes(data, release=release(rel)).table  # type: ignore[attr-defined]
    item = list(table.items())[which]
    broken = bytearray(data)
    struct.pack_into("<Q", broken, item.key_offset - 8, 0)
    into.write_bytes(bytes(broken))
    name = data[item.key_offset : item.key_offset + item.key_length].decode()
    return into, name


@pytest.mark.parametrize("which", [0, -1])
@pytest.mark.parametrize("rel", sorted(FILES))
def test_an_item_without_data_fails_as_in_llvm(
    rel: int,
    which: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    bad, name = _emptied(rel, which, tmp_path / "emptied.profdata")
    good = str(FILES[rel])
    commands = [
        ["show", str(bad)],
        ["show", "--all-functions", "--counts", str(bad)],
        ["show", f"--function={name}", "--counts", str(bad)],
        ["merge", str(bad), "-o", "@OUT"],
        ["merge", "--failure-mode=all", good, str(bad), "-o", "@OUT"],
        ["overlap", good, str(bad)],
    ]
    for args in commands:
        same, _ = compare_with_tool(tool, rel, args, run_profdata, tmp_path, first_error_line=True)
        assert same, args
    assert (
        b"profile data is empty"
        in compare_with_tool(tool, rel, ["show", str(bad)], run_profdata, tmp_path)[1].stderr
    )


@pytest.mark.parametrize("rel", sorted(FILES))
def test_the_error_names_the_item(rel: int, tmp_path: Path) -> None:
    bad, name = _emptied(rel, 0, tmp_path / "emptied.profdata")
    with pytest.raises(MalformedError) as caught:
        list(open_instr(bad, release=release(rel)).records)
    error = caught.value
    assert error.llvm_message.endswith("profile data is empty")
    assert name in str(error) and error.location is not None
    assert error.location.field == "data_length" and error.location.found == "0"
