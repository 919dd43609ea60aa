"""A part of a job computed in a forked child (:mod:`profdata.offload`), and the text
sample reader that reads a large text's second half that way."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from profdata import offload as offload_module
from profdata.formats import sample_text_columns
from profdata.formats.sample_text_columns import read_text_columns
from profdata.offload import offload
from profdata.releases import release
from tests.conftest import REPO
from tests.property.test_sample_text_columns import same_columns


@pytest.fixture
def idle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)


def count_offloads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one for every child :func:`offload` starts."""
    started: list[int] = []
    real = offload

    def counted(work: Callable[[], object]) -> object:
        started.append(1)
        return real(work)

    monkeypatch.setattr(offload_module, "offload", counted)
    return started


def test_the_childs_result_comes_back(idle: None) -> None:
    parent = os.getpid()
    started = offload(lambda: (os.getpid(), np.arange(100_000, dtype=np.uint64)))
    assert started is not None
    pid, values = started.result(lambda: (0, np.zeros(0, dtype=np.uint64)))
    assert pid not in (0, parent)  # computed there
    assert np.array_equal(values, np.arange(100_000, dtype=np.uint64))


def test_pending_work_is_taken_from_the_child_started_for_it(
    idle: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started: computed in a child, taken once (a second take computes it here); never
    started: computed here when taken; a second start while a child runs starts none."""
    started = count_offloads(monkeypatch)
    pending: offload_module.Pending[int] = offload_module.Pending()
    assert not pending.started
    pending.start(os.getpid)
    pending.start(os.getpid)
    assert pending.started and len(started) == 1
    assert pending.take(os.getpid) not in (0, os.getpid())
    assert not pending.started
    assert pending.take(os.getpid) == os.getpid()


def test_pending_work_is_done_here_without_an_idle_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 1)
    pending: offload_module.Pending[int] = offload_module.Pending()
    pending.start(os.getpid)
    assert not pending.started
    assert pending.take(os.getpid) == os.getpid()


def test_a_failed_child_leaves_the_part_to_this_process(idle: None) -> None:
    def fail() -> int:
        raise MemoryError

    def die() -> int:
        os._exit(3)  # as if killed

    for work in (fail, die):
        started = offload(work)
        assert started is not None
        assert started.result(lambda: 42) == 42


def test_a_cancelled_child_is_stopped(idle: None) -> None:
    read_end, write_end = os.pipe()

    def wait_for_ever() -> int:
        os.read(read_end, 1)  # nobody writes
        return 1

    started = offload(wait_for_ever)
    assert started is not None
    started.cancel()
    os.close(read_end)
    os.close(write_end)


def test_a_child_dropped_unread_is_stopped_and_its_pipe_closed(
    idle: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An owner that fails before it asks for the result (a merge whose first input
    turns out bad) must not leave the child blocked on a full pipe, or the pipe open; the
    child is reaped without a thread, which Python 3.12 refuses at exit (when this runs
    for a part still unread)."""

    def no_threads(pid: int) -> None:
        raise RuntimeError("can't create new thread at interpreter shutdown")

    monkeypatch.setattr(offload_module, "reap_later", no_threads)
    started = offload(lambda: np.zeros(1 << 20, dtype=np.uint64))  # 8 MiB: a full pipe
    assert started is not None
    pid, pipe = started._pid, started._pipe
    del started
    gc.collect()
    with pytest.raises(OSError):
        os.fstat(pipe)
    assert not Path(f"/proc/{pid}").exists()  # reaped, not a zombie


@pytest.mark.parametrize("how", ["take", "drop"])
def test_a_process_forked_later_leaves_the_child_to_its_owner(idle: None, how: str) -> None:
    """A merge's worker is forked while the child hashing the first input's names may
    still run: the worker inherits the pending part.  Taken there, it is computed there
    (the child's one result is its owner's); dropped there, the child is not stopped."""
    gate_read, gate_write = os.pipe()

    def after_the_gate() -> int:
        os.read(gate_read, 1)
        return 42

    pending: offload_module.Pending[int] = offload_module.Pending()
    pending.start(after_the_gate)
    assert pending.started
    if how == "take":  # its result is ready: a take there would get it, not wait for it
        os.write(gate_write, b"x")
    report_read, report_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the forked process, which leaves with os._exit
        code = 1
        try:
            if how == "take":
                got = pending.take(lambda: -1)
            else:
                del pending
                gc.collect()
                got = -1
            os.write(report_write, str(got).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(report_write)
    with os.fdopen(report_read, "rb") as report:
        assert report.read() == b"-1"
    assert os.waitpid(pid, 0)[1] == 0
    if how == "drop":  # the child was not stopped by the other process
        os.write(gate_write, b"x")
    assert pending.take(lambda: -1) == 42
    for end in (gate_read, gate_write):
        os.close(end)


def test_a_child_left_running_at_exit_is_stopped_quietly(tmp_path: Path) -> None:
    """Python 3.12 refuses new threads at exit, where an unread part's finalizer runs: the
    child must be reaped without one (a traceback there is what a user would see)."""
    script = tmp_path / "leave.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(REPO / 'src')!r})\n"
        "from profdata import offload\n"
        "offload.idle_cpus = lambda: 2\n"
        "left = offload.offload(lambda: b'x' * (1 << 22))\n"  # more than a pipe holds
        "print(left is not None)\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"True\n", b"")


@pytest.mark.parametrize("how", ["result", "cancel"])
def test_a_child_read_or_cancelled_is_not_stopped_again(idle: None, how: str) -> None:
    """Its pipe's descriptor may belong to another file by the time it is dropped."""
    started = offload(lambda: 7)
    assert started is not None
    pipe = started._pipe
    if how == "result":
        assert started.result(lambda: 0) == 7
    else:
        started.cancel()
    null = os.open(os.devnull, os.O_RDONLY)
    if null != pipe:  # the pipe's number, now another file's
        os.dup2(null, pipe)
        os.close(null)
    try:
        del started
        gc.collect()
        os.fstat(pipe)  # still open
    finally:
        os.close(pipe)


def test_nothing_is_started_on_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 1)
    assert offload(lambda: 1) is None


TEXT = b"".join(
    b"f%d:%d:%d\n 1: %d g:%d h%d:1\n 2: c%d:%d\n  1: %d\n" % (k, 9 * k, k, k, k, k % 7, k % 5, k, k)
    for k in range(1, 400)
)


def _read_split(monkeypatch: pytest.MonkeyPatch, data: bytes) -> object:
    monkeypatch.setattr(sample_text_columns, "_SPLIT_BYTES", 0)
    return read_text_columns(memoryview(data), None, release(22))


def test_a_text_read_in_two_processes_is_the_text_read_in_one(
    idle: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = read_text_columns(memoryview(TEXT), None, release(22))
    assert whole is not None and len(TEXT) < sample_text_columns._SPLIT_BYTES
    started = count_offloads(monkeypatch)
    split = _read_split(monkeypatch, TEXT)
    assert started == [1]
    assert isinstance(split, tuple) and same_columns(whole[1], split[1])


def test_a_second_half_the_child_declines_declines_the_text(
    idle: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    odd = TEXT + b"z:1:1\n !CFGChecksum: 5\n"  # probe-based: the object reader reads it
    assert read_text_columns(memoryview(odd), None, release(22)) is None
    assert _read_split(monkeypatch, odd) is None
    twice = TEXT + b"f1:1:1\n"  # a header of the first half again
    assert _read_split(monkeypatch, twice) is None


def test_a_child_that_dies_leaves_its_half_to_this_process(
    idle: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = os.getpid()
    real = sample_text_columns._part_or_none

    def dying(raw: bytes, start: int, stop: int) -> object:
        if os.getpid() != parent:
            os._exit(9)
        return real(raw, start, stop)

    monkeypatch.setattr(sample_text_columns, "_part_or_none", dying)
    whole = read_text_columns(memoryview(TEXT), None, release(22))
    split = _read_split(monkeypatch, TEXT)
    assert whole is not None and isinstance(split, tuple)
    assert same_columns(whole[1], split[1])
