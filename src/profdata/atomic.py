"""Atomic file output: temp file in the target directory, fsync, rename.

A merge that fails or is interrupted must never leave a truncated profile
where a build expects a good one; readers of the target see either the old
file or the complete new one.  Only a regular file (or none) is replaced so:
a device, FIFO or terminal (``-o /dev/null``, ``/dev/stdout``) is written in
place, as llvm-profdata writes it -- renamed over, ``/dev/null`` became a
regular file for every program on the machine (as root).  Through a symbolic
link the file it names is replaced and the link kept.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable

from profdata.errors import WriteError
from profdata.pieces import Chunk, write_pieces


def atomic_write_chunks(path: str, chunks: Iterable[Chunk]) -> None:
    if _not_a_file(path):
        _write_in_place(path, chunks)
        return
    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".profdata-", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise WriteError(exc.strerror or str(exc), path=path) from exc
    try:
        try:
            write_pieces(fd, chunks)
            os.fsync(fd)
        finally:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise WriteError(exc.strerror or str(exc), path=path) from exc
        raise


def _not_a_file(path: str) -> bool:
    """Whether ``path`` names something other than a regular file (a link: what it names)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # none yet, or a dangling link: a file is made
        return False


def _write_in_place(path: str, chunks: Iterable[Chunk]) -> None:
    try:
        fd = os.open(
            path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o666
        )
    except OSError as exc:
        raise WriteError(exc.strerror or str(exc), path=path) from exc
    try:
        write_pieces(fd, chunks)
    except OSError as exc:
        raise WriteError(exc.strerror or str(exc), path=path) from exc
    finally:
        os.close(fd)


def atomic_write_bytes(path: str, data: bytes | bytearray | memoryview) -> None:
    atomic_write_chunks(path, [data])


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
