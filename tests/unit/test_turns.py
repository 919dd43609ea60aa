"""A stream's batches written by two processes taking turns (:mod:`profdata.turns`)."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profdata import offload as offload_module
from profdata import turns
from profdata.formats import sample_column_order
from profdata.formats.row_text import Decimal, Field
from profdata.formats.sample_column_order import BodyRows, Framed
from profdata.pieces import Chunks, Stream, write_pieces
from tests.unit.test_pieces import _written


class Reusing(Chunks):
    """Batch ``k`` is ``texts[k]``, put in one buffer that every batch overwrites (as a
    dump's chunks are); ``fail(k)`` may raise (or end the process) instead."""

    def __init__(self, texts: list[list[bytes]], fail: object = None) -> None:
        self.texts = texts
        self.buffer = bytearray(max((sum(map(len, b)) for b in texts), default=0))
        self.fail = fail
        self.made: list[int] = []

    def __len__(self) -> int:
        return len(self.texts)

    def render(self, k: int) -> list[memoryview]:
        if callable(self.fail):
            self.fail(k)
        self.made.append(k)
        self.buffer[:] = b"\0" * len(self.buffer)  # nothing of the last batch is left
        view, at, out = memoryview(self.buffer), 0, []
        for text in self.texts[k]:
            view[at : at + len(text)] = text
            out.append(view[at : at + len(text)])
            at += len(text)
        return out


@pytest.fixture
def two_cpus(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """An idle second CPU, whatever the machine is doing; records each fork decision."""
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 2)
    taken: list[bool] = []
    real = turns.write_in_turns

    def recorded(fd: int, chunks: Chunks) -> bool:
        taken.append(real(fd, chunks))
        return taken[-1]

    monkeypatch.setattr(turns, "write_in_turns", recorded)
    yield taken


def _joined(texts: list[list[bytes]]) -> bytes:
    return b"".join(b"".join(batch) for batch in texts)


batches = st.lists(st.lists(st.binary(max_size=30), max_size=5), min_size=4, max_size=11)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(batches)
def test_turns_write_the_batches_in_order(
    tmp_path_factory: pytest.TempPathFactory, two_cpus: list[bool], texts: list[list[bytes]]
) -> None:
    got = _written(tmp_path_factory.mktemp("turns"), [b"<", Stream(Reusing(texts)), b">"])
    assert got == b"<" + _joined(texts) + b">"
    assert two_cpus[-1]  # written in turns


def test_the_child_makes_the_odd_batches(tmp_path: Path, two_cpus: list[bool]) -> None:
    texts = [[b"%d," % k] for k in range(7)]
    chunks = Reusing(texts)
    assert _written(tmp_path, [Stream(chunks)]) == _joined(texts)
    assert chunks.made == [0, 2, 4, 6]  # here; 1, 3 and 5 in the child


def test_few_batches_or_a_busy_machine_are_written_here(
    tmp_path: Path, two_cpus: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    few = Reusing([[b"a"], [b"b"], [b"c"]])
    (tmp_path / "few").mkdir()
    assert _written(tmp_path / "few", [Stream(few)]) == b"abc"
    assert few.made == [0, 1, 2]
    monkeypatch.setattr(offload_module, "idle_cpus", lambda: 1)
    busy = Reusing([[b"%d" % k] for k in range(6)])
    (tmp_path / "busy").mkdir()
    assert _written(tmp_path / "busy", [Stream(busy)]) == b"012345"
    assert busy.made == list(range(6))
    assert two_cpus == [False, False]


def test_a_batch_the_child_cannot_make_is_made_here(tmp_path: Path, two_cpus: list[bool]) -> None:
    """The parent makes the failed batch and the rest; the output is whole."""
    parent = os.getpid()

    def fail_in_child(k: int) -> None:
        if k == 3 and os.getpid() != parent:
            raise MemoryError

    texts = [[b"batch %d;" % k] for k in range(8)]
    chunks = Reusing(texts, fail_in_child)
    assert _written(tmp_path, [Stream(chunks)]) == _joined(texts)
    assert chunks.made == [0, 2, 4, 3, 4, 5, 6, 7]  # 4 made again after 3


def test_a_batch_nobody_can_make_fails_as_in_one_process(
    tmp_path: Path, two_cpus: list[bool]
) -> None:
    def fail(k: int) -> None:
        if k == 5:
            raise ValueError("batch 5 is bad")

    texts = [[b"%d" % k] for k in range(9)]
    with pytest.raises(ValueError, match="batch 5 is bad"):
        _written(tmp_path, [Stream(Reusing(texts, fail))])
    assert (tmp_path / "out").read_bytes() == b"01234"


def test_the_childs_failed_write_is_raised_here(two_cpus: list[bool]) -> None:
    """The child writes first (the parent's batch 0 is empty) into a full disk."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    texts = [[], [b"x" * 100], [b"y"], [b"z"]]
    fd = os.open("/dev/full", os.O_WRONLY)
    try:
        with pytest.raises(OSError) as caught:
            write_pieces(fd, [Stream(Reusing(texts))])
    finally:
        os.close(fd)
    assert caught.value.errno == errno.ENOSPC
    assert caught.value.strerror == os.strerror(errno.ENOSPC)


def test_a_reader_that_left_is_a_broken_pipe_whoever_writes(two_cpus: list[bool]) -> None:
    for first in ([], [b"a"]):  # the child's write or this process's meets it first
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            with pytest.raises(BrokenPipeError):
                write_pieces(write_end, [Stream(Reusing([first, [b"b"], [b"c"], [b"d"]]))])
        finally:
            os.close(write_end)


def test_a_child_that_dies_is_an_error_not_a_short_output(
    tmp_path: Path, two_cpus: list[bool]
) -> None:
    parent = os.getpid()

    def die(k: int) -> None:
        if os.getpid() != parent:
            os._exit(9)  # as if killed: no word to the parent

    with pytest.raises(OSError, match="every other part of the output ended") as caught:
        _written(tmp_path, [Stream(Reusing([[b"a"]] * 5, die))])
    assert caught.value.errno == errno.EIO


def test_a_dump_in_turns_is_the_dump_in_one_process(
    tmp_path: Path, two_cpus: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """:class:`Framed` in chunks of a few nodes, with a lead before the first."""
    nodes = 50
    order = np.random.default_rng(5).permutation(nodes).astype(np.int64)
    head: list[Field] = [b"<", Decimal(np.arange(nodes, dtype=np.uint64) * 7919)]
    counts = np.arange(nodes, dtype=np.int64) % 4
    at = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    body = BodyRows([b" row ", Decimal(np.arange(int(at[-1]), dtype=np.uint64)), b"\n"], at)
    want = b"[" + b"".join(
        b"<%d" % (n * 7919) + b"".join(b" row %d\n" % r for r in range(at[n], at[n + 1])) + b">"
        for n in order.tolist()
    )
    monkeypatch.setattr(sample_column_order, "_CHUNK_ROWS", 7)
    stream = Framed(order, head, body, [b">"], lead=b"[")
    assert len(stream) > 10
    assert _written(tmp_path, [Stream(stream)]) == want
    assert two_cpus == [True]
