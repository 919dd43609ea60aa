"""The profile map's iteration order: libstdc++ ``unordered_map`` replayed, LLVM's hashes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.model.sample import FunctionSamples, SampleContext, SampleProfile
from profdata.model.sample_map_order import (
    UnorderedMapTable,
    hash_combine_range,
    hash_short,
    name_map_order,
    release_map_order,
    unordered_map_order,
)
from profdata.releases import release

M64 = (1 << 64) - 1

PROGRAM = r"""
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  uint64_t x = strtoull(argv[2], 0, 10);
  std::unordered_map<uint64_t, int> m;
  for (int i = 0; i < n; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t k = x >> 7;
    if (i % 7 == 3) k = k % 50;
    m.emplace(k, i);
  }
  for (auto &p : m) printf("%d ", p.second);
  printf("\n");
}
"""


def keys(n: int, seed: int) -> list[int]:
    x = seed
    out = []
    for i in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & M64
        key = x >> 7
        out.append(key % 50 if i % 7 == 3 else key)
    return out


def test_small_map_orders_by_bucket_of_13() -> None:
    # 13 buckets: 27 and 1 share bucket 1 (the later one goes first), 2 starts the list
    assert unordered_map_order([1, 27, 2, 27]) == [2, 1, 0]


def test_hash_short_ranges_are_distinct_and_seeded() -> None:
    values = {hash_short(bytes(range(n))) for n in (0, 1, 3, 4, 8, 9, 16, 17, 32, 33, 64)}
    assert len(values) == 11
    assert hash_short(b"abcd", 1) != hash_short(b"abcd", 2)
    long = [i.to_bytes(8, "little") for i in range(20)]
    assert hash_combine_range(long) != hash_combine_range(long[:8])


def compiled(program: str, binary: Path) -> Path:
    """``program`` built by the system's C++ compiler (its libstdc++ is the reference)."""
    compiler = shutil.which("clang++-22") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    source = binary.with_suffix(".cc")
    source.write_text(program)
    subprocess.run([compiler, "-O1", "-o", binary, source], check=True)
    return binary


@pytest.mark.compat
@pytest.mark.parametrize("n", [1, 12, 13, 14, 29, 30, 60, 128, 1000])
def test_unordered_map_order_matches_libstdcxx(n: int, tmp_path: Path) -> None:
    binary = compiled(PROGRAM, tmp_path / "umap")
    for seed in (1, 5, 99):
        out = subprocess.run([binary, str(n), str(seed)], capture_output=True, text=True).stdout
        assert unordered_map_order(keys(n, seed)) == [int(t) for t in out.split()]


#: fill, erase every key whose draw says so, then insert more: prints the keys in order
ERASE_PROGRAM = r"""
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  uint64_t x = strtoull(argv[2], 0, 10);
  int later = atoi(argv[3]);
  std::unordered_map<uint64_t, int> m;
  uint64_t keys[100000];
  for (int i = 0; i < n; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    keys[i] = x >> 7;
    m.emplace(keys[i], i);
  }
  for (int i = 0; i < n; i++)
    if ((keys[i] >> 3) % 3 != 0) m.erase(keys[i]);
  for (int i = 0; i < later; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    m.emplace(x >> 7, n + i);
  }
  for (auto &p : m) printf("%llu ", (unsigned long long)p.first);
  printf("\n");
}
"""


def test_erasing_keeps_the_grown_buckets() -> None:
    # 14 keys grow the map to 29 buckets (the rehash turns the list around: 13, 0, 1, ...);
    # erasing 12 of them keeps 29 buckets, so 29 lands in bucket 0, just before key 0 --
    # a fresh map of the same three keys (13 buckets: 1, 0) puts it in bucket 3, in front
    table = UnorderedMapTable.filled(list(range(14)))
    for key in range(2, 14):
        table.erase(key)
    table.insert(29)
    assert table.order() == [29, 0, 1]
    assert UnorderedMapTable.filled([0, 1, 29]).order() == [29, 1, 0]


@pytest.mark.compat
@pytest.mark.parametrize(("n", "later"), [(12, 3), (30, 10), (200, 150), (1000, 40)])
def test_unordered_map_erase_matches_libstdcxx(n: int, later: int, tmp_path: Path) -> None:
    binary = compiled(ERASE_PROGRAM, tmp_path / "umap_erase")
    for seed in (1, 5, 99):
        out = subprocess.run([binary, str(n), str(seed), str(later)], capture_output=True,
                             text=True, check=True).stdout  # fmt: skip
        x, drawn = seed, []
        for _ in range(n + later):
            x = (x * 6364136223846793005 + 1442695040888963407) & M64
            drawn.append(x >> 7)
        table = UnorderedMapTable.filled(drawn[:n])
        for key in drawn[:n]:
            if (key >> 3) % 3:
                table.erase(key)
        for key in drawn[n:]:
            table.insert(key)
        assert table.order() == [int(t) for t in out.split()]


@settings(max_examples=80, deadline=None)
@given(
    names=st.lists(
        st.text(st.characters(min_codepoint=0x21, max_codepoint=0x2FF), min_size=1, max_size=40)
        | st.integers(0, (1 << 64) - 1).map(str),
        unique=True,
        max_size=60,
    ),
    number=st.sampled_from([13, 14, 16, 19, 22]),
)
def test_the_map_order_of_names_is_that_of_their_profiles(names: list[str], number: int) -> None:
    """The order from names alone (``show --topn`` from columns) is the order of a
    profile of those functions, decimal names (MD5 values elsewhere) included."""
    profile = SampleProfile(
        profiles={(c := SampleContext(name)): FunctionSamples(c) for name in names}
    )
    whole = release_map_order(profile, release(number), False)
    assert [names[k] for k in name_map_order(names, release(number))] == [fs.name for fs in whole]
