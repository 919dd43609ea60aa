"""Random sample profiles, run through the real llvm-profdata and through profdata.

The corpus's sample profiles are a few hand-written files; a reader or writer
can agree with LLVM on all of them and still differ on shapes they lack (ties
in totals and call-target counts, saturating counts, deep inlining, names with
``:`` and spaces, discriminators past 16 bits, repeated headers and lines,
probe checksums, contexts).  :func:`random_profile` writes a text profile from a
seed, flat/nested or context-sensitive, and :func:`commands` lists the
``show``/``merge``/``overlap`` command lines to compare; the real tool is the
oracle.  ``test_random_profiles_compat.py`` runs a fixed set of seeds; run as a
script it tries as many as asked, each in a fresh ``python -m profdata``:

    python -m tests.compat.sample_random --seeds 200 --llvm 22 --llvm 19
"""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.compat.random_diff import U64, main, random_count

_PLAIN = ("main", "foo", "bar", "_Z3fooi", "_Z3bari", "_ZN2ns4workEv", "helper.llvm.42",
          "f.__uniq.1234", "zz", "a", "_ZNSt6vectorIiSaIiEE9push_backERKi")  # fmt: skip
_ODD = ("ns::f(int)", "_M_construct<char *>", "op()", "x y")


def _name(rng: random.Random, odd: bool) -> str:
    if odd and rng.random() < 0.2:
        return rng.choice(_ODD)
    return rng.choice(_PLAIN) if rng.random() < 0.6 else f"fn_{rng.randrange(40)}"


def _location(rng: random.Random) -> str:
    offset = rng.randrange(12) if rng.random() < 0.9 else rng.randrange(60000, 65536)
    if rng.random() < 0.25:
        disc = rng.choice((1, 2, 7, 0xFFFF, 0x10000 + rng.randrange(5), 0xFFFFFFFF))
        return f"{offset}.{disc}"
    return str(offset)


@dataclass
class Shape:
    """What one generated profile exercises (for naming failures)."""

    seed: int
    cs: bool
    probes: bool
    odd_names: bool
    #: a CS profile of up to hundreds of contexts, up to four frames deep: the cold-context
    #: trimmer then erases from and inserts into a map that has grown
    many: bool = False


def _body(rng: random.Random, depth: int, shape: Shape, out: list[str]) -> None:
    pad = " " * depth
    for _ in range(rng.randrange(0, 6)):
        targets = ""
        for _ in range(rng.choice((0, 0, 0, 1, 2, 3))):
            targets += f" {_name(rng, shape.odd_names)}:{rng.choice((5, 5, random_count(rng)))}"
        out.append(f"{pad}{_location(rng)}: {random_count(rng)}{targets}")
    if not shape.cs and depth < 4:
        for _ in range(rng.choice((0, 0, 1, 2))):
            out.append(f"{pad}{_location(rng)}: {_name(rng, shape.odd_names)}:{random_count(rng)}")
            _body(rng, depth + 1, shape, out)
    if shape.probes:
        out.append(f"{pad}!CFGChecksum: {rng.choice((0, 1, 563022570642068, U64))}")
    if shape.cs and depth == 1 and rng.random() < 0.3:
        out.append(f"{pad}!Attributes: {rng.choice((0, 1, 2, 4))}")


def _context(rng: random.Random, deepest: int = 2) -> str:
    frames = [f"{_name(rng, False)}:{_location(rng)}" for _ in range(rng.randrange(0, deepest + 1))]
    return "[" + " @ ".join([*frames, _name(rng, False)]) + "]"


def random_profile(seed: int) -> tuple[str, Shape]:
    """A valid text sample profile for ``seed`` (LLVM 22 reads it) and its shape."""
    rng = random.Random(seed)
    shape = Shape(seed, cs=rng.random() < 0.25, probes=rng.random() < 0.3,
                  odd_names=rng.random() < 0.3)  # fmt: skip
    shape.many = shape.cs and rng.random() < 0.3
    out: list[str] = []
    for _ in range(rng.randrange(40, 300) if shape.many else rng.randrange(1, 9)):
        head = _context(rng, 3 if shape.many else 2) if shape.cs else _name(rng, shape.odd_names)
        out.append(f"{head}:{rng.choice((7, 7, random_count(rng)))}:{random_count(rng)}")
        _body(rng, 1, shape, out)
    return "\n".join(out) + "\n", shape


def commands(release: int, a: str, b: str, cs: bool, function: str) -> list[list[str]]:
    """Command lines over text profiles ``a`` and ``b``; ``@OUT`` is the output file."""
    show = ["show", "--sample"]
    cmds = [
        [*show, a],
        [*show, "--detailed-summary", a],
        [*show, "--topn=3", a],
        [*show, "--hot-func-list", a],
        ["merge", "--sample", "--text", a, "-o", "@OUT"],
        ["merge", "--sample", "--binary", a, "-o", "@OUT"],
        ["merge", "--sample", "--extbinary", a, "-o", "@OUT"],
        ["merge", "--sample", "--extbinary", "--use-md5", a, "-o", "@OUT"],
        ["merge", "--sample", "--extbinary", "--compress-all-sections", a, "-o", "@OUT"],
        ["merge", "--sample", "--extbinary", "--gen-partial-profile", a, "-o", "@OUT"],
        ["merge", "--sample", "--text", "--weighted-input=3," + a, b, "-o", "@OUT"],
        ["overlap", "--sample", a, b],
        ["overlap", "--sample", "--value-cutoff=10", "--similarity-cutoff=500000", a, b],
    ]
    if release >= 19:
        cmds.append([*show, "--show-format=json", a])
        cmds.append(["merge", "--sample", "--extbinary", "--split-layout", a, "-o", "@OUT"])
        layout = "nest" if cs else "flat"
        cmds.append(["merge", "--sample", "--text", f"--convert-sample-profile-layout={layout}",
                     a, "-o", "@OUT"])  # fmt: skip
    elif cs and release >= 14:
        cmds.append(["merge", "--sample", "--text", "--gen-cs-nested-profile", a, "-o", "@OUT"])
    if cs:
        cold = ["merge", "--sample", "--text", "--sample-merge-cold-context",
                "--sample-trim-cold-context"]  # fmt: skip
        cmds.append([*cold, a, "-o", "@OUT"])
        cmds.append([*cold, "--sample-frame-depth-for-cold-context=2", a, "-o", "@OUT"])
        # extbinary keeps the map order (FuncMetadata), which the trimmer's erasures decide
        ext = ["merge", "--sample", "--extbinary"]
        cmds.append([*ext, "--sample-trim-cold-context", a, "-o", "@OUT"])
        cmds.append([*ext, "--sample-merge-cold-context", "--sample-frame-depth-for-cold-context=2",
                     a, "-o", "@OUT"])  # fmt: skip
    if function:
        cmds.append([*show, f"--function={function}", a])
        cmds.append(["overlap", "--sample", f"--function={function}", a, b])
        cmds.append(["merge", "--sample", "--text", f"--no-function={function[:2]}.*", a,
                     "-o", "@OUT"])  # fmt: skip
    return cmds


#: binary forms of a profile that LLVM writes and both tools then read
CONVERSIONS = {
    "binary": ["--binary"],
    "extbinary": ["--extbinary"],
    "md5": ["--extbinary", "--use-md5"],
    "compressed": ["--extbinary", "--compress-all-sections"],
    "partial": ["--extbinary", "--gen-partial-profile"],
}


def read_back(release: int, converted: str) -> list[list[str]]:
    """Commands that read a binary profile LLVM wrote."""
    cmds = [
        ["show", "--sample", converted],
        ["show", "--sample", "--detailed-summary", converted],
        ["merge", "--sample", "--text", converted, "-o", "@OUT"],
        ["merge", "--sample", "--extbinary", converted, "-o", "@OUT"],
    ]
    if release >= 19:
        cmds.append(["show", "--sample", "--show-format=json", converted])
    return cmds


def all_commands(tool: Path, release: int, seed: int, scratch: Path) -> list[list[str]]:
    """Write seed's two profiles (and the binary forms the real ``tool`` makes of the first)
    into ``scratch``; the commands to compare on them."""
    a, b = scratch / f"{seed}a.prof", scratch / f"{seed}b.prof"
    text_a, shape = random_profile(seed)
    text_b, shape_b = random_profile(seed + 1_000_003)
    if shape_b.cs != shape.cs:
        text_b = text_a  # a CS and a flat profile do not merge; overlap the profile with itself
    a.write_bytes(text_a.encode())
    b.write_bytes(text_b.encode())
    function = "" if shape.cs else text_a.split("\n", 1)[0].rsplit(":", 2)[0]
    cmds = commands(release, str(a), str(b), shape.cs, function)
    conversions = dict(CONVERSIONS)
    if release <= 16:
        conversions["compact"] = ["--compbinary"]
    for kind, flags in conversions.items():
        converted = scratch / f"{seed}.{kind}"
        made = subprocess.run([str(tool), "merge", "--sample", *flags, str(a), "-o",
                               str(converted)], capture_output=True, check=False)  # fmt: skip
        if made.returncode == 0:
            cmds += read_back(release, str(converted))
        if kind in ("extbinary", "md5", "compressed") and made.returncode == 0:
            cmds += _weighted_pair(tool, flags, str(converted), b, scratch / f"{seed}b.{kind}")
    return cmds


def _weighted_pair(
    tool: Path, flags: list[str], first: str, b: Path, second: Path
) -> list[list[str]]:
    """Weighted merges of two ext-binary files (the column merge's inputs)."""
    made = subprocess.run([str(tool), "merge", "--sample", *flags, str(b), "-o", str(second)],
                          capture_output=True, check=False)  # fmt: skip
    if made.returncode:
        return []
    return [
        ["merge", "--sample", "--text", "--weighted-input=3," + first, str(second), "-o", "@OUT"],
        ["merge", "--sample", "--extbinary", first, "--weighted-input=2," + str(second),
         str(second), "-o", "@OUT"],
    ]  # fmt: skip


if __name__ == "__main__":
    sys.exit(main(__doc__.splitlines()[0], all_commands))
