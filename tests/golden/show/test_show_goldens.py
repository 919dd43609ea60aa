"""``profdata show`` against the stdout of the real llvm-profdata 14/16/19/22 (make_goldens.py).

Each case replays one recorded run in-process with ``--llvm-release`` of the
recording tool and wants the same bytes and exit status; for runs the tool
refused because of an option, the refusal's key words must be on stderr too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult

HERE = Path(__file__).resolve().parent
CASES: list[dict[str, Any]] = json.loads((HERE / "cases.json").read_text())["cases"]


def _argv(case: dict[str, Any]) -> list[str]:
    *options, source = case["args"]
    return [f"--llvm-release={case['llvm']}", *options, str(HERE / source)]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_show_matches_llvm_profdata(
    case: dict[str, Any], run_profdata: Callable[..., CliResult]
) -> None:
    result = run_profdata(*_argv(case))
    assert result.stdout == (HERE / case["stdout"]).read_bytes()
    assert result.code == case["exit"]
    if case["exit"]:
        first = case["stderr_first_line"]
        key = first.split(": ", 1)[1] if first.startswith("llvm-profdata show: ") else first
        key = key.removeprefix("error: ").split(".  Try:")[0]
        assert key in result.stderr.decode("utf-8", "replace")


def test_goldens_cover_every_release_and_option_refusal() -> None:
    releases = {c["llvm"] for c in CASES}
    refused = {c["id"].split("/")[1] for c in CASES if c["exit"]}
    assert releases == {14, 16, 19, 22}
    assert {"all-vtables", "traces", "version", "format-text", "format-yaml"} <= refused
