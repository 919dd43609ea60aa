"""Correlation goldens: lightweight raw profiles merged with their binary.

``tests/golden/correlate`` holds real clang 14/19/22 binaries built with
``-profile-correlate=debug-info``/``=binary`` (14: ``-debug-info-correlate``),
their raw profiles and what the real llvm-profdata 14/16/19/22 printed and
wrote for each run in ``cases.json`` (made by ``make_golden.py``).  Each run
is replayed through ``profdata.cli.main`` with ``--llvm-release`` of the
recording tool: the written profile, stdout, exit status and the first
stderr line must be the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult
from tests.golden.correlate.make_golden import patched

HERE = Path(__file__).resolve().parent / "correlate"
CASES: list[dict[str, Any]] = json.loads((HERE / "cases.json").read_text())["cases"]


def _without_details(stderr: bytes) -> str:
    """Our stderr minus the ``  detail:`` lines profdata adds under llvm-profdata's lines."""
    lines = stderr.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith("  detail: "))


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_correlate_case(
    case: dict[str, Any],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for arg in case["args"]:
        if arg.startswith("--debug-info=/") and not Path(arg.partition("=")[2]).exists():
            pytest.skip(f"{arg} does not exist on this machine")
    monkeypatch.chdir(HERE)
    out = tmp_path / "out"
    damaged = tmp_path / "damaged"
    if case["patch"] is not None:
        damaged.write_bytes(patched(case["patch"]))
    args = [a.replace("{out}", str(out)).replace("{patched}", str(damaged)) for a in case["args"]]
    result = run_profdata(f"--llvm-release={case['release']}", *args)
    assert result.code == case["exit"], result.stderr
    if case["output"] is not None:
        assert out.read_bytes() == (HERE / case["output"]).read_bytes()
    expected_stdout = (HERE / case["stdout"]).read_bytes() if case["stdout"] else b""
    assert result.stdout == expected_stdout
    assert _without_details(result.stderr).replace(str(damaged), "{patched}") == case["stderr"]


def test_every_error_is_located(
    run_profdata: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where llvm-profdata stops with an error, profdata also says where and why."""
    monkeypatch.chdir(HERE)
    failing = [c for c in CASES if c["exit"] and c["patch"] is None and "-o" not in c["args"]]
    assert failing
    for case in failing:
        result = run_profdata(f"--llvm-release={case['release']}", *case["args"])
        assert result.code == 1
        assert result.stderr.startswith(b"error: ")
