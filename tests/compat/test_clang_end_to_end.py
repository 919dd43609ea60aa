"""clang, raw profiles, merge, clang -fprofile-use: profdata in the place of llvm-profdata.

``fixtures/src/e2e.c`` is built with the clang of release R in IR
(``-fprofile-generate``) or front-end (``-fprofile-instr-generate``)
instrumentation and run twice with different arguments.  The two raw
profiles are merged by the real ``llvm-profdata`` of R and by
``profdata --llvm-release=R``; the indexed files must be byte-identical, and
the IR that clang R optimizes with each of them must be identical too.  The
IR comparison is what a user of PGO sees; the test also requires that IR to
carry branch weights and value-profile metadata, so a profile that clang
ignored could not make it pass.

Each (release, mode) is built once per module; a release whose clang or
llvm-profdata is missing is skipped.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from profdata.cli import main
from tests.byte_diff import first_difference, first_different_line
from tests.conftest import REPO

pytestmark = pytest.mark.compat

SOURCE = REPO / "fixtures" / "src" / "e2e.c"
#: Program arguments of the two runs (iterations, random seed).
RUNS = (("400", "1"), ("150", "99"))


@dataclass(frozen=True)
class Mode:
    """An instrumentation mode: how to build the profiled program and how to use the profile."""

    name: str
    generate: str
    use: str
    #: flags of both compiles
    common: tuple[str, ...]
    #: metadata the optimized IR must carry for the comparison to mean something
    required_metadata: tuple[str, ...]


IR = Mode(
    "ir",
    "-fprofile-generate",
    "-fprofile-use",
    (),
    ('!"ProfileSummary"', '!{!"branch_weights"', '!{!"VP", i32 0,', '!{!"VP", i32 1,'),
)
FRONT_END = Mode(
    "fe",
    "-fprofile-instr-generate",
    "-fprofile-instr-use",
    ("-mllvm", "-enable-value-profiling"),
    ('!"ProfileSummary"', '!{!"branch_weights"', '!{!"VP", i32 0,'),
)
CASES = [
    pytest.param((release, mode), id=f"{mode.name}-{release}")
    for release in (14, 16, 19, 22)
    for mode in (IR, FRONT_END)
]


@dataclass(frozen=True)
class Build:
    """Both merged profiles and what clang made of each."""

    release: int
    mode: Mode
    real_profile: bytes
    our_exit: int
    our_stderr: str
    our_profile: bytes | None
    real_ir: str
    real_warnings: str
    our_ir: str | None
    our_warnings: str | None


@functools.cache
def no_aslr() -> tuple[str, ...]:
    """``setarch -R`` when it works here: value-profile targets then repeat between runs."""
    if shutil.which("setarch") is None:
        return ()
    probe = subprocess.run(["setarch", "-R", "true"], capture_output=True)
    return ("setarch", "-R") if probe.returncode == 0 else ()


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=300)
    assert proc.returncode == 0, f"{' '.join(cmd)}: {proc.stderr.decode(errors='replace')}"
    return proc.stdout.decode()


def _optimize_with(cc: Path, mode: Mode, profile: bytes, work: Path) -> tuple[str, str]:
    """The -O2 IR and clang's warnings; the profile always has the same path."""
    (work / "use.profdata").write_bytes(profile)
    cmd = [str(cc), "-O2", f"{mode.use}=use.profdata", *mode.common]
    proc = subprocess.run(
        [*cmd, "-S", "-emit-llvm", "-o", "-", "e2e.c"], cwd=work, capture_output=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return proc.stdout.decode(), proc.stderr.decode()


def _merge_with_profdata(release: int, raws: list[str], out: Path) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main([f"--llvm-release={release}", "merge", "-o", str(out), *raws])
    return code, err.getvalue()


@pytest.fixture(scope="module", params=CASES)
def build(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    clang: Callable[..., Path],
    llvm_profdata: Callable[[int], Path],
) -> Build:
    release, mode = request.param
    cc, tool = clang(release), llvm_profdata(release)
    work = tmp_path_factory.mktemp(f"e2e-{mode.name}-{release}")
    shutil.copy(SOURCE, work / "e2e.c")
    _run([str(cc), "-O2", mode.generate, *mode.common, "e2e.c", "-o", "prog"], work)
    raws = []
    for number, args in enumerate(RUNS, start=1):
        raw = work / f"run{number}.profraw"
        _run([*no_aslr(), "./prog", *args], work, {**os.environ, "LLVM_PROFILE_FILE": str(raw)})
        raws.append(str(raw))
    _run([str(tool), "merge", "-o", "real.profdata", *raws], work)
    real_profile = (work / "real.profdata").read_bytes()
    our_exit, our_stderr = _merge_with_profdata(release, raws, work / "ours.profdata")
    our_profile = (work / "ours.profdata").read_bytes() if our_exit == 0 else None
    real_ir, real_warnings = _optimize_with(cc, mode, real_profile, work)
    our_ir, our_warnings = (
        _optimize_with(cc, mode, our_profile, work) if our_profile is not None else (None, None)
    )
    return Build(
        release, mode, real_profile, our_exit, our_stderr, our_profile,
        real_ir, real_warnings, our_ir, our_warnings,
    )  # fmt: skip


def test_merge_is_byte_identical_to_llvm_profdata(build: Build) -> None:
    assert build.our_exit == 0, build.our_stderr
    assert build.our_profile is not None
    assert build.our_profile == build.real_profile, first_difference(
        build.real_profile, build.our_profile
    )


def test_profile_use_gives_the_same_ir(build: Build) -> None:
    assert build.our_ir is not None, f"profdata merge failed: {build.our_stderr}"
    assert build.our_ir == build.real_ir, first_different_line(build.real_ir, build.our_ir)
    assert build.our_warnings == build.real_warnings


def test_the_ir_carries_the_profile(build: Build) -> None:
    """Without weights in the IR, equal IR would say nothing about the profiles."""
    missing = [m for m in build.mode.required_metadata if m not in build.real_ir]
    assert not missing, f"clang {build.release} -O2 {build.mode.use} left out {missing}"
    assert " !prof !" in build.real_ir
