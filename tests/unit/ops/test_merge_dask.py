"""``merge`` on a Dask cluster (``ops/merge_dask``) against the real two-level merge it promises.

The promise: the result is what ``llvm-profdata merge`` writes for the
chunks' merged profiles, merged in chunk order.  The real tool of release 22
makes that two-level merge here (chunks of weighted inputs merged, the
results merged), and the bytes must be equal -- also where a flat merge
differs (a value site that outgrows 255 values).  Where the merge does not
depend on the grouping the result equals the flat ``profdata merge``.  The
cluster is a local one of two worker processes, so every task and result is
pickled as on a real cluster.
"""

from __future__ import annotations

import random
import subprocess
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from profdata.errors import MergeError
from profdata.formats import raw_write
from profdata.formats.indexed_write import write_indexed
from profdata.model.instr import InstrProfile, InstrRecord, ValueData
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.ops.merge import MergeOptions, RecordWarning, merge_instr
from profdata.ops.merge_dask import merge_on_dask
from profdata.ops.merge_files import merge_files
from profdata.ops.merge_inputs import FailureMode, InputFailure, WeightedFile
from profdata.releases import release
from tests.compat import tools
from tests.conftest import SHARED, CliResult

distributed = pytest.importorskip("dask.distributed")

CORPUS = SHARED / "corpus"


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    with distributed.Client(cluster) as dask_client:
        yield dask_client
    cluster.close()


def _inputs(files: Sequence[tuple[Path, int]]) -> list[WeightedFile]:
    return [WeightedFile(str(path), weight) for path, weight in files]


def _dask_bytes(client: Any, files: Sequence[tuple[Path, int]], chunk: int, **kw: Any) -> bytes:
    options = MergeOptions(release=release(22), **kw)
    result = merge_on_dask(_inputs(files), options, client, chunk_size=chunk)
    return write_indexed(result.writer.to_profile(), release=release(22))


def _flat_bytes(files: Sequence[tuple[Path, int]], **kw: Any) -> bytes:
    result = merge_instr(_inputs(files), MergeOptions(release=release(22), **kw))
    return write_indexed(result.writer.to_profile(), release=release(22))


def _llvm_two_level(files: Sequence[tuple[Path, int]], chunk: int, scratch: Path) -> bytes:
    tool = tools.find_llvm_profdata(22)
    if tool is None:
        pytest.skip("llvm-profdata 22 is not installed")
    parts = []
    for index in range(0, len(files), chunk):
        part = scratch / f"llvm-chunk-{index}.profdata"
        weighted = [f"--weighted-input={w},{p}" for p, w in files[index : index + chunk]]
        subprocess.run([str(tool), "merge", "-o", str(part), *weighted], check=True)
        parts.append(str(part))
    final = scratch / "llvm-final.profdata"
    subprocess.run([str(tool), "merge", "-o", str(final), *parts], check=True)
    return final.read_bytes()


def _corpus_runs(case: str) -> list[Path]:
    runs = sorted((CORPUS / case).glob("run*.profraw"))
    if not runs:
        pytest.skip(f"no raw runs in {CORPUS / case}")
    return runs


@pytest.mark.parametrize("case", ["irpgo-vpcalls-o2-l22", "irpgo-vcalls-cpp-o2-l22"])
@pytest.mark.parametrize("chunk", [1, 2, 3])
def test_corpus_runs_are_the_real_two_level_merge(
    client: Any, case: str, chunk: int, tmp_path: Path
) -> None:
    runs = _corpus_runs(case)
    rng = random.Random(chunk)
    files = [(rng.choice(runs), rng.choice([1, 1, 2, 5])) for _ in range(7)]
    ours = _dask_bytes(client, files, chunk)
    assert ours == _flat_bytes(files)  # nothing here depends on the grouping
    assert ours == _llvm_two_level(files, chunk, tmp_path)


def _crowded_site(values: range, seed: int) -> InstrProfile:
    rng = random.Random(seed)
    site = [ValueData(v, rng.randint(1, 50)) for v in values]
    record = InstrRecord(
        "f", 0x1234, np.array([5, 1], dtype=np.uint64), b"",
        {ValueKind.MEMOP_SIZE: [site]},
    )  # fmt: skip
    return InstrProfile(kind=ProfileKind.IR, records=[record])


def test_a_site_over_255_values_is_merged_per_chunk(client: Any, tmp_path: Path) -> None:
    """300 values per site across the inputs: each merge keeps the 255 largest, so the
    grouping shows, and the result is the real two-level merge's."""
    files = []
    for index in range(6):
        path = tmp_path / f"run{index}.profraw"
        path.write_bytes(raw_write.write(_crowded_site(range(index * 50, index * 50 + 120), index)))
        files.append((path, 1 + index % 2))
    ours = _dask_bytes(client, files, 2)
    assert ours != _flat_bytes(files)
    assert ours == _llvm_two_level(files, 2, tmp_path)


def test_failures_are_reported_per_input_and_decided_over_all(client: Any, tmp_path: Path) -> None:
    runs = _corpus_runs("irpgo-vpcalls-o2-l22")
    bad = tmp_path / "cut.profraw"
    bad.write_bytes(runs[0].read_bytes()[:100])
    missing = tmp_path / "missing.profraw"
    good = [(runs[0], 1), (runs[-1], 2), (runs[0], 1)]
    files = [good[0], (bad, 1), good[1], (missing, 1), good[2]]
    options = MergeOptions(release=release(22), failure_mode=FailureMode.WARN)
    result = merge_on_dask(_inputs(files), options, client, chunk_size=2)
    flat = merge_instr(_inputs(files), options)
    assert result.failed_inputs == flat.failed_inputs == 2
    failures = [d for d in result.diagnostics if isinstance(d, InputFailure)]
    assert [(f.path, f.message) for f in failures] == [
        (f.path, f.message) for f in flat.diagnostics if isinstance(f, InputFailure)
    ]
    assert [f.path for f in failures] == [str(bad), str(missing)]
    assert _dask_bytes(client, files, 2, failure_mode=FailureMode.WARN) == _flat_bytes(good)
    with pytest.raises(MergeError, match="2 of 5 inputs could not be merged"):
        merge_on_dask(_inputs(files), MergeOptions(release=release(22)), client, chunk_size=2)
    all_bad = [(bad, 1), (missing, 1), (bad, 1)]
    with pytest.raises(MergeError, match="3 of 3"):
        merge_on_dask(
            _inputs(all_bad), MergeOptions(release=release(22), failure_mode=FailureMode.ALL),
            client, chunk_size=1,
        )  # fmt: skip
    kept = _inputs([(bad, 1), *good])
    result = merge_on_dask(
        kept, MergeOptions(release=release(22), failure_mode=FailureMode.ALL), client, chunk_size=3
    )
    assert result.failed_inputs == 1


def test_warnings_of_the_final_merge_name_the_chunk(client: Any) -> None:
    """A counter mismatch between chunks is found by the final merge, which names the
    chunk; one inside a chunk names the input.  The hint follows the first only."""
    case = CORPUS / "merge-hash-mismatch-work-l22"
    a, b = case / "mismatch_a.proftext", case / "mismatch_b.proftext"
    if not a.exists():
        pytest.skip(f"{case} is missing")
    options = MergeOptions(release=release(22))
    result = merge_on_dask(_inputs([(a, 1), (b, 1), (b, 1)]), options, client, chunk_size=2)
    warnings = [d for d in result.diagnostics if isinstance(d, RecordWarning)]
    assert [(w.source, w.function, w.first_time) for w in warnings] == [
        (str(b), "work", True),
        ("<dask chunk 2: inputs 3-3>", "work", False),
    ]


def test_command_line(run_profdata: Callable[..., CliResult], tmp_path: Path) -> None:
    runs = _corpus_runs("irpgo-vpcalls-o2-l22")
    args = [str(runs[0]), f"--weighted-input=3,{runs[-1]}", str(runs[0]), str(runs[-1])]
    flat, dask = tmp_path / "flat.profdata", tmp_path / "dask.profdata"
    assert run_profdata("merge", "-o", str(flat), *args).code == 0
    got = run_profdata("merge", "--dask=local:2", "--dask-chunk-size=2", "-o", str(dask), *args)
    assert (got.code, got.stderr) == (0, b"")
    assert dask.read_bytes() == flat.read_bytes()
    got = run_profdata("merge", "--sample", "--dask=local:1", "-o", str(dask), str(runs[0]))
    assert got.code == 1 and b"--dask merges instrumentation profiles only" in got.stderr
    got = run_profdata("merge", "--dask=local:x", "-o", str(dask), *args)
    assert got.code == 1 and b"--dask=local:N takes a number of workers" in got.stderr
    got = run_profdata("merge", "--dask=local:1", "--dask-chunk-size=0", "-o", str(dask), *args)
    assert got.code == 1 and b"chunk size must be at least 1" in got.stderr


def test_python_api(client: Any) -> None:
    runs = _corpus_runs("irpgo-vpcalls-o2-l22")
    inputs: list[Path | tuple[int, Path]] = [runs[0], (2, runs[-1]), runs[0]]
    local = merge_files(inputs)
    spread = merge_files(inputs, client=client, chunk_size=1)
    assert spread.failed_inputs == 0
    r22 = release(22)
    assert write_indexed(spread.profile, release=r22) == write_indexed(local.profile, release=r22)
