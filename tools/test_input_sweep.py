#!/usr/bin/env python3
"""A differential sweep of profdata against the real llvm-profdata over LLVM's own test inputs.

Why: the goldens, the corpus and the random-profile tests use profiles that
profdata's own tooling made or chose.  LLVM's ``llvm/test/tools/llvm-profdata/Inputs``
holds the corner cases LLVM's developers cared about -- raw versions 5/7/8/9,
indexed versions 1 to 10, text profiles with odd headers, sample profiles in
text, binary, extensible binary, compact binary and GCC formats, raw MemProf,
malformed files -- gathered per release in ``/work/shared/llvm-test-inputs``.
This script runs every one of them through both tools, for every installed
release, and sorts each difference into:

* ``deliberate``: a documented difference (README "Compatibility" and the brief):
  a release refusing a raw or indexed version that is not its own while profdata
  reads every version; raw ``.memprofraw`` files, which profdata does not
  symbolize; the lines profdata adds to ``overlap``'s stderr;
* ``real-crash``: the real tool died of a signal (or timed out) and profdata
  did not produce a Python traceback;
* ``SUSPECT``: anything else, and every Python traceback or profdata timeout.

Compared per command: exit status, stdout bytes, the bytes of the output file
(``-o``; an empty file left by a failed real merge counts as none, as profdata
writes outputs atomically) and the first line of stderr (``Try: ARGV0 --help``
cut; profdata's indented ``detail:`` lines are never first).  Files of the same
content are run once (``--all-copies`` runs every path).  What a file is comes from its
first bytes and from which of profdata's readers takes it (``show``, ``show --sample``):
instrumentation files get the instr commands (``show`` in four forms, ``merge``, ``merge
--text``, ``overlap``), sample files the sample ones (``show --sample`` in three forms,
``merge --sample`` to text, binary and extbinary, ``overlap --sample``), raw MemProf the
instr ones plus ``show --memory`` (14+), and files neither reader takes both sets.

Run (one command at a time; all 136 distinct files x 6 releases, about 6,500 commands, take
one to two hours on a shared two-core machine)::

    python tools/test_input_sweep.py                         # everything
    python tools/test_input_sweep.py --release 19 -k compat  # a part
    python tools/test_input_sweep.py --json-out /tmp/sweep.json

Others may be editing ``src/`` while the sweep runs; to test one commit, export it and put
it first on the path: ``git archive HEAD src | tar -x -C /tmp/snap`` and
``PYTHONPATH=/tmp/snap/src python tools/test_input_sweep.py``.  The report names the
profdata it ran.  The exit status is 1 when there is a SUSPECT, else 0.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

DEFAULT_INPUTS = Path("/work/shared/llvm-test-inputs")
DEFAULT_RELEASES = (13, 14, 15, 16, 19, 22)
LLVM_PREFIX = Path(os.environ.get("PROFDATA_LLVM_PREFIX", "/usr/lib"))
TIMEOUT = 60.0

IN = "@IN"
OUT = "@OUT"

#: (label, arguments, first release that has every option)
INSTR_COMMANDS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("show", ("show", IN), 0),
    ("show-all", ("show", "--all-functions", "--counts", "--ic-targets", "--memop-sizes", IN), 0),
    ("show-detailed", ("show", "--detailed-summary", IN), 0),
    ("show-text", ("show", "--text", "--all-functions", IN), 0),
    ("merge", ("merge", "-o", OUT, IN), 0),
    ("merge-text", ("merge", "--text", "-o", OUT, IN), 0),
    ("overlap", ("overlap", IN, IN), 0),
)
SAMPLE_COMMANDS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("sample-show", ("show", "--sample", IN), 0),
    ("sample-show-all", ("show", "--sample", "--all-functions", "--counts", IN), 0),
    ("sample-show-detailed", ("show", "--sample", "--detailed-summary", IN), 0),
    ("sample-merge-text", ("merge", "--sample", "--text", "-o", OUT, IN), 0),
    ("sample-merge-binary", ("merge", "--sample", "--binary", "-o", OUT, IN), 0),
    ("sample-merge-extbinary", ("merge", "--sample", "--extbinary", "-o", OUT, IN), 0),
    ("sample-overlap", ("overlap", "--sample", IN, IN), 0),
)
MEMPROF_COMMANDS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("memory-show", ("show", "--memory", IN), 14),
)

#: what a real release says when it refuses a raw or indexed version other than its own
VERSION_REFUSALS = (
    "unsupported instrumentation profile format version",
    "raw profile version mismatch",
)
#: the lines profdata adds to overlap's stderr (README, overlap)
OVERLAP_EXTRAS = ("warning: ", "note: Sum of edge counts for profile ")
MEMPROF_RAW_UNSUPPORTED = "raw MemProf profile (.memprofraw): not supported by profdata"

RAW_MAGIC = (0xFF6C70726F667281).to_bytes(8, "little")
RAW_MAGIC_32 = (0xFF6C70726F665281).to_bytes(8, "little")
INDEXED_MAGIC = (0x8169666F72706CFF).to_bytes(8, "little")
MEMPROF_MAGIC = (0xFF6D70726F667281).to_bytes(8, "little")
#: the sample magic (ULEB128-encoded in the file) without its low byte, the format
SPROF_MAGIC = int.from_bytes(b"SPROF42\0", "big")
SAMPLE_FORMATS = {0x02: "sample-compact", 0x04: "sample-extbinary", 0xFF: "sample-binary"}


@dataclass
class Run:
    """One tool's run of one command."""

    code: int | None  # None: timed out; negative: killed by that signal
    stdout: bytes
    stderr: bytes
    out: bytes | None  # the -o file, None when there is none
    seconds: float


@dataclass
class Outcome:
    path: str
    aliases: list[str]
    kind: str
    release: int
    label: str
    real_cmd: str
    ours_cmd: str
    category: str  # identical, deliberate, real-crash, SUSPECT
    reason: str = ""
    diffs: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Input:
    path: Path
    aliases: tuple[Path, ...]
    kind: str


def python_cmd(release: int) -> list[str]:
    return [sys.executable, "-m", "profdata", f"--llvm-release={release}"]


def real_tool(release: int) -> Path:
    return LLVM_PREFIX / f"llvm-{release}" / "bin" / "llvm-profdata"


def run(argv: Sequence[str], executable: str | None, out: Path, cwd: Path) -> Run:
    out.unlink(missing_ok=True)
    start = time.monotonic()
    try:
        done = subprocess.run(
            list(argv),
            executable=executable,
            cwd=cwd,
            capture_output=True,
            timeout=TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
        code: int | None = done.returncode
        stdout, stderr = done.stdout, done.stderr
    except subprocess.TimeoutExpired as exc:
        code = None
        stdout = exc.stdout if isinstance(exc.stdout, bytes) else b""
        stderr = exc.stderr if isinstance(exc.stderr, bytes) else b""
    seconds = time.monotonic() - start
    data = out.read_bytes() if out.is_file() else None
    out.unlink(missing_ok=True)
    return Run(code, stdout, stderr, data, seconds)


def uleb128(data: bytes) -> int:
    value = 0
    for i, byte in enumerate(data[:10]):
        value |= (byte & 0x7F) << (7 * i)
        if not byte & 0x80:
            break
    return value


def matches(ks: Sequence[str], names: Sequence[str], label: str) -> bool:
    """Whether every -k text is in one of the file's paths or in the command's label."""
    return all(any(k in name for name in names) or k in label for k in ks)


def sniff(data: bytes, name: str) -> str:
    """The format the first bytes (or, for text, LLVM's file name) suggest."""
    head = data[:8]
    if head in (RAW_MAGIC, RAW_MAGIC_32) or head[::-1] in (RAW_MAGIC, RAW_MAGIC_32):
        return "instr-raw"
    if head == INDEXED_MAGIC or head[::-1] == INDEXED_MAGIC:
        return "instr-indexed"
    if head == MEMPROF_MAGIC or name.endswith(".memprofraw"):
        return "memprof"
    magic = uleb128(data)
    if magic & ~0xFF == SPROF_MAGIC:
        return SAMPLE_FORMATS.get(magic & 0xFF, "sample-binary?")
    if data[:4] in (b"adcg", b"gcda") or name.endswith((".afdo", ".gcov")):
        return "sample-gcc"
    return "text"


def detect(path: Path, scratch: Path) -> str:
    """instr-*/sample-*/memprof, or unknown-* for files neither reader takes."""
    data = path.read_bytes()
    guess = sniff(data, path.name)
    if guess == "memprof":
        return guess
    out = scratch / "detect.out"
    for release in (22, 16):
        if run([*python_cmd(release), "show", str(path)], None, out, scratch).code == 0:
            return guess if guess.startswith("instr") else "instr-text"
    for release in (22, 16):
        result = run([*python_cmd(release), "show", "--sample", str(path)], None, out, scratch)
        if result.code == 0:
            return guess if guess.startswith("sample") else "sample-text"
    return f"unknown-{guess}"


def commands_for(kind: str) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    if kind.startswith("instr"):
        return INSTR_COMMANDS
    if kind.startswith("sample"):
        return SAMPLE_COMMANDS
    if kind == "memprof":
        return INSTR_COMMANDS + MEMPROF_COMMANDS
    return INSTR_COMMANDS + SAMPLE_COMMANDS


def first_line(stderr: bytes) -> bytes:
    return stderr.split(b"\n", 1)[0].split(b"  Try: ", 1)[0]


def first_difference(label: str, a: bytes, b: bytes) -> str:
    """Where two outputs first differ: the lines for text, the byte offset otherwise."""
    textual = b"\0" not in a and b"\0" not in b
    if textual:
        la, lb = a.split(b"\n"), b.split(b"\n")
        for i, (x, y) in enumerate(zip(la, lb, strict=False)):
            if x != y:
                return f"{label} line {i + 1}:\n    real: {x!r}\n    ours: {y!r}"
        i = min(len(la), len(lb))
        more = "real" if len(la) > len(lb) else "ours"
        extra = (la if len(la) > len(lb) else lb)[i]
        return f"{label} line {i + 1}: only {more} has it: {extra!r}"
    offset = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return (
        f"{label} byte {offset} (0x{offset:x}): sizes real {len(a)}, ours {len(b)}; "
        f"real {a[offset : offset + 8].hex()} ours {b[offset : offset + 8].hex()}"
    )


def differences(real: Run, ours: Run) -> list[str]:
    found = []
    if real.code != ours.code:
        found.append(f"exit status: real {real.code}, ours {ours.code}")
    if real.stdout != ours.stdout:
        found.append(first_difference("stdout", real.stdout, ours.stdout))
    real_out = real.out if (real.code == 0 or real.out) else None
    if real_out != ours.out:
        if real_out is None or ours.out is None:
            found.append(
                f"output file: real {'none' if real_out is None else len(real_out)}"
                f" bytes, ours {'none' if ours.out is None else len(ours.out)} bytes"
            )
        else:
            found.append(first_difference("output file", real_out, ours.out))
    if first_line(real.stderr) != first_line(ours.stderr):
        found.append(
            f"stderr first line:\n    real: {first_line(real.stderr)!r}\n"
            f"    ours: {first_line(ours.stderr)!r}"
        )
    return found


def classify(label: str, real: Run, ours: Run, found: list[str]) -> tuple[str, str]:
    """(category, reason) of one compared command."""
    if b"Traceback (most recent call last)" in ours.stderr:
        return "SUSPECT", "python traceback"
    if ours.code is None:
        return "SUSPECT", "profdata timed out"
    if real.code is None:
        return "real-crash", "real tool timed out"
    if real.code < 0:
        return "real-crash", f"real tool killed by signal {-real.code}"
    if not found:
        return "identical", ""
    real_first = first_line(real.stderr).decode(errors="replace")
    ours_first = first_line(ours.stderr).decode(errors="replace")
    if any(m in real_first for m in VERSION_REFUSALS) and ours.code == 0:
        return "deliberate", "release refuses a version profdata reads"
    if MEMPROF_RAW_UNSUPPORTED in ours_first:
        return "deliberate", "raw MemProf unsupported"
    if label == "overlap" and ours_first.startswith(OVERLAP_EXTRAS):
        rest = [x for x in ours.stderr.splitlines() if not x.startswith(b"  detail: ")]
        rest = [x for x in rest if not x.decode(errors="replace").startswith(OVERLAP_EXTRAS)]
        same_rest = first_line(real.stderr) == (rest[0] if rest else b"")
        if same_rest and real.code == ours.code and real.stdout == ours.stdout:
            return "deliberate", "overlap: profdata's extra stderr line"
    return "SUSPECT", "differs"


def collect(root: Path, all_copies: bool) -> list[tuple[Path, tuple[Path, ...]]]:
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.name != "README.md")
    if all_copies:
        return [(p, (p,)) for p in files]
    by_hash: dict[str, list[Path]] = defaultdict(list)
    for p in files:
        by_hash[hashlib.sha256(p.read_bytes()).hexdigest()].append(p)
    return sorted((paths[0], tuple(paths)) for paths in by_hash.values())


def quote(argv: Sequence[str]) -> str:
    return shlex.join(argv)


def sweep(args: argparse.Namespace) -> list[Outcome]:
    root: Path = args.inputs.resolve()
    releases: list[int] = args.release or list(DEFAULT_RELEASES)
    for release in releases:
        if not real_tool(release).is_file():
            sys.exit(f"{real_tool(release)} is not installed")
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="sweep-") as tmp:
        scratch = Path(tmp)
        out = scratch / "out.prof"
        pairs = collect(root, args.all_copies)
        for n, (path, aliases) in enumerate(pairs, 1):
            rel = str(path.relative_to(root))
            names = [str(a.relative_to(root)) for a in aliases]
            every = INSTR_COMMANDS + SAMPLE_COMMANDS + MEMPROF_COMMANDS
            if not any(matches(args.k, names, label) for label, _, _ in every):
                continue
            kind = detect(path, scratch)
            print(
                f"[{n}/{len(pairs)}] {rel} ({kind}, {len(aliases)} copies)",
                file=sys.stderr,
                flush=True,
            )
            for release in releases:
                for label, template, since in commands_for(kind):
                    if release < since:
                        continue
                    if not matches(args.k, names, label):
                        continue
                    argv = [str(path) if a == IN else str(out) if a == OUT else a for a in template]
                    tool = real_tool(release)
                    real = run(["llvm-profdata", *argv], str(tool), out, scratch)
                    ours_argv = [*python_cmd(release), *argv]
                    ours = run(ours_argv, None, out, scratch)
                    found = differences(real, ours)
                    category, reason = classify(label, real, ours, found)
                    outcomes.append(
                        Outcome(
                            path=rel,
                            aliases=names,
                            kind=kind,
                            release=release,
                            label=label,
                            real_cmd=quote([str(tool), *argv]),
                            ours_cmd=quote(["python", "-m", "profdata", *ours_argv[3:]]),
                            category=category,
                            reason=reason,
                            diffs=found,
                        )
                    )
                    if (
                        category == "SUSPECT"
                        and ours.code is not None
                        and (b"Traceback" in ours.stderr)
                    ):
                        outcomes[-1].diffs.append(
                            "traceback tail: "
                            + ours.stderr.decode(errors="replace").strip().splitlines()[-1]
                        )
    return outcomes


CATEGORIES = ("identical", "deliberate", "real-crash", "SUSPECT")


def profdata_location() -> str:
    """Where the profdata the sweep runs lives (set PYTHONPATH to test a snapshot)."""
    done = subprocess.run(
        [sys.executable, "-c", "import profdata; print(profdata.__file__)"],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() or done.stderr.strip()


def report(outcomes: list[Outcome]) -> None:
    print(f"profdata: {profdata_location()}")
    by_release: dict[int, Counter[str]] = defaultdict(Counter)
    for o in outcomes:
        by_release[o.release][o.category] += 1
    header = f"{'release':>7} {'run':>6} " + " ".join(f"{c:>10}" for c in CATEGORIES)
    print(header)
    total: Counter[str] = Counter()
    for release in sorted(by_release):
        counts = by_release[release]
        total.update(counts)
        print(
            f"{release:>7} {sum(counts.values()):>6} "
            + " ".join(f"{counts[c]:>10}" for c in CATEGORIES)
        )
    print(f"{'all':>7} {sum(total.values()):>6} " + " ".join(f"{total[c]:>10}" for c in CATEGORIES))
    reasons = Counter((o.category, o.reason) for o in outcomes if o.category != "identical")
    if reasons:
        print("\nreasons:")
        for (category, reason), count in sorted(reasons.items()):
            print(f"  {category:<10} {count:>5}  {reason}")
    suspects = [o for o in outcomes if o.category == "SUSPECT"]
    if suspects:
        print(f"\n{len(suspects)} SUSPECT:")
    for o in suspects:
        print(f"\n* {o.path} [{o.kind}] release {o.release} {o.label}: {o.reason}")
        if len(o.aliases) > 1:
            print(f"  same content: {', '.join(o.aliases[1:])}")
        print(f"  real: {o.real_cmd}\n  ours: {o.ours_cmd}")
        for d in o.diffs:
            print("  " + d)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else "")
    parser.add_argument(
        "--inputs",
        type=Path,
        default=DEFAULT_INPUTS,
        help=f"the input folder (default {DEFAULT_INPUTS})",
    )
    parser.add_argument(
        "--release",
        type=int,
        action="append",
        help="a release to check (repeatable; default 13 14 15 16 19 22)",
    )
    parser.add_argument(
        "-k",
        action="append",
        default=[],
        help="run only files whose path, or commands whose label, contains "
        "this text (repeatable: all must match)",
    )
    parser.add_argument(
        "--all-copies", action="store_true", help="run every path, not each content once"
    )
    parser.add_argument("--json-out", type=Path, help="also write every outcome as JSON")
    args = parser.parse_args(argv)
    outcomes = sweep(args)
    if args.json_out:
        args.json_out.write_text(json.dumps([asdict(o) for o in outcomes], indent=1))
    report(outcomes)
    return 1 if any(o.category == "SUSPECT" for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
