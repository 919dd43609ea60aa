"""Random instrumentation text profiles: profdata prints and writes what llvm-profdata does.

``instr_random.random_profile`` makes a ``.proftext`` from a seed for a release
(repeated names and hashes, counts of 0 and near 2**64, value sites with ties,
repeats and external symbols, bitmaps and temporal traces where the release
has them); every ``show``/``merge``/``overlap`` of ``instr_random.all_commands``,
on it and on the indexed file the real tool writes from it, must agree with
that release's llvm-profdata in exit status, stdout and the written file.
``python -m tests.compat.instr_random --seeds N`` tries more seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.compat.instr_random import all_commands
from tests.conftest import CliResult

pytestmark = [pytest.mark.compat, pytest.mark.slow]

#: 0-9, and two that once differed (a bitmap left by a merged record)
SEEDS = (*range(10), 102, 109)


@pytest.mark.parametrize("release", tools.RELEASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_instr_profile(
    release: int,
    seed: int,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    tool = llvm_profdata(release)
    differ = []
    for args in all_commands(tool, release, seed, tmp_path):
        same, real = tools.compare_with_tool(tool, release, args, run_profdata, tmp_path)
        if not same:
            differ.append(f"{' '.join(args)} (llvm exit {real.returncode})")
    assert not differ, f"seed {seed}: " + "; ".join(differ)
