"""Atomic file output: temp file in the target directory, fsync, rename.

A merge that fails or is interrupted must never leave a truncated profile
where a build expects a good one; readers of the target see either the old
file or the complete new one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable

from profdata.errors import WriteError
from profdata.pieces import Chunk, write_pieces


def atomic_write_chunks(path: str, chunks: Iterable[Chunk]) -> None:
    target = os.path.abspath(path)
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


def atomic_write_bytes(path: str, data: bytes | bytearray | memoryview) -> None:
    atomic_write_chunks(path, [data])


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
