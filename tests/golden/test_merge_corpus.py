"""Every instrumentation ``merge`` check of the shared corpus, run in-process.

The corpus holds what the real llvm-profdata 14/16/19/22 printed, exited with
and wrote (``shared/corpus/README.md``); each check here runs the same
arguments through ``profdata.cli.main`` in a scratch folder that links to the
corpus, and compares exit status, stdout, the stderr phrase and the written
bytes.  Sample-profile merges belong to another command and are left out.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SHARED, CliResult

CORPUS = SHARED / "corpus"


def _instr_merge_checks() -> list[Any]:
    manifest = CORPUS / "manifest.json"
    if not manifest.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"no corpus at {CORPUS}"))]
    params = []
    for case in json.loads(manifest.read_text())["cases"]:
        for check in case["checks"]:
            args = check["args"]
            if args[0] != "merge" or "--sample" in args:
                continue
            params.append(pytest.param(check, id=f"{case['id']}/{check['name']}"))
    return params


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder linking to every corpus entry, where outputs land under ``out/``."""
    root = tmp_path_factory.mktemp("corpus")
    for entry in CORPUS.iterdir():
        os.symlink(entry, root / entry.name)
    return root


@pytest.mark.parametrize("check", _instr_merge_checks())
def test_merge_check(
    check: dict[str, Any],
    scratch: Path,
    run_profdata: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(scratch)
    writes = check.get("writes")
    if writes:
        (scratch / writes).parent.mkdir(parents=True, exist_ok=True)
        (scratch / writes).unlink(missing_ok=True)
    got = run_profdata(f"--llvm-release={check['llvm']}", *check["args"])
    stderr = got.stderr.decode("utf-8", "replace")
    assert got.code == check["exit"], stderr
    assert got.stdout == (CORPUS / check["stdout"]).read_bytes()
    if check.get("stderr_contains"):
        assert check["stderr_contains"] in stderr
    if check.get("output"):
        assert writes
        assert (scratch / writes).read_bytes() == (CORPUS / check["output"]).read_bytes()
