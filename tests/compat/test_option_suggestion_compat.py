"""The "Did you mean" line under an unknown option, against the real llvm-profdata 19
and 22, for every subcommand.

Three kinds of argument: misspellings of the subcommand's option names (random edits,
some with ``=value``), runs of ``Q`` (which no name holds, so every name of at most
that length ties and the map's order alone decides), and a letter amid ``Q``s (the
first option whose names hold that letter wins).  The last two pin down the order the
subcommand's option map iterates in, which differs between 19's ``StringMap`` and
22's ``DenseMap``.  Exit status and the whole of stderr must be equal, the real tool's
own path in "Try:" read as ``llvm-profdata``.  An argument that starts with ``h``
opens a group with ``-h`` in LLVM, which prints its help and exits 0; profdata refuses
it (see ``tests/unit/cli/test_option_suggestion.py``).
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.cli.option_suggestion import DECLARED
from tests.compat import tools
from tests.conftest import REPO, CliResult

pytestmark = pytest.mark.compat

PROFILE = str(REPO / "tests" / "golden" / "programs" / "l22-ir-vp" / "default.proftext")
INPUTS = {"merge": [PROFILE], "show": [PROFILE], "overlap": [PROFILE, PROFILE], "order": [PROFILE]}


def _names(command: str) -> list[str]:
    return [name for option in DECLARED if command in option.commands for name in option.names]


def _misspelt(name: str, rng: random.Random) -> str:
    letters = list(name)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(letters) + 1)
        edit = rng.randrange(3)
        if edit == 0:
            letters.insert(at, rng.choice(string.ascii_lowercase + "-"))
        elif edit == 1 and len(letters) > 1 and at < len(letters):
            del letters[at]
        elif at < len(letters):
            letters[at] = rng.choice(string.ascii_lowercase)
    typed = "".join(letters)
    return typed + rng.choice(("", "", "", "=1", "=x", "="))


def _arguments(command: str, seed: int) -> list[str]:
    names = _names(command)
    rng = random.Random(seed)
    typed = [_misspelt(rng.choice(names), rng) for _ in range(40)]
    ties = ["Q" * n for n in (1, 2, 4, 5, 7, 9, 12, 13, 16, 20, 30, 40)]
    letters = sorted(set("".join(names)) - {"-"})
    one_letter = ["Q" * 40 + letter + "Q" * 40 for letter in letters]
    unknown = {
        arg for arg in typed + ties + one_letter
        if arg.partition("=")[0] not in names and len(arg.partition("=")[0]) > 1
        and not arg.startswith("-")
    }  # fmt: skip
    return ["--" + arg for arg in sorted(unknown)]


def _stderr(text: bytes, tool: Path) -> bytes:
    return text.replace(str(tool).encode(), b"llvm-profdata")


@pytest.mark.parametrize("release", [19, 22])
@pytest.mark.parametrize("command", ["merge", "show", "overlap", "order"])
def test_did_you_mean_as_the_real_tool(
    release: int,
    command: str,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(release)
    compared, differ = 0, []
    for arg in _arguments(command, seed=release * 10 + len(command)):
        real = tools.run_tool(tool, [command, arg, *INPUTS[command]])
        if b"may not occur within a group" in real.stderr:
            continue  # the one-letter group rule, tested in test_option_groups.py
        ours = run_profdata(f"--llvm-release={release}", command, arg, *INPUTS[command])
        if real.stdout.startswith(b"OVERVIEW:"):  # a group opened by -h: LLVM's help, exit 0
            assert ours.code == 1, arg  # refused: see test_a_word_starting_with_h_is_refused
            continue
        compared += 1
        if (real.returncode, _stderr(real.stderr, tool)) != (ours.code, ours.stderr):
            differ.append((arg, real.stderr.decode(), ours.stderr.decode()))
    assert differ == []
    assert compared >= 40
