"""Forked workers reaped by threads, so that a merge need not wait for them to exit.

A worker that has sent its results still has to exit, and the kernel frees
its address space (a few hundred MiB after a large merge) before ``waitpid``
returns: 0.1 s after a 128-input merge, all of it on the merge's path when
the parent waited.  A thread blocked in ``waitpid`` holds no lock and reaps
the worker the moment it is gone.

A fork while such a thread runs is what Python 3.12 warns about (the child
could inherit a lock the thread held), so whoever forks first waits for the
reapers still running: by then their workers are long done.
"""

from __future__ import annotations

import os
import threading
from contextlib import suppress

_reapers: list[threading.Thread] = []


def reap_later(pid: int) -> None:
    """Collect worker ``pid``'s exit status from a daemon thread."""
    thread = threading.Thread(target=_reap, args=(pid,), name=f"reap-{pid}", daemon=True)
    thread.start()
    _reapers.append(thread)


def join_reapers() -> None:
    """Wait until every worker handed to :func:`reap_later` is reaped (call before a fork)."""
    while _reapers:
        _reapers.pop().join()


def is_reaper(thread: threading.Thread) -> bool:
    """Whether ``thread`` is one of the reapers (blocked in ``waitpid``, holding no lock)."""
    return thread in _reapers


def _reap(pid: int) -> None:
    with suppress(ChildProcessError):
        os.waitpid(pid, 0)


__all__ = ["is_reaper", "join_reapers", "reap_later"]
