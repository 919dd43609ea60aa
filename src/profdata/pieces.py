"""Output text in pieces, some of them good only until the next one is taken.

A large dump (``show --sample`` of a 16 MB profile prints 400 MB of JSON) is
rendered a chunk of rows at a time into buffers that every chunk reuses, so its
pieces must be written, or copied, one after the other as they come.  A
:class:`Stream` marks such pieces among ordinary ones; :func:`flat` hands every
piece over in turn and :func:`joined` copies them into one ``bytes``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Piece = bytes | memoryview


class Stream:
    """Pieces made as they are taken, each good only until the next one is taken;
    taken once (a second pass would find the buffers reused)."""

    __slots__ = ("_pieces",)

    def __init__(self, pieces: Iterable[memoryview]) -> None:
        self._pieces: Iterable[memoryview] | None = pieces

    def __iter__(self) -> Iterator[memoryview]:
        pieces, self._pieces = self._pieces, None
        if pieces is None:
            raise RuntimeError("the pieces of a stream are taken once")
        return iter(pieces)


Chunk = Piece | Stream


def flat(chunks: Iterable[Chunk]) -> Iterator[Piece]:
    """Every piece in turn, a stream's as they are made."""
    for chunk in chunks:
        if isinstance(chunk, Stream):
            yield from chunk
        else:
            yield chunk


def joined(chunks: Iterable[Chunk]) -> bytes:
    """The pieces as one ``bytes``, each copied as it comes."""
    out = bytearray()
    for piece in flat(chunks):
        out += piece
    return bytes(out)


__all__ = ["Chunk", "Piece", "Stream", "flat", "joined"]
