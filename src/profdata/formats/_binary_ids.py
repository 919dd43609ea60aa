"""Binary-id entries (LLVM's ``readBinaryIdsInternal``), shared by raw and indexed files.

Both formats store the same list: u64 length, the id bytes, zero padding to 8.
One reader keeps their checks and llvm-profdata's messages identical.
"""

from __future__ import annotations

from profdata.errors import MalformedError
from profdata.formats._binary import ByteReader, pad8

_MALFORMED = "malformed instrumentation profile data"


def read_binary_id_entries(
    cur: ByteReader, start: int, end: int, *, padded: bool = True
) -> list[bytes]:
    """The ids stored in ``cur`` between buffer positions ``start`` and ``end``; without
    ``padded`` (raw version 7) each id is followed directly by the next length."""
    ids: list[bytes] = []
    pos = start
    while pos < end:
        fld = f"binary_ids[{len(ids)}]"
        if end - pos < 8:
            cur.fail(
                MalformedError,
                "a binary-id entry is cut off",
                field=f"{fld}.length",
                expected="8 bytes",
                found=f"{end - pos} bytes",
                at=pos,
                llvm_message=f"{_MALFORMED}: not enough data to read binary id length",
            )
        cur.pos = pos
        length = cur.u64(f"{fld}.length")
        if length == 0:
            cur.fail(
                MalformedError,
                "a binary id is empty",
                field=f"{fld}.length",
                expected="> 0",
                found="0",
                at=pos,
                llvm_message=f"{_MALFORMED}: binary id length is 0",
            )
        size = length + pad8(length) if padded else length
        if size > end - cur.pos:
            cur.fail(
                MalformedError,
                "a binary id runs past the binary-id section",
                field=f"{fld}.data",
                expected=f"{size} bytes",
                found=f"{end - cur.pos} bytes",
                at=pos,
                llvm_message=f"{_MALFORMED}: not enough data to read binary id data",
            )
        ids.append(bytes(cur.data[cur.pos : cur.pos + length]))
        pos = cur.pos + size
    cur.pos = end
    return ids
