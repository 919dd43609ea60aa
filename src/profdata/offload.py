"""A part of a job done in a forked child while this process does the rest.

Reading a 55 MB text sample profile is 2.2 s of numpy passes over its bytes,
and its two halves (cut between two functions) can be read apart.  When a
second CPU is idle, :func:`offload` forks a child that computes one part and
sends it back pickled through a pipe (40 MB for half of that profile: 30 ms
to pickle, a few ms to unpickle), so the parent reads the other half at the
same time.  A child that fails sends nothing: :meth:`Offloaded.result` then
computes the part here, which fails (if it does) the way one process would.
"""

from __future__ import annotations

import os
import pickle
import signal
import warnings
import weakref
from collections.abc import Callable
from contextlib import suppress
from typing import Generic, TypeVar

from profdata.cpus import idle_cpus
from profdata.fork_policy import can_fork
from profdata.reaping import join_reapers, reap_later

T = TypeVar("T")
U = TypeVar("U")

__all__ = ["Offloaded", "Pending", "fork", "in_two", "may_fork", "offload"]


class Offloaded(Generic[T]):
    """A part being computed in a forked child."""

    def __init__(self, pid: int, pipe: int) -> None:
        self._pid, self._pipe = pid, pipe
        #: the process that forked the child: a worker forked later inherits this object,
        #: and must neither read the child's one result nor stop it
        self._owner = os.getpid()
        # dropped unread (its owner failed, or never needed the part): the child is
        # stopped and the pipe closed, not left blocked on a full pipe for good
        self._unread = weakref.finalize(self, _stop, pid, pipe, self._owner)

    def result(self, here: Callable[[], T]) -> T:
        """The child's result, or ``here()`` if it sent none (or this process is not the
        one that started it)."""
        self._unread.detach()
        if os.getpid() != self._owner:
            return here()
        try:
            with os.fdopen(self._pipe, "rb") as pipe:
                data = pipe.read()
        finally:
            reap_later(self._pid)
        if data:
            with suppress(Exception):  # cut short: killed by the OOM killer, say
                result: T = pickle.loads(data)
                return result
        return here()

    def cancel(self) -> None:
        """Stop the child (this process failed, or needs the part no more)."""
        self._unread()  # runs _stop once, and never again when dropped


class Pending(Generic[T]):
    """A result started in a forked child once its owner knows it will be needed and has
    other things to do first (:meth:`start`), or computed here when taken without one.

    The readers hash a profile's names this way (an MD5 each): a merge needs
    them only after it has made the first input's group.  The work is passed
    to each call, not kept: a bound method of the owner kept here would make
    a reference cycle, and a merge frees each input as soon as it is merged
    only while nothing but reference counts hold it.
    """

    def __init__(self) -> None:
        self._child: Offloaded[T] | None = None

    @property
    def started(self) -> bool:
        """Whether a child is computing it (until it is taken)."""
        return self._child is not None

    def start(self, work: Callable[[], T]) -> None:
        """Start a child for ``work``, unless one runs or no CPU is idle for it."""
        if self._child is None:
            self._child = offload(work)

    def take(self, work: Callable[[], T]) -> T:
        """The child's result (``work()`` here if it sent none), or ``work()`` done here."""
        child, self._child = self._child, None
        return work() if child is None else child.result(work)


def _stop(pid: int, pipe: int, owner: int) -> None:
    """Kill the child and reap it here: it dies at once, and this may run at exit, where
    Python 3.12 refuses to start the thread :func:`reap_later` would.  In a process forked
    after the child (not its ``owner``) only the inherited pipe is closed."""
    if os.getpid() != owner:
        os.close(pipe)
        return
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.close(pipe)
    with suppress(ChildProcessError):
        os.waitpid(pid, 0)


def offload(work: Callable[[], T]) -> Offloaded[T] | None:
    """``work()`` started in a forked child; ``None`` (nothing started) without
    ``fork`` or an idle CPU for it."""
    if not may_fork():
        return None
    read_end, write_end = os.pipe()
    pid = fork()
    if pid == 0:  # pragma: no cover - runs in the child, which never returns
        os.close(read_end)
        _child(work, write_end)
    os.close(write_end)
    return Offloaded(pid, read_end)


def in_two(here: Callable[[], T], there: Callable[[], U]) -> tuple[T, U] | None:
    """``here()`` in this process while ``there()`` runs in a forked child (and again
    here if the child fails); ``None``, neither run, without a child to run it."""
    other = offload(there)
    if other is None:
        return None
    try:
        mine = here()
    except BaseException:
        other.cancel()
        raise
    return mine, other.result(there)


def may_fork() -> bool:
    """Whether this process may fork (:func:`can_fork`) and a second CPU is idle for a
    child now."""
    if not can_fork():
        return False
    join_reapers()  # before counting: a reaper is a runnable thread
    return idle_cpus() >= 2


def fork() -> int:
    """``os.fork()`` for a worker that leaves with ``os._exit``: the reapers joined first
    (no thread may run across the fork), and Ctrl-C left to end the child (it reaches
    the parent too, whose clean-up runs)."""
    join_reapers()
    with warnings.catch_warnings():
        # every other thread waits and holds no lock (fork_policy.can_fork), or the
        # caller said the threads are safe (PROFDATA_FORK=1)
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - in the child
        with suppress(ValueError, OSError):
            signal.signal(signal.SIGINT, signal.SIG_DFL)
    return pid


def _child(work: Callable[[], T], pipe: int) -> None:  # pragma: no cover - a forked child
    """Compute, send, and leave without the interpreter's tear-down."""
    try:
        data = memoryview(pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL))
        while data:
            data = data[os.write(pipe, data) :]
    except BaseException:  # the parent sees the pipe's end and computes the part itself
        pass
    finally:
        os._exit(0)
