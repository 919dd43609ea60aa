"""The column LLVM's ``formatted_raw_ostream`` believes it is at, for the padded tables.

``show --sample --hot-func-list`` and ``overlap --sample``'s function table pad
their cells with ``PadToColumn``, which pads to the column the stream has
counted itself, not to the string length.  The count goes by UTF-8 code points
(``UpdatePosition``): a code point's display width is added (2 for wide CJK
characters, 0 for combining marks, -2 -- wrapping the unsigned column -- for an
invalid sequence, nothing for a character it deems unprintable), a newline or
carriage return sets it to 0, a tab moves it to the next multiple of 8.  The
length of a sequence is read from its lead byte alone, so a function name that
ends inside a sequence (a damaged or cut-off name) swallows the newline and the
start of the next row into that sequence: the column is then not reset, and
the next row is padded from wherever the name left it (often one space per
cell).  Printing the same bytes needs the same count, so every cell goes
through :class:`FormattedColumns`.

Scans happen where LLVM's do, at each ``PadToColumn`` over what was written
since the last one; a sequence cut by the end of what was written waits for
the bytes that complete it, as LLVM's stashed partial code point does.  The
Unicode classes come from :mod:`unicodedata`: printable is a category of L, M,
N, P, S or Zs (or U+00AD), combining is Mn or Me, wide is East Asian width W
or F (LLVM's generated tables, of a Unicode version that may differ for
characters assigned lately).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

__all__ = ["FormattedColumns"]

_COLUMN_MASK = 0xFFFFFFFF  # ``unsigned Column``
_NOT_PRINTABLE = -1  # ``ErrorNonPrintableCharacter``: the column stays
_INVALID = -2  # ``ErrorInvalidUTF8``: added like a width
#: anything but printable ASCII and newlines: the bytes that need the code-point walk
_SLOW = re.compile(rb"[^\x20-\x7e\n]")
_PRINTABLE_CATEGORIES = frozenset("LMNPS")


def _sequence_length(lead: int) -> int:
    """``getNumBytesForUTF8``: the length a lead byte announces (a stray continuation
    byte stands alone; 0xF8-0xFF announce the 5- and 6-byte forms UTF-8 dropped)."""
    if lead < 0xC0:
        return 1
    if lead < 0xE0:
        return 2
    if lead < 0xF0:
        return 3
    if lead < 0xF8:
        return 4
    return 5 if lead < 0xFC else 6


def _char_width(char: str) -> int:
    """``charWidth``."""
    category = unicodedata.category(char)
    if char != "\u00ad" and category[0] not in _PRINTABLE_CATEGORIES and category != "Zs":
        return _NOT_PRINTABLE
    if category in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _width(sequence: bytes) -> int:
    """``columnWidthUTF8`` of one code point's bytes."""
    if len(sequence) == 1:
        return 1 if 0x20 <= sequence[0] < 0x7F else _NOT_PRINTABLE
    if len(sequence) > 4:
        return _INVALID
    try:
        char = sequence.decode("utf-8")  # strict, as ``ConvertUTF8toUTF32``'s strictConversion
    except UnicodeDecodeError:
        return _INVALID
    return _char_width(char)


def _plain(cell: str) -> bool:
    return cell.isascii() and cell.isprintable()


class FormattedColumns:
    """Text written through a ``formatted_raw_ostream`` created at its start."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._unscanned = b""
        self.column = 0

    def write(self, text: str) -> None:
        self._parts.append(text)
        self._unscanned += text.encode("utf-8", "surrogateescape")

    def pad_to(self, column: int) -> None:
        """``PadToColumn``: spaces up to ``column``, at least one."""
        self._scan()
        gap = (column - self.column) & _COLUMN_MASK
        self.write(" " * max(gap - (1 << 32) if gap >> 31 else gap, 1))

    def row(self, columns: Sequence[int | None], cells: Sequence[str]) -> None:
        """Each cell after ``PadToColumn`` of its column (None: none), then a newline.

        A row that starts at column 0 and holds printable ASCII only is padded
        by its string lengths, which is what the count comes to there (and
        much cheaper over a table of 50,000 functions)."""
        if self._unscanned:
            self._scan()
        if self.column == 0 and not self._unscanned and all(_plain(cell) for cell in cells):
            line = ""
            for column, cell in zip(columns, cells, strict=True):
                if column is not None:
                    line += " " * max(column - len(line), 1)
                line += cell
            self._parts.append(line + "\n")
            return
        for column, cell in zip(columns, cells, strict=True):
            if column is not None:
                self.pad_to(column)
            self.write(cell)
        self.write("\n")

    def text(self) -> str:
        return "".join(self._parts)

    def _scan(self) -> None:
        data = self._unscanned
        if _SLOW.search(data) is None:  # printable ASCII and newlines only
            line_start = data.rfind(b"\n") + 1
            base = self.column if line_start == 0 else 0
            self.column = (base + len(data) - line_start) & _COLUMN_MASK
            self._unscanned = b""
            return
        at = 0
        while at < len(data):
            size = _sequence_length(data[at])
            if len(data) - at < size:
                break  # completed by what is written next
            self._advance(data[at : at + size])
            at += size
        self._unscanned = data[at:]

    def _advance(self, sequence: bytes) -> None:
        """``ProcessUTF8CodePoint``."""
        width = _width(sequence)
        if width != _NOT_PRINTABLE:
            self.column = (self.column + width) & _COLUMN_MASK
        if len(sequence) == 1:
            byte = sequence[0]
            if byte in (0x0A, 0x0D):
                self.column = 0
            elif byte == 0x09:
                self.column += (8 - (self.column & 7)) & 7
