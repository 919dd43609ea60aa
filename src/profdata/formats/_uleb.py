"""ULEB128 runs decoded and encoded in one numpy pass.

The sample binary formats store everything after their name tables as
ULEB128 numbers (``sample-binary.md`` §2-§5): about one number per byte.
Decoding them one Python call at a time dominated reading, so a reader
decodes a whole run here first and walks the resulting list of ints.  This
module does not judge the numbers: a value too wide for 64 bits ends the
run and trailing bytes without a terminator are left over, so that the
reader's own bounds-checked path reports the fault at its byte with its
usual message.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

U64 = (1 << 64) - 1
#: a ULEB128 of at most this many bytes holds 63 bits, one more byte the 64th
_NUMPY_MAX_BYTES = 9


class UlebRun:
    """The complete, 64-bit ULEB128 numbers at the start of a byte range.

    Where each number starts is asked for only to report a fault or to resume
    byte by byte, so it is found from the bytes when first asked (a large
    section's positions were a copy as big as the numbers themselves)."""

    __slots__ = ("_data", "_first", "_starts", "_values", "array", "end")

    def __init__(
        self,
        values: list[int] | None,
        starts: np.ndarray | None,
        end: int,
        array: np.ndarray | None = None,
        *,
        data: bytes | bytearray | memoryview | None = None,
        first: int = 0,
    ) -> None:
        self._values = values
        #: position just after the last complete number (the range start if there is none)
        self.end = end
        #: ``values`` as uint64, for readers that gather columns instead of walking
        self.array = np.zeros(0, dtype=np.uint64) if array is None else array
        self._starts = starts
        self._data = data
        self._first = first

    @property
    def values(self) -> list[int]:
        """The numbers as a list (made on first use from :attr:`array`, if given
        without)."""
        if self._values is None:
            self._values = self.array.tolist()
        return self._values

    @property
    def numbers(self) -> Sequence[int]:
        """The numbers to index one at a time, made from :attr:`array` without a copy:
        a list of the 13M numbers of a 16 MB profile took 0.25 s and 400 MB to make,
        and reading a number from this view costs about 15 ns more."""
        if self._values is None:
            return self.array.data.cast("B").cast("Q")
        return self._values

    @property
    def starts(self) -> np.ndarray:
        """Position of each number's first byte, in the caller's buffer."""
        if self._starts is None:
            count = len(self.numbers)
            starts = np.empty(count, dtype=np.int64)
            if count:
                assert self._data is not None
                raw = np.frombuffer(
                    self._data, dtype=np.uint8, count=self.end - self._first, offset=self._first
                )
                starts[0] = self._first
                starts[1:] = np.flatnonzero(raw < 0x80)[: count - 1] + 1 + self._first
            self._starts = starts
        return self._starts

    def position(self, index: int) -> int:
        """Where number ``index`` starts (``end`` when ``index`` is past the complete ones)."""
        if index < len(self.numbers):
            return int(self.starts[index])
        return self.end


def _slow_value(raw: bytes) -> int:
    """A long number as ``readNumber`` accumulates it (``U64 + 1`` once bits overflow)."""
    value = shift = 0
    for byte in raw:
        if shift < 64:
            value |= (byte & 0x7F) << shift
        elif byte & 0x7F:
            value = U64 + 1
        shift += 7
    return value


#: bytes decoded per numpy pass: the pass's temporary arrays take about 40 bytes per
#: byte, so a section of hundreds of megabytes must not be decoded in one
_PIECE = 1 << 20


def decode_run(data: bytes | bytearray | memoryview, start: int, end: int) -> UlebRun:
    """Decode every terminated ULEB128 in ``data[start:end]``, a piece at a time.

    The numbers are counted first so that every piece decodes into its share of one
    array: joining the pieces' arrays afterwards wrote a second array as large as the
    numbers (about 0.3 s for the 13M numbers of a 16 MB profile, fresh pages)."""
    total = 0
    pos = start
    while pos < end:
        stop = min(end, pos + _PIECE)
        total += int(np.count_nonzero(np.frombuffer(data, np.uint8, stop - pos, pos) < 0x80))
        pos = stop
    out = np.empty(total, dtype=np.uint64)
    count = 0
    pos = start
    while pos < end:
        stop = min(end, pos + _PIECE)
        if stop < end:  # end the piece after its last complete number
            stop = _piece_end(data, pos, stop, end)
        more, pos = _decode_piece(data, pos, stop, out[count:])
        count += more
        if pos < stop:  # a number wider than 64 bits, or an unterminated tail
            break
    if not count:
        return UlebRun([], None, pos, data=data, first=start)
    out = out[:count]
    return UlebRun(None, None, pos, out, data=data, first=start)


def _piece_end(data: bytes | bytearray | memoryview, pos: int, stop: int, end: int) -> int:
    """Where a piece from ``pos`` up to ``stop`` ends: after its last complete number, or
    after the first one when that is longer than a piece (``end``: it never ends)."""
    tail = min(stop - pos, 16)
    raw = np.frombuffer(data, dtype=np.uint8, count=tail, offset=stop - tail)
    last = np.flatnonzero(raw < 0x80)
    if len(last):
        return stop - tail + int(last[-1]) + 1
    raw = np.frombuffer(data, dtype=np.uint8, count=stop - pos, offset=pos)
    last = np.flatnonzero(raw < 0x80)
    if len(last):
        return pos + int(last[-1]) + 1
    rest = np.frombuffer(data, dtype=np.uint8, count=end - pos, offset=pos)
    ends = np.flatnonzero(rest < 0x80)
    return pos + int(ends[0]) + 1 if len(ends) else end


def _decode_piece(
    data: bytes | bytearray | memoryview, start: int, end: int, out: np.ndarray
) -> tuple[int, int]:
    """:func:`decode_run` of one piece, in whole-array passes: how many values it wrote to
    the start of ``out``, and where the last of them ends.  Each pass after the first byte
    takes only the numbers still going (nine in ten numbers here are one byte long),
    so a pass costs what its bytes cost, not a look at every number."""
    raw = np.frombuffer(data, dtype=np.uint8, count=end - start, offset=start)
    more = raw >= 0x80
    ends = np.flatnonzero(~more)
    if not len(ends):
        return 0, start
    firsts = np.empty(len(ends), dtype=np.int64)
    firsts[0] = 0
    firsts[1:] = ends[:-1] + 1
    values_arr = out[: len(ends)]
    values_arr[:] = (raw & np.uint8(0x7F))[firsts]
    going = np.flatnonzero(more[firsts])  # numbers with a byte k still to add
    at = firsts[going]
    k = 1
    while len(going) and k < _NUMPY_MAX_BYTES:
        at += 1
        byte = raw[at]
        values_arr[going] |= (byte & np.uint8(0x7F)).astype(np.uint64) << np.uint64(7 * k)
        still = byte >= 0x80
        going = going[still]
        at = at[still]
        k += 1
    slow: list[int] = []
    if len(going):  # ten bytes or more: bit 63 from the tenth, if that is the last
        at += 1
        byte = raw[at]
        fits = byte <= 1
        top = going[fits]
        values_arr[top] |= byte[fits].astype(np.uint64) << np.uint64(63)
        slow = going[~fits].tolist()
    count = len(ends)
    for index in slow:
        lo = int(firsts[index])
        value = _slow_value(bytes(raw[lo : int(ends[index]) + 1]))
        if value > U64:
            count = index
            break
        values_arr[index] = value
    run_end = int(ends[count - 1]) + 1 + start if count else start
    return count, run_end


def _encode_scalar(values: list[int]) -> tuple[bytes, np.ndarray]:
    """:func:`encode_run` of numbers numpy cannot hold, as ``encodeULEB128`` writes them."""
    out = bytearray()
    starts: list[int] = []
    for value in values:
        starts.append(len(out))
        while value > 0x7F:
            out.append(value & 0x7F | 0x80)
            value >>= 7
        out.append(value)
    return bytes(out), np.array(starts, dtype=np.int64)


def encode_run(values: list[int]) -> tuple[bytes, np.ndarray]:
    """The ULEB128 bytes of ``values`` and where each number starts."""
    if not values:
        return b"", np.zeros(0, dtype=np.int64)
    try:
        arr = np.frombuffer(array("Q", values), dtype=np.uint64)
    except OverflowError:  # a negative or wider than 64 bits
        return _encode_scalar(values)
    return encode_array(arr)


def encode_array(arr: npt.NDArray[np.uint64]) -> tuple[bytes, np.ndarray]:
    """:func:`encode_run` of numbers already in an array.

    Each pass after the first byte takes only the numbers still going, and the
    per-number arrays are as small as they can be (byte counts int8, positions
    int32 where they fit): with nine passes over every number and int64 columns,
    the 11M numbers of a 16 MB profile took 0.7-1.4 s, mostly in fresh pages."""
    if not len(arr):
        return b"", np.zeros(0, dtype=np.int64)
    nbytes = np.ones(len(arr), dtype=np.int8)
    going = np.flatnonzero(arr >= np.uint64(0x80))
    longer = [going]  # numbers of more than k bytes, k = 1, 2, ...
    k = 1
    while len(going) and k < 9:
        nbytes[going] += 1
        k += 1
        going = going[arr[going] >= np.uint64(1 << (7 * k))]
        longer.append(going)
    nbytes[going] += 1  # the 64th bit: a tenth byte
    kind = np.int32 if 10 * len(arr) <= 0x7FFFFFFF else np.int64
    ends: npt.NDArray[np.signedinteger[Any]] = np.cumsum(nbytes, dtype=kind)
    starts = ends - nbytes
    out = np.empty(int(ends[-1]), dtype=np.uint8)
    out[starts] = arr.astype(np.uint8)  # the low byte; its top bit set below where more follow
    for k, sel in enumerate(longer, 1):
        at = starts[sel]
        out[at + (k - 1)] |= 0x80
        out[at + k] = (arr[sel] >> np.uint64(7 * k)).astype(np.uint8) & 0x7F
    return out.tobytes(), starts
