"""The inputs of a sample column merge, every other one read in a second process.

Reading an input into columns (:mod:`profdata.formats.sample_columns`,
:mod:`profdata.formats.sample_text_columns`) is most of a column merge's
time, and inputs do not depend on each other; summing them into the merged
profile is cheap and must go in input order.  So when a second CPU is idle a
forked worker reads the odd-numbered inputs while this process reads the
even ones and sums everything in order.  The worker sends each result
through a pipe as soon as it has it; the pipe's small buffer keeps it at
most one input ahead, so memory does not grow with the number of inputs.

Reading has no side effects to order: an input that cannot be read into
columns makes the whole column merge decline (the record-by-record merge
then reads everything again and reports what it finds), so the worker just
sends ``None`` for it and stops.
"""

from __future__ import annotations

import os
import pickle
import signal
from collections.abc import Callable, Generator, Sequence
from contextlib import suppress
from typing import BinaryIO, TypeVar

from profdata.cpus import idle_cpus
from profdata.fork_policy import can_fork
from profdata.offload import fork
from profdata.ops.merge_inputs import WeightedFile

T = TypeVar("T")

#: inputs smaller than this in all are read here unless asked: a fork costs more than it saves
MIN_BYTES = 1 << 20


def read_in_order(
    inputs: Sequence[WeightedFile], read: Callable[[WeightedFile], T | None], processes: int
) -> Generator[T | None, None, None]:
    """``read(entry)`` of every input in order.  With ``processes`` above 1 a forked
    worker reads every other input from the second on; with 0, from the first input
    at which a second CPU is idle (looked at every few inputs: a CPU still busy with
    the previous command is often free a moment later)."""
    if not _may_fork(inputs, processes):
        for entry in inputs:
            yield read(entry)
        return
    pid = -1
    pipe: BinaryIO | None = None
    first = 0  # the worker reads inputs first + 1, first + 3, ...
    try:
        for index, entry in enumerate(inputs):
            look = pipe is None and index % _LOOK_EVERY == 0 and index + 1 < len(inputs)
            if look and (processes > 1 or idle_cpus() >= 2):
                pid, pipe = _start(inputs[index + 1 :: 2], read)
                first = index
            if pipe is not None and (index - first) % 2:
                yield _receive(pipe)
            else:
                yield read(entry)
    finally:
        if pipe is not None:
            pipe.close()
            _end(pid)


#: inputs read between two looks at the idle CPUs
_LOOK_EVERY = 4


def _may_fork(inputs: Sequence[WeightedFile], processes: int) -> bool:
    if processes == 1 or len(inputs) < 2 or not can_fork():
        return False
    if processes > 1:
        return True
    try:
        size = sum(os.path.getsize(entry.path) for entry in inputs)
    except OSError:
        return False  # the reader says what is wrong with it
    return size >= MIN_BYTES


def _start(
    entries: Sequence[WeightedFile], read: Callable[[WeightedFile], T | None]
) -> tuple[int, BinaryIO]:
    read_end, write_end = os.pipe()
    pid = fork()
    if pid == 0:  # pragma: no cover - runs in the child, which never returns
        os.close(read_end)
        _work(entries, read, write_end)
    os.close(write_end)
    return pid, os.fdopen(read_end, "rb")


def _receive(pipe: BinaryIO) -> T | None:
    try:
        result: T | None = pickle.load(pipe)
    except Exception:  # the worker failed or was cut off: decline, the long way reads it
        return None
    return result


def _work(
    entries: Sequence[WeightedFile], read: Callable[[WeightedFile], T | None], fd: int
) -> None:  # pragma: no cover - runs in a forked child
    try:
        with os.fdopen(fd, "wb") as out:
            for entry in entries:
                result = read(entry)
                pickle.dump(result, out, protocol=pickle.HIGHEST_PROTOCOL)
                out.flush()
                if result is None:
                    break
    except BaseException:  # the parent sees the pipe end and declines
        pass
    finally:
        os._exit(0)


def _end(pid: int) -> None:
    """Stop the worker (it may be waiting to send what is no longer wanted) and reap it."""
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


__all__ = ["MIN_BYTES", "read_in_order"]
