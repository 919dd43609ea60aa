"""The one MemProf frame layout (``Frame::serialize``) as struct, numpy row and hash input,
and the raw-profile magic check that ``merge`` and ``show --memory`` share."""

from __future__ import annotations

import numpy as np

from profdata.formats.memprof_ids import (
    FRAME_DTYPE,
    FRAME_LAYOUT,
    FRAME_SIZE,
    frame_bytes,
)
from profdata.formats.memprof_magic import MEMPROF_RAW_MAGIC, is_memprof_raw
from profdata.model.memprof import Frame

FRAME = Frame(0x1122334455667788, 7, 300, True)


def test_frame_is_17_little_endian_bytes() -> None:
    expected = bytes.fromhex("8877665544332211070000002c01000001")
    assert FRAME_SIZE == 17
    assert frame_bytes(FRAME) == expected
    assert Frame(*FRAME_LAYOUT.unpack(expected)) == FRAME


def test_the_frame_array_row_has_the_same_bytes() -> None:
    row = np.array([(FRAME.function, FRAME.line_offset, FRAME.column, 1)], dtype=FRAME_DTYPE)
    assert FRAME_DTYPE.itemsize == FRAME_SIZE
    assert row.tobytes() == frame_bytes(FRAME)


def test_raw_magic_is_checked_on_the_first_8_bytes() -> None:
    assert is_memprof_raw(MEMPROF_RAW_MAGIC + b"rest")
    assert is_memprof_raw(memoryview(MEMPROF_RAW_MAGIC))
    assert not is_memprof_raw(MEMPROF_RAW_MAGIC[:7])
    assert not is_memprof_raw(b"\xfflprofi\x81")
