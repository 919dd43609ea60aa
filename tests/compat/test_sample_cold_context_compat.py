"""Cold-context trimming of CS sample profiles with many contexts, against every release.

The trimmer erases cold contexts from the reader's map and then inserts the
merged ones; the map (13: ``StringMap``, 14+: libstdc++ ``unordered_map``)
keeps the buckets it had grown to and, in 13, tombstones where keys were, so
the order the ext-binary writer walks (FuncMetadata) is not that of a fresh map
of the keys left.  The hand-written profiles of the corpus are too small for a
map to grow; these have 150 and 400 contexts up to four frames deep.  Found
with them: 14-16 merge every cold context into its function's base profile
whatever ``--sample-frame-depth-for-cold-context`` says, and the text
reader's summary of a 14/16 CS profile met contexts in 19's map order (which
decides which of two contexts of one function with different checksums counts).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

RELEASES = (13, 14, 15, 16, 19, 22)
COLD = [
    ["--sample-merge-cold-context"],
    ["--sample-trim-cold-context"],
    ["--sample-merge-cold-context", "--sample-trim-cold-context"],
    ["--sample-merge-cold-context", "--sample-frame-depth-for-cold-context=2"],
]

#: two contexts of _ZN2ns4workEv with different checksums: which one the summary counts
#: depends on which the map meets first (the base here, in 14/16's order)
CHECKSUMS = """\
[fn_29:8 @ _ZN2ns4workEv:63047 @ bar]:662502:5
 2: 0 a:234102370405 _Z3fooi:5
 2: 7587317
 !CFGChecksum: 1
[_ZN2ns4workEv]:0:9
 6: 6 a:5 a:5 _Z3fooi:5
 2.7: 10
 !CFGChecksum: 1
[_Z3bari:4.7 @ _ZN2ns4workEv]:7:4
 11: 9295
 9.7: 7 _ZN2ns4workEv:18446744073709551615 fn_23:356250588701
 62049: 161053 foo:952 fn_38:5
 0.7: 7818680398 bar:8535 _ZN2ns4workEv:5 _Z3fooi:5
 4: 0 fn_34:3
 !CFGChecksum: 563022570642068
 !Attributes: 0
"""


def many_contexts(seed: int, count: int) -> str:
    """``count`` distinct contexts under main, 1-3 callers deep, totals from 1 to 20000
    (a good part of them cold), and a few base profiles."""
    rng = random.Random(seed)
    seen: set[str] = set()
    lines: list[str] = []
    while len(seen) < count:
        frames = ["main"] + [f"fn_{rng.randrange(30)}" for _ in range(rng.randrange(1, 4))]
        callers = [f"{f}:{rng.randrange(1, 9)}" for f in frames[:-1]]
        context = " @ ".join([*callers, frames[-1]])
        if context in seen:
            continue
        seen.add(context)
        total = rng.choice([1, 2, 3, 5, 10, 50, 100, 1000, 5000]) * rng.randrange(1, 5)
        lines += [f"[{context}]:{total}:{rng.randrange(3)}", f" 1: {total}"]
    for i in range(rng.randrange(3, 10)):
        lines += [f"[fn_{i}]:{rng.randrange(1, 10000)}:1", " 1: 7"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("release", RELEASES)
def test_cold_contexts_of_a_grown_map_as_llvm_profdata(
    release: int,
    tmp_path: Path,
    run_profdata: Callable[..., CliResult],
    llvm_profdata: Callable[[int], Path],
) -> None:
    tool = llvm_profdata(release)
    commands: list[list[str]] = []
    for seed, count in ((1, 150), (3, 400)):
        text = tmp_path / f"cs{seed}.txt"
        text.write_text(many_contexts(seed, count))
        for cold in COLD:
            for encoding in ("--extbinary", "--text"):
                commands.append(["merge", "--sample", encoding, *cold, str(text), "-o", "@OUT"])
    checksums = tmp_path / "checksums.txt"
    checksums.write_text(CHECKSUMS)
    commands.append(["show", "--sample", "--detailed-summary", str(checksums)])
    commands.append(["merge", "--sample", "--extbinary", str(checksums), "-o", "@OUT"])
    differ = tools.differing(tool, release, commands, run_profdata, tmp_path)
    assert not differ, "; ".join(differ)
