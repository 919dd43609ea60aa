"""Raw runs and indexed profiles of one binary in one merge, against the real llvm-profdata.

The incremental merge -- an indexed profile from earlier runs merged with
new raw runs -- maps the indexed profile's records onto the raw runs' shape
(or the other way round) and keeps every input on the fast path
(``formats/crossed_runs``).  The program is ``fixtures/src/many_targets.c``
(``conftest.many_targets_runs``): its call site holds up to 255 of 320
targets in each run, so the mixes also cut sites, with weights and two
writer contexts; text profiles are mapped onto the raw runs the same way,
and ``--sparse`` profiles (records dropped: no crossing) take the
record-by-record way.  Each release's clang and llvm-profdata.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.ops.merge import MergeOptions, merge_instr
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.table_writer import TableWriter
from profdata.releases import release as release_of
from tests.compat import tools
from tests.conftest import CliResult

pytestmark = pytest.mark.compat

RELEASES = (14, 16, 19, 22)
#: merges of r1-r3 (raw runs), i1 (indexed from r1), i12 (from r1 and r2), s1
#: (``--sparse`` from r1), t1 and t2 (text from r1, r2)
MERGES = {
    "incremental": ["i12", "r3"],
    "raw-first": ["r3", "i1", "r2"],
    # two inputs per context: llvm-profdata's thread pool may merge a context's inputs in
    # any order, which changes which values a cut site keeps once a context has three
    "contexts": ["--num-threads=2", "i1", "r2", "r3", "i12"],
    "weighted": ["--weighted-input=2,i1", "r2", "--weighted-input=3,r3"],
    "sparse-out": ["--sparse", "r2", "i1"],
    "sparse-in": ["s1", "r2", "r3"],
    "text-first": ["t1", "r2", "r3"],
    "text-between": ["--num-threads=2", "r2", "t1", "i12", "r3"],  # two per context
    "text-only": ["t1"],
    "texts": ["--weighted-input=2,t1", "t2", "i1"],
}


@pytest.fixture(scope="module")
def mixed_inputs(
    many_targets_runs: Callable[[int], list[Path]], llvm_profdata: Callable[[int], Path]
) -> Callable[[int], dict[str, Path]]:
    """``mixed_inputs(R)``: the raw runs and the indexed profiles release R makes of them."""
    made: dict[int, dict[str, Path]] = {}

    def make(release: int) -> dict[str, Path]:
        if release not in made:
            tool = llvm_profdata(release)
            runs = many_targets_runs(release)
            named = {f"r{k}": path for k, path in enumerate(runs, 1)}
            where = runs[0].parent
            for name, args in (
                ("i1", [runs[0]]),
                ("i12", runs[:2]),
                ("s1", ["--sparse", runs[0]]),
                ("t1", ["--text", runs[0]]),
                ("t2", ["--text", runs[1]]),
            ):
                out = where / f"{name}.prof{'text' if name[0] == 't' else 'data'}"
                tools.run_tool_ok(tool, ["merge", *map(str, args), "-o", str(out)])
                named[name] = out
            made[release] = named
        return made[release]

    return make


@pytest.mark.parametrize("text", [False, True], ids=["indexed", "text"])
@pytest.mark.parametrize("merge", sorted(MERGES))
@pytest.mark.parametrize("release", RELEASES)
def test_mixed_merges_match_llvm_profdata(
    tmp_path: Path,
    mixed_inputs: Callable[[int], dict[str, Path]],
    llvm_profdata: Callable[[int], Path],
    run_profdata: Callable[..., CliResult],
    release: int,
    merge: str,
    text: bool,
) -> None:
    args = tools.named_args(MERGES[merge], mixed_inputs(release))
    command = ["merge", *args, *(["--text"] if text else []), "-o", "@OUT"]
    same, _ = tools.compare_with_tool(
        llvm_profdata(release), release, command, run_profdata, tmp_path
    )
    assert same


@pytest.mark.parametrize("release", RELEASES)
def test_mixes_of_one_binary_stay_fast(
    mixed_inputs: Callable[[int], dict[str, Path]], release: int
) -> None:
    """Not only the same bytes: the mixes are merged as arrays, the sparse one is not."""
    named = mixed_inputs(release)
    for merge, spec in MERGES.items():
        threads = 2 if "--num-threads=2" in spec else 0
        options = MergeOptions(release=release_of(release), num_threads=threads)
        result = merge_instr(_inputs(spec, named), options)
        assert isinstance(result.writer, TableWriter) == (merge != "sparse-in"), merge


def _inputs(spec: list[str], named: dict[str, Path]) -> list[WeightedFile]:
    files = []
    for arg in spec:
        if arg.startswith("--weighted-input="):
            weight, _, name = arg.removeprefix("--weighted-input=").partition(",")
            files.append(WeightedFile(str(named[name]), int(weight)))
        elif not arg.startswith("--"):
            files.append(WeightedFile(str(named[arg]), 1))
    return files
