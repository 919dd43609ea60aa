"""A merge's memory does not grow with the number of its inputs.

Inputs are read one at a time and dropped once merged, so merging 64 copies
of a profile must peak about where merging 16 does.  The cycle collector is
off while the merges run: an input kept alive by a reference cycle is then
kept to the end, as it was in practice when a large input's few objects
never triggered a collection (16 indexed inputs of a 100k-function program
peaked at 708 MiB instead of 165).  Peaks are Python's traced allocations,
numpy's arrays among them; the small growth allowed covers the interpreter's
free lists, which keep some freed objects' memory.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from profdata.cli import main
from profdata.formats._collector import collector_paused
from profdata.model.instr import InstrProfile
from profdata.ops.merge import MergeOptions, load_path, merge_instr
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_sample import SampleMergeOptions, merge_samples
from profdata.releases import release
from tests.conftest import REPO

EXAMPLES = REPO / "src" / "profdata" / "examples"
SAMPLES = REPO / "tests" / "golden" / "sample" / "inputs"
#: traced bytes a merge may grow by per extra input (a leaked input costs 12 KiB and up)
_PER_INPUT = 2048


def _peak(merge: Callable[[list[WeightedFile]], object], path: str, count: int) -> int:
    """The traced peak of merging ``count`` copies of ``path`` in this process."""
    gc.collect()
    with collector_paused():
        tracemalloc.start()
        try:
            merge([WeightedFile(path, 1)] * count)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()


def _grows_little(merge: Callable[[list[WeightedFile]], object], path: str) -> None:
    _peak(merge, path, 4)  # imports and first-use caches out of the way
    few, many = _peak(merge, path, 16), _peak(merge, path, 64)
    assert many - few < 48 * _PER_INPUT, (few, many)


@pytest.mark.parametrize("way", ["fast", "record by record"])
@pytest.mark.parametrize("name", ["vp.profraw", "vp.profdata"])
def test_peak_memory_does_not_grow_with_the_inputs(name: str, way: str) -> None:
    # the fast path reads files itself only with the default loader
    load: Callable[[str], InstrProfile] = (
        load_path if way == "fast" else (lambda where: load_path(where))
    )
    options = MergeOptions(release=release(22), processes=1)
    _grows_little(lambda inputs: merge_instr(inputs, options, load=load), str(EXAMPLES / name))


@pytest.mark.parametrize("encoding", ["text", "extbinary"])
@pytest.mark.parametrize("name", ["corpus-inline.txt", "corpus-probe.txt"])
def test_peak_memory_of_a_sample_merge_does_not_grow_with_the_inputs(
    tmp_path: Path, name: str, encoding: str
) -> None:
    """Also with the cycle collector paused for the whole merge, as a sample merge pauses
    it: an ext-binary profile's metadata (the probes' checksums) and its function spans
    are read by recursive walks, which must not hold the profile in a cycle."""
    path = SAMPLES / name
    if encoding == "extbinary":
        path = tmp_path / "profile.extbin"
        assert main(["merge", "--sample", "--extbinary", str(SAMPLES / name), "-o", str(path)]) == 0
    options = SampleMergeOptions(release=release(22))
    _grows_little(lambda inputs: merge_samples(inputs, options), str(path))


def _mapped_paths() -> str:
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
        return maps.read()


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc/self/maps")
@pytest.mark.parametrize("first", ["vp.profraw", "vp.profdata"])
def test_the_first_inputs_files_are_let_go_once_merged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    """The group's shape keeps the first input's names, not its mapped file (it kept the
    file through the whole merge while it held the first read's columns for the names);
    an indexed first input and the raw run its group is made from go as well."""
    from profdata.ops import merge_fast

    head = tmp_path / f"first{Path(first).suffix}"
    head.write_bytes((EXAMPLES / first).read_bytes())
    runs = []
    for index in range(5):
        run = tmp_path / f"run{index}.profraw"
        run.write_bytes((EXAMPLES / "vp.profraw").read_bytes())
        runs.append(run)
    seen: list[str] = []
    add = merge_fast.FastMerge.add

    def adding(self: merge_fast.FastMerge, *args: object) -> object:
        loaded = add(self, *args)  # type: ignore[arg-type]
        seen.append(_mapped_paths())
        return loaded

    monkeypatch.setattr(merge_fast.FastMerge, "add", adding)
    inputs = [WeightedFile(str(p), 1) for p in [head, *runs]]
    result = merge_instr(inputs, MergeOptions(release=release(22), processes=1))
    assert isinstance(result.writer, merge_fast.TableWriter)  # the fast path all the way
    assert len(seen) == 6
    for maps in seen[2:]:
        assert str(head) not in maps
        assert str(runs[0]) not in maps


@pytest.mark.parametrize("count", [1, 4])
def test_the_first_inputs_full_read_goes_before_its_run_is_merged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    """The full read of the first input makes the group and its first run; the run is
    merged (names made, state built: a merge's first peak) without it, and without a
    collection (the merge pauses the cycle collector)."""
    import weakref

    from profdata.formats.raw_profile import RawProfile
    from profdata.ops import merge_fast, merge_group

    runs = []
    for index in range(count):
        run = tmp_path / f"run{index}.profraw"
        run.write_bytes((EXAMPLES / "vp.profraw").read_bytes())
        runs.append(run)
    reads: list[weakref.ref[RawProfile]] = []
    read = merge_group.read_loaded  # as merge_fast calls it

    def reading(load: Callable[[str], InstrProfile], path: str) -> object:
        loaded = read(load, path)
        if isinstance(loaded, RawProfile):
            reads.append(weakref.ref(loaded))
        return loaded

    alive_at_merge: list[bool] = []
    merge_run = merge_fast.FastMerge._merge_run

    def merging(self: merge_fast.FastMerge, *args: object) -> bool:
        alive_at_merge.append(any(ref() is not None for ref in reads))
        return merge_run(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(merge_fast, "read_loaded", reading)
    monkeypatch.setattr(merge_fast.FastMerge, "_merge_run", merging)
    inputs = [WeightedFile(str(p), 1) for p in runs]
    with collector_paused():
        result = merge_instr(inputs, MergeOptions(release=release(22), processes=1))
    assert isinstance(result.writer, merge_fast.TableWriter)
    assert len(reads) == 1 and alive_at_merge == [False] * count
