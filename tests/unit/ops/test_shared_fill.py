"""``ops.shared_fill.fill_in_two``: a buffer's tail filled by a forked child, its head here."""

from __future__ import annotations

import mmap
import os
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from profdata import offload as offload_module
from profdata.ops import shared_fill
from profdata.reaping import join_reapers

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")

Bytes = npt.NDArray[np.uint8]


@pytest.fixture(autouse=True)
def idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second CPU counts as idle, however busy the test machine is."""
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)


def _stamp(into: Bytes, start: int, stop: int) -> None:
    """Each byte its index (mod 251), and this process's pid in the first four bytes."""
    into[start:stop] = np.arange(start, stop) % 251
    if stop - start >= 4:
        into[start : start + 4] = np.frombuffer(os.getpid().to_bytes(4, "little"), np.uint8)


def _pid(buf: Bytes, at: int) -> int:
    return int.from_bytes(bytes(buf[at : at + 4]), "little")


def _gone(pids: list[int]) -> bool:
    join_reapers()
    return not any(Path(f"/proc/{pid}").exists() for pid in pids)


def test_the_tail_comes_from_a_child(forks: list[int]) -> None:
    dest = np.zeros(100_000, dtype=np.uint8)
    shared_fill.fill_in_two(
        dest, 60_000, lambda d: _stamp(d, 0, 60_000), lambda d: _stamp(d, 60_000, 100_000)
    )
    expected = np.arange(100_000) % 251
    assert np.array_equal(dest[4:60_000], expected[4:60_000])
    assert np.array_equal(dest[60_004:], expected[60_004:])
    assert _pid(dest, 0) == os.getpid()
    assert len(forks) == 1 and _pid(dest, 60_000) == forks[0]
    assert _gone(forks)


def test_a_shared_buffer_is_filled_in_place_by_the_child(
    forks: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``zeros`` gives shared memory: the child's bytes land in it with no copy (a copy
    would go through a second map, which this test takes away)."""
    dest = shared_fill.fill_in_two.zeros(100_000)
    assert not dest.any()
    maps: list[int] = []
    real = mmap.mmap

    def counted(*args: int) -> mmap.mmap:
        maps.append(args[1])
        return real(*args)

    monkeypatch.setattr(mmap, "mmap", counted)
    shared_fill.fill_in_two(
        dest, 60_000, lambda d: _stamp(d, 0, 60_000), lambda d: _stamp(d, 60_000, 100_000)
    )
    assert maps == []
    expected = np.arange(100_000) % 251
    assert np.array_equal(dest[60_004:], expected[60_004:])
    assert _pid(dest, 0) == os.getpid()
    assert len(forks) == 1 and _pid(dest, 60_000) == forks[0]
    assert _gone(forks)


def test_a_shared_buffer_is_forgotten_with_its_array() -> None:
    fill = shared_fill.SharedFill()
    dest = fill.zeros(4096)
    assert fill._in_place(dest) and not fill._in_place(dest[1:])
    assert not fill._in_place(np.zeros(4096, dtype=np.uint8))
    del dest
    assert fill._shared == {}


@pytest.mark.parametrize("shared", [False, True])
def test_a_child_that_fails_leaves_its_part_to_this_process(forks: list[int], shared: bool) -> None:
    me = os.getpid()
    calls: list[int] = []

    def there(into: Bytes) -> None:
        if os.getpid() != me:
            raise RuntimeError("the child fails")
        calls.append(os.getpid())
        _stamp(into, 50, 100)

    dest = shared_fill.fill_in_two.zeros(100) if shared else np.zeros(100, dtype=np.uint8)
    shared_fill.fill_in_two(dest, 50, lambda d: _stamp(d, 0, 50), there)
    assert calls == [me] and len(forks) == 1
    assert _pid(dest, 50) == me
    assert np.array_equal(dest[54:], np.arange(54, 100) % 251)
    assert _gone(forks)


def test_a_failure_here_is_raised_and_the_child_still_reaped(forks: list[int]) -> None:
    def here(into: Bytes) -> None:
        raise ValueError("a value site holds too many values")

    dest = np.zeros(100, dtype=np.uint8)
    with pytest.raises(ValueError, match="too many values"):
        shared_fill.fill_in_two(dest, 50, here, lambda d: _stamp(d, 50, 100))
    assert len(forks) == 1 and _gone(forks)


@pytest.mark.parametrize(("idle", "cut"), [(1, 50), (2, 100)])
def test_no_fork_without_an_idle_cpu_or_a_tail(
    forks: list[int], monkeypatch: pytest.MonkeyPatch, idle: int, cut: int
) -> None:
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: idle)
    order: list[str] = []

    def here(into: Bytes) -> None:
        order.append("here")
        _stamp(into, 0, cut)

    def there(into: Bytes) -> None:
        order.append("there")
        _stamp(into, cut, 100)

    dest = np.zeros(100, dtype=np.uint8)
    shared_fill.fill_in_two(dest, cut, here, there)
    assert forks == [] and order == ["here", "there"]
    assert _pid(dest, 0) == os.getpid()


def test_an_indexed_profile_written_in_two_processes_is_the_same(forks: list[int]) -> None:
    """25k records (past the writer's threshold), value sites and counters of all sizes:
    the child's half of the hash table lands where one process would have put it."""
    from profdata.formats.indexed_write import encode_indexed
    from profdata.model.instr import InstrProfile, InstrRecord, ValueData
    from profdata.model.kinds import ProfileKind, ValueKind
    from profdata.releases import release

    rng = np.random.default_rng(3)
    records = []
    for i in range(25_000):
        counts = rng.integers(0, 1 << 40, int(rng.integers(1, 9)), dtype=np.uint64)
        sites = {}
        if i % 3 == 0:
            sizes = sorted({int(v) for v in rng.integers(0, 1 << 20, int(rng.integers(1, 5)))})
            sites[ValueKind.MEMOP_SIZE] = [[ValueData(v, 1 + v % 7) for v in sizes], []]
        records.append(InstrRecord(f"function_{i}_{'x' * (i % 13)}", i * 7919, counts, b"", sites))
    profile = InstrProfile(kind=ProfileKind.IR, records=records)
    for rel in (14, 22):
        one = b"".join(encode_indexed(profile, release=release(rel)))
        two = encode_indexed(profile, release=release(rel), fill_in_two=shared_fill.fill_in_two)
        assert b"".join(two) == one
    assert len(forks) == 2 and _gone(forks)
