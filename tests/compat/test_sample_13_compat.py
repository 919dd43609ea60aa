"""LLVM 13's sample profiles, against llvm-profdata 13.

13 keeps sample profiles in a ``StringMap`` keyed by the name with its context,
writes CS contexts as ``[...]`` strings into the name table (14 added the CS
name table), lays out six ext-binary sections, keeps FuncMetadata for top-level
profiles only and breaks TotalSamples ties by name descending.  Before this was
modelled, ``--llvm-release=13 merge --sample --extbinary`` wrote 14's layout,
which llvm-profdata 13 (and so clang 13) refuses as malformed or crashes on,
and 13's own CS files could not be read.  Each case must give llvm-profdata
13's exit status, stdout and output bytes; and what we write, 13 must read.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

#: CS contexts (one base, one with a leaf location), probes, attributes, a tie
CS = """\
[main:3 @ foo]:200:0
 1: 100
 2: 100 bar:50
 !CFGChecksum: 7
[main:4 @ foo]:120:10
 1: 60
 !CFGChecksum: 7
 !Attributes: 2
[main]:500:5
 3: 200 foo:200
 4: 120 foo:120
 !CFGChecksum: 123
[zed:1 @ foo:2]:120:3
 5: 120
 !CFGChecksum: 7
"""
#: probe-based with an inlinee (13 writes no inlinee metadata, reads no inlinee
#: checksum), ties by name
PROBES = """\
main:500:5
 3: 200 foo:200
 4: 120
 5: foo:30:3
  1: 30
 !CFGChecksum: 123
alpha:40:1
 1: 40
 !CFGChecksum: 5
beta:40:1
 2: 40
 !CFGChecksum: 6
"""
#: plain, with ties whose order the StringMap and the name sort decide
PLAIN = "".join(f"f{i}:{100 if i % 3 else 50}:1\n 1: 9\n 2.1: 4 g{i}:4\n" for i in range(12))

PROFILES = {"cs": CS, "probes": PROBES, "plain": PLAIN}
WRITES = [
    ["--extbinary"],
    ["--extbinary", "--use-md5"],
    ["--extbinary", "--compress-all-sections"],
    ["--extbinary", "--gen-partial-profile"],
    ["--text"],
    ["--binary"],
]
SHOWS = [
    [],
    ["--all-functions", "--counts"],
    ["--detailed-summary"],
    ["--hot-func-list"],
    ["--topn=2"],
    ["--show-sec-info-only"],
]


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_13_writes_and_reads_as_llvm_profdata_13_and_reads_ours(
    name: str,
    tmp_path: Path,
    run_profdata: Callable[..., CliResult],
    llvm_profdata: Callable[[int], Path],
) -> None:
    tool = llvm_profdata(13)
    text = tmp_path / f"{name}.txt"
    text.write_text(PROFILES[name])
    commands = [["merge", "--sample", *flags, str(text), "-o", "@OUT"] for flags in WRITES]
    commands += [["show", "--sample", *flags, str(text)] for flags in SHOWS[:5]]
    commands.append(["overlap", "--sample", str(text), str(text)])
    if name == "cs":
        commands += [
            ["merge", "--sample", "--text", *cold, str(text), "-o", "@OUT"]
            for cold in (["--sample-merge-cold-context"], ["--sample-trim-cold-context"])
        ]
    # what 13 wrote, read back by us (its CS files carry contexts as bracketed names)
    for flags in WRITES[:4]:
        written = tmp_path / f"{name}{len(flags)}{flags[-1]}.prof"
        made = tools.run_tool(tool, ["merge", "--sample", *flags, str(text), "-o", str(written)])
        assert made.returncode == 0, made.stderr
        commands += [["show", "--sample", *show, str(written)] for show in SHOWS]
        commands.append(["merge", "--sample", "--text", str(written), "-o", "@OUT"])
    differ = tools.differing(tool, 13, commands, run_profdata, tmp_path)
    assert not differ, "; ".join(differ)
    # the user's case: an ext-binary profile for clang 13, checked by 13's own reader
    ours = tmp_path / "ours.extbinary"
    done = run_profdata(
        "--llvm-release=13", "merge", "--sample", "--extbinary", str(text), "-o", str(ours)
    )
    assert done.code == 0
    own = tmp_path / "theirs.extbinary"
    made = tools.run_tool(tool, ["merge", "--sample", "--extbinary", str(text), "-o", str(own)])
    assert made.returncode == 0, made.stderr
    theirs = tools.run_tool(tool, ["show", "--sample", "--all-functions", str(own)])
    shown = tools.run_tool(tool, ["show", "--sample", "--all-functions", str(ours)])
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == theirs.stdout
