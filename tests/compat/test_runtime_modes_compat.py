"""profdata against the real llvm-profdata on raw profiles of the runtime's less common modes.

``fixtures/src/runtime_modes.c`` (worker threads, indirect calls through a
function-pointer table, memcpy/memset of varying sizes, manual calls of the
profile runtime between two phases of work) is built live by the clang of
each release and run in one mode after another:

* IR (``-fprofile-generate``) and front-end (``-fprofile-instr-generate``,
  with and without ``-fcoverage-mapping``) instrumentation, ``-m32``;
* file name patterns ``%p``, ``%h``, online merging ``%m`` and ``%4m``
  (three runs into one file, or into a pool of four);
* continuous mode (``%c``): on Linux it needs ``-mllvm
  -runtime-counter-relocation`` in every release (the runtime refuses
  ``%c`` without ``__llvm_profile_counter_bias``), and clang 14 crashes in
  LICM when that option meets ``-O1``, so these builds are ``-O0``.  The
  runtime pads the sections to pages only on Darwin, so the headers' padding
  fields are those of ordinary files.  Continuous files hold no value data,
  so a build that keeps value profiling gives files both tools refuse
  (``truncated profile data``); the readable builds use ``-mllvm
  -disable-vp``.  ``fe-mcdc-continuous`` adds MC/DC bitmaps (clang 18 on) and
  ``ir-fprofile-continuous`` uses clang 20's ``-fprofile-continuous``, whose
  default file name holds ``%m`` and ``%c``;
* ``-fprofile-update=atomic`` with four threads, and four threads without it;
* ``__llvm_profile_reset_counters``, ``__llvm_profile_dump`` and
  ``__llvm_profile_write_file`` between the phases, and
  ``__llvm_profile_set_filename`` (which leaves the file named by
  ``LLVM_PROFILE_FILE`` empty);
* ``-Wl,--build-id`` and ``-Wl,--build-id=none``;
* value sites whose targets lie outside the binary (libc functions), which
  the raw reader maps to value 0, several times in one site: LLVM 19+ pairs
  those in ``merge`` and ``overlap`` in libstdc++'s introsort order (found
  here; ``ops/merge_records.sort_by_value``).

For every (release, mode) each command -- ``show --all-functions --counts
--ic-targets --memop-sizes``, ``show --detailed-summary`` and ``show
--binary-ids`` of each raw file, ``merge`` and ``merge --text`` of each file
alone and of all of the mode's files, ``overlap`` of its first two files --
runs through that release's llvm-profdata and ``profdata --llvm-release=N``:
exit status, stdout, the first line of stderr and the output bytes must be
equal (for ``overlap``, llvm-profdata's first error or warning line must be in
profdata's stderr: profdata warns about an input it read only in part, where
llvm-profdata is silent).  Each (release, build) is compiled once per module.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.byte_diff import first_difference, first_different_line
from tests.compat import tools
from tests.conftest import REPO, CliResult

pytestmark = [pytest.mark.compat, pytest.mark.slow]

SOURCE = REPO / "fixtures" / "src" / "runtime_modes.c"

IR = ("-O1", "-fprofile-generate", "-pthread")
FE = ("-O0", "-fprofile-instr-generate", "-pthread")
COVERAGE = ("-fcoverage-mapping",)
RELOCATION = ("-mllvm", "-runtime-counter-relocation")
NO_VP = ("-mllvm", "-disable-vp")
BUILD_ID = ("-Wl,--build-id",)
NO_BUILD_ID = ("-Wl,--build-id=none",)


@dataclass(frozen=True)
class Run:
    """Runs of the program in a directory of their own; every ``*.profraw`` there is kept."""

    name: str
    #: ``LLVM_PROFILE_FILE``, relative to the run's directory; None: the binary's default
    pattern: str | None
    #: iterations, threads, runtime action and its file (see runtime_modes.c)
    args: tuple[str, ...]
    times: int = 1


@dataclass(frozen=True)
class Mode:
    name: str
    flags: tuple[str, ...]
    runs: tuple[Run, ...]
    #: the oldest release whose clang has the mode
    since: int = 0
    why_not: str = ""
    #: the compile may fail for want of a runtime (the i386 one): skip, not fail
    optional: bool = False


def _plain(prefix: str, pattern: str = "%p") -> tuple[Run, Run]:
    return (
        Run("a", f"{prefix}-a.{pattern}.profraw", ("300", "1")),
        Run("b", f"{prefix}-b.{pattern}.profraw", ("120", "1")),
    )


MODES = {
    mode.name: mode
    for mode in (
        Mode(
            "ir",
            (*IR, *BUILD_ID),
            (*_plain("ir"), Run("host", "ir-host.%h.profraw", ("50", "1"))),
        ),
        Mode(
            "ir-no-build-id",
            (*IR, *NO_BUILD_ID),
            _plain("nobid"),
        ),
        Mode(
            "ir-threads",
            (*IR, *BUILD_ID),
            (Run("a", "thr-a.%p.profraw", ("300", "4")), Run("b", "thr-b.%p.profraw", ("90", "3"))),
        ),
        Mode(
            "ir-atomic",
            (*IR, "-fprofile-update=atomic", *BUILD_ID),
            (
                Run("a", "atom-a.%p.profraw", ("300", "4")),
                Run("b", "atom-b.%p.profraw", ("90", "3")),
            ),
        ),
        Mode(
            "ir-manual",
            (*IR, *BUILD_ID),
            (
                Run("snapshot", "mid.profraw", ("300", "1", "snapshot", "final.profraw")),
                Run("reset", "reset.profraw", ("300", "1", "reset")),
                Run("dump", "dump.profraw", ("300", "1", "dump")),
                Run("rename", "env.profraw", ("300", "1", "rename", "renamed.profraw")),
            ),
        ),
        Mode(
            "ir-merge",
            (*IR, *BUILD_ID),
            (
                Run("m", "merged.%m.profraw", ("200", "1", "external"), times=3),
                Run("pool", "pool.%4m.profraw", ("200", "1", "external"), times=3),
            ),
        ),
        Mode(
            "ir-vp-external",
            (*IR, *BUILD_ID),
            (
                Run("a", "ext-a.profraw", ("300", "1", "external")),
                Run("b", "ext-b.profraw", ("120", "1", "external")),
            ),
        ),
        Mode(
            "ir-m32",
            ("-m32", *IR, *BUILD_ID),
            (*_plain("m32"), Run("dump", "m32-dump.profraw", ("300", "2", "dump"))),
            optional=True,
        ),
        Mode(
            "fe",
            (*FE, *NO_BUILD_ID),
            (*_plain("fe"), Run("reset", "fe-reset.profraw", ("300", "1", "reset"))),
        ),
        Mode(
            "fe-coverage",
            (*FE, *COVERAGE, "-mllvm", "-enable-value-profiling", *BUILD_ID),
            (
                *_plain("cov"),
                Run("snapshot", "cov-mid.profraw", ("300", "2", "snapshot", "cov-final.profraw")),
            ),
        ),
        Mode(
            "ir-continuous",
            ("-O0", *IR[1:], *RELOCATION, *NO_VP, *BUILD_ID),
            (
                Run("a", "cont-a.%c.profraw", ("300", "1")),
                Run("b", "cont-b.%c%p.profraw", ("90", "3")),
                Run("m", "cont-m.%c%m.profraw", ("50", "1"), times=2),
            ),
        ),
        Mode(
            "ir-continuous-vp",
            ("-O0", *IR[1:], *RELOCATION, *BUILD_ID),
            _plain("contvp", "%c"),
        ),
        Mode(
            "fe-continuous",
            (*FE, *COVERAGE, *RELOCATION, *BUILD_ID),
            _plain("fecont", "%c"),
        ),
        Mode(
            "fe-mcdc-continuous",
            (*FE, *COVERAGE, "-fcoverage-mcdc", *RELOCATION, *BUILD_ID),
            _plain("mcdc", "%c"),
            since=18,
            why_not="-fcoverage-mcdc came with clang 18",
        ),
        Mode(
            "ir-fprofile-continuous",
            (*IR, "-fprofile-continuous", *NO_VP, *BUILD_ID),
            (Run("default", None, ("300", "1"), times=2), Run("c", "fc.%c.profraw", ("90", "2"))),
            since=20,
            why_not="-fprofile-continuous came with clang 20",
        ),
    )
}

SHOW_COUNTS = ["show", "--all-functions", "--counts", "--ic-targets", "--memop-sizes"]


def _each(options: list[str]) -> Callable[[list[str]], list[list[str]]]:
    return lambda files: [[*options, f] for f in files]


COMMANDS: dict[str, Callable[[list[str]], list[list[str]]]] = {
    "show-counts": _each(SHOW_COUNTS),
    "show-detailed-summary": _each(["show", "--detailed-summary"]),
    "show-binary-ids": _each(["show", "--binary-ids"]),
    "merge-each": lambda files: [["merge", "-o", "@OUT", f] for f in files],
    "merge-text-each": lambda files: [["merge", "--text", "-o", "@OUT", f] for f in files],
    "merge-all": lambda files: [["merge", "-o", "@OUT", *files]],
    "merge-text-all": lambda files: [["merge", "--text", "-o", "@OUT", *files]],
    "overlap": lambda files: [["overlap", *files[:2]]],
}


def _cases() -> Iterator[Any]:
    for release in tools.RELEASES:
        for mode in MODES:
            for command in COMMANDS:
                yield pytest.param(release, mode, command, id=f"{release}-{mode}-{command}")


class Workshop:
    """Builds and runs on first use: each (release, flags) compiled once, each mode run once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.binaries: dict[tuple[int, tuple[str, ...]], Path | str] = {}
        self.profiles: dict[tuple[int, str], list[Path]] = {}

    def binary(self, release: int, mode: Mode) -> Path:
        key = (release, mode.flags)
        if key not in self.binaries:
            self.binaries[key] = self._compile(release, mode)
        found = self.binaries[key]
        if isinstance(found, str):
            pytest.skip(found)
        return found

    def _compile(self, release: int, mode: Mode) -> Path | str:
        clang = tools.find_clang(release)
        if clang is None:
            return f"clang {release} is not installed in {tools.llvm_bin(release)}"
        exe = self.root / f"prog-{release}-{len(self.binaries)}"
        proc = subprocess.run(
            [str(clang), *mode.flags, str(SOURCE), "-o", str(exe)],
            capture_output=True, timeout=300,
        )  # fmt: skip
        if proc.returncode:
            error = proc.stderr.decode(errors="replace").strip().splitlines()[-1:]
            if mode.optional:
                return f"clang {release} cannot build {mode.name} here: {error}"
            raise AssertionError(f"clang {release} {' '.join(mode.flags)}: {error}")
        return exe

    def files(self, release: int, name: str) -> list[Path]:
        """The raw files of a mode, run by run (each run's files sorted by name)."""
        mode = MODES[name]
        if release < mode.since:
            pytest.skip(f"{name}: {mode.why_not}")
        key = (release, name)
        if key not in self.profiles:
            exe = self.binary(release, mode)
            found: list[Path] = []
            for run in mode.runs:
                where = self.root / f"{name}-{release}" / run.name
                where.mkdir(parents=True)
                env = {k: v for k, v in os.environ.items() if k != "LLVM_PROFILE_FILE"}
                if run.pattern is not None:
                    env["LLVM_PROFILE_FILE"] = run.pattern
                for _ in range(run.times):
                    proc = subprocess.run(
                        [str(exe), *run.args], cwd=where, env=env, capture_output=True, timeout=60
                    )
                    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
                found += sorted(where.glob("*.profraw"))
            assert len(found) >= 2, found
            self.profiles[key] = found
        return self.profiles[key]


@pytest.fixture(scope="module")
def workshop(tmp_path_factory: pytest.TempPathFactory) -> Workshop:
    return Workshop(tmp_path_factory.mktemp("runtime-modes"))


def _explain(
    tool: Path, release: int, args: list[str], run_profdata: Callable[..., CliResult], scratch: Path
) -> str:
    """The first difference of a command that differed (it runs once more)."""
    theirs, ours = scratch / "explain-theirs.out", scratch / "explain-ours.out"
    real = tools.run_tool(tool, [a.replace("@OUT", str(theirs)) for a in args])
    got = run_profdata(f"--llvm-release={release}", *[a.replace("@OUT", str(ours)) for a in args])
    lines = [f"{' '.join(args)}: exit {real.returncode} (llvm) {got.code} (profdata)"]
    if real.stdout != got.stdout:
        lines.append(first_different_line(real.stdout.decode(errors="replace"), got.text))
    first = (real.stderr.split(b"\n", 1)[0], got.stderr.split(b"\n", 1)[0])
    if first[0] != first[1]:
        lines.append(f"stderr: {first[0]!r} (llvm) {first[1]!r} (profdata)")
    if theirs.exists() and ours.exists() and theirs.read_bytes() != ours.read_bytes():
        lines.append(first_difference(theirs.read_bytes(), ours.read_bytes()))
    return "\n".join(lines)


def _stderr(args: list[str]) -> dict[str, Any]:
    """How much of stderr must agree: its first line, but ``overlap`` of an input that goes
    bad after its first records warns where llvm-profdata is silent (a documented extra), so
    there only llvm-profdata's first error or warning line has to be in ours."""
    return {"first_error_line": True} if args[0] == "overlap" else {"stderr": "first"}


@pytest.mark.parametrize(("release", "mode", "command"), list(_cases()))
def test_runtime_mode(
    release: int,
    mode: str,
    command: str,
    tmp_path: Path,
    workshop: Workshop,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(release)
    files = [str(p) for p in workshop.files(release, mode)]
    failures = []
    for args in COMMANDS[command](files):
        same, _ = tools.compare_with_tool(
            tool, release, args, run_profdata, tmp_path, **_stderr(args)
        )
        if not same:
            failures.append(_explain(tool, release, args, run_profdata, tmp_path))
    assert not failures, "\n\n".join(failures)
