"""``merge --sample`` op: weights, per-profile warnings, failure modes, writer refusals.

The live tests run the real llvm-profdata on the same inputs (``compat``).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import SampleTextSyntaxError, UnrecognizedFormatError, UsageError, WriteError
from profdata.formats import sample_text
from profdata.model.sample import LineLocation, SampleContext
from profdata.ops.merge_inputs import FailureMode, InputFailure, WeightedFile
from profdata.ops.merge_sample import (
    CS_MISMATCH,
    PROBE_MISMATCH,
    SYMBOL_LIST_LOST,
    SampleMergeOptions,
    SampleOutputOptions,
    SampleRecordWarning,
    check_writable,
    default_output_format,
    encode_sample,
    merge_samples,
    writer_warnings,
)
from profdata.releases import release

R22 = release(22)
PROBE_A = b"main:10:0\n 1: 5\n !CFGChecksum: 5\n"
PROBE_B = b"main:10:0\n 1: 5\n !CFGChecksum: 6\nfoo:3:0\n !CFGChecksum: 1\n"
NESTED = b"a:10:0\n 1: 2 b:3\n 2: a:4\n  1: 4\n  !Attributes: 1\nb:3:0\n 1: 1\n"


def write(tmp: Path, name: str, data: bytes) -> WeightedFile:
    path = tmp / name
    path.write_bytes(data)
    return WeightedFile(str(path))


def test_weights_scale_everything(tmp_path: Path) -> None:
    a = write(tmp_path, "a.txt", NESTED)
    result = merge_samples([a, WeightedFile(a.path, 3)], SampleMergeOptions(R22))
    fs = result.profile.profiles[SampleContext("a")]
    assert fs.total_samples == 40
    assert fs.body_samples[LineLocation(1, 0)].call_targets == {"b": 12}
    assert fs.callsite_samples[LineLocation(2, 0)]["a"].attributes == 1
    assert result.diagnostics == []


def test_checksum_mismatch_is_a_warning_and_the_merge_goes_on(tmp_path: Path) -> None:
    inputs = [write(tmp_path, "p1.txt", PROBE_A), write(tmp_path, "p2.txt", PROBE_B)]
    result = merge_samples(inputs, SampleMergeOptions(R22))
    warning = result.diagnostics[0]
    assert isinstance(warning, SampleRecordWarning)
    assert warning.text() == f"{inputs[1].path}: main: Function hash mismatch"
    assert [fs.name for fs in result.profile.sorted_profiles()] == ["main", "foo"]
    assert result.profile.profiles[SampleContext("main")].total_samples == 10


def test_probe_and_cs_inputs_cannot_mix(tmp_path: Path) -> None:
    probe = write(tmp_path, "p.txt", PROBE_A)
    plain = write(tmp_path, "n.txt", NESTED)
    cs = write(tmp_path, "c.txt", b"[a:1 @ b]:1:0\n 1: 1\n")
    with pytest.raises(UsageError, match=PROBE_MISMATCH):
        merge_samples([probe, plain], SampleMergeOptions(R22))
    with pytest.raises(UsageError, match=CS_MISMATCH):
        merge_samples([plain, cs], SampleMergeOptions(R22))


def test_failure_modes(tmp_path: Path) -> None:
    empty = write(tmp_path, "e.txt", b"")
    bad = write(tmp_path, "b.txt", b"main:1:0\n 2 3\n")
    good = write(tmp_path, "g.txt", NESTED)
    with pytest.raises(UnrecognizedFormatError):
        merge_samples([good, empty], SampleMergeOptions(R22))
    result = merge_samples([empty, good], SampleMergeOptions(R22, FailureMode.ALL))
    failure = result.diagnostics[0]
    assert isinstance(failure, InputFailure)
    assert failure.message == "Unrecognized sample profile encoding format"
    with pytest.raises(SampleTextSyntaxError):  # a diagnosed error exits in every mode
        merge_samples([good, bad], SampleMergeOptions(R22, FailureMode.WARN))


def test_remapping_renames_and_drops_checksums(tmp_path: Path) -> None:
    data = b"a:10:0\n 1: 2 b:3\n 2: a:4\n  1: 4\n  !CFGChecksum: 7\n !CFGChecksum: 7\n"
    src = write(tmp_path, "r.txt", data)
    options = SampleMergeOptions(R22, remapping={"a": "x", "b": "y"})
    merged = merge_samples([src], options).profile
    assert encode_sample(merged, "text") == (
        b"x:10:0\n 1: 2 y:3\n 2: x:4\n  1: 4\n  !CFGChecksum: 0\n !CFGChecksum: 0\n"
    )


def test_writer_refusals_and_warnings(tmp_path: Path) -> None:
    cs = sample_text.read(b"[a:1 @ b]:1:0\n 1: 1\n", None, R22)
    with pytest.raises(WriteError) as caught:
        check_writable("binary", cs, "out.afdo")
    assert caught.value.headline() == (
        "out.afdo: Profile encoding format unsupported for writing operations"
    )
    with pytest.raises(WriteError):
        check_writable("gcc", sample_text.read(NESTED, None, R22), "out")
    plain = sample_text.read(NESTED, None, R22)
    plain.symbol_list = ("s",)
    opts = SampleOutputOptions(compress_all_sections=True, use_md5=True)
    assert writer_warnings("text", plain, opts) == [
        SYMBOL_LIST_LOST,
        "-compress-all-section is ignored. Specify -extbinary to enable it",
        "-use-md5 is ignored. Specify -extbinary to enable it",
    ]
    assert writer_warnings("extbinary", plain, opts) == []
    assert (default_output_format(release(16)), default_output_format(R22)) == (
        "binary",
        "extbinary",
    )


def test_prof_sym_list_file(tmp_path: Path) -> None:
    listing = tmp_path / "syms"
    listing.write_bytes(b"foo\n  bar \n\n\nbaz\n")
    src = write(tmp_path, "n.txt", NESTED)
    merged = merge_samples([src], SampleMergeOptions(R22, prof_sym_list=str(listing))).profile
    assert sorted(merged.symbol_list or ()) == ["bar", "baz", "foo"]


@pytest.mark.compat
@pytest.mark.parametrize("number", [14, 16, 19, 22])
@pytest.mark.parametrize("output_format", ["text", "binary"])
def test_weighted_multi_input_merge_matches_llvm(
    number: int,
    output_format: str,
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
) -> None:
    tool = llvm_profdata(number)
    a = write(tmp_path, "a.txt", NESTED)
    b = write(tmp_path, "b.txt", b"b:7:2\n 1: 3 a:1\n 3: c:4\n  2: 4\nc:9:1\n 1: 9\n")
    out = tmp_path / "out"
    subprocess.run(
        [tool, "merge", "--sample", f"--{output_format}", a.path,
         f"--weighted-input=5,{b.path}", f"--weighted-input=2,{a.path}", "-o", out],
        check=True,
    )  # fmt: skip
    inputs = [a, WeightedFile(b.path, 5), WeightedFile(a.path, 2)]
    merged = merge_samples(inputs, SampleMergeOptions(release(number))).profile
    ours = encode_sample(merged, output_format, release=release(number))
    assert ours == out.read_bytes()
