"""``profdata.model.cxx_algo.sort`` against libstdc++'s ``std::sort``, compiled live.

LLVM 19+ sorts a value site by value with ``llvm::sort`` (``std::sort``), so a
site holding one value several times pairs those entries in ``merge`` and
``overlap`` in the order the introsort leaves them.  The reference program
(``fixtures/src/cxx_sort.cpp``) sorts (key, position) pairs by key and prints
the positions; the Python replay must give the same permutation for every
input: few distinct keys (long runs of equal ones, where the order shows),
sorted and reversed runs, lengths around the 16-element threshold, and the
heap sort that introsort falls back to (``std::partial_sort`` of the whole
range, which is that fallback).
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from profdata.model import cxx_algo
from tests.compat import tools

pytestmark = pytest.mark.compat

SOURCE = Path(__file__).resolve().parents[2] / "fixtures" / "src" / "cxx_sort.cpp"
LENGTHS = [0, 1, 2, 3, 15, 16, 17, 18, 31, 33, 64, 100, 255, 256, 700]


class _Keyed:
    """An element compared by its key only; ``position`` tells equal keys apart."""

    __slots__ = ("key", "position")

    def __init__(self, key: int, position: int) -> None:
        self.key = key
        self.position = position

    def __lt__(self, other: _Keyed) -> bool:
        return self.key < other.key


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    clang = tools.find_clang(22, cxx=True)
    compiler = str(clang) if clang is not None else shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    exe = tmp_path_factory.mktemp("cxx_sort") / "cxx_sort"
    subprocess.run([compiler, "-O1", "-std=c++17", str(SOURCE), "-o", str(exe)], check=True)
    return exe


def _cases(seed: int, count: int) -> list[list[int]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        n = rng.choice(LENGTHS)
        distinct = rng.choice([1, 2, 3, 5, 40, 1 << 62])
        keys = [rng.randrange(distinct) for _ in range(n)]
        shape = rng.random()
        if shape < 0.15:
            keys.sort()
        elif shape < 0.3:
            keys.sort(reverse=True)
        elif shape < 0.4:  # organ pipe: up, then down
            keys = sorted(keys[: n // 2]) + sorted(keys[n // 2 :], reverse=True)
        cases.append(keys)
    return cases


def _expected(exe: Path, mode: str, cases: list[list[int]]) -> list[list[int]]:
    text = "".join(f"{mode} {len(keys)} {' '.join(map(str, keys))}\n" for keys in cases)
    done = subprocess.run([str(exe)], input=text, capture_output=True, text=True, check=True)
    lines = done.stdout.split("\n")[: len(cases)]
    return [[int(word) for word in line.split()] for line in lines]


@pytest.mark.parametrize("seed", range(4))
def test_sort_leaves_equal_keys_where_std_sort_does(reference: Path, seed: int) -> None:
    cases = _cases(seed, 500)
    for keys, expected in zip(cases, _expected(reference, "S", cases), strict=True):
        items = [_Keyed(key, i) for i, key in enumerate(keys)]
        cxx_algo.sort(items)
        assert [item.position for item in items] == expected, keys


def test_heap_sort_fallback_matches_partial_sort(reference: Path) -> None:
    cases = _cases(99, 400)
    for keys, expected in zip(cases, _expected(reference, "H", cases), strict=True):
        items = [_Keyed(key, i) for i, key in enumerate(keys)]
        cxx_algo._heap_sort(items, 0, len(items))
        assert [item.position for item in items] == expected, keys


def test_sort_sorts_and_keeps_short_runs_stable() -> None:
    """Without the compiler: the result is sorted, and up to 16 elements (insertion
    sort only) equal keys keep their order."""
    rng = random.Random(7)
    for n in LENGTHS:
        keys = [rng.randrange(4) for _ in range(n)]
        items = [_Keyed(key, i) for i, key in enumerate(keys)]
        cxx_algo.sort(items)
        assert [item.key for item in items] == sorted(keys)
        assert sorted(item.position for item in items) == list(range(n))
        if n <= 16:
            assert [item.position for item in items] == sorted(range(n), key=keys.__getitem__)
