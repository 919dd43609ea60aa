"""``profdata.reaping``: workers reaped by threads, and waited for before a fork."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from profdata.reaping import join_reapers, reap_later

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


def test_a_child_already_reaped_elsewhere_is_no_error() -> None:
    pid = _child(0)
    os.waitpid(pid, 0)
    reap_later(pid)
    join_reapers()
