"""Line cursor for llvm-profdata's text formats (instrumentation text, sample text).

LLVM reads both text formats through ``llvm::line_iterator`` with blank lines
skipped and ``#`` as the comment marker, and parses numbers with
``StringRef::getAsInteger``.  This module reproduces exactly those two pieces so
that a format module only describes its grammar:

* the buffer ends at its first NUL byte (LLVM's buffers are NUL-terminated and
  the iterator stops there);
* lines end at ``\\n``; ``\\r\\n`` counts as one line end, a lone ``\\r`` stays
  part of the line;
* empty lines and lines whose first byte is the comment marker are invisible;
* nothing else is trimmed.

Like :class:`~profdata.formats._binary.ByteReader` for binary formats, the
cursor is the only place that raises format errors, so every error carries the
1-based line number, the byte offset (of the line, or of a column in it), the
field, what was expected and what was found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NoReturn

from profdata.errors import FormatError, Location, TruncatedError

#: ``StringRef::trim()``'s default set (`" \t\n\v\f\r"`), narrower than Python's ``strip()``.
LLVM_WHITESPACE = b" \t\n\v\f\r"

_DIGITS = {
    2: re.compile(rb"[01]+"),
    8: re.compile(rb"[0-7]+"),
    10: re.compile(rb"[0-9]+"),
    16: re.compile(rb"[0-9a-fA-F]+"),
}


#: more significant digits than this (in any radix) spell a value of at least 2**64
_MAX_DIGITS = 64
TOO_LARGE = 1 << 64


def int_of_digits(digits: str | bytes, radix: int = 10) -> int:
    """``int(digits, radix)`` of text already known to be digits of ``radix``, except that
    a value that needs more than 64 significant digits comes back as 2**64.

    Every caller range-checks the value against at most 64 bits, so 2**64 stands for
    any value too large; reading it exactly would trip Python's 4300-digit limit
    (a ``ValueError``) or, above it, cost time quadratic in the digits.  Leading zeros
    count for nothing, as in ``getAsInteger``: a thousand zeros and a 1 is 1.
    """
    body = digits.lstrip("0") if isinstance(digits, str) else digits.lstrip(b"0")
    if len(body) > _MAX_DIGITS:
        return TOO_LARGE
    return int(body, radix) if body else 0


_U64_DIGITS = 20  # digits of 2**64-1; longer digit strings (leading zeros) need parse_uint


def plain_u64s(lines: Sequence[bytes]) -> list[int] | None:
    """Lines that are all plain decimals (at most 20 digits, at most 2**64-1) as their
    values in one pass; None if one is not (:func:`parse_uint` then reads each)."""
    if not all(map(bytes.isdigit, lines)) or max(map(len, lines), default=0) > _U64_DIGITS:
        return None
    values = list(map(int, lines))
    return None if values and max(values) >> 64 else values


def parse_uint(text: bytes, radix: int = 10, bits: int = 64) -> int | None:
    """``StringRef::getAsInteger`` for an unsigned ``bits``-wide type; None where LLVM fails.

    ``radix=0`` is LLVM's auto-sensing: ``0x``/``0X`` hex, ``0b``/``0B`` binary,
    ``0o`` octal, a ``0`` followed by a digit octal (so ``010`` is 8), else
    decimal.  No sign, no spaces, no digit separators, and the whole text must
    be consumed.
    """
    if radix == 10:
        if not text.isdigit():
            return None
        value = int_of_digits(text)
        return None if value >> bits else value
    body = text
    if radix == 0:
        radix = 10
        head = body[:2]
        if head in (b"0x", b"0X"):
            radix, body = 16, body[2:]
        elif head in (b"0b", b"0B"):
            radix, body = 2, body[2:]
        elif head == b"0o":
            radix, body = 8, body[2:]
        elif len(body) > 1 and body[0] == 0x30 and 0x30 <= body[1] <= 0x39:
            radix, body = 8, body[1:]
    pattern = _DIGITS.get(radix)
    if pattern is None or not pattern.fullmatch(body):
        return None
    value = int_of_digits(body, radix)
    return None if value >> bits else value


def describe_radix(radix: int, bits: int) -> str:
    """How an expected integer is spelled, for error locations."""
    base = "decimal" if radix == 10 else "integer (0x/0b/0o/0 prefixes)"
    return f"{base} u{bits}"


def show_line(text: bytes, limit: int = 60) -> str:
    """A found value as shown in an error location: quoted, escaped, shortened."""
    shown = text[:limit].decode("utf-8", "backslashreplace")
    return repr(shown + ("..." if len(text) > limit else ""))


class LineCursor:
    """A cursor over the visible lines of a text profile.

    ``lines`` holds the visible lines (bytes, line ends removed) and
    ``index`` points at the current one; physical line numbers are worked out
    only when an error needs them.  Parsers advance with :meth:`next` (one line) or :meth:`take`
    (a run of lines, for vectorised parsing of counter blocks) and report bad
    input with :meth:`fail`.
    """

    __slots__ = ("_comment", "_numbers", "_physical", "_starts", "data", "index", "lines", "path")

    def __init__(
        self,
        data: bytes | bytearray | memoryview,
        *,
        path: str | None = None,
        comment: int | None = 0x23,  # '#'
    ) -> None:
        raw = bytes(data)
        nul = raw.find(b"\0")
        if nul >= 0:
            raw = raw[:nul]
        self.data = raw
        self.path = path
        physical = raw.split(b"\n")
        if b"\r" in raw:
            last = len(physical) - 1
            physical = [
                line[:-1] if i < last and line.endswith(b"\r") else line
                for i, line in enumerate(physical)
            ]
        self._physical = physical
        self._comment = comment
        if comment is None:
            self.lines: list[bytes] = [line for line in physical if line]
        else:
            self.lines = [line for line in physical if line and line[0] != comment]
        self.index = 0
        self._numbers: list[int] | None = None
        self._starts: list[int] | None = None

    # -- position ----------------------------------------------------------
    @property
    def at_end(self) -> bool:
        return self.index >= len(self.lines)

    def peek(self) -> bytes | None:
        """The current line, or None at the end (LLVM's empty ``*Line`` at end)."""
        return self.lines[self.index] if self.index < len(self.lines) else None

    @property
    def numbers(self) -> list[int]:
        """1-based physical line number of each visible line."""
        if self._numbers is None:
            comment = self._comment
            self._numbers = [
                i + 1
                for i, line in enumerate(self._physical)
                if line and (comment is None or line[0] != comment)
            ]
        return self._numbers

    def line_number(self, index: int | None = None) -> int:
        """1-based physical line number of a visible line (past the end: the one after the last)."""
        i = self.index if index is None else index
        if i < len(self.lines):
            return self.numbers[i]
        unterminated = bool(self.data) and not self.data.endswith(b"\n")
        return self.data.count(b"\n") + 1 + unterminated

    def line_offset(self, index: int | None = None) -> int:
        """Byte offset of the start of a visible line in the file."""
        if self._starts is None:
            starts = [0]
            find = self.data.find
            pos = find(b"\n")
            while pos >= 0:
                starts.append(pos + 1)
                pos = find(b"\n", pos + 1)
            self._starts = starts
        number = self.line_number(index)
        return self._starts[number - 1] if number <= len(self._starts) else len(self.data)

    # -- reading -----------------------------------------------------------
    def next(
        self,
        field: str,
        *,
        expected: str | None = None,
        truncated_message: str | None = None,
    ) -> bytes:
        """The current line, advancing past it; TruncatedError at the end."""
        if self.index >= len(self.lines):
            self.fail(
                TruncatedError,
                f"the file ends where {field} should be",
                field=field,
                expected=expected,
                found="end of file",
                llvm_message=truncated_message,
            )
        line = self.lines[self.index]
        self.index += 1
        return line

    def take(self, count: int) -> Sequence[bytes]:
        """Up to ``count`` lines from the current one (fewer at the end), advancing past them."""
        start = self.index
        end = min(start + count, len(self.lines))
        self.index = end
        return self.lines[start:end]

    def uint(
        self,
        field: str,
        *,
        radix: int = 10,
        bits: int = 64,
        error: type[FormatError],
        llvm_message: str | None = None,
        truncated: type[FormatError] = TruncatedError,
        truncated_message: str | None = None,
    ) -> int:
        """Read the next line as an unsigned integer (``getAsInteger``), or fail located."""
        i = self.index
        if i < len(self.lines):
            line = self.lines[i]
            if line.isdigit() and (radix == 10 or line[0] != 0x30 or len(line) == 1):
                decimal = int_of_digits(line)
                if not decimal >> bits:
                    self.index = i + 1
                    return decimal
        expected = describe_radix(radix, bits)
        if self.index >= len(self.lines):
            self.fail(
                truncated,
                f"the file ends where {field} should be",
                field=field,
                expected=expected,
                found="end of file",
                llvm_message=truncated_message,
            )
        line = self.lines[self.index]
        value = parse_uint(line, radix, bits)
        if value is None:
            self.fail(
                error,
                f"{field} is not a valid {expected}",
                field=field,
                expected=expected,
                found=show_line(line),
                llvm_message=llvm_message,
            )
        self.index += 1
        return value

    # -- errors ------------------------------------------------------------
    def fail(
        self,
        error: type[FormatError],
        detail: str,
        *,
        field: str | None = None,
        expected: str | None = None,
        found: str | None = None,
        index: int | None = None,
        column: int = 0,
        llvm_message: str | None = None,
    ) -> NoReturn:
        """Raise ``error`` located at a visible line (default: the current one)."""
        raise error(
            detail,
            path=self.path,
            location=Location(
                offset=self.line_offset(index) + column,
                line=self.line_number(index),
                field=field,
                expected=expected,
                found=found,
            ),
            llvm_message=llvm_message,
        )
