"""profdata against the real llvm-profdata on a C++ program's profiles, built live.

fixtures/src/parsers.cpp throws and catches exceptions, uses std::map and
std::function, calls a template from a lambda and makes virtual calls: the
kinds of functions (long mangled names, landing pads, comdat templates,
indirect-call and memop value sites) the C fixtures do not have.  Every
installed clang builds it with IR instrumentation (-O1 -fprofile-generate) and
with front-end instrumentation and coverage (-O0 -fprofile-instr-generate
-fcoverage-mapping); three runs give three raw profiles.  Then each command of
a matrix of ``show``, ``merge`` and ``overlap`` runs through the same
release's llvm-profdata and through ``profdata --llvm-release=N``: exit status,
stdout and any output file must be byte-identical.  Indexed and text inputs
are written by the real tool.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import REPO, CliResult

pytestmark = [pytest.mark.compat, pytest.mark.slow]

SOURCE = REPO / "fixtures" / "src" / "parsers.cpp"
MODES = {
    "ir": ["-O1", "-fprofile-generate"],
    "fe": ["-O0", "-fprofile-instr-generate", "-fcoverage-mapping"],
}
RUNS = ("3", "11", "40")

SHOW = [
    [],
    ["--all-functions", "--counts"],
    ["--all-functions", "--counts", "--ic-targets", "--memop-sizes"],
    ["--detailed-summary"],
    ["--topn=3"],
    ["--text", "--all-functions"],
    ["--covered"],
    ["--value-cutoff=5", "--all-functions", "--list-below-cutoff"],
    ["--function=parse", "--counts", "--ic-targets"],
    ["--binary-ids"],
]


def build(tmp: Path, release: int, mode: str, clangxx: Path) -> list[Path]:
    """The program's raw profiles of three runs."""
    exe = tmp / f"{mode}{release}"
    subprocess.run(
        [str(clangxx), *MODES[mode], str(SOURCE), "-o", str(exe)], check=True, capture_output=True
    )
    raws = []
    for run in RUNS:
        raw = tmp / f"{mode}{release}-{run}.profraw"
        subprocess.run(
            [str(exe), run], check=True, capture_output=True, env={"LLVM_PROFILE_FILE": str(raw)}
        )
        raws.append(raw)
    return raws


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("release", tools.RELEASES)
def test_cxx_program(
    release: int,
    mode: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    clang: Callable[..., Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(release)
    raws = build(tmp_path, release, mode, clang(release, cxx=True))
    names = [str(p) for p in raws]
    indexed, text = tmp_path / "real.profdata", tmp_path / "real.proftext"
    tools.run_tool(tool, ["merge", "-o", str(indexed), *names]).check_returncode()
    tools.run_tool(tool, ["merge", "--text", "-o", str(text), *names]).check_returncode()

    commands: list[list[str]] = []
    for profile in (names[0], str(indexed)):
        commands += [["show", *options, profile] for options in SHOW]
    commands += [["show", *options, str(text)] for options in SHOW[:5]]
    merges = [
        names,
        ["--sparse", *names],
        ["--text", *names],
        ["--num-threads=2", *names, *names],
        [f"--weighted-input=3,{names[0]}", *names[1:]],
        ["--function=geo", *names],
        ["--no-function=clamp", str(indexed), names[2]],
        [str(text), names[1]],
    ]
    commands += [["merge", *args, "-o", "@OUT"] for args in merges]
    commands += [
        ["overlap", str(indexed), names[0]],
        ["overlap", "--function=parse", names[1], names[2]],
        ["overlap", "--value-cutoff=2", str(text), names[2]],
    ]

    failures = [
        " ".join(args)
        for args in commands
        if not tools.compare_with_tool(tool, release, args, run_profdata, tmp_path)[0]
    ]
    assert not failures, failures
