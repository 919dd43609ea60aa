"""Sample binary and ext-binary numbers that grow past 64 bits, against the real
llvm-profdata 14, 16, 19 and 22.

``SampleProfileReaderBinary::readNumber`` calls ``decodeULEB128`` without an
error pointer, so a number that overflows reads as 0 and only the bytes before
the one that overflows are taken: the next number starts at that byte, and the
reader goes on from there (often to a clean end: a summary entry of 0, a
count of 0).  profdata refused such a number ("does not fit in 64 bits"), so
a profile both tools read one way failed in profdata (found by
``tools/fuzz_llvm.py``); and an index into the name table is a ``uint32_t`` in
16 and older, so a wider one is malformed there, not past the table.  Files the
real tool writes get runs of 0xFF bytes at every eighth position of their
summary and profile bodies; each damaged copy
goes through ``show`` and ``merge`` of both tools (cases where the real tool
crashes are left out).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats._binary import ByteReader
from profdata.formats.sample_extbinary import read_section_table
from tests.compat.tools import compare_with_tool, run_tool_ok
from tests.conftest import CliResult

TEXT = b"""main:184467:100
 1: 50000
 2: 4000 foo:3900 bar:100
 3: 12345678901
 4: foo:2000
  1: 2000
  2: 300 baz:300
foo:9000:90
 1: 9000
 2.3: 1234
"""


def _damaged(written: bytes, width: int, first: int) -> list[tuple[int, bytes]]:
    """Copies with ``width`` 0xFF bytes then a 0x02 (past 64 bits) at every 8th byte from
    ``first`` on."""
    copies = []
    for at in range(first, len(written) - width, 8):
        data = bytearray(written)
        data[at : at + width + 1] = b"\xff" * width + b"\x02"
        copies.append((at, bytes(data)))
    return copies


@pytest.mark.parametrize("encoding", ["--binary", "--extbinary"])
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_numbers_past_64_bits_read_as_zero(
    rel: int,
    encoding: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    text = tmp_path / "in.proftext"
    text.write_bytes(TEXT)
    written = tmp_path / "written.prof"
    run_tool_ok(tool, ["merge", "--sample", encoding, str(text), "-o", str(written)])
    compared = read = 0
    original = written.read_bytes()
    # past the magic and version; an ext-binary file's section table is left alone (a
    # section made to reach past the file is read there by LLVM, refused by profdata)
    first = 24
    if encoding == "--extbinary":
        first = read_section_table(ByteReader(memoryview(original)))[0].offset
    for at, data in _damaged(original, 9, first):
        path = tmp_path / "damaged.prof"
        path.write_bytes(data)
        for args in (
            ["show", "--sample", "--detailed-summary", str(path)],
            ["merge", "--sample", "--text", str(path), "-o", "@OUT"],
        ):
            same, real = compare_with_tool(
                tool, rel, args, run_profdata, tmp_path, first_error_line=True
            )
            if real.returncode < 0:
                continue  # the real tool crashed
            compared += 1
            read += real.returncode == 0
            assert same, (at, args)
    assert compared > 20 and read > 0  # some damaged copies still read
