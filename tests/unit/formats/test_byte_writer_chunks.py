"""``ByteWriter.attach``: a block taken without a copy, positions counting every chunk.

The indexed writer attaches its hash-table payload (filled in place, in
shared memory) and writes the bucket table and trailing sections after it,
then patches the header in the first chunk; the chunks written in turn must
be the bytes one buffer would hold.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from profdata.formats._binary import ByteWriter
from profdata.formats.indexed_layout import layout
from profdata.formats.indexed_write import encode_indexed
from profdata.model.instr import InstrProfile
from profdata.model.kinds import ProfileKind
from profdata.releases import SUPPORTED, release
from profdata.testing.strategies import instr_profiles


def test_positions_count_the_attached_block() -> None:
    out = ByteWriter()
    head = out.reserve_u64()
    out.u32(7)
    block = np.arange(13, dtype=np.uint8)
    out.attach(block.data)
    assert len(out) == 12 + 13
    out.align8()
    assert len(out) == 32
    tail = out.reserve_u64()
    out.patch_u64(head, 0x1122334455667788)
    out.patch_u64(tail, 5)
    out.patch_words(0, (0x1122334455667788,))
    expected = (
        (0x1122334455667788).to_bytes(8, "little")
        + (7).to_bytes(4, "little")
        + bytes(range(13))
        + bytes(7)
        + (5).to_bytes(8, "little")
    )
    assert b"".join(out.chunks()) == expected == out.getvalue()


def test_an_attached_block_is_not_patched() -> None:
    out = ByteWriter()
    out.u64(0)
    out.attach(np.zeros(16, dtype=np.uint8).data)
    with pytest.raises(ValueError, match="attached block"):
        out.patch_u64(8, 1)
    with pytest.raises(ValueError, match="attached block"):
        out.patch_u64(4, 1)  # straddles the first chunk's end


def test_without_a_block_one_chunk() -> None:
    out = ByteWriter()
    out.u16(3)
    assert out.chunks() == [bytearray(b"\x03\x00")] and out.getvalue() == b"\x03\x00"


@settings(max_examples=60, deadline=None)
@given(
    instr_profiles(max_records=10, kinds=(ProfileKind.IR, ProfileKind.IR | ProfileKind.CS)),
    st.sampled_from(sorted(SUPPORTED)),
)
def test_the_payload_is_a_block_of_its_own(profile: InstrProfile, rel: int) -> None:
    """Header and summaries, the payload as a block, the rest: the header (patched in the
    first chunk) puts the bucket table right after the payload, 8-aligned."""
    chosen = release(rel)
    try:
        chunks = encode_indexed(profile, release=chosen)
    except ValueError:
        return
    assert len(chunks) == 3 and isinstance(chunks[1], memoryview)
    lay = layout(chosen.indexed_version)
    header = struct.unpack_from(f"<{len(lay.header_fields)}Q", chunks[0])
    table_at = header[lay.header_fields.index("hash_offset")]
    payload_end = len(chunks[0]) + len(chunks[1])
    assert table_at == payload_end + (-payload_end % 8)
    assert len(chunks[0]) >= lay.header_size
