"""A damaged ``__llvm_covnames`` in a ``--binary-file`` binary, and an empty function name in
a ``--debug-info`` binary, against the real llvm-profdata 14, 16, 19 and 22.

``BinaryInstrProfCorrelator`` copies the section without decoding it; each raw profile
read with the correlator decodes it (``createSymtab``, ``readAndDecodeStrings``), so
a damaged section fails every input, named by the input's path: ``merge`` warns for
each and then finds no profile to merge.  LLVM trusts the chunk sizes: a stated
uncompressed size larger than the stream's is no error.  profdata decoded the section
strictly when it loaded the binary and failed the binary instead.  Names from debug
info are joined into a chunk when LLVM correlates, and an empty one fails only where
that chunk is decoded: each input of ``merge`` (its path named), or ``show
--debug-info`` of the binary alone.  The binaries are the correlation goldens
(``tests/golden/correlate``, real clang builds).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from tests.compat.tools import compare_with_tool
from tests.conftest import GOLDEN, CliResult

HERE = GOLDEN / "correlate"
SECTION = "__llvm_covnames"
RELEASES = (19, 22)


def _section(binary: Path) -> tuple[int, int]:
    with binary.open("rb") as stream:
        section = ELFFile(stream).get_section_by_name(SECTION)
        assert section is not None
        return int(section["sh_offset"]), int(section["sh_size"])


def _damaged(rel: int, into: Path, damage: Callable[[bytearray, int, int], None]) -> Path:
    binary = HERE / f"l{rel}-ir-bin"
    data = bytearray(binary.read_bytes())
    offset, size = _section(binary)
    damage(data, offset, size)
    into.write_bytes(bytes(data))
    return into


def _merge(
    run_profdata: Callable[..., CliResult], rel: int, binary: Path, out: Path
) -> tuple[CliResult, list[str]]:
    profile = HERE / f"l{rel}-ir-bin.1.profraw"
    result = run_profdata(
        f"--llvm-release={rel}", "merge", f"--binary-file={binary}", str(profile), "-o", str(out)
    )
    return result, result.stderr.decode().splitlines()


def _flip_stream(data: bytearray, offset: int, size: int) -> None:
    data[offset + 10] ^= 0x10  # inside the zlib stream, past its two-byte header


def _stored_with_empty_name(data: bytearray, offset: int, size: int) -> None:
    data[offset : offset + 6] = bytes([4, 0]) + b"a\x01\x01b"  # a stored chunk: "a", "", "b"


@pytest.mark.parametrize("rel", RELEASES)
def test_a_broken_stream_fails_each_input(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    binary = _damaged(rel, tmp_path / "bin", _flip_stream)
    out = tmp_path / "out.profdata"
    result, lines = _merge(run_profdata, rel, binary, out)
    profile = HERE / f"l{rel}-ir-bin.1.profraw"
    assert result.code == 1 and not out.exists()
    assert lines[0] == f"warning: {profile}: failed to uncompress data (zlib)"
    assert "error: no profile can be merged" in lines
    offset, _ = _section(HERE / f"l{rel}-ir-bin")
    detail = next(line for line in lines if line.lstrip().startswith("detail:"))
    assert f"in {binary}:" in detail and f"offset {offset} " in detail


@pytest.mark.parametrize("rel", RELEASES)
def test_an_empty_name_fails_each_input(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    binary = _damaged(rel, tmp_path / "bin", _stored_with_empty_name)
    result, lines = _merge(run_profdata, rel, binary, tmp_path / "out.profdata")
    profile = HERE / f"l{rel}-ir-bin.1.profraw"
    assert result.code == 1
    assert lines[0] == (
        f"warning: {profile}: malformed instrumentation profile data: symbol name is empty"
    )


@pytest.mark.parametrize("rel", RELEASES)
def test_a_larger_stated_size_reads_as_the_golden(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """zlib gives fewer bytes than the chunk says: LLVM takes them."""

    def larger(data: bytearray, offset: int, size: int) -> None:
        assert data[offset] < 0x70
        data[offset] = 0x70

    binary = _damaged(rel, tmp_path / "bin", larger)
    damaged, _ = _merge(run_profdata, rel, binary, tmp_path / "damaged.profdata")
    golden, _ = _merge(run_profdata, rel, HERE / f"l{rel}-ir-bin", tmp_path / "golden.profdata")
    assert damaged.code == 0 and golden.code == 0
    assert (tmp_path / "damaged.profdata").read_bytes() == (
        tmp_path / "golden.profdata"
    ).read_bytes()


def _random_damage(seed: int) -> Callable[[bytearray, int, int], None]:
    rng = random.Random(seed)

    def damage(data: bytearray, offset: int, size: int) -> None:
        kind = rng.choice(("flip", "byte", "size", "zeros", "stored"))
        if kind == "flip":
            data[offset + rng.randrange(size)] ^= 1 << rng.randrange(8)
        elif kind == "byte":
            data[offset + rng.randrange(size)] = rng.choice((0, 1, 0x7F, 0x80, 0xFF))
        elif kind == "size":
            data[offset + rng.randrange(2)] = rng.randrange(256)
        elif kind == "zeros":
            at = offset + rng.randrange(size)
            data[at : offset + size] = bytes(offset + size - at)
        else:
            n = rng.randrange(1, 20)
            data[offset : offset + 2] = bytes([n, 0])
            for i in range(n):
                data[offset + 2 + i] = rng.choice((1, 0x61, 0x62, 0))

    return damage


@pytest.mark.parametrize("rel", RELEASES)
def test_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    profile = HERE / f"l{rel}-ir-bin.1.profraw"
    for seed in range(24):
        binary = _damaged(rel, tmp_path / f"bin{seed}", _random_damage(seed))
        args = ["merge", f"--binary-file={binary}", str(profile), "-o", "@OUT"]
        same, _ = compare_with_tool(tool, rel, args, run_profdata, tmp_path, first_error_line=True)
        assert same, seed


#: the debug-info golden each release reads, and the PGO name of its static function
#: (14 joins file and name with ":", later releases with ";")
DWARF = {14: ("l14-ir-dbg", b"prog.c:square"), 16: ("l14-ir-dbg", b"prog.c:square"),
         19: ("l19-ir-dbg", b"prog.c;square"), 22: ("l22-ir-dbg", b"prog.c;square")}  # fmt: skip


def _empty_dwarf_name(rel: int, into: Path) -> tuple[Path, Path]:
    """The binary with its static function's annotated name made empty (its string in
    ``.debug_str`` zeroed), and the raw profile to read with it."""
    name, pgo_name = DWARF[rel]
    data = (HERE / name).read_bytes()
    string = pgo_name + b"\0"
    assert data.count(string) == 1
    into.write_bytes(data.replace(string, bytes(len(string))))
    return into, HERE / f"{name}.1.profraw"


@pytest.mark.parametrize("rel", sorted(DWARF))
def test_an_empty_debug_info_name_fails_each_input(
    rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    binary, profile = _empty_dwarf_name(rel, tmp_path / "bin")
    word = "function" if rel < 19 else "symbol"
    out = tmp_path / "out.profdata"
    merged = run_profdata(
        f"--llvm-release={rel}", "merge", f"--debug-info={binary}", str(profile), "-o", str(out)
    )
    lines = merged.stderr.decode().splitlines()
    assert merged.code == 1 and not out.exists()
    # 14 and 16 keep only the code of an error met while the reader is created
    detail = "" if rel < 19 else f": {word} name is empty"
    assert lines[0] == f"warning: {profile}: malformed instrumentation profile data{detail}"
    assert "error: no profile can be merged" in lines
    assert (
        f"a profile annotation of {binary} gives an empty function name" in merged.stderr.decode()
    )
    shown = run_profdata(f"--llvm-release={rel}", "show", f"--debug-info={binary}")
    assert shown.code == 1 and shown.stdout == b""
    assert shown.stderr.decode().splitlines()[0] == (
        f"error: {binary}: malformed instrumentation profile data: {word} name is empty"
    )


@pytest.mark.parametrize("rel", sorted(DWARF))
def test_an_empty_debug_info_name_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    binary, profile = _empty_dwarf_name(rel, tmp_path / "bin")
    for args in (
        ["merge", f"--debug-info={binary}", str(profile), "-o", "@OUT"],
        ["show", f"--debug-info={binary}"],
        ["show", f"--debug-info={binary}", "--show-prof-sym-list"],
        ["show", f"--debug-info={binary}", "--show-format=yaml"],
    ):
        same, _ = compare_with_tool(tool, rel, args, run_profdata, tmp_path, first_error_line=True)
        assert same, args
