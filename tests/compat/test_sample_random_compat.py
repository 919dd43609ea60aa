"""Random sample profiles: profdata prints and writes what the real llvm-profdata does.

``sample_random.random_profile`` makes a text profile from a seed (ties in
counts, saturating and wrapping sums, deep and out-of-order inlining, names with
``:``, spaces and ``.__uniq.``, wide discriminators, probes, contexts); each
release's llvm-profdata converts it to binary, ext-binary, MD5, compressed and
partial files, and every ``show``/``merge``/``overlap`` of ``sample_random.commands``
and ``read_back`` must agree with it in exit status, stdout and the written
file.  The seeds found three differences when this was written (MD5 ties in
``show``, the ``.__uniq.`` flag of 14/16 MD5 tables, flattening order and wrap);
``python -m tests.compat.sample_random --seeds N`` tries more.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.compat.sample_random import all_commands
from tests.conftest import CliResult

pytestmark = [pytest.mark.compat, pytest.mark.slow]

SEEDS = range(12)


@pytest.mark.parametrize("release", tools.RELEASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_sample_profile(
    release: int,
    seed: int,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    tool = llvm_profdata(release)
    shape, commands = all_commands(tool, release, seed, tmp_path)
    differ = []
    for args in commands:
        same, real = tools.compare_with_tool(tool, release, args, run_profdata, tmp_path)
        if not same:
            differ.append(f"{' '.join(args)} (llvm exit {real.returncode})")
    assert not differ, f"{shape}: " + "; ".join(differ)
