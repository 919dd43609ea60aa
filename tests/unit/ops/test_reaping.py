"""``profdata.ops.reaping``: workers reaped by threads, and waited for before a fork; the
workers' pipes."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from profdata.ops.reaping import join_reapers, reap_later

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or not Path("/proc/self").exists(), reason="forks, looks at /proc"
)


def _child(seconds: float) -> int:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        time.sleep(seconds)
        os._exit(3)
    return pid


def test_reap_later_returns_at_once_and_join_waits_for_the_exit() -> None:
    pid = _child(0.3)
    started = time.monotonic()
    reap_later(pid)
    assert time.monotonic() - started < 0.2  # did not wait for the child
    assert any(t.name == f"reap-{pid}" for t in threading.enumerate())
    join_reapers()
    assert time.monotonic() - started >= 0.25
    assert not Path(f"/proc/{pid}").exists()  # gone, not a zombie
    assert not any(t.name == f"reap-{pid}" for t in threading.enumerate())
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_join_without_reapers_returns() -> None:
    join_reapers()


def test_a_child_already_reaped_elsewhere_is_no_error() -> None:
    pid = _child(0)
    os.waitpid(pid, 0)
    reap_later(pid)
    join_reapers()


def test_worker_pipes_get_a_buffer_of_one_mib() -> None:
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("no pipe sizes here")
    if int(Path("/proc/sys/fs/pipe-max-size").read_text()) < 1 << 20:
        pytest.skip("the system caps pipes below 1 MiB")
    from profdata.ops.merge_fast import _widen

    read_end, write_end = os.pipe()
    try:
        _widen(write_end)
        assert fcntl.fcntl(write_end, fcntl.F_GETPIPE_SZ) == 1 << 20
    finally:
        os.close(read_end)
        os.close(write_end)
