"""Golden program profiles: real clang runs, real llvm-profdata outputs.

``tests/golden/programs`` is made by ``fixtures/make_fixtures.py``: every
fixture program built by clang 14/16/19/22 in every instrumentation mode, its
raw profile, the indexed and text profiles the real ``llvm-profdata`` of the
same release made from it, and the exact stdout / output files of ``show`` and
``merge`` runs.  Each check here replays one of those runs through
``profdata.cli.main`` with ``--llvm-release`` of the recording tool and wants
the same bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import profdata
from tests.conftest import CliResult

PROGRAMS = Path(__file__).resolve().parent / "programs"
MANIFEST: dict[str, Any] = json.loads((PROGRAMS / "manifest.json").read_text())
CASES: list[dict[str, Any]] = MANIFEST["cases"]
INPUT_KINDS = {".profraw": "raw", ".profdata": "indexed", ".proftext": "text"}

#: `merge` checks whose written file is compared; indexed outputs join when the writer lands.
MERGE_OUTPUT_KINDS = {"text"}

#: One shown record of `show --all-functions --counts`: name, hash, number of counters.
SHOWN_RECORD = re.compile(r"^  (.*):\n    Hash: 0x([0-9a-f]{16})\n    Counters: (\d+)\n", re.M)


def _checks(command: str) -> list[Any]:
    return [
        pytest.param(case["id"], check, id=f"{case['id']}/{check['name']}")
        for case in CASES
        for check in case["checks"]
        if check["args"][0] == command
        and (command != "merge" or check["output_kind"] in MERGE_OUTPUT_KINDS)
    ]


def _inputs(*kinds: str) -> list[Any]:
    return [
        pytest.param(case, path, id=path)
        for case in CASES
        for path in case["inputs"]
        if INPUT_KINDS[Path(path).suffix] in kinds
    ]


def _stdout_of(case: dict[str, Any], name: str) -> str | None:
    for check in case["checks"]:
        if check["name"] == name:
            return (PROGRAMS / str(check["stdout"])).read_text()
    return None


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Path]:
    """A working folder where the manifest's relative paths resolve, like check_manifest's."""
    monkeypatch.chdir(tmp_path)

    def link(case_id: str) -> Path:
        (tmp_path / case_id).symlink_to(PROGRAMS / case_id)
        (tmp_path / "out" / case_id).mkdir(parents=True)
        return tmp_path

    return link


def test_manifest_covers_every_release_and_input_kind() -> None:
    releases = {check["llvm"] for case in CASES for check in case["checks"]}
    kinds = {INPUT_KINDS[Path(p).suffix] for case in CASES for p in case["inputs"]}
    assert releases == {14, 16, 19, 22}
    assert kinds == {"raw", "indexed", "text"}
    for case in CASES:
        for path in case["inputs"]:
            assert (PROGRAMS / path).is_file(), path


@pytest.mark.parametrize(("case", "path"), _inputs("raw", "indexed", "text"))
def test_reader_sees_the_records_llvm_profdata_shows(case: dict[str, Any], path: str) -> None:
    """Names, hashes and counter counts in reader order.

    ``show`` of an IR profile lists only the records whose CS hash bit matches
    ``--showcs``, so CS records are compared with the ``--showcs`` run, which
    is recorded for the CS cases only (the others have no CS records).
    """
    kind = INPUT_KINDS[Path(path).suffix]
    profile = profdata.open_instr(PROGRAMS / path)
    runs = {False: f"show-{kind}-counts", True: f"show-{kind}-showcs"}
    if not profile.kind.is_ir:
        del runs[True]
    for cs, run in runs.items():
        shown = _stdout_of(case, run) or ("" if cs else None)
        assert shown is not None
        expected = [(n, int(h, 16), int(c)) for n, h, c in SHOWN_RECORD.findall(shown)]
        got = [
            (r.name, r.hash, len(r.counts))
            for r in profile.records
            if not profile.kind.is_ir or r.is_cs == cs
        ]
        assert got == expected


@pytest.mark.parametrize(("case", "path"), _inputs("raw", "indexed"))
def test_reader_binary_ids(case: dict[str, Any], path: str) -> None:
    shown = _stdout_of(case, f"show-{INPUT_KINDS[Path(path).suffix]}-binary-ids")
    assert shown is not None
    _, marker, ids = shown.partition("Binary IDs: \n")
    expected = ids.split() if marker else []
    assert [b.hex() for b in profdata.open_instr(PROGRAMS / path).binary_ids] == expected


@pytest.mark.parametrize(("case_id", "check"), _checks("show"))
def test_show(
    case_id: str,
    check: dict[str, Any],
    scratch: Callable[[str], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    scratch(case_id)
    result = run_profdata(f"--llvm-release={check['llvm']}", *check["args"])
    assert result.code == check["exit"], result.stderr.decode(errors="replace")
    assert result.text == (PROGRAMS / check["stdout"]).read_text()


@pytest.mark.parametrize(("case_id", "check"), _checks("merge"))
def test_merge_output(
    case_id: str,
    check: dict[str, Any],
    scratch: Callable[[str], Path],
    run_profdata: Callable[..., CliResult],
) -> None:
    root = scratch(case_id)
    result = run_profdata(f"--llvm-release={check['llvm']}", *check["args"])
    assert result.code == check["exit"], result.stderr.decode(errors="replace")
    assert result.stdout == (PROGRAMS / check["stdout"]).read_bytes()
    written = (root / check["writes"]).read_bytes()
    expected = (PROGRAMS / check["output"]).read_bytes()
    if check["output_kind"] == "text":
        assert written.decode("utf-8", "surrogateescape") == expected.decode(
            "utf-8", "surrogateescape"
        )
    assert written == expected
