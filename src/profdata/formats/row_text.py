"""Text made of many similar rows, assembled column by column with numpy.

``llvm-profdata show --all-functions --counts`` prints one block per function,
and a profile has 100k of them with 700k counters.  Formatting them one by one
with f-strings costs a few microseconds per function, more than the real tool
needs for the whole file.  A :class:`RowText` instead takes each *column* of
the rows at once -- a constant, a decimal or hexadecimal number per row, a
byte string per row, a ``[a, b, c]`` list of numbers per row -- computes every
piece's width, lays the rows out with one cumulative sum and writes each
column into one ``uint8`` buffer with a few vectorized stores.  Any column may
be absent from some rows (``where``), so one template serves every kind of
row of a report.

Numbers are unsigned 64-bit and printed the way Python's ``str(int)`` and
``repr(list)`` print them (``[]`` for an empty list), which is what
``printf("%" PRIu64)`` and LLVM's counter lists print.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from profdata.model.instr import distinct, spans

Mask = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]
Bytes = npt.NDArray[np.uint8]
#: a column's picks: int32 where the table allows (a dump's index columns are millions
#: of rows, made in fresh pages that cost about as much as the rendering)
Index = npt.NDArray[np.signedinteger[Any]]


def index_type(size: int) -> type[np.int32] | type[np.int64]:
    """The smaller integer type that picks from a table of ``size`` entries."""
    return np.int32 if size <= 0x7FFFFFFF else np.int64


_U64 = np.uint64
#: 10**1 .. 10**19: a value's decimal width is 1 + how many of these it reaches.
_POW10 = np.array([10**k for k in range(1, 20)], dtype=np.uint64)
_DIGIT = np.frombuffer(b"0123456789", dtype=np.uint8)
_SEPARATOR = np.frombuffer(b", ", dtype=np.uint8)
#: average piece length above which :meth:`RowText.add_bytes` copies row by row
_LONG = 64
_OFFSETS = [np.arange(w, dtype=np.int64) for w in range(21)]


def decimal_widths(values: npt.NDArray[np.uint64]) -> Ints:
    """Characters of each value in decimal."""
    widths = np.ones(len(values), dtype=np.int64)
    if len(values):
        top = int(values.max())
        for power in _POW10[: len(str(top)) - 1]:
            widths += values >= power
    return widths


def write_decimals(out: Bytes, values: npt.NDArray[np.uint64], ends: Ints, widths: Ints) -> None:
    """Write each value's digits so that its last digit lands just before ``ends``.

    Values are grouped by width so that each group is one (values x width)
    block of digits and one store, with no per-digit masking.
    """
    if not len(values):
        return
    order = np.argsort(widths.astype(np.int8), kind="stable")
    bounds = np.cumsum(np.bincount(widths, minlength=21)).tolist()
    for width in range(1, 21):
        lo, hi = bounds[width - 1], bounds[width]
        if lo == hi:
            continue
        picked = order[lo:hi]
        rest = values[picked]
        if width == 1:
            out[ends[picked] - 1] = rest.astype(np.uint8) + np.uint8(48)
            continue
        digits = np.empty((hi - lo, width), dtype=np.uint8)
        for column in range(width - 1, -1, -1):
            quotient = rest // _U64(10)
            digits[:, column] = rest - quotient * _U64(10)
            rest = quotient
        digits += np.uint8(48)
        out[(ends[picked] - width)[:, None] + _OFFSETS[width]] = digits


def _present(where: Mask | None, rows: int) -> Mask:
    return np.ones(rows, dtype=bool) if where is None else where


Fill = Callable[[Bytes, Ints], None]


class RowText:
    """Rows whose pieces are added column by column, then written out at once.

    Every ``add_*`` call appends one piece to each row selected by ``where``
    (all rows when None); pieces keep their call order inside a row, and
    :meth:`render` fills them in that order.  Consecutive constants with the
    same ``where`` become one piece.
    """

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self._widths: list[Ints] = []
        self._fills: list[Fill] = []
        self._const: tuple[bytes, Mask | None] | None = None  # not yet added

    def _add(self, widths: Ints, fill: Fill) -> None:
        self._flush()
        self._fills.append(fill)
        self._widths.append(widths)

    def _flush(self) -> None:
        if self._const is None:
            return
        text, where = self._const
        self._const = None
        chars = np.frombuffer(text, dtype=np.uint8)
        offsets = np.arange(len(text), dtype=np.int64)
        mask = _present(where, self.rows)

        def fill(out: Bytes, starts: Ints) -> None:
            at = starts if where is None else starts[mask]
            if len(text) == 1:
                out[at] = chars[0]
            else:
                out[at[:, None] + offsets] = chars

        self._fills.append(fill)
        self._widths.append(mask.astype(np.int64) * len(text))

    def add_const(self, text: bytes, where: Mask | None = None) -> None:
        """The same text in every selected row."""
        if not text:
            return
        if self._const is not None:
            pending, pending_where = self._const
            if pending_where is where or (
                pending_where is not None
                and where is not None
                and np.array_equal(pending_where, where)
            ):
                self._const = (pending + text, where)
                return
            self._flush()
        self._const = (text, where)

    def add_decimal(
        self,
        values: npt.NDArray[np.uint64] | Ints,
        where: Mask | None = None,
        *,
        width: int = 0,
        signed: bool = False,
    ) -> None:
        """One number per row (``values`` has one entry per row; counts and lengths may
        come as non-negative int64), right-aligned in ``width`` columns like ``%*d``;
        ``signed`` reads values of 2**63 and above as negative (``%`` ``PRId64`` of a
        ``uint64_t``)."""
        mask = _present(where, self.rows)
        vals = np.asarray(values, dtype=np.uint64)[mask]
        negative = vals >= _U64(1 << 63) if signed else None
        if negative is not None and bool(negative.any()):
            vals = np.where(negative, -vals, vals)  # the magnitude: 2**64 - v, wrapping
        else:
            negative = None
        digits = decimal_widths(vals)
        used = digits if negative is None else digits + negative
        widths = np.maximum(used, width) if width else used

        def fill(out: Bytes, starts: Ints) -> None:
            at = starts[mask]
            ends = at + widths
            write_decimals(out, vals, ends, digits)
            if width:
                out[spans(at, widths - used)] = ord(" ")
            if negative is not None:
                out[(ends - digits - 1)[negative]] = ord("-")

        row_widths = np.zeros(self.rows, dtype=np.int64)
        row_widths[mask] = widths
        self._add(row_widths, fill)

    def add_hex16(self, values: npt.NDArray[np.uint64], where: Mask | None = None) -> None:
        """One number per row as 16 lowercase hex digits (``%016x``)."""
        mask = _present(where, self.rows)
        vals = np.asarray(values, dtype=np.uint64)[mask]

        def fill(out: Bytes, starts: Ints) -> None:
            digits = vals.astype(">u8").tobytes().hex().encode("ascii")
            at = starts[mask][:, None] + _OFFSETS[16]
            out[at] = np.frombuffer(digits, dtype=np.uint8).reshape(-1, 16)

        self._add(mask.astype(np.int64) * 16, fill)

    def add_bytes(
        self, blob: Bytes, starts: Ints, lengths: Ints, where: Mask | None = None
    ) -> None:
        """Row i's piece is ``blob[starts[i] : starts[i] + lengths[i]]``."""
        mask = _present(where, self.rows)
        src_starts, widths = starts[mask], lengths[mask]
        total = int(widths.sum())
        in_order = bool(np.all(src_starts == np.cumsum(widths) - widths))

        def fill(out: Bytes, at: Ints) -> None:
            dest = at[mask]
            if len(widths) and total > _LONG * len(widths):
                # long pieces (text dumps): a slice copy per row beats an index per byte
                rows = zip(dest.tolist(), src_starts.tolist(), widths.tolist(), strict=True)
                for d, s, n in rows:
                    out[d : d + n] = blob[s : s + n]
            else:
                out[spans(dest, widths)] = (
                    blob[:total] if in_order else blob[spans(src_starts, widths)]
                )

        row_widths = np.zeros(self.rows, dtype=np.int64)
        row_widths[mask] = widths
        self._add(row_widths, fill)

    def add_strings(self, texts: Sequence[str], where: Mask | None = None) -> None:
        """One ``str`` per selected row (``texts`` holds the selected rows' pieces, in order)."""
        encoded = [t.encode("utf-8", "surrogateescape") for t in texts]
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        blob = np.frombuffer(b"".join(encoded), dtype=np.uint8)
        mask = _present(where, self.rows)
        starts = np.zeros(self.rows, dtype=np.int64)
        widths = np.zeros(self.rows, dtype=np.int64)
        starts[mask] = np.cumsum(lengths) - lengths
        widths[mask] = lengths
        self.add_bytes(blob, starts, widths, mask)

    def add_lists(
        self,
        values: npt.NDArray[np.uint64],
        starts: Ints,
        lengths: Ints,
        where: Mask | None = None,
        *,
        suffix: bytes,
    ) -> None:
        """Row i's piece is ``repr(values[starts[i] : starts[i] + lengths[i]].tolist())``
        followed by ``suffix`` (at least one byte: it absorbs the last element's spare
        separator, so that separators need no mask)."""
        if not suffix:
            raise ValueError("add_lists needs a suffix")
        mask = _present(where, self.rows)
        listed = lengths[mask]
        vals = np.asarray(values, dtype=np.uint64)[spans(starts[mask], listed)]
        widths = decimal_widths(vals)
        # an element takes its digits and ", "; the last one's ", " becomes "]" and the
        # suffix's first byte, which are written after the separators
        token_ends = np.cumsum(widths + 2)
        firsts = np.cumsum(listed) - listed
        nonempty = listed > 0
        row_first = np.zeros(len(listed), dtype=np.int64)
        row_first[nonempty] = (token_ends - widths - 2)[firsts[nonempty]]
        piece = np.full(len(listed), 2, dtype=np.int64)  # "[]"
        piece[nonempty] = token_ends[(firsts + listed - 1)[nonempty]] - row_first[nonempty]
        # where each element's digits end, relative to its row's piece
        ends = token_ends - 2 - np.repeat(row_first - 1, listed)
        chars = np.frombuffer(suffix, dtype=np.uint8)
        tail = np.arange(len(suffix), dtype=np.int64)

        def fill(out: Bytes, at: Ints) -> None:
            row_at = at[mask]
            element_ends = ends + np.repeat(row_at, listed)
            write_decimals(out, vals, element_ends, widths)
            out[element_ends] = _SEPARATOR[0]
            out[element_ends + 1] = _SEPARATOR[1]
            out[row_at] = ord("[")
            closes = row_at + piece - 1
            out[closes] = ord("]")
            out[closes[:, None] + 1 + tail] = chars

        row_widths = np.zeros(self.rows, dtype=np.int64)
        row_widths[mask] = piece + len(suffix)
        self._add(row_widths, fill)

    def render(self) -> bytes:
        sizes = self.row_sizes()
        out = np.empty(int(sizes.sum()), dtype=np.uint8)
        self.render_into(out, np.cumsum(sizes) - sizes)
        return out.tobytes()

    def row_sizes(self) -> Ints:
        """Each row's length in bytes."""
        self._flush()
        if not self._widths:
            return np.zeros(self.rows, dtype=np.int64)
        sizes: Ints = np.sum(self._widths, axis=0)
        return sizes

    def render_into(self, out: Bytes, row_starts: Ints) -> None:
        """Write row ``i`` at ``out[row_starts[i]:]``: rows may go anywhere in a larger
        text, between other rows (of other :class:`RowText`), with no copy."""
        self._flush()
        if not self._widths or not self.rows:
            return
        widths = np.stack(self._widths)  # (columns, rows)
        column_starts = row_starts + np.cumsum(widths, axis=0) - widths
        for column, fill in enumerate(self._fills):
            fill(out, column_starts[column])


# Padded rows.  RowText scatters every piece to its final place, which takes an index
# array per column as long as the text; on a text of tens of megabytes the fresh pages
# of those arrays cost more than the formatting.  ``render_rows`` takes rows whose
# fields have a bounded width (constants, numbers, strings from a table): each piece of
# :data:`_PIECE` rows is a fixed-width table, filled column by column (a table string is
# one ``np.take`` of a padded item), and one boolean mask of its non-padding bytes
# squeezes it into the text.  The piece's arrays are reused, so they stay in cache and
# in the C heap.  Measured on 2M rows of ``"    NAME: COUNT\n"``: 0.32 s, against 4.5 s
# for RowText and 1.6 s for f-strings.
#
# A table string column is padded to a width chosen for the rows that pick from it,
# not to its longest item: one 4,000-byte C++ name among 50k short ones made every row
# of a 3M-row dump 4 kB wide (show of a 16 MB profile took 10.6 s instead of 1.6 s).
# Items longer than the column are written cut, and the rest of each is put in place
# when the piece is squeezed (:meth:`_Layout.piece`).

#: rows rendered per pass of :func:`render_rows`, unless their padded table would
#: take more than _PIECE_BYTES
_PIECE = 1 << 15
_PIECE_BYTES = 1 << 22
#: what putting the rest of one cut item in place costs, in bytes of padded table: the
#: put-back's two slice copies an item measured 0.4 us against about 1.1 ns a padded
#: byte (take and compress); on names of every length up to 430 bytes, 500 and 800 were
#: alike, 300 lost more in put-backs than it saved and 2000 (with a put-back twice as
#: slow) padded 1.4 GB of table for 0.3 GB of text
_CUT_COST = 600
#: a table shared by the chunks that pick from it is made this large at most for a few rows
_SHARED_BYTES = 32 << 20


class Strings:
    """A table of byte strings that rows pick from by index, held padded (to a width
    the picking rows choose) so that a pick is one fixed-size copy (``np.take`` of
    void items)."""

    __slots__ = ("_padded", "blob", "has_nul", "lengths", "starts", "width")

    def __init__(self, items: Sequence[bytes]) -> None:
        self.lengths = np.fromiter(map(len, items), dtype=np.int64, count=len(items))
        self.starts = np.cumsum(self.lengths) - self.lengths
        self.blob = b"".join(items)
        self.width = int(self.lengths.max(initial=0))  # the longest item
        #: whether an item holds a NUL byte, which a padded table cannot tell from padding
        self.has_nul = b"\0" in self.blob
        self._padded: dict[int, tuple[npt.NDArray[np.void], npt.NDArray[np.void]]] = {}

    def __len__(self) -> int:
        return len(self.lengths)

    def plus_empty(self) -> Strings:
        """This table with one more entry, the empty string (last)."""
        out = Strings.__new__(Strings)
        out.lengths = np.append(self.lengths, 0)
        out.starts = np.append(self.starts, len(self.blob))
        out.blob = self.blob
        out.width = self.width
        out.has_nul = self.has_nul
        out._padded = {}
        return out

    def padded(self, width: int) -> tuple[npt.NDArray[np.void], npt.NDArray[np.void]]:
        """Every item cut or padded to ``width`` bytes (``V{width}`` items), and which of
        those bytes are the item's."""
        made = self._padded.get(width)
        if made is None:
            made = self._padded[width] = self._build(None, width)
        return made

    def picker(self, width: int, index: Index) -> Picker:
        """The table that rows picking ``index`` take ``width`` bytes of each item from.

        Chunks of rows ask for many widths, and a table made for each (or kept for
        each) cost seconds and gigabytes on a profile of 50k names of every length
        up to 400 bytes.  So rows share the table of the next power of two wide (at
        most a dozen of them), of which each piece takes whole items and keeps
        ``width`` bytes; only a few rows asking for a table over :data:`_SHARED_BYTES`
        (one 4,000-byte name in a frame) get a table of the items they pick."""
        stride = min(1 << (width - 1).bit_length(), self.width)
        if stride * len(self.lengths) > _SHARED_BYTES and 4 * len(index) < len(self.lengths):
            used = distinct(index)
            padded, masks = self._build(used, width)
            return Picker(padded, masks, width, np.searchsorted(used, index))
        padded, masks = self.padded(stride)
        return Picker(padded, masks, stride, index)

    def _build(
        self, items: Ints | None, width: int
    ) -> tuple[npt.NDArray[np.void], npt.NDArray[np.void]]:
        """``items`` (all if None) cut or padded to ``width`` bytes, and their masks."""
        lengths = self.lengths if items is None else self.lengths[items]
        starts = self.starts if items is None else self.starts[items]
        kept = np.minimum(lengths, width)
        blob = self.blob
        # an index per byte (spans) took 1.3 s for tables of 50k items 256-512 wide
        joined = b"".join(
            blob[at : at + n].ljust(width, b"\0")
            for at, n in zip(starts.tolist(), kept.tolist(), strict=True)
        )
        table = np.frombuffer(joined, dtype=f"V{width}")
        masks = np.arange(width) < kept[:, None]
        return table, masks.view(f"V{width}").reshape(-1)

    def column_width(self, index: Index) -> int:
        """The width to pad to for rows picking ``index``: the cheapest of a table as
        wide as each item length and the cost of putting the rest of every longer
        item picked in place (:data:`_CUT_COST` each)."""
        if not len(index) or not self.width:
            return self.width
        lengths = self.lengths
        picked = lengths[index]
        longest = int(picked.max())
        if longest * len(index) <= 2 * int(picked.sum()) + _CUT_COST * 64:
            return longest  # nothing much to save
        # rows picking an item of each length; cut at width c, the longer ones are cut
        rows = np.bincount(picked, minlength=longest + 1)
        width = np.arange(longest + 1, dtype=np.int64)
        over = np.cumsum(rows[::-1])[::-1]  # picks of items at least c long
        weight = np.cumsum((rows * (width + _CUT_COST))[::-1])[::-1]
        over_picks = np.append(over[1:], 0)  # longer than c
        over_weight = np.append(weight[1:], 0)
        cost = len(index) * width + over_weight - width * over_picks
        return int(np.argmin(cost))


@dataclass(frozen=True, slots=True)
class Picker:
    """Where a column's rows take their items from: ``padded`` items ``stride`` bytes
    wide (``V{stride}``, at least the column's width) with their ``masks``, row ``i``
    taking item ``index[i]``."""

    padded: npt.NDArray[np.void]
    masks: npt.NDArray[np.void]
    stride: int
    index: Index


@dataclass(frozen=True, slots=True)
class Pick:
    """A column of table entries: row ``i`` prints ``table[index[i]]``."""

    table: Strings
    index: Index


@dataclass(frozen=True, slots=True)
class Decimal:
    """A column of unsigned numbers printed in decimal (``where``: in the rows where it
    is true; other rows print nothing in this column)."""

    values: npt.NDArray[np.uint64]
    where: Mask | None = None


Field = bytes | Pick | Decimal


def _field_lengths(field: Field, rows: Ints | slice = slice(None)) -> Ints | int:
    """The bytes of ``field`` in each of the chosen rows (a constant: one number)."""
    if isinstance(field, bytes):
        return len(field)
    if isinstance(field, Pick):
        lengths: Ints = field.table.lengths[field.index[rows]]
        return lengths
    widths = decimal_widths(field.values[rows])
    return widths if field.where is None else widths * field.where[rows]


def row_lengths(fields: Sequence[Field], rows: int) -> Ints:
    """The byte length of each row."""
    lengths = np.zeros(rows, dtype=np.int64)
    for f in fields:
        lengths += _field_lengths(f)
    return lengths


class Scratch:
    """One buffer that texts rendered in turn reuse (each is written out before the
    next is rendered): pages already touched cost nothing, while fresh ones cost
    about 2 ns a byte on the machines measured, as much as rendering them."""

    def __init__(self) -> None:
        self.buffer = np.empty(0, dtype=np.uint8)

    def take(self, size: int) -> Bytes:
        """``size`` bytes of the buffer, grown if it is smaller."""
        if size > len(self.buffer):
            self.buffer = np.empty(max(size, 2 * len(self.buffer)), dtype=np.uint8)
        return self.buffer[:size]


def render_rows(
    fields: Sequence[Field], rows: int, scratch: Scratch | None = None
) -> tuple[Bytes, Ints]:
    """``rows`` rows, each the concatenation of one entry of every field: the text, and
    where each row starts in it (one more entry: the end).  With ``scratch``, the text
    is in its buffer, good until the next rendering into it.

    The text is a numpy array, written in place piece by piece: a large ``bytes``
    built by joining is a second copy in fresh pages, which cost more than the
    rendering on the machines measured."""
    offsets = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(row_lengths(fields, rows), out=offsets[1:])
    size = int(offsets[-1])
    out = np.empty(size, dtype=np.uint8) if scratch is None else scratch.take(size)
    if len(out):
        layout = _Layout(fields, rows)
        piece = layout.piece_rows
        for start in range(0, rows, piece):
            stop = min(rows, start + piece)
            layout.piece(start, stop, out[offsets[start] : offsets[stop]], offsets)
    return out, offsets


def _number_width(field: Decimal) -> int:
    """A number column's width in the padded table: its largest value's digits."""
    return len(str(int(field.values.max(initial=0))))


class _Layout:
    """The padded table of one piece of rows, and which of its bytes are text.  Each
    field has a fixed width for all rows (a number column: its largest value's
    digits; a table column: :meth:`Strings.column_width`), so constants are written
    once and the tables are reused by every piece."""

    def __init__(self, fields: Sequence[Field], rows: int) -> None:
        self.fields = fields
        self.widths: list[int] = []
        self.small: list[bool] = []  # a number column that fits 32 bits
        self.picks: dict[int, Picker] = {}
        self.cut: dict[int, npt.NDArray[np.bool_]] = {}  # items longer than the column
        for i, f in enumerate(fields):
            if isinstance(f, bytes):
                width = len(f)
            elif isinstance(f, Decimal):
                self.small.append(int(f.values.max(initial=0)) <= 0xFFFFFFFF)
                width = _number_width(f)
            else:
                width = f.table.column_width(f.index)
                if width:
                    self.picks[i] = f.table.picker(width, f.index)
                long = f.table.lengths > width
                if bool(long.any()) and bool(long[f.index].any()):
                    self.cut[i] = long
            self.widths.append(width)
        #: no item or constant holds a NUL byte: every NUL of the table is padding, and
        #: the bytes to keep are found in one pass instead of gathering masks column by
        #: column (numbers then leave NULs, not zeros, before their digits)
        self.nul_free = all(
            not (f.table.has_nul if isinstance(f, Pick) else isinstance(f, bytes) and b"\0" in f)
            for f in fields
        )
        self.total = total = sum(self.widths)
        self.piece_rows = max(1, min(_PIECE, _PIECE_BYTES // max(total, 1)))
        count = min(rows, self.piece_rows)
        layout = [(f"f{i}", f"V{w}") for i, w in enumerate(self.widths) if w]
        self.table = np.empty(count, dtype=np.dtype(layout))
        self.keep = np.empty(count, dtype=self.table.dtype)
        self.table_bytes = self.table.view(np.uint8).reshape(count, total)
        self.keep_bytes = self.keep.view(bool).reshape(count, total)
        at = 0
        for f, width in zip(fields, self.widths, strict=True):
            if isinstance(f, bytes) and width:
                self.table_bytes[:, at : at + width] = np.frombuffer(f, dtype=np.uint8)
                self.keep_bytes[:, at : at + width] = True
            at += width

    def piece(self, start: int, stop: int, out: Bytes, offsets: Ints) -> None:
        """Rows ``start`` to ``stop`` into ``out``, which is exactly their length
        (``offsets``: where every row starts in the whole text)."""
        count = stop - start
        table_bytes, keep_bytes = self.table_bytes[:count], self.keep_bytes[:count]
        at = 0
        small = iter(self.small)
        for i, (f, width) in enumerate(zip(self.fields, self.widths, strict=True)):
            if isinstance(f, Pick) and width:
                self._pick(i, start, stop, at)
            elif isinstance(f, Decimal):
                self._number(i, f, start, stop, at, next(small))
            at += width
        if self.nul_free:
            np.not_equal(table_bytes, 0, out=keep_bytes)
        # boolean indexing, then a copy: numpy's mask runs make it faster than compress
        squeezed = table_bytes.reshape(-1)[keep_bytes.reshape(-1)]
        cuts = self._cuts(start, stop)
        if cuts is None:
            out[:] = squeezed
            return
        rows, columns = cuts
        self._put_back(squeezed, out, start, offsets[start:stop] - offsets[start], rows, columns)

    def _pick(self, i: int, start: int, stop: int, at: int) -> None:
        """Field ``i``, a table column starting at byte ``at`` of a row, of rows ``start``
        to ``stop``: the picked items (and their masks where NULs may be text)."""
        count, width = stop - start, self.widths[i]
        picker = self.picks[i]
        index = picker.index[start:stop]
        if picker.stride == width:
            self.table[:count][f"f{i}"] = np.take(picker.padded, index)
            if not self.nul_free:
                self.keep[:count][f"f{i}"] = np.take(picker.masks, index)
            return
        # whole items of a wider table, cut to the column
        items = np.take(picker.padded, index).view(np.uint8)
        self.table_bytes[:count, at : at + width] = items.reshape(count, -1)[:, :width]
        if not self.nul_free:
            masks = np.take(picker.masks, index).view(bool)
            self.keep_bytes[:count, at : at + width] = masks.reshape(count, -1)[:, :width]

    def _number(self, i: int, f: Decimal, start: int, stop: int, at: int, small: bool) -> None:
        """Field ``i``, a number column starting at byte ``at`` of a row, of rows ``start``
        to ``stop``: the digits right-aligned (and which bytes are digits where NULs may
        be text)."""
        count, width = stop - start, self.widths[i]
        values = f.values[start:stop]
        block = self.table_bytes[:count, at : at + width]
        _digits(block, values, small, self.nul_free)
        where = None if f.where is None else f.where[start:stop, None]
        if self.nul_free:
            if where is not None:
                block *= where
            return
        digits = self.keep_bytes[:count, at : at + width]
        np.greater_equal(np.arange(width), width - decimal_widths(values)[:, None], out=digits)
        if where is not None:
            digits &= where

    def _cuts(self, start: int, stop: int) -> tuple[Ints, Ints] | None:
        """The rows of the piece (from ``start``) that pick a cut item, and in which
        field, by row then field; None if none does."""
        if not self.cut:
            return None
        rows, columns = [], []
        for i, long in self.cut.items():
            field = self.fields[i]
            assert isinstance(field, Pick)
            hit = np.flatnonzero(long[field.index[start:stop]])
            if len(hit):
                rows.append(hit)
                columns.append(np.full(len(hit), i, dtype=np.int64))
        if not rows:
            return None
        row, column = np.concatenate(rows), np.concatenate(columns)
        order = np.lexsort((column, row))
        return row[order], column[order]

    def _put_back(
        self, squeezed: Bytes, out: Bytes, start: int, row_at: Ints, rows: Ints, columns: Ints
    ) -> None:
        """``out`` is ``squeezed`` with the rest of every cut item (row ``rows[k]`` of the
        piece, field ``columns[k]``; by row, then field) put back where it belongs."""
        picked = start + rows
        # where the rest goes: after the fields before the cut one, and its cut width
        at = row_at[rows] + np.array(self.widths, dtype=np.int64)[columns]
        for i, f in enumerate(self.fields[: int(columns.max())]):
            at += (columns > i) * _field_lengths(f, picked)
        size = np.zeros(len(rows), dtype=np.int64)
        rest_from = np.zeros(len(rows), dtype=np.int64)
        tables: list[tuple[npt.NDArray[np.bool_], bytes]] = []
        for i in self.cut:
            field = self.fields[i]
            assert isinstance(field, Pick)
            mine = columns == i
            items = field.index[picked[mine]]
            size[mine] = field.table.lengths[items] - self.widths[i]
            rest_from[mine] = field.table.starts[items] + self.widths[i]
            tables.append((mine, field.table.blob))
        # the squeezed text comes in runs between the rests, the k-th up to where rest k
        # goes: bounds made here, so that each run and each rest is one slice copy
        target, source = out.data, squeezed.data
        ends = at + size
        run_from = np.zeros(len(at), dtype=np.int64)
        run_from[1:] = ends[:-1]
        taken = np.cumsum(at - run_from)
        run_at = taken - at + run_from
        for a, b, c, d in zip(
            run_from.tolist(), at.tolist(), run_at.tolist(), taken.tolist(), strict=True
        ):
            target[a:b] = source[c:d]
        target[int(ends[-1]) :] = source[int(taken[-1]) :]
        for mine, blob in tables:
            items = memoryview(blob)
            bounds = at[mine].tolist(), ends[mine].tolist(), rest_from[mine].tolist()
            for a, b, c in zip(*bounds, strict=True):
                target[a:b] = items[c : c + b - a]


def _digits(block: Bytes, values: npt.NDArray[np.uint64], small: bool, blank: bool) -> None:
    """Each number right-aligned in ``block``'s columns; the leading columns of shorter
    numbers get zeros, which the mask drops, or with ``blank`` NUL bytes.  32-bit
    arithmetic when it fits."""
    kind = np.uint32 if small else np.uint64
    rest: npt.NDArray[np.unsignedinteger] = values.astype(kind)
    ten: npt.NDArray[np.unsignedinteger] = np.array(10, dtype=kind)
    zero: npt.NDArray[np.unsignedinteger] = np.array(ord("0"), dtype=kind)
    last = block.shape[1] - 1
    for column in range(last, -1, -1):
        quotient = rest // ten
        digit = rest - quotient * ten + zero
        if blank and column < last:
            digit *= rest != 0  # nothing left of the number: a NUL
        block[:, column] = digit
        rest = quotient


__all__ = [
    "Decimal",
    "Field",
    "Pick",
    "Picker",
    "RowText",
    "Scratch",
    "Strings",
    "decimal_widths",
    "index_type",
    "render_rows",
    "row_lengths",
    "write_decimals",
]
