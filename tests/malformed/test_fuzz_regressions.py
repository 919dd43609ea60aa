"""Inputs a fuzzing campaign (about 700,000 commands over mutated real profiles) found
to crash, hang or exhaust memory, each rebuilt here from a golden file or from text.

* an indexed profile's vtable-name section is decompressed only when names are
  needed, and one that fails to decompress is left out of the symbol table, as
  ``getSymtab`` does (plain ``show`` and ``merge`` never read it; a small
  section may inflate to gigabytes);
* MemProf YAML: a stray ``}`` in a ``[...]`` list ("Expected , between
  entries!") once looped forever, and a long key line without a colon took
  quadratic time in the key pattern;
* out of memory is one clean error line, not a traceback.

Hang tests run the command in a child process with a time limit: a regression
fails instead of stalling the suite.
"""

from __future__ import annotations

import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import DecompressionError
from profdata.formats import read_instr_bytes
from profdata.formats._binary import ByteReader
from profdata.formats.indexed import IndexedProfile
from tests.compat import tools
from tests.conftest import CliResult
from tests.leb128 import uleb

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "indexed"
VTABLE = GOLDEN / "v12-vtable.profdata"  # llvm-profdata 19, vtable value profiling


def _vtable_section(data: bytes) -> tuple[int, int]:
    profile = read_instr_bytes(data, "vt.profdata")
    assert isinstance(profile, IndexedProfile)
    section = profile._vtable_name_data
    assert isinstance(section, ByteReader)
    return section.pos, section.end


def corrupt_vtable_names(data: bytes) -> bytes:
    """The vtable-name section with a byte of its zlib stream flipped (adler32 fails)."""
    start, end = _vtable_section(data)
    at = (start + end) // 2
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


def test_a_bad_vtable_name_section_is_not_read_until_needed() -> None:
    bad = corrupt_vtable_names(VTABLE.read_bytes())
    profile = read_instr_bytes(bad, "vt.profdata")
    assert isinstance(profile, IndexedProfile)
    assert len(list(profile.records)) > 0  # the records read
    for _ in range(2):  # and fails every time it is asked for
        with pytest.raises(DecompressionError):
            _ = profile.vtable_names  # what --keep-vtable-symbols needs
    good = read_instr_bytes(VTABLE.read_bytes(), "vt.profdata")
    vtable_hashes = {h for h, n in good.symbols.items() if n.startswith("_ZTV")}
    assert vtable_hashes and not vtable_hashes & set(profile.symbols)  # left out, no error
    assert set(profile.symbols) < set(good.symbols)


SHOW = [
    [],
    ["--all-functions", "--counts"],
    ["--all-functions", "--ic-targets"],
    ["--all-functions", "--show-vtables"],
    ["--all-functions", "--text"],
]


@pytest.mark.parametrize("options", SHOW, ids=lambda o: " ".join(o) or "summary")
def test_show_with_a_bad_vtable_name_section(
    options: list[str], tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """``show`` succeeds; vtable targets print as LLVM prints unknown ones."""
    path = tmp_path / "vt.profdata"
    path.write_bytes(corrupt_vtable_names(VTABLE.read_bytes()))
    result = run_profdata("show", *options, str(path))
    assert result.code == 0, result.stderr
    if "--text" in options:
        assert b"** External Symbol **:" in result.stdout
    llvm = tools.find_llvm_profdata(22)
    if llvm is not None:
        real = subprocess.run([str(llvm), "show", *options, str(path)], capture_output=True)
        assert (real.returncode, real.stdout) == (0, result.stdout)


def test_merge_with_a_bad_vtable_name_section(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """Merging ignores the section; keeping vtable symbols needs it and fails as LLVM does."""
    path = tmp_path / "vt.profdata"
    path.write_bytes(corrupt_vtable_names(VTABLE.read_bytes()))
    out = tmp_path / "out.profdata"
    assert run_profdata("merge", str(path), "-o", str(out)).code == 0
    kept = run_profdata("merge", "--keep-vtable-symbols", str(path), "-o", str(out))
    assert kept.code == 1
    assert kept.stderr.startswith(b"warning: " + str(path).encode() + b": failed to uncompress")
    llvm = tools.find_llvm_profdata(22)
    if llvm is not None:
        ref = tmp_path / "ref.profdata"
        assert subprocess.run([str(llvm), "merge", str(path), "-o", str(ref)]).returncode == 0
        assert run_profdata("merge", str(path), "-o", str(out)).code == 0
        assert out.read_bytes() == ref.read_bytes()


def test_a_vtable_name_bomb_is_never_inflated_by_show(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """A section standing for 64 MiB of names (about 100 KiB of zlib) costs ``show``
    nothing: it is never decompressed."""
    data = VTABLE.read_bytes()
    start, end = _vtable_section(data)
    names = b"\x01".join([b"_ZTV1A"] * ((64 << 20) // 7))
    packed = zlib.compress(names, 9)
    chunk = uleb(len(names)) + uleb(len(packed)) + packed
    # the section is the last thing in the file (then padding): replace it and its length
    assert len(data) - end < 8
    bomb = data[: start - 8] + len(chunk).to_bytes(8, "little") + chunk
    bomb += bytes(-len(bomb) % 8)
    path = tmp_path / "bomb.profdata"
    path.write_bytes(bomb)
    profile = read_instr_bytes(bomb, str(path))
    assert isinstance(profile, IndexedProfile)
    assert len(list(profile.records)) > 0
    assert profile._vtable_name_data is not None  # read lazily: still compressed
    result = run_profdata("show", "--all-functions", "--counts", str(path))
    assert result.code == 0, result.stderr
    assert len(profile.vtable_names) == (64 << 20) // 7  # the names are all there


def _merge_in_child(
    tmp_path: Path, text: str, limit: float = 60
) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "in.yaml"
    path.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "profdata", "merge", str(path), "-o", str(tmp_path / "o")],
        capture_output=True, text=True, timeout=limit,
    )  # fmt: skip


YAML_HEAD = "---\nHeapProfileRecords:\n  - GUID: 0x1\n"


def test_a_stray_brace_in_a_flow_list_is_an_error_not_a_loop(tmp_path: Path) -> None:
    result = _merge_in_child(tmp_path, YAML_HEAD + "    AllocSites: [a }]\n")
    assert result.returncode == 1
    assert "Expected , between entries! (line 4)" in result.stderr


def test_a_long_key_line_without_a_colon_is_read_in_linear_time(tmp_path: Path) -> None:
    """200,000 blanks between two words: the key pattern once retried at every one."""
    result = _merge_in_child(tmp_path, YAML_HEAD + "    a" + " " * 200_000 + "b\n", limit=30)
    assert result.returncode == 1
    assert "error: no profile can be merged" in result.stderr


def test_out_of_memory_is_one_error_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    import profdata.formats as formats

    def exhausted(path: str, *, release: object) -> None:
        raise MemoryError

    monkeypatch.setattr(formats, "open_instr", exhausted)  # cli/show imports it when it runs
    result = run_profdata("show", str(tmp_path / "any.profdata"))
    assert result.code == 1
    assert result.stderr == b"error: out of memory: the input holds more than profdata can hold\n"


def _joined_table(payloads: list[bytes]) -> dict[int, str]:
    """The name table as it was built before: all chunks joined, every name hashed, the
    first name of a hash kept."""
    from profdata.formats._names import SEPARATOR
    from profdata.model.names import md5_hashes, name_str

    table: dict[int, str] = {}
    if payloads:
        blob = SEPARATOR.join(payloads)
        names = name_str(blob).split("\x01")
        for ref, name in zip(md5_hashes(blob.split(SEPARATOR)), names, strict=True):
            table.setdefault(ref, name)
    return table


@pytest.mark.parametrize("piece", [1, 3, 7, 1 << 22])
def test_raw_names_are_read_in_pieces(piece: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces cut anywhere give the table (and its order) the whole section gives."""
    import profdata.formats.raw_profile as raw_profile

    monkeypatch.setattr(raw_profile, "_PIECE", piece)
    payloads = [b"alpha\x01beta\x01gamma\x01alpha\x01\x01d\xe9lta", b"", b"x\x01y\x01beta"]
    table = raw_profile.NameTable(payloads).table()
    assert list(table.items()) == list(_joined_table(payloads).items())


def test_a_raw_name_section_of_one_name_repeated_is_one_name() -> None:
    """32 MiB of one name (what a zlib bomb of a few KiB inflates to) hashes it once."""
    from profdata.formats.raw_profile import NameTable

    table = NameTable([b"\x01".join([b"main"] * (16 << 20))]).table()
    assert list(table.values()) == ["main"]


def _without_value_kinds(data: bytes) -> bytes:
    """A raw run whose every value blob claims ``NumValueKinds`` 0 (``TotalSize`` kept)."""
    import struct

    from profdata.formats import raw_columns
    from profdata.formats.raw import read as raw_read

    shaped = raw_columns.shape_of(memoryview(data), raw_read(data, "run.profraw"))
    assert shaped is not None
    shape = shaped[0]
    buf = bytearray(data)
    pos = shape.value_start
    for _ in range(len(shape.values.blob_records)):
        total = struct.unpack_from("<I", buf, pos)[0]
        struct.pack_into("<I", buf, pos + 4, 0)
        pos += total
    return bytes(buf)


RAW_VP = Path(__file__).resolve().parents[1] / "golden" / "raw" / "inputs"


@pytest.mark.parametrize("name", ["binary-ids-vpcalls-l22__none", "binary-ids-vpcalls-l14__none"])
def test_value_blobs_without_kinds_in_a_merge(name: str, tmp_path: Path) -> None:
    """A run whose value blobs all claim no value kind crashed the array merge's shape of
    it (found by ``tools/fuzz_paths.py``): as a first input and as a later one, it now
    merges as the record-by-record merge merges it."""
    from profdata.formats import raw_columns
    from profdata.formats.raw import read as raw_read
    from tests.unit.ops.test_merge_fast import assert_same

    good = tmp_path / "good.profraw"
    good.write_bytes((RAW_VP / f"{name}.profraw").read_bytes())
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(_without_value_kinds(good.read_bytes()))
    data = bad.read_bytes()
    assert raw_columns.shape_of(memoryview(data), raw_read(data, str(bad))) is None
    rel = 22 if "l22" in name else 14
    assert_same([(bad, 1), (good, 2)], rel=rel)
    assert_same([(good, 1), (bad, 3), (good, 1)], rel=rel)
