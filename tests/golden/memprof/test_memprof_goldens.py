"""MemProf in indexed profiles against real llvm-profdata 16/19/22 runs (make_goldens.py).

Each case of ``cases.json`` replays one recorded ``show --memory``, ``show``
or ``merge`` run in-process with the recording release and wants the same
stdout, exit status, first error line and (for merges) output bytes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected"
MANIFEST: dict[str, Any] = json.loads((HERE / "cases.json").read_text())
CASES: list[dict[str, Any]] = MANIFEST["cases"]


def _case_id(case: dict[str, Any]) -> str:
    args = [a for a in case["args"] if a not in ("-o", "OUT")]
    return f"l{case['release']}-" + "-".join(a.lstrip("-") for a in args)


@pytest.fixture
def in_golden_dir(tmp_path: Path) -> Iterator[Path]:
    """Run from the goldens' folder (cases name their inputs relatively, as recorded)."""
    cwd = os.getcwd()
    os.chdir(HERE)
    try:
        yield tmp_path
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("case", CASES, ids=[f"{i:03d}-{_case_id(c)}" for i, c in enumerate(CASES)])
def test_memprof_case_matches_llvm_profdata(
    case: dict[str, Any], run_profdata: Callable[..., CliResult], in_golden_dir: Path
) -> None:
    out = in_golden_dir / "out.profdata"
    args = [str(out) if a == "OUT" else a for a in case["args"]]
    result = run_profdata(f"--llvm-release={case['release']}", *args)
    assert result.code == case["exit"], result.stderr.decode()
    assert result.stdout == (EXPECTED / case["stdout"]).read_bytes()
    if case["exit"]:
        first = result.stderr.decode("utf-8", "replace").splitlines()[0]
        assert first == case["stderr_first_line"]
    if "output" in case:
        assert out.read_bytes() == (EXPECTED / case["output"]).read_bytes()


def test_goldens_cover_every_written_version() -> None:
    inputs = set(MANIFEST["inputs"])
    assert {"l16-vd", "l19-v0", "l19-v1", "l19-v2", "l19-v3", "l22-v2", "l22-v3"} <= inputs
    assert {"l22-v4", "l22-v4-full", "l19-v3-full"} <= inputs
    shows = [c for c in CASES if c["args"][:2] == ["show", "--memory"] and c["exit"] == 0]
    assert {c["args"][2].split("-")[1] for c in shows} >= {"v2", "v3", "v4"}
