#!/usr/bin/env python3
"""``profdata show/merge --sample`` against ``llvm-profdata`` on large generated sample profiles.

There is no sample-profile generator in the shared benchmark kit (a real
AutoFDO profile needs ``perf`` and ``create_llvm_prof``), so this script
writes one: N top-level functions with body samples, some at discriminators,
call targets naming other functions, and inlined callsites nested two to four
levels deep in about a third of the functions; everything follows from
``--seed``, so a size always gives the same bytes.  The text is written
directly, not by profdata's writer, so a bug in profdata cannot shape the
input it is measured on.  The real ``llvm-profdata merge --sample`` turns it
into the binary and ext-binary encodings; ``--variants`` (16) variants (the
same functions with other counts, about 5% of them missing in each) are the
inputs of the weighted merges (weights 1 to 4).  The files are kept under
``BENCH_ROOT/sample`` and reused.

Both tools run in the same session on the same files (absolute times drift
with the load of the machine, ratios much less); the table reports
profdata's time as a multiple of llvm-profdata's, for wall time and for CPU
time (user + sys), with the peak RSS of each.  Every case is first run once
by both tools and their stdout (``show``) or output file (``merge``)
compared byte for byte: a mismatch is printed with the first differing line
and marked ``NO`` in the table.  A case profdata cannot run yet (a feature
still missing) is reported with its error and the other cases go on.
``--cprofile`` runs profdata's slowest case once more under cProfile and
prints its hotspots.

usage: bench_sample.py [N ...] [--runs 5] [--release 22] [--seed 1] [--variants 16]
                       [--names plain|long|varied] [--results FILE.jsonl] [--src DIR]
                       [--only TEXT] [--cprofile]
env:   BENCH_ROOT (default ~/profbench); files go to BENCH_ROOT/sample/nN-sS[-long|-varied]
"""

from __future__ import annotations

import argparse
import atexit
import io
import json
import os
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_show import llvm_profdata, measure

REPO = Path(__file__).resolve().parents[1]
ENCODINGS = {"text": "--text", "binary": "--binary", "extbinary": "--extbinary"}


# -- the generated profile -----------------------------------------------------------------
#: how the generated functions are named (``--names``): Itanium-mangled names of about 30
#: bytes; the same with one name of 4,000 bytes (a C++ template instance), which the
#: others call as often as any; or every name between 30 and 430 bytes long
NAME_STYLES = ("plain", "long", "varied")
LONG_NAME_BYTES = 4000
_VARIED_PAD = 397  # names get 0..396 more bytes, spread by a multiplicative hash


@dataclass(frozen=True)
class Naming:
    """The function names of one generated profile (see ``NAME_STYLES``)."""

    n: int
    style: str = "plain"

    def __call__(self, i: int) -> str:
        ns = f"mod{i % 97}"
        fn = f"func_{i}"
        if self.style == "varied":
            fn += "Q" * (i * 2654435761 % _VARIED_PAD)
        elif self.style == "long" and i == self.long_index:
            fn += "L" * (LONG_NAME_BYTES - len(self.mangled(ns, fn)))
            while len(self.mangled(ns, fn)) > LONG_NAME_BYTES:  # fn's length got a digit more
                fn = fn[:-1]
        return self.mangled(ns, fn)

    @staticmethod
    def mangled(ns: str, fn: str) -> str:
        return f"_ZN5bench{len(ns)}{ns}{len(fn)}{fn}Ev"

    @property
    def long_index(self) -> int:
        return self.n // 31

    @property
    def folder_suffix(self) -> str:
        return "" if self.style == "plain" else f"-{self.style}"


class _Writer:
    """One profile's text: structure from ``shape``, counts from ``counts``.

    Two generators keep the variants of one seed structurally identical: the
    shape generator is consumed the same way whatever the counts are.
    """

    def __init__(self, n: int, shape: random.Random, counts: random.Random, name: Naming) -> None:
        self.n = n
        self.name = name
        self.shape = shape
        self.counts = counts

    def count(self, scale: int) -> int:
        return max(1, int(self.counts.lognormvariate(0, 1.2) * scale))

    def location(self, line: int) -> str:
        if self.shape.random() < 0.15:
            return f"{line}.{self.shape.randint(1, 7)}"
        return str(line)

    def body(self, lines: int, scale: int) -> tuple[list[tuple[str, int, str]], int]:
        """Body lines as (location, samples, targets) and their sample sum."""
        out = []
        total = 0
        line = 0
        for _ in range(lines):
            line += self.shape.randint(1, 3)
            loc = self.location(line)
            samples = self.count(scale)
            targets = ""
            if self.shape.random() < 0.2:
                callees = self.shape.sample(range(self.n), self.shape.randint(1, 3))
                targets = "".join(f" {self.name(c)}:{self.count(scale // 2 + 1)}" for c in callees)
            out.append((loc, samples, targets))
            total += samples
        return out, total

    def samples(self, depth: int, scale: int, top: bool) -> tuple[list[str], int]:
        """The indented lines of one (inlined) function below its head, and its total."""
        lines_wanted = self.shape.randint(5, 40) if top else self.shape.randint(2, 12)
        body, total = self.body(lines_wanted, scale)
        lines = [f"{loc}: {samples}{targets}" for loc, samples, targets in body]
        if depth > 0:
            last = int(body[-1][0].split(".")[0])
            for site in range(self.shape.randint(1, 2)):
                callee = self.name(self.shape.randrange(self.n))
                inner, inner_total = self.samples(depth - 1, max(1, scale // 2), False)
                lines.append(f"{self.location(last + 1 + site)}: {callee}:{inner_total}")
                lines.extend(" " + line for line in inner)
                total += inner_total
        return lines, total

    def function(self, i: int) -> str:
        roll = self.shape.random()
        depth = self.shape.randint(2, 4) if roll < 0.33 else (1 if roll < 0.5 else 0)
        scale = int(self.shape.paretovariate(1.5) * 100)
        lines, total = self.samples(depth, scale, True)
        head = self.count(scale // 4 + 1)
        return f"{self.name(i)}:{total}:{head}\n" + "".join(f" {x}\n" for x in lines)


def generate(n: int, seed: int, variant: int = 0, naming: Naming | None = None) -> bytes:
    """The text profile of ``n`` functions; variants > 0 drop about 5% of the functions.
    The names' style changes no count and no structure."""
    naming = naming or Naming(n)
    writer = _Writer(n, random.Random(seed), random.Random(f"{seed}:{variant}"), naming)
    keep = random.Random(f"{seed}:{variant}:keep")
    parts = []
    for i in range(n):
        text = writer.function(i)
        if variant == 0 or keep.random() >= 0.05:
            parts.append(text)
    return "".join(parts).encode()


def profiles(
    n: int, seed: int, variants: int, root: Path, tool: Path, naming: Naming
) -> dict[str, Callable[[], list[Path]]]:
    """The text profile and its two binary encodings, plus the variants: each set made
    when first asked for (a run of the show cases alone makes no variants)."""
    out = root / "sample" / f"n{n}-s{seed}{naming.folder_suffix}"
    out.mkdir(parents=True, exist_ok=True)

    def text(variant: int) -> Path:
        path = out / f"v{variant:02d}.text"
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(generate(n, seed, variant, naming))
            tmp.rename(path)
        return path

    def encoded(variant: int, kind: str) -> Path:
        path = out / f"v{variant:02d}.{kind}"
        if not path.exists():
            subprocess.run([str(tool), "merge", "--sample", ENCODINGS[kind], str(text(variant)),
                            "-o", str(path)], check=True)  # fmt: skip
        return path

    numbers = range(1, variants + 1)
    return {
        "text": lambda: [text(0)],
        "binary": lambda: [encoded(0, "binary")],
        "extbinary": lambda: [encoded(0, "extbinary")],
        "text-variants": lambda: [text(v) for v in numbers],
        "extbinary-variants": lambda: [encoded(v, "extbinary") for v in numbers],
    }


# -- the cases -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    name: str
    input: str  # key of profiles()
    args: tuple[str, ...]
    output: str = ""  # merge: the output encoding (the file is compared, not stdout)

    def command(self, inputs: list[Path], out: Path | None, naming: Naming) -> list[str]:
        files = [str(p) for p in inputs]
        if self.output:
            weighted = [f"--weighted-input={1 + i % 4},{p}" for i, p in enumerate(files)]
            paths = weighted if len(files) > 1 else files
            return [*self.args, ENCODINGS[self.output], *paths, "-o", str(out)]
        # F: a function called from elsewhere (with --names=long, the long-named one)
        function = naming(naming.long_index if naming.style == "long" else 7)
        return [*(a.replace("{F}", function) for a in self.args), *files]


SHOW = ("show", "--sample")
MERGE = ("merge", "--sample")
CASES = (
    *(Case(f"show ({k})", k, SHOW) for k in ENCODINGS),
    *(Case(f"show --detailed-summary ({k})", k, (*SHOW, "--detailed-summary")) for k in ENCODINGS),
    Case("show --topn=20 (extbinary)", "extbinary", (*SHOW, "--topn=20")),
    Case("show --show-format=json (extbinary)", "extbinary", (*SHOW, "--show-format=json")),
    Case("show --show-sec-info-only (extbinary)", "extbinary", (*SHOW, "--show-sec-info-only")),
    Case("show --function=F (extbinary)", "extbinary", (*SHOW, "--function={F}")),
    Case("merge text -> binary", "text", MERGE, "binary"),
    Case("merge text -> extbinary", "text", MERGE, "extbinary"),
    Case("merge extbinary -> text", "extbinary", MERGE, "text"),
    Case("merge {V} weighted extbinary -> extbinary", "extbinary-variants", MERGE, "extbinary"),
    Case("merge {V} weighted text -> extbinary", "text-variants", MERGE, "extbinary"),
)


@dataclass
class Check:
    """The first run of a case by both tools: exit codes and whether the outputs match."""

    llvm_rc: int
    ours_rc: int
    identical: bool
    problem: str = ""


def first_difference(a: bytes, b: bytes) -> str:
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb, strict=False)):
        if x != y:
            return f"line {i + 1}: llvm {x[:120]!r} / profdata {y[:120]!r}"
    if len(la) != len(lb):
        return f"llvm {len(la)} lines, profdata {len(lb)} lines"
    for i, (p, q) in enumerate(zip(a, b, strict=False)):
        if p != q:
            return f"byte {i}: llvm {p:#04x} / profdata {q:#04x} (sizes {len(a)} / {len(b)})"
    return f"sizes {len(a)} / {len(b)}"


def check(case: Case, theirs: list[str], ours: list[str], outs: dict[str, Path],
          env: dict[str, str]) -> Check:  # fmt: skip
    for stale in outs.values():
        stale.unlink(missing_ok=True)
    ref = subprocess.run(theirs, capture_output=True, env=env)
    got = subprocess.run(ours, capture_output=True, env=env)
    if ref.returncode != 0:
        tail = ref.stderr.decode(errors="replace").strip().splitlines()[-1:]
        return Check(ref.returncode, got.returncode, False, f"llvm-profdata failed: {tail}")
    if got.returncode != 0:
        tail = got.stderr.decode(errors="replace").strip().splitlines()[-3:]
        return Check(0, got.returncode, False, "profdata failed: " + " | ".join(tail))
    if case.output:
        a, b = outs["llvm"].read_bytes(), outs["profdata"].read_bytes()
    else:
        a, b = ref.stdout, got.stdout
    if a == b:
        return Check(0, 0, True)
    return Check(0, 0, False, "OUTPUT DIFFERS: " + first_difference(a, b))


def hotspots(cmd: list[str], env: dict[str, str], top: int) -> str:
    """cProfile of one more profdata run (``python -m cProfile -m profdata ...``)."""
    stats_file = Path(tempfile.mkstemp(suffix=".prof", prefix="bench-sample-")[1])
    profiled = [cmd[0], "-m", "cProfile", "-o", str(stats_file), *cmd[1:]]
    subprocess.run(profiled, env=env, stdout=subprocess.DEVNULL, check=False)
    text = io.StringIO()
    stats = pstats.Stats(str(stats_file), stream=text)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    print(f"(cProfile data kept in {stats_file})")
    return text.getvalue()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="*", help="top-level functions (default 5000)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--release", type=int, default=22, help="LLVM release to compare with")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", type=int, default=16, help="inputs of the weighted merges")
    ap.add_argument("--results", type=Path, default=None, help="keep measure.py's JSON lines")
    ap.add_argument("--src", type=Path, default=REPO / "src", help="profdata source tree to run")
    ap.add_argument("--only", default="", help="only cases whose name contains this")
    ap.add_argument("--cprofile", action="store_true", help="profile profdata's slowest case")
    ap.add_argument("--names", choices=NAME_STYLES, default="plain",
                    help="~30-byte names, one of 4,000 bytes, or 30-430 bytes")  # fmt: skip
    a = ap.parse_args()
    sizes = a.n or [5000]
    tool = llvm_profdata(a.release)
    if not tool.exists():
        sys.exit(f"{tool} is not installed")
    root = Path(os.environ.get("BENCH_ROOT", Path.home() / "profbench"))
    src = a.src.resolve()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src / "profdata")], check=True)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")]),
    }
    scratch = Path(tempfile.mkdtemp(prefix="bench-sample-"))
    atexit.register(shutil.rmtree, scratch, True)  # outputs of hundreds of MB a run
    results = a.results or scratch / "results.jsonl"
    results.touch()
    named = (replace(c, name=c.name.replace("{V}", str(a.variants))) for c in CASES)
    cases = [c for c in named if a.only in c.name]

    rows: list[tuple[int, Case, Check]] = []
    commands: dict[tuple[int, str], list[str]] = {}
    sizes_of: dict[int, dict[str, int]] = {}
    for n in sizes:
        naming = Naming(n, a.names)
        files = profiles(n, a.seed, a.variants, root, tool, naming)
        sizes_of[n] = {k: files[k]()[0].stat().st_size for k in ENCODINGS}
        for case in cases:
            inputs = files[case.input]()
            outs = {w: scratch / f"{w}.{case.output or 'out'}" for w in ("llvm", "profdata")}
            theirs = [str(tool), *case.command(inputs, outs["llvm"], naming)]
            ours = [sys.executable, "-m", "profdata", f"--llvm-release={a.release}",
                    *case.command(inputs, outs["profdata"], naming)]  # fmt: skip
            result = check(case, theirs, ours, outs, env)
            if result.problem:
                print(f"N={n} {case.name}: {result.problem}", file=sys.stderr, flush=True)
            whose = {"llvm-profdata": theirs}
            if result.ours_rc == 0:
                whose["profdata"] = ours
            for who, cmd in whose.items():
                tags = {"case": case.name, "tool": who, "n": str(n)}
                measure(f"{who} {case.name} (N={n})", cmd, a.runs, results, tags, env)
            commands[(n, case.name)] = ours
            rows.append((n, case, result))

    recs = [json.loads(line) for line in results.read_text().splitlines()]

    def find(n: int, case: str, who: str) -> dict[str, Any] | None:
        tags = {"case": case, "tool": who, "n": str(n)}
        found = [r for r in recs if r["tags"] == tags]
        return found[-1] if found else None

    def cpu(rec: dict[str, Any]) -> float:
        return float(min(u + s for u, s in zip(rec["user"], rec["sys"], strict=True)))

    load = os.getloadavg()
    print()
    for n, size in sizes_of.items():
        print(f"N={n} (seed {a.seed}, {a.names} names): text {size['text'] / 1e6:.1f} MB, "
              f"binary {size['binary'] / 1e6:.1f} MB, extbinary {size['extbinary'] / 1e6:.1f} MB; "
              f"{a.variants} variants")  # fmt: skip
    print(f"min of {a.runs} runs (+1 warm-up); llvm-profdata {a.release}; profdata from {src}; "
          f"load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
          f"on {os.cpu_count()} CPUs")  # fmt: skip
    print()
    print("| N | case | llvm wall | profdata wall | wall ratio | llvm cpu | profdata cpu "
          "| cpu ratio | peak RSS llvm / ours | identical |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    slowest: tuple[float, int, str] | None = None
    for n, case, result in rows:
        ref, got = find(n, case.name, "llvm-profdata"), find(n, case.name, "profdata")
        if ref is None or ref["rc"] != 0:
            print(f"| {n} | `{case.name}` | llvm-profdata failed | | | | | | | |")
            continue
        same = "yes" if result.identical else "**NO**"
        if got is None or got["rc"] != 0:
            print(
                f"| {n} | `{case.name}` | {ref['wall_min']:.3f} s | **failed** | | "
                f"{cpu(ref):.2f} s | | | {ref['maxrss_kb_max'] / 1024:.0f} / - MiB | not compared |"
            )
            continue
        if slowest is None or got["wall_min"] > slowest[0]:
            slowest = (got["wall_min"], n, case.name)
        wall = got["wall_min"] / ref["wall_min"]
        ratio = cpu(got) / max(cpu(ref), 0.01)
        rss = f"{ref['maxrss_kb_max'] / 1024:.0f} / {got['maxrss_kb_max'] / 1024:.0f} MiB"
        print(
            f"| {n} | `{case.name}` | {ref['wall_min']:.3f} s | {got['wall_min']:.3f} s "
            f"| {wall:.1f}x | {cpu(ref):.2f} s | {cpu(got):.2f} s | {ratio:.1f}x | {rss} "
            f"| {same} |"
        )
    problems = [(n, c, r) for n, c, r in rows if r.problem]
    if problems:
        print()
        print("Problems:")
        for n, case, result in problems:
            print(f"- N={n} `{case.name}`: {result.problem}")
    if a.cprofile and slowest is not None:
        _, n, name = slowest
        print()
        print(f"cProfile of profdata `{name}` (N={n}):")
        print(hotspots(commands[(n, name)], env, 25))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
