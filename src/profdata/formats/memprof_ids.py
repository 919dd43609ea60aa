"""The ids LLVM's MemProf writer keys frames and call stacks by.

LLVM 22 (``IndexedMemProfData::hashFrame``/``hashCallStack``) and the call
stack ids of LLVM 19 are the first 8 bytes of BLAKE3 over the fields in
little-endian order; LLVM 16/19 frame ids are ``Frame::hash()``, a
golden-ratio ``hash_combine`` over libstdc++'s identity ``std::hash``.  The ids
decide on-disk order (hash-table buckets, tie-breaks in the frame array and
the radix tree), so a byte-identical writer has to compute them exactly.
Python's ``hashlib`` has no BLAKE3 and the inputs are tiny (17 bytes per
frame, 8 per call-stack frame), so this is a plain implementation of the
BLAKE3 specification (chunks of 1024 bytes, blocks of 64, binary tree of
chaining values).

The frame's serialized layout lives here too, because ``hashFrame`` hashes
exactly the bytes the frame tables and the frame array store.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np

from profdata.model.memprof import Frame

_MASK = 0xFFFFFFFF
_IV = (
    0x6A09E667,
    0xBB67AE85,
    0x3C6EF372,
    0xA54FF53A,
    0x510E527F,
    0x9B05688C,
    0x1F83D9AB,
    0x5BE0CD19,
)
_PERMUTATION = (2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8)
_CHUNK_START = 1
_CHUNK_END = 2
_PARENT = 4
_ROOT = 8
_BLOCK = 64
_CHUNK = 1024
_GOLDEN = 0x9E3779B97F4A7C15  # the fractional part of the golden ratio (Frame::hash)
_U64 = (1 << 64) - 1
# Frame::serialize: u64 Function, u32 LineOffset, u32 Column, bool IsInlineFrame, packed
# little-endian (17 bytes); the one definition the MemProf reader, writer and ids share.
FRAME_LAYOUT = struct.Struct("<QII?")
FRAME_SIZE = FRAME_LAYOUT.size  # Frame::serializedSize()
# the same layout as one row of the V3/V4 frame array
FRAME_DTYPE = np.dtype([("function", "<u8"), ("line", "<u4"), ("column", "<u4"), ("inline", "u1")])


def _g(v: list[int], a: int, b: int, c: int, d: int, x: int, y: int) -> None:
    v[a] = (v[a] + v[b] + x) & _MASK
    t = v[d] ^ v[a]
    v[d] = ((t >> 16) | (t << 16)) & _MASK
    v[c] = (v[c] + v[d]) & _MASK
    t = v[b] ^ v[c]
    v[b] = ((t >> 12) | (t << 20)) & _MASK
    v[a] = (v[a] + v[b] + y) & _MASK
    t = v[d] ^ v[a]
    v[d] = ((t >> 8) | (t << 24)) & _MASK
    v[c] = (v[c] + v[d]) & _MASK
    t = v[b] ^ v[c]
    v[b] = ((t >> 7) | (t << 25)) & _MASK


def _compress(
    cv: Sequence[int], block: Sequence[int], counter: int, length: int, flags: int
) -> list[int]:
    v = [*cv, *_IV[:4], counter & _MASK, (counter >> 32) & _MASK, length, flags]
    m = list(block)
    for round_no in range(7):
        _g(v, 0, 4, 8, 12, m[0], m[1])
        _g(v, 1, 5, 9, 13, m[2], m[3])
        _g(v, 2, 6, 10, 14, m[4], m[5])
        _g(v, 3, 7, 11, 15, m[6], m[7])
        _g(v, 0, 5, 10, 15, m[8], m[9])
        _g(v, 1, 6, 11, 12, m[10], m[11])
        _g(v, 2, 7, 8, 13, m[12], m[13])
        _g(v, 3, 4, 9, 14, m[14], m[15])
        if round_no < 6:
            m = [m[i] for i in _PERMUTATION]
    return [v[i] ^ v[i + 8] for i in range(8)] + [v[i + 8] ^ cv[i] for i in range(8)]


def _words(block: bytes) -> tuple[int, ...]:
    return struct.unpack("<16I", block.ljust(_BLOCK, b"\0"))


def _chunk_output(chunk: bytes, counter: int) -> tuple[list[int], tuple[int, ...], int, int]:
    """The last compression's inputs for one chunk: (cv, block words, length, flags)."""
    cv: list[int] = list(_IV)
    blocks = [chunk[i : i + _BLOCK] for i in range(0, len(chunk), _BLOCK)] or [b""]
    for index, block in enumerate(blocks[:-1]):
        flags = _CHUNK_START if index == 0 else 0
        cv = _compress(cv, _words(block), counter, _BLOCK, flags)[:8]
    last = blocks[-1]
    flags = _CHUNK_END | (_CHUNK_START if len(blocks) == 1 else 0)
    return cv, _words(last), len(last), flags


def blake3_u64(data: bytes) -> int:
    """``TruncatedBLAKE3<8>`` read as a little-endian u64 (LLVM's ``memcpy`` into an id)."""
    chunks = [data[i : i + _CHUNK] for i in range(0, len(data), _CHUNK)] or [b""]
    if len(chunks) == 1:
        cv, block, length, flags = _chunk_output(chunks[0], 0)
        out = _compress(cv, block, 0, length, flags | _ROOT)
        return out[0] | (out[1] << 32)
    stack: list[list[int]] = []
    for index, chunk in enumerate(chunks[:-1]):
        cv, block, length, flags = _chunk_output(chunk, index)
        node = _compress(cv, block, index, length, flags)[:8]
        total = index + 1
        while total & 1 == 0:
            node = _compress(_IV, stack.pop() + node, 0, _BLOCK, _PARENT)[:8]
            total >>= 1
        stack.append(node)
    cv, block, length, flags = _chunk_output(chunks[-1], len(chunks) - 1)
    right = _compress(cv, block, len(chunks) - 1, length, flags)[:8]
    while len(stack) > 1:
        right = _compress(_IV, stack.pop() + right, 0, _BLOCK, _PARENT)[:8]
    out = _compress(_IV, stack.pop() + right, 0, _BLOCK, _PARENT | _ROOT)
    return out[0] | (out[1] << 32)


def frame_bytes(frame: Frame) -> bytes:
    """``Frame::serialize``: what frame tables store and what ``hashFrame`` hashes."""
    return FRAME_LAYOUT.pack(frame.function, frame.line_offset, frame.column, frame.is_inline_frame)


def frame_id_blake3(frame: Frame) -> int:
    """``IndexedMemProfData::hashFrame`` (LLVM 20+)."""
    return blake3_u64(frame_bytes(frame))


def frame_id_golden(frame: Frame) -> int:
    """``Frame::hash()`` of LLVM 16-19 (``std::hash`` of an integer is the integer)."""
    result = 0
    for value in (frame.function, frame.line_offset, frame.column, int(frame.is_inline_frame)):
        result ^= (value + _GOLDEN + ((result << 6) & _U64) + (result >> 2)) & _U64
    return result


def call_stack_id(frame_ids: Sequence[int]) -> int:
    """``hashCallStack``: BLAKE3 over the frame ids (LLVM 19+)."""
    return blake3_u64(struct.pack(f"<{len(frame_ids)}Q", *frame_ids))
