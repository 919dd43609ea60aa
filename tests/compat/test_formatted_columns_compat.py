"""The padded tables of ``show --sample --hot-func-list`` and ``overlap --sample`` when
function names hold bytes that are not plain UTF-8, against the real llvm-profdata.

LLVM pads to the column its ``formatted_raw_ostream`` counts by UTF-8 code
point; a name that ends inside a sequence takes the newline after it into that
sequence, so the next row is padded from the name's column (one space a cell).
What the name's earlier characters count then matters too: wide characters,
combining marks, tabs, control bytes, stray continuation bytes.  Found by
``tools/fuzz_llvm.py`` (a damaged name in a hot list).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.cli import main
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

#: names in the order of their totals; most end inside a UTF-8 sequence
NAMES = (
    b"foo\xc3",  # a 2-byte lead: "\n" is its second byte
    b"plain",
    "baz\u4e2d".encode() + b"\xe4\xb8",  # a wide character, then a cut 3-byte sequence
    "wide\u4e2d\u6587".encode() + b"\xf0\x9f",  # a 4-byte lead takes "\n" and a digit
    b"tab\tname\xc3",
    "comb\u0301".encode() + b"\xc3",  # a combining mark counts 0
    b"lone\x80\xc3",  # a stray continuation byte counts nothing
    b"ctl\x01\xc3",
    "zw\u200b".encode() + b"\xc3",  # a format character (Cf) is not printable
    b"five\xf8",  # the 5- and 6-byte forms UTF-8 dropped: invalid, 5 and 6 bytes long
    b"six\xfc",
    b"mid\xc3dle",  # an invalid sequence inside a name: the newline resets the column
    b"last",
)


def _profile(scale: int) -> bytes:
    lines = []
    for index, name in enumerate(NAMES):
        total = (len(NAMES) - index) * 1000 + scale * index
        lines.append(name + b":%d:%d\n 1: %d\n 2: %d\n" % (total, index, total // 2, total // 2))
    return b"".join(lines)


@pytest.fixture
def profiles(tmp_path: Path) -> tuple[Path, Path]:
    base, test = tmp_path / "base.txt", tmp_path / "test.txt"
    base.write_bytes(_profile(0))
    test.write_bytes(_profile(37))
    return base, test


COMMANDS = (
    ("show", "--sample", "--hot-func-list", "BASE"),
    ("show", "--sample", "--hot-func-list", "--topn=5", "BASE"),
    ("overlap", "--sample", "--similarity-cutoff=1000000", "BASE", "TEST"),
)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:3]))
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_same_as_llvm(
    rel: int,
    command: tuple[str, ...],
    profiles: tuple[Path, Path],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    base, test = profiles
    args = [str(base) if a == "BASE" else str(test) if a == "TEST" else a for a in command]
    same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
    assert real.returncode == 0
    assert b"\n" + b" 10000 (" in real.stdout or b"Function-level" in real.stdout
    assert same


def test_the_row_after_a_cut_name(
    profiles: tuple[Path, Path], capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """Rows as the real llvm-profdata 22 printed them (checked by hand once)."""
    base, _ = profiles
    assert main(["show", "--sample", "--hot-func-list", str(base)]) == 0
    table = capsysbinary.readouterr().out.split(b"Function name\n", 1)[1].split(b"\n")
    padded = b" 13000 (14.29%)" + b" " * 9 + b"6500" + b" " * 14 + b"6500" + b" " * 12
    assert table[0] == padded + NAMES[0]
    # the newline went into "\xc3\n": column 58 + 3 - 2, so one space before each cell
    assert table[1] == b" 12000 (13.19%) 6000 6000 plain"
    # "plain\n" reset the column: padded again
    assert table[2].startswith(b" 11000 (12.09%)" + b" " * 9 + b"5500 ")
