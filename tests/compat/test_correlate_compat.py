"""Correlation against the real tools, built fresh: clang R, then llvm-profdata R vs profdata.

``tests/golden/correlate/prog.c`` (and ``prog_cxx.cc``, with ``-mllvm
-disable-vp``, see there) is compiled by the clang of release R with
``-profile-correlate=debug-info`` and ``=binary`` and run twice; the real
``llvm-profdata`` of R and ``profdata --llvm-release=R`` merge the two
lightweight raw profiles with the binary, and must write the same bytes;
for debug info, ``show --debug-info --show-format=yaml`` must print the same
probes.  The goldens in ``tests/golden/correlate`` pin one build; this
catches what a build on another machine (other paths, other clang patch
release) would change.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import GOLDEN, CliResult

pytestmark = pytest.mark.compat

SOURCES = {"c": GOLDEN / "correlate" / "prog.c", "cxx": GOLDEN / "correlate" / "prog_cxx.cc"}
FLAGS = {
    "debug-info": ("--debug-info", ["-mllvm", "-profile-correlate=debug-info"]),
    "binary": ("--binary-file", ["-mllvm", "-profile-correlate=binary"]),
}
CASES = [
    (22, "debug-info", "c"), (22, "binary", "c"), (19, "debug-info", "c"), (19, "binary", "c"),
    (22, "debug-info", "cxx"), (22, "binary", "cxx"),
]  # fmt: skip


def _build(release: int, mode: str, language: str, where: Path) -> Path:
    cxx = language == "cxx"
    clang = tools.find_clang(release, cxx)
    if clang is None or tools.find_llvm_profdata(release) is None:
        pytest.skip(f"clang/llvm-profdata {release} is not installed")
    source = SOURCES[language]
    shutil.copy(source, where / source.name)
    binary = where / "prog"
    flags = [*FLAGS[mode][1], *(["-mllvm", "-disable-vp"] if cxx else [])]
    subprocess.run(
        [str(clang), "-O1", "-g", "-fprofile-generate", *flags, source.name, "-o", "prog"],
        cwd=where, check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    for run, arg in ((1, "9"), (2, "150")):
        env = dict(os.environ, LLVM_PROFILE_FILE=str(where / f"prog.{run}.profraw"))
        subprocess.run([str(binary), arg], env=env, check=True, capture_output=True, timeout=60)
    return binary


@pytest.mark.parametrize(
    ("release", "mode", "language"), CASES, ids=[f"l{r}-{m}-{lang}" for r, m, lang in CASES]
)
def test_merge_with_binary_matches_llvm(
    release: int,
    mode: str,
    language: str,
    tmp_path: Path,
    run_profdata: Callable[..., CliResult],
) -> None:
    binary = _build(release, mode, language, tmp_path)
    option = f"{FLAGS[mode][0]}={binary}"
    raws = [str(tmp_path / "prog.1.profraw"), str(tmp_path / "prog.2.profraw")]
    real = tmp_path / "real.profdata"
    tool = tools.find_llvm_profdata(release)
    assert tool is not None
    done = tools.run_tool(tool, ["merge", option, *raws, "-o", str(real)])
    assert done.returncode == 0, done.stderr
    ours = tmp_path / "ours.profdata"
    result = run_profdata(f"--llvm-release={release}", "merge", option, *raws, "-o", str(ours))
    assert result.code == 0, result.stderr
    assert ours.read_bytes() == real.read_bytes()
    if mode == "debug-info":
        shown = tools.run_tool(tool, ["show", option, "--show-format=yaml"])
        result = run_profdata(f"--llvm-release={release}", "show", option, "--show-format=yaml")
        assert result.stdout == shown.stdout
