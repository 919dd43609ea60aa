#!/usr/bin/env python3
"""``profdata show`` against ``llvm-profdata show`` on a large real profile, as ratios.

Absolute times drift between machines and runs, so both tools are measured
in the same run on the same files and the table reports profdata's time as a
multiple of llvm-profdata's.  The profiles come from the shared benchmark
kit (``shared/bench``): a generated C program of N functions built with
``clang-R -O1 -fprofile-generate`` and run once (seed 1), plus the indexed
profile the real ``llvm-profdata merge`` makes of it.  Missing profiles are
built first (N=20000 compiles in about 2 minutes on 2 cores, N=100000 in 11).

usage: bench_show.py [N] [--runs 5] [--release 22] [--results FILE.jsonl]
env:   BENCH_ROOT (default ~/profbench), where build_profiles.sh keeps its data
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
BENCH_KIT = Path(os.environ.get("PROFDATA_BENCH_KIT", REPO.parent / "shared" / "bench"))


@dataclass(frozen=True)
class Operation:
    name: str
    args: tuple[str, ...]
    inputs: tuple[str, ...]  # "raw", "indexed"


OPERATIONS = (
    Operation("show --all-functions --counts", ("show", "--all-functions", "--counts"),
              ("raw", "indexed")),
    Operation("show --detailed-summary", ("show", "--detailed-summary"), ("indexed",)),
)  # fmt: skip


def llvm_profdata(release: int) -> Path:
    return Path(f"/usr/lib/llvm-{release}/bin/llvm-profdata")


def ensure_profiles(n: int, release: int, bench_root: Path) -> dict[str, Path]:
    """The raw profile of seed 1 and its indexed form, built when missing."""
    build = bench_root / f"n{n}" / f"c{release}"
    raw = build / "raw" / "seed_0001.profraw"
    if not raw.exists():
        env = {**os.environ, "BENCH_ROOT": str(bench_root)}
        subprocess.run(
            ["bash", str(BENCH_KIT / "build_profiles.sh"), str(n), "1", str(release)],
            env=env,
            check=True,
        )
    indexed = build / "seed_0001.profdata"
    if not indexed.exists():
        subprocess.run(
            [str(llvm_profdata(release)), "merge", "-o", str(indexed), str(raw)], check=True
        )
    return {"raw": raw, "indexed": indexed}


def same_stdout(commands: list[list[str]]) -> bool:
    """Whether every command exits 0 and prints the same bytes: a fast wrong answer is no win."""
    runs = [subprocess.run(c, capture_output=True) for c in commands]
    return all(r.returncode == 0 for r in runs) and len({r.stdout for r in runs}) == 1


def measure(name: str, cmd: list[str], runs: int, results: Path, tags: dict[str, str]) -> None:
    tag_args = [a for k, v in tags.items() for a in ("--tag", f"{k}={v}")]
    subprocess.run(
        [sys.executable, str(BENCH_KIT / "measure.py"), "--name", name, "--runs", str(runs),
         "--results", str(results), *tag_args, "--", *cmd],
        check=False,
    )  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=20000, help="functions in the program")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--release", type=int, default=22, help="LLVM release to compare with")
    ap.add_argument("--results", type=Path, default=None, help="keep measure.py's JSON lines")
    a = ap.parse_args()
    bench_root = Path(os.environ.get("BENCH_ROOT", Path.home() / "profbench"))
    tool = llvm_profdata(a.release)
    if not tool.exists():
        sys.exit(f"{tool} is not installed")
    files = ensure_profiles(a.n, a.release, bench_root)
    results = a.results or Path(tempfile.mkstemp(suffix=".jsonl", prefix="bench-show-")[1])

    rows = []
    for op in OPERATIONS:
        for kind in op.inputs:
            path = str(files[kind])
            ours = [sys.executable, "-m", "profdata", f"--llvm-release={a.release}", *op.args, path]
            theirs = [str(tool), *op.args, path]
            identical = same_stdout([ours, theirs])
            for who, cmd in (("llvm-profdata", theirs), ("profdata", ours)):
                tags = {"op": op.name, "input": kind, "tool": who, "n": str(a.n)}
                measure(f"{who} {op.name} ({kind})", cmd, a.runs, results, tags)
            rows.append((op.name, kind, identical))

    recs = [json.loads(line) for line in results.read_text().splitlines()]

    def find(op: str, kind: str, who: str) -> dict[str, Any]:
        tags = {"op": op, "input": kind, "tool": who, "n": str(a.n)}
        found: dict[str, Any] = [r for r in recs if r["tags"] == tags][-1]
        return found

    size = {k: p.stat().st_size for k, p in files.items()}
    print()
    print(f"N={a.n}: raw {size['raw'] / 1e6:.1f} MB, indexed {size['indexed'] / 1e6:.1f} MB; "
          f"min wall of {a.runs} runs (+1 warm-up); llvm-profdata {a.release}")  # fmt: skip
    print()
    print("| operation | input | llvm-profdata | profdata | ratio | peak RSS llvm / ours "
          "| same stdout |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for op_name, kind, identical in rows:
        ref, got = find(op_name, kind, "llvm-profdata"), find(op_name, kind, "profdata")
        ratio = f"{got['wall_min'] / ref['wall_min']:.1f}x" if got["rc"] == 0 else "failed"
        rss = f"{ref['maxrss_kb_max'] / 1024:.0f} / {got['maxrss_kb_max'] / 1024:.0f} MiB"
        print(f"| `{op_name}` | {kind} | {ref['wall_min']:.3f} s | {got['wall_min']:.3f} s "
              f"| {ratio} | {rss} | {'yes' if identical else 'NO'} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
