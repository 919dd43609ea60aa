"""A damaged vtable name section of an indexed profile, against the real llvm-profdata 19
and 22.

``getSymtab`` decodes the section with ``readAndDecodeStrings``, which hands each chunk's
names to ``addSymbolName`` as it decodes them; a chunk that fails to decode or an empty
name (``addSymbolName`` refuses it) ends the walk, and ``getSymtab`` swallows the error,
keeping the names added before it.  profdata dropped every vtable name on such an
error, so ``show --text`` printed the vtable targets as external symbols
(``tools/fuzz_llvm.py``, stop 52: a section length grown past the end of the file, where
LLVM decodes the first chunk before it reads other memory).  ``merge
--keep-vtable-symbols`` does not swallow the error: it fails the input, for an empty name
too, which profdata did not refuse.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats import read_instr_bytes
from profdata.formats.indexed import read
from profdata.model.names import md5_hash
from profdata.releases import release
from tests.compat.tools import differing
from tests.conftest import CliResult

SQUARE, RECT = "_ZTVN3geo6SquareE", "_ZTVN3geo4RectE"


def kept_merge(corpus_dir: Path, rel: int) -> bytes:
    """The corpus's merge with ``--keep-vtable-symbols``: one zlib chunk of the 4 vtable
    names, the last section of the file, padded with zeros to a multiple of 8."""
    path = corpus_dir / f"irpgo-vtable-vcalls-cpp-l{rel}" / "expected"
    path /= f"l{rel}-merge-keep-vtable-symbols-o.profdata"
    if not path.is_file():
        pytest.skip(f"{path} is not in this corpus")
    return path.read_bytes()


def vtable_section(data: bytes) -> tuple[int, int]:
    """Where the section's length lies, and its length."""
    at = read(memoryview(data)).header.vtable_names_offset
    (length,) = struct.unpack_from("<Q", data, at)
    return at, length


def _with_section(data: bytes, length: int, tail: bytes = b"") -> bytes:
    """The section's length set to ``length``, ``tail`` written over the padding after
    its first chunk."""
    at, first = vtable_section(data)
    out = bytearray(data)
    struct.pack_into("<Q", out, at, length)
    end = at + 8 + first
    out[end : end + len(tail)] = tail
    return bytes(out)


def _damaged(data: bytes) -> dict[str, bytes]:
    at, first = vtable_section(data)
    padding = len(data) - (at + 8 + first)
    assert padding == 7 and data[at + 8 + first :] == bytes(7)
    stored = SQUARE.encode() + b"\x01\x01" + RECT.encode()
    replaced = bytearray(data)
    struct.pack_into("<Q", replaced, at, 2 + len(stored))
    replaced[at + 8 : at + 10 + len(stored)] = bytes([len(stored), 0]) + stored
    bad_first = bytearray(data)
    bad_first[at + 10] ^= 0xFF  # the zlib stream's header
    return {
        # a second chunk, in the padding, whose zlib stream is no stream
        "bad-second-chunk": _with_section(data, first + 7, bytes([5, 3, 0x78, 0x9C, 0xFF])),
        # a stored second chunk holding "a", "" and "bc"
        "empty-name-second-chunk": _with_section(data, first + 7, b"\x05\x00a\x01\x01bc"),
        # one stored chunk: Square, an empty name, Rect
        "empty-name-first-chunk": bytes(replaced),
        "bad-first-chunk": bytes(bad_first),
        # the fuzzer's case: the length's second byte set, 249 bytes past the end
        "past-the-end": _with_section(data, first + 256),
    }


@pytest.mark.parametrize("rel", [19, 22])
def test_the_names_before_the_failure_name_the_targets(rel: int, corpus_dir: Path) -> None:
    damaged = _damaged(kept_merge(corpus_dir, rel))
    whole = read_instr_bytes(kept_merge(corpus_dir, rel), "kept.profdata", release=release(rel))
    vtables = {name for name in whole.symbols.values() if name.startswith("_ZTV")}
    assert len(vtables) == 4
    for case in ("bad-second-chunk", "empty-name-second-chunk", "past-the-end"):
        profile = read_instr_bytes(damaged[case], f"{case}.profdata", release=release(rel))
        assert {n for n in profile.symbols.values() if n.startswith("_ZTV")} == vtables, case
    profile = read_instr_bytes(
        damaged["empty-name-first-chunk"], "e.profdata", release=release(rel)
    )
    assert profile.symbols.get(md5_hash(SQUARE)) == SQUARE
    assert md5_hash(RECT) not in profile.symbols  # after the empty name
    profile = read_instr_bytes(damaged["bad-first-chunk"], "b.profdata", release=release(rel))
    assert not any(n.startswith("_ZTV") for n in profile.symbols.values())


@pytest.mark.parametrize("rel", [19, 22])
def test_damaged_vtable_names_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    corpus_dir: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    """``show --text`` names the targets from the names before the failure; ``merge
    --keep-vtable-symbols`` fails the input (a bad chunk, an empty name) where plain
    ``merge`` never decodes the section.  The fuzzer's past-the-end case is left out:
    there LLVM decodes memory past the end of the file."""
    found = []
    for case, data in _damaged(kept_merge(corpus_dir, rel)).items():
        if case == "past-the-end":
            continue
        path = tmp_path / f"{case}.profdata"
        path.write_bytes(data)
        commands = [
            ["show", "--text", "--all-functions", str(path)],
            ["merge", "--keep-vtable-symbols", "-o", "@OUT", str(path)],
            ["merge", "-o", "@OUT", str(path)],
        ]
        found += differing(
            llvm_profdata(rel), rel, commands, run_profdata, tmp_path, first_error_line=True
        )
    assert not found
