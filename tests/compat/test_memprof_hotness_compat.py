"""``merge --memprof-random-hotness`` against llvm-profdata 22: the same seed makes the same
allocation contexts cold, so the written profile is byte-identical.

LLVM seeds glibc's ``rand()`` once per writer context and draws ``rand() % 2`` for every
allocation site it adds; with one writer context (at most two inputs) that sequence is
deterministic, which is what these cases use (with more contexts LLVM's threads draw in
any order).  MemProf V4 stores the summary, which counts the cold contexts.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import GOLDEN, CliResult

pytestmark = pytest.mark.compat

YAML = GOLDEN / "memprof"
CASES = [
    (["deep.yaml"], 1, []),
    (["deep.yaml"], 4294967295, ["--memprof-version=4"]),
    (["show22.yaml"], 7, []),
    (["show22.yaml"], 12345, ["--memprof-version=4", "--memprof-full-schema"]),
    (["callee.yaml", "show22.yaml"], 99, ["--memprof-version=2"]),
]


@pytest.mark.parametrize(("inputs", "seed", "flags"), CASES)
def test_random_hotness_matches_llvm(
    inputs: list[str],
    seed: int,
    flags: list[str],
    tmp_path: Path,
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    tool = llvm_profdata(22)
    argv = [
        "merge", "--memprof-random-hotness", f"--memprof-random-hotness-seed={seed}", *flags,
        *(str(YAML / name) for name in inputs),
    ]  # fmt: skip
    real, ours = tmp_path / "real.profdata", tmp_path / "ours.profdata"
    done = tools.run_tool(tool, [*argv, "-o", str(real)])
    result = run_profdata(*argv, "-o", str(ours))
    assert (result.code, result.stderr) == (done.returncode, done.stderr)
    assert result.stderr == f"random hotness seed = {seed}\n".encode()
    assert ours.read_bytes() == real.read_bytes()
    plain = tmp_path / "plain.profdata"
    assert run_profdata("merge", *argv[3:], "-o", str(plain)).code == 0
    assert plain.read_bytes() != ours.read_bytes()  # the draw changed the profile
