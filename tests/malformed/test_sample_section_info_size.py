"""``show --sample --show-sec-info-only``'s "File Size" line, against the real
llvm-profdata 14, 16, 19 and 22.

``getFileSize`` is where the section table says the last section ends (the
largest offset plus size, in ``uint64_t``), not the length of the file:
bytes appended after the sections are not counted, a cut file is still
reported whole, and a section entry moved far out (size 0, which no reader
looks at) makes the size as large.  profdata printed the file's length
(found by ``tools/fuzz_llvm.py``).  The inputs are ext-binary files the real
22 writes, then lengthened, cut, or given such an entry.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats._binary import ByteReader
from profdata.formats.sample_extbinary import read_section_table
from tests.compat.tools import compare_with_tool, run_tool_ok
from tests.conftest import CliResult

TEXT = b"main:5000:10\n 1: 2000\n 2: 1500 foo:900\n 3: foo:800\n  1: 800\nfoo:300:3\n 1: 300\n"


def _variants(written: bytes) -> dict[str, bytes]:
    table = read_section_table(ByteReader(memoryview(written)))
    empty = next(entry for entry in table if entry.size == 0)
    offset_at = empty.table_at + 16  # Type, Flags, then Offset and Size
    far = bytearray(written)
    struct.pack_into("<Q", far, offset_at, 1 << 58)
    wrap = bytearray(written)
    struct.pack_into("<QQ", wrap, offset_at, (1 << 64) - 4, 10)
    return {
        "as written": written,
        "lengthened": written + bytes(100),
        "cut": written[: len(written) - 20],
        "far section": bytes(far),
        "section at 2**64-4": bytes(wrap),
    }


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_file_size_is_where_the_sections_end(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    text = tmp_path / "in.proftext"
    text.write_bytes(TEXT)
    written = tmp_path / "written.afdo"
    run_tool_ok(
        llvm_profdata(22), ["merge", "--sample", "--extbinary", str(text), "-o", str(written)]
    )
    for name, data in _variants(written.read_bytes()).items():
        path = tmp_path / "variant.afdo"
        path.write_bytes(data)
        args = ["show", "--sample", "--show-sec-info-only", str(path)]
        same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
        assert real.returncode == 0 and b"File Size: " in real.stdout, name
        assert same, name
