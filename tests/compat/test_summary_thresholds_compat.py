"""libLLVM's ``--profile-summary-cutoff-hot``/``-cold`` and ``--profile-summary-hot-count``/
``-cold-count`` (global options every subcommand takes) against the real llvm-profdata.

They move ``ProfileSummaryBuilder``'s hot and cold count thresholds: the hot
blocks of ``overlap --sample``, the instrumentation ``show --hot-func-list`` (22),
and which contexts ``merge --sample --sample-trim-cold-context`` and
``--sample-merge-cold-context`` call cold.  The cutoff is a ``cl::opt<int>``
(passed on as ``uint64_t``: a negative one is past every entry and LLVM aborts;
profdata refuses it with an error); the counts are ``int`` in 14 and ``uint64_t``
from 15 on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.model.summary import ProfileSummary, SummaryEntry, SummaryThresholds
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

RELEASES = [14, 16, 19, 22]
BASE = b"main:5000:10\n 1: 2000\n 2: 1500\n 3: 900 foo:900\n 4: 400\n 5: 150\n 6: 40\n 7: 10\n"
TEST = b"main:5200:12\n 1: 2100\n 2: 1400\n 3: 950 foo:950\n 4: 380\n 5: 160\n 6: 30\n 7: 12\n"

HOT = (
    (),
    ("--profile-summary-cutoff-hot=500000",),
    ("--profile-summary-cutoff-hot", "0x10"),
    ("-profile-summary-cutoff-hot=999999",),
    ("--profile-summary-hot-count=600",),
    ("--profile-summary-hot-count=1000", "--profile-summary-cutoff-hot=10000"),
)


@pytest.fixture
def samples(tmp_path: Path) -> tuple[Path, Path]:
    base, test = tmp_path / "base.txt", tmp_path / "test.txt"
    base.write_bytes(BASE)
    test.write_bytes(TEST)
    return base, test


@pytest.mark.parametrize("options", HOT, ids=" ".join)
@pytest.mark.parametrize("rel", RELEASES)
def test_overlap_hot_blocks(
    rel: int,
    options: tuple[str, ...],
    samples: tuple[Path, Path],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    args = ["overlap", "--sample", *options, *map(str, samples)]
    same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
    assert real.returncode == 0 and b"hot blocks" in real.stdout
    assert same


@pytest.mark.parametrize("options", HOT, ids=" ".join)
def test_instr_hot_func_list(
    options: tuple[str, ...],
    llvm_test_inputs: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    profile = llvm_test_inputs / "llvm-19" / "basic.proftext"
    args = ["show", "--hot-func-list", *options, str(profile)]
    same, real = compare_with_tool(llvm_profdata(22), 22, args, run_profdata, tmp_path)
    assert real.returncode == 0
    assert same


COLD = (
    (),
    ("--profile-summary-cutoff-cold=500000",),
    ("--profile-summary-cutoff-cold=990000",),
    ("--profile-summary-cold-count=1000",),
    ("--profile-summary-cold-count=0",),
)


@pytest.mark.parametrize("trim", ["--sample-trim-cold-context", "--sample-merge-cold-context"])
@pytest.mark.parametrize("options", COLD, ids=" ".join)
@pytest.mark.parametrize("rel", RELEASES)
def test_cold_contexts(
    rel: int,
    options: tuple[str, ...],
    trim: str,
    llvm_test_inputs: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    profile = llvm_test_inputs / "llvm-19" / "cs-sample.proftext"
    args = ["merge", "--sample", "--text", trim, *options, str(profile), "-o", "@OUT"]
    same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
    assert real.returncode == 0
    assert same


@pytest.mark.parametrize(
    "value", ["abc", "-", "+5", "99999999999", "1.5"], ids=lambda v: v or "empty"
)
@pytest.mark.parametrize("option", ["--profile-summary-cutoff-hot", "--profile-summary-hot-count"])
@pytest.mark.parametrize("rel", RELEASES)
def test_values_llvm_refuses(
    rel: int,
    option: str,
    value: str,
    samples: tuple[Path, Path],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    args = ["overlap", "--sample", f"{option}={value}", *map(str, samples)]
    tool = llvm_profdata(rel)
    same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path, stderr="first")
    wide_count = value == "99999999999" and option.endswith("count") and rel > 14  # uint64_t
    assert real.returncode == (0 if wide_count else 1)
    assert same


@pytest.mark.parametrize("rel", RELEASES)
def test_a_negative_count(
    rel: int,
    samples: tuple[Path, Path],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    """14's ``int`` count takes -1 (2**64-1 as the threshold: no hot block); 15 on refuse it."""
    args = ["overlap", "--sample", "--profile-summary-hot-count=-1", *map(str, samples)]
    tool = llvm_profdata(rel)
    same, real = compare_with_tool(tool, rel, args, run_profdata, tmp_path, stderr="first")
    assert real.returncode == (0 if rel == 14 else 1)
    assert same


@pytest.mark.parametrize("cutoff", ["-5", "1000000"])
def test_a_cutoff_past_the_last_entry(
    cutoff: str, samples: tuple[Path, Path], run_profdata: Callable[..., CliResult]
) -> None:
    """LLVM aborts ("Desired percentile exceeds the maximum cutoff", a crash report);
    profdata names it in a one-line error."""
    got = run_profdata(
        "overlap", "--sample", f"--profile-summary-cutoff-hot={cutoff}", *map(str, samples)
    )
    assert got.code == 1
    assert got.stderr.startswith(b"error: Desired percentile exceeds the maximum cutoff\n")
    assert f"no cutoff at or above {cutoff}".encode() in got.stderr


def test_the_thresholds() -> None:
    entries = tuple(SummaryEntry(c, m, 1) for c, m in ((500000, 900), (990000, 40), (999999, 10)))
    summary = ProfileSummary(detailed=entries)
    assert (SummaryThresholds().hot(summary), SummaryThresholds().cold(summary)) == (40, 10)
    assert SummaryThresholds(cutoff_hot=600000).hot(summary) == 40  # the next entry up
    assert SummaryThresholds(cutoff_hot=-5).hot(summary) is None  # as uint64_t: past all
    assert SummaryThresholds(hot_count=7).hot(summary) == 7
    assert SummaryThresholds(cutoff_cold=1000000, cold_count=7).cold(summary) is None
