"""``profdata overlap`` against the real llvm-profdata 14/16/19/22 (make_goldens.py, corpus).

Each golden case replays one recorded run in-process, from the folder the
tool ran in (overlap prints the paths it was given), with ``--llvm-release``
of the recording tool: stdout and exit status must be identical, and every
line the tool printed on stderr must be in ours (we add a located detail
line; command-line complaints name the program differently per release).
The corpus cases do the same for the shared corpus's instrumentation
overlap checks (skipped when the corpus is absent).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult
from tests.golden._cases import corpus_checks, load_cases, replay_corpus_check

HERE = Path(__file__).resolve().parent
CASES = load_cases(HERE)
CORPUS_CASES = corpus_checks(lambda args: args[0] == "overlap" and "--sample" not in args)


def _key_phrase(line: str) -> str:
    """A stderr line without the program name and the ``See:`` tail that differ per release."""
    for prefix in ("llvm-profdata overlap: ", "llvm-profdata: "):
        line = line.removeprefix(prefix)
    return line.split(" See: ")[0]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_overlap_matches_llvm_profdata(
    case: dict[str, Any],
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(HERE)
    result = run_profdata(f"--llvm-release={case['llvm']}", *case["args"])
    assert result.stdout == (HERE / case["stdout"]).read_bytes()
    assert result.code == case["exit"]
    ours = result.stderr.decode("utf-8", "replace")
    for line in (HERE / case["stderr"]).read_text().splitlines():
        assert _key_phrase(line) in ours


def test_goldens_cover_releases_and_outcomes() -> None:
    ids = {c["id"] for c in CASES}
    assert {c["llvm"] for c in CASES} == {14, 16, 19, 22}
    assert {"vt/r19", "vt/r22", "zero-base/r14", "err-garbage/r22"} <= ids
    zero = [c for c in CASES if c["id"].startswith("zero-")]
    assert all(c["exit"] == 0 and not (HERE / c["stdout"]).read_bytes() for c in zero)
    typos = dict.fromkeys((14, 16, 19, 22), 0)
    for c in CASES:
        typos[c["llvm"]] += (HERE / c["stdout"]).read_bytes().count(b"overlap infomation")
    assert typos[22] == 0
    assert min(typos[14], typos[16], typos[19]) > 0


@pytest.mark.skipif(not CORPUS_CASES, reason="shared corpus not found")
@pytest.mark.parametrize(
    "check", CORPUS_CASES, ids=[f"{c['args'][-2].split('/')[0]}/{c['name']}" for c in CORPUS_CASES]
)
def test_corpus_overlap(
    check: dict[str, Any],
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    replay_corpus_check(check, run_profdata, monkeypatch)
