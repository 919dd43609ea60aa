"""The binary-id section of indexed profiles (version 9 on), read when LLVM reads it.

``IndexedInstrProfReader::readHeader`` only reads the section's size word: a
size that is not a multiple of 8 is ``file header is corrupt``, a section that
starts past the end of the file is ``corrupted binary ids``.  The entries are
read later, by ``readBinaryIds``, which only ``merge`` (after the input's
records) and ``show --binary-ids`` call: ``show``, ``show --text`` and
``overlap`` of a file whose entries are bad succeed.  So :func:`section` does
the header's checks, and :meth:`BinaryIdSection.entries` the later ones.

The entries are walked by ``_binary_ids.read_binary_id_entries``, which
trusts the declared size as ``readBinaryIdsInternal`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from profdata.errors import HeaderCorruptError, MalformedError
from profdata.formats._binary import ByteReader
from profdata.formats._binary_ids import read_binary_id_entries, zero_extended_u64

CORRUPTED_BINARY_IDS = f"{MalformedError.llvm_message}: corrupted binary ids"


@dataclass(frozen=True, eq=False)
class BinaryIdSection:
    """The entries' bytes: ``size`` bytes from ``start`` as the header declares them."""

    data: memoryview
    start: int
    size: int
    path: str | None

    def entries(self) -> list[bytes]:
        """``readBinaryIds``: the ids, or the located error of its first failed check."""
        cur = ByteReader(self.data, path=self.path)
        return read_binary_id_entries(cur, self.start, self.start + self.size)


def section(data: memoryview, offset: int, at: int, path: str | None) -> BinaryIdSection:
    """The header's checks of the section at ``offset`` (the header field is at ``at``)."""
    cur = ByteReader(data, path=path)
    size = zero_extended_u64(cur, offset)  # past the end: zeros, as the checks below see it
    if size % 8:
        cur.fail(
            HeaderCorruptError,
            "the binary id section size is not a multiple of 8",
            field="binary_ids.size",
            expected="a multiple of 8",
            found=str(size),
            at=offset,
        )
    if offset + 8 > len(data):
        cur.fail(
            MalformedError,
            "the binary id section starts past the end of the file",
            field="binary_id_offset",
            expected=f"<= {len(data) - 8}",
            found=str(offset),
            at=at,
            llvm_message=CORRUPTED_BINARY_IDS,
        )
    return BinaryIdSection(data, offset + 8, size, path)


__all__ = ["CORRUPTED_BINARY_IDS", "BinaryIdSection", "section"]
