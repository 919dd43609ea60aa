"""The chunks of an indexed profile's vtable name section read as ``readAndDecodeStrings``
reads them, against the real llvm-profdata 19 and 22.

``getSymtab`` (``show``) and ``merge --keep-vtable-symbols`` decode the section
with the function that decodes a raw profile's names, so it trusts the chunk sizes
the same way: an overflowing ULEB128 size reads as 0 and the next size starts at
the byte that overflowed; a zlib stream may be shorter than its stated uncompressed
size and may have bytes after it; a stored chunk may run past the section; a zero
byte is skipped only after a chunk, so a section that starts with one reads a size
of 0 and then a compressed size from the chunk's first byte.  profdata read this
section with the strict chunk reader of other name tables, so each such file named
other vtables, or failed ``--keep-vtable-symbols`` with another message (stop 55).
The inputs are the corpus's ``--keep-vtable-symbols`` merges, their section rewritten.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import DecompressionError, EmptyNameError, ProfdataError
from profdata.formats import read_instr_bytes
from profdata.releases import release
from tests.compat.tools import differing
from tests.conftest import CliResult
from tests.leb128 import uleb
from tests.malformed.test_indexed_vtable_names import kept_merge, vtable_section

VTABLES = ("_ZTVN3geo4RectE", "_ZTVN3geo6CircleE", "_ZTVN3geo6SquareE", "_ZTVN3geo3TriE")
ZLIB_FAILS = "failed to uncompress data (zlib)"


def _rewritten(data: bytes, section: bytes) -> bytes:
    """``data`` with the vtable name section (the file's last) holding ``section``."""
    at, _ = vtable_section(data)
    body = bytearray(data[: at + 8] + section)
    body += bytes(-len(body) % 8)
    struct.pack_into("<Q", body, at, len(section))
    return bytes(body)


def _cases(data: bytes) -> dict[str, tuple[bytes, tuple[str, ...], str]]:
    """Each damaged file; the vtable names ``show`` finds; and what ``--keep-vtable-symbols``
    fails with (``ZLIB_FAILS``, "empty": an empty name) or "" where it keeps them all."""
    at, length = vtable_section(data)
    section = data[at + 8 : at + 8 + length]
    stream = section[2:]  # one zlib chunk of 66 bytes in 47: two one-byte sizes
    payload = zlib.decompress(stream)
    assert section[:2] == bytes([len(payload), len(stream)]) and len(payload) < 0x7F
    assert payload.split(b"\x01") == [name.encode() for name in VTABLES]
    usize, csize = uleb(len(payload)), uleb(len(stream))
    garbled = (*VTABLES[:-1], VTABLES[-1] + "\x00" * 20)
    none: tuple[str, ...] = ()
    sections = {
        # 0 then a compressed size of 66 from the chunk's first byte: zlib fails
        "leading-zero": (b"\x00" + section, none, ZLIB_FAILS),
        # the uncompressed size overflows at its 10th byte, whose 02 is the compressed size
        "size-overflows": (b"\xff" * 9 + b"\x02\x00" + section, none, ZLIB_FAILS),
        # the compressed size overflows: the 5 bytes from its 7f on are a stored chunk
        "compressed-size-overflows": (
            section + b"\x05" + b"\xff" * 9 + b"\x7fA\x01BC",
            (*VTABLES, "\x7fA", "BC"),
            "",
        ),
        "compressed-size-overflows-empty": (
            section + b"\x05" + b"\xff" * 9 + b"\x7f\x01\x01BC",
            (*VTABLES, "\x7f"),
            "empty",
        ),
        "stream-shorter-than-stated": (uleb(len(payload) + 5) + csize + stream, VTABLES, ""),
        "stream-longer-than-stated": (uleb(len(payload) - 1) + csize + stream, none, ZLIB_FAILS),
        "bytes-after-the-stream": (
            usize + uleb(len(stream) + 3) + stream + b"\x11\x22\x33",
            VTABLES,
            "",
        ),
        "stream-cut": (usize + uleb(len(stream) - 1) + stream[:-1], none, ZLIB_FAILS),
        # a stored chunk 20 bytes longer than the section: the padding and zeros past the end
        "stored-past-the-section": (uleb(len(payload) + 20) + b"\x00" + payload, garbled, ""),
    }
    return {name: (_rewritten(data, s), names, keep) for name, (s, names, keep) in sections.items()}


@pytest.mark.parametrize("rel", [19, 22])
def test_the_section_reads_as_readAndDecodeStrings(rel: int, corpus_dir: Path) -> None:
    for case, (data, shown, keep) in _cases(kept_merge(corpus_dir, rel)).items():
        profile = read_instr_bytes(data, f"{case}.profdata", release=release(rel))
        functions = {record.name for record in profile.records}
        found = {name for name in profile.symbols.values() if name not in functions}
        assert found == set(shown), case
        if not keep:
            assert sorted(profile.vtable_names) == sorted(shown), case
            continue
        with pytest.raises(ProfdataError) as caught:
            _ = profile.vtable_names
        if keep == ZLIB_FAILS:
            assert isinstance(caught.value, DecompressionError), case
        else:
            assert isinstance(caught.value, EmptyNameError), case


@pytest.mark.parametrize("rel", [19, 22])
def test_damaged_chunks_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    corpus_dir: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    found = []
    for case, (data, _, _) in _cases(kept_merge(corpus_dir, rel)).items():
        path = tmp_path / f"{case}.profdata"
        path.write_bytes(data)
        commands = [
            ["show", "--text", "--all-functions", str(path)],
            ["merge", "--keep-vtable-symbols", "-o", "@OUT", str(path)],
            ["merge", "--keep-vtable-symbols", "--text", "-o", "@OUT", str(path)],
        ]
        found += [
            f"{case}: {line}"
            for line in differing(
                llvm_profdata(rel), rel, commands, run_profdata, tmp_path, first_error_line=True
            )
        ]
    assert not found
