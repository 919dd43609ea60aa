"""The binary-id section of indexed profiles (version 9 on), read when LLVM reads it.

``IndexedInstrProfReader::readHeader`` only reads the section's size word: a
size that is not a multiple of 8 is ``file header is corrupt``, a section that
starts past the end of the file is ``corrupted binary ids``.  The entries are
read later, by ``readBinaryIds``, which only ``merge`` (after the input's
records) and ``show --binary-ids`` call: ``show``, ``show --text`` and
``overlap`` of a file whose entries are bad succeed.  So :func:`section` does
the header's checks, and :meth:`BinaryIdSection.entries` the later ones.

``readBinaryIdsInternal`` trusts the declared size: the entries may run into
the following sections and past the end of the buffer, and only an entry
that *ends* past the buffer is ``binary id section is greater than buffer
size``.  Bytes past the end are what LLVM's heap holds there; they are read
here as zeros (what a freshly mapped page holds), so a length word there is
``binary id length is 0``.
"""

from __future__ import annotations

from dataclasses import dataclass

from profdata.errors import FormatError, HeaderCorruptError, Location, MalformedError
from profdata.formats._binary import pad8

_MALFORMED = "malformed instrumentation profile data"
CORRUPTED_BINARY_IDS = f"{_MALFORMED}: corrupted binary ids"
_U64_MAX = (1 << 64) - 1


def _word(data: memoryview, at: int) -> int:
    """The little-endian u64 at ``at``, bytes past the end read as zeros."""
    return int.from_bytes(bytes(data[at : at + 8]).ljust(8, b"\0"), "little")


def _error(
    kind: type[FormatError],
    detail: str,
    path: str | None,
    at: int,
    field: str,
    expected: str,
    found: str,
    llvm_message: str | None = None,
) -> FormatError:
    where = Location(offset=at, field=field, expected=expected, found=found)
    return kind(detail, path=path, location=where, llvm_message=llvm_message)


@dataclass(frozen=True, eq=False)
class BinaryIdSection:
    """The entries' bytes: ``size`` bytes from ``start`` as the header declares them."""

    data: memoryview
    start: int
    size: int
    path: str | None

    def entries(self) -> list[bytes]:
        """``readBinaryIdsInternal``: the ids, or the located error of its first failed check."""
        data, path = self.data, self.path
        end = len(data)
        pos, stop = self.start, self.start + self.size
        ids: list[bytes] = []
        while pos < stop:
            field = f"binary_ids[{len(ids)}]"
            if stop - pos < 8:
                raise _error(
                    MalformedError, "a binary-id entry is cut off", path, pos,
                    f"{field}.length", "8 bytes", f"{stop - pos} bytes",
                    f"{_MALFORMED}: not enough data to read binary id length",
                )  # fmt: skip
            length = _word(data, pos)
            if length == 0:
                raise _error(
                    MalformedError, "a binary id is empty", path, pos, f"{field}.length",
                    "> 0", "0", f"{_MALFORMED}: binary id length is 0",
                )  # fmt: skip
            padded = length + pad8(length)
            if padded > _U64_MAX or padded > stop - pos - 8:
                raise _error(
                    MalformedError, "a binary id runs past the binary-id section", path,
                    pos, f"{field}.data", f"{padded} bytes", f"{stop - pos - 8} bytes",
                    f"{_MALFORMED}: not enough data to read binary id data",
                )  # fmt: skip
            ids.append(bytes(data[pos + 8 : pos + 8 + length]))
            pos += 8 + padded
            if pos > end:
                raise _error(
                    MalformedError, "binary id section is greater than buffer size", path,
                    pos - padded, f"{field}.data", f"to end by {end}", f"ends at {pos}",
                    f"{_MALFORMED}: binary id section is greater than buffer size",
                )  # fmt: skip
        return ids


def section(data: memoryview, offset: int, at: int, path: str | None) -> BinaryIdSection:
    """The header's checks of the section at ``offset`` (the header field is at ``at``)."""
    size = _word(data, offset)  # past the end: zeros, as the checks below then see it
    if size % 8:
        raise _error(
            HeaderCorruptError, "the binary id section size is not a multiple of 8", path,
            offset, "binary_ids.size", "a multiple of 8", str(size),
        )  # fmt: skip
    if offset + 8 > len(data):
        raise _error(
            MalformedError, "the binary id section starts past the end of the file", path,
            at, "binary_id_offset", f"<= {len(data) - 8}", str(offset), CORRUPTED_BINARY_IDS,
        )  # fmt: skip
    return BinaryIdSection(data, offset + 8, size, path)


__all__ = ["CORRUPTED_BINARY_IDS", "BinaryIdSection", "section"]
