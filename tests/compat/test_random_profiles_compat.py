"""Random profiles: profdata prints and writes what the real llvm-profdata does.

``sample_random.random_profile`` makes a sample text profile from a seed (flat,
nested, CS, probes; ties, saturating and wrapping sums, deep and out-of-order
inlining, names with ``:``, spaces and ``.__uniq.``, wide discriminators), and
each release's llvm-profdata (14, 16, 19, 22; 13 and 15 where installed) converts
it to binary, ext-binary, MD5, compressed, partial and (up to 16) compact files.
``instr_random.random_profile`` makes an instrumentation ``.proftext`` (repeated
names and hashes, counts of 0 and near 2**64, value sites with ties, repeats and
external symbols, bitmaps and temporal traces where the release has them), and
the real tool writes an indexed file of it. Every ``show``/``merge``/``overlap``
form their ``all_commands`` list must agree with that release's llvm-profdata in
exit status, stdout and the written file. The seeds found five differences when
this was written (MD5 ties in sample ``show``, the ``.__uniq.`` flag of 14/16
MD5 tables, flattening order and wrap, text bitmaps left by a merged record);
``python -m tests.compat.sample_random --seeds N`` (or ``instr_random``) tries
more.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import instr_random, sample_random, tools
from tests.compat.random_diff import Commands
from tests.conftest import CliResult

pytestmark = [pytest.mark.compat, pytest.mark.slow]

GENERATORS: dict[str, tuple[Commands, range]] = {
    "instr": (instr_random.all_commands, range(12)),
    "sample": (sample_random.all_commands, range(12)),
}
CASES = [(kind, seed) for kind, (_, seeds) in GENERATORS.items() for seed in seeds]


@pytest.mark.parametrize("release", sorted(tools.RELEASES + tools.EXTRA_RELEASES))
@pytest.mark.parametrize(("kind", "seed"), CASES)
def test_random_profile(
    kind: str,
    seed: int,
    release: int,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    tool = llvm_profdata(release)
    commands = GENERATORS[kind][0](tool, release, seed, tmp_path)
    differ = tools.differing(tool, release, commands, run_profdata, tmp_path)
    assert not differ, f"{kind} seed {seed}: " + "; ".join(differ)
