"""``profdata show`` against the installed llvm-profdata 14/16/19/22, run live.

Random text profiles (seeded, so failures reproduce) full of the things that
make ``show`` subtle: equal maximum counts (``--topn`` / ``--hot-func-list``
tie order), counters at and above 2**63, pseudo counts and 2**64-1 counters
(which LLVM 14 treats as "invalid counts"), CS records, value sites with
unknown targets and zero sums.  Every option set runs through the real tool
and through ``profdata.cli.main`` with the same ``--llvm-release``; stdout and
exit status must be equal.  Releases that are not installed are skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

SEEDS = range(8)
U64_MAX = (1 << 64) - 1

OPTION_SETS: list[list[str]] = [
    [],
    ["--all-functions", "--counts", "--ic-targets", "--memop-sizes"],
    ["--topn=1"],
    ["--topn=4", "--value-cutoff=6"],
    ["--topn=40"],
    ["--detailed-summary"],
    ["--detailed-summary", "--detailed-summary-cutoffs=7,250000,333333,990000,1000000"],
    ["--value-cutoff=7", "--list-below-cutoff", "--all-functions"],
    ["--covered"],
    ["--showcs", "--all-functions", "--counts", "--topn=3"],
    ["--text", "--all-functions"],
    ["--text", "--function=f1", "--value-cutoff=5", "--list-below-cutoff"],
    ["--hot-func-list", "--topn=2"],
    ["--function=f", "--ic-targets", "--memop-sizes", "--counts"],
    ["--binary-ids", "--covered", "--showcs"],
]


def _count(rng: random.Random) -> int:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice([U64_MAX, U64_MAX - 1, (1 << 63) + rng.randrange(1000)])
    return rng.choice([0, 0, 1, 5, 5, 7, 7, 7, 100, 100, rng.randrange(1000)])


def random_proftext(seed: int) -> str:
    rng = random.Random(seed)
    ir = seed % 3 != 0
    lines = [":csir" if ir and seed % 2 else ":ir"] if ir else []
    names = [f"f{i}" for i in range(rng.randrange(5, 40))]
    for name in names:
        hash_ = rng.randrange(1 << 59)
        if ir and rng.random() < 0.2:
            hash_ |= 1 << 60
        counts = [_count(rng) for _ in range(rng.randrange(1, 6))]
        lines += [name, str(hash_), str(len(counts)), *map(str, counts)]
        kinds = []
        if rng.random() < 0.4:
            sites = []
            for _ in range(rng.randrange(0, 3)):
                targets = rng.sample(
                    [*names, "** External Symbol **", "elsewhere"], rng.randrange(0, 4)
                )
                sites.append([f"{t}:{rng.choice([0, 1, 30, 70, (1 << 63) + 5])}" for t in targets])
            kinds.append((0, sites))
        if rng.random() < 0.3:
            sizes = [
                [
                    f"{rng.choice([1, 8, 64, 1000])}:{rng.randrange(50)}"
                    for _ in range(rng.randrange(3))
                ]
            ]
            kinds.append((1, sizes))
        if kinds:
            lines.append(str(len(kinds)))
            for kind, sites in kinds:
                lines += [str(kind), str(len(sites))]
                for site in sites:
                    lines += [str(len(site)), *site]
        lines.append("")
    return "\n".join(lines) + "\n"


def _params() -> list[object]:
    return [
        pytest.param(seed, number, id=f"seed{seed}-r{number}")
        for seed in SEEDS
        for number in tools.RELEASES
    ]


@pytest.mark.parametrize(("seed", "number"), _params())
def test_show_agrees_with_llvm_profdata(
    seed: int,
    number: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(number)
    source = tmp_path / f"random{seed}.proftext"
    source.write_text(random_proftext(seed))
    for options in OPTION_SETS:
        real = tools.run_tool(tool, ["show", *options, str(source)])
        if not options:
            assert real.returncode == 0, real.stderr
        ours = run_profdata(f"--llvm-release={number}", "show", *options, str(source))
        assert (ours.code, ours.stdout) == (real.returncode, real.stdout), options


def test_random_profiles_hit_the_interesting_cases() -> None:
    texts = [random_proftext(seed) for seed in SEEDS]
    assert any(str(U64_MAX) in t for t in texts)
    assert any(":csir" in t for t in texts)
    assert any("** External Symbol **" in t for t in texts)
    assert sum(not t.startswith(":") for t in texts) >= 2
