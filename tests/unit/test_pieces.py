"""Pieces of output written to a file descriptor in ``writev`` batches."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata import pieces
from profdata.atomic import atomic_write_chunks
from profdata.pieces import Chunk, Piece, Stream, joined, write_pieces


def _reusing(texts: list[list[bytes]]) -> Stream:
    """A stream whose batches all live in one buffer, overwritten batch by batch."""
    buffer = bytearray(max((sum(map(len, b)) for b in texts), default=0))

    def batches() -> Iterator[list[memoryview]]:
        for batch in texts:
            view, at, out = memoryview(buffer), 0, []
            for text in batch:
                view[at : at + len(text)] = text
                out.append(view[at : at + len(text)])
                at += len(text)
            yield out

    return Stream(batches())


def _written(tmp_path: Path, chunks: Sequence[Chunk]) -> bytes:
    path = tmp_path / "out"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        write_pieces(fd, chunks)
    finally:
        os.close(fd)
    return path.read_bytes()


texts = st.lists(st.lists(st.binary(max_size=40), max_size=8), max_size=6)


@settings(max_examples=200, deadline=None)
@given(texts, st.lists(st.binary(max_size=20), max_size=5), st.integers(1, 50))
def test_short_writes_lose_and_repeat_nothing(
    tmp_path_factory: pytest.TempPathFactory,
    batches: list[list[bytes]],
    plain: list[bytes],
    most: int,
) -> None:
    """Every ``writev`` takes at most ``most`` bytes (as a signal or a full pipe may cut
    it); a stream's batch is written before the next overwrites its buffer."""
    real = os.writev

    def short(fd: int, buffers: Sequence[Piece]) -> int:
        data = b"".join(bytes(b) for b in buffers)[:most]
        return real(fd, [data])

    chunks: list[Chunk] = [*plain, _reusing(batches), *plain]
    want = b"".join(plain) + b"".join(b"".join(b) for b in batches) + b"".join(plain)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "writev", short)
        got = _written(tmp_path_factory.mktemp("w"), chunks)
    assert got == want


def test_more_pieces_than_one_writev_takes(tmp_path: Path) -> None:
    many = [b"%d," % i for i in range(3 * pieces._IOV_MAX + 5)]
    calls: list[int] = []
    real = os.writev

    def counted(fd: int, buffers: Sequence[Piece]) -> int:
        calls.append(len(buffers))
        return real(fd, buffers)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "writev", counted)
        got = _written(tmp_path, [_reusing([many[:10], many[10:]])])
    assert got == b"".join(many)
    assert max(calls) <= pieces._IOV_MAX
    assert calls == [10, pieces._IOV_MAX, pieces._IOV_MAX, len(many) - 10 - 2 * pieces._IOV_MAX]


def test_without_writev_each_piece_is_written(tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.delattr(os, "writev")
        got = _written(tmp_path, [b"a", _reusing([[b"bc", b""], [b"d"]]), b"ef"])
    assert got == b"abcdef"


def test_atomic_write_takes_a_stream(tmp_path: Path) -> None:
    target = tmp_path / "dump.txt"
    atomic_write_chunks(str(target), [b"[", _reusing([[b"1", b"2"], [b"3"]]), b"]"])
    assert target.read_bytes() == b"[123]"
    assert [p.name for p in tmp_path.iterdir()] == ["dump.txt"]  # no temp file left


def test_a_stream_joined_or_written_is_the_same_text(tmp_path: Path) -> None:
    batches = [[b"x" * 5, b"y"], [b"zz"], [], [b"w"]]
    assert joined([_reusing(batches)]) == _written(tmp_path, [_reusing(batches)]) == b"xxxxxyzzw"
