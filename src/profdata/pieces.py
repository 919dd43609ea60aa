"""Output text in pieces, some of them good only until the next one is taken.

A large dump (``show --sample`` of a 16 MB profile prints 400 MB of JSON) is
rendered a chunk of rows at a time into buffers that every chunk reuses, so its
pieces must be written, or copied, one after the other as they come.  A
:class:`Stream` marks such pieces among ordinary ones, made in batches (a
chunk's pieces); :func:`flat` hands every piece over in turn, :func:`joined`
copies them into one ``bytes`` and :func:`write_pieces` writes them to a file
descriptor a batch at a time.  A stream whose batches are :class:`Chunks` (each
made on its own, in any order) may be written by two processes taking turns
(:mod:`profdata.turns`).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence

Piece = bytes | bytearray | memoryview


def _iov_max() -> int:
    """``IOV_MAX``: the most buffers one ``writev`` takes (1024 on Linux; POSIX: 16)."""
    try:
        return max(int(os.sysconf("SC_IOV_MAX")), 16)
    except (AttributeError, ValueError, OSError):
        return 16


_IOV_MAX = _iov_max()


class Chunks(ABC):
    """Batches that can be made in any order, each on its own (a batch is good only
    until the next one is made by the same process)."""

    @abstractmethod
    def __len__(self) -> int: ...

    @abstractmethod
    def render(self, k: int) -> Sequence[memoryview]:
        """Batch ``k``."""

    def __iter__(self) -> Iterator[Sequence[memoryview]]:
        return (self.render(k) for k in range(len(self)))


class Stream:
    """Pieces made as they are taken, in batches each good only until the next batch
    is taken; taken once (a second pass would find the buffers reused)."""

    __slots__ = ("_batches",)

    def __init__(self, batches: Iterable[Sequence[memoryview]]) -> None:
        self._batches: Iterable[Sequence[memoryview]] | None = batches

    def take(self) -> Iterable[Sequence[memoryview]]:
        """The batches, as given (:class:`Chunks`, for one)."""
        batches, self._batches = self._batches, None
        if batches is None:
            raise RuntimeError("the pieces of a stream are taken once")
        return batches

    def batches(self) -> Iterator[Sequence[memoryview]]:
        """The pieces a batch at a time."""
        return iter(self.take())

    def __iter__(self) -> Iterator[memoryview]:
        for batch in self.batches():
            yield from batch


Chunk = Piece | Stream


def flat(chunks: Iterable[Chunk]) -> Iterator[Piece]:
    """Every piece in turn, a stream's as they are made."""
    for chunk in chunks:
        if isinstance(chunk, Stream):
            yield from chunk
        else:
            yield chunk


def write_pieces(fd: int, chunks: Iterable[Chunk]) -> None:
    """Every piece written to ``fd`` in turn, up to :data:`_IOV_MAX` in one ``writev``
    (a stream's batch before the next is made).

    A dump of 190k nodes is 380k pieces: written one by one (``writelines``, each
    copied into the file object's buffer) they took 0.17 s to ``/dev/null`` and
    0.33 s into a pipe, in batches 0.05 s and 0.13-0.19 s.  A stream of
    :class:`Chunks` may be written by two processes (:func:`profdata.turns.write_in_turns`)."""
    waiting: list[Piece] = []
    for chunk in chunks:
        if isinstance(chunk, Stream):
            write_batch(fd, waiting)
            waiting = []
            batches = chunk.take()
            if isinstance(batches, Chunks):
                from profdata.turns import write_in_turns  # which imports this module

                if write_in_turns(fd, batches):
                    continue
            for batch in batches:
                write_batch(fd, batch)
        else:
            waiting.append(chunk)
    write_batch(fd, waiting)


def write_batch(fd: int, pieces: Sequence[Piece]) -> None:
    """``pieces`` written to ``fd``, up to :data:`_IOV_MAX` a call."""
    for first in range(0, len(pieces), _IOV_MAX):
        group = pieces[first : first + _IOV_MAX]
        written = _writev(fd, group)
        if written < sum(map(len, group)):
            _write_rest(fd, group, written)


def _write_rest(fd: int, group: Sequence[Piece], written: int) -> None:
    """The rest of ``group`` after a short write (a signal, a full disk) of ``written``
    bytes."""
    left = [memoryview(piece) for piece in group]
    while left:
        while left and written >= len(left[0]):
            written -= len(left.pop(0))
        if not left:
            return
        left[0] = left[0][written:]
        written = _writev(fd, left)


def _writev(fd: int, pieces: Sequence[Piece]) -> int:
    if hasattr(os, "writev"):
        return os.writev(fd, pieces)
    return os.write(fd, pieces[0]) if pieces else 0  # no writev (Windows)


def joined(chunks: Iterable[Chunk]) -> bytes:
    """The pieces as one ``bytes``, each copied as it comes."""
    out = bytearray()
    for piece in flat(chunks):
        out += piece
    return bytes(out)


__all__ = ["Chunk", "Chunks", "Piece", "Stream", "flat", "joined", "write_batch", "write_pieces"]
