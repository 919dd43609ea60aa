#!/usr/bin/env python3
"""``profdata merge`` against ``llvm-profdata merge`` on large real profiles, as ratios.

The speed goal of the merge: many raw profiles of one binary merge at least
10x faster than ``llvm-profdata merge -j2`` at no more peak memory.  Both
tools run in the same session on the same files (absolute times drift
between machines and with the load of the machine, ratios much less), each
at ``-j1`` and ``-j2``: for llvm-profdata that is 1 or 2 threads; for
profdata it replays LLVM's split into 1 or 2 writer contexts, so the two
outputs of the same ``-j`` must be byte-identical, which is checked first.

For the raw cases the floor is measured too (``merge_floor.py``: map each
input, touch its pages, add its counter array with numpy, in a fresh
Python process): no merge of those files can take less, so profdata's time
is also printed as a multiple of it.

Cases: 1, 16 and 128 raw profiles (seeds 1..K of the generated program of
N functions, ``shared/bench``), 16 indexed profiles (each raw seed
merged alone by the real tool, made once), and the incremental merge: the
indexed profile of seed 1 followed by the raw seeds 2..17.  Missing raw seeds are generated
with ``build_profiles.sh`` (it reuses the build).  Peak RSS is GNU time's
maximum resident set size of the process.

usage: bench_merge.py [N] [--runs 3] [--release 22] [--results FILE.jsonl]
                      [--src DIR] [--only TEXT]
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
THREADS = (1, 2)


@dataclass(frozen=True)
class Case:
    name: str
    kind: str  # "raw", "indexed", or "mixed" (an indexed profile, then ``count`` raw runs)
    count: int
    extra: tuple[str, ...] = ()


CASES = (
    Case("1 raw", "raw", 1),
    Case("1 raw --sparse", "raw", 1, ("--sparse",)),
    Case("16 raw", "raw", 16),
    Case("128 raw", "raw", 128),
    Case("16 indexed", "indexed", 16),
    Case("1 indexed + 16 raw", "mixed", 16),
)


def llvm_profdata(release: int) -> Path:
    return Path(f"/usr/lib/llvm-{release}/bin/llvm-profdata")


def raw_inputs(n: int, count: int, release: int, root: Path) -> list[Path]:
    raw = root / f"n{n}" / f"c{release}" / "raw"
    paths = [raw / f"seed_{seed:04d}.profraw" for seed in range(1, count + 1)]
    if not all(p.exists() for p in paths):
        env = {**os.environ, "BENCH_ROOT": str(root)}
        subprocess.run(
            ["bash", str(BENCH_KIT / "build_profiles.sh"), str(n), str(count), str(release)],
            env=env,
            check=True,
        )
    return paths


def indexed_inputs(raws: list[Path], release: int) -> list[Path]:
    """Each raw seed merged alone by the real tool (kept next to the raw folder)."""
    out = raws[0].parent.parent / "indexed"
    out.mkdir(exist_ok=True)
    paths = []
    for raw in raws:
        path = out / (raw.stem + ".profdata")
        if not path.exists():
            subprocess.run(
                [str(llvm_profdata(release)), "merge", "-o", str(path), str(raw)], check=True
            )
        paths.append(path)
    return paths


def measure(name: str, cmd: list[str], runs: int, results: Path, tags: dict[str, str]) -> None:
    tag_args = [a for k, v in tags.items() for a in ("--tag", f"{k}={v}")]
    subprocess.run(
        [sys.executable, str(BENCH_KIT / "measure.py"), "--name", name, "--runs", str(runs),
         "--results", str(results), *tag_args, "--", *cmd],
        check=False,
    )  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=100000, help="functions in the program")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--release", type=int, default=22, help="LLVM release to compare with")
    ap.add_argument("--results", type=Path, default=None, help="keep measure.py's JSON lines")
    ap.add_argument("--src", type=Path, default=REPO / "src", help="profdata source tree to run")
    ap.add_argument("--only", default="", help="only cases whose name contains this")
    a = ap.parse_args()
    tool = llvm_profdata(a.release)
    if not tool.exists():
        sys.exit(f"{tool} is not installed")
    root = Path(os.environ.get("BENCH_ROOT", Path.home() / "profbench"))
    src = a.src.resolve()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src / "profdata")], check=True)
    os.environ["PYTHONPATH"] = os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")])
    scratch = Path(tempfile.mkdtemp(prefix="bench-merge-"))
    atexit.register(shutil.rmtree, scratch, True)  # outputs of hundreds of MB a run
    results = a.results or scratch / "results.jsonl"
    results.touch()
    cases = [c for c in CASES if a.only in c.name]
    wanted = max((c.count + (c.kind == "mixed") for c in cases), default=1)
    raws = raw_inputs(a.n, wanted, a.release, root)
    wants_indexed = any(c.kind != "raw" for c in cases)
    indexed = indexed_inputs(raws[:16], a.release) if wants_indexed else []

    identical: dict[tuple[str, int], bool] = {}
    floors: set[str] = set()
    for case in cases:
        if case.kind == "mixed":  # the incremental merge: an earlier profile, new runs
            inputs = [str(indexed[0]), *(str(p) for p in raws[1 : case.count + 1])]
        else:
            inputs = [str(p) for p in (raws if case.kind == "raw" else indexed)[: case.count]]
        if case.kind == "raw" and not case.extra:
            floor = [sys.executable, str(Path(__file__).with_name("merge_floor.py")), *inputs]
            tags = {"case": case.name, "tool": "floor", "j": "1", "n": str(a.n)}
            measure(f"floor {case.name}", floor, a.runs, results, tags)
            floors.add(case.name)
        for threads in THREADS:
            outs = {who: scratch / f"{who}-{threads}.profdata" for who in ("llvm", "profdata")}
            cmds = {
                "llvm": [str(tool), "merge", "-j", str(threads), *case.extra,
                         "-o", str(outs["llvm"]), *inputs],
                "profdata": [sys.executable, "-m", "profdata", f"--llvm-release={a.release}",
                             "merge", "-j", str(threads), *case.extra,
                             "-o", str(outs["profdata"]), *inputs],
            }  # fmt: skip
            for cmd in cmds.values():
                subprocess.run(cmd, check=True, capture_output=True)
            same = outs["llvm"].read_bytes() == outs["profdata"].read_bytes()
            identical[(case.name, threads)] = same
            for who, cmd in cmds.items():
                tags = {"case": case.name, "tool": who, "j": str(threads), "n": str(a.n)}
                measure(f"{who} -j{threads} {case.name}", cmd, a.runs, results, tags)

    recs = [json.loads(line) for line in results.read_text().splitlines()]

    def find(case: str, who: str, threads: int) -> dict[str, Any]:
        tags = {"case": case, "tool": who, "j": str(threads), "n": str(a.n)}
        found: dict[str, Any] = [r for r in recs if r["tags"] == tags][-1]
        return found

    size = sum(p.stat().st_size for p in raws[:wanted])
    print()
    print(f"N={a.n}: {len(raws)} raw profiles, {size / 1e9:.2f} GB; min of {a.runs} runs "
          f"(+1 warm-up); llvm-profdata {a.release}; profdata from {src}")  # fmt: skip
    print(
        "speedup = llvm-profdata's wall time / profdata's (same -j); "
        "`vs -j2` compares every profdata run with llvm-profdata -j2"
    )
    print()
    print("| case | -j | llvm wall | profdata wall | speedup | vs llvm -j2 "
          "| peak RSS llvm / ours | identical |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for case in cases:
        best = find(case.name, "llvm", 2)
        for threads in THREADS:
            ref, got = find(case.name, "llvm", threads), find(case.name, "profdata", threads)
            ok = got["rc"] == 0 and ref["rc"] == 0
            speed = f"{ref['wall_min'] / got['wall_min']:.1f}x" if ok else "failed"
            versus = f"{best['wall_min'] / got['wall_min']:.1f}x" if ok else "failed"
            rss = f"{ref['maxrss_kb_max'] / 1024:.0f} / {got['maxrss_kb_max'] / 1024:.0f} MiB"
            mark = "yes" if identical[(case.name, threads)] else "NO"
            print(f"| {case.name} | {threads} | {ref['wall_min']:.2f} s | {got['wall_min']:.2f} s "
                  f"| {speed} | {versus} | {rss} | {mark} |")  # fmt: skip
    if floors:
        print()
        print("floor = map the inputs, touch every page, add the counter arrays (merge_floor.py)")
        print()
        print("| case | floor | profdata -j1 | profdata -j2 | best profdata / floor |")
        print("|---|---|---|---|---|")
    for case in cases:
        if case.name not in floors:
            continue
        base = find(case.name, "floor", 1)["wall_min"]
        walls = [find(case.name, "profdata", threads)["wall_min"] for threads in THREADS]
        print(f"| {case.name} | {base:.2f} s | {walls[0]:.2f} s | {walls[1]:.2f} s "
              f"| {min(walls) / base:.1f}x |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
