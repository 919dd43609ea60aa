"""Where the real LLVM tools of each release are installed.

Debian's ``llvm-N``/``clang-N`` packages put them in ``/usr/lib/llvm-N/bin``;
``PROFDATA_LLVM_PREFIX`` points elsewhere (a prefix holding ``llvm-N/bin``).
Tests ask for a release and skip when it is not installed, so the suite runs
on machines without any LLVM.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # conftest imports this module
    from tests.conftest import CliResult

#: Releases whose behaviour was recorded in the golden files and the corpus.
RELEASES = (14, 16, 19, 22)
#: Releases also checked against their real tools (Debian bookworm's llvm-13 and llvm-15),
#: by the random-profile tests only; skipped where they are not installed.
EXTRA_RELEASES = (13, 15)


def llvm_bin(release: int) -> Path:
    prefix = Path(os.environ.get("PROFDATA_LLVM_PREFIX", "/usr/lib"))
    return prefix / f"llvm-{release}" / "bin"


def _executable(path: Path) -> Path | None:
    return path if path.is_file() and os.access(path, os.X_OK) else None


def find_llvm_profdata(release: int) -> Path | None:
    return _executable(llvm_bin(release) / "llvm-profdata")


def find_clang(release: int, cxx: bool = False) -> Path | None:
    return _executable(llvm_bin(release) / ("clang++" if cxx else "clang"))


def installed_releases() -> tuple[int, ...]:
    return tuple(r for r in RELEASES if find_llvm_profdata(r) is not None)


def run_tool(
    tool: Path, args: Sequence[str], cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run a real tool with its output captured; the caller checks the exit status."""
    return subprocess.run([str(tool), *args], cwd=cwd, capture_output=True, timeout=300)


def run_tool_ok(tool: Path, args: Sequence[str]) -> subprocess.CompletedProcess[bytes]:
    """:func:`run_tool` of a command that must succeed (it makes a test's inputs)."""
    proc = run_tool(tool, args)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return proc


def named_args(spec: Sequence[str], named: Mapping[str, str | Path]) -> list[str]:
    """A command's arguments with the inputs' short names (also inside ``W,NAME``) replaced
    by their paths; other arguments as they are."""
    out = []
    for arg in spec:
        head, _, tail = arg.rpartition(",")
        out.append(f"{head},{named[tail]}" if head else str(named.get(arg, arg)))
    return out


def compare_with_tool(
    tool: Path,
    release: int,
    args: Sequence[str],
    run_profdata: Callable[..., CliResult],
    scratch: Path,
    *,
    first_error_line: bool = False,
    stderr: str = "",
) -> tuple[bool, subprocess.CompletedProcess[bytes]]:
    """Run one command through the real tool and through ``profdata --llvm-release``:
    whether exit status, stdout and the file written at ``@OUT`` agree (and, if asked,
    whether our stderr holds the real tool's first error line, or ``stderr="all"``/``"first"``
    equals its stderr or first stderr line -- "Try: ARGV0 --help" cut, as the real tool
    names its own path); the real run.
    """
    theirs, ours = scratch / "theirs.out", scratch / "ours.out"
    for path in (theirs, ours):
        path.unlink(missing_ok=True)
    real = run_tool(tool, [a.replace("@OUT", str(theirs)) for a in args])
    got = run_profdata(f"--llvm-release={release}", *[a.replace("@OUT", str(ours)) for a in args])
    same = _agree(real, got, args, theirs, ours, first_error_line, stderr)
    # two inputs of one writer context may reach the real tool's thread pool in either order
    # (a race inside llvm-profdata, which the order of equal values keeps): ours is the
    # in-order output, so a merge that may race is run again until a run agrees
    for _ in range(RACE_RETRIES if not same and may_race(args) else 0):
        theirs.unlink(missing_ok=True)
        real = run_tool(tool, [a.replace("@OUT", str(theirs)) for a in args])
        same = _agree(real, got, args, theirs, ours, first_error_line, stderr)
        if same:
            break
    return same, real


#: reruns of the real tool for a merge whose writer contexts may race (see may_race)
RACE_RETRIES = 8


def may_race(args: Sequence[str]) -> bool:
    """Whether the real tool's output may depend on its thread pool's order: a merge
    with two or more writer contexts, one of which takes two inputs.  llvm-profdata makes
    ``-j N`` contexts, or without ``-j`` as many as the machine has threads up to half
    the inputs (rounded up), and gives input i to context i % contexts."""
    if not args or args[0] != "merge" or "--sample" in args:
        return False
    threads = None
    inputs = 0
    it = iter(args[1:])
    for arg in it:
        if arg in ("-j", "--num-threads", "-o", "--output", "-f", "--input-files", "-r"):
            value = next(it, "")
            if arg in ("-j", "--num-threads"):
                threads = int(value) if value.isdigit() else None
        elif arg.startswith(("--num-threads=", "-j=")):
            value = arg.split("=", 1)[1]
            threads = int(value) if value.isdigit() else None
        elif arg.startswith("-j") and arg[2:].isdigit():
            threads = int(arg[2:])
        elif arg.startswith("--weighted-input=") or not arg.startswith("-"):
            inputs += 1
    contexts = threads if threads else min(os.cpu_count() or 1, (inputs + 1) // 2)
    return contexts >= 2 and inputs > contexts


def _agree(
    real: subprocess.CompletedProcess[bytes],
    got: CliResult,
    args: Sequence[str],
    theirs: Path,
    ours: Path,
    first_error_line: bool,
    stderr: str,
) -> bool:
    same = real.returncode == got.code and real.stdout == got.stdout
    if real.returncode and theirs.exists() and not theirs.stat().st_size:
        theirs.unlink()  # a failed llvm-profdata leaves an empty output; profdata leaves none
    if same and "@OUT" in args:
        same = theirs.exists() == ours.exists() and (
            not theirs.exists() or theirs.read_bytes() == ours.read_bytes()
        )
    if same and stderr:
        same = _stderr(real.stderr, stderr) == _stderr(got.stderr, stderr)
    if same and first_error_line:
        lines = real.stderr.decode(errors="replace").splitlines()
        wanted = next((x for x in lines if x.startswith(("error: ", "warning: "))), "")
        same = wanted in got.stderr.decode(errors="replace")
    return same


def _stderr(text: bytes, part: str) -> bytes:
    if part == "first":
        text = text.split(b"\n", 1)[0]
    return text.split(b"  Try: ", 1)[0] if part == "first" else text


def differing(
    tool: Path,
    release: int,
    commands: Sequence[Sequence[str]],
    run_profdata: Callable[..., CliResult],
    scratch: Path,
    *,
    first_error_line: bool = False,
    stderr: str = "",
) -> list[str]:
    """The commands (``@OUT`` marks the output) on which profdata and the real tool differ
    (``first_error_line``, ``stderr``: see :func:`compare_with_tool`)."""
    found = []
    for args in commands:
        same, real = compare_with_tool(
            tool, release, args, run_profdata, scratch,
            first_error_line=first_error_line, stderr=stderr,
        )  # fmt: skip
        if not same:
            found.append(f"{' '.join(args)} (llvm exit {real.returncode})")
    return found
