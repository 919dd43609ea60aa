"""The records of one indexed-profile hash-table item: ``InstrProfLookupTrait::ReadData``.

:mod:`profdata.formats.indexed` finds an item (a name's records) in the
on-disk hash table; :class:`RecordDecoder` turns the item's data into
records -- function hash, counters, bitmap bytes, value-profile data --
checking every length against the bytes present, so a bad item fails with
llvm-profdata's line (``profile data is empty``) and where it went wrong.
:mod:`profdata.formats.indexed_columns` decodes all items at once the same
way and hands back to this decoder when anything is unusual.
"""

from __future__ import annotations

import struct
from typing import NoReturn, overload

import numpy as np
import numpy.typing as npt

from profdata.errors import MalformedError
from profdata.formats._binary import ByteReader, pad8
from profdata.formats._onhash import ItemRef
from profdata.formats.indexed_layout import IndexedLayout
from profdata.model.instr import InstrRecord, ValueSite, value_sites_of
from profdata.model.kinds import ValueKind

__all__ = [
    "PROFILE_DATA_EMPTY",
    "VALUE_KIND_LAST",
    "WRAPPING_LENGTH",
    "RecordDecoder",
    "reads_nothing",
]

VALUE_KIND_LAST = max(ValueKind)  # IPVK_Last

#: llvm-profdata's first line when a record's data cannot be decoded
#: (``InstrProfLookupTrait::ReadData`` returns nothing, ``getRecords`` says so).
PROFILE_DATA_EMPTY = "malformed instrumentation profile data: profile data is empty"
#: a data length from which ``ReadData``'s end pointer ``D + N`` wraps below ``D`` wherever
#: the file lies (user-space addresses are below 2**47), so it reads no record
WRAPPING_LENGTH = (1 << 64) - (1 << 47)


@overload
def reads_nothing(length: int) -> bool: ...
@overload
def reads_nothing(length: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]: ...
def reads_nothing(length: int | npt.NDArray[np.int64]) -> bool | npt.NDArray[np.bool_]:
    """Whether ``InstrProfLookupTrait::ReadData`` gives no records for an item of ``length``
    data bytes without reading a byte of them (or of the key): not a multiple of 8, no
    more than the function hash, or wrapping; ``getRecords`` then fails the item with
    "profile data is empty", wherever its key and data would lie.  Of an array of lengths
    (the bulk decoder's items), the same per item."""
    return (length % 8 != 0) | (length <= 8) | (length >= WRAPPING_LENGTH)


_U64 = struct.Struct("<Q")
_U64X2 = struct.Struct("<QQ")
_U32X2 = struct.Struct("<II")
_COUNT_DTYPE = np.dtype("<u8")
_NO_VALUE_DATA = 8  # ValueProfData{TotalSize 8, NumValueKinds 0} read as one u64
_VALUE_KINDS = tuple(ValueKind)  # by number


class RecordDecoder:
    """Turns one hash-table item's data into records, checking every length.

    Any inconsistency is what makes LLVM's ``ReadData`` return no records, so
    every failure here carries llvm-profdata's ``profile data is empty`` line.
    """

    __slots__ = (
        "_bitmap", "_cur", "_data", "_implied", "_u8", "_value_prof_data", "last_kind", "layout",
    )  # fmt: skip

    def __init__(
        self,
        data: memoryview,
        layout: IndexedLayout,
        path: str | None,
        last_kind: int = VALUE_KIND_LAST,
    ) -> None:
        #: ``IPVK_Last`` of the reading release (1 before LLVM 18): later kinds are invalid
        self.last_kind = last_kind
        self._data = data
        self._u8 = np.frombuffer(data, dtype=np.uint8)
        self._cur = ByteReader(data, path=path)
        self.layout = layout
        self._implied = not layout.has_num_counts
        self._bitmap = layout.has_bitmap
        self._value_prof_data = layout.has_value_data

    def _fail(
        self, name: str, detail: str, at: int, field: str, expected: str, found: str
    ) -> NoReturn:
        self._cur.fail(
            MalformedError,
            f"function {name!r}: {detail}",
            field=field,
            expected=expected,
            found=found,
            at=at,
            llvm_message=PROFILE_DATA_EMPTY,
        )

    def decode(self, name: str, item: ItemRef) -> list[InstrRecord]:
        """The records of one item (this is the per-function hot path of iteration)."""
        data = self._data
        u8 = self._u8
        unpack_u64 = _U64.unpack_from
        pos = item.data_offset
        length = item.data_length
        end = pos + length
        if length % 8:
            self._fail(
                name, "the data length is not a multiple of 8", item.key_offset - 8,
                "data_length", "a multiple of 8", str(length),
            )  # fmt: skip
        if not length:  # ``ReadData`` gives no records, which ``getRecords`` refuses
            self._fail(
                name, "the item holds no record", item.key_offset - 8,
                "data_length", "at least 16", "0",
            )  # fmt: skip
        if length >= WRAPPING_LENGTH:
            self._fail(
                name, "the data length wraps past every address", item.key_offset - 8,
                "data_length", f"< {WRAPPING_LENGTH}", str(length),
            )  # fmt: skip
        records: list[InstrRecord] = []
        while pos < end:
            if end - pos <= 8:
                self._fail(
                    name, "a record needs more than its function hash", pos,
                    "func_hash", "more than 8 bytes", f"{end - pos} bytes left",
                )  # fmt: skip
            if self._implied:
                (func_hash,) = unpack_u64(data, pos)
                num_counts = length // 8 - 1
                pos += 8
            else:
                func_hash, num_counts = _U64X2.unpack_from(data, pos)
                pos += 16
                if num_counts > (end - pos) // 8:
                    self._fail(
                        name, "the counters run past the record data", pos - 8,
                        "num_counts", f"<= {(end - pos) // 8}", str(num_counts),
                    )  # fmt: skip
            counts_end = pos + 8 * num_counts
            counts = u8[pos:counts_end].view(_COUNT_DTYPE)
            pos = counts_end
            bitmap = b""
            if self._bitmap:
                if end - pos < 8:
                    self._fail(
                        name, "the bitmap byte count is missing", pos,
                        "num_bitmap_bytes", "8 bytes", f"{end - pos} bytes left",
                    )  # fmt: skip
                (num_bitmap,) = unpack_u64(data, pos)
                pos += 8
                if num_bitmap > (end - pos) // 8:
                    self._fail(
                        name, "the bitmap bytes run past the record data", pos - 8,
                        "num_bitmap_bytes", f"<= {(end - pos) // 8}", str(num_bitmap),
                    )  # fmt: skip
                if num_bitmap:
                    words = u8[pos : pos + 8 * num_bitmap].view(_COUNT_DTYPE)
                    bitmap = words.astype(np.uint8).tobytes()  # LLVM keeps the low byte
                pos += 8 * num_bitmap
            sites: dict[ValueKind, list[ValueSite]] = {}
            if self._value_prof_data:
                if end - pos >= 8 and unpack_u64(data, pos)[0] == _NO_VALUE_DATA:
                    pos += 8
                else:
                    pos = self.value_sites(name, pos, end, sites)
            records.append(InstrRecord(name, func_hash, counts, bitmap, sites))
        return records

    def count(self, name: str, item: ItemRef) -> int:
        """How many records the item holds, skipping over counters and value data.

        Anything :meth:`decode` would reject is handed to it, so errors (and
        their order) are the same whether records are counted or decoded.
        """
        if reads_nothing(item.data_length):
            return len(self.decode(name, item))
        if self._implied:
            return 1
        data = self._data
        pos = item.data_offset
        end = pos + item.data_length
        n = 0
        while pos < end:
            if end - pos < 16:
                return len(self.decode(name, item))  # raises the located error
            (num_counts,) = _U64.unpack_from(data, pos + 8)
            pos += 16 + 8 * num_counts
            if self._bitmap:
                if end - pos < 8:
                    return len(self.decode(name, item))
                (num_bitmap,) = _U64.unpack_from(data, pos)
                pos += 8 + 8 * num_bitmap
            if self._value_prof_data:
                if end - pos < 8:
                    return len(self.decode(name, item))
                (total_size, _) = _U32X2.unpack_from(data, pos)
                if total_size < 8:  # 0 does not move on: left to decode, as odd sizes
                    return len(self.decode(name, item))
                pos += total_size
            if pos > end:
                return len(self.decode(name, item))
            n += 1
        return n

    def value_sites(
        self, name: str, pos: int, end: int, sites: dict[ValueKind, list[ValueSite]]
    ) -> int:
        """Decode one ``ValueProfData`` into ``sites``; returns the position after it.

        Checks follow ``ValueProfData::getValueProfData`` and ``checkIntegrity``.
        """
        data = self._data
        if end - pos < 8:
            self._fail(
                name, "the value profile header runs past the record data", pos,
                "value_prof_data.total_size", "8 bytes", f"{end - pos} bytes left",
            )  # fmt: skip
        total_size, num_kinds = _U32X2.unpack_from(data, pos)
        if total_size == 8 and num_kinds == 0:
            return pos + 8
        if not total_size:
            # ``allocValueProfData(0)`` makes a zeroed header that the copy of no bytes
            # leaves as it is: no kinds, and the next record starts here, not 8 bytes on
            return pos
        if total_size > end - pos:
            self._fail(
                name, "the value profile data runs past the record data", pos,
                "value_prof_data.total_size", f"<= {end - pos}", str(total_size),
            )  # fmt: skip
        if num_kinds > self.last_kind + 1:
            self._fail(
                name, "number of value profile kinds is invalid", pos + 4,
                "value_prof_data.num_value_kinds", f"<= {self.last_kind + 1}", str(num_kinds),
            )  # fmt: skip
        if total_size % 8:
            self._fail(
                name, "the value profile size is not a multiple of 8", pos,
                "value_prof_data.total_size", "a multiple of 8", str(total_size),
            )  # fmt: skip
        vend: int = pos + total_size
        p = pos + 8
        for _ in range(num_kinds):
            if vend - p < 8:
                self._fail(
                    name, "value profile address is greater than total size", p,
                    "value_prof_record", "8 bytes", f"{vend - p} bytes left",
                )  # fmt: skip
            kind, num_sites = _U32X2.unpack_from(data, p)
            if kind > self.last_kind:
                self._fail(
                    name, "value kind is invalid", p,
                    "value_prof_record.kind", f"<= {self.last_kind}", str(kind),
                )  # fmt: skip
            header = 8 + num_sites + pad8(8 + num_sites)
            if header > vend - p:
                self._fail(
                    name, "value profile address is greater than total size", p + 4,
                    "value_prof_record.num_value_sites", f"<= {vend - p - 8}", str(num_sites),
                )  # fmt: skip
            site_counts = bytes(data[p + 8 : p + 8 + num_sites])
            num_values = sum(site_counts)
            if 16 * num_values > vend - p - header:
                self._fail(
                    name, "value profile address is greater than total size", p + 8,
                    "value_prof_record.site_count_array",
                    f"<= {(vend - p - header) // 16} values", str(num_values),
                )  # fmt: skip
            words = iter(struct.unpack_from(f"<{2 * num_values}Q", data, p + header))
            sites.setdefault(_VALUE_KINDS[kind], []).extend(
                value_sites_of(zip(words, words, strict=True), site_counts)
            )
            p += header + 16 * num_values
        return vend
