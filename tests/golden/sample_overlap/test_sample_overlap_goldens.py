"""``profdata overlap --sample`` against the real llvm-profdata 14/16/19/22 (make_goldens.py).

Each case replays one recorded run in-process, from the folder the tool ran
in (overlap prints the paths it was given), with ``--llvm-release`` of the
recording tool: stdout, the ``-o`` file and the exit status must be
identical, and every line the tool printed on stderr must be in ours (we add
a located detail line).  The corpus's ``overlap --sample`` checks are
replayed the same way when the shared corpus is present.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult
from tests.golden._cases import corpus_checks, load_cases, replay_case, replay_corpus_check

HERE = Path(__file__).resolve().parent
CASES = load_cases(HERE)
CORPUS_CASES = corpus_checks(lambda args: args[:2] == ["overlap", "--sample"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_sample_overlap_matches_llvm_profdata(
    case: dict[str, Any],
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    replay_case(case, HERE, run_profdata, monkeypatch, tmp_path / "overlap.txt")


def test_goldens_cover_what_matters() -> None:
    """The recorded runs include rows of equal weight, every error and every input format."""
    by_id = {c["id"]: c for c in CASES}
    assert {c["llvm"] for c in CASES} == {14, 16, 19, 22}
    assert all(by_id[f"err-probe-mismatch/r{r}"]["exit"] == 1 for r in (14, 16, 19, 22))
    assert by_id["compbinary-text/r16"]["exit"] == 0
    assert by_id["compbinary-text/r19"]["exit"] == 1
    rows = (HERE / by_id["inline-cutoff-0/r22"]["stdout"]).read_text().splitlines()
    assert sum(line.startswith("0.00%") for line in rows) == 3
    zero = (HERE / by_id["llvm-zero-both/r22"]["stdout"]).read_text()
    assert zero.count("Sum of sample counts") == 2


@pytest.mark.skipif(not CORPUS_CASES, reason="shared corpus not found")
@pytest.mark.parametrize(
    "check", CORPUS_CASES, ids=[f"{c['args'][-2].split('/')[0]}/{c['name']}" for c in CORPUS_CASES]
)
def test_corpus_sample_overlap(
    check: dict[str, Any],
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    replay_corpus_check(check, run_profdata, monkeypatch)
