#!/usr/bin/env python3
"""Differential fuzzing of profdata against the real llvm-profdata, on damaged inputs.

Why: the corpus and the goldens hold a few dozen damaged files, each made on purpose
(a header field set out of range, a file cut in half).  A profile runtime written by
hand, a disk that flips a bit or a copy cut short make others, and on those
profdata must still do what llvm-profdata does where it does something defined:
the same exit status, standard output and output file, and the same first error
line.  This tool damages real profiles (those of the shared corpus and the golden
programs, and the sample profiles of ``tools/fuzz_paths.py``) the way
``tools/fuzz_paths.py`` does, runs one command on them with both tools and keeps
every case where they differ.

Each case runs the release that made its seed (``-lNN`` in the folder's name; a raw
profile is readable only by its own release) or, for sample profiles, any installed
release of 14, 16, 19 and 22.  Commands: ``show`` (plain, ``--all-functions
--counts``, ``--ic-targets --memop-sizes``, ``--detailed-summary``, ``--text``),
``merge`` (indexed and ``--text`` output), ``overlap``, and the ``--sample`` forms of
``show``, ``merge`` and ``overlap``.

Sorted as it goes:

* ``same``: exit status, standard output, output file and first error line equal;
* ``real-crash``: llvm-profdata died of a signal or took over 20 s (profdata's answer
  is not compared: its located error is the deliberate difference);
* ``differ``: anything else, kept as a folder (the inputs, ``case.json`` and
  ``report.txt``) for a look; ``--replay FOLDER`` runs one again.

Run (one process; Ctrl-C stops it and prints the tally)::

    python tools/fuzz_llvm.py --minutes 30 --out /tmp/fuzz-llvm
    python tools/fuzz_llvm.py --replay /tmp/fuzz-llvm/case-00012
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from fuzz_paths import (
    CORPUS,
    INSTR_ROOTS,
    Mutation,
    _captured,
    _in_deep_thread,
    _is_text,
    damage_bytes,
    damage_text,
    raw_regions,
    sample_groups,
    write_inputs,
)

from profdata.cli import main as cli_main  # the profdata fuzz_paths put first on the path

SECONDS = 20
INDEXED_MAGIC = b"\xfflprofi\x81"
INSTR_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("show", "FILE0"),
    ("show", "--all-functions", "--counts", "FILE0"),
    ("show", "--all-functions", "--ic-targets", "--memop-sizes", "FILE0"),
    ("show", "--detailed-summary", "FILE0"),
    ("show", "--text", "--all-functions", "FILE0"),
    ("merge", "FILE0", "FILE1", "-o", "OUT"),
    ("merge", "--text", "FILE0", "FILE1", "-o", "OUT"),
    ("overlap", "FILE0", "FILE1"),
)
SAMPLE_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("show", "--sample", "FILE0"),
    ("show", "--sample", "--detailed-summary", "FILE0"),
    ("show", "--sample", "--hot-func-list", "FILE0"),
    ("merge", "--sample", "--text", "FILE0", "FILE1", "-o", "OUT"),
    ("merge", "--sample", "--extbinary", "FILE0", "FILE1", "-o", "OUT"),
    ("overlap", "--sample", "FILE0", "FILE1"),
)


@dataclass(frozen=True)
class Case:
    files: tuple[str, ...]
    rel: int
    command: tuple[str, ...]
    mutation: Mutation


def llvm_tool(rel: int) -> Path:
    return Path(f"/usr/lib/llvm-{rel}/bin/llvm-profdata")


def _release_of(path: Path) -> int | None:
    found = re.search(r"-l(1[0-9]|2[0-9])\b", str(path))
    return int(found.group(1)) if found else None


def instr_groups() -> list[tuple[int, list[Path]]]:
    """Per folder with raw runs: its release, the runs and the indexed profiles the real
    tool wrote beside them (``expected/``)."""
    groups: list[tuple[int, list[Path]]] = []
    for root in INSTR_ROOTS:
        if not root.is_dir():
            continue
        for folder in sorted({p.parent for p in root.rglob("*.profraw")}):
            rel = _release_of(folder)
            if rel is None or not llvm_tool(rel).exists():
                continue
            files = sorted(folder.glob("*.profraw"))
            for indexed in sorted(folder.rglob("*.profdata")):
                if indexed.read_bytes()[:8] == INDEXED_MAGIC:
                    files.append(indexed)
            groups.append((rel, files))
    return groups


def make_case(rng: random.Random, instr: bool, group: list[Path], rel: int, work: Path) -> Case:
    commands = INSTR_COMMANDS if instr else SAMPLE_COMMANDS
    command = rng.choice(commands)
    count = 2 if "FILE1" in command else 1
    chosen = [rng.choice(group) for _ in range(count)]
    index = rng.randrange(count)
    data = chosen[index].read_bytes()
    if not instr and _is_text(data):
        damaged, mutation = damage_text(rng, data, index)
    else:
        regions = raw_regions(data) if instr else {"whole": (0, len(data))}
        donor = rng.choice(group).read_bytes()
        damaged, mutation = damage_bytes(rng, data, donor, regions, index)
    return Case(write_inputs(chosen, index, damaged, work / "x"), rel, command, mutation)


def _argv(case: Case, output: Path) -> list[str]:
    argv = []
    for word in case.command:
        for i, path in enumerate(case.files):
            word = word.replace(f"FILE{i}", path)
        argv.append(str(output) if word == "OUT" else word)
    return argv


def _first_error(stderr: bytes) -> bytes:
    return next((line for line in stderr.splitlines() if line.startswith(b"error:")), b"")


def judge(case: Case, work: Path) -> tuple[str, str]:
    """(kind, report): ``same``, ``real-crash`` or ``differ``."""
    real_out, our_out = work / "real.out", work / "our.out"
    for path in (real_out, our_out):
        path.unlink(missing_ok=True)
    try:
        real = subprocess.run(
            [str(llvm_tool(case.rel)), *_argv(case, real_out)],
            capture_output=True,
            timeout=SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "real-crash", "timed out"
    if real.returncode < 0:
        return "real-crash", f"signal {-real.returncode}"
    argv = [f"--llvm-release={case.rel}", *_argv(case, our_out)]
    try:
        with _captured() as (out, err):
            code = _in_deep_thread(lambda: cli_main(argv))
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read(), err.read()
    except Exception:  # a traceback is a finding
        return "differ", traceback.format_exc()
    problems = []
    if code != real.returncode:
        problems.append(f"exit status: llvm {real.returncode}, profdata {code}")
    if stdout != real.stdout:
        problems.append(f"stdout:\n  llvm: {real.stdout[:1500]!r}\n  ours: {stdout[:1500]!r}")
    written = real.returncode == 0 and real_out.exists()
    if written and (not our_out.exists() or our_out.read_bytes() != real_out.read_bytes()):
        problems.append("output file differs")
    if _first_error(real.stderr) != _first_error(stderr):
        problems.append(
            f"first error:\n  llvm: {_first_error(real.stderr)!r}\n  ours: {stderr[:600]!r}"
        )
    if problems:
        problems.append(f"llvm stderr: {real.stderr[:600]!r}")
        return "differ", "\n".join(problems)
    return "same", ""


def keep(case: Case, report: str, out: Path, number: int) -> Path:
    folder = out / f"case-{number:05d}"
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for path in case.files:
        shutil.copy(path, folder / Path(path).name)
        files.append(Path(path).name)
    record = asdict(case) | {"files": files}
    (folder / "case.json").write_text(json.dumps(record, indent=1) + "\n")
    (folder / "report.txt").write_text(report + "\n")
    return folder


def replay(folder: Path) -> int:
    record = json.loads((folder / "case.json").read_text())
    case = Case(
        tuple(str(folder / name) for name in record["files"]),
        record["rel"],
        tuple(record["command"]),
        Mutation(**record["mutation"]),
    )
    kind, report = judge(case, folder)
    print(f"{kind}\n{report}")
    return 0 if kind == "same" else 1


def campaign(minutes: float, out: Path, seed: int) -> int:
    rng = random.Random(seed)
    instr = instr_groups()
    releases = [r for r in (14, 16, 19, 22) if llvm_tool(r).exists()]
    sample = sample_groups(out) if releases and CORPUS.is_dir() else []
    if not instr and not sample:
        print("no seeds or no llvm-profdata", flush=True)
        return 2
    work = out / "work"
    work.mkdir(parents=True, exist_ok=True)
    tally: dict[str, int] = {}
    number = 0
    end = time.monotonic() + 60 * minutes
    try:
        while time.monotonic() < end:
            number += 1
            if instr and (not sample or rng.random() < 0.6):
                rel, group = rng.choice(instr)
                case = make_case(rng, True, group, rel, work)
            else:
                case = make_case(rng, False, rng.choice(sample), rng.choice(releases), work)
            kind, report = judge(case, work)
            subject = "instr" if not any(w == "--sample" for w in case.command) else "sample"
            key = f"{subject} {kind}"
            tally[key] = tally.get(key, 0) + 1
            if kind == "differ":
                where = keep(case, report, out, number)
                print(f"differ: {where} {case.rel} {case.command[:3]} {case.mutation}", flush=True)
            if number % 200 == 0:
                print(f"{number} cases, {tally}", flush=True)
    except KeyboardInterrupt:
        pass
    print(f"done: {number} cases, {tally}", flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--out", type=Path, default=Path("/tmp/fuzz-llvm"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--replay", type=Path)
    args = parser.parse_args(argv)
    if args.replay is not None:
        return replay(args.replay)
    return campaign(args.minutes, args.out, args.seed)


if __name__ == "__main__":
    sys.exit(main())
