"""``show`` of a raw file holding two profiles whose headers disagree on the IR flag.

``RawInstrProfReader`` reads each header as it reaches it, and ``show`` asks
for the level at three moments: before the loop (how every record prints: a
front end's function count, block counts from its second counter; ``:ir`` of
``--text``), inside it (the CS filter, each record under its own header) and
after it (the "Instrumentation level" line, and ``--profile-version``: the
last header's).  Found by ``tools/fuzz_llvm.py``; checked with the real
llvm-profdata 14, 16, 19 and 22.

The files are two raw goldens of one program, one with the IR flag cleared,
concatenated in either order.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats import open_instr
from profdata.model.kinds import ProfileKind
from tests.compat.tools import compare_with_tool
from tests.conftest import GOLDEN, CliResult

#: release -> the golden raw profile of the program it built
GOLDENS = {
    rel: GOLDEN / "raw" / "inputs" / f"binary-ids-vpcalls-l{made}__none.profraw"
    for rel, made in ((14, 14), (16, 16), (19, 19), (22, 22))
}


def _front_end(rel: int) -> bytes:
    data = bytearray(GOLDENS[rel].read_bytes())
    (word,) = struct.unpack_from("<Q", data, 8)
    struct.pack_into("<Q", data, 8, word & ~(1 << 56))
    return bytes(data)


def _files(rel: int, tmp_path: Path) -> dict[str, Path]:
    ir, fe = GOLDENS[rel].read_bytes(), _front_end(rel)
    files = {"fe-ir": fe + ir, "ir-fe": ir + fe}
    paths = {}
    for name, data in files.items():
        paths[name] = tmp_path / f"{name}.profraw"
        paths[name].write_bytes(data)
    return paths


def test_the_kinds_of_the_profile(tmp_path: Path) -> None:
    files = _files(22, tmp_path)
    profile = open_instr(files["fe-ir"])
    assert not profile.kind & ProfileKind.IR  # merge takes the first header's
    assert profile.kind_at_end & ProfileKind.IR
    ir = profile.ir_records()
    assert ir is not None
    half = len(ir) // 2
    assert not ir[:half].any() and ir[half:].all()
    uniform = open_instr(GOLDENS[22])
    assert uniform.ir_records() is None
    assert uniform.kind_at_end == uniform.kind


@pytest.mark.parametrize("rel", sorted(GOLDENS))
def test_show(rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]) -> None:
    files = _files(rel, tmp_path)
    got = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", str(files["fe-ir"]))
    level = next(line for line in got.text.splitlines() if line.startswith("Instrumentation"))
    assert level.startswith("Instrumentation level: IR")  # the last header's
    assert got.text.count("Function count:") == got.text.count("Hash:")  # as the first says
    got = run_profdata(f"--llvm-release={rel}", "show", "--all-functions", str(files["ir-fe"]))
    assert "Instrumentation level: Front-end" in got.text
    assert "Function count:" not in got.text  # as the first header, IR, says
    shown = run_profdata(
        f"--llvm-release={rel}", "show", "--showcs", "--all-functions", str(files["ir-fe"])
    )
    # the IR profile's records are not CS: filtered; the front end's are not filtered
    assert shown.text.count("Hash:") == got.text.count("Hash:") // 2


@pytest.mark.compat
@pytest.mark.parametrize("rel", sorted(GOLDENS))
def test_as_llvm_profdata(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    options = [
        [],
        ["--all-functions", "--counts"],
        ["--text", "--all-functions"],
        ["--showcs", "--all-functions"],
        ["--detailed-summary"],
        ["--all-functions", "--ic-targets", "--memop-sizes"],
    ]
    if rel >= 16:
        options.append(["--profile-version"])
    for path in _files(rel, tmp_path).values():
        for option in options:
            argv = ["show", *option, str(path)]
            assert compare_with_tool(tool, rel, argv, run_profdata, tmp_path)[0], argv
