"""``merge --supplement-instr-with-sample`` against the installed llvm-profdata, run live.

Random (seeded) pairs of an IR text profile and a text sample profile made
of what the adjustment looks at: cold (all-zero) functions, plain names and static ``file;name`` /
``file:name`` names (with and without ``.__uniq.`` suffixes, several files
sharing one name), names with two hashes, counters from zero to pseudo
counts, value sites, and sample profiles with nested inlinees, with random
thresholds and output formats.  Each pair runs through the real tool and
``profdata.cli.main`` with the same ``--llvm-release``: exit status, the
written profile and standard error (less our ``  detail:`` lines) must be
equal.  Releases that are not installed are skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

SEEDS = range(16)
FILES = ("a.c", "b.cc", "x.cpp", "y.h", "Z.HPP", "q.C")
U64_MAX = (1 << 64) - 1
Run = Callable[..., CliResult]


def _count(rng: random.Random) -> int:
    roll = rng.random()
    if roll < 0.3:
        return 0
    if roll < 0.6:
        return rng.randint(1, 20)
    if roll < 0.9:
        return rng.randint(1, 100000)
    if roll < 0.97:
        return rng.randint(1, 2**40)
    return rng.choice([U64_MAX, U64_MAX - 1, U64_MAX - 2, 2**63])


def _instr_names(rng: random.Random, bases: list[str]) -> list[str]:
    delimiter = rng.choice(":;")
    names = []
    for base in bases:
        roll = rng.random()
        if roll < 0.5:
            names.append(base)
        elif roll < 0.8:
            names.append(f"{rng.choice(FILES)}{delimiter}{base}")
        elif roll < 0.9:
            names.append(f"{rng.choice(FILES)}{delimiter}{base}.__uniq.123")
        else:
            names.append(f"{rng.choice(FILES)}{rng.choice(':;')}{base}")
    return names


def _instr_text(rng: random.Random, names: list[str]) -> str:
    lines = [":ir"]
    for name in names:
        for second in range(1 if rng.random() < 0.85 else 2):
            width = rng.randint(1, 14)
            cold = rng.random() < 0.25
            lines += [name, str(rng.randint(1, 1000) + second * 7919), str(width)]
            lines += [str(0 if cold else _count(rng)) for _ in range(width)]
            if rng.random() < 0.15:
                targets = [f"{rng.choice(names)}:{_count(rng)}" for _ in range(2)]
                lines += ["1", "0", "1", "2", *targets]
            lines.append("")
    return "\n".join(lines) + "\n"


def _function(rng: random.Random, name: str, depth: int, bases: list[str]) -> list[str]:
    indent = " " * (depth + 1)
    total = rng.randint(0, 10**6)
    header = f"{name}:{total}:{rng.randint(0, 10**5)}" if depth == 0 else f"{name}:{total}"
    lines = [header]
    for loc in sorted(rng.sample(range(1, 20), rng.randint(0, 6))):
        if depth < 3 and rng.random() < 0.3:
            inner = _function(rng, rng.choice(bases), depth + 1, bases)
            lines.append(f"{indent}{loc}: {inner[0]}")
            lines += inner[1:]
        else:
            lines.append(f"{indent}{loc}: {rng.randint(0, 10**5)}")
    return lines


def random_pair(seed: int) -> tuple[str, str, list[str]]:
    """An instr profile, a sample profile and the options of one case."""
    rng = random.Random(seed)
    bases = [f"f{i}" for i in range(rng.randint(3, 12))]
    names = _instr_names(rng, bases)
    instr = _instr_text(rng, names)
    unique = rng.random() < 0.3
    sample: list[str] = []
    for base in rng.sample(bases + names[:2], rng.randint(1, len(bases))):
        top = base + (".__uniq.99" if unique and rng.random() < 0.5 else "")
        sample += _function(rng, top, 0, bases + names[:2])
    options = [f"-suppl-min-size-threshold={rng.choice([0, 1, 2, 5, 10])}"]
    if rng.random() < 0.5:
        options.append(f"-zero-counter-threshold={rng.choice(['0', '0.3', '0.5', '0.9', '1'])}")
    if rng.random() < 0.4:
        options.append(f"-instr-prof-cold-threshold={rng.choice([1, 10, 1000, 4000000000])}")
    if rng.random() < 0.5:
        options.append("--text")
    return instr, "\n".join(sample) + "\n", options


def _stderr_lines(data: bytes) -> list[str]:
    lines = data.decode("utf-8", "replace").splitlines()
    return [line for line in lines if not line.startswith("  detail: ")]


@pytest.mark.parametrize("number", tools.RELEASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_supplements_match_llvm_profdata(
    number: int, seed: int, run_profdata: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = tools.find_llvm_profdata(number)
    if tool is None:
        pytest.skip(f"llvm-profdata {number} is not installed")
    monkeypatch.chdir(tmp_path)
    instr, sample, options = random_pair(seed)
    (tmp_path / "instr.proftext").write_text(instr)
    (tmp_path / "sample.proftext").write_text(sample)
    args = ["merge", "--supplement-instr-with-sample=sample.proftext", "instr.proftext", *options]
    real = tools.run_tool(tool, [*args, "-o", "real.out"], cwd=tmp_path)
    ours = run_profdata(f"--llvm-release={number}", *args, "-o", str(tmp_path / "ours.out"))
    assert ours.code == real.returncode
    assert _stderr_lines(ours.stderr) == _stderr_lines(real.stderr)
    if real.returncode == 0:
        assert (tmp_path / "ours.out").read_bytes() == (tmp_path / "real.out").read_bytes()


def test_generated_cases_are_adjusted(run_profdata: Run, tmp_path: Path) -> None:
    """Most cases change the profile (else the comparison above would prove little)."""
    changed = 0
    for seed in SEEDS:
        instr, sample, options = random_pair(seed)
        (tmp_path / "instr.proftext").write_text(instr)
        (tmp_path / "sample.proftext").write_text(sample)
        plain, supplemented = tmp_path / "plain", tmp_path / "supplemented"
        text = ["--text"] if "--text" in options else []
        assert (
            run_profdata("merge", *text, str(tmp_path / "instr.proftext"), "-o", str(plain)).code
            == 0
        )
        result = run_profdata(
            "merge", f"--supplement-instr-with-sample={tmp_path / 'sample.proftext'}",
            str(tmp_path / "instr.proftext"), *options, "-o", str(supplemented),
        )  # fmt: skip
        assert result.code == 0
        changed += plain.read_bytes() != supplemented.read_bytes()
    assert changed >= len(SEEDS) // 2
