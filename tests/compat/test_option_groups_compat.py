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

ARGVS = [
    ["merge", "-j2", "-o", "out", "in"],
    ["merge", "--j4", "in"],
    ["merge", "-ofile", "in"],
    ["merge", "-rmap.txt", "in"],
    ["merge", "-flist.txt"],
    ["merge", "--function=main", "in"],
    ["merge", "--no-function=main", "in"],
    ["merge", "--sample", "-rr", "in"],
    ["merge", "--temporal-profile-trace-reservoir-size=4", "in"],
    ["show", "--onlylistbelow", "in"],
    ["show", "-o2", "in"],
    ["overlap", "--ooverlap", "a", "b"],
    ["order", "-oo", "in"],
]


@pytest.mark.parametrize("argv", ARGVS, ids=[" ".join(a) for a in ARGVS])
@pytest.mark.parametrize("release", tools.RELEASES)
def test_grouped_unknown_options(
    release: int,
    argv: list[str],
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(release)
    real = tools.run_tool(tool, argv, cwd=tmp_path)
    if b"Unknown" not in real.stderr:
        pytest.skip(f"llvm-profdata {release} takes these options: {real.stderr[:80]!r}")
    if b"Did you mean" in real.stderr and b"group" not in real.stderr:
        pytest.skip("a suggestion from every option linked into the tool (not reproduced)")
    ours = run_profdata(f"--llvm-release={release}", *argv)
    expected = re.sub(rb"Try: '\S*/llvm-profdata", b"Try: 'llvm-profdata", real.stderr)
    assert (ours.code, ours.stderr) == (real.returncode, expected)
