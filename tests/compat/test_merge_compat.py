"""``profdata merge`` against the real llvm-profdata on generated text profiles.

Each case writes a few random text profiles (a seeded generator: shared
names, several hashes per name, memop sites with many equal counts, counters
near 2**64, mixed variant flags, temporal traces with tiny reservoirs), runs
the installed llvm-profdata of each release and ``profdata`` with the same
arguments, and compares the exit status and the bytes written.  Ties, the
writer-context split and reservoir sampling all show up in those bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

U64_MAX = (1 << 64) - 1
NAMES = ["main", "foo", "bar", "baz", "qux", "f1", "f2", "f3", "g", "h"]
HASHES = [10, 20, 1 << 60 | 5, 77]


def text_profile(rng: random.Random, header: str = ":ir") -> str:
    lines = [header] if header else []
    for name in rng.sample(NAMES, rng.randint(1, 7)):
        for fhash in rng.sample(HASHES, rng.randint(1, 2)):
            width = 3 if fhash == 77 else 2
            lines += [name, "# Func Hash:", str(fhash), "# Num Counters:", str(width)]
            lines.append("# Counter Values:")
            big = [U64_MAX - 3, U64_MAX >> 1]
            lines += [str(rng.choice([0, 0, 1, 2, 3, 1000, *big])) for _ in range(width)]
            if rng.random() < 0.7:
                lines += ["# Num Value Kinds:", "1", "# ValueKind = IPVK_MemOPSize:", "1"]
                lines += ["# NumValueSites:", "2"]
                for _ in range(2):
                    values = rng.sample(range(1, 9), rng.randint(0, 5))
                    lines.append(str(len(values)))
                    lines += [f"{v}:{rng.choice([1, 1, 2, 2, 3])}" for v in values]
            lines.append("")
    return "\n".join(lines) + "\n"


def temporal_profile(rng: random.Random) -> str:
    count = rng.randint(0, 5)
    lines = [":ir", ":temporal_prof_traces", "# Num Temporal Profile Traces:", str(count)]
    lines += ["# Temporal Profile Trace Stream Size:", str(count + rng.choice([0, 1, 3, 50]))]
    for _ in range(count):
        calls = ",".join(rng.choice(NAMES[:5]) for _ in range(rng.randint(1, 4)))
        lines += ["# Weight:", str(rng.randint(1, 4)), calls + ","]
    lines.append("")
    for name in NAMES[:5]:
        lines += [name, "# Func Hash:", "1", "# Num Counters:", "1", "# Counter Values:", "1", ""]
    return "\n".join(lines) + "\n"


def compare(
    run_profdata: Callable[..., CliResult],
    tool: Path,
    number: int,
    tmp: Path,
    inputs: list[str],
    options: list[str],
    racy: bool = False,
) -> None:
    """With ``racy`` the real tool's output depends on thread scheduling: ours must be one of
    the outputs it produces, so it is rerun (up to 20 times) until one run matches."""
    paths = []
    for index, body in enumerate(inputs):
        path = tmp / f"in{index}.proftext"
        path.write_text(body)
        paths.append(str(path))
    for fmt in ([], ["--text"]):
        theirs, ours = tmp / "theirs.out", tmp / "ours.out"
        theirs.unlink(missing_ok=True)
        ours.unlink(missing_ok=True)
        args = ["merge", *fmt, *options, *paths]
        real = tools.run_tool(tool, [*args, "-o", str(theirs)])
        got = run_profdata(f"--llvm-release={number}", *args, "-o", str(ours))
        assert got.code == real.returncode, (real.stderr, got.stderr)
        if real.returncode == 0:
            seen = {theirs.read_bytes()}
            for _ in range(19 if racy else 0):
                if ours.read_bytes() in seen:
                    break
                tools.run_tool(tool, [*args, "-o", str(theirs)])
                seen.add(theirs.read_bytes())
            assert ours.read_bytes() in seen, (args, real.stderr, len(seen))


OPTION_SETS = [[], ["--num-threads=1"], ["--num-threads=3"], ["--sparse", "--num-threads=4"]]


@pytest.mark.parametrize("number", tools.RELEASES)
@pytest.mark.parametrize("seed", range(6))
def test_random_ir_merges(
    run_profdata: Callable[..., CliResult],
    llvm_profdata: Callable[[int], Path],
    tmp_path: Path,
    number: int,
    seed: int,
) -> None:
    tool = llvm_profdata(number)
    rng = random.Random(seed)
    inputs = [text_profile(rng) for _ in range(rng.randint(3, 6))]
    for options in OPTION_SETS:
        # several writer contexts: the real tool's thread pool decides the order in which
        # they take their inputs, and under load it has written another record set once
        # (counters near 2**64 saturating); ours must be one of the outputs it writes
        racy = options != ["--num-threads=1"]
        compare(run_profdata, tool, number, tmp_path, inputs, options, racy=racy)
    weighted = tmp_path / "w.proftext"
    weighted.write_text(text_profile(rng))
    # One writer context: with several, llvm-profdata's thread pool may take two inputs of one
    # context in either order, and a weighted merge inserts values new to a site unscaled, so
    # the real tool's own counts then vary from run to run.
    compare(
        run_profdata,
        tool,
        number,
        tmp_path,
        inputs,
        [f"--weighted-input=3,{weighted}", "--num-threads=1"],
    )


@pytest.mark.parametrize("number", tools.RELEASES)
@pytest.mark.parametrize("seed", range(6))
def test_random_flag_mixes(
    run_profdata: Callable[..., CliResult],
    llvm_profdata: Callable[[int], Path],
    tmp_path: Path,
    number: int,
    seed: int,
) -> None:
    tool = llvm_profdata(number)
    rng = random.Random(100 + seed)
    headers = [":ir", ":csir", "", ":fe", ":ir\n:entry_first"]
    inputs = [text_profile(rng, rng.choice(headers)) for _ in range(rng.randint(2, 5))]
    for options in ([], ["--num-threads=1"], ["--num-threads=3", "--failure-mode=all"]):
        compare(run_profdata, tool, number, tmp_path, inputs, options)


@pytest.mark.parametrize("number", [r for r in tools.RELEASES if r >= 19])
@pytest.mark.parametrize("seed", range(8))
def test_random_temporal_reservoirs(
    run_profdata: Callable[..., CliResult],
    llvm_profdata: Callable[[int], Path],
    tmp_path: Path,
    number: int,
    seed: int,
) -> None:
    tool = llvm_profdata(number)
    rng = random.Random(200 + seed)
    inputs = [temporal_profile(rng) for _ in range(rng.randint(1, 6))]
    options = [
        f"--temporal-profile-trace-reservoir-size={rng.choice([1, 2, 3, 100])}",
        f"--temporal-profile-max-trace-length={rng.choice([0, 2, 10000])}",
    ]
    # With several writer contexts, two inputs of one context are loaded in whichever order
    # the thread pool runs them, and the traces (and which ones a full reservoir keeps)
    # follow that order: the real tool's output then varies from run to run.
    for threads in ([], ["--num-threads=1"], ["--num-threads=3"]):
        racy = threads != ["--num-threads=1"] and len(inputs) > 2
        compare(run_profdata, tool, number, tmp_path, inputs, [*options, *threads], racy)
