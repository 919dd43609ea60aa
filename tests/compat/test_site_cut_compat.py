"""Value sites cut to 255 values by real merges: profdata against the real llvm-profdata.

``fixtures/src/many_targets.c`` calls 320 functions through one pointer
table (and copies memory of 400 sizes, a memop site beside it).  Run with
``LLVM_VP_MAX_NUM_VALS_PER_SITE=255`` the runtime records up to 255 targets
at the call, and runs with other seeds and spans record other ones, so every
merge below has to cut the site to 255 entries after some merge, as LLVM
does -- with two writer contexts, with weights (a value new to a site comes in
unscaled), and sparse.  The synthetic tests of the fast merge cover the rule;
these hold it to the real tool on the profiles clang's runtime writes, for
each release (raw v8 from clang 14 and 16, v10 from 19 and 22).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.byte_diff import first_difference
from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

_DISPATCH = re.compile(r"(?:^|[;:])dispatch$")  # the function's line in ``show``
RELEASES = (14, 16, 19, 22)
MERGES = {
    "two": ["r1", "r2"],
    "all": ["r1", "r2", "r3"],
    "contexts": ["--num-threads=2", "r1", "r2", "r3", "r1"],
    "weighted": ["--weighted-input=3,r1", "r2", "--weighted-input=2,r3"],
    "sparse": ["--sparse", "r3", "r1"],
}


@pytest.mark.parametrize("text", [False, True], ids=["indexed", "text"])
@pytest.mark.parametrize("merge", sorted(MERGES))
@pytest.mark.parametrize("release", RELEASES)
def test_merges_that_cut_sites_match_llvm_profdata(
    tmp_path: Path,
    many_targets_runs: Callable[[int], list[Path]],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    release: int,
    merge: str,
    text: bool,
) -> None:
    tool = llvm_profdata(release)
    files = many_targets_runs(release)
    named = {f"r{index}": path for index, path in enumerate(files, 1)}
    args = tools.named_args(MERGES[merge], named) + (["--text"] if text else [])
    theirs, ours = tmp_path / "llvm.out", tmp_path / "profdata.out"
    tools.run_tool_ok(tool, ["merge", *args, "-o", str(theirs)])
    result = run_profdata(f"--llvm-release={release}", "merge", *args, "-o", str(ours))
    assert result.code == 0, result.stderr
    expected, got = theirs.read_bytes(), ours.read_bytes()
    assert got == expected, first_difference(expected, got)


@pytest.mark.parametrize("release", RELEASES)
def test_the_merges_do_cut_and_show_alike(
    tmp_path: Path,
    many_targets_runs: Callable[[int], list[Path]],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    release: int,
) -> None:
    """The runs together name more than 255 targets at the call site, the merge keeps
    255; ``show`` of the merged profile prints what the real tool prints."""
    tool = llvm_profdata(release)
    files = many_targets_runs(release)
    merged = tmp_path / "merged.profdata"
    tools.run_tool_ok(tool, ["merge", *map(str, files), "-o", str(merged)])
    flags = ["--all-functions", "--ic-targets", "--memop-sizes"]
    union: set[str] = set()
    for path in files:
        union |= _targets(tools.run_tool_ok(tool, ["show", *flags, str(path)]).stdout.decode())
    kept = _targets(tools.run_tool_ok(tool, ["show", *flags, str(merged)]).stdout.decode())
    assert len(union) > 255 and len(kept) == 255 and kept < union
    for show in (flags, [*flags, "--counts", "--function=dispatch"], ["--detailed-summary"]):
        expected = tools.run_tool_ok(tool, ["show", *show, str(merged)]).stdout
        result = run_profdata(f"--llvm-release={release}", "show", *show, str(merged))
        assert result.code == 0, result.stderr
        assert result.stdout == expected, first_difference(expected, result.stdout)


def _targets(shown: str) -> set[str]:
    """The targets ``show --ic-targets`` lists under ``dispatch`` (``[ site, name, count ]``
    lines; a static function is ``PATH;NAME``, before LLVM 19 ``PATH:NAME``)."""
    targets: set[str] = set()
    inside = False
    for line in shown.splitlines():
        if line.startswith("  ") and not line.startswith("   ") and line.rstrip().endswith(":"):
            inside = _DISPATCH.search(line.strip()[:-1]) is not None
        elif inside and line.strip().startswith("["):
            targets.add(line.split(",")[1].strip())
    return targets
