"""Name-table chunks (``collectGlobalObjectNameStrings`` / ``readAndDecodeStrings``).

Raw names, raw vtable names and indexed vtable names all use the same chunk
encoding: ULEB128 uncompressed size, ULEB128 compressed size (0 = stored),
payload; names joined by 0x01.  zlib level 9 reproduces the compiler's bytes.
"""

from __future__ import annotations

import contextlib
import zlib
from typing import NoReturn

from profdata.errors import (
    DecompressionError,
    EmptyNameError,
    ProfdataError,
    TruncatedError,
)
from profdata.formats._binary import ByteReader, ByteWriter
from profdata.model.names import name_bytes, name_str

SEPARATOR = b"\x01"


def holds_empty_name(payload: bytes) -> bool:
    """Whether splitting a chunk at 0x01 gives an empty name (LLVM: "... name is empty")."""
    return (
        not payload
        or payload[:1] == SEPARATOR
        or payload[-1:] == SEPARATOR
        or SEPARATOR * 2 in payload
    )


def _refuse_empty_name(cur: ByteReader, field: str, at: int) -> NoReturn:
    cur.fail(
        EmptyNameError,
        f"the {field} section holds an empty name",
        field=field,
        expected="non-empty names separated by 0x01",
        found="an empty name",
        at=at,
    )


def read_name_chunks(cur: ByteReader, field: str = "names") -> list[str]:
    """All names of the chunks in the cursor's ``[pos, end)``, walked as
    :func:`read_names_as_llvm` walks them (bytes past ``end`` are the file's): the
    first chunk that fails, or holds an empty name, fails the whole."""
    return _split_names(read_names_as_llvm(_whole_file(cur), cur.pos, cur.end, field))


def _split_names(payloads: list[bytes]) -> list[str]:
    return name_str(SEPARATOR.join(payloads)).split("\x01") if payloads else []


def names_before_failure(cur: ByteReader, field: str = "names") -> list[str]:
    """The names of the chunks that decode, up to the first chunk that fails or the first
    empty name (``readAndDecodeStrings`` into ``addSymbolName``, its error swallowed)."""
    payloads: list[bytes] = []
    with contextlib.suppress(ProfdataError):
        read_names_as_llvm(_whole_file(cur), cur.pos, cur.end, field, payloads)
    names = _split_names(payloads)
    return names[: names.index("")] if "" in names else names


def _whole_file(cur: ByteReader) -> ByteReader:
    """A cursor over all of ``cur``'s bytes: a chunk's sizes may lead past a section."""
    return ByteReader(cur.data, path=cur.path, order=cur.order, base=cur.base)


def read_names_as_llvm(
    cur: ByteReader, start: int, end: int, field: str, payloads: list[bytes] | None = None
) -> list[bytes]:
    """The name chunks in ``[start, end)`` (a raw profile's names, an indexed profile's
    vtable names), read the way ``readAndDecodeStrings`` reads them, so that a damaged
    section fails as llvm-profdata fails; each chunk's payload is also appended to
    ``payloads`` as it decodes (one that holds an empty name too: LLVM adds the names
    before that one).

    LLVM trusts the chunk sizes: a size or a chunk may run past the section
    into whatever follows it in the file, a zlib stream only has to end
    within its stated size and may be shorter than the stated uncompressed
    size, and the zero bytes skipped are those after a chunk (a section that
    starts with one holds an empty name).  Past the end of the file LLVM
    reads memory it does not own; in practice (the rest of a mapped page,
    fresh heap pages) that memory holds zeros, and so it does here.
    """
    data, limit = cur.data, cur.end
    if payloads is None:
        payloads = []
    pos = start
    while pos < end:
        chunk = pos
        size, pos = _uleb_as_llvm(cur, pos, f"{field}.uncompressed_size")
        csize, pos = _uleb_as_llvm(cur, pos, f"{field}.compressed_size")
        if csize:
            payload = _uncompress_as_llvm(_bytes_past_end(data, pos, csize, limit), size)
            if payload is None:
                cur.fail(
                    DecompressionError,
                    "a name chunk's zlib stream does not end within its compressed size, "
                    "or holds more than its uncompressed size",
                    field=f"{field}.compressed_data",
                    expected=f"a zlib stream of <= {csize} bytes giving <= {size} bytes",
                    found="no such stream",
                    at=chunk,
                )
            pos += csize
        else:
            if pos + size > limit + _MAX_ZEROS_PAST_END:
                cur.fail(
                    TruncatedError,
                    "a stored name chunk runs far past the end of the file",
                    field=f"{field}.data",
                    expected=f"{size} bytes",
                    found=f"{limit - pos} bytes",
                    at=chunk,
                )
            payload = _bytes_past_end(data, pos, size, limit)
            pos += size
        payloads.append(payload)
        if holds_empty_name(payload):
            _refuse_empty_name(cur, field, chunk)
        while pos < end and data[pos] == 0:
            pos += 1
    return payloads


#: how far past the end of the file a stored chunk is read as zeros (LLVM's reads
#: that far beyond its buffer would fault; this bounds the memory spent on them)
_MAX_ZEROS_PAST_END = 1 << 24


def _bytes_past_end(data: memoryview, pos: int, size: int, limit: int) -> bytes:
    """``size`` bytes from ``pos``, zeros past ``limit``."""
    inside = bytes(data[pos : min(pos + size, limit)])
    return inside + bytes(min(size - len(inside), _MAX_ZEROS_PAST_END))


def _uleb_as_llvm(cur: ByteReader, pos: int, field: str) -> tuple[int, int]:
    """``decodeULEB128`` without an end: a value too big for 64 bits reads as 0, and
    past the end of the file a zero byte ends it.

    On overflow LLVM stops *at* the byte that does not fit (its length leaves
    that byte out), so the next field is read from that byte: a size of
    ``ff``x9 ``02`` is followed by a field that begins with ``02``.
    """
    value, shift = 0, 0
    while True:
        byte = cur.data[pos] if pos < cur.end else 0
        slice_ = byte & 0x7F
        if shift >= 63 and ((shift == 63 and slice_ > 1) or (shift > 63 and slice_)):
            return 0, pos
        pos += 1
        value |= slice_ << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def _uncompress_as_llvm(blob: bytes, size: int) -> bytes | None:
    """zlib's ``uncompress`` into a buffer of ``size`` bytes: the stream must end within
    ``blob`` and fit; trailing bytes and a shorter result are fine.  None if it fails."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(blob, size + 1 if size < 1 << 31 else 0)
    except zlib.error:
        return None
    return out if inflater.eof and len(out) <= size else None


def write_name_chunk(out: ByteWriter, names: list[str], *, compress: bool = True) -> None:
    """One chunk holding ``names`` (zlib level 9 when ``compress``)."""
    payload = SEPARATOR.join(name_bytes(n) for n in names)
    out.uleb128(len(payload))
    if compress and payload:
        blob = zlib.compress(payload, 9)
        out.uleb128(len(blob))
        out.bytes(blob)
    else:
        out.uleb128(0)
        out.bytes(payload)
