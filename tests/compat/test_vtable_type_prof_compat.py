"""LLVM 22's ``--extbinary-write-vtable-type-prof`` against the real llvm-profdata 22.

With the option the ext-binary writer (only it: ``--binary`` ignores it) ends
each level of a profile body, after its inlined callees, with the level's
vtable type samples (sites in location order, types in name order), puts the
type names in the name table and sets the summary section's
``HasVTableTypeProf`` flag, which tells the reader to expect them.  Profiles
with type samples at every depth (hand-written and seeded random ones, flat
and CS) are written with the writer's other options and read back.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

OPTION = "--extbinary-write-vtable-type-prof"
NESTED = b"""main:5000:10
 1: 2000
 2: 1500 foo:900 bar:600
 2: vtables _ZTV3Bar:10 _ZTV3Foo:20
 3: 900
 3: vtables _ZTV1A:4
 4: foo:800
  1: 800
  2: 30 qux:30
  2: vtables _ZTV3Baz:5
 4: vtables _ZTV1A:7
foo:300:3
 1: 300
 5.2: 100
 5.2: vtables _ZTV3Foo:3 _ZTV1A:1
"""
CS = b"""[main:3 @ foo]:1000:10
 1: 500
 2: 400 bar:400
 2: vtables _ZTV3Bar:40 _ZTV1A:2
[main]:200:5
 1: 150
 1: vtables _ZTV3Foo:9
"""


def _random_profile(rng: random.Random) -> bytes:
    """Functions with body lines, call targets, inlinees two deep and type samples."""
    types = [f"_ZTV{len(n)}{n}" for n in ("A", "Shape", "Circle", "Square", "Zed")]
    lines: list[str] = []

    def level(indent: str, depth: int) -> None:
        for offset in sorted(rng.sample(range(1, 12), rng.randint(1, 4))):
            disc = f".{rng.randint(1, 3)}" if rng.random() < 0.3 else ""
            lines.append(f"{indent}{offset}{disc}: {rng.randint(1, 5000)}")
            if rng.random() < 0.5:
                chosen = rng.sample(types, rng.randint(1, 3))
                pairs = " ".join(f"{t}:{rng.randint(1, 900)}" for t in chosen)
                lines.append(f"{indent}{offset}{disc}: vtables {pairs}")
        if depth < 2 and rng.random() < 0.6:
            lines.append(f"{indent}{rng.randint(12, 20)}: callee_{depth}:{rng.randint(1, 900)}")
            level(indent + " ", depth + 1)

    for index in range(rng.randint(1, 4)):
        lines.append(f"func_{index}:{rng.randint(100, 90000)}:{rng.randint(0, 50)}")
        level(" ", 0)
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def profiles(tmp_path: Path) -> dict[str, str]:
    made = {}
    texts = {"nested": NESTED, "cs": CS}
    for seed in range(4):
        texts[f"random{seed}"] = _random_profile(random.Random(seed))
    for name, text in texts.items():
        path = tmp_path / f"{name}.proftext"
        path.write_bytes(text)
        made[name] = str(path)
    return made


def test_written_as_llvm_22_writes_them(
    profiles: dict[str, str],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    tool = llvm_profdata(22)
    commands = []
    for path in profiles.values():
        commands += [
            ["merge", "--sample", "--extbinary", OPTION, path, "-o", "@OUT"],
            ["merge", "--sample", "--extbinary", OPTION, "--use-md5", path, "-o", "@OUT"],
            ["merge", "--sample", "--extbinary", OPTION, "--compress-all-sections", path,
             "-o", "@OUT"],
            ["merge", "--sample", "--extbinary", OPTION, "--gen-partial-profile", path,
             "-o", "@OUT"],
            ["merge", "--sample", "--extbinary", OPTION, "--split-layout", path, "-o", "@OUT"],
            ["merge", "--sample", "--binary", OPTION, path, "-o", "@OUT"],
            ["merge", "--sample", "--text", OPTION, path, "-o", "@OUT"],
        ]  # fmt: skip
    random_inputs = [profiles[f"random{seed}"] for seed in range(4)]
    commands.append(["merge", "--sample", "--extbinary", OPTION, *random_inputs, "-o", "@OUT"])
    commands.append(
        ["merge", "--sample", "--extbinary", OPTION, profiles["nested"], "--weighted-input=3,"
         + profiles["random1"], "-o", "@OUT"]
    )  # fmt: skip
    assert tools.differing(tool, 22, commands, run_profdata, tmp_path) == []


def test_read_back_and_rewritten(
    profiles: dict[str, str],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    """Files the real tool wrote with type samples, read by both and written again."""
    tool = llvm_profdata(22)
    commands = []
    for name, path in profiles.items():
        made = tmp_path / f"{name}.vt.afdo"
        args = ["merge", "--sample", "--extbinary", OPTION, path, "-o", str(made)]
        tools.run_tool_ok(tool, args)
        assert b"vtables" in tools.run_tool_ok(tool, ["show", "--sample", str(made)]).stdout
        commands += [
            ["show", "--sample", str(made)],
            ["merge", "--sample", "--text", str(made), "-o", "@OUT"],
            ["merge", "--sample", "--extbinary", str(made), "-o", "@OUT"],
            ["merge", "--sample", "--extbinary", OPTION, str(made), path, "-o", "@OUT"],
        ]
    assert tools.differing(tool, 22, commands, run_profdata, tmp_path) == []


def test_the_option_changes_the_file(
    profiles: dict[str, str], llvm_profdata: Callable[[int], Path], tmp_path: Path
) -> None:
    """The comparisons above are not vacuous: the real writer's bytes differ."""
    tool = llvm_profdata(22)
    plain, typed = tmp_path / "plain.afdo", tmp_path / "typed.afdo"
    tools.run_tool_ok(
        tool, ["merge", "--sample", "--extbinary", profiles["nested"], "-o", str(plain)]
    )
    args = ["merge", "--sample", "--extbinary", OPTION, profiles["nested"], "-o", str(typed)]
    tools.run_tool_ok(tool, args)
    assert b"_ZTV3Baz" in typed.read_bytes()
    assert b"_ZTV3Baz" not in plain.read_bytes()


@pytest.mark.parametrize("release", [14, 16, 19])
def test_older_releases_lack_the_option(
    release: int,
    profiles: dict[str, str],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    args = ["merge", "--sample", "--extbinary", OPTION, profiles["nested"], "-o", "@OUT"]
    same, real = tools.compare_with_tool(
        llvm_profdata(release), release, args, run_profdata, tmp_path, first_error_line=True
    )
    assert real.returncode == 1 and same


@pytest.mark.parametrize("release", [14, 16, 19])
def test_older_releases_ignore_the_flag(
    release: int,
    profiles: dict[str, str],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    """A file written with type samples, read by a release that knows no such flag: the
    samples are taken for the next numbers of the body, as that release takes them
    (found by ``tools/fuzz_llvm.py`` on a summary whose flags were all set)."""
    made = []
    for name in ("nested", "cs", "random0"):
        path = tmp_path / f"{name}.vt.afdo"
        args = ["merge", "--sample", "--extbinary", OPTION, profiles[name], "-o", str(path)]
        tools.run_tool_ok(llvm_profdata(22), args)
        made.append(str(path))
    commands: list[list[str]] = []
    for file in made:
        commands += [
            ["show", "--sample", file],
            ["merge", "--sample", "--text", file, "-o", "@OUT"],
            ["show", "--sample", "--show-sec-info-only", file],
        ]
    tool = llvm_profdata(release)
    for args in commands:
        same, _ = tools.compare_with_tool(
            tool, release, args, run_profdata, tmp_path, first_error_line=True
        )
        assert same, args
