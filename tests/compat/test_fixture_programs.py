"""The golden program profiles can be rebuilt, byte for byte, from fixtures/src.

Goldens nobody can regenerate rot: this rebuilds one case with the recorded
clang and llvm-profdata and compares every file.  Raw profiles hold binary
ids and code addresses, so the check only means something with the exact
compiler build recorded in the manifest; with any other build it skips.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO

PROGRAMS = REPO / "tests" / "golden" / "programs"
CASE = "l22-ir-vp"


def files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.compat
@pytest.mark.slow
def test_rebuilding_a_case_gives_the_committed_files(
    tmp_path: Path, llvm_profdata: Callable[[int], Path]
) -> None:
    llvm_profdata(22)
    if shutil.which("clang-22") is None or shutil.which("setarch") is None:
        pytest.skip("clang-22 or setarch is not on PATH")
    recorded = json.loads((PROGRAMS / "manifest.json").read_text())["tools"]["22"]["clang"]
    banner = subprocess.run(["clang-22", "--version"], capture_output=True, text=True)
    if banner.stdout.splitlines()[:1] != [recorded]:
        pytest.skip(f"goldens were made by {recorded!r}")
    subprocess.run(
        [sys.executable, str(REPO / "fixtures" / "make_fixtures.py"), "--releases", "22",
         "--only", CASE, "--out", str(tmp_path / "out"), "--build", str(tmp_path / "build"),
         "--examples", str(tmp_path / "examples")],
        check=True, capture_output=True,
    )  # fmt: skip
    assert files_under(tmp_path / "out" / CASE) == files_under(PROGRAMS / CASE)
    assert files_under(tmp_path / "examples") == files_under(REPO / "src" / "profdata" / "examples")
