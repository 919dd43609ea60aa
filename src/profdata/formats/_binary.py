"""Bounds-checked cursor and back-patching writer for the binary formats.

Every format error in profdata is raised from here, so each one knows the
file, the byte offset, the field being read, and what was expected and found.
Readers check a count against the bytes that remain *before* they allocate
anything for it (:meth:`ByteReader.require`).
"""

from __future__ import annotations

import builtins
import struct
from typing import Literal, NoReturn

import numpy as np

from profdata.errors import FormatError, Location, TruncatedError

ByteOrder = Literal["<", ">"]


def pad8(n: int) -> int:
    """Zero bytes that bring ``n`` up to a multiple of 8."""
    return (8 - n % 8) % 8


_STRUCTS: dict[tuple[str, str], struct.Struct] = {}


def _st(order: str, code: str) -> struct.Struct:
    key = (order, code)
    st = _STRUCTS.get(key)
    if st is None:
        st = _STRUCTS[key] = struct.Struct(order + code)
    return st


class ByteReader:
    """A cursor over a buffer; ``pos`` is relative to the buffer, ``base`` maps it to the file."""

    __slots__ = ("base", "data", "end", "order", "path", "pos")

    def __init__(
        self,
        data: bytes | bytearray | memoryview,
        *,
        path: str | None = None,
        order: ByteOrder = "<",
        pos: int = 0,
        end: int | None = None,
        base: int = 0,
    ) -> None:
        self.data = memoryview(data).cast("B") if not isinstance(data, memoryview) else data
        self.path = path
        self.order: ByteOrder = order
        self.pos = pos
        self.end = len(self.data) if end is None else end
        self.base = base

    # -- errors ------------------------------------------------------------
    def fail(
        self,
        error: type[FormatError],
        detail: str,
        *,
        field: str | None = None,
        expected: str | None = None,
        found: str | None = None,
        at: int | None = None,
        llvm_message: str | None = None,
    ) -> NoReturn:
        """Raise ``error`` located at ``at`` (default: the cursor)."""
        raise self.error(
            error, detail, field=field, expected=expected, found=found, at=at,
            llvm_message=llvm_message,
        )  # fmt: skip

    def error(
        self,
        error: type[FormatError],
        detail: str,
        *,
        field: str | None = None,
        expected: str | None = None,
        found: str | None = None,
        at: int | None = None,
        llvm_message: str | None = None,
    ) -> FormatError:
        """The error :meth:`fail` raises, for a reader that reports it later (where LLVM
        would first use what it describes)."""
        offset = self.base + (self.pos if at is None else at)
        return error(
            detail,
            path=self.path,
            location=Location(offset=offset, field=field, expected=expected, found=found),
            llvm_message=llvm_message,
        )

    def require(self, nbytes: int, field: str, error: type[FormatError] = TruncatedError) -> None:
        """Fail unless ``nbytes`` more bytes are available before ``end``."""
        if nbytes < 0 or self.pos + nbytes > self.end:
            self.fail(
                error,
                f"{field} runs past the end of the data",
                field=field,
                expected=f"{nbytes} bytes",
                found=f"{max(self.end - self.pos, 0)} bytes left",
            )

    @property
    def remaining(self) -> int:
        return self.end - self.pos

    @property
    def offset(self) -> int:
        """Position in the file."""
        return self.base + self.pos

    def seek(self, pos: int, field: str = "offset") -> None:
        if pos < 0 or pos > self.end:
            self.fail(
                TruncatedError,
                f"{field} points outside the data",
                field=field,
                expected=f"<= {self.base + self.end}",
                found=str(self.base + pos),
            )
        self.pos = pos

    def skip(self, nbytes: int, field: str) -> None:
        self.require(nbytes, field)
        self.pos += nbytes

    def sub(self, nbytes: int, field: str) -> ByteReader:
        """A cursor over the next ``nbytes`` (consumed here)."""
        self.require(nbytes, field)
        sub = ByteReader(
            self.data, path=self.path, order=self.order, pos=self.pos,
            end=self.pos + nbytes, base=self.base,
        )  # fmt: skip
        self.pos += nbytes
        return sub

    # -- scalars -----------------------------------------------------------
    def _unpack(self, code: str, size: int, field: str) -> int:
        self.require(size, field)
        (value,) = _st(self.order, code).unpack_from(self.data, self.pos)
        self.pos += size
        return int(value)

    def u8(self, field: str) -> int:
        return self._unpack("B", 1, field)

    def u16(self, field: str) -> int:
        return self._unpack("H", 2, field)

    def u32(self, field: str) -> int:
        return self._unpack("I", 4, field)

    def u64(self, field: str) -> int:
        return self._unpack("Q", 8, field)

    def words(self, count: int, field: str) -> tuple[int, ...]:
        """``count`` u64 words in the cursor's byte order."""
        self.require(8 * count, field)
        values = _st(self.order, f"{count}Q").unpack_from(self.data, self.pos)
        self.pos += 8 * count
        return tuple(int(v) for v in values)

    def uleb128(self, field: str) -> int:
        start = self.pos
        result = shift = 0
        while True:
            if self.pos >= self.end:
                self.fail(TruncatedError, f"{field} (ULEB128) is cut off", field=field, at=start)
            byte = self.data[self.pos]
            self.pos += 1
            result |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return result
            if shift > 63:
                self.fail(
                    FormatError, f"{field} (ULEB128) is longer than 64 bits", field=field, at=start
                )

    def raw(self, nbytes: int, field: str) -> memoryview:
        """The next ``nbytes`` as a zero-copy view."""
        self.require(nbytes, field)
        view = self.data[self.pos : self.pos + nbytes]
        self.pos += nbytes
        return view

    def array(self, dtype: np.dtype | str, count: int, field: str) -> np.ndarray:
        """``count`` items of ``dtype`` as a zero-copy numpy view (checked first)."""
        dt = np.dtype(dtype)
        nbytes = dt.itemsize * count
        self.require(nbytes, field)
        arr = np.frombuffer(self.data, dtype=dt, count=count, offset=self.pos)
        self.pos += nbytes
        return arr


class ByteWriter:
    """Append-only byte buffer with named placeholders patched later.

    ``buf`` is what is being written.  A large block filled elsewhere (the
    indexed writer's hash-table payload, filled by two processes in shared
    memory) is taken as is by :meth:`attach` rather than copied in: the
    writer then holds several chunks (:meth:`chunks`), and positions, like
    ``len``, count the bytes of all of them.
    """

    __slots__ = ("_base", "_parts", "buf", "order")

    def __init__(self, order: ByteOrder = "<") -> None:
        self.buf = bytearray()
        self.order: ByteOrder = order
        self._parts: list[bytearray | memoryview] = []
        self._base = 0  # bytes in ``_parts``

    def __len__(self) -> int:
        return self._base + len(self.buf)

    def attach(self, block: memoryview) -> None:
        """Append ``block`` without copying it (its bytes must not change afterwards)."""
        self._parts += [self.buf, block]
        self._base += len(self.buf) + len(block)
        self.buf = bytearray()

    def chunks(self) -> list[bytearray | memoryview]:
        """The bytes written, in order, as the chunks they are held in."""
        return [*self._parts, self.buf]

    def u8(self, value: int) -> None:
        self.buf.append(value)

    def u16(self, value: int) -> None:
        self.buf += _st(self.order, "H").pack(value)

    def u32(self, value: int) -> None:
        self.buf += _st(self.order, "I").pack(value)

    def u64(self, value: int) -> None:
        self.buf += _st(self.order, "Q").pack(value)

    def words(self, values: list[int] | tuple[int, ...]) -> None:
        self.buf += _st(self.order, f"{len(values)}Q").pack(*values)

    def uleb128(self, value: int) -> None:
        while True:
            byte = value & 0x7F
            value >>= 7
            if value:
                self.buf.append(byte | 0x80)
            else:
                self.buf.append(byte)
                return

    def bytes(self, data: bytes | bytearray | memoryview) -> None:
        self.buf += data

    def zeros(self, nbytes: int) -> None:
        self.buf += bytes(nbytes)

    def align8(self) -> None:
        self.zeros(pad8(len(self)))

    def reserve_u64(self) -> int:
        """Write a zero u64 placeholder and return its position for :meth:`patch_u64`."""
        pos = len(self)
        self.u64(0)
        return pos

    def patch_u64(self, pos: int, value: int) -> None:
        self.patch_words(pos, (value,))

    def patch_words(self, pos: int, values: list[int] | tuple[int, ...]) -> None:
        st = _st(self.order, f"{len(values)}Q")
        chunk, at = self._chunk_at(pos, st.size)
        st.pack_into(chunk, at, *values)

    def _chunk_at(self, pos: int, size: int) -> tuple[bytearray, int]:
        """The written chunk holding ``pos .. pos+size`` and the offset there; attached
        blocks are not patched."""
        if pos >= self._base:
            return self.buf, pos - self._base
        start = 0
        for part in self._parts:
            if pos < start + len(part):
                if not isinstance(part, bytearray) or pos + size > start + len(part):
                    raise ValueError(f"cannot patch {size} bytes at {pos}: an attached block")
                return part, pos - start
            start += len(part)
        raise AssertionError("unreachable: pos < base lies in a part")

    def getvalue(self) -> builtins.bytes:
        if not self._parts:
            return builtins.bytes(self.buf)
        return b"".join(self.chunks())
