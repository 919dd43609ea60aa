"""Sample profiles with a few very long function names, against the real llvm-profdata.

C++ names of thousands of characters are common in template-heavy code.  The
column renderers pad each table column to a width chosen for the rows that pick
from it and put the rest of longer names back afterwards
(:class:`profdata.formats.row_text.Strings`); these profiles hold a 6,000- and a
400-character name as top-level functions, call targets and inlinees, among
many short names, so that the cut names land in every column that prints a
name: show (text and JSON) and the text writer.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

LONG = "_ZN4long" + "L" * 6000 + "Ev"
MIDDLE = "_ZN3mid" + "M" * 400 + "Ev"


def _name(i: int) -> str:
    return LONG if i == 5 else MIDDLE if i == 11 else f"f{i}"


def sample_text(functions: int = 200) -> str:
    """A text profile: every function has body lines, call targets (the long names
    among them) and, every third one, an inlinee with its own lines and inlinee."""
    out = []
    for i in range(functions):
        lines = []
        for line in range(1, 9):
            count = (i * 7 + line * 13) % 97 + 1
            targets = ""
            if line % 3 == 0:
                targets = f" {_name((i + line) % 13)}:{count // 2 + 1} f{i + 1}:{line}"
            lines.append(f" {line}: {count}{targets}")
        if i % 3 == 0:
            callee = _name((i + 5) % 17)
            lines.append(f" 9: {callee}:120")
            lines.extend(f"  {k}: {k * 10}" for k in range(1, 4))
            lines.append(f"  4: {_name((i + 11) % 19)}:30")
            lines.append(f"   1.2: 30 {LONG}:7")
        total = 2000 + i
        out.append(f"{_name(i)}:{total}:{i + 1}")
        out.extend(lines)
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def profiles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("long-names")
    (folder / "p.text").write_text(sample_text())
    return folder


@pytest.mark.parametrize("number", tools.RELEASES)
def test_long_names_print_and_write_as_llvm_profdata_does(
    number: int, profiles: Path, run_profdata: Callable[..., CliResult], tmp_path: Path
) -> None:
    tool = tools.find_llvm_profdata(number)
    if tool is None:
        pytest.skip(f"llvm-profdata {number} is not installed")
    text = str(profiles / "p.text")
    extbinary = profiles / f"p{number}.extbinary"
    made = tools.run_tool(tool, ["merge", "--sample", "--extbinary", text, "-o", str(extbinary)])
    assert made.returncode == 0, made.stderr
    commands = [["merge", "--sample", "--text", text, "-o", "@OUT"]]
    for source in (text, str(extbinary)):
        commands += [
            ["show", "--sample", source],
            ["show", "--sample", "--show-format=json", source],
            ["merge", "--sample", "--text", source, "-o", "@OUT"],
            ["merge", "--sample", "--extbinary", source, "-o", "@OUT"],
        ]
    if number < 19:  # JSON output of sample profiles came with llvm-profdata 19
        commands = [c for c in commands if "--show-format=json" not in c]
    assert tools.differing(tool, number, commands, run_profdata, tmp_path) == []
