"""The replay harness the recorded-run goldens share (cases.json folders and the shared corpus).

Each golden folder records runs of the real llvm-profdata in ``cases.json``;
the tests replay them in-process with the recording release.  Loading,
replaying and the byte comparisons live here once so every folder checks its
runs the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SHARED, CliResult

CORPUS = SHARED / "corpus"

Case = dict[str, Any]
Result = dict[str, object]


def load_document(folder: Path) -> dict[str, Any]:
    """The whole ``cases.json`` of a golden folder (some hold more than the runs)."""
    document: dict[str, Any] = json.loads((folder / "cases.json").read_text())
    return document


def load_cases(folder: Path) -> list[Case]:
    cases: list[Case] = load_document(folder)["cases"]
    return cases


def corpus_checks(keep: Callable[[list[str]], bool]) -> list[Case]:
    """The shared corpus's checks whose arguments ``keep`` accepts; none when it is absent."""
    manifest = CORPUS / "manifest.json"
    if not manifest.is_file():
        return []
    return [
        check
        for case in json.loads(manifest.read_text())["cases"]
        for check in case["checks"]
        if keep(check["args"])
    ]


def replay_corpus_check(
    check: Case,
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Run a corpus check from the corpus folder, where its relative paths point."""
    monkeypatch.chdir(CORPUS)
    result = run_profdata(f"--llvm-release={check['llvm']}", *check["args"])
    assert result.code == check["exit"]
    assert result.stdout == (CORPUS / check["stdout"]).read_bytes()


def replay_case(
    case: Case,
    folder: Path,
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
    written: Path,
) -> None:
    """Replay a recorded run in the folder it ran in, its ``-o`` redirected to ``written``.

    stdout, exit status and the ``-o`` file must be LLVM's; each stderr line of
    the tool must be in ours, which adds located ``  detail:`` lines.
    """
    monkeypatch.chdir(folder)
    args = list(case["args"])
    if "writes" in case:
        args[args.index(case["writes"])] = str(written)
    result = run_profdata(f"--llvm-release={case['llvm']}", *args)
    assert result.stdout == (folder / case["stdout"]).read_bytes()
    assert result.code == case["exit"]
    if "output" in case:
        assert "writes" in case
        assert written.read_bytes() == (folder / case["output"]).read_bytes()
    ours = result.stderr.decode("utf-8", "replace")
    for line in (folder / case["stderr"]).read_text().splitlines():
        assert line in ours


@cache
def release_goldens(expected: Path, number: int) -> dict[str, dict[str, Result]]:
    """``expected/l<N>.json``: per input, per case, LLVM ``number``'s recorded result."""
    loaded: dict[str, dict[str, Result]] = json.loads((expected / f"l{number}.json").read_text())
    return loaded


def as_bytes(text: object) -> bytes:
    """A recorded stream; the JSON holds it as text that escapes the bytes not UTF-8."""
    assert isinstance(text, str)
    return text.encode("utf-8", "surrogateescape")
