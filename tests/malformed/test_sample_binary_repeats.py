"""A function repeated in an ``SPF_Binary`` sample profile, against the real llvm-profdata.

No writer repeats one, but a profile cut and joined by hand (or damaged) does:
``readFuncProfile`` of 16 and older assigns a fresh ``FunctionSamples`` to the
name, so the last copy wins, while 17 and later add the copies up -- as they do
in ext-binary files (``Release.sample_binary_duplicates_merge``).  Found by
``tools/fuzz_llvm.py`` (a damaged number made the next function read as a second
copy of one before it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats.sample_binary import read
from profdata.model.sample import SampleContext
from profdata.releases import release
from tests.compat.tools import compare_with_tool, run_tool_ok
from tests.conftest import CliResult

TEXT = b"foo:1000:10\n 1: 500\n 2: 500\nbar:300:3\n 1: 300\n"
#: two more functions: head 5, name index 0 (bar) then 1 (foo), total 77, one line 1: 7
COPIES = bytes([5, 0, 0x4D, 1, 1, 0, 7, 0, 0, 5, 1, 0x4D, 1, 1, 0, 7, 0, 0])

COMMANDS = (
    ("show", "--sample", "FILE"),
    ("show", "--sample", "--detailed-summary", "FILE"),
    ("show", "--sample", "--function=foo", "FILE"),
    ("show", "--sample", "--hot-func-list", "FILE"),
    ("merge", "--sample", "--text", "FILE", "-o", "@OUT"),
    ("merge", "--sample", "--binary", "FILE", "TEXT", "-o", "@OUT"),
    ("merge", "--sample", "--extbinary", "TEXT", "FILE", "FILE", "-o", "@OUT"),
)


@pytest.fixture
def repeated(
    tmp_path: Path, llvm_profdata: Callable[[int], Path], request: pytest.FixtureRequest
) -> tuple[Path, Path]:
    tool = llvm_profdata(request.node.callspec.params["rel"])
    text, binary = tmp_path / "f.txt", tmp_path / "f.bin"
    text.write_bytes(TEXT)
    run_tool_ok(tool, ["merge", "--sample", "--binary", str(text), "-o", str(binary)])
    binary.write_bytes(binary.read_bytes() + COPIES)
    return binary, text


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_same_as_llvm(
    rel: int,
    repeated: tuple[Path, Path],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    binary, text = repeated
    tool = llvm_profdata(rel)
    for command in COMMANDS:
        args = [str(binary) if a == "FILE" else str(text) if a == "TEXT" else a for a in command]
        same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert real.returncode == 0
        assert same, command


@pytest.mark.parametrize(("rel", "totals"), [(16, (77, 77)), (19, (1077, 377))])
def test_the_last_copy_wins_or_they_add_up(
    rel: int, totals: tuple[int, int], repeated: tuple[Path, Path]
) -> None:
    profile = read(repeated[0].read_bytes(), None, release(rel))
    foo, bar = (profile.profiles[SampleContext(name)] for name in ("foo", "bar"))
    assert (foo.total_samples, bar.total_samples) == totals
