"""Damaged indexed profiles that llvm-profdata reads anyway, and so profdata.

Each was found by ``tools/fuzz_llvm.py``: the real tool showed, merged and
overlapped a damaged file that profdata refused.  What llvm-profdata never reads
cannot fail it:

* the on-disk hash table's bucket offsets (``NumBuckets`` 0 or past the end of
  the file): llvm-profdata walks the payload from its start and never looks a
  name up, so only profdata's own lookups (``IndexedProfile.records.lookup``)
  fail, with the located error;
* the hash type's high half: ``IndexedInstrProf::HashT`` is a 32-bit enum;
* the vtable-name section's length (19+): only ``getSymtab`` reads the names,
  so only what needs them fails (``--keep-vtable-symbols``).

The inputs are golden files of the real tools (``tests/golden/indexed``) with one
header word set; the non-compat tests hold profdata to its own output for the
undamaged file, the compat tests hold both to the real tool of the file's release.
"""

from __future__ import annotations

import struct
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import MalformedError, TruncatedError
from profdata.formats.indexed import read as read_indexed
from profdata.formats.indexed_layout import layout
from tests.conftest import CliResult

GOLDENS = Path(__file__).resolve().parents[1] / "golden" / "indexed"
#: golden -> the release whose llvm-profdata reads it
FILES = {"v07-vpcalls": 14, "v12-vtable": 19, "v13-vpcalls": 22}
WORD = 1 << 40


def _golden(name: str) -> bytes:
    return (GOLDENS / f"{name}.profdata").read_bytes()


def _header_field(data: bytes, field: str) -> int:
    (word,) = struct.unpack_from("<Q", data, 8)
    return layout(word & 0xFFFFFFFF).field_offset(field)


def _set(data: bytes, at: int, value: int) -> bytes:
    return data[:at] + struct.pack("<Q", value) + data[at + 8 :]


def no_buckets(data: bytes) -> bytes:
    table = read_indexed(memoryview(data)).header.hash_offset
    return _set(data, table, 0)


def too_many_buckets(data: bytes) -> bytes:
    table = read_indexed(memoryview(data)).header.hash_offset
    return _set(data, table, WORD)


def high_hash_type(data: bytes) -> bytes:
    return _set(data, _header_field(data, "hash_type"), 3 << 40)


def long_vtable_names(data: bytes) -> bytes:
    offset = read_indexed(memoryview(data)).header.vtable_names_offset
    return _set(data, offset, WORD)


DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "no-buckets": no_buckets,
    "too-many-buckets": too_many_buckets,
    "high-hash-type": high_hash_type,
}
COMMANDS = (
    ("show", "--all-functions", "--counts", "FILE"),
    ("show", "--all-functions", "--ic-targets", "--memop-sizes", "FILE"),
    ("merge", "FILE", "-o", "OUT"),
    ("merge", "--text", "FILE", "-o", "OUT"),
    ("overlap", "FILE", "GOOD"),
    ("overlap", "GOOD", "FILE"),
)


def _cases() -> list[tuple[str, str]]:
    cases = [(name, damage) for name in FILES for damage in DAMAGES]
    return [*cases, ("v12-vtable", "long-vtable-names"), ("v13-vpcalls", "long-vtable-names")]


def _damaged(name: str, damage: str) -> bytes:
    data = _golden(name)
    return long_vtable_names(data) if damage == "long-vtable-names" else DAMAGES[damage](data)


def _run(
    run: Callable[[list[str]], tuple[int, bytes, bytes | None]],
    command: tuple[str, ...],
    file: Path,
    good: Path,
    out: Path,
) -> tuple[int, bytes, bytes | None]:
    words = {"FILE": str(file), "GOOD": str(good), "OUT": str(out)}
    return run([words.get(word, word) for word in command])


@pytest.mark.parametrize(("name", "damage"), _cases())
def test_what_llvm_profdata_never_reads_fails_nothing(
    name: str, damage: str, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    rel = FILES[name]
    good = tmp_path / "good.profdata"
    good.write_bytes(_golden(name))
    bad = tmp_path / "bad.profdata"
    bad.write_bytes(_damaged(name, damage))

    def ours(argv: list[str]) -> tuple[int, bytes, bytes | None]:
        out = tmp_path / "out"
        out.unlink(missing_ok=True)
        got = run_profdata(f"--llvm-release={rel}", *argv)
        stdout = got.stdout.replace(str(bad).encode(), str(good).encode())
        return got.code, stdout, out.read_bytes() if out.exists() else None

    for command in COMMANDS:
        damaged = _run(ours, command, bad, good, tmp_path / "out")
        undamaged = _run(ours, command, good, good, tmp_path / "out")
        assert damaged[0] == 0, command
        assert damaged == undamaged, command


@pytest.mark.parametrize("damage", ["no-buckets", "too-many-buckets"])
def test_a_lookup_meets_the_bad_buckets(damage: str) -> None:
    data = DAMAGES[damage](_golden("v13-vpcalls"))
    profile = read_indexed(memoryview(data), "bad.profdata")
    assert len(list(profile.records)) > 0  # every record reads
    with pytest.raises(MalformedError) as caught:
        profile.lookup("main")
    assert caught.value.location.field == "hash_table.num_buckets"
    assert caught.value.location.offset == profile.header.hash_offset


def test_the_vtable_names_fail_when_needed(run_profdata: Callable[..., CliResult]) -> None:
    data = long_vtable_names(_golden("v12-vtable"))
    profile = read_indexed(memoryview(data), "bad.profdata")
    for _ in range(2):  # and every time
        with pytest.raises(TruncatedError):
            _ = profile.vtable_names


@pytest.mark.compat
@pytest.mark.parametrize(("name", "damage"), _cases())
def test_as_llvm_profdata(
    name: str,
    damage: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    rel = FILES[name]
    tool = llvm_profdata(rel)
    good = tmp_path / "good.profdata"
    good.write_bytes(_golden(name))
    bad = tmp_path / "bad.profdata"
    bad.write_bytes(_damaged(name, damage))
    out = tmp_path / "out"

    def real(argv: list[str]) -> tuple[int, bytes, bytes | None]:
        out.unlink(missing_ok=True)
        done = subprocess.run([str(tool), *argv], capture_output=True, timeout=60)
        return done.returncode, done.stdout, out.read_bytes() if out.exists() else None

    def ours(argv: list[str]) -> tuple[int, bytes, bytes | None]:
        out.unlink(missing_ok=True)
        got = run_profdata(f"--llvm-release={rel}", *argv)
        return got.code, got.stdout, out.read_bytes() if out.exists() else None

    for command in COMMANDS:
        expected = _run(real, command, bad, good, out)
        if expected[0] < 0:
            # the real tool died of a signal: 19 reads the vtable names past the end of the
            # file for --ic-targets (its symbol table), and crashes or not by the memory
            # there; profdata's answer is its own
            continue
        assert _run(ours, command, bad, good, out) == expected, command
