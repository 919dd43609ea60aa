"""Setting one field of a real profile's bytes, as a damaged or hand-written runtime would.

The malformed tests take goldens the real tools made and change one header word,
one flag bit or one packed field to a value at an edge; the offsets and the 64-bit
wrap of those edits live here once.  Raw and indexed headers are arrays of
little-endian 64-bit words in every golden these tests patch.
"""

from __future__ import annotations

import struct

_WORD = 1 << 64


def patched(data: bytes, at: int, value: int, fmt: str = "<Q") -> bytes:
    """``data`` with ``value`` packed by ``fmt`` at byte ``at``."""
    out = bytearray(data)
    struct.pack_into(fmt, out, at, value)
    return bytes(out)


def with_word(data: bytes, index: int, value: int) -> bytes:
    """``data`` with 64-bit word ``index`` set to ``value`` modulo 2**64 (a negative value
    is its two's complement, as a runtime's signed delta is written)."""
    return patched(data, 8 * index, value % _WORD)


def word(data: bytes, index: int) -> int:
    """64-bit word ``index`` of ``data``, unsigned."""
    value: int = struct.unpack_from("<Q", data, 8 * index)[0]
    return value


def with_bit(data: bytes, bit: int, index: int = 1) -> bytes:
    """``data`` with bit ``bit`` of 64-bit word ``index`` set (word 1 is a raw header's
    version word, whose top byte holds the variant flags)."""
    return with_word(data, index, word(data, index) | (1 << bit))


__all__ = ["patched", "with_bit", "with_word", "word"]
