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

    __slots__ = ("_data", "_first", "_starts", "array", "end", "values")

    def __init__(
        self,
        values: list[int],
        starts: np.ndarray | None,
        end: int,
        array: np.ndarray | None = None,
        *,
        data: bytes | bytearray | memoryview | None = None,
        first: int = 0,
    ) -> None:
        self.values = values
        #: position just after the last complete number (the range start if there is none)
        self.end = end
        #: ``values`` as uint64, for readers that gather columns instead of walking
        self.array = np.zeros(0, dtype=np.uint64) if array is None else array
        self._starts = starts
        self._data = data
        self._first = first

    @property
    def starts(self) -> np.ndarray:
        """Position of each number's first byte, in the caller's buffer."""
        if self._starts is None:
            count = len(self.values)
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
        if index < len(self.values):
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
_PIECE = 1 << 22


def decode_run(data: bytes | bytearray | memoryview, start: int, end: int) -> UlebRun:
    """Decode every terminated ULEB128 in ``data[start:end]``, a piece at a time."""
    pieces: list[tuple[list[int], np.ndarray]] = []
    pos = start
    while pos < end:
        stop = min(end, pos + _PIECE)
        if stop < end:  # end the piece after its last complete number
            raw = np.frombuffer(data, dtype=np.uint8, count=stop - pos, offset=pos)
            last = np.flatnonzero(raw < 0x80)
            if len(last):
                stop = pos + int(last[-1]) + 1
            else:  # one number longer than a piece: decode through its end
                rest = np.frombuffer(data, dtype=np.uint8, count=end - pos, offset=pos)
                ends = np.flatnonzero(rest < 0x80)
                stop = pos + int(ends[0]) + 1 if len(ends) else end
        values, array, pos = _decode_piece(data, pos, stop)
        pieces.append((values, array))
        if pos < stop:  # a number wider than 64 bits, or an unterminated tail
            break
    if not pieces:
        return UlebRun([], None, pos, data=data, first=start)
    values, array = pieces[0]
    if len(pieces) > 1:
        for more, _ in pieces[1:]:
            values.extend(more)
        array = np.concatenate([a for _, a in pieces])
    return UlebRun(values, None, pos, array, data=data, first=start)


def _decode_piece(
    data: bytes | bytearray | memoryview, start: int, end: int
) -> tuple[list[int], np.ndarray, int]:
    """:func:`decode_run` of one piece, in whole-array passes: the values, as a list and
    an array, and where the last complete one ends."""
    raw = np.frombuffer(data, dtype=np.uint8, count=end - start, offset=start)
    ends = np.flatnonzero(raw < 0x80)
    if not len(ends):
        return [], np.zeros(0, dtype=np.uint64), start
    firsts = np.empty(len(ends), dtype=np.int64)
    firsts[0] = 0
    firsts[1:] = ends[:-1] + 1
    lengths = ends - firsts + 1
    values_arr = (raw[firsts] & 0x7F).astype(np.uint64)
    longest = min(int(lengths.max()), _NUMPY_MAX_BYTES)
    for k in range(1, longest):
        sel = np.flatnonzero(lengths > k)
        part = (raw[firsts[sel] + k] & 0x7F).astype(np.uint64)
        values_arr[sel] |= part << np.uint64(7 * k)
    top = np.flatnonzero(lengths == _NUMPY_MAX_BYTES + 1)
    if len(top):
        part = (raw[firsts[top] + _NUMPY_MAX_BYTES] & 0x7F).astype(np.uint64)
        values_arr[top] |= part << np.uint64(63)
        wide = top[part > 1]
    else:
        wide = top
    longer = np.flatnonzero(lengths > _NUMPY_MAX_BYTES + 1)
    values: list[int] = values_arr.tolist()
    count = len(values)
    for index in sorted([*wide.tolist(), *longer.tolist()]):
        lo = int(firsts[index])
        value = _slow_value(bytes(raw[lo : lo + int(lengths[index])]))
        if value > U64:
            count = index
            del values[index:]
            break
        values[index] = value
        values_arr[index] = value
    run_end = int(ends[count - 1]) + 1 + start if count else start
    return values, values_arr[:count], run_end


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
    """:func:`encode_run` of numbers already in an array."""
    if not len(arr):
        return b"", np.zeros(0, dtype=np.int64)
    nbytes = np.ones(len(arr), dtype=np.int64)
    for k in range(1, 10):
        nbytes += arr >= np.uint64(1 << (7 * k))
    ends = np.cumsum(nbytes)
    starts = ends - nbytes
    out = np.empty(int(ends[-1]), dtype=np.uint8)
    out[starts] = arr & np.uint64(0x7F)
    sel = np.flatnonzero(nbytes > 1)
    k = 1
    while len(sel):
        out[starts[sel] + k - 1] |= 0x80
        out[starts[sel] + k] = (arr[sel] >> np.uint64(7 * k)) & np.uint64(0x7F)
        k += 1
        sel = sel[nbytes[sel] > k]
    return out.tobytes(), starts
