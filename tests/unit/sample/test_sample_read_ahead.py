"""Column-merge inputs read by a second process: order, declines, and the same result."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from profdata.formats import sample_text
from profdata.formats.sample_extbinary_write import write as write_extbinary
from profdata.formats.sample_registry import read_sample_bytes
from profdata.model.sample import FunctionSamples, LineLocation, SampleContext, SampleProfile
from profdata.ops.merge_inputs import WeightedFile
from profdata.ops.merge_sample import SampleMergeOptions, merge_samples
from profdata.ops.merge_sample_columns import merge_columns
from profdata.ops.merge_sample_readers import MIN_BYTES, read_in_order
from profdata.releases import release

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def entries(tmp_path: Path, count: int) -> list[WeightedFile]:
    out = []
    for index in range(count):
        path = tmp_path / f"in{index}"
        path.write_bytes(b"x")
        out.append(WeightedFile(str(path), index + 1))
    return out


def reaped(pids: list[int]) -> bool:
    """Whether every one of ``pids`` has ended and been waited for (other children of this
    process, such as other tests' servers, do not count)."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        return False
    return True


def test_the_worker_reads_every_other_input_and_results_come_in_order(
    tmp_path: Path, forks: list[int]
) -> None:
    inputs = entries(tmp_path, 7)
    got: list[Any] = list(read_in_order(inputs, lambda e: (os.getpid(), e.path, e.weight), 2))
    assert [(path, weight) for _, path, weight in got] == [(e.path, e.weight) for e in inputs]
    pids = [pid for pid, _, _ in got]
    assert set(pids[0::2]) == {os.getpid()}
    assert len(set(pids[1::2])) == 1 and pids[1] != os.getpid()
    assert len(forks) == 1 and reaped(forks)


def test_one_process_reads_everything_here(tmp_path: Path, forks: list[int]) -> None:
    inputs = entries(tmp_path, 4)
    for processes in (1, 0):  # 0: nothing asked, and small inputs are not worth a fork
        got: list[Any] = list(read_in_order(inputs, lambda e: (os.getpid(), e), processes))
        assert {pid for pid, _ in got} == {os.getpid()}
    assert sum(os.path.getsize(e.path) for e in inputs) < MIN_BYTES
    assert not forks


def test_a_decline_in_the_worker_ends_it(tmp_path: Path, forks: list[int]) -> None:
    inputs = entries(tmp_path, 6)

    def read(entry: WeightedFile) -> str | None:
        return None if entry.weight == 2 else entry.path  # the worker's first input

    got = list(read_in_order(inputs, read, 2))
    assert got[0] == inputs[0].path and got[1] is None
    assert got[2] == inputs[2].path  # the parent's own inputs still come
    assert got[3] is None and got[5] is None  # the worker stopped: nothing more from it
    assert len(forks) == 1 and reaped(forks)


def test_a_worker_that_fails_sends_nothing(tmp_path: Path, forks: list[int]) -> None:
    inputs = entries(tmp_path, 4)

    def read(entry: WeightedFile) -> object:
        return (lambda: None) if entry.weight % 2 == 0 else entry.path  # unpicklable

    got = list(read_in_order(inputs, read, 2))
    assert got[0] == inputs[0].path and got[1] is None and got[3] is None
    assert len(forks) == 1 and reaped(forks)


def test_leaving_early_stops_the_worker(tmp_path: Path, forks: list[int]) -> None:
    inputs = entries(tmp_path, 9)
    reads = read_in_order(inputs, lambda e: e.path, 2)
    assert next(reads) == inputs[0].path
    assert next(reads) == inputs[1].path
    reads.close()
    assert len(forks) == 1 and reaped(forks)


def profile_of(index: int) -> SampleProfile:
    fs = FunctionSamples(SampleContext("main"), 100 + index, index)
    record = fs.record_at(LineLocation(1, index % 3))
    record.samples = 10 * index + 1
    record.call_targets = {f"f{index % 4}": index + 2, "g": 1}
    callee = FunctionSamples(SampleContext(f"inl{index % 2}"), 7 + index)
    callee.record_at(LineLocation(2, 0)).samples = index
    fs.function_samples_at(LineLocation(3, 0))[callee.context.name] = callee
    other = FunctionSamples(SampleContext(f"fn{index}"), 5, 1)
    return SampleProfile(profiles={fs.context: fs, other.context: other})


def test_a_merge_read_by_two_processes_is_the_same(tmp_path: Path, forks: list[int]) -> None:
    inputs = []
    for index in range(7):
        path = tmp_path / f"p{index}"
        profile = profile_of(index)
        path.write_bytes(sample_text.write(profile) if index % 3 else write_extbinary(profile))
        inputs.append(WeightedFile(str(path), index % 3 + 1))
    rel = release(22)
    here = merge_columns(inputs, rel, processes=1)
    both = merge_columns(inputs, rel, processes=2)
    assert here is not None and both is not None
    assert len(forks) == 1 and reaped(forks)
    assert sample_text.write(here[0]) == sample_text.write(both[0])
    assert write_extbinary(here[0]) == write_extbinary(both[0])
    read = [read_sample_bytes(Path(e.path).read_bytes(), e.path, rel) for e in inputs]
    records = merge_samples(inputs, SampleMergeOptions(rel), read)  # record by record
    assert write_extbinary(records.profile) == write_extbinary(both[0])
    assert len(forks) == 1 and reaped(forks)


def test_the_worker_starts_once_a_cpu_is_idle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    inputs = entries(tmp_path, 10)
    Path(inputs[0].path).write_bytes(b"x" * MIN_BYTES)  # worth a fork
    looks = iter([1, 2])  # busy at the first look (input 0), idle at the next (input 4)
    monkeypatch.setattr("profdata.ops.merge_sample_readers.idle_cpus", lambda: next(looks))
    got: list[Any] = list(read_in_order(inputs, lambda e: (os.getpid(), e.path), 0))
    assert [path for _, path in got] == [e.path for e in inputs]
    here = [i for i, (pid, _) in enumerate(got) if pid == os.getpid()]
    assert here == [0, 1, 2, 3, 4, 6, 8]
    assert len(forks) == 1 and reaped(forks)
