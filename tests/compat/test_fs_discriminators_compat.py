"""``--profile-isfs`` and ``--fs-discriminator-pass`` against the real llvm-profdata.

Both are global options every subcommand of 14-22 takes.  The first makes the
text, binary and compact binary readers take a profile as FS-AFDO (the
ext-binary writer then sets the summary section's ``fs-discriminator`` flag);
the second zeroes the discriminator bits of later passes in every profile taken
as FS, summing the lines that then meet.  Which reader ran last decides the
output's flag: a text or binary input after an FS ext-binary one clears it
(without ``--profile-isfs``), a GCC one leaves it.  Found while looking at a
fuzz difference (14's "Did you mean '--profile-isfs'?").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.formats.sample_fs import discriminator_mask
from profdata.formats.sample_reading import SampleReading, apply_reading
from profdata.formats.sample_text import read as read_text
from profdata.model.sample import LineLocation
from profdata.releases import release
from tests.compat.tools import compare_with_tool, run_tool_ok
from tests.conftest import CliResult

#: discriminators whose bits lie in the base (0-7), pass 1 (8-13) and later passes; lines
#: 3.65536 and 3.0 meet under Base and Pass1, 1.300 becomes 1.44 under Base, and so on
TEXT = b"""foo:1000:10
 1.300: 500
 2.2: 500
 3.65536: 7
 3.0: 9
 4.257: 3 bar:3
 4.1: 2 baz:4
 5.1: foo:100
  1.513: 100
 5.16385: foo:40
  1.1: 40
main:600:6
 1.1048576: 300
 1: 300
"""
PLAIN = b"zzz:100:1\n 1.4096: 100\n"

SHOW_OPTIONS = (
    (),
    ("--profile-isfs",),
    ("--fs-discriminator-pass=Base",),
    ("--profile-isfs", "--fs-discriminator-pass=Base"),
    ("--profile-isfs", "--fs-discriminator-pass=Pass1"),
    ("--profile-isfs", "--fs-discriminator-pass", "Pass2"),
)


@pytest.fixture
def files(
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    llvm_test_inputs: Path,
    request: pytest.FixtureRequest,
) -> dict[str, Path]:
    """The text profile and what the real tool of the test's release makes of it: binary,
    ext-binary with and without the FS flag; a plain text profile; LLVM's GCC profile."""
    tool = llvm_profdata(request.node.callspec.params["rel"])
    text, plain = tmp_path / "fs.txt", tmp_path / "plain.txt"
    text.write_bytes(TEXT)
    plain.write_bytes(PLAIN)
    made = {"text": text, "plain": plain}
    for name, extra in (("binary", ("--binary",)), ("ext", ("--extbinary",))):
        made[name] = tmp_path / f"fs.{name}"
        run_tool_ok(tool, ["merge", "--sample", *extra, str(text), "-o", str(made[name])])
    made["fsext"] = tmp_path / "fs.fsext"
    args = [
        "merge",
        "--sample",
        "--extbinary",
        "--profile-isfs",
        str(text),
        "-o",
        str(made["fsext"]),
    ]
    run_tool_ok(tool, args)
    made["gcc"] = llvm_test_inputs / "llvm-16" / "gcc-sample-profile.gcov"
    return made


RELEASES = [14, 16, 19, 22]


@pytest.mark.parametrize("options", SHOW_OPTIONS, ids=" ".join)
@pytest.mark.parametrize("kind", ["text", "binary", "ext", "fsext"])
@pytest.mark.parametrize("rel", RELEASES)
def test_show(
    rel: int,
    kind: str,
    options: tuple[str, ...],
    files: dict[str, Path],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    tool = llvm_profdata(rel)
    for extra in ((), ("--detailed-summary",), ("--function=foo",)):
        args = ["show", "--sample", *extra, *options, str(files[kind])]
        same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert real.returncode == 0
        assert same, args


#: inputs in order, then options: which reader runs last decides the FS flag
MERGES = (
    ("fsext", "plain"),
    ("plain", "fsext"),
    ("fsext", "binary"),
    ("fsext", "gcc"),
    ("gcc", "fsext"),
    ("fsext", "ext"),
    ("text", "--profile-isfs"),
    ("binary", "--profile-isfs"),
    ("ext", "--profile-isfs"),
    ("gcc", "--profile-isfs"),
    ("text", "fsext", "--fs-discriminator-pass=Base"),
    ("text", "plain", "--profile-isfs", "--fs-discriminator-pass=Pass1"),
)


@pytest.mark.parametrize("output", ["extbinary", "binary", "text"])
@pytest.mark.parametrize("merge", MERGES, ids=" ".join)
@pytest.mark.parametrize("rel", RELEASES)
def test_merge(
    rel: int,
    merge: tuple[str, ...],
    output: str,
    files: dict[str, Path],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    words = [str(files[w]) if w in files else w for w in merge]
    args = ["merge", "--sample", f"--{output}", *words, "-o", "@OUT"]
    same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
    assert real.returncode == 0
    assert same


@pytest.mark.parametrize("options", SHOW_OPTIONS[2:], ids=" ".join)
@pytest.mark.parametrize("rel", RELEASES)
def test_overlap(
    rel: int,
    options: tuple[str, ...],
    files: dict[str, Path],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    tool = llvm_profdata(rel)
    for pair in (("text", "fsext"), ("text", "ext"), ("fsext", "binary")):
        args = ["overlap", "--sample", "--similarity-cutoff=1000000", *options]
        args += [str(files[name]) for name in pair]
        same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert real.returncode == 0
        if pair == ("text", "ext") and "--profile-isfs" in options:  # one side masked
            assert b"Function-level details" in real.stdout
        assert same, pair


@pytest.mark.parametrize("rel", RELEASES)
def test_a_pass_llvm_does_not_know(
    rel: int,
    files: dict[str, Path],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    args = ["show", "--sample", "--fs-discriminator-pass=Pass4", str(files["text"])]
    tool = llvm_profdata(rel)
    same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path, stderr="first")
    assert real.returncode == 1
    assert same


def test_the_masks_of_the_passes() -> None:
    """``getN1Bits(getFSPassBitEnd(P))``: 8 base bits, 6 a pass, the last pass all 32."""
    masks = [discriminator_mask(number) for number in range(5)]
    assert masks == [0xFF, 0x3FFF, 0xFFFFF, 0x3FFFFFF, 0xFFFFFFFF]


def test_lines_that_meet_are_summed() -> None:
    profile = read_text(TEXT, "fs.txt", release(22))
    apply_reading(profile, SampleReading(True, 0), release(22))
    assert profile.is_fs
    foo = next(fs for fs in profile.profiles.values() if fs.name == "foo")
    assert foo.body_samples[LineLocation(3, 0)].samples == 16
    assert foo.body_samples[LineLocation(1, 44)].samples == 500
    record = foo.body_samples[LineLocation(4, 1)]
    assert (record.samples, record.call_targets) == (5, {"bar": 3, "baz": 4})
    inlined = foo.callsite_samples[LineLocation(5, 1)]["foo"]  # 5.1 and 5.16385 meet
    assert inlined.total_samples == 140
    assert inlined.body_samples[LineLocation(1, 1)].samples == 140
    # the text reader's summary is taken after the mask: 6 lines (10 before), the same sum
    assert profile.summary is not None
    assert (profile.summary.num_counts, profile.summary.total_count) == (6, 1021 + 140 + 600)
    assert profile.summary.max_count == 600  # main's 1 and 1.1048576 met
