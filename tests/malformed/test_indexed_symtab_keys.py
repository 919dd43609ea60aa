"""The names of a damaged indexed profile as ``getSymtab`` collects them, against the real
llvm-profdata 14, 16, 19 and 22.

``InstrProfSymtab::create`` walks the hash table's ``keys()``: each item's key is
read and its data only stepped over.  When the last item's DataLen runs past the end
of the file, that walk still reads every key (nothing follows the last item), so
``show --ic-targets`` names the call targets in the records it prints (flushed 4 KiB at
a time) before the record read fails with "profile data is empty".  profdata walked
the keys as the record reader does, refused that item, and printed the targets with
empty names.  Found by ``tools/fuzz_llvm.py`` (stop 51, a flipped bit in the last
item's DataLen of a corpus profile).

After any other item, the next item's header lies past the end, where LLVM reads
memory outside the file: profdata's error is located there.

``addFuncName`` refuses an empty name ("function name is empty"), which ends the walk;
``getSymtab`` swallows the error and keeps the names added before it, so the targets
named after an empty key print without names (the fuzzer's case: a swap that left an
item with KeyLen 0).  Where the walk leaves the file (a key past its end), LLVM reads
names from other memory; profdata keeps the names read before, where it had none.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import MalformedError
from profdata.formats import read_instr_bytes
from profdata.formats.indexed import read
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

PROGRAMS = Path(__file__).resolve().parents[1] / "golden" / "programs"
#: past the end of any file here, a multiple of 8 (a length ReadData would go on reading)
PAST_THE_END = 0x400020


def _data_length_at(data: bytes, index: int) -> int:
    """Where item ``index`` (in payload order) states its DataLen."""
    items = list(read(memoryview(data)).table.key_items())
    return items[index].key_offset - 8


def _damaged(data: bytes, index: int) -> bytes:
    damaged = bytearray(data)
    struct.pack_into("<Q", damaged, _data_length_at(data, index), PAST_THE_END)
    return bytes(damaged)


def _emptied(data: bytes, index: int) -> bytes:
    """Item ``index`` with KeyLen 0 and its key counted in its DataLen (the walk stays in
    step; the record read of that item fails)."""
    damaged = bytearray(data)
    at = _data_length_at(data, index) - 8
    key_length, data_length = struct.unpack_from("<QQ", data, at)
    struct.pack_into("<QQ", damaged, at, 0, key_length + data_length)
    return bytes(damaged)


def _names(data: bytes) -> list[str]:
    table = read(memoryview(data)).table
    return [table.key(item).decode() for item in table.key_items()]


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_the_last_items_data_is_stepped_over(rel: int) -> None:
    data = (PROGRAMS / f"l{rel}-ir-vcalls" / "default.profdata").read_bytes()
    whole = read_instr_bytes(data, "good.profdata", release=release(rel)).symbols
    damaged = read_instr_bytes(_damaged(data, -1), "bad.profdata", release=release(rel))
    assert len(whole) > 10
    assert damaged.symbols == whole
    table = read(memoryview(_damaged(data, -1)), "bad.profdata").table
    with pytest.raises(MalformedError, match="data runs past the end"):
        list(table.items())  # the record reader reads the data: that fails


def test_after_another_item_the_next_header_is_past_the_end() -> None:
    data = (PROGRAMS / "l22-ir-vcalls" / "default.profdata").read_bytes()
    bad = _damaged(data, 3)
    table = read(memoryview(bad), "bad.profdata").table
    with pytest.raises(MalformedError) as caught:
        list(table.key_items())
    assert "past the end" in caught.value.detail
    offset = caught.value.location.offset
    assert offset is not None and offset <= len(bad)  # an offset is inside the file


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_the_names_end_at_an_empty_key(rel: int) -> None:
    data = (PROGRAMS / f"l{rel}-ir-vcalls" / "default.profdata").read_bytes()
    names = _names(data)
    profile = read_instr_bytes(_emptied(data, 6), "bad.profdata", release=release(rel))
    assert sorted(profile.symbols.values()) == sorted(names[:6])


def test_names_read_before_a_key_past_the_end_stay() -> None:
    data = bytearray((PROGRAMS / "l22-ir-vcalls" / "default.profdata").read_bytes())
    names = _names(bytes(data))
    struct.pack_into("<Q", data, _data_length_at(bytes(data), 9) - 8, PAST_THE_END)  # KeyLen
    profile = read_instr_bytes(bytes(data), "bad.profdata", release=release(22))
    assert sorted(profile.symbols.values()) == sorted(names[:9])


@pytest.mark.parametrize("rel", [14, 22])
def test_show_after_an_empty_key_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    corpus_dir: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """The corpus's 3,001-function profile with its 1,501st key emptied: the real tool
    flushes 47 blocks of 4 KiB before that record fails, and the targets named after it
    print without names (profdata printed them all named, and one block more)."""
    good = corpus_dir / f"large-big-vis-l{rel}" / "expected" / f"l{rel}-merge-o.profdata"
    if not good.is_file():
        pytest.skip(f"{good} is not in this corpus")
    path = tmp_path / "empty-key.profdata"
    path.write_bytes(_emptied(good.read_bytes(), 1500))
    args = ["show", "--all-functions", "--ic-targets", str(path)]
    same, real = compare_with_tool(
        llvm_profdata(rel), rel, args, run_profdata, tmp_path, first_error_line=True
    )
    assert real.returncode == 1 and b"[  0, ," in real.stdout  # a target left unnamed
    assert same, args


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
@pytest.mark.parametrize(
    "options", [["--ic-targets", "--memop-sizes"], ["--counts", "--ic-targets"]]
)
def test_show_names_the_targets_as_the_real_tool(
    rel: int,
    options: list[str],
    tmp_path: Path,
    corpus_dir: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """The corpus's merged C++ profile: its records print more than the 4 KiB the real
    tool flushes before the last item fails, with named indirect-call targets."""
    good = corpus_dir / f"irpgo-vcalls-cpp-o0-l{rel}" / "expected" / f"l{rel}-merge-o.profdata"
    if not good.is_file():
        pytest.skip(f"{good} is not in this corpus")
    path = tmp_path / "last-item.profdata"
    path.write_bytes(_damaged(good.read_bytes(), -1))
    args = ["show", "--all-functions", *options, str(path)]
    same, real = compare_with_tool(
        llvm_profdata(rel), rel, args, run_profdata, tmp_path, first_error_line=True
    )
    assert real.returncode == 1 and b"_ZNK3geo" in real.stdout  # named targets, then the fault
    assert same, args
