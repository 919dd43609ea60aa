"""``profdata order`` against the installed llvm-profdata 19/22, run live.

Random text profiles (seeded, so failures reproduce) with traces made of
shuffled blocks of functions, partly shuffled again, of many lengths: ties
between gains, empty sides and deep recursion all occur.  Each profile is
ordered by the real tool and by ``profdata.cli.main`` with the same
``--llvm-release``, with and without test traces; stdout must be identical.
The libstdc++ pieces replayed in Python (``std::mt19937`` with
``uniform_real_distribution<float>``, ``std::nth_element``) are compared with
a compiled C++ program when a C++ compiler is installed.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from profdata.model.balanced_partitioning import Mt19937Bank
from profdata.model.cxx_algo import nth_element
from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

SHAPES = [(6, 3), (40, 4), (150, 7), (500, 12), (64, 1)]


def _profile(seed: int, functions: int, traces: int) -> str:
    rng = random.Random(seed)
    names = [f"fn_{i}" for i in range(functions)]
    lines = [":ir", ":temporal_prof_traces", "# Num Traces", str(traces)]
    lines += ["# Trace Stream Size", str(traces)]
    for _ in range(traces):
        blocks = [names[i : i + rng.randint(2, 12)] for i in range(0, functions, 6)]
        rng.shuffle(blocks)
        calls = list(dict.fromkeys(f for block in blocks for f in block))
        calls = calls[: rng.randint(1, len(calls))]
        if rng.random() < 0.3:
            rng.shuffle(calls)
        lines += ["# Weight", str(rng.randint(1, 5)), ",".join(calls)]
    for name in names:
        lines += [name, "1", "1", "1"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("release", [19, 22])
@pytest.mark.parametrize("seed", range(4))
def test_order_matches_llvm(
    release: int,
    seed: int,
    tmp_path: Path,
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = tools.find_llvm_profdata(release)
    if tool is None:
        pytest.skip(f"llvm-profdata {release} is not installed")
    for shape, (functions, traces) in enumerate(SHAPES):
        path = tmp_path / f"p{shape}.proftext"
        path.write_text(_profile(1000 * seed + shape, functions, traces))
        for extra in ([], ["--num-test-traces=1"]) if traces > 1 else ([],):
            args = ["order", *extra, str(path)]
            theirs = tools.run_tool(tool, args)
            ours = run_profdata(f"--llvm-release={release}", *args)
            assert (ours.code, ours.stdout) == (theirs.returncode, theirs.stdout), (shape, extra)


_CXX_PROGRAM = r"""
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>
int main() {
  unsigned seed, draws;
  while (std::scanf("%u %u", &seed, &draws) == 2) {
    std::mt19937 rng(seed);
    for (unsigned i = 0; i < draws; ++i) {
      std::mt19937 peek = rng;
      unsigned raw = peek();
      float u = std::uniform_real_distribution<float>(0.f, 1.f)(rng);
      std::printf("%u %d\n", raw, u <= 0.1f);
    }
  }
  int n, nth;
  std::FILE *keys = std::fopen("keys.txt", "r");
  while (std::fscanf(keys, "%d %d", &n, &nth) == 2) {
    std::vector<int> v(n);
    for (int &x : v) std::fscanf(keys, "%d", &x);
    std::nth_element(v.begin(), v.begin() + nth, v.end(),
                     [](int a, int b) { return a < b; });
    for (int x : v) std::printf("%d ", x);
    std::printf("\n");
  }
}
"""


def _cxx_compiler() -> str | None:
    clang = tools.find_clang(22, cxx=True)
    return str(clang) if clang is not None else shutil.which("g++")


def test_libstdcxx_pieces_match(tmp_path: Path) -> None:
    compiler = _cxx_compiler()
    if compiler is None:
        pytest.skip("no C++ compiler")
    (tmp_path / "p.cpp").write_text(_CXX_PROGRAM)
    subprocess.run([compiler, "-O1", "p.cpp", "-o", "p"], cwd=tmp_path, check=True, timeout=300)
    seeds = [1, 2, 3, 255, 4096, 262143]
    rng = random.Random(7)
    perms: list[tuple[list[int], int]] = []
    for _ in range(300):
        keys = list(range(rng.randint(0, 120)))
        roll = rng.random()
        if roll < 0.5:
            rng.shuffle(keys)
        elif roll < 0.75 and keys:
            for _ in range(3):
                i, j = rng.randrange(len(keys)), rng.randrange(len(keys))
                keys[i], keys[j] = keys[j], keys[i]
        else:
            keys = keys[::2] + keys[1::2][::-1]
        perms.append(
            (keys, (len(keys) + 1) // 2 if rng.random() < 0.7 else rng.randint(0, len(keys)))
        )
    (tmp_path / "keys.txt").write_text(
        "".join(f"{len(k)} {n} {' '.join(map(str, k))}\n" for k, n in perms)
    )
    stdin = "".join(f"{s} 1500\n" for s in seeds)
    out = subprocess.run(
        ["./p"], cwd=tmp_path, input=stdin, capture_output=True, text=True, check=True, timeout=300
    ).stdout.splitlines()
    draws = Mt19937Bank(np.array(seeds)).draw(np.full(len(seeds), 1500))
    cutoff = np.float32(0.1) * np.float32(2.0**32)
    ours = [f"{d} {int(np.float32(d) <= cutoff)}" for d in draws.tolist()]
    assert out[: len(ours)] == ours
    for (keys, nth), line in zip(perms, out[len(ours) :], strict=True):
        mine = list(keys)
        nth_element(mine, nth)
        assert mine == [int(x) for x in line.split()]
