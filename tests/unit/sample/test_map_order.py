"""The profile map's iteration order: libstdc++ ``unordered_map`` replayed, LLVM's hashes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from profdata.model.sample_map_order import hash_combine_range, hash_short, unordered_map_order

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


@pytest.mark.compat
@pytest.mark.parametrize("n", [1, 12, 13, 14, 29, 30, 60, 128, 1000])
def test_unordered_map_order_matches_libstdcxx(n: int, tmp_path: Path) -> None:
    compiler = shutil.which("clang++-22") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    source = tmp_path / "umap.cc"
    source.write_text(PROGRAM)
    binary = tmp_path / "umap"
    subprocess.run([compiler, "-O1", "-o", binary, source], check=True)
    for seed in (1, 5, 99):
        out = subprocess.run([binary, str(n), str(seed)], capture_output=True, text=True).stdout
        assert unordered_map_order(keys(n, seed)) == [int(t) for t in out.split()]
