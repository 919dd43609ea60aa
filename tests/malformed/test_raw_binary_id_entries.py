"""Raw profiles whose binary-id entries are damaged (the section's size is right).

llvm-profdata 19 and later parse the entries in ``readHeader``: a bad one fails
every command.  14, 15 and 16 parse them only in ``readBinaryIds``: ``show``
fails only with ``--binary-ids`` (printing nothing), a 16 merge merges the
input's records and then counts the input as failed, 14 and 15 never read them
when merging; and 14 and 15 take an id of length 0 as an empty id where 16 and
later say "binary id length is 0" (found by ``tools/fuzz_llvm.py``, checked with
the real llvm-profdata 14, 15, 16, 19 and 22).

The inputs are the raw goldens with a build id (``-Wl,--build-id=sha1``) whose
first entry's length is set to 1000 (past the section) or 0.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import MalformedError
from profdata.formats import open_instr
from profdata.formats.raw_layout import raw_layout
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import GOLDEN, CliResult

INPUTS = GOLDEN / "raw" / "inputs"
#: release -> the golden of the release that made it (15 reads 14's and 16's raw v8)
MADE_BY = {14: 14, 15: 16, 16: 16, 19: 19, 22: 22}
LENGTHS = {"long": 1000, "zero": 0}
RUNS_PAST = "malformed instrumentation profile data: not enough data to read binary id data"
EMPTY = "malformed instrumentation profile data: binary id length is 0"


def _golden(rel: int, build_id: str = "sha1") -> Path:
    return INPUTS / f"binary-ids-vpcalls-l{MADE_BY[rel]}__{build_id}.profraw"


def _damaged(rel: int, length: int) -> bytes:
    data = bytearray(_golden(rel).read_bytes())
    (word,) = struct.unpack_from("<Q", data, 8)
    at = raw_layout(word & 0xFFFFFFFF, 8, "<").header_size  # the first entry's length
    struct.pack_into("<Q", data, at, length)
    return bytes(data)


def _counts(path: Path, rel: int) -> list[list[int]]:
    return [[int(c) for c in r.counts] for r in open_instr(path, release=release(rel)).records]


@pytest.mark.parametrize("damage", sorted(LENGTHS))
@pytest.mark.parametrize("rel", [14, 16])
def test_14_and_16_parse_them_when_asked(rel: int, damage: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(_damaged(rel, LENGTHS[damage]))
    profile = open_instr(bad, release=release(rel))
    assert _counts(bad, rel) == _counts(_golden(rel), rel)
    failure = profile.binary_ids_error
    assert isinstance(failure, MalformedError)
    first = raw_layout(8, 8, "<").header_size
    if damage == "zero" and rel == 14:  # an empty id, then the next "entry": its bytes
        assert (failure.location.offset, failure.llvm_message) == (first + 8, RUNS_PAST)
    else:
        expected = EMPTY if damage == "zero" else RUNS_PAST
        assert (failure.location.offset, failure.llvm_message) == (first, expected)
    assert "RawProfile raw version=8" in repr(profile)
    with pytest.raises(MalformedError):  # and every time
        _ = profile.binary_ids


@pytest.mark.parametrize("damage", sorted(LENGTHS))
@pytest.mark.parametrize("rel", [19, 22])
def test_19_parses_them_in_the_header(rel: int, damage: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(_damaged(rel, LENGTHS[damage]))
    with pytest.raises(MalformedError) as caught:
        open_instr(bad, release=release(rel))
    assert caught.value.llvm_message == (EMPTY if damage == "zero" else RUNS_PAST)


def test_14_takes_a_zero_length_as_an_empty_id(tmp_path: Path) -> None:
    data = bytearray(_golden(14).read_bytes())
    at = raw_layout(8, 8, "<").header_size
    (size,) = struct.unpack_from("<Q", data, 16)
    assert size == 32
    data[at : at + 32] = struct.pack("<QQ8sQ", 0, 8, b"ABCDEFGH", 0)
    path = tmp_path / "empty.profraw"
    path.write_bytes(bytes(data))
    assert open_instr(path, release=release(14)).binary_ids == [b"", b"ABCDEFGH", b""]
    with pytest.raises(MalformedError):
        _ = open_instr(path, release=release(16)).binary_ids


@pytest.mark.parametrize("rel", [14, 16])
def test_merge(rel: int, tmp_path: Path, run_profdata: Callable[..., CliResult]) -> None:
    """14 merges the input whole (no ids in its indexed version); 16 merges its records,
    then counts it failed: --failure-mode=all keeps the records, any fails the merge.
    On the array path (8 inputs and more) the bad ids turn the input the long way."""
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(_damaged(rel, 1000))
    good = str(_golden(rel, "none"))
    out, expected = tmp_path / "out.profdata", tmp_path / "expected.profdata"
    for inputs in ([str(bad), good], [str(bad), *[good] * 8]):
        got = run_profdata(f"--llvm-release={rel}", "merge", "-o", str(out), *inputs)
        assert got.code == (0 if rel == 14 else 1)
        got = run_profdata(
            f"--llvm-release={rel}", "merge", "--failure-mode=all", "-o", str(out), *inputs
        )
        assert got.code == 0
        assert (RUNS_PAST.encode() in got.stderr) == (rel == 16)
        undamaged = [str(_golden(rel, "none")), *inputs[1:]]
        made = run_profdata(f"--llvm-release={rel}", "merge", "-o", str(expected), *undamaged)
        assert made.code == 0
        assert out.read_bytes() == expected.read_bytes()


@pytest.mark.compat
@pytest.mark.parametrize("damage", sorted(LENGTHS))
@pytest.mark.parametrize("rel", sorted(MADE_BY))
def test_as_llvm_profdata(
    rel: int,
    damage: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(rel)
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(_damaged(rel, LENGTHS[damage]))
    good = str(_golden(rel, "none"))
    commands = (
        ["show", str(bad)],
        ["show", "--all-functions", "--counts", str(bad)],
        ["show", "--binary-ids", str(bad)],
        ["merge", "-o", "@OUT", str(bad), good],
        ["merge", "--failure-mode=all", "-o", "@OUT", str(bad), good],
        ["merge", "--text", "--failure-mode=all", "-o", "@OUT", good, str(bad)],
    )
    for argv in commands:
        assert compare_with_tool(tool, rel, argv, run_profdata, tmp_path, stderr="first")[0], argv
