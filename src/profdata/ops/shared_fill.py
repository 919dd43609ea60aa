"""A buffer filled by two processes at once, for the writers' ``fill_in_two``.

Writing the indexed profile of a 100k-function program spends about 0.2 s
gathering the records' words and putting them in place, all of it
independent item by item.  When a second CPU is idle, a forked child fills
the tail of the buffer while this process fills the head.  A buffer made by
:meth:`SharedFill.zeros` is shared memory, which both fill in place; any
other buffer gets its tail from a shared copy the child fills.  (On a VM
every first touch of a fresh page costs microseconds: the in-place buffer
saves touching the payload twice, 20 MiB more, and the copy.)  The child
holds nothing this process needs afterwards: it is reaped by a thread.  A
child that fails leaves its part to this process, which fills it again and
fails the way a single process would.
"""

from __future__ import annotations

import mmap
import os
import weakref
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from profdata.offload import fork, may_fork
from profdata.reaping import reap_later

Bytes = npt.NDArray[np.uint8]

__all__ = ["SharedFill", "fill_in_two"]

_DONE = b"\x01"


class SharedFill:
    """``fill_in_two(dest, cut, here, there)``: ``here(dest)`` fills ``dest[:cut]`` in this
    process; ``there`` fills ``dest[cut:]``, in a forked child when a CPU is idle for it,
    else here after ``here``."""

    def __init__(self) -> None:
        self._shared: dict[int, mmap.mmap] = {}  # address of each zeros() buffer: its map

    def zeros(self, size: int) -> Bytes:
        """A zeroed buffer of ``size`` bytes in shared memory, which a child fills in place
        (its pages untouched until written, like ``np.zeros``)."""
        if size == 0 or not hasattr(os, "fork"):
            return np.zeros(size, dtype=np.uint8)
        shared = mmap.mmap(-1, size)  # anonymous and shared
        block: Bytes = np.frombuffer(shared, dtype=np.uint8)
        self._shared[block.ctypes.data] = shared
        weakref.finalize(block, self._shared.pop, block.ctypes.data, None)
        return block

    def _in_place(self, dest: Bytes) -> bool:
        shared = self._shared.get(dest.ctypes.data)
        return shared is not None and len(shared) == len(dest)

    def __call__(
        self, dest: Bytes, cut: int, here: Callable[[Bytes], None], there: Callable[[Bytes], None]
    ) -> None:
        if cut >= len(dest) or not may_fork():
            here(dest)
            there(dest)
            return
        in_place = self._in_place(dest)
        shared = None if in_place else mmap.mmap(-1, len(dest))
        tail: Bytes = dest if shared is None else np.frombuffer(shared, dtype=np.uint8)
        read_end, write_end = os.pipe()
        pid = fork()
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
        if done and shared is not None:
            dest[cut:] = tail[cut:]
        del tail
        if shared is not None:
            shared.close()
        if not done:
            there(dest)


fill_in_two = SharedFill()


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
