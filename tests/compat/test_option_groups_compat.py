"""Unknown options that LLVM's ``cl`` reads as groups, against the real tools, run live.

Each argument list goes to llvm-profdata of every installed release and to
``profdata --llvm-release=N``: exit status and stderr must be equal (LLVM
prints its own path in "Try: '... --help'"; profdata prints the tool's name,
as for every usage error).  The inputs never get read: ``cl`` fails first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

#: (argument list, the releases whose ``cl`` refuses it as a group)
CASES: list[tuple[list[str], tuple[int, ...]]] = [
    (["merge", "-j2", "-o", "out", "in"], tools.RELEASES),
    (["merge", "--j4", "in"], tools.RELEASES),
    (["merge", "-ofile", "in"], tools.RELEASES),
    (["merge", "-rmap.txt", "in"], tools.RELEASES),
    (["merge", "-flist.txt"], tools.RELEASES),
    (["merge", "--function=main", "in"], (14, 16)),  # 17+ have --function
    (["merge", "--sample", "-rr", "in"], tools.RELEASES),
    (["show", "--onlylistbelow", "in"], tools.RELEASES),
    (["show", "-o2", "in"], tools.RELEASES),
    (["overlap", "--ooverlap", "a", "b"], tools.RELEASES),
    (["order", "-oo", "in"], tools.RELEASES),  # 14/16: "Unknown command!" first
]
PARAMS = [(release, argv) for argv, releases in CASES for release in releases]


@pytest.mark.parametrize(("release", "argv"), PARAMS, ids=[f"{r}-{' '.join(a)}" for r, a in PARAMS])
def test_grouped_unknown_options(
    release: int,
    argv: list[str],
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(release)
    real = tools.run_tool(tool, argv, cwd=tmp_path)
    assert real.returncode == 1 and b"Unknown command" in real.stderr, real.stderr
    ours = run_profdata(f"--llvm-release={release}", *argv)
    expected = re.sub(rb"Try: '\S*/llvm-profdata", b"Try: 'llvm-profdata", real.stderr)
    assert (ours.code, ours.stderr) == (real.returncode, expected)
