"""``profdata overlap`` command line: spellings, values, refusals, errors, -o, JSON.

Expected texts are llvm-profdata's (goldens of ``tests/golden/overlap``, made
by the real tools, run from that folder) or the wording llvm-profdata prints on
stderr for the same arguments.  Runs chdir to the golden folder because
overlap prints the paths it was given.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.cli import USAGE
from profdata.formats import text as text_format
from profdata.model.instr import InstrProfile
from profdata.model.kinds import ProfileKind
from tests.conftest import CliResult
from tests.unit.formats.test_partial_reads import foo_claims_1000_counters

OVERLAP = Path(__file__).resolve().parents[2] / "golden" / "overlap"
BASE = "inputs/ir_base.proftext"
TEST = "inputs/ir_test.proftext"

Run = Callable[..., CliResult]


def golden(case: str, number: int = 22) -> bytes:
    return (OVERLAP / "expected" / f"{case}.r{number}.stdout").read_bytes()


@pytest.fixture
def run(run_profdata: Run, monkeypatch: pytest.MonkeyPatch) -> Run:
    monkeypatch.chdir(OVERLAP)
    return run_profdata


def test_overlap_is_a_listed_command(run: Run) -> None:
    assert "  overlap  " in USAGE
    result = run("overlap", BASE, TEST)
    assert (result.code, result.stdout) == (0, golden("ir"))


@pytest.mark.parametrize(
    "argv",
    [
        ["--value-cutoff=0", BASE, TEST],
        ["-value-cutoff=0", BASE, TEST],
        ["--value-cutoff", "0", BASE, TEST],
        ["-value-cutoff", "0x0", BASE, TEST],
        [BASE, TEST, "--value-cutoff=0b0", "--instr"],
    ],
)
def test_llvm_spellings_of_values(run: Run, argv: list[str]) -> None:
    result = run("overlap", *argv)
    assert (result.code, result.stdout) == (0, golden("ir-cutoff-0"))


@pytest.mark.parametrize("value", ["010", "0o10", "0X8", "8"])
def test_value_cutoff_senses_the_radix_as_llvm_does(run: Run, value: str) -> None:
    assert run("overlap", f"--value-cutoff={value}", BASE, TEST).stdout == golden("ir-cutoff-octal")


@pytest.mark.parametrize("value", ["1_000", " 5", "", "-1", "0x", "09", "18446744073709551616"])
def test_value_cutoff_refuses_what_llvm_refuses(run: Run, value: str) -> None:
    result = run("overlap", f"--value-cutoff={value}", BASE, TEST)
    assert (result.code, result.stdout) == (1, b"")
    assert result.stderr.decode() == (
        f"llvm-profdata: for the --value-cutoff option: '{value}' "
        "value invalid for ullong argument!\n"
    )


def test_flags_take_llvm_boolean_values(run: Run) -> None:
    assert run("overlap", "-cs=false", BASE, TEST).stdout == golden("ir")
    assert run("overlap", "--cs=0", "-function=oo", BASE, TEST).stdout == golden("ir-function")


def test_response_file(run: Run, tmp_path: Path) -> None:
    rsp = tmp_path / "args.rsp"
    rsp.write_text(f"--function=du --value-cutoff=5\n{BASE} {TEST}\n")
    assert run("overlap", f"@{rsp}").stdout == golden("ir-function-cutoff")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([BASE], "Not enough positional command line arguments specified!"),
        ([BASE, TEST, TEST], "Too many positional arguments specified!"),
        ([], "Must specify at least 2 positional arguments"),
    ],
)
def test_positional_arguments(run: Run, argv: list[str], message: str) -> None:
    result = run("overlap", *argv)
    assert (result.code, result.stdout) == (1, b"")
    assert message in result.stderr.decode()
    assert not result.stderr.startswith(b"error: ")


def test_instr_profiles_are_no_sample_profiles(run: Run) -> None:
    """With --sample the inputs are read as sample profiles, as llvm-profdata 22 reads them."""
    result = run("overlap", "--sample", "--similarity-cutoff=990000", BASE, TEST)
    assert (result.code, result.stdout) == (1, b"")
    assert b"Unrecognized sample profile encoding format" in result.stderr
    later = run("overlap", "--sample", "--instr", "--similarity-cutoff", "5", BASE, TEST)
    assert (later.code, later.stdout) == (0, golden("ir"))


def test_unknown_options_are_refused(run: Run) -> None:
    result = run("overlap", "--bogus", BASE, TEST)
    assert result.code == 1 and result.stdout == b""
    assert b"Unknown command line argument '--bogus'" in result.stderr


def test_release_decides_the_header(run: Run) -> None:
    for number in (14, 16, 19, 22):
        result = run(f"--llvm-release={number}", "overlap", "--value-cutoff=0", BASE, TEST)
        assert result.stdout == golden("ir-cutoff-0", number)


def test_base_merge_warnings_go_to_stderr(run: Run) -> None:
    result = run("overlap", BASE, TEST)
    assert result.stderr.decode() == (
        "inputs/ir_base.proftext: dup: function basic block count change detected "
        "(counter mismatch)\n"
        "Make sure that all profile data to be merged is generated from the same binary.\n"
    )


def test_output_file(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "overlap.txt"
    result = run("overlap", "-o", str(out), BASE, TEST)
    assert (result.code, result.stdout) == (0, b"")
    assert out.read_bytes() == golden("ir")
    result = run("overlap", f"--output={out}", "--value-cutoff=0", BASE, TEST)
    assert out.read_bytes() == golden("ir-cutoff-0")


def test_unwritable_output(run: Run, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "out.txt"
    result = run("overlap", "-o", str(target), BASE, TEST)
    assert result.code == 1
    assert f"error: {target}: No such file or directory" in result.stderr.decode()


def test_zero_sum_is_empty_on_a_pipe_with_a_note(run: Run, tmp_path: Path) -> None:
    result = run("overlap", "inputs/zero.proftext", TEST)
    assert (result.code, result.stdout) == (0, golden("zero-base"))
    assert result.stdout == b""
    assert result.stderr == b"note: Sum of edge counts for profile inputs/zero.proftext is 0.\n"
    out = tmp_path / "o.txt"
    assert run("overlap", "-o", str(out), TEST, "inputs/zero.proftext").code == 0
    assert out.read_bytes() == b""


def test_zero_sum_reaches_a_terminal(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    result = run("overlap", TEST, "inputs/zero.proftext")
    assert result.stdout == b"Sum of edge counts for profile inputs/zero.proftext is 0.\n"
    assert result.stderr == b""


@pytest.mark.parametrize(
    ("argv", "case"),
    [
        (["missing.profdata", TEST], "err-missing-base"),
        ([BASE, "missing.profdata"], "err-missing-test"),
        (["inputs/empty.proftext", TEST], "err-empty"),
        ([BASE, "inputs/garbage.bin"], "err-garbage"),
        ([BASE, "inputs/."], "err-directory"),
    ],
)
def test_unreadable_inputs(run: Run, argv: list[str], case: str) -> None:
    result = run("overlap", *argv)
    assert (result.code, result.stdout) == (1, b"")
    llvm_lines = (OVERLAP / "expected" / f"{case}.r22.stderr").read_text().splitlines()
    ours = result.stderr.decode().splitlines()
    assert ours[: len(llvm_lines)] == llvm_lines
    assert ours[len(llvm_lines)].startswith("  detail: ")


def test_records_before_a_malformed_one_are_overlapped(run: Run, tmp_path: Path) -> None:
    """llvm-profdata overlaps what its reader read before the bad record and exits 0 (seen
    with 14 and 22); so do we, with a warning that says what was passed over."""
    text = (OVERLAP / "inputs" / "malformed_late.proftext").read_text()
    good_part = tmp_path / "good_part.proftext"
    good_part.write_text(text[: text.index("broken")])
    result = run("overlap", "inputs/malformed_late.proftext", TEST)
    alone = run("overlap", str(good_part), TEST)
    assert (result.code, alone.code) == (0, 0)
    assert result.stdout.splitlines()[1:] == alone.stdout.splitlines()[1:]
    first, detail = result.stderr.decode().splitlines()
    assert first.startswith("warning: inputs/malformed_late.proftext: malformed instrumentation")
    assert detail.startswith("  detail: ")


def test_corrupt_indexed_records_are_passed_over_with_their_offset(
    run: Run, tmp_path: Path
) -> None:
    """An indexed base whose record of "foo" claims 1000 counters: llvm-profdata 14 and 22
    overlap the records before it and exit 0 (checked by hand); so do we, with a warning."""
    corrupt, count_at, before = foo_claims_1000_counters(tmp_path)
    part = tmp_path / "before_foo.proftext"
    part.write_bytes(text_format.write(InstrProfile(kind=ProfileKind.IR, records=before)))
    result = run("overlap", str(corrupt), TEST)
    alone = run("overlap", str(part), TEST)
    assert (result.code, alone.code) == (0, 0)
    named = result.stdout.replace(str(corrupt).encode(), b"BASE")
    assert named == alone.stdout.replace(str(part).encode(), b"BASE")
    first, detail = result.stderr.decode().splitlines()
    assert first.startswith(f"warning: {corrupt}: malformed instrumentation profile data")
    assert f"offset {count_at}" in detail


def test_json_extra(run: Run) -> None:
    result = run("overlap", "--show-format=json", "--value-cutoff=0", BASE, TEST)
    assert result.code == 0
    document = json.loads(result.stdout)
    assert document["schema"] == "profdata.overlap.instr/1"
    assert document["base_profile"] == BASE and document["test_profile"] == TEST
    assert [f["name"] for f in document["functions"]] == ["foo", "big", "dup"]
    text = golden("ir-cutoff-0").decode()
    assert f"Edge profile overlap: {100 * document['program']['edge']['overlap']:.3f}%" in text
    zero = run("overlap", "--show-format=json", "inputs/zero.proftext", TEST)
    assert json.loads(zero.stdout)["zero_sum_profile"] == "inputs/zero.proftext"
    assert zero.stderr == b""


def test_json_extra_is_refused_in_other_spellings(run: Run) -> None:
    result = run("overlap", "--show-format=yaml", BASE, TEST)
    assert result.code == 1 and result.stdout == b""
