"""Text instrumentation profiles read into columns, as the common case allows.

The line reader (:func:`profdata.formats.text.read`) builds an
:class:`~profdata.model.instr.InstrRecord` per function, parsing each line as
it goes: 1.5 s for the 100k functions of a text profile llvm-profdata writes,
which llvm-profdata itself reads in about 0.1 s.  Here the visible lines are
walked once in Python touching only each record's header lines (name, hash,
counter count, value-block numbers), and everything that comes in bulk --
the counters, the value lines, the names' MD5s -- is converted afterwards in
one pass each, into a :class:`~profdata.model.record_table.RecordTable`
whose records are built only if someone asks for them.

It reads what llvm-profdata writes and declines (None) anything else: header
lines other than the plain flags, temporal traces, bitmap blocks, vtable
values, numbers that are not plain decimals, a value kind out of order or
twice in a record, or any error.  The line reader then
reads the file and reports what is wrong, so both give the same profile or
the same error (``tests/property/test_text_columns.py`` holds the two to
equal profiles).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from profdata.errors import ProfdataError
from profdata.formats._text import LineCursor, parse_uint, plain_u64s
from profdata.formats.text import read_header
from profdata.model.instr import InstrProfile, RecordColumns
from profdata.model.kinds import ProfileKind, ValueKind
from profdata.model.names import md5_array, md5_hashes, name_str
from profdata.model.record_table import RecordTable, TableProfile, ValueColumns
from profdata.offload import in_two

_EXTERNAL_SYMBOL = b"** External Symbol **"
_CALL = int(ValueKind.INDIRECT_CALL_TARGET)
_MEMOP = int(ValueKind.MEMOP_SIZE)
_KINDS = max(ValueKind) + 1  # value kinds a record may list


class _Decline(Exception):
    """Anything this reader leaves to the line reader."""


class _Ended(_Decline):
    """The lines ended inside a record: a truncated text, or a part cut where no record
    starts."""


def read_columns(data: bytes | memoryview) -> InstrProfile | None:
    """The profile, or None where the line reader must read it (see the module docstring).

    The lines and the header are the line reader's own (:class:`LineCursor`,
    :func:`read_header`), so both readers see the same visible lines.  A text
    of :data:`_SPLIT_BYTES` or more is cut before the first record after its
    middle, and when a second CPU is idle, a forked process reads the second
    part while this one reads the first (:func:`_cut` says why the parts read
    as the whole does).
    """
    raw = bytes(data)
    if b"\0" in raw:
        return None  # LLVM's buffer ends there: the line reader cuts the text
    read = _header(raw)
    if read is None:
        return None
    header, body = read
    if header.kind & ProfileKind.TEMPORAL:
        return None  # traces follow their header line
    cut = _cut(raw, body) if len(raw) - body >= _SPLIT_BYTES else None
    if cut is not None:
        parts = in_two(partial(_attempt, raw, body, cut), partial(_attempt, raw, cut, len(raw)))
        if parts is not None:
            mine, theirs = parts
            if isinstance(mine, _Part) and isinstance(theirs, _Part):
                return _profile([mine, theirs], header)
            if not isinstance(mine, _Ended):  # else not cut where a record starts
                return None
    found = _attempt(raw, body, len(raw))
    return _profile([found], header) if isinstance(found, _Part) else None


#: texts at least this long are read in two parts (a second CPU idle): 15 MB of the
#: bench's 100k functions take 0.7 s in one
_SPLIT_BYTES = 4 << 20
#: the comment llvm-profdata writes before each record's function hash
_FUNC_HASH = re.compile(rb"\n# Func Hash:\r?\n")


def _header(raw: bytes) -> tuple[InstrProfile, int] | None:
    """The header, read by the line reader from the lines before the first record's
    ``# Func Hash:`` comment (the whole text without one), and where the lines after it
    start; None if the line reader fails on it."""
    found = _FUNC_HASH.search(raw)
    cur = LineCursor(raw if found is None else raw[: found.start()])
    header = InstrProfile(kind=ProfileKind.FRONTEND, records=[], format="text")
    try:
        read_header(cur, header)
    except ProfdataError:
        return None
    return header, cur.line_offset(cur.index)


def _cut(raw: bytes, body: int) -> int | None:
    """Where the first record after the middle starts (the line before the first
    ``# Func Hash:`` comment there); None if there is no such record to cut before.

    Both parts are walked as the whole is: the first part's walk never looks
    past its end (it declines instead), and ends where its last record does;
    the whole's walk would go on from there with the second part's walk,
    unless the record it ended looks at the next line -- a record without a
    value block looks whether a ``$`` bitmap block or a value block (a u32
    line) follows -- which is why the cut line may be neither.
    """
    found = _FUNC_HASH.search(raw, body + (len(raw) - body) // 2)
    if found is None:
        return None
    cut = raw.rfind(b"\n", body, found.start()) + 1
    if cut <= body:
        return None
    line = raw[cut : found.start()].removesuffix(b"\r")
    if not line or line[:1] in (b"#", b"$") or parse_uint(line, 10, 32) is not None:
        return None
    return cut


@dataclass(frozen=True, slots=True)
class _Part:
    """The columns of a stretch of whole records; its records numbered from 0."""

    names: list[str]
    name_hashes: npt.NDArray[np.uint64]
    hashes: np.ndarray
    counts: np.ndarray
    lengths: np.ndarray
    values: ValueColumns
    #: the names by MD5 in the order the line reader meets them in this stretch
    symbols: dict[int, str]


def _attempt(raw: bytes, start: int, stop: int) -> _Part | _Decline:
    """The part from ``start`` to ``stop``, or why it declines (a forked child's result)."""
    try:
        return _part(raw, start, stop)
    except _Decline as why:
        return why


def _part(raw: bytes, start: int, stop: int) -> _Part:
    lines = LineCursor(raw[start:stop]).lines
    walk = _Walk(lines, 0)
    walk.run()
    names_bytes = [lines[i] for i in walk.name_lines]
    names = _decoded(names_bytes)
    values, value_counts, targets = _value_data(walk)
    name_hashes = md5_array(names_bytes)
    return _Part(
        names=names,
        name_hashes=name_hashes,
        hashes=_numbers(walk.hash_lines),
        counts=_numbers(walk.counter_lines),
        lengths=np.array(walk.lengths, dtype=np.int64),
        values=ValueColumns(
            row_record=np.array(walk.row_record, dtype=np.int64),
            row_kind=np.array(walk.row_kind, dtype=np.int64),
            row_sites=np.array(walk.row_sites, dtype=np.int64),
            site_lengths=np.array(walk.site_lengths, dtype=np.int64),
            values=values,
            counts=value_counts,
        ),
        symbols=_symbols(walk, name_hashes.tolist(), names, targets),
    )


def _profile(parts: list[_Part], header: InstrProfile) -> TableProfile:
    """The parts one after the other, as one read of the whole makes them."""
    names = [name for part in parts for name in part.names]
    symbols = dict(parts[0].symbols)
    for part in parts[1:]:
        for value, name in part.symbols.items():
            symbols.setdefault(value, name)  # the first name met for a hash, as one read
    firsts = np.cumsum([0] + [len(part.names) for part in parts[:-1]])
    vals = [part.values for part in parts]
    table = RecordTable(
        RecordColumns(
            names,
            np.concatenate([part.hashes for part in parts]),
            np.concatenate([part.counts for part in parts]),
            np.concatenate([part.lengths for part in parts]),
        ),
        np.zeros(len(names), dtype=np.int64),
        np.zeros(0, dtype=np.uint8),
        ValueColumns(
            row_record=np.concatenate(
                [v.row_record + first for v, first in zip(vals, firsts, strict=True)]
            ),
            row_kind=np.concatenate([v.row_kind for v in vals]),
            row_sites=np.concatenate([v.row_sites for v in vals]),
            site_lengths=np.concatenate([v.site_lengths for v in vals]),
            values=np.concatenate([v.values for v in vals]),
            counts=np.concatenate([v.counts for v in vals]),
        ),
        np.concatenate([part.name_hashes for part in parts]),
    )
    return TableProfile(
        table=table,
        kind=header.kind,
        format="text",
        symbols=symbols,
        explicit_frontend=header.explicit_frontend,
        without_bitmap_block=frozenset(range(len(names))),
    )


class _Walk:
    """The record blocks' structure: which lines are names, hashes, counters and values."""

    def __init__(self, lines: list[bytes], at: int) -> None:
        self.lines = lines
        self.at = at
        self.name_lines: list[int] = []
        self.hash_lines: list[bytes] = []
        self.counter_lines: list[bytes] = []
        self.lengths: list[int] = []
        self.row_record: list[int] = []
        self.row_kind: list[int] = []
        self.row_sites: list[int] = []
        self.site_lengths: list[int] = []
        self.value_lines: list[bytes] = []
        self.value_kinds: list[int] = []  # per site

    def run(self) -> None:
        lines = self.lines
        end = len(lines)
        at = self.at
        record = 0
        names, hashes, counters, lengths = (
            self.name_lines,
            self.hash_lines,
            self.counter_lines,
            self.lengths,
        )
        while at < end:
            if at + 2 >= end:
                raise _Ended
            names.append(at)
            hashed = lines[at + 1]
            if hashed[:1] == b"0" and len(hashed) > 1:
                raise _Decline  # read with LLVM's radix sensing: octal
            hashes.append(hashed)
            count = _small(lines[at + 2])
            if count == 0:
                raise _Decline
            if at + 3 + count > end:
                raise _Ended
            counters.extend(lines[at + 3 : at + 3 + count])
            lengths.append(count)
            at += 3 + count
            if at < end:
                first = lines[at][0]
                if first == 0x24:  # '$'
                    raise _Decline  # a bitmap block
                if 0x30 <= first <= 0x39:  # a value block, or a name that starts so
                    at = self._values(at, record)
            record += 1

    def _values(self, at: int, record: int) -> int:
        """The optional value block of ``record`` starting at line ``at``; the line after."""
        lines = self.lines
        kinds = _u32(lines[at])
        if kinds is None:
            return at  # the next record's name
        if not 0 < kinds <= _KINDS:
            raise _Decline
        at += 1
        last = -1
        for _ in range(kinds):
            kind = _small(self._line(at))
            sites = _small(self._line(at + 1))
            at += 2
            if kind not in (_CALL, _MEMOP) or kind <= last:
                raise _Decline  # vtable targets, or kinds out of order (appended sites)
            last = kind
            if not sites:
                continue
            self.row_record.append(record)
            self.row_kind.append(kind)
            self.row_sites.append(sites)
            for _ in range(sites):
                size = _small(self._line(at))
                if at + 1 + size > len(lines):
                    raise _Ended
                self.site_lengths.append(size)
                self.value_kinds.append(kind)
                self.value_lines.extend(lines[at + 1 : at + 1 + size])
                at += 1 + size
        return at

    def _line(self, at: int) -> bytes:
        if at >= len(self.lines):
            raise _Ended
        return self.lines[at]


def _decoded(names: list[bytes]) -> list[str]:
    """The names as text, decoded in one call where no name holds the separator."""
    joined = b"\x01".join(names)
    if names and joined.count(b"\x01") == len(names) - 1:
        return name_str(joined).split("\x01")
    return [name_str(name) for name in names]


def _small(line: bytes) -> int:
    """A decimal u32 line (the line reader's numbers of counters, kinds, sites)."""
    value = _u32(line)
    if value is None:
        raise _Decline
    return value


def _u32(line: bytes) -> int | None:
    """:func:`parse_uint` of a decimal u32, nine digits or fewer (every count in practice)
    read without its checks for long ones."""
    if 0 < len(line) < 10 and line.isdigit():
        return int(line)
    return parse_uint(line, 10, 32)


def _numbers(lines: list[bytes]) -> np.ndarray:
    """Plain decimal u64 lines as an array (counters, hashes)."""
    values = plain_u64s(lines)
    if values is None:
        raise _Decline
    return np.array(values, dtype=np.uint64)


def _value_data(walk: _Walk) -> tuple[np.ndarray, np.ndarray, list[tuple[int, str] | None]]:
    """Every value line as (value, count): a call target's name hashed (an external
    symbol is 0), a memop size read as it is; and each line's named target, if any."""
    kinds = np.repeat(
        np.array(walk.value_kinds, dtype=np.int64), np.array(walk.site_lengths, dtype=np.int64)
    ).tolist()
    targets: list[bytes] = []
    count_lines: list[bytes] = []
    for line in walk.value_lines:
        target, colon, count = line.rpartition(b":")
        if not colon or not target:
            raise _Decline
        targets.append(target)
        count_lines.append(count)
    counts = _numbers(count_lines)
    values = np.zeros(len(targets), dtype=np.uint64)
    named: list[tuple[int, str] | None] = [None] * len(targets)
    sizes = [i for i, kind in enumerate(kinds) if kind == _MEMOP]
    if sizes:
        values[sizes] = _numbers([targets[i] for i in sizes])
    calls = [i for i, kind in enumerate(kinds) if kind == _CALL]
    calls = [i for i in calls if targets[i] != _EXTERNAL_SYMBOL]
    if calls:
        distinct = list(dict.fromkeys(targets[i] for i in calls))
        hashed = {
            target: (value, name_str(target))
            for target, value in zip(distinct, md5_hashes(distinct), strict=True)
        }
        for i in calls:
            named[i] = hashed[targets[i]]
        values[calls] = [hashed[targets[i]][0] for i in calls]
    return values, counts, named


def _symbols(
    walk: _Walk, name_hashes: list[int], names: list[str], targets: list[tuple[int, str] | None]
) -> dict[int, str]:
    """The names by MD5, in the order the line reader meets them: each record's name, then
    its call targets."""
    symbols: dict[int, str] = {}
    per_site = np.repeat(np.array(walk.row_record, dtype=np.int64), walk.row_sites)
    owners = np.repeat(per_site, np.array(walk.site_lengths, dtype=np.int64)).tolist()
    at = 0
    for record, (value, name) in enumerate(zip(name_hashes, names, strict=True)):
        symbols.setdefault(value, name)
        while at < len(owners) and owners[at] == record:
            target = targets[at]
            if target is not None:
                symbols.setdefault(*target)
            at += 1
    return symbols


__all__ = ["read_columns"]
