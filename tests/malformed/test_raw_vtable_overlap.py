"""Raw vtable records whose intervals overlap (a damaged ``VTableSize`` or pointer), against
the real llvm-profdata 19 and 22.

LLVM puts each vtable's half-open interval in an ``IntervalMap`` in file order;
the map expects disjoint intervals, and with overlaps its lookups miss vtables
that an ordinary interval lookup finds (``tools/fuzz_llvm.py``, stop 50: the
first of four vtables grown to 2 GiB made ``show --text`` print "** External
Symbol **" for it, where profdata named it).  :mod:`profdata.formats.raw_vtable_map`
emulates the map's root leaf (8 intervals); these tests hold it to the real
tool on the golden C++ program's runs (4 vtables) and to a plain interval
lookup wherever the intervals are disjoint.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats.raw_vtable_map import ROOT_LEAF_CAPACITY, VTableMap
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

INPUTS = Path(__file__).resolve().parents[1] / "golden" / "raw" / "inputs"
VTABLES_AT = 1688  # the section of 4 records (hash, pointer, u32 size, padding)
RECORD = 24


def _run(rel: int) -> bytearray:
    return bytearray((INPUTS / f"irpgo-vtable-vcalls-cpp-l{rel}__run1.profraw").read_bytes())


def _records(data: bytes | bytearray) -> list[tuple[int, int, int]]:
    return [struct.unpack_from("<QQI", data, VTABLES_AT + RECORD * i) for i in range(4)]


#: (vtable index, field, value): sizes grown over the later vtables, over the earlier ones
#: (a pointer moved below them), shrunk to 0, and a pointer set to 0 (skipped)
DAMAGE = [
    (0, "size", 0x80000000),
    (1, "size", 0x1000),
    (3, "size", 0),
    (2, "pointer", 0x1000),
    (0, "pointer", 0),
]


def _damaged(rel: int, index: int, field: str, value: int) -> bytes:
    data = _run(rel)
    assert len({h for h, _, _ in _records(data)}) == 4  # the golden's own 4 vtables
    at = VTABLES_AT + RECORD * index + (16 if field == "size" else 8)
    struct.pack_into("<I" if field == "size" else "<Q", data, at, value)
    return bytes(data)


@pytest.mark.parametrize("rel", [19, 22])
@pytest.mark.parametrize(("index", "field", "value"), DAMAGE)
def test_lookups_match_the_real_tool(
    rel: int,
    index: int,
    field: str,
    value: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    path = tmp_path / "damaged.profraw"
    path.write_bytes(_damaged(rel, index, field, value))
    tool = llvm_profdata(rel)
    for args in (
        ["show", "--text", "--all-functions", str(path)],
        ["merge", "--text", str(path), "-o", "@OUT"],
    ):
        same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert real.returncode == 0 and same, args


def _end_to_end(rel: int) -> bytes:
    """The golden run with each vtable grown to end where the next one begins, as a
    binary's vtables often lie (the tenth shadow program set's 8 did)."""
    data = _run(rel)
    pointers = [p for _, p, _ in _records(data)]
    assert pointers == sorted(pointers)
    for index in range(3):
        at = VTABLES_AT + RECORD * index + 16
        struct.pack_into("<I", data, at, pointers[index + 1] - pointers[index])
    return bytes(data)


def test_vtables_end_to_end_are_each_found() -> None:
    """Half-open intervals: one that begins where the last one ends goes after it (closed
    ones would share that address, and the insert would put the later one first)."""
    records = _records(_end_to_end(22))
    hashes = np.array([h for h, _, _ in records], dtype=np.uint64)
    pointers = np.array([p for _, p, _ in records], dtype=np.uint64)
    sizes = np.array([s for _, _, s in records], dtype=np.uint64)
    table = VTableMap(pointers, sizes, hashes, 64)
    assert table.starts.tolist() == pointers.tolist()  # inserted in order, kept in order
    assert table.lookup(pointers + np.uint64(16)).tolist() == hashes.tolist()
    assert table.lookup(pointers[1:]).tolist() == hashes[1:].tolist()  # a start is its own


@pytest.mark.parametrize("rel", [19, 22])
def test_vtables_end_to_end_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    path = tmp_path / "end-to-end.profraw"
    path.write_bytes(_end_to_end(rel))
    tool = llvm_profdata(rel)
    for args in (
        ["show", "--all-functions", "--ic-targets", "--show-vtables", str(path)],
        ["merge", "--text", str(path), "-o", "@OUT"],
    ):
        same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert real.returncode == 0 and same, args


def test_a_grown_first_vtable_hides_itself() -> None:
    """The fuzzer's case: the first vtable (lowest address) grown to 2 GiB is inserted
    first; each later one goes before it, so it ends up last, and an address inside its
    own 48 bytes lies before the first interval's start: not found."""
    records = _records(_damaged(22, 0, "size", 0x80000000))
    hashes = np.array([h for h, _, _ in records], dtype=np.uint64)
    pointers = np.array([p for _, p, _ in records], dtype=np.uint64)
    sizes = np.array([s for _, _, s in records], dtype=np.uint64)
    found = VTableMap(pointers, sizes, hashes, 64).lookup(pointers + np.uint64(16))
    assert found.tolist() == [0, *hashes[1:].tolist()]


def _plain(starts: list[int], stops: list[int], refs: list[int], x: int) -> int:
    return next((r for a, b, r in zip(starts, stops, refs, strict=True) if a <= x < b), 0)


@settings(max_examples=200, deadline=None)
@given(
    gaps=st.lists(st.tuples(st.integers(1, 64), st.integers(0, 64)), min_size=1, max_size=12),
    order=st.randoms(use_true_random=False),
    probes=st.lists(st.integers(0, 2000), max_size=30),
)
def test_disjoint_intervals_are_a_plain_lookup(
    gaps: list[tuple[int, int]], order: object, probes: list[int]
) -> None:
    """Disjoint intervals in any file order, as many as the root leaf holds or more: every
    address finds the interval holding it (the map coalesces touching ones of one hash
    only, which changes no lookup)."""
    starts, sizes, at = [], [], 16
    for gap, size in gaps:
        starts.append(at + gap)
        sizes.append(size)
        at = starts[-1] + size + 1
    refs = [1 + i % 3 for i in range(len(starts))]  # neighbours may share a hash
    index = list(range(len(starts)))
    order.shuffle(index)  # type: ignore[attr-defined]
    table = VTableMap(
        np.array([starts[i] for i in index], dtype=np.uint64),
        np.array([sizes[i] for i in index], dtype=np.uint64),
        np.array([refs[i] for i in index], dtype=np.uint64),
        64,
    )
    assert table.in_leaf == (len(starts) <= ROOT_LEAF_CAPACITY)
    stops = [a + s for a, s in zip(starts, sizes, strict=True)]
    expected = [_plain(starts, stops, refs, x) for x in probes]
    assert table.lookup(np.array(probes, dtype=np.uint64)).tolist() == expected


def test_32_bit_interval_ends_wrap() -> None:
    """``VPtr + VTableSize`` in a 32-bit ``IntPtrT`` wraps: the interval then ends below
    its start, and nothing is found in it."""
    table = VTableMap(
        np.array([0xFFFFFF00], dtype=np.uint64),
        np.array([0x200], dtype=np.uint64),
        np.array([7], dtype=np.uint64),
        32,
    )
    probes = np.array([0xFFFFFF00, 0xFFFFFF80, 0x80], dtype=np.uint64)
    assert table.lookup(probes).tolist() == [0, 0, 0]
    wide = VTableMap(table.starts, np.array([0x200], dtype=np.uint64), table.refs, 64)
    assert wide.lookup(probes).tolist() == [7, 7, 0]


@pytest.mark.parametrize("rel", [19, 22])
@pytest.mark.parametrize("delta", [-0x11, -0x10, 0x1F, 0x20])
def test_an_interval_end_as_the_real_tool(
    rel: int,
    delta: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """A vtable target just inside and just outside a 48-byte vtable's ends (its address
    point is 16 bytes in): only ``[start, start + size)`` finds it."""
    from profdata.formats import raw
    from tests.unit.formats.test_raw import VTABLE, _one_target_profile, _patch_last_target

    path = tmp_path / "target.profraw"
    path.write_bytes(_patch_last_target(raw.write(_one_target_profile(VTABLE)), delta))
    args = ["show", "--all-functions", "--ic-targets", "--show-vtables", str(path)]
    same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
    assert real.returncode == 0 and same
