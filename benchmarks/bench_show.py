#!/usr/bin/env python3
"""``profdata show`` and ``overlap`` against ``llvm-profdata`` on large real profiles, as ratios.

Absolute times drift between machines and runs, so both tools are measured
in the same run on the same files and the table reports profdata's time as a
multiple of llvm-profdata's, for wall time and for CPU time (user + sys; the
steadier of the two on a loaded machine).  The profiles come from the shared
benchmark kit (``shared/bench``): a generated C program of N functions built
with ``clang-R -O1 -fprofile-generate`` and run once (seed 1), plus the
indexed profile the real ``llvm-profdata merge`` makes of it.  Missing
profiles are built first (N=20000 compiles in about 2 minutes on 2 cores,
N=100000 in 11); ``--no-build`` skips sizes whose profiles are missing.

Every operation is first run once by both tools and their stdout compared: a
fast wrong answer is no win.  The modules are byte-compiled first
(``compileall``), as an installed package is: with ``PYTHONDONTWRITEBYTECODE``
set and no ``__pycache__``, every run would otherwise recompile all of
profdata.  ``--src DIR`` measures another source tree (put first on
``PYTHONPATH``), e.g. an export of an older commit for a before/after table::

    git archive HEAD src | tar -x -C /tmp/before
    benchmarks/bench_show.py 20000 100000 --src /tmp/before/src

usage: bench_show.py [N ...] [--runs 5] [--release 22] [--results FILE.jsonl]
                     [--src DIR] [--no-build] [--only TEXT]
env:   BENCH_ROOT (default ~/profbench), where build_profiles.sh keeps its data
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
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
    copies: int = 1  # how many times the input is given (overlap compares it with itself)


OPERATIONS = (
    Operation("show --all-functions --counts", ("show", "--all-functions", "--counts")),
    Operation("show", ("show",)),
    Operation("show --detailed-summary", ("show", "--detailed-summary")),
    Operation("show --text --all-functions", ("show", "--text", "--all-functions")),
    Operation(
        "show --all-functions --ic-targets --memop-sizes",
        ("show", "--all-functions", "--ic-targets", "--memop-sizes"),
    ),
    Operation("show --ic-targets --memop-sizes", ("show", "--ic-targets", "--memop-sizes")),
    Operation("overlap (a profile with itself)", ("overlap",), copies=2),
)
INPUTS = ("raw", "indexed")


def llvm_profdata(release: int) -> Path:
    return Path(f"/usr/lib/llvm-{release}/bin/llvm-profdata")


def profiles(n: int, release: int, bench_root: Path, build: bool) -> dict[str, Path] | None:
    """The raw profile of seed 1 and its indexed form, built when missing (None: skipped)."""
    out = bench_root / f"n{n}" / f"c{release}"
    raw = out / "raw" / "seed_0001.profraw"
    if not raw.exists():
        if not build:
            return None
        env = {**os.environ, "BENCH_ROOT": str(bench_root)}
        subprocess.run(
            ["bash", str(BENCH_KIT / "build_profiles.sh"), str(n), "1", str(release)],
            env=env,
            check=True,
        )
    indexed = out / "seed_0001.profdata"
    if not indexed.exists():
        subprocess.run(
            [str(llvm_profdata(release)), "merge", "-o", str(indexed), str(raw)], check=True
        )
    return {"raw": raw, "indexed": indexed}


def same_stdout(commands: list[list[str]], env: dict[str, str]) -> bool:
    """Whether every command exits 0 and prints the same bytes."""
    runs = [subprocess.run(c, capture_output=True, env=env) for c in commands]
    return all(r.returncode == 0 for r in runs) and len({r.stdout for r in runs}) == 1


def measure(
    name: str, cmd: list[str], runs: int, results: Path, tags: dict[str, str], env: dict[str, str]
) -> None:
    tag_args = [a for k, v in tags.items() for a in ("--tag", f"{k}={v}")]
    subprocess.run(
        [sys.executable, str(BENCH_KIT / "measure.py"), "--name", name, "--runs", str(runs),
         "--results", str(results), *tag_args, "--", *cmd],
        check=False,
        env=env,
    )  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="*", help="functions in the program (default 20000)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--release", type=int, default=22, help="LLVM release to compare with")
    ap.add_argument("--results", type=Path, default=None, help="keep measure.py's JSON lines")
    ap.add_argument("--src", type=Path, default=REPO / "src", help="profdata source tree to run")
    ap.add_argument("--no-build", action="store_true", help="skip sizes with no profiles")
    ap.add_argument("--only", default="", help="only operations whose name contains this")
    a = ap.parse_args()
    sizes = a.n or [20000]
    bench_root = Path(os.environ.get("BENCH_ROOT", Path.home() / "profbench"))
    tool = llvm_profdata(a.release)
    if not tool.exists():
        sys.exit(f"{tool} is not installed")
    src = a.src.resolve()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src / "profdata")], check=True)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")]),
    }
    scratch = Path(tempfile.mkdtemp(prefix="bench-show-"))
    atexit.register(shutil.rmtree, scratch, True)
    results = a.results or scratch / "results.jsonl"
    results.touch()

    rows: list[tuple[int, str, str, bool]] = []
    sizes_of: dict[int, dict[str, int]] = {}
    for n in sizes:
        files = profiles(n, a.release, bench_root, build=not a.no_build)
        if files is None:
            print(f"N={n}: no profiles under {bench_root}, skipped", file=sys.stderr)
            continue
        sizes_of[n] = {k: p.stat().st_size for k, p in files.items()}
        for op in OPERATIONS:
            if a.only not in op.name:
                continue
            for kind in INPUTS:
                paths = [str(files[kind])] * op.copies
                ours = [sys.executable, "-m", "profdata", f"--llvm-release={a.release}", *op.args,
                        *paths]  # fmt: skip
                theirs = [str(tool), *op.args, *paths]
                identical = same_stdout([ours, theirs], env)
                for who, cmd in (("llvm-profdata", theirs), ("profdata", ours)):
                    tags = {"op": op.name, "input": kind, "tool": who, "n": str(n)}
                    measure(f"{who} {op.name} ({kind}, N={n})", cmd, a.runs, results, tags, env)
                rows.append((n, op.name, kind, identical))

    recs = [json.loads(line) for line in results.read_text().splitlines()]

    def find(n: int, op: str, kind: str, who: str) -> dict[str, Any]:
        tags = {"op": op, "input": kind, "tool": who, "n": str(n)}
        found: dict[str, Any] = [r for r in recs if r["tags"] == tags][-1]
        return found

    def cpu(rec: dict[str, Any]) -> float:
        return float(min(u + s for u, s in zip(rec["user"], rec["sys"], strict=True)))

    print()
    for n, size in sizes_of.items():
        print(f"N={n}: raw {size['raw'] / 1e6:.1f} MB, indexed {size['indexed'] / 1e6:.1f} MB")
    print(f"min of {a.runs} runs (+1 warm-up); llvm-profdata {a.release}; profdata from {src}")
    print()
    print("| N | operation | input | llvm wall | profdata wall | wall ratio | llvm cpu "
          "| profdata cpu | cpu ratio | peak RSS llvm / ours | same stdout |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n, op_name, kind, identical in rows:
        ref, got = find(n, op_name, kind, "llvm-profdata"), find(n, op_name, kind, "profdata")
        ok = got["rc"] == 0
        wall = f"{got['wall_min'] / ref['wall_min']:.1f}x" if ok else "failed"
        ratio = f"{cpu(got) / max(cpu(ref), 0.01):.1f}x" if ok else "failed"
        rss = f"{ref['maxrss_kb_max'] / 1024:.0f} / {got['maxrss_kb_max'] / 1024:.0f} MiB"
        print(f"| {n} | `{op_name}` | {kind} | {ref['wall_min']:.3f} s | {got['wall_min']:.3f} s "
              f"| {wall} | {cpu(ref):.2f} s | {cpu(got):.2f} s | {ratio} | {rss} "
              f"| {'yes' if identical else 'NO'} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
