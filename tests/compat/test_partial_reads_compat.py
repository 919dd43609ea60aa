"""Damaged raw profiles of a real program: profdata fails where and as llvm-profdata fails.

fixtures/src/parsers.cpp, built live by every installed clang with IR
instrumentation (as ``test_cxx_program_compat`` builds it), has enough
functions that ``show --all-functions`` prints more than one 4096-byte
buffer, and value data at the end of its raw files.
Each damage below is one the shared corpus applies to its own programs
(``bad-inputs-vis``); llvm-profdata meets it after reading some records (or
before any), and then ``show`` has printed the full buffers of those records
and ``merge --failure-mode=all`` has merged them.  Exit status, stdout, the
merged file and the first line of the error must be the real tool's.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats.raw_layout import raw_layout
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


def first_error_line(stderr: bytes) -> str:
    for line in stderr.decode(errors="replace").splitlines():
        if line.startswith(("error: ", "warning: ")):
            return line
    return ""


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
    failures = []
    partial_outputs = 0
    for name, data in damaged(run.read_bytes()).items():
        bad = tmp_path / f"{name}.profraw"
        bad.write_bytes(data)
        commands = [
            (["show", "--all-functions", "--counts", str(bad)], False),
            (["merge", "--failure-mode=all", "-o", "@OUT", str(good), str(bad)], True),
        ]
        for args, writes in commands:
            theirs, ours = tmp_path / "theirs.out", tmp_path / "ours.out"
            for path in (theirs, ours):
                path.unlink(missing_ok=True)
            real = tools.run_tool(tool, [a.replace("@OUT", str(theirs)) for a in args])
            if real.returncode < 0:
                continue  # llvm-profdata crashed on it: nothing to compare with
            got = run_profdata(
                f"--llvm-release={release}", *[a.replace("@OUT", str(ours)) for a in args]
            )
            wanted = first_error_line(real.stderr)
            same = (
                real.returncode == got.code
                and real.stdout == got.stdout
                and wanted in got.stderr.decode(errors="replace")
            )
            if same and writes:
                same = theirs.exists() == ours.exists() and (
                    not theirs.exists() or theirs.read_bytes() == ours.read_bytes()
                )
            if not same:
                failures.append(f"{name}: {' '.join(args[:-1])}")
            partial_outputs += args[0] == "show" and real.returncode != 0 and bool(real.stdout)
    assert not failures, failures
    assert partial_outputs  # the case this test is about did come up
