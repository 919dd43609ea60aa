"""The sample profile map's iteration order, per release, against the real tools.

LLVM 14/16 key a reader's ``FunctionSamples`` by ``hash_value`` of the name and
19/22 by its MD5; which one decides the order of equal entries wherever a
listing is sorted stably by count (``--hot-func-list``, ``--topn``).  Eight
functions of equal weight make every tie visible.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult

NAMES = ("main", "foo", "bar", "only_test1", "only_test2", "only_test3", "t1", "t2", "_Z3bazv")


@pytest.mark.compat
@pytest.mark.parametrize("release", [14, 16, 19, 22])
@pytest.mark.parametrize("option", ["--hot-func-list", "--topn=5"])
def test_ties_list_in_the_real_tools_order(
    release: int,
    option: str,
    tmp_path: Path,
    run_profdata: Callable[..., CliResult],
    llvm_profdata: Callable[[int], Path],
) -> None:
    profile = tmp_path / "ties.txt"
    profile.write_text("".join(f"{name}:100:1\n 1: 100\n" for name in NAMES))
    args = ["show", "--sample", option, str(profile)]
    real = subprocess.run([str(llvm_profdata(release)), *args], capture_output=True, check=True)
    ours = run_profdata(f"--llvm-release={release}", *args)
    assert ours.code == 0
    assert ours.stdout == real.stdout
