"""Binary-id entries (LLVM's ``readBinaryIdsInternal``), shared by raw and indexed files.

Both formats store the same list: u64 length, the id bytes, zero padding to 8
(raw version 7, LLVM 13's runtime, leaves the padding out).  One walk keeps
their checks and llvm-profdata's messages identical.  It trusts the section
size it is given, as LLVM does: the raw reader has checked it against the
file first, the indexed header's size is never checked, so there the entries
may run into the next sections and past the end of the buffer.  Only an id
that ends past the buffer is ``binary id section is greater than buffer
size``; bytes past the end (what LLVM's heap holds there) read as zeros.
"""

from __future__ import annotations

from profdata.errors import MalformedError
from profdata.formats._binary import ByteReader, pad8

_MALFORMED = MalformedError.llvm_message


def zero_extended_u64(cur: ByteReader, at: int) -> int:
    """The u64 at ``at`` in the reader's byte order, bytes past ``cur.end`` read as zeros."""
    word = bytes(cur.data[at : min(at + 8, cur.end)]).ljust(8, b"\0")
    return int.from_bytes(word, "little" if cur.order == "<" else "big")


def read_binary_id_entries(
    cur: ByteReader, start: int, stop: int, *, padded: bool = True, may_be_empty: bool = False
) -> list[bytes]:
    """The ids stored between buffer positions ``start`` and ``stop``; without ``padded``
    (raw version 7) each id is followed directly by the next length; ``may_be_empty``:
    a length of 0 is an empty id, as LLVM 15 and older take it."""
    ids: list[bytes] = []
    pos = start
    while pos < stop:
        fld = f"binary_ids[{len(ids)}]"
        if stop - pos < 8:
            cur.fail(
                MalformedError,
                "a binary-id entry is cut off",
                field=f"{fld}.length",
                expected="8 bytes",
                found=f"{stop - pos} bytes",
                at=pos,
                llvm_message=f"{_MALFORMED}: not enough data to read binary id length",
            )
        length = zero_extended_u64(cur, pos)
        if length == 0 and not may_be_empty:
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
        if size > stop - pos - 8:
            cur.fail(
                MalformedError,
                "a binary id runs past the binary-id section",
                field=f"{fld}.data",
                expected=f"{size} bytes",
                found=f"{stop - pos - 8} bytes",
                at=pos,
                llvm_message=f"{_MALFORMED}: not enough data to read binary id data",
            )
        ids.append(bytes(cur.data[pos + 8 : pos + 8 + length]))
        pos += 8 + size
        if pos > cur.end:
            cur.fail(
                MalformedError,
                "binary id section is greater than buffer size",
                field=f"{fld}.data",
                expected=f"to end by {cur.end}",
                found=f"ends at {pos}",
                at=pos - size,
                llvm_message=f"{_MALFORMED}: binary id section is greater than buffer size",
            )
    cur.pos = min(stop, cur.end)
    return ids
