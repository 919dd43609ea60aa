"""Indexed hash-table items whose key or data lie past the end of the file, against the real
llvm-profdata 14, 16, 19 and 22.

``InstrProfLookupTrait::ReadData`` looks at an item's data length before it reads
anything: a length that is not a multiple of 8, is 0 or 8, or makes its end
pointer ``D + N`` wrap (every length from ``2**64 - 2**47``) gives no records
without a byte read, and ``getRecords`` fails the item with "profile data is
empty" wherever its key and data would lie.  profdata failed such items for
lying past the end before it looked at the length (found by ``tools/fuzz_llvm.py``:
the real tools and profdata printed different first lines).  Any other item that
runs past the end makes LLVM read on into memory, where it fails the item the
same way or crashes, so profdata now gives that first line too (and its located
detail); so does a summary that runs past the end, after which LLVM takes the
items from past the end.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import MalformedError
from profdata.formats.indexed import read
from profdata.formats.indexed_layout import layout
from profdata.formats.indexed_records import PROFILE_DATA_EMPTY
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "indexed"
FILES = {14: "v07-vpcalls", 16: "v07-vpcalls", 19: "v12-temporal", 22: "v13-vpcalls"}
FAR = 1 << 50  # a key length past any file
WRAPPING_LENGTH = (1 << 64) - (1 << 47)  # user-space addresses are below 2**47
#: data lengths ReadData refuses unread, whatever the key length
UNREAD = [0, 8, 12, WRAPPING_LENGTH, (1 << 64) - 8]


def _first_item(data: bytes) -> int:
    """Where the first item's header (KeyHash, KeyLength, DataLength) is: after the first
    bucket's item count, at the payload start."""
    return read(memoryview(data)).table.payload_offset + 2


def _patched(name: str, key_length: int | None, data_length: int) -> bytes:
    data = bytearray((GOLDEN / f"{name}.profdata").read_bytes())
    at = _first_item(bytes(data))
    if key_length is not None:
        struct.pack_into("<Q", data, at + 8, key_length)
    struct.pack_into("<Q", data, at + 16, data_length)
    return bytes(data)


def _fails(data: bytes) -> MalformedError:
    with pytest.raises(MalformedError) as caught:
        list(read(memoryview(data), "items.profdata").records)
    return caught.value


@pytest.mark.parametrize("length", UNREAD)
@pytest.mark.parametrize("key_length", [None, FAR])
def test_an_item_read_nothing_of_is_empty_wherever_it_lies(
    key_length: int | None, length: int
) -> None:
    err = _fails(_patched("v13-vpcalls", key_length, length))
    assert err.llvm_message == PROFILE_DATA_EMPTY
    assert err.location.field in ("data_length", "func_hash")  # the decoder's, not the table's


@pytest.mark.parametrize(
    ("key_length", "length", "field"),
    [(FAR, 16, "hash_table.key_length"), (None, 1 << 40, "hash_table.data_length")],
)
def test_an_item_read_past_the_end_fails_as_llvm_does(
    key_length: int | None, length: int, field: str
) -> None:
    err = _fails(_patched("v13-vpcalls", key_length, length))
    assert err.llvm_message == PROFILE_DATA_EMPTY
    assert err.location.field == field


def test_a_summary_past_the_end_fails_as_its_items_do() -> None:
    data = bytearray((GOLDEN / "v13-vpcalls.profdata").read_bytes())
    at = layout(13).header_size + 8  # NumCutoffEntries
    struct.pack_into("<Q", data, at, 1 << 40)
    with pytest.raises(MalformedError) as caught:
        read(memoryview(bytes(data)), "summary.profdata")
    assert caught.value.llvm_message == PROFILE_DATA_EMPTY
    assert caught.value.location.field == "summary.num_cutoff_entries"


@pytest.mark.parametrize("length", UNREAD)
@pytest.mark.parametrize("rel", sorted(FILES))
def test_commands_match_the_real_tool(
    rel: int,
    length: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    path = tmp_path / "far.profdata"
    path.write_bytes(_patched(FILES[rel], FAR, length))
    golden = str(GOLDEN / f"{FILES[rel]}.profdata")
    commands = [
        ["show", "--all-functions", "--counts", str(path)],
        ["show", "--text", "--all-functions", str(path)],
        ["merge", str(path), golden, "-o", "@OUT"],
        ["overlap", golden, str(path)],
    ]
    for args in commands:
        same, real = compare_with_tool(
            llvm_profdata(rel), rel, args, run_profdata, tmp_path, first_error_line=True
        )
        assert real.returncode in (0, 1) and same, args
