"""Every line llvm-profdata prints to stderr for an unreadable input, against the real tools.

The corpus compares stdout and looks for one phrase in stderr; this compares
all of stderr.  profdata prints each of LLVM's lines, in LLVM's order, and
adds only its own located ``  detail:`` lines, which are dropped here before
comparing.  The inputs are files no reader recognizes (random bytes, text that
is no profile) and files that start as a known format and then break, read by
the commands that report them with ``exitWithError`` (``show``, ``order``,
``overlap``: the error line, and for an unrecognized instrumentation input
the note "Perhaps you forgot to use the --sample or --memory option?") or as
warnings (``merge``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from profdata.formats import raw_write
from profdata.model.instr import InstrProfile, InstrRecord
from profdata.model.kinds import ProfileKind
from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

RELEASES = (*tools.RELEASES, *tools.EXTRA_RELEASES)


def _raw_labelled(version: int) -> bytes:
    """A version 10 raw profile whose header names ``version``: unknown (4), or one whose
    layout differs (8, 9), which only the release of that version reads as such."""
    record = InstrRecord("main", 0x1234, np.array([3, 1], dtype=np.uint64), b"", {})
    data = bytearray(raw_write.write(InstrProfile(kind=ProfileKind.IR, records=[record])))
    data[8] = version
    return bytes(data)


INPUTS: dict[str, bytes] = {
    "random": random.Random(11).randbytes(100),
    "words": b"hello world, no profile here\n",
    "short-raw": (0xFF6C70726F667281).to_bytes(8, "little") + b"\x0a" + b"\0" * 20,
    "short-indexed": (0x8169666F72706CFF).to_bytes(8, "little") + b"\x0c\0\0\0\0\0\0\0",
    "text-bad-count": b"# IR level Instrumentation Flag\n:ir\nmain\n0x1\n1\nx\n",
    "empty": b"",
    "raw-labelled-v4": _raw_labelled(4),
    "raw-labelled-v8": _raw_labelled(8),
    "raw-labelled-v9": _raw_labelled(9),
    "sample-bad-line": b"main:100:10\n 1: 50\n 2 x\n",
    "sample-binary-short": (0x5350524F463432FF).to_bytes(8, "little") + b"\x67\0\0",
}

COMMANDS: list[list[str]] = [
    ["show", "@IN"],
    ["show", "--all-functions", "--counts", "@IN"],
    ["show", "--sample", "@IN"],
    ["order", "@IN"],
    ["overlap", "@IN", "@IN"],
    ["merge", "-o", "@OUT", "@IN"],
    ["merge", "--sample", "-o", "@OUT", "@IN"],
]


#: what profdata adds to ``overlap`` of an input that goes bad after its first records
#: (LLVM overlaps them silently, and loses its "Sum of edge counts" line in a pipe):
#: documented in profdata.cli.overlap
OVERLAP_EXTRAS = ("warning: ", "note: Sum of edge counts for profile ")


#: inputs that go bad only after the header: ``order`` of them is a documented deliberate
#: difference (LLVM orders what it read and exits 0; profdata refuses the input)
ORDER_REFUSED = {"sample-bad-line", "text-bad-count", "words"}


def _llvm_lines(stderr: bytes, command: str) -> list[str]:
    extras = ("  detail: ", *(OVERLAP_EXTRAS if command == "overlap" else ()))
    return [line for line in stderr.decode("utf-8", "replace").splitlines()
            if not line.startswith(extras)]  # fmt: skip


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("name", sorted(INPUTS))
def test_error_lines_are_llvms(
    release: int,
    name: str,
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    tool = tools.find_llvm_profdata(release)
    if tool is None:
        pytest.skip(f"llvm-profdata {release} is not installed")
    bad = tmp_path / f"{name}.prof"
    bad.write_bytes(INPUTS[name])
    out = tmp_path / "out.profdata"
    differences = []
    for command in COMMANDS:
        args = [str(bad) if a == "@IN" else str(out) if a == "@OUT" else a for a in command]
        out.unlink(missing_ok=True)
        real = tools.run_tool(tool, args)
        got = run_profdata(f"--llvm-release={release}", *args)
        if command[0] == "order" and name in ORDER_REFUSED and real.returncode == 0:
            assert got.code == 1 and got.stderr.startswith(f"error: {bad}: ".encode())
            continue
        theirs = (real.returncode, real.stdout, _llvm_lines(real.stderr, command[0]))
        ours = (got.code, got.stdout, _llvm_lines(got.stderr, command[0]))
        if theirs != ours:
            differences.append(f"{' '.join(command)}:\n  llvm {theirs}\n  ours {ours}")
    assert not differences, "\n".join(differences)
