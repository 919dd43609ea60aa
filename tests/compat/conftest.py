"""Programs the compat tests build with each release's clang, shared between modules."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import REPO

MANY_TARGETS = REPO / "fixtures" / "src" / "many_targets.c"
#: iterations, seed, span of targets, shift of targets: the runs share some targets only
MANY_TARGETS_RUNS = (("3000", "1", "300"), ("2000", "2", "150", "100"), ("5000", "3", "320"))


@pytest.fixture(scope="session")
def many_targets_runs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], list[Path]]:
    """``many_targets_runs(R)``: three raw profiles of ``many_targets.c`` built by clang R
    (cached), run with ``LLVM_VP_MAX_NUM_VALS_PER_SITE=255``: the call site records up
    to 255 of its 320 targets, and merges of the runs must cut it."""
    made: dict[int, list[Path]] = {}
    root = tmp_path_factory.mktemp("many-targets")

    def build(release: int) -> list[Path]:
        if release not in made:
            clang = tools.find_clang(release)
            if clang is None:
                pytest.skip(f"clang {release} is not installed in {tools.llvm_bin(release)}")
            where = root / str(release)
            where.mkdir()
            exe = where / "many_targets"
            subprocess.run(
                [str(clang), "-O2", "-fprofile-generate", str(MANY_TARGETS), "-o", str(exe)],
                check=True, capture_output=True, timeout=300,
            )  # fmt: skip
            files = []
            for index, args in enumerate(MANY_TARGETS_RUNS, 1):
                path = where / f"r{index}.profraw"
                env = {**os.environ, "LLVM_PROFILE_FILE": str(path)}
                env["LLVM_VP_MAX_NUM_VALS_PER_SITE"] = "255"
                subprocess.run([str(exe), *args], env=env, check=True, capture_output=True)
                files.append(path)
            made[release] = files
        return made[release]

    return build
