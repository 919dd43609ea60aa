"""libLLVM's ``--profile-summary-contextless`` (a global option every subcommand takes)
against the real llvm-profdata 14, 16, 19 and 22.

``computeSummaryForProfiles`` merges a CS profile's contexts by leaf function
before summarising it unless the option is given as false; given as true, it
merges any profile by name, which leaves a non-CS one as it is.  The summary
it changes is the one the text reader computes (``show --detailed-summary``,
``overlap``'s hot blocks), the one the binary writers put in their files, and
the one ``--sample-trim-cold-context`` takes its cold threshold from.  The
binary readers keep the summary their file holds.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

RELEASES = [14, 16, 19, 22]
OPTIONS = (
    (),
    ("--profile-summary-contextless=false",),
    ("--profile-summary-contextless",),
    ("-profile-summary-contextless=true",),
    ("--profile-summary-contextless=0", "--profile-summary-contextless=1"),
)

#: contexts of one leaf function (foo) that the default summary merges into one
#: function, so the count histogram, block count and function count all change
CS_BASE = b"""[main:3 @ foo]:1000:10
 1: 500
 2: 400 bar:400
 3: 100
[main:5 @ foo]:800:8
 1: 300
 2: 500
[main:7 @ baz:2 @ foo]:90:3
 1: 60
 4: 30
[main]:200:5
 1: 150
 3: 50 foo:20
[bar]:60:6
 1: 60
"""
CS_TEST = b"""[main:3 @ foo]:900:10
 1: 450
 2: 350 bar:350
 3: 100
[main:5 @ foo]:700:8
 1: 200
 2: 500
[main]:260:5
 1: 200
 3: 60 foo:20
[bar]:40:6
 1: 40
"""
FLAT = b"main:5000:10\n 1: 2000\n 2: 1500\n 3: 900 foo:900\n 4: 400\n 3: foo:900\n  1: 900\n"


@pytest.fixture
def profiles(tmp_path: Path) -> dict[str, str]:
    made = {}
    for name, text in (("cs_base", CS_BASE), ("cs_test", CS_TEST), ("flat", FLAT)):
        path = tmp_path / f"{name}.proftext"
        path.write_bytes(text)
        made[name] = str(path)
    return made


def _commands(rel: int, options: tuple[str, ...], p: dict[str, str]) -> list[list[str]]:
    opts = list(options)
    commands = []
    for name in p:
        commands += [
            ["merge", "--sample", "--extbinary", *opts, p[name], "-o", "@OUT"],
            ["show", "--sample", "--detailed-summary", *opts, p[name]],
        ]
    commands += [
        ["merge", "--sample", "--binary", *opts, p["flat"], "-o", "@OUT"],
        ["merge", "--sample", "--text", *opts, p["cs_base"], p["cs_test"], "-o", "@OUT"],
        ["merge", "--sample", "--extbinary", *opts, p["cs_base"], p["cs_test"], "-o", "@OUT"],
        ["overlap", "--sample", *opts, p["cs_base"], p["cs_test"]],
        ["merge", "--sample", "--extbinary", "--sample-trim-cold-context", "--text",
         "--profile-summary-cutoff-cold=900000", *opts, p["cs_base"], "-o", "@OUT"],
    ]  # fmt: skip
    if rel <= 16:
        commands.append(["merge", "--sample", "--compbinary", *opts, p["flat"], "-o", "@OUT"])
    return commands


@pytest.mark.parametrize("options", OPTIONS, ids=" ".join)
@pytest.mark.parametrize("rel", RELEASES)
def test_contextless_summary_as_llvm(
    rel: int,
    options: tuple[str, ...],
    profiles: dict[str, str],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    tool = llvm_profdata(rel)
    commands = _commands(rel, options, profiles)
    assert tools.differing(tool, rel, commands, run_profdata, tmp_path) == []


@pytest.mark.parametrize("rel", RELEASES)
def test_false_changes_the_summary_of_cs_profiles_only(
    rel: int,
    profiles: dict[str, str],
    llvm_profdata: Callable[[int], Path],
    tmp_path: Path,
) -> None:
    """The comparison above is not vacuous: the real tool's summaries differ."""
    tool = llvm_profdata(rel)

    def summary(path: str, *options: str) -> bytes:
        args = ["show", "--sample", "--detailed-summary", *options, path]
        return tools.run_tool_ok(tool, args).stdout

    off = "--profile-summary-contextless=false"
    cs = summary(profiles["cs_base"])
    assert b"Total functions: 3" in cs
    assert summary(profiles["cs_base"], off) != cs
    assert b"Total functions: 5" in summary(profiles["cs_base"], off)
    assert summary(profiles["flat"], off) == summary(profiles["flat"])


@pytest.mark.parametrize("rel", RELEASES)
def test_binary_readers_keep_the_files_summary(
    rel: int,
    profiles: dict[str, str],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    tool = llvm_profdata(rel)
    made = tmp_path / "cs.extbinary"
    args = ["merge", "--sample", "--extbinary", profiles["cs_base"], "-o", str(made)]
    tools.run_tool_ok(tool, args)
    for options in OPTIONS:
        args = ["show", "--sample", "--detailed-summary", *options, str(made)]
        same, _ = tools.compare_with_tool(tool, rel, args, run_profdata, tmp_path)
        assert same, options
