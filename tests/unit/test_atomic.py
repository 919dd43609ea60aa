"""Outputs replaced atomically, except what is not a regular file (``profdata.atomic``)."""

from __future__ import annotations

import contextlib
import os
import stat
import threading
from pathlib import Path

import pytest

from profdata.atomic import atomic_write_bytes, atomic_write_chunks
from profdata.errors import WriteError


@pytest.fixture
def no_rename(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing may be renamed over the target (were it, the test must fail before a
    device of the machine running it is replaced)."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"renamed: {args}")

    monkeypatch.setattr(os, "replace", refuse)
    monkeypatch.setattr(os, "rename", refuse)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_is_written_in_place(tmp_path: Path, no_rename: None) -> None:
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    try:
        atomic_write_chunks(str(fifo), [b"profile ", memoryview(b"bytes")])
    finally:  # nobody opened the FIFO to write: open it, so the waiting reader ends
        with contextlib.suppress(OSError):  # ENXIO: the reader is gone, all is well
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(timeout=10)
    assert got == [b"profile bytes"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no temporary file left


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_a_full_device_is_an_error_and_stays_a_device(no_rename: None) -> None:
    with pytest.raises(WriteError, match="No space left on device"):
        atomic_write_bytes("/dev/full", b"x" * 100)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_through_a_link_the_file_is_replaced_and_the_link_kept(tmp_path: Path) -> None:
    (tmp_path / "real").write_bytes(b"old")
    (tmp_path / "link").symlink_to("real")
    atomic_write_bytes(str(tmp_path / "link"), b"new")
    assert (tmp_path / "link").is_symlink()
    assert (tmp_path / "real").read_bytes() == b"new"
    (tmp_path / "dangling").symlink_to("made")
    atomic_write_bytes(str(tmp_path / "dangling"), b"fresh")
    assert (tmp_path / "dangling").is_symlink()
    assert (tmp_path / "made").read_bytes() == b"fresh"


def test_a_regular_file_is_replaced_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.profdata"
    target.write_bytes(b"old contents, longer than the new")
    atomic_write_bytes(str(target), b"new")
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.profdata"]
