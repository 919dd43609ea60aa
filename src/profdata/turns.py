"""A stream's batches made by two processes that take turns writing them.

Rendering a large dump is most of its time (``show --sample`` of a 16 MB
extbinary profile: 0.85 s of 1.8 s; its JSON: 2.0 s of 3.1 s), and each batch
of :class:`~profdata.pieces.Chunks` is made on its own.  When a second CPU is
idle, a forked child makes the odd batches while this process makes the even
ones; a token passed through two pipes says whose turn it is to write, so the
output is the serial one, written to the same file description (one offset
for a file, one pipe for standard output).  Each process renders its next
batch while the other writes, and reuses its own buffers, so memory stays one
chunk's worth a process.

A child that fails to make a batch says so before its turn: this process makes
that batch and every later one itself, and fails (if it does) the way a single
process would.  A child that fails to write says with which ``errno``, raised
here as the ``OSError`` a single process would have met.
"""

from __future__ import annotations

import errno
import os
import signal
from contextlib import suppress

from profdata.offload import fork, may_fork
from profdata.pieces import Chunks, write_batch
from profdata.reaping import reap_later

__all__ = ["MIN_CHUNKS", "write_in_turns"]

#: fewer batches are written by one process: a fork (a few ms) saves little on them
MIN_CHUNKS = 4

_TURN = b"t"  # your turn to write (the sender's batch is written)
_FAILED = b"f"  # the child could not make its batch, and wrote nothing of it
_ERROR = b"e"  # then the errno of the child's failed write


def write_in_turns(fd: int, chunks: Chunks) -> bool:
    """Every batch of ``chunks`` written to ``fd`` in order by this process and a forked
    child taking turns; ``False`` (nothing written) where one process had better."""
    if len(chunks) < MIN_CHUNKS or not may_fork():
        return False
    from_parent, to_child = os.pipe()
    from_child, to_parent = os.pipe()
    pid = fork()
    if pid == 0:  # pragma: no cover - runs in the child, which never returns
        os.close(to_child)
        os.close(from_child)
        _child(fd, chunks, from_parent, to_parent)
    os.close(from_parent)
    os.close(to_parent)
    finished = False
    try:
        _parent(fd, chunks, to_child, from_child)
        finished = True
    finally:
        os.close(to_child)  # a child waiting for its turn reads the end and leaves
        os.close(from_child)
        if not finished:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        reap_later(pid)
    return True


def _parent(fd: int, chunks: Chunks, to_child: int, from_child: int) -> None:
    """The even batches, each made while the child writes the one before it; from the
    first batch the child could not make, every batch."""
    count = len(chunks)
    for k in range(0, count + 1, 2):
        batch = chunks.render(k) if k < count else None
        if k and _wait(from_child) == _FAILED:
            for j in range(k - 1, count):  # batch k is made again: its buffers are reused
                write_batch(fd, chunks.render(j))
            return
        if batch is not None:
            write_batch(fd, batch)
            if k + 1 < count:
                _pass(to_child)


def _wait(pipe: int) -> bytes:
    """The child's word after its turn: :data:`_TURN` or :data:`_FAILED`; an ``OSError``
    for the write it failed."""
    said = os.read(pipe, 1)  # one word: a failure may follow a turn before it is read
    if said == _ERROR:
        code = int(os.read(pipe, 16) or errno.EIO)
        raise OSError(code, os.strerror(code))
    if said not in (_TURN, _FAILED):  # killed (the end of the pipe), maybe mid-write
        raise OSError(errno.EIO, "the process writing every other part of the output ended")
    return said


def _pass(pipe: int) -> None:
    """The turn to the child (gone, if it failed: then its word is waiting)."""
    with suppress(BrokenPipeError):
        os.write(pipe, _TURN)


def _child(fd: int, chunks: Chunks, turns: int, words: int) -> None:  # pragma: no cover
    """The odd batches, each written in its turn; leave without the interpreter's
    tear-down (nothing of the parent's, such as buffered output, is flushed here)."""
    try:
        for k in range(1, len(chunks), 2):
            try:
                batch = chunks.render(k)
            except BaseException:
                os.write(words, _FAILED)  # the parent makes it, and says what is wrong
                break
            if os.read(turns, 1) != _TURN:
                break  # the parent stopped
            try:
                write_batch(fd, batch)
            except OSError as exc:
                os.write(words, _ERROR + str(exc.errno or errno.EIO).encode())
                break
            os.write(words, _TURN)
    except BaseException:  # the parent sees the pipe's end
        pass
    finally:
        os._exit(0)
