"""``--generate-merged-base-profiles`` (a global libLLVM option) against the real
llvm-profdata: when a CS profile is nested (14/16's ``--gen-cs-nested-profile``, 17+'s
``--convert-sample-profile-layout=nest``), each context folded into its caller also
stays (merged) in its function's base profile.  Its default differs: ``cl::init(true)``
in 14, false from 15 on, so ``=false`` matters in 14 and the bare flag later.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.cli._options import LlvmArgumentParser
from profdata.releases import release
from tests.compat.tools import compare_with_tool
from tests.conftest import CliResult

OPTIONS = (
    (),
    ("--generate-merged-base-profiles",),
    ("--generate-merged-base-profiles=false",),
    ("-generate-merged-base-profiles=1",),
)


@pytest.mark.parametrize("output", ["text", "extbinary", "binary"])
@pytest.mark.parametrize("options", OPTIONS, ids=" ".join)
@pytest.mark.parametrize("rel", [14, 16, 19, 22])
def test_same_as_llvm(
    rel: int,
    options: tuple[str, ...],
    output: str,
    llvm_test_inputs: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    profile = llvm_test_inputs / "llvm-19" / "cs-sample.proftext"
    nest = "--gen-cs-nested-profile" if rel <= 16 else "--convert-sample-profile-layout=nest"
    args = ["merge", "--sample", f"--{output}", nest, *options, str(profile), "-o", "@OUT"]
    same, real = compare_with_tool(llvm_profdata(rel), rel, args, run_profdata, tmp_path)
    assert real.returncode == 0
    assert same


@pytest.mark.parametrize(
    ("words", "value"),
    [((), None), (("--generate-merged-base-profiles",), True),
     (("--generate-merged-base-profiles=false",), False),
     (("--generate-merged-base-profiles=0", "--generate-merged-base-profiles=1"), True)],
)  # fmt: skip
def test_false_is_told_from_absent(words: tuple[str, ...], value: bool | None) -> None:
    parser = LlvmArgumentParser(release=release(22))
    assert parser.parse_llvm_args(list(words)).generate_merged_base_profiles is value


def test_the_stand_in_for_false_cannot_be_typed(run_profdata: Callable[..., CliResult]) -> None:
    got = run_profdata("merge", "--sample", "--generate-merged-base-profiles\0false", "x")
    assert got.code == 1
    assert b"Unknown command line argument" in got.stderr
