"""Random instrumentation text profiles, run through the real llvm-profdata and profdata.

The corpus's instrumentation inputs come from a few real programs, so their
shapes are those programs' (counts far from 2**64, few ties, one record per
name and hash).  :func:`random_profile` writes a text profile (``.proftext``)
from a seed: repeated names with equal or other hashes, counts of 0 and near
2**64, local names with ``;``, indirect-call and memop sites with tied and
repeated values, ``** External Symbol **``, MC/DC bitmaps and temporal traces
where the release has them.  :func:`all_commands` lists the ``show``,
``merge`` and ``overlap`` forms to compare, plus reads of the indexed file the
real tool writes from it; the real tool is the oracle.
``test_random_profiles_compat.py`` runs a fixed set of seeds; as a script this
tries as many as asked, each in a fresh ``python -m profdata``:

    python -m tests.compat.instr_random --seeds 100 --llvm 22 --llvm 14
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from tests.compat import sample_random
from tests.compat.random_diff import U64, main, random_count

_NAMES = ("main", "foo", "bar", "a.c;helper", "b.c;helper", "_Z3fooi", "_ZN2ns4workEv",
          "f.llvm.7", "zz", "g", "x:y")  # fmt: skip


def _value_sites(rng: random.Random, kinds: int) -> list[str]:
    out: list[str] = []
    chosen = [k for k in range(kinds) if rng.random() < 0.5]
    if not chosen:
        return out
    out.append(str(len(chosen)))
    for kind in chosen:
        sites = rng.randrange(0, 4)
        out += [str(kind), str(sites)]
        for _ in range(sites):
            values = rng.choice((0, 1, 2, 3, 5))
            out.append(str(values))
            for _ in range(values):
                if kind == 1:
                    value = str(rng.choice((0, 1, 8, 16, 33, 1024)))
                elif rng.random() < 0.15:
                    value = "** External Symbol **"
                else:
                    value = rng.choice(_NAMES)
                count = rng.choice((3, 3, rng.randrange(1, 1 << 32)))
                out.append(f"{value}:{count}")
    return out


def random_profile(seed: int, release: int) -> str:
    """A text instrumentation profile ``release``'s llvm-profdata reads, for ``seed``."""
    rng = random.Random(seed)
    front_end = rng.random() < 0.3
    lines = [":fe" if front_end else rng.choice((":ir", ":ir", ":csir"))]
    if not front_end and rng.random() < 0.2:
        lines.append(":entry_first")
    if release >= 19 and not front_end and rng.random() < 0.25:
        traces = rng.randrange(1, 4)
        lines += [":temporal_prof_traces", "# Num Temporal Profile Traces:", str(traces),
                  "# Temporal Profile Trace Stream Size:", str(traces)]  # fmt: skip
        for _ in range(traces):
            lines.append(str(rng.randrange(1, 5)))
            lines.append(",".join(rng.sample(_NAMES[:6], rng.randrange(1, 4))))
    kinds = 3 if release >= 19 else 2
    for _ in range(rng.randrange(1, 9)):
        name = rng.choice(_NAMES)
        counters = rng.randrange(1, 6)
        lines += [name, str(rng.choice((1, 2, 0x123456789, U64 - 0xFFFF))), str(counters)]
        lines += [str(random_count(rng)) for _ in range(counters)]
        if release >= 19 and front_end and rng.random() < 0.3:
            size = rng.randrange(1, 4)
            lines.append(f"${size}")
            lines += [hex(rng.randrange(256)) for _ in range(size)]
        lines += _value_sites(rng, kinds)
        lines.append("")
    return "\n".join(lines) + "\n"


def all_commands(tool: Path, release: int, seed: int, scratch: Path) -> list[list[str]]:
    """Write seed's two profiles (and the indexed file the real ``tool`` makes of the
    first) into ``scratch``; the commands to compare on them."""
    a, b = scratch / f"{seed}a.proftext", scratch / f"{seed}b.proftext"
    a.write_text(random_profile(seed, release))
    b.write_text(random_profile(seed + 1_000_003, release))
    show = ["show", "--all-functions", "--counts", "--ic-targets", "--memop-sizes"]
    cmds = [
        [*show, str(a)],
        ["show", "--detailed-summary", "--topn=3", str(a)],
        ["show", "--text", "--all-functions", str(a)],
        ["merge", str(a), "-o", "@OUT"],
        ["merge", "--text", str(a), "-o", "@OUT"],
        ["merge", "--sparse", str(a), "-o", "@OUT"],
        ["merge", "--weighted-input=3," + str(a), str(b), "-o", "@OUT"],
        ["merge", "--text", str(a), str(b), "-o", "@OUT"],
        ["overlap", str(a), str(b)],
        ["show", "--topn=2", "--hot-func-list", str(a)],
        ["show", "--list-below-cutoff", "--value-cutoff=10", str(a)],
        ["show", "--showcs", "--all-functions", "--counts", str(a)],
        ["show", "--function=foo", "--counts", "--ic-targets", str(a)],
        ["overlap", "--cs", str(a), str(b)],
        ["overlap", "--value-cutoff=5", "--function=foo", str(a), str(b)],
    ]
    if release >= 14:
        cmds.append(["show", "--covered", str(a)])
    sample_text, shape = sample_random.random_profile(seed)
    if not shape.cs:
        sample = scratch / f"{seed}.sampletext"
        sample.write_text(sample_text)
        supplement = f"--supplement-instr-with-sample={sample}"
        cmds.append(["merge", supplement, str(a), "-o", "@OUT"])
        cmds.append(["merge", "--text", supplement, "--zero-counter-threshold=0.3", str(a),
                     "-o", "@OUT"])  # fmt: skip
    indexed = scratch / f"{seed}.profdata"
    made = subprocess.run([str(tool), "merge", str(a), str(b), "-o", str(indexed)],
                          capture_output=True, check=False)  # fmt: skip
    if made.returncode == 0:
        cmds += [
            [*show, str(indexed)],
            ["show", "--detailed-summary", str(indexed)],
            ["merge", "--text", str(indexed), "-o", "@OUT"],
            ["merge", str(indexed), str(a), "-o", "@OUT"],
            ["overlap", str(indexed), str(a)],
        ]
    return cmds


if __name__ == "__main__":
    sys.exit(main(__doc__.splitlines()[0], all_commands))
