"""A buffer filled by two processes at once, for the writers' ``fill_in_two``.

Writing the indexed profile of a 100k-function program spends about 0.2 s
gathering the records' words and putting them in place, all of it
independent item by item.  When a second CPU is idle, a forked child fills
the tail of the buffer in shared memory while this process fills the head,
and the tail is then copied over (10 MiB: a few milliseconds).  The child
holds nothing this process needs afterwards: it is reaped by a thread.  A
child that fails leaves its part to this process, which fills it again and
fails the way a single process would.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from profdata.ops.cpus import idle_cpus
from profdata.ops.reaping import join_reapers, reap_later

Bytes = npt.NDArray[np.uint8]

__all__ = ["fill_in_two"]

_DONE = b"\x01"


def fill_in_two(
    dest: Bytes, cut: int, here: Callable[[Bytes], None], there: Callable[[Bytes], None]
) -> None:
    """``here(dest)`` fills ``dest[:cut]`` in this process; ``there`` fills ``dest[cut:]``,
    in a forked child when a CPU is idle for it, else here after ``here``."""
    join_reapers()  # no thread may run across the fork; earlier workers are gone by now
    if cut >= len(dest) or not hasattr(os, "fork") or idle_cpus() < 2:
        here(dest)
        there(dest)
        return
    shared = mmap.mmap(-1, len(dest))  # anonymous and shared: the child's writes show here
    tail: Bytes = np.frombuffer(shared, dtype=np.uint8)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child, which never returns
        os.close(read_end)
        _child(tail, there, write_end)
    os.close(write_end)
    try:
        here(dest)
    finally:
        with os.fdopen(read_end, "rb") as pipe:
            done = pipe.read() == _DONE
        reap_later(pid)
    if done:
        dest[cut:] = tail[cut:]
    del tail
    shared.close()
    if not done:
        there(dest)


def _child(tail: Bytes, there: Callable[[Bytes], None], pipe: int) -> None:  # pragma: no cover
    """Fill, say whether it went well, and leave without the interpreter's tear-down."""
    said = b""
    try:
        there(tail)
        said = _DONE
    except BaseException:  # the parent fills the part itself, and reports what fails
        pass
    finally:
        try:
            os.write(pipe, said)
        finally:
            os._exit(0)
