#!/usr/bin/env python3
"""``profdata order`` against ``llvm-profdata order`` on generated trace profiles, as ratios.

Each case is a text profile of N functions and T temporal traces (shuffled
blocks of functions, as startup traces of different runs look); both tools
order it in the same session, as separate processes (best of ``--runs``),
and their outputs must be byte-identical, which is checked first.  Also
reported: profdata's in-process time for the ordering alone (reading plus
balanced partitioning, no interpreter start-up).

usage: bench_order.py [--runs 3] [--release 22] [--shapes 3000x20,3000x100,6000x50]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_SHAPES = "1000x20,3000x20,3000x100,6000x50"


def make_profile(path: Path, functions: int, traces: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    names = [f"startup_fn_{i}" for i in range(functions)]
    lines = [":ir", ":temporal_prof_traces", "# Num Traces", str(traces)]
    lines += ["# Trace Stream Size", str(traces)]
    for _ in range(traces):
        blocks = [names[i : i + 16] for i in range(0, functions, 16)]
        rng.shuffle(blocks)
        calls = [f for block in blocks for f in block][: rng.randint(functions // 4, functions)]
        if rng.random() < 0.3:
            rng.shuffle(calls)
        lines += ["# Weight", "1", ",".join(calls)]
    for name in names:
        lines += [name, "1", "1", "1"]
    path.write_text("\n".join(lines) + "\n")


def best_time(cmd: list[str], runs: int) -> tuple[float, bytes]:
    best, out = float("inf"), b""
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, check=True)
        best = min(best, time.perf_counter() - start)
        out = done.stdout
    return best, out


def in_process_time(path: Path, release: int, runs: int) -> float:
    from profdata.formats import open_instr
    from profdata.ops.order import order_functions
    from profdata.releases import release as release_row

    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        profile = open_instr(path)
        order_functions(profile.traces, release=release_row(release))
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--release", type=int, default=22)
    parser.add_argument("--shapes", default=DEFAULT_SHAPES)
    args = parser.parse_args()
    tool = f"/usr/lib/llvm-{args.release}/bin/llvm-profdata"
    ours = [sys.executable, "-m", "profdata", f"--llvm-release={args.release}"]
    print(f"{'case':>12} {'llvm (s)':>9} {'profdata (s)':>12} {'ratio':>6} {'in-process':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes.split(","):
            functions, traces = (int(x) for x in shape.split("x"))
            path = Path(tmp) / f"{shape}.proftext"
            make_profile(path, functions, traces)
            theirs_s, theirs = best_time([tool, "order", str(path)], args.runs)
            ours_s, mine = best_time([*ours, "order", str(path)], args.runs)
            if mine != theirs:
                print(f"{shape}: outputs differ", file=sys.stderr)
                return 1
            inner = in_process_time(path, args.release, args.runs)
            print(
                f"{shape:>12} {theirs_s:9.3f} {ours_s:12.3f} {ours_s / theirs_s:6.1f} {inner:10.3f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
