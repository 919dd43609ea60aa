#!/usr/bin/env python3
"""Differential fuzzing of profdata's fast paths against the paths they stand in for, on damaged
inputs.

Why: several commands take a fast path over arrays when the input allows it and
fall back to a slower path over objects otherwise.  The fast path's safety rests on
the checks that decide between them.

* ``merge`` of instrumentation profiles takes a run into the group's arrays
  (:mod:`profdata.ops.merge_fast`) only after checks that it has the group's shape:
  the header words, the data records under their masks, the value blobs' chain,
  the call targets' load offset.  A run that passed them while it differed from the
  shape in a way they miss would be merged wrongly, without a word.
* ``show --sample`` prints from columns (:mod:`profdata.ops.show_sample_columns`)
  and ``merge --sample`` merges and writes columns
  (:mod:`profdata.ops.merge_sample_columns`), each declining where the object path
  must do the work.

The unit and property tests hold each pair side by side on valid inputs.  This tool
feeds them inputs damaged byte by byte (and, for sample text, line by line), which no
test writes by hand, and reports every case where the two paths disagree, where
either raises something other than profdata's own errors, or where a case takes too
long.

* ``instr``: two or three profiles of one binary (a folder of the shared corpus or of
  the golden programs: raw runs and the indexed profiles made of them), one of them
  damaged, merged both ways with the same weights, writer contexts and release, as
  ``tests/unit/ops/test_merge_fast.py`` does.  The indexed bytes (full and
  ``--sparse``), the text output and the diagnostics must be equal, or the error must
  be.  The damage is aimed at one region of a raw file most of the time (header,
  data records, counters, bitmaps, names, value blobs).
* ``sample``: the shared corpus's sample text profiles and the binary and
  extensible-binary files the real ``llvm-profdata`` 22 makes of them (made once into
  ``OUT/seeds``; profdata makes them when the real tool is absent), one damaged,
  through ``show --sample`` (with one of its options) or ``merge --sample`` (to
  text, binary or extensible binary), once as the command runs and once with the
  column paths declining.  Exit status, standard output, standard error and the
  output file must be equal.

Damage: bits flipped, a word set to a value at an edge, two words swapped, a piece of
another profile of the same binary spliced in, the file cut short or lengthened; for
text, a line dropped, doubled, swapped, re-indented or given another number.

Run (one process; Ctrl-C stops it and prints the tally; ``PROFDATA_SHARED`` says where
the shared folder is when it is not beside the repository)::

    python tools/fuzz_paths.py --minutes 30 --out /tmp/fuzz-paths            # both subjects
    python tools/fuzz_paths.py --subject sample --minutes 10
    python tools/fuzz_paths.py --replay /tmp/fuzz-paths/case-00012

A finding is written as a folder: the inputs, ``case.json`` (the subject, the command
or merge options, the damage) and ``report.txt`` (what differed, or the traceback).
``--replay`` runs such a folder again.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import FrameType
from typing import IO
from unittest import mock

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from profdata.cli import main as cli_main  # noqa: E402
from profdata.errors import ProfdataError  # noqa: E402
from profdata.formats import raw_columns  # noqa: E402
from profdata.formats import text as text_format  # noqa: E402
from profdata.formats.indexed_write import write_indexed  # noqa: E402
from profdata.formats.raw import read as raw_read  # noqa: E402
from profdata.formats.sample_registry import read_sample_bytes  # noqa: E402
from profdata.ops import merge_sample, show_sample  # noqa: E402
from profdata.ops.merge import MergeOptions, load_path, merge_instr  # noqa: E402
from profdata.ops.merge_inputs import FailureMode, InputFailure, WeightedFile  # noqa: E402
from profdata.ops.table_writer import TableWriter  # noqa: E402
from profdata.releases import release  # noqa: E402

SHARED = Path(os.environ.get("PROFDATA_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "corpus"
INSTR_ROOTS = (CORPUS, REPO / "tests" / "golden" / "programs")
LLVM22 = Path("/usr/lib/llvm-22/bin/llvm-profdata")
RELEASES = (14, 16, 19, 22)
SAMPLE_RELEASES = (13, 14, 16, 19, 22)
#: values a damaged word takes besides random ones: the edges the readers test against
EDGES = (
    0, 1, 2, 3, 7, 8, 16, 255, 256, 0xFFFF, 1 << 31, (1 << 32) - 1, 1 << 32, 1 << 56,
    (1 << 56) + 1, 1 << 63, (1 << 64) - 2, (1 << 64) - 1,
)  # fmt: skip
#: numbers a damaged text line takes
TEXT_EDGES = (
    "0", "1", "-1", "4294967295", "4294967296", "18446744073709551615", "18446744073709551616",
    "99999999999999999999999", "007", "+1", "",
)  # fmt: skip
#: the extensible-binary seeds' options (besides plain text, binary and extbinary)
EXTBINARY_VARIANTS = (
    ("--compress-all-sections",),
    ("--use-md5",),
    ("--gen-partial-profile",),
    ("--split-layout",),
    ("--use-md5", "--compress-all-sections"),
)
SHOW_OPTIONS = (
    (),
    ("--detailed-summary",),
    ("--topn=3",),
    ("--hot-func-list",),
    ("--show-prof-sym-list",),
    ("--show-format=json",),
    ("--all-functions", "--detailed-summary"),
)
CASE_SECONDS = 60


@dataclass(frozen=True)
class Mutation:
    """What was done to which input (for the report and the replay)."""

    input_index: int
    region: str
    operator: str
    detail: str


@dataclass(frozen=True)
class Case:
    subject: str  # "instr" or "sample"
    files: tuple[str, ...]
    weights: tuple[int, ...]
    threads: int
    rel: int
    mutation: Mutation | None
    command: tuple[str, ...] = ()  # sample: the command line, FILE{i} and OUT for the paths


class TimedOut(Exception):
    pass


# -- damage -----------------------------------------------------------------------------
def raw_regions(data: bytes) -> dict[str, tuple[int, int]]:
    """A raw run's regions (name -> start, size) as the fast merge's shape sees them, with
    ``values`` from the value blobs' start to the end; ``whole`` and ``header`` always."""
    regions = {"whole": (0, len(data)), "header": (0, min(len(data), 128))}
    try:
        profile = raw_read(data, "seed.profraw")
    except ProfdataError:
        return regions  # not a raw run
    shaped = raw_columns.shape_of(memoryview(data), profile)
    if shaped is None:
        return regions
    shape = shaped[0]
    for name, (start, size) in shape.regions.items():
        if size > 0:
            regions[name] = (start, size)
    if shape.value_start < len(data):
        regions["values"] = (shape.value_start, len(data) - shape.value_start)
    return regions


def damage_bytes(
    rng: random.Random, data: bytes, donor: bytes, regions: dict[str, tuple[int, int]], index: int
) -> tuple[bytes, Mutation]:
    """One damage to ``data`` inside one of ``regions``."""
    region = rng.choice(sorted(regions))
    start, size = regions[region]
    size = max(size, 1)
    buf = bytearray(data)
    operator = rng.choice(("flip", "word", "word", "swap", "splice", "resize", "byte"))
    detail = ""
    if operator == "flip":
        spots = []
        for _ in range(rng.randint(1, 3)):
            at = start + rng.randrange(size)
            if at < len(buf):
                bit = rng.randrange(8)
                buf[at] ^= 1 << bit
                spots.append(f"{at}:{bit}")
        detail = " ".join(spots)
    elif operator in ("word", "byte"):
        width = 1 if operator == "byte" else rng.choice((4, 8, 8))
        at = start + rng.randrange(size) // width * width
        value = rng.choice((*EDGES, rng.getrandbits(64), rng.randrange(64)))
        if operator == "word" and rng.random() < 0.3 and at + width <= len(buf):  # near the old
            old = int.from_bytes(buf[at : at + width], "little")
            value = old + rng.choice((-8, -1, 1, 8, 16))
        value %= 1 << (8 * width)
        buf[at : at + width] = value.to_bytes(width, "little")[: max(0, len(buf) - at)]
        detail = f"{at}:{width}={value:#x}"
    elif operator == "swap":
        a = start + rng.randrange(size) // 8 * 8
        b = start + rng.randrange(size) // 8 * 8
        if a + 8 <= len(buf) and b + 8 <= len(buf):
            buf[a : a + 8], buf[b : b + 8] = buf[b : b + 8], buf[a : a + 8]
        detail = f"{a}<->{b}"
    elif operator == "splice":  # a piece of another profile of the binary, where it was there
        length = rng.choice((8, 16, 64, 512, size))
        at = start + rng.randrange(size)
        piece = donor[at : at + length]
        buf[at : at + len(piece)] = piece
        del buf[len(data) :]
        detail = f"{at}+{len(piece)}"
    elif rng.random() < 0.5:  # resize: shorter
        cut = start + rng.randrange(size)
        del buf[cut:]
        detail = f"cut at {cut}"
    else:  # resize: longer
        extra = bytes(rng.choice((8, 16, 64))) if rng.random() < 0.5 else rng.randbytes(16)
        at = start + size
        buf[at:at] = extra
        detail = f"{len(extra)} bytes at {at}"
    return bytes(buf), Mutation(index, region, operator, detail)


def damage_text(rng: random.Random, data: bytes, index: int) -> tuple[bytes, Mutation]:
    """One damage to a text profile's lines."""
    lines = data.split(b"\n")
    at = rng.randrange(len(lines))
    operator = rng.choice(("drop", "double", "swap", "indent", "number", "number", "char", "crlf"))
    detail = str(at)
    if operator == "drop":
        del lines[at]
    elif operator == "double":
        lines.insert(at, lines[at])
    elif operator == "swap":
        other = rng.randrange(len(lines))
        lines[at], lines[other] = lines[other], lines[at]
        detail = f"{at}<->{other}"
    elif operator == "indent":
        stripped = lines[at].lstrip(b" ")
        depth = len(lines[at]) - len(stripped) + rng.choice((-2, -1, 1, 2))
        lines[at] = b" " * max(depth, 0) + stripped
    elif operator == "number":
        numbers = list(re.finditer(rb"\d+", lines[at]))
        if numbers:
            found = rng.choice(numbers)
            new = rng.choice(TEXT_EDGES).encode()
            lines[at] = lines[at][: found.start()] + new + lines[at][found.end() :]
            detail = f"{at}: {found.group().decode()} -> {new.decode()!r}"
    elif operator == "char":
        line = lines[at]
        spot = rng.randrange(len(line) + 1)
        char = rng.choice(b":@[] \t.!0x\x00\xff")
        lines[at] = line[:spot] + bytes([char]) + line[spot:]
        detail = f"{at}:{spot}={char:#x}"
    else:  # crlf
        return data.replace(b"\n", b"\r\n"), Mutation(index, "lines", operator, "")
    return b"\n".join(lines), Mutation(index, "lines", operator, detail)


def write_inputs(
    chosen: Sequence[Path], index: int, damaged: bytes, prefix: Path
) -> tuple[str, ...]:
    """A case's inputs as files ``PREFIXin{i}.SUFFIX``: copies of ``chosen``, ``damaged``
    standing for input ``index``."""
    files = []
    for i, path in enumerate(chosen):
        target = prefix.parent / f"{prefix.name}in{i}{path.suffix}"
        target.write_bytes(damaged if i == index else path.read_bytes())
        files.append(str(target))
    return tuple(files)


# -- instr: the array merge against the record-by-record merge -------------------------
def instr_groups(roots: Sequence[Path]) -> list[list[Path]]:
    """The profiles of each folder that holds a raw run (one binary each), raw runs first."""
    groups: list[list[Path]] = []
    for root in roots:
        if not root.is_dir():
            continue
        for folder in sorted({p.parent for p in root.rglob("*.profraw")}):
            groups.append([*sorted(folder.glob("*.profraw")), *sorted(folder.glob("*.profdata"))])
    return groups


def _diagnostic(d: object) -> object:
    if isinstance(d, InputFailure):  # the exception object itself differs between runs
        return ("failure", d.path, d.message)
    return d


def merge_instr_once(case: Case, *, fast: bool) -> tuple[tuple[object, ...], bool]:
    """What a user sees of the merge (written bytes, text and diagnostics, or the error),
    and whether the array merge took it to the end."""
    pairs = zip(case.files, case.weights, strict=True)
    inputs = [WeightedFile(path, weight) for path, weight in pairs]
    options = MergeOptions(
        release=release(case.rel),
        num_threads=case.threads,
        processes=1,
        failure_mode=FailureMode.WARN,
    )
    # another loader takes the record-by-record path; it reads as the release does, as
    # the merge's own loader does (reading depends on it: value kinds, flags, binary ids)
    rel = release(case.rel)
    load = load_path if fast else (lambda path: load_path(path, release=rel))
    try:
        result = merge_instr(inputs, options, load=load)
    except ProfdataError as exc:
        return ("error", type(exc).__name__, str(exc)), False
    writer = result.writer
    diagnostics = tuple(_diagnostic(d) for d in result.diagnostics)
    used_fast = isinstance(writer, TableWriter)
    try:
        merged = writer.to_profile()
        indexed = write_indexed(merged, release=release(case.rel))
        sparse = write_indexed(merged, release=release(case.rel), sparse=True)
        text = text_format.write(writer.to_profile(sparse=True), release(case.rel))
    except ProfdataError as exc:
        return ("write error", type(exc).__name__, str(exc), diagnostics), used_fast
    return (indexed, sparse, text, diagnostics), used_fast


def make_instr_case(rng: random.Random, group: list[Path], work: Path, number: int) -> Case:
    count = rng.choice((2, 2, 2, 3))
    chosen = [rng.choice(group) for _ in range(count)]
    if rng.random() < 0.5:
        chosen[0] = group[0]
    index = rng.randrange(count)
    data = chosen[index].read_bytes()
    donor = rng.choice(group).read_bytes()
    damaged, mutation = damage_bytes(rng, data, donor, raw_regions(data), index)
    files = write_inputs(chosen, index, damaged, work / f"c{number}-")
    weights = tuple(rng.choice((1, 1, 1, 2, 3)) for _ in range(count))
    threads = rng.choice((0, 0, 1, 2))
    return Case("instr", files, weights, threads, rng.choice(RELEASES), mutation)


def judge_instr(case: Case) -> tuple[str, str, bool]:
    fast = merge_instr_once(case, fast=True)
    slow = merge_instr_once(case, fast=False)
    if fast[0] == slow[0]:
        return "same", "", fast[1]
    return "differ", _difference(fast[0], slow[0], fast[1]), fast[1]


def _difference(fast: tuple[object, ...], slow: tuple[object, ...], used_fast: bool) -> str:
    names = ("indexed", "sparse indexed", "text", "diagnostics")
    if isinstance(fast[0], str) or isinstance(slow[0], str):
        return f"fast: {str(fast)[:2000]}\nslow: {str(slow)[:2000]}"
    lines = [_bytes_difference(name, a, b) for name, a, b in zip(names, fast, slow, strict=False)]
    lines.append(f"fast path used: {used_fast}")
    return "\n".join(line for line in lines if line)


def _bytes_difference(name: str, a: object, b: object) -> str:
    if a == b:
        return ""
    if not (isinstance(a, bytes) and isinstance(b, bytes)):
        return f"{name}:\n  one: {a!r}\n  other: {b!r}"[:4000]
    pairs = enumerate(zip(a, b, strict=False))
    first = next((i for i, (x, y) in pairs if x != y), min(len(a), len(b)))
    lines = [f"{name}: sizes {len(a)} / {len(b)}, first difference at {first}"]
    if name in ("text", "stdout", "stderr"):
        lines.append(f"  one:   {a[max(0, first - 200) : first + 200]!r}")
        lines.append(f"  other: {b[max(0, first - 200) : first + 200]!r}")
    return "\n".join(lines)


# -- sample: the column paths against the object paths ---------------------------------
def sample_groups(out: Path) -> list[list[Path]]:
    """Each sample profile of the shared corpus and of LLVM's test inputs (16 and 19), and
    for a text one the binary and extensible-binary files made of it (by the real
    llvm-profdata 22 where installed), made once into ``out/seeds``."""
    groups: list[list[Path]] = []
    seeds = out / "seeds"
    seeds.mkdir(parents=True, exist_ok=True)
    for found in _sample_files():
        group = [found]
        if found.suffix in (".txt", ".proftext", ".afdotext", ".afdo", ".expected"):
            stem = f"{found.parent.name}-{found.stem}"
            variants: list[tuple[str, tuple[str, ...]]] = [("bin", ("--binary",))]
            variants += [("ext", ("--extbinary",))]
            for i, options in enumerate(EXTBINARY_VARIANTS):
                variants.append((f"ext{i}", ("--extbinary", *options)))
            for suffix, opts in variants:
                made = seeds / f"{stem}.{suffix}.profdata"
                if made.exists() or _make_seed(found, made, opts):
                    group.append(made)
        groups.append(group)
    return groups


def _sample_files() -> list[Path]:
    """The corpus's sample text profiles, and the files of LLVM's test inputs that read
    as sample profiles (once per content)."""
    found = sorted(CORPUS.glob("sample-*/*.txt"))
    seen = {path.read_bytes() for path in found}
    for folder in ("llvm-19", "llvm-16"):
        for path in sorted((SHARED / "llvm-test-inputs" / folder).glob("*")):
            data = path.read_bytes()
            if data in seen or not path.is_file():
                continue
            try:
                read_sample_bytes(memoryview(data), str(path), release(16))
            except ProfdataError:
                continue
            seen.add(data)
            found.append(path)
    return found


def _make_seed(text: Path, made: Path, options: tuple[str, ...]) -> bool:
    tool = [str(LLVM22)] if LLVM22.exists() else [sys.executable, "-m", "profdata"]
    command = [*tool, "merge", "--sample", *options, str(text), "-o", str(made)]
    env = os.environ | {"PYTHONPATH": str(REPO / "src")}
    done = subprocess.run(command, capture_output=True, env=env, check=False)
    return done.returncode == 0 and made.exists() and made.stat().st_size > 0  # 22: CS binary


def make_sample_case(rng: random.Random, group: list[Path], work: Path, number: int) -> Case:
    merging = rng.random() < 0.5
    count = rng.choice((1, 2, 2, 3)) if merging else 1
    chosen = [rng.choice(group) for _ in range(count)]
    index = rng.randrange(count)
    data = chosen[index].read_bytes()
    if _is_text(data):
        damaged, mutation = damage_text(rng, data, index)
    else:
        donor = rng.choice(group).read_bytes()
        head = min(len(data), 160)  # the header and section table, mostly
        regions = {"header": (0, head), "body": (head, len(data) - head)}
        regions |= {"body 2": regions["body"], "body 3": regions["body"]}
        damaged, mutation = damage_bytes(rng, data, donor, regions, index)
    files = write_inputs(chosen, index, damaged, work / f"c{number}-")
    weights = tuple(rng.choice((1, 1, 1, 2, 3)) for _ in range(count))
    rel = rng.choice(SAMPLE_RELEASES)
    if merging:
        fmt = rng.choice(((), ("--text",), ("--binary",), ("--extbinary",)))
        named = [f"--weighted-input={w},FILE{i}" for i, w in enumerate(weights)]
        command: tuple[str, ...] = ("merge", "--sample", *fmt, *named, "-o", "OUT")
    else:
        command = ("show", "--sample", *rng.choice(SHOW_OPTIONS), "FILE0", "-o", "OUT")
    return Case("sample", files, weights, 0, rel, mutation, command)


def _is_text(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@contextlib.contextmanager
def _captured() -> Iterator[tuple[IO[bytes], IO[bytes]]]:
    """The standard streams, at the descriptor level (forked helpers write there too), with
    the surrogate escapes of quoted bytes written back as bytes, as ``console_main`` does."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="surrogateescape")
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        try:
            yield out, err
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def _in_deep_thread(call: Callable[[], int]) -> int:
    """``call`` on a stack as deep as the command line's (``run_with_deep_stack``); its
    exception raised here."""
    outcome: list[int | BaseException] = []

    def body() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # handed to the caller
            outcome.append(exc)

    previous = threading.stack_size(256 << 20)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)
    try:
        thread = threading.Thread(target=body)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(previous)
        sys.setrecursionlimit(limit)
    result = outcome[0]
    if isinstance(result, BaseException):
        raise result
    return result


#: the column steps of each path, and what their taking a case looks like
_COLUMN_STEPS = (
    (show_sample, "ColumnDump"),
    (merge_sample, "merge_columns"),
    (merge_sample, "merge_as_columns"),
    (merge_sample, "input_as_columns"),
)


def run_sample_once(case: Case, *, columns: bool) -> tuple[tuple[object, ...], bool]:
    """Exit status, standard output and error, and the output file of the command; and
    whether a column step took the input."""
    output = Path(case.files[0]).with_suffix(".out")
    output.unlink(missing_ok=True)
    argv = [f"--llvm-release={case.rel}"]
    for word in case.command:
        for i, path in enumerate(case.files):
            word = word.replace(f"FILE{i}", path)
        argv.append(str(output) if word == "OUT" else word)
    taken: list[bool] = []

    def noting(step: Callable[..., object]) -> Callable[..., object]:
        def noted(*args: object, **kwargs: object) -> object:
            result = step(*args, **kwargs)
            taken.append(result is not None)
            return result

        return noted

    with contextlib.ExitStack() as stack:
        if columns:
            for module, name in _COLUMN_STEPS:
                step = noting(getattr(module, name))
                stack.enter_context(mock.patch.object(module, name, step))
        else:
            declines = mock.Mock(return_value=None)
            stack.enter_context(mock.patch.object(show_sample, "show_named_bytes", declines))
            stack.enter_context(mock.patch.object(show_sample, "show_columns_bytes", declines))
            stack.enter_context(mock.patch.object(merge_sample, "merge_columns", declines))
            stack.enter_context(mock.patch.object(merge_sample, "encode_merged_columns", declines))
        out, err = stack.enter_context(_captured())
        code = _in_deep_thread(lambda: cli_main(argv))
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    written = output.read_bytes() if output.exists() else None
    output.unlink(missing_ok=True)
    return (code, stdout, stderr, written), any(taken)


def judge_sample(case: Case) -> tuple[str, str, bool]:
    fast, used_columns = run_sample_once(case, columns=True)
    slow, _ = run_sample_once(case, columns=False)
    if fast == slow:
        return "same", "", used_columns
    names = ("exit status", "stdout", "stderr", "output file")
    lines = [_bytes_difference(name, a, b) for name, a, b in zip(names, fast, slow, strict=True)]
    lines.append(f"column path used: {used_columns}")
    return "differ", "\n".join(line for line in lines if line), used_columns


# -- the campaign -----------------------------------------------------------------------
def _alarm(signum: int, frame: FrameType | None) -> None:
    raise TimedOut


def judge(case: Case) -> tuple[str, str, bool]:
    """(kind, report, fast): kind is ``same``, ``differ``, ``crash`` or ``slow``; ``fast``
    says whether an instr merge stayed on the array path to the end, or a sample command
    took a column path."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(CASE_SECONDS)
    try:
        return judge_instr(case) if case.subject == "instr" else judge_sample(case)
    except TimedOut:
        return "slow", f"over {CASE_SECONDS} s", False
    except Exception:  # any other exception is what this tool looks for
        return "crash", traceback.format_exc(), False
    finally:
        signal.alarm(0)


def keep(case: Case, kind: str, report: str, out: Path, number: int) -> Path:
    folder = out / f"case-{number:05d}"
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for path in case.files:
        shutil.copy(path, folder / Path(path).name)
        files.append(Path(path).name)
    record = asdict(case) | {"files": files, "kind": kind}
    (folder / "case.json").write_text(json.dumps(record, indent=1) + "\n")
    (folder / "report.txt").write_text(report + "\n")
    return folder


def replay(folder: Path) -> int:
    record = json.loads((folder / "case.json").read_text())
    mutation = Mutation(**record["mutation"]) if record["mutation"] else None
    case = Case(
        record["subject"],
        tuple(str(folder / name) for name in record["files"]),
        tuple(record["weights"]),
        record["threads"],
        record["rel"],
        mutation,
        tuple(record["command"]),
    )
    kind, report, fast = judge(case)
    print(f"{kind} (fast path: {fast})\n{report}")
    return 0 if kind == "same" else 1


def campaign(subjects: Sequence[str], minutes: float, out: Path, seed: int) -> int:
    def log(line: str) -> None:
        print(line, flush=True)

    rng = random.Random(seed)
    groups = {
        "instr": instr_groups(INSTR_ROOTS) if "instr" in subjects else [],
        "sample": sample_groups(out) if "sample" in subjects else [],
    }
    subjects = [s for s in subjects if groups[s]]
    if not subjects:
        log("no seed profiles (the shared corpus and tests/golden/programs are missing)")
        return 2
    makers = {"instr": make_instr_case, "sample": make_sample_case}
    work = out / "work"
    work.mkdir(parents=True, exist_ok=True)
    tally: dict[str, int] = {}
    fast_cases = findings = number = 0
    end = time.monotonic() + 60 * minutes
    try:
        while time.monotonic() < end:
            number += 1
            subject = rng.choice(subjects)
            case = makers[subject](rng, rng.choice(groups[subject]), work, number)
            kind, report, fast = judge(case)
            key = f"{subject} {kind}"
            tally[key] = tally.get(key, 0) + 1
            fast_cases += fast
            if kind != "same":
                findings += 1
                where = keep(case, kind, report, out, number)
                log(f"{kind}: {where} ({case.command or ''} {case.mutation})")
            for path in case.files:
                Path(path).unlink(missing_ok=True)
            if number % 500 == 0:
                log(f"{number} cases, {fast_cases} on a fast path, {tally}")
    except KeyboardInterrupt:
        pass
    log(f"done: {number} cases, {fast_cases} on a fast path, {tally}")
    return 1 if findings else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--subject", choices=("instr", "sample", "both"), default="both")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--out", type=Path, default=Path("/tmp/fuzz-paths"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--replay", type=Path)
    args = parser.parse_args(argv)
    if args.replay is not None:
        return replay(args.replay)
    subjects = ["instr", "sample"] if args.subject == "both" else [args.subject]
    return campaign(subjects, args.minutes, args.out, args.seed)


if __name__ == "__main__":
    sys.exit(main())
