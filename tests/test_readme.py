"""The README's commands and code do what it says.

The quick start is the first thing a new user runs, and CI must run the test
command the README documents (not a private variant), so both are read from
README.md itself rather than copied here.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

import pytest

from tests.conftest import REPO, CliResult

README = (REPO / "README.md").read_text()
EXAMPLE_CASE = REPO / "tests" / "golden" / "programs" / "l22-ir-vp"


def code_blocks(language: str, section: str | None = None) -> list[str]:
    text = README
    if section is not None:
        start = README.index(f"\n## {section}\n")
        end = README.find("\n## ", start + 1)
        text = README[start : end if end != -1 else None]
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.S | re.M)


def quick_start() -> tuple[list[str], list[str]]:
    """The two quick-start commands, each split at ``&&`` into (install, run)."""
    blocks = [b.strip() for b in code_blocks("sh", "Quick start")]
    assert len(blocks) == 2, blocks
    show, tests = (shlex.split(b.partition("&&")[2]) for b in blocks)
    return show, tests


def test_quick_start_example_is_the_golden_profile() -> None:
    examples = REPO / "src" / "profdata" / "examples"
    assert (examples / "vp.profraw").read_bytes() == (EXAMPLE_CASE / "default.profraw").read_bytes()
    assert (examples / "vp.profdata").read_bytes() == (
        EXAMPLE_CASE / "default.profdata"
    ).read_bytes()


def test_quick_start_show_prints_what_llvm_profdata_printed(
    run_profdata: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    show, _ = quick_start()
    assert show[:2] == ["profdata", "show"]
    monkeypatch.chdir(REPO)
    result = run_profdata(*show[1:])
    assert result.code == 0
    assert result.stdout == (EXAMPLE_CASE / "expected" / "show-indexed-counts.stdout").read_bytes()


def test_ci_runs_the_readme_test_command() -> None:
    _, tests = quick_start()
    whole = [b.strip() for b in code_blocks("sh", "Quick start")][1]
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    commands = [line.strip() for line in ci if line.strip() and not line.lstrip().startswith("#")]
    assert commands[-1] == whole
    assert (REPO / tests[0]).is_file()


def test_python_examples_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = code_blocks("python")
    assert blocks
    monkeypatch.chdir(REPO)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert out.startswith("raw 10 10\n")
