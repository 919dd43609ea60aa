"""``profdata overlap`` against the installed llvm-profdata 14/16/19/22, run live.

Random pairs of text profiles (seeded, so failures reproduce) made of what
makes overlap subtle: names in one profile only, other hashes and counter
counts under a known name, records repeated in the base (merged, with
warnings), zero sums, CS records in IR profiles, counters near 2**64 (sums
wrap), value sites with partly shared targets and repeated memop sizes, the
DenseMap empty-key FuncHash, and options that print function blocks.  Every
pair runs through the real tool and through ``profdata.cli.main`` with the
same ``--llvm-release``, as text and, when the tool merges them, as indexed
files it wrote; stdout and exit status must be equal.  Releases that are not
installed are skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

SEEDS = range(24)
CS_BIT = 1 << 60
U64_MAX = (1 << 64) - 1
OPTION_SETS: list[list[str]] = [
    [],
    ["--value-cutoff=0"],
    ["--value-cutoff=500"],
    ["--cs", "--value-cutoff=0"],
    ["--function=f1"],
    ["--function=f", "--value-cutoff=1000000"],
]
TARGETS = {0: ["t1", "t2", "t3", "t4"], 2: ["_ZTV1A", "_ZTV1B", "_ZTV1C"]}


def _count(rng: random.Random) -> int:
    roll = rng.random()
    if roll < 0.2:
        return 0
    if roll < 0.85:
        return rng.randint(1, 1000)
    if roll < 0.95:
        return rng.randint(1, 10**12)
    return rng.choice([2**53 + 1, 2**63, U64_MAX - 2, U64_MAX - 1, U64_MAX])


def _record(rng: random.Random, name: str, fhash: int, width: int, kinds: list[int]) -> list[str]:
    lines = [name, str(fhash), str(width), *(str(_count(rng)) for _ in range(width))]
    chosen = [k for k in kinds if rng.random() < 0.4]
    if not chosen:
        return lines
    lines.append(str(max(chosen) + 1))
    for kind in range(max(chosen) + 1):
        sites = rng.randint(1, 2) if kind in chosen else 0
        lines += [str(kind), str(sites)]
        for _ in range(sites):
            values = rng.randint(0, 4)
            lines.append(str(values))
            for _ in range(values):
                count = rng.randint(1, 500) if rng.random() < 0.8 else _count(rng) or 1
                value = rng.randint(0, 6) if kind == 1 else rng.choice(TARGETS[kind])
                lines.append(f"{value}:{count}")
    return lines


def random_pair(seed: int, number: int) -> tuple[str, str]:
    """A base and a test profile sharing most functions, with LLVM's pitfalls sprinkled in."""
    rng = random.Random(seed * 100 + number)
    kinds = [0, 1, 2] if number >= 19 else [0, 1]
    header = [":ir", ":csir", "", ":ir", ":fe"][seed % 5]
    ir = header in (":ir", ":csir")
    names = [f"f{i}" for i in range(rng.randint(2, 12))]
    shapes = {n: (rng.choice([1, 2, 3, 5, 8]), rng.randrange(1 << 40)) for n in names}

    def profile(extra: list[str], repeats: bool) -> str:
        lines = [header] if header else []
        for name in rng.sample(names, rng.randint(1, len(names))) + extra:
            width, fhash = shapes.get(name, (2, 99))
            roll = rng.random()
            if roll < 0.08:
                width += 1
            elif roll < 0.16:
                fhash += 1
            elif roll < 0.18:
                fhash = U64_MAX
            if ir and rng.random() < 0.25:
                fhash |= CS_BIT
            copies = 2 if repeats and rng.random() < 0.15 else 1
            for _ in range(copies):
                lines += _record(rng, name, fhash, width, kinds)
        return "\n".join(lines) + "\n"

    return profile([], True), profile(["g1", "g2"][: rng.randint(0, 2)], False)


Run = Callable[..., CliResult]


def _compare(run_profdata: Run, tool: Path, number: int, folder: Path, args: list[str]) -> None:
    real = tools.run_tool(tool, ["overlap", *args], cwd=folder)
    ours = run_profdata(f"--llvm-release={number}", "overlap", *args)
    assert (ours.code, ours.stdout) == (real.returncode, real.stdout), (number, args)


@pytest.mark.parametrize("number", tools.RELEASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_pairs_match_llvm_profdata(
    seed: int,
    number: int,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Run,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tool = llvm_profdata(number)
    monkeypatch.chdir(tmp_path)
    base, test = random_pair(seed, number)
    (tmp_path / "base.proftext").write_text(base)
    (tmp_path / "test.proftext").write_text(test)
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    _compare(run_profdata, tool, number, tmp_path, [*options, "base.proftext", "test.proftext"])
    _compare(
        run_profdata, tool, number, tmp_path, ["--value-cutoff=0", "test.proftext", "base.proftext"]
    )
    for stem in ("base", "test"):
        merged = tools.run_tool(
            tool, ["merge", "-o", f"{stem}.profdata", f"{stem}.proftext"], tmp_path
        )
        # a FuncHash of 2**64-1 can make the writer emit a file its own reader calls empty
        readable = tools.run_tool(tool, ["show", f"{stem}.profdata"], tmp_path)
        if merged.returncode or readable.returncode:
            return
    _compare(run_profdata, tool, number, tmp_path, [*options, "base.profdata", "test.profdata"])


def test_generated_pairs_reach_every_outcome() -> None:
    """The generator keeps producing the cases the comparisons are meant to cover."""
    texts = [random_pair(seed, 22) for seed in SEEDS]
    joined = "".join(base + test for base, test in texts)
    assert str(U64_MAX) in joined and ":csir" in joined and "_ZTV1" in joined
    assert any(":fe" in base for base, _ in texts) and any("g1" in test for _, test in texts)
