"""``profdata order`` against the real llvm-profdata 19 and 22 (make_golden.sh).

The program (gen_program.py: 400 functions in overlapping phases, static
functions of the same name in two files) ran 10 times under clang-N's
temporal instrumentation; the merged indexed and text profiles and one raw
profile are ordered by llvm-profdata N.  323 traced functions make balanced
partitioning recurse about nine levels, and the two releases order them
differently (``Release.order_split_sorts``), so both are checked.  The bad
inputs replay the real tools' stdout, exit status and stderr lines.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult

HERE = Path(__file__).resolve().parent
BAD = HERE / "bad"

#: (expected output, arguments) per release folder
PROGRAM_CASES = [
    ("order.txt", ["merged.profdata"]),
    ("order-test3.txt", ["--num-test-traces=3", "merged.profdata"]),
    ("order-text.txt", ["merged.proftext"]),
    ("order-raw.txt", ["run1.profraw"]),
]
BAD_CASES = sorted(p.stem for p in BAD.glob("*.args"))


@pytest.mark.parametrize("release", [19, 22])
@pytest.mark.parametrize(("expected", "args"), PROGRAM_CASES, ids=[c[0] for c in PROGRAM_CASES])
def test_program_order_matches_llvm(
    release: int,
    expected: str,
    args: list[str],
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = HERE / f"l{release}"
    monkeypatch.chdir(folder)
    result = run_profdata(f"--llvm-release={release}", "order", *args)
    assert result.code == 0
    assert result.stdout == (folder / expected).read_bytes()


def test_release_22_orders_a_release_19_profile(
    run_profdata: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(HERE / "l19")
    result = run_profdata("--llvm-release=22", "order", "merged.profdata")
    expected = (HERE / "l19" / "order-by22.txt").read_bytes()
    assert result.stdout == expected
    assert expected != (HERE / "l19" / "order.txt").read_bytes()


@pytest.mark.parametrize("release", [19, 22])
def test_output_file_matches_stdout(
    release: int,
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    folder = HERE / f"l{release}"
    monkeypatch.chdir(folder)
    target = tmp_path / "order.txt"
    result = run_profdata(
        f"--llvm-release={release}", "order", "-o", str(target), "merged.profdata"
    )
    assert (result.code, result.stdout, result.stderr) == (0, b"", b"")
    assert target.read_bytes() == (folder / "order.txt").read_bytes()


@pytest.mark.parametrize("release", [19, 22])
@pytest.mark.parametrize("name", BAD_CASES)
def test_bad_input_matches_llvm(
    release: int,
    name: str,
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(BAD / "inputs")
    args = (BAD / f"{name}.args").read_text().split()
    result = run_profdata(f"--llvm-release={release}", "order", *args)
    stem = f"{name}.l{release}"
    assert result.code == int((BAD / f"{stem}.rc").read_text())
    assert result.stdout == (BAD / f"{stem}.stdout").read_bytes()
    theirs = (BAD / f"{stem}.stderr").read_text().splitlines()
    ours = result.stderr.decode().splitlines()
    assert ours[: len(theirs)] == theirs
    assert "Traceback" not in result.stderr.decode()


def test_release_16_has_no_order_command(
    run_profdata: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(BAD / "inputs")
    result = run_profdata("--llvm-release=16", "order", "ten-traces.profdata")
    assert result.code == int((BAD / "no-order-command.l16.rc").read_text())
    assert result.stdout == b""
    assert result.stderr == (BAD / "no-order-command.l16.stderr").read_bytes()
