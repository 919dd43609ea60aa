"""Name-table chunks (``collectGlobalObjectNameStrings`` / ``readAndDecodeStrings``).

Raw names, raw vtable names and indexed vtable names all use the same chunk
encoding: ULEB128 uncompressed size, ULEB128 compressed size (0 = stored),
payload; names joined by 0x01.  zlib level 9 reproduces the compiler's bytes.
"""

from __future__ import annotations

import zlib

from profdata.errors import DecompressionError, MalformedError
from profdata.formats._binary import ByteReader, ByteWriter
from profdata.model.names import name_bytes, name_str

SEPARATOR = b"\x01"


def read_name_chunks(cur: ByteReader, field: str = "names") -> list[str]:
    """All names in the cursor's remaining bytes (zero bytes between chunks skipped)."""
    payloads = read_name_payloads(cur, field)
    return name_str(SEPARATOR.join(payloads)).split("\x01") if payloads else []


def read_name_payloads(cur: ByteReader, field: str = "names") -> list[bytes]:
    """The (decompressed) payload of every chunk; each is names joined by 0x01.

    Readers of large profiles split and decode all payloads at once instead of
    name by name.
    """
    payloads: list[bytes] = []
    while cur.remaining:
        if cur.data[cur.pos] == 0:
            cur.pos += 1
            continue
        start = cur.pos
        size = cur.uleb128(f"{field}.uncompressed_size")
        csize = cur.uleb128(f"{field}.compressed_size")
        if csize:
            blob = bytes(cur.raw(csize, f"{field}.compressed_data"))
            try:
                payload = zlib.decompress(blob)
            except zlib.error as exc:
                cur.fail(
                    DecompressionError, f"zlib: {exc}", field=f"{field}.compressed_data", at=start
                )
            if len(payload) != size:
                cur.fail(
                    MalformedError,
                    "decompressed name data has the wrong size",
                    field=f"{field}.uncompressed_size",
                    expected=str(size),
                    found=str(len(payload)),
                    at=start,
                )
        else:
            payload = bytes(cur.raw(size, f"{field}.data"))
        payloads.append(payload)
    return payloads


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
