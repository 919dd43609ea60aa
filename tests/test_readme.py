"""The README's commands and code do what it says.

The quick start is the first thing a new user runs, and CI must run the test
command the README documents (not a private variant), so both are read from
README.md itself rather than copied here.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path

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


def quick_start() -> tuple[list[list[str]], list[str]]:
    """The two quick-start blocks: the commands after the install, and the test command."""
    blocks = [b.strip() for b in code_blocks("sh", "Quick start")]
    assert len(blocks) == 2, blocks
    steps = [shlex.split(step) for step in blocks[0].split("&&")[1:]]
    return steps, shlex.split(blocks[1].partition("&&")[2])


def test_quick_start_example_is_the_golden_profile() -> None:
    examples = REPO / "src" / "profdata" / "examples"
    assert (examples / "vp.profraw").read_bytes() == (EXAMPLE_CASE / "default.profraw").read_bytes()
    assert (examples / "vp.profdata").read_bytes() == (
        EXAMPLE_CASE / "default.profdata"
    ).read_bytes()


def test_quick_start_merges_what_llvm_profdata_wrote_and_shows_it(
    run_profdata: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """merge writes llvm-profdata 22's bytes, cmp compares exactly those, show prints them."""
    merge, compare, show = quick_start()[0]
    assert (
        merge[:2] == ["profdata", "merge"]
        and compare[0] == "cmp"
        and show[:2]
        == [
            "profdata",
            "show",
        ]
    )
    output = merge[merge.index("-o") + 1]
    assert compare[1:] == [output, "src/profdata/examples/vp.profdata"]
    for arg in [*merge[2:], compare[2], *show[2:]]:
        if arg != output and not arg.startswith("-") and arg != "-o":
            (tmp_path / arg).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / arg).write_bytes((REPO / arg).read_bytes())
    monkeypatch.chdir(tmp_path)
    assert run_profdata(*merge[1:]).code == 0
    assert (tmp_path / compare[1]).read_bytes() == (tmp_path / compare[2]).read_bytes()
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
