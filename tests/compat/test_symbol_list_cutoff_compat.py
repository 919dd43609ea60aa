"""``--profile-symbol-list-cutoff=N`` (a global ``uint64_t`` option of 14-22) against the
real llvm-profdata: the ext-binary reader keeps the first N symbols of a profile
symbol list, in the order of the file (the writer's sorted order), so ``show
--show-prof-sym-list`` prints them and a merge writes them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats.sample_reading import SampleReading
from profdata.formats.sample_registry import open_sample
from tests.compat.tools import compare_with_tool, run_tool_ok
from tests.conftest import CliResult

RELEASES = [14, 16, 19, 22]
PROFILE = b"main:300:3\n 1: 200\n 2: 100 helper:100\nhelper:100:100\n 1: 100\n"
SYMBOLS = "zeta\nalpha\nmid\nbeta\nomega\n"


@pytest.fixture
def made(
    tmp_path: Path, llvm_profdata: Callable[[int], Path], request: pytest.FixtureRequest
) -> tuple[Path, Path]:
    """Two ext-binary profiles with symbol lists, written by the test's release."""
    tool = llvm_profdata(request.node.callspec.params["rel"])
    text, symbols, other = tmp_path / "p.txt", tmp_path / "syms.txt", tmp_path / "other.txt"
    text.write_bytes(PROFILE)
    symbols.write_text(SYMBOLS)
    other.write_text("gamma\nalpha\n")
    first, second = tmp_path / "first.extbin", tmp_path / "second.extbin"
    for out, syms in ((first, symbols), (second, other)):
        args = ["merge", "--sample", "--extbinary", f"--prof-sym-list={syms}", str(text)]
        run_tool_ok(tool, [*args, "-o", str(out)])
    return first, second


@pytest.mark.parametrize("cutoff", ["0", "1", "3", "5", "0x10"])
@pytest.mark.parametrize("rel", RELEASES)
def test_same_as_llvm(
    rel: int,
    cutoff: str,
    made: tuple[Path, Path],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    first, second = map(str, made)
    option = f"--profile-symbol-list-cutoff={cutoff}"
    commands = (
        ["show", "--sample", "--show-prof-sym-list", option, first],
        ["merge", "--sample", "--extbinary", option, first, second, "-o", "@OUT"],
        ["merge", "--sample", "--text", option, first, "-o", "@OUT"],
    )
    tool = llvm_profdata(rel)
    for args in commands:
        same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path, stderr="all")
        assert real.returncode == 0
        assert same, args


@pytest.mark.parametrize("rel", [22])
def test_the_first_symbols_of_the_file(rel: int, made: tuple[Path, Path]) -> None:
    """The file holds them sorted; the reader keeps them in that order."""
    profile = open_sample(made[0], None, SampleReading(symbol_cutoff=2))
    assert profile.symbol_list == ("alpha", "beta")
    assert open_sample(made[0]).symbol_list == ("alpha", "beta", "mid", "omega", "zeta")
