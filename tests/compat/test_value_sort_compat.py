"""Value sites holding one value many times, merged and overlapped as each llvm-profdata does.

Unknown indirect-call targets (``** External Symbol **``, a target outside the
binary) all become value 0, so one site can hold 0 many times.  ``merge`` and
``overlap`` sort both sites by value and pair equal values in the order the
sort leaves them: stably up to LLVM 18 (``std::list::sort``), in libstdc++'s
introsort order from 19 (``llvm::sort``), which differs once a site holds
more than 16 entries.  Random text profiles (seeded) with sites of 5 to 60
entries, most of them external, are merged (with weights, three inputs,
``--text``, two threads) and overlapped by the real tool and by profdata.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

EXTERNAL = "** External Symbol **"


def _profile(rng: random.Random, sites: int) -> str:
    lines = [":ir", "main", "0x1234", "2", str(rng.randint(1, 99)), "7", "1", "0", str(sites)]
    for _ in range(sites):
        size = rng.choice([5, 16, 17, 18, 25, 40, 60])
        lines.append(str(size))
        for index in range(size):
            name = EXTERNAL if rng.random() < 0.8 else f"callee_{index % 7}_{rng.randint(0, 2)}"
            lines.append(f"{name}:{rng.randint(1, 1000)}")
    return "\n".join(lines) + "\n"


def _commands(files: list[str]) -> list[list[str]]:
    a, b, c = files
    return [
        ["merge", "-o", "@OUT", a, b],
        ["merge", "-o", "@OUT", a, b, c],
        ["merge", "--text", "-o", "@OUT", b, c, a],
        ["merge", "-o", "@OUT", "--weighted-input=3," + a, b],
        # Input i goes to writer context i % 2, but two inputs of one context
        # race for its lock, so their order (and thus the pairing) varies
        # from run to run in llvm-profdata itself unless they are the same
        # profile: each context gets one profile twice.
        ["merge", "-j", "2", "-o", "@OUT", a, b, a, b],
        ["overlap", a, b],
        ["overlap", "--value-cutoff=1", c, a],
    ]


@pytest.mark.parametrize("release", tools.installed_releases())
@pytest.mark.parametrize("seed", range(3))
def test_repeated_values_pair_as_llvm_pairs_them(
    release: int, seed: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    tool = tools.find_llvm_profdata(release)
    assert tool is not None
    rng = random.Random(seed)
    files = []
    for name in "abc":
        path = tmp_path / f"{name}.proftext"
        path.write_text(_profile(rng, 3))
        files.append(str(path))
    assert tools.differing(tool, release, _commands(files), run_profdata, tmp_path) == []
