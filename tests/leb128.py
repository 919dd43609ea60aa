"""ULEB128 bytes for tests that build files by hand.

Encoded here rather than by ``ByteWriter.uleb128``, so that a test of a reader
does not lean on the writer that belongs to the code under test.
"""

from __future__ import annotations


def uleb(*values: int) -> bytes:
    """The ULEB128 encoding of each of ``values`` (non-negative), back to back."""
    out = bytearray()
    for value in values:
        if value < 0:
            raise ValueError(f"a ULEB128 holds no negative number: {value}")
        while True:
            byte, value = value & 0x7F, value >> 7
            out.append(byte | (0x80 if value else 0))
            if not value:
                break
    return bytes(out)
