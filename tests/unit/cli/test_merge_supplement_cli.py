"""The CLI glue of ``merge --supplement-instr-with-sample`` (cli/merge_supplement.py).

The option values are parsed as ``cl::opt<float>``/``<unsigned>`` parse
them (``strtod`` taking the whole text; 32-bit unsigned); a release without
the mode refuses its options; an empty sample file name is no supplement.
Runs against the real tool's output are in tests/golden/supplement.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.cli._options import uint32
from profdata.cli.merge_supplement import c_float
from tests.conftest import CliResult

INPUTS = Path(__file__).resolve().parents[2] / "golden" / "supplement" / "inputs"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.5", 0.5),
        (" \t0.5", 0.5),
        ("", 0.0),
        ("1e400", math.inf),
        ("-1e400", -math.inf),
        ("0x10", 16.0),
        ("0x.8p0", 0.5),
        ("-0X1P-1", -0.5),
        ("INFINITY", math.inf),
        ("1.", 1.0),
        (".5e1", 5.0),
    ],
)
def test_float_values_strtod_reads_whole(text: str, value: float) -> None:
    assert c_float(text) == value


@pytest.mark.parametrize("text", ["nan", "NaN(0x1)"])
def test_nan_is_a_value(text: str) -> None:
    assert math.isnan(c_float(text))


@pytest.mark.parametrize("text", ["abc", "1e", "0x", "  ", "0.5 ", "1_0", ".", "0.5f", "٣"])
def test_float_values_strtod_stops_early_on_are_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="floating point argument"):
        c_float(text)


def test_unsigned_values_are_32_bit() -> None:
    assert uint32("4294967295") == 4294967295
    for text in ("4294967296", "-1", "", "1.0", "٣"):
        with pytest.raises(argparse.ArgumentTypeError, match="uint argument"):
            uint32(text)


def test_release_11_does_not_know_the_option(
    run_profdata: Callable[..., CliResult], tmp_path: Path
) -> None:
    result = run_profdata(
        "--llvm-release=11", "merge",
        f"--supplement-instr-with-sample={INPUTS}/mix_sample.proftext",
        str(INPUTS / "mix_instr.proftext"), "-o", str(tmp_path / "out"),
    )  # fmt: skip
    assert result.code == 1
    assert b"Unknown command line argument '--supplement-instr-with-sample=" in result.stderr


def test_an_empty_sample_name_is_an_ordinary_merge(
    run_profdata: Callable[..., CliResult], tmp_path: Path
) -> None:
    plain, supplemented = tmp_path / "plain", tmp_path / "empty"
    mix = str(INPUTS / "mix_instr.proftext")
    assert run_profdata("merge", mix, mix, "-o", str(plain)).code == 0
    result = run_profdata(
        "merge", "--supplement-instr-with-sample=", mix, mix, "-o", str(supplemented)
    )
    assert result.code == 0
    assert supplemented.read_bytes() == plain.read_bytes()
