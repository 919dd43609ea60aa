"""Whether this process may fork a helper at all, whatever the idle CPUs say.

A forked child has only the thread that forked; a lock another thread held at
that moment stays held in the child for good.  The child then hangs if the
work it was given takes that lock: the lock of a logging handler, an import
under way, a cache guarded for threads.  The ``profdata`` command has no such
thread (its main thread only waits for the command's), but a program that
calls the library may: a Dask worker runs tasks beside its event loop,
Jupyter beside its heartbeat.  There the helpers would save a fraction of a
second at the risk of a hang that never ends, so the work stays in one
process unless the caller says otherwise.

macOS is left out for the same reason: its system libraries start threads of
their own (numpy's Accelerate among them), which Python cannot see, and
Python itself gave up forking there by default (``multiprocessing`` spawns).

``PROFDATA_FORK`` overrides the look at the threads: ``0`` never forks, ``1``
forks beside any thread (the caller vouches that none holds a lock the work
needs).  Unset or anything else: fork only where no other thread runs Python,
and not on macOS.  Threads that never ran Python (BLAS pools on Linux, say)
are not seen here; the libraries that start them prepare for forks themselves.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from profdata.reaping import is_reaper

__all__ = ["FORK_SETTING", "can_fork", "waiting_here"]

#: the environment variable that overrides the look at the threads
FORK_SETTING = "PROFDATA_FORK"

#: threads that only wait, holding no lock a helper needs (see :func:`waiting_here`)
_waiting: set[int] = set()


def can_fork() -> bool:
    """Whether this system forks safely and no other thread could hold a lock a helper
    needs."""
    if not hasattr(os, "fork"):
        return False
    setting = os.environ.get(FORK_SETTING, "").strip()
    if setting in ("0", "1"):
        return setting == "1"
    if sys.platform == "darwin":
        return False
    me = threading.get_ident()
    return all(
        thread.ident == me or thread.ident in _waiting or is_reaper(thread)
        for thread in threading.enumerate()
    )


@contextmanager
def waiting_here() -> Iterator[None]:
    """Mark the calling thread, for the block, as one that only waits for another thread
    (the command line's main thread waits for the command's): the command may fork."""
    me = threading.get_ident()
    _waiting.add(me)
    try:
        yield
    finally:
        _waiting.discard(me)
