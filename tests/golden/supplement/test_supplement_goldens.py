"""``merge --supplement-instr-with-sample`` against the real llvm-profdata (make_goldens.py).

Every recorded run is replayed in-process with the recording release, in
this folder (so relative paths in messages match): the exit status, standard
output and the written profile (indexed or text) are byte-identical, and
standard error is line for line the tool's once our located ``  detail:``
lines are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult
from tests.golden._cases import load_cases

HERE = Path(__file__).resolve().parent
CASES = load_cases(HERE)
BY_ID = {case["id"]: case for case in CASES}


def _ours_without_detail(stderr: bytes) -> list[str]:
    lines = stderr.decode("utf-8", "replace").splitlines()
    return [line for line in lines if not line.startswith("  detail: ")]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_supplement_matches_llvm_profdata(
    case: dict[str, Any],
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(HERE)
    written = tmp_path / "out"
    args = [str(written) if arg == "OUT" else arg for arg in case["args"]]
    result = run_profdata(f"--llvm-release={case['llvm']}", "merge", *args)
    assert _ours_without_detail(result.stderr) == case["stderr"].splitlines()
    assert result.code == case["exit"]
    assert result.stdout.decode() == case["stdout"]
    if "output" in case:
        assert written.read_bytes() == (HERE / case["output"]).read_bytes()
    else:
        assert not written.exists()


def test_goldens_cover_the_release_differences() -> None:
    """The recorded runs show the behaviours the code tells apart by release."""

    def text(case_id: str) -> str:
        return (HERE / str(BY_ID[case_id]["output"])).read_text()

    hot = "18446744073709551615"
    warm = "18446744073709551614"
    # 14 sets every counter of a dropped function to -1; 16+ only the first (PseudoHot)
    assert text("mix-zero05-cold30-text/r14").count(hot) == 5 + 3
    assert text("mix-zero05-cold30-text/r22").count(hot) == 2
    # a warm function mostly zero gets PseudoWarm (16+); 14 knows only -1
    assert warm in text("cs-min0-text/r22")
    assert warm not in text("cs-min0-text/r14")
    # 14 scales a cold function down to three times the hot threshold; 16+ never scale down
    assert "\n15\n1\n" in text("scale-down-text/r14")
    assert "\n100\n7\n" in text("scale-down-text/r22")
    # local names are file:name in 16 and file;name from 18
    assert text("funique-colon-FUnique-NoFUnique-text/r16").count(hot) == 2
    assert text("funique-colon-FUnique-NoFUnique-text/r22").count(hot) == 1
    assert text("funique-semicolon-FUnique-NoFUnique-text/r22").count(hot) == 2
    # the order of the static-name warnings: 16's DenseMap, 19+'s StringMap
    assert BY_ID["many-dups-colon/r16"]["stderr"].count("multiple promoted names") == 40
    assert BY_ID["many-dups-semicolon/r22"]["stderr"].count("multiple promoted names") == 40
    assert BY_ID["overflow/r22"]["stderr"].count("warning: counter overflow") == 4
    assert BY_ID["overflow/r14"]["stderr"].count("warning: counter overflow") == 8
