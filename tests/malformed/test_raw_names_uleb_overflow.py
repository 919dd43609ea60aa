"""Raw profiles whose name chunk starts with a size too big for 64 bits, against the
real llvm-profdata 14, 16, 19 and 22.

``readAndDecodeStrings`` reads a chunk's two sizes with ``decodeULEB128``
and checks no error: a size that overflows reads as 0, and the length LLVM
advances by stops *before* the byte that overflowed, so the next size starts
with that byte.  A chunk of ``ff``x9 ``02 00`` thus has an uncompressed size of
0 and a compressed size of 2 (from the ``02``), and zlib fails; profdata used
to step over the ``02``, read a compressed size of 0 and refuse an empty name
instead.  The inputs are each release's golden raw profile of the branches
program with its first name bytes overwritten.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats._files import map_file
from profdata.formats.raw import read
from profdata.formats.raw_columns import shape_of
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

PROGRAMS = Path(__file__).resolve().parents[1] / "golden" / "programs"
RELEASES = (14, 16, 19, 22)
ZLIB_FAILS = "failed to uncompress data (zlib)"

#: the first bytes of the names section, and what llvm-profdata of every release says
CHUNKS: dict[str, tuple[bytes, str]] = {
    # the uncompressed size overflows at its tenth byte, whose 02 is the compressed size
    "tenth-byte-02": (b"\xff" * 9 + b"\x02\x00", ZLIB_FAILS),
    "tenth-byte-02-then-05": (b"\xff" * 9 + b"\x02\x05", ZLIB_FAILS),
    "tenth-byte-02-twice": (b"\xff" * 9 + b"\x02\x02", ZLIB_FAILS),
    # eleven bytes: the overflowing 01 (at shift 70) is the compressed size
    "eleventh-byte-01": (b"\x80" * 10 + b"\x01\x00", ZLIB_FAILS),
    # both sizes overflow: the second from the first one's 02 on, then the 03 is data
    "both-overflow": (b"\xff" * 9 + b"\x02" + b"\xff" * 8 + b"\x03", ZLIB_FAILS),
}
#: files the real tools read: the compressed size (after the golden's one-byte uncompressed
#: size) overflows, so the bytes from its 7f on are a stored chunk of that many bytes, and
#: the records' NameRefs find no names
READABLE = {
    "second-size-then-00": b"\xff" * 9 + b"\x7f\x00",
    "second-size-then-03": b"\xff" * 9 + b"\x7f\x03",
}


def _program(rel: int) -> Path:
    return PROGRAMS / f"l{rel}-ir-branches" / "default.profraw"


def _names_at(path: Path) -> int:
    view = map_file(path)
    shaped = shape_of(view, read(view))
    assert shaped is not None
    return shaped[0].regions["names"][0]


def _damaged(rel: int, chunk: bytes, into: Path, keep: bool = False) -> Path:
    """The golden with ``chunk`` over its first name bytes (after the first byte if
    ``keep``: the golden's uncompressed size, one byte in every release's file)."""
    data = bytearray(_program(rel).read_bytes())
    at = _names_at(_program(rel)) + (1 if keep else 0)
    if keep:
        assert data[at - 1] < 0x80
    data[at : at + len(chunk)] = chunk
    into.write_bytes(bytes(data))
    return into


@pytest.mark.parametrize("rel", RELEASES)
@pytest.mark.parametrize("case", sorted(CHUNKS))
def test_the_size_after_an_overflow_starts_at_the_overflowing_byte(
    rel: int, case: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    chunk, message = CHUNKS[case]
    path = str(_damaged(rel, chunk, tmp_path / f"{case}.profraw"))
    shown = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", path)
    assert shown.code == 1 and shown.stdout == b""
    assert shown.stderr.decode().splitlines()[0] == f"error: {path}: {message}"
    merged = run_profdata(f"--llvm-release={rel}", "merge", path, "-o", str(tmp_path / "o"))
    assert merged.code == 1
    said = merged.stderr.decode().splitlines()
    lines = [line for line in said if not line.startswith("  detail:")]
    assert lines == [f"warning: {path}: {message}", "error: no profile can be merged"]
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("rel", RELEASES)
@pytest.mark.parametrize("case", sorted(CHUNKS))
def test_as_the_real_tool(
    rel: int,
    case: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    for name, chunk in [(case, CHUNKS[case][0]), *READABLE.items()]:
        path = str(_damaged(rel, chunk, tmp_path / f"{name}.profraw", keep=name in READABLE))
        for args in (
            ["show", "--all-functions", "--counts", path],
            ["merge", path, "-o", "@OUT"],
            ["merge", "--text", path, "-o", "@OUT"],
        ):
            same, real = compare_with_tool(
                tool, rel, args, run_profdata, tmp_path, first_error_line=True
            )
            assert real.returncode == (0 if name in READABLE else 1) and same, (name, args)
