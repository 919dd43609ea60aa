"""Unit checks of ``profdata.ops.overlap_sample`` that the real-tool goldens cannot reach."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.errors import ProfdataError
from profdata.model.sample import FunctionSamples, LineLocation, SampleContext, SampleProfile
from profdata.model.sample_summary import summarize_profile
from profdata.ops.overlap_sample import (
    FUNC_NAME_COL,
    SampleOverlapOptions,
    func_sample_stats,
    overlap_sample,
    render_sample_text,
)
from profdata.releases import release
from tests.conftest import CliResult

U64 = (1 << 64) - 1
INPUTS = Path(__file__).resolve().parents[2] / "golden" / "sample_overlap" / "inputs"


def _profile(name: str, *samples: int, probe: bool = False) -> SampleProfile:
    fs = FunctionSamples(SampleContext(name))
    for line, count in enumerate(samples, start=1):
        fs.add_body_samples(LineLocation(line), count)
        fs.add_total_samples(count)
    profile = SampleProfile(is_probe_based=probe)
    profile.profiles[fs.context] = fs
    profile.summary = summarize_profile(profile)
    return profile


def test_function_sums_wrap_like_uint64() -> None:
    fs = _profile("f", U64, 5).profiles[SampleContext("f")]
    stats = func_sample_stats(fs, hot_threshold=5)
    assert (stats.sample_sum, stats.max_sample, stats.hot_block_count) == (4, U64, 2)


def test_long_names_are_padded_with_one_space_at_least() -> None:
    name = "n" * (FUNC_NAME_COL + 5)
    profile = _profile(name, 10, 20)
    result = overlap_sample(
        profile, profile, SampleOverlapOptions(release(22), value_cutoff=0),
        base_name="b", test_name="t",
    )  # fmt: skip
    row = render_sample_text(result).splitlines()[-1]
    assert row.startswith("100.00%        100.00%        100.00%")
    assert row.endswith(" " + name) and row.index(name) == FUNC_NAME_COL


def test_probe_mismatch_is_refused_with_llvm_message() -> None:
    with pytest.raises(ProfdataError) as info:
        overlap_sample(
            _profile("f", 1, probe=True), _profile("f", 1), SampleOverlapOptions(release(22)),
            base_name="b", test_name="t",
        )  # fmt: skip
    assert (
        info.value.headline() == "cannot compare probe-based profile with non-probe-based profile"
    )


def test_cli_similarity_cutoff_single_dash_and_output_file(
    run_profdata: Callable[..., CliResult], tmp_path: Path
) -> None:
    out = tmp_path / "o.txt"
    base, test = str(INPUTS / "inline_base.txt"), str(INPUTS / "inline_test.txt")
    result = run_profdata("overlap", "-sample", "-similarity-cutoff=990000", "-o", str(out),
                          base, test)  # fmt: skip
    assert result.code == 0 and result.stdout == b""
    text = out.read_text()
    assert text.startswith("Profile overlap information for base_profile: ")
    assert "Function-level details:" in text


def test_cli_json_is_instr_only(run_profdata: Callable[..., CliResult]) -> None:
    base = str(INPUTS / "inline_base.txt")
    result = run_profdata("overlap", "--sample", "--show-format=json", base, base)
    assert result.code == 1
    assert b"only supported for instrumentation profiles" in result.stderr
