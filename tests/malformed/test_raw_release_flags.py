"""What each release makes of a raw header's variant flags and of an input whose reader
cannot be created, against the real llvm-profdata 13, 14, 16, 19 and 22.

- A release knows the flags of its own time only (``Release.raw_variant_bits``): 13 reads
  bits 59-63 of the version word as nothing, 14 and 16 bit 63.  profdata of 13 took bit
  60 for byte coverage and failed where 13 reads the file (found by setting each flag
  bit of the golden runs in turn, stop 53).
- 13's merge keeps the context-sensitive flag of IR profiles only
  (``setIsIRLevelProfile``): a front-end input with the flag makes a front-end profile.
- 14 and 16's merge warn about an input whose reader cannot be created (its first
  header, its name table) without the message's detail: ``InstrProfError::take`` gave
  back only the code.  A later failure (a second, concatenated profile) keeps it, and 19
  keeps it everywhere.
- A raw header with the MemProf flag makes the merge write an empty MemProf section, in the
  schema of the release's ``MIBEntryDef.inc``: 19 fields in 15, where profdata wrote 16's 25.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import MalformedError
from profdata.formats import read_instr_bytes
from profdata.model.kinds import ProfileKind
from profdata.ops.merge import input_failure
from profdata.releases import release
from tests.compat.tools import differing
from tests.conftest import CliResult
from tests.malformed.header_words import with_bit

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
V7 = GOLDEN / "raw" / "inputs" / "llvm-13__c-general.profraw"  # a front-end run of clang 13
PROGRAMS = GOLDEN / "programs"
#: where each release's golden IR run keeps its (zlib-compressed) name table
NAMES_AT = {14: 752, 16: 744, 19: 944, 22: 944}


def _records(data: bytes, rel: int) -> list[tuple[str, int, list[int]]]:
    profile = read_instr_bytes(data, "run.profraw", release=release(rel))
    return [(r.name, r.hash, r.counts.tolist()) for r in profile.records]


def _empty_name(rel: int) -> bytes:
    """The golden IR run of ``rel`` whose name table starts with an uncompressed chunk
    holding an empty name (``a``, ``""``, ``b``)."""
    data = bytearray((PROGRAMS / f"l{rel}-ir-vp" / "default.profraw").read_bytes())
    at = NAMES_AT[rel]
    data[at : at + 6] = b"\x04\x00a\x01\x01b"
    return bytes(data)


@pytest.mark.parametrize(
    ("rel", "bit"), [(13, 59), (13, 60), (13, 61), (13, 62), (13, 63), (14, 62), (14, 63)]
)
def test_a_flag_of_a_later_release_is_read_as_nothing(rel: int, bit: int) -> None:
    data = (V7 if rel == 13 else PROGRAMS / "l14-ir-vp" / "default.profraw").read_bytes()
    flagged = with_bit(data, bit)
    assert _records(flagged, rel) == _records(data, rel)
    kind = read_instr_bytes(flagged, "run.profraw", release=release(rel)).kind
    assert kind == read_instr_bytes(data, "run.profraw", release=release(rel)).kind


def test_14_knows_the_byte_coverage_flag_13_does_not() -> None:
    flagged = with_bit(V7.read_bytes(), 60)
    assert read_instr_bytes(flagged, "run.profraw", release=release(13)).records
    with pytest.raises(MalformedError):  # counters of one byte: the names start elsewhere
        read_instr_bytes(flagged, "run.profraw", release=release(14))


def test_13_merges_a_front_end_input_with_the_cs_flag_as_front_end(
    tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    path = tmp_path / "fecs.profraw"
    path.write_bytes(with_bit(V7.read_bytes(), 57))
    for rel, flags in ((13, ProfileKind.FRONTEND), (14, ProfileKind.CS)):
        out = tmp_path / f"l{rel}.profdata"
        assert run_profdata(f"--llvm-release={rel}", "merge", "-o", str(out), str(path)).code == 0
        word = int.from_bytes(out.read_bytes()[8:16], "little")
        assert ProfileKind.from_version_word(word) == flags


@pytest.mark.parametrize(("rel", "detail"), [(14, False), (16, False), (19, True), (22, True)])
def test_merge_words_an_input_that_fails_to_open(rel: int, detail: bool) -> None:
    with pytest.raises(MalformedError) as caught:
        read_instr_bytes(_empty_name(rel), "bad.profraw", release=release(rel))
    assert caught.value.opening
    message = input_failure("bad.profraw", caught.value, release(rel)).message
    name = "symbol" if rel >= 19 else "function"
    expected = f": {name} name is empty" if detail else ""
    assert message == f"malformed instrumentation profile data{expected}"


@pytest.mark.parametrize("rel", [14, 16])
def test_a_second_profile_that_fails_keeps_the_detail(rel: int) -> None:
    good = (PROGRAMS / f"l{rel}-ir-vp" / "default.profraw").read_bytes()
    with pytest.raises(MalformedError) as caught:
        read_instr_bytes(good + _empty_name(rel), "two.profraw", release=release(rel))
    assert not caught.value.opening
    message = input_failure("two.profraw", caught.value, release(rel)).message
    assert message == "malformed instrumentation profile data: function name is empty"


@pytest.mark.parametrize("bit", [57, 59, 60, 61, 62, 63])
def test_13_flags_as_the_real_tool(
    bit: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    path, good = tmp_path / "flagged.profraw", tmp_path / "good.profraw"
    path.write_bytes(with_bit(V7.read_bytes(), bit))
    good.write_bytes(V7.read_bytes())
    commands = [
        ["show", "--all-functions", "--counts", str(path)],
        ["merge", "-o", "@OUT", str(path)],
        ["merge", "--text", "-o", "@OUT", str(path)],
        ["merge", "-o", "@OUT", str(good), str(path)],
    ]
    assert not differing(llvm_profdata(13), 13, commands, run_profdata, tmp_path)


@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_an_input_that_fails_to_open_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    good_bytes = (PROGRAMS / f"l{rel}-ir-vp" / "default.profraw").read_bytes()
    bad, good, two = (tmp_path / n for n in ("bad.profraw", "good.profraw", "two.profraw"))
    bad.write_bytes(_empty_name(rel))
    good.write_bytes(good_bytes)
    two.write_bytes(good_bytes + _empty_name(rel))
    commands = [
        ["show", "--all-functions", "--counts", str(bad)],
        ["merge", "-o", "@OUT", str(bad)],
        ["merge", "--failure-mode=all", "-o", "@OUT", str(bad), str(good)],
        ["merge", "-o", "@OUT", str(two)],
    ]
    tool = llvm_profdata(rel)
    assert not differing(tool, rel, commands, run_profdata, tmp_path, stderr="first")


# -- the MemProf flag (bit 62): an empty MemProf section in each release's schema ---------------


@pytest.mark.parametrize(("rel", "fields"), [(15, 19), (16, 25)])
def test_a_memprof_flag_writes_the_schema_of_the_release(
    rel: int, fields: int, tmp_path: Path, run_profdata: Callable[..., CliResult]
) -> None:
    """15's ``MIBEntryDef.inc`` has 19 fields; 16 added the six access densities."""
    path, out = tmp_path / "memprof.profraw", tmp_path / "out.profdata"
    path.write_bytes(with_bit((PROGRAMS / "l14-ir-vp" / "default.profraw").read_bytes(), 62))
    assert run_profdata(f"--llvm-release={rel}", "merge", "-o", str(out), str(path)).code == 0
    data = out.read_bytes()
    memprof_at = int.from_bytes(data[40:48], "little")  # v8/v9 header: MemProfOffset
    section = data[memprof_at:]
    assert int.from_bytes(section[24:32], "little") == fields  # after the three offsets
    ids = [int.from_bytes(section[32 + 8 * i : 40 + 8 * i], "little") for i in range(fields)]
    assert ids == list(range(1, fields + 1))


@pytest.mark.parametrize("rel", [15, 16])
def test_a_memprof_flag_as_the_real_tool(
    rel: int,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    path = tmp_path / "memprof.profraw"
    path.write_bytes(with_bit((PROGRAMS / "l14-ir-vp" / "default.profraw").read_bytes(), 62))
    commands = [["merge", "-o", "@OUT", str(path)], ["show", "--all-functions", str(path)]]
    assert not differing(llvm_profdata(rel), rel, commands, run_profdata, tmp_path)
