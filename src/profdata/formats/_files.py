"""A profile file's bytes, memory-mapped: the one way every reader opens a file.

Readers take a ``memoryview`` and index it lazily, so a mapped file costs only
the pages they touch; a file that cannot be mapped (a pipe, a special file)
is read whole instead.  ``populate`` asks the kernel to map every page at
once, which pays when the caller reads all of them (the fast merge does).
"""

from __future__ import annotations

import mmap
import os
import sys

from profdata.errors import FileError


def map_file(path: str | os.PathLike[str], *, populate: bool = False) -> memoryview:
    """The file's bytes (an empty view for an empty file); FileError if it cannot be opened."""
    spath = os.fspath(path)
    try:
        with open(spath, "rb") as fh:
            if os.fstat(fh.fileno()).st_size == 0:
                return memoryview(b"")
            flags = mmap.MAP_SHARED | (getattr(mmap, "MAP_POPULATE", 0) if populate else 0)
            try:
                return memoryview(mmap.mmap(fh.fileno(), 0, flags=flags, prot=mmap.PROT_READ))
            except (OSError, ValueError):
                return memoryview(fh.read())
    except OSError as exc:
        raise FileError(exc.strerror or str(exc), path=spath) from exc


def input_bytes(path: str | os.PathLike[str]) -> memoryview:
    """An input's bytes: ``-`` is standard input (LLVM's ``getFileOrSTDIN``), any other
    name the mapped file."""
    if os.fspath(path) == "-":
        return memoryview(sys.stdin.buffer.read())
    return map_file(path)


__all__ = ["input_bytes", "map_file"]
