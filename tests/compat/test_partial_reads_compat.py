"""Damaged profiles of a real program: profdata fails where and as llvm-profdata fails.

fixtures/src/parsers.cpp, built live by every installed clang with IR
instrumentation (as ``test_cxx_program_compat`` builds it), has enough
functions that ``show --all-functions`` prints more than one 4096-byte
buffer, and value data at the end of its raw files.
Each raw damage below is one the shared corpus applies to its own programs
(``bad-inputs-vis``), plus an indexed file (written by the real tool) whose
middle hash-table item has an odd data length; llvm-profdata meets it after reading some records (or
before any), and then ``show`` has printed the full buffers of those records,
``merge --failure-mode=all`` has merged them and ``overlap`` overlaps them.
Exit status, stdout, the merged file and the first line of the error must be
the real tool's.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats.raw_layout import raw_layout
from profdata.ops.merge import load_path
from tests.compat import tools
from tests.compat.test_cxx_program_compat import build
from tests.conftest import CliResult

pytestmark = [pytest.mark.compat, pytest.mark.slow]


def header_word(data: bytes, field: str) -> int:
    version = struct.unpack_from("<Q", data, 8)[0] & 0xFFFFFFFF
    return raw_layout(version, 8, "<").header_fields.index(field)


def damaged(data: bytes) -> dict[str, bytes]:
    def patched(field: str, value: int) -> bytes:
        out = bytearray(data)
        struct.pack_into("<Q", out, 8 * header_word(data, field), value)
        return bytes(out)

    return {
        "trailing-garbage": data + b"\xde\xad\xbe",
        "trailing-zero-padding": data + bytes(16),
        "truncated-last8": data[:-8],
        "truncated-half": data[: len(data) // 2],
        "counters-delta-bad": patched("counters_delta", 0x7777),
        "counters-size-zero": patched("num_counters", 0),
        "names-size-huge": patched("names_size", 1 << 36),
    }


def odd_item_length(indexed: Path) -> bytes:
    """The indexed file with the data length of its middle hash-table item made odd: LLVM's
    iteration hands out the items before it, then fails ("profile data is empty")."""
    data = bytearray(indexed.read_bytes())
    names = [r.name for r in load_path(str(indexed)).records]
    key = names[len(names) // 2].encode()
    at = data.find(key)  # the key follows its key length and its data length
    while struct.unpack_from("<Q", data, at - 16)[0] != len(key):
        at = data.find(key, at + 1)  # the name inside a longer one
    (length,) = struct.unpack_from("<Q", data, at - 8)
    struct.pack_into("<Q", data, at - 8, length + 1)
    return bytes(data)


@pytest.mark.parametrize("release", tools.RELEASES)
def test_damaged_raw_profiles(
    release: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    clang: Callable[..., Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(release)
    run, good, _ = build(tmp_path, release, "ir", clang(release, cxx=True))
    indexed = tmp_path / "run.profdata"
    tools.run_tool(tool, ["merge", "-o", str(indexed), str(run)]).check_returncode()
    cases = {f"{name}.profraw": data for name, data in damaged(run.read_bytes()).items()}
    cases["item-length-odd.profdata"] = odd_item_length(indexed)
    failures = []
    partial_outputs = 0
    for name, data in cases.items():
        bad = tmp_path / name
        bad.write_bytes(data)
        for args in (
            ["show", "--all-functions", "--counts", str(bad)],
            ["merge", "--failure-mode=all", "-o", "@OUT", str(good), str(bad)],
            ["overlap", str(good), str(bad)],
        ):
            same, real = tools.compare_with_tool(
                tool, release, args, run_profdata, tmp_path, first_error_line=True
            )
            if real.returncode < 0:
                continue  # llvm-profdata crashed on it: nothing to compare with
            if not same:
                failures.append(f"{name}: {' '.join(args[:-1])}")
            partial_outputs += args[0] == "show" and real.returncode != 0 and bool(real.stdout)
    assert not failures, failures
    assert partial_outputs  # the case this test is about did come up
